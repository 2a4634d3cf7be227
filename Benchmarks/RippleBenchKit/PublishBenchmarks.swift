import Ripple
import RippleDiff

/// The `publish` suite: the cost of `ObservableCollection`'s events against a plain array.
enum PublishBenchmarks {
    static let suite = BenchmarkSuite(
        name: "publish",
        summary:
            "`ObservableCollection` with one synchronous subscriber (`ripple`; `ripple-held` keeps each snapshot until the next) vs `Array.append` plus one closure call (`array`)",
        makeGroups: { mode, _ in groups(quick: mode == .quick) })

    static func groups(quick: Bool) -> [BenchmarkGroup] {
        let sizes: [(String, Int)] =
            quick ? [("1", 1), ("10k", 10_000)] : [("1", 1), ("10k", 10_000), ("100k", 100_000)]
        return sizes.map { name, count in
            let elements = (0..<count).map { IntElement(id: $0, content: 0) }
            func task(_ engine: String, prepare: (() -> Void)? = nil, _ body: @escaping () -> Int?) -> BenchmarkTask {
                BenchmarkTask(
                    suite: "publish", scenario: name, element: "int", engine: engine, n: count, body: body,
                    prepare: prepare)
            }
            // Each engine starts from a fresh, empty target made outside the timed region.
            let plain = Fixture<[IntElement]>()
            let observed = Fixture<(ObservableCollection<IntElement>, SubscriptionToken, Counter)>()
            func freshCollection() {
                let collection = ObservableCollection<IntElement>()
                let events = Counter()
                let token = collection.subscribe(on: .synchronous) { _ in events.increment() }
                observed.value = (collection, token, events)
            }
            // The same, with a subscriber that keeps the last snapshot it received until the next
            // one, as every list source does: each append then finds the collection's right edge
            // shared with that snapshot, and copies it.
            let held = Fixture<(ObservableCollection<IntElement>, SubscriptionToken, SnapshotHolder)>()
            func freshHeldCollection() {
                held.value = nil
                let collection = ObservableCollection<IntElement>()
                let holder = SnapshotHolder()
                let token = collection.subscribe(on: .synchronous) { holder.keep($0.snapshot) }
                held.value = (collection, token, holder)
            }
            var tasks = [
                task("array", prepare: { plain.value = [] }) { arrayEngine(plain.value!, elements) },
                task("ripple", prepare: freshCollection) {
                    let (collection, _, events) = observed.value!
                    return rippleEngine(collection, events, elements)
                },
                task("ripple-held", prepare: freshHeldCollection) {
                    let (collection, _, holder) = held.value!
                    return rippleHeldEngine(collection, holder, elements)
                },
                task("ripple-batch", prepare: freshCollection) {
                    let (collection, _, events) = observed.value!
                    return rippleBatchEngine(collection, events, elements)
                },
            ]
            if count >= 10_000 {
                // `replace(with:)` at `count` elements with the `diff` suite's 10% changes.
                let shape = ChangeShape(count: count, deleted: count / 10, inserted: count / 10, shuffled: count / 50)
                let (source, target) = shape.make(seed: 0x5EED) { _, offset in IntElement(id: offset, content: 0) }
                // The moves column shows that the event carries the same minimal moves as the diff.
                // The collection holding `source`, and its subscriber, are made outside the timed
                // region: building the collection's storage from an array is O(n) of its own.
                let replaced = Fixture<(ObservableCollection<IntElement>, SubscriptionToken, Counter)>()
                tasks.append(
                    task(
                        "ripple-replace",
                        prepare: {
                            replaced.value = nil
                            let collection = ObservableCollection(source)
                            let moves = Counter()
                            let token = collection.subscribe(on: .synchronous) {
                                moves.value = $0.changeset.moves.count
                            }
                            replaced.value = (collection, token, moves)
                        }
                    ) {
                        let (collection, _, moves) = replaced.value!
                        collection.replace(with: target)
                        return moves.value
                    })
                // The `diff` suite's `ripple` engine on the same input, for the replace target (≤ 1.5×).
                tasks.append(
                    task("diff") {
                        let staged = StagedChangeset(from: source, to: target)
                        blackHole(staged)
                        return staged.stages.reduce(0) { $0 + $1.changeset.moves.count }
                    })
            }
            return BenchmarkGroup(tasks: tasks)
        }
    }
}

extension PublishBenchmarks {
    // The engines are functions of their own, never inlined, so that a profiler can name them:
    // `valgrind --tool=callgrind --toggle-collect='*rippleEngine*' ripple-bench --suite publish …`.

    /// `array`: `Array.append` plus one closure call per element.
    @inline(never)
    static func arrayEngine(_ start: [IntElement], _ elements: [IntElement]) -> Int? {
        let observer = Observer()
        var array = start
        for element in elements {
            array.append(element)
            observer.notify(array.count)
        }
        blackHole(array)
        return nil
    }

    /// `ripple`: one `append` per element, each publishing one event to one synchronous subscriber.
    @inline(never)
    static func rippleEngine(
        _ collection: ObservableCollection<IntElement>, _ events: Counter, _ elements: [IntElement]
    ) -> Int? {
        for element in elements { collection.append(element) }
        precondition(events.value == elements.count, "every append must publish one event")
        return nil
    }

    /// `ripple-held`: the `ripple` engine, with a subscriber that keeps the last snapshot it
    /// received (and drops the one before), as a list source does.
    @inline(never)
    static func rippleHeldEngine(
        _ collection: ObservableCollection<IntElement>, _ holder: SnapshotHolder, _ elements: [IntElement]
    ) -> Int? {
        for element in elements { collection.append(element) }
        precondition(holder.events == elements.count, "every append must publish one event")
        precondition(holder.snapshot.count == collection.count, "the subscriber holds the latest snapshot")
        return nil
    }

    /// `ripple-batch`: the same appends inside one `performBatchUpdates`, publishing one event.
    @inline(never)
    static func rippleBatchEngine(
        _ collection: ObservableCollection<IntElement>, _ events: Counter, _ elements: [IntElement]
    ) -> Int? {
        collection.performBatchUpdates {
            for element in elements { collection.append(element) }
        }
        precondition(events.value == 1, "a batch must publish one event")
        return nil
    }
}

/// A closure call the optimizer cannot remove, for the `array` baseline.
final class Observer {
    var sum = 0
    let callback: (Int) -> Void

    init() {
        var sink = 0
        callback = {
            sink &+= $0
            blackHole(sink)
        }
    }

    @inline(never)
    func notify(_ value: Int) { callback(value) }
}

/// Holds state made by a task's `prepare`, outside the timed region.
final class Fixture<Value> {
    var value: Value?
}

/// The `ripple-held` subscriber's state: the last snapshot received, and the number of events.
final class SnapshotHolder: @unchecked Sendable {
    // @unchecked: only touched from the synchronous subscriber, on the benchmark's thread.
    private(set) var snapshot = ListSnapshot<IntElement>()
    private(set) var events = 0

    func keep(_ snapshot: ListSnapshot<IntElement>) {
        self.snapshot = snapshot
        events += 1
    }
}

/// A thread-safe counter for the benchmark's subscribers.
final class Counter: @unchecked Sendable {
    // @unchecked: only touched from the synchronous subscriber, on the benchmark's thread.
    var value = 0
    func increment() { value += 1 }
}
