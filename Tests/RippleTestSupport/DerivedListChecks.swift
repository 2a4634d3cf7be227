import Ripple
import RippleDiff
import RippleTesting

/// Follows a derived list's events, and checks each against the list before it and a model: the
/// list shows the model, one event per change (none when nothing changed), and the event is valid,
/// replays onto the previous snapshot, and, staged as a list source stages it, passes UIKit's batch
/// rules for tables and collections.
public final class DerivedListChecker<List: LiveList>: Sendable where List.Element: Equatable {
    private let list: List
    private let events = EventRecorder<CollectionChange<List.Element>>()
    private let token: SubscriptionToken
    private let shown: LockedState<ListSnapshot<List.Element>>

    /// Starts following `list` from its current snapshot.
    public init(_ list: List) {
        self.list = list
        token = list.subscribe(on: .synchronous, sendingCurrent: false, events.handler)
        shown = LockedState(list.snapshot)
    }

    /// Stops following the list.
    public func cancel() { token.cancel() }

    /// Where the events since the last call, or the list, disagree with `expected`; `nil` when they
    /// agree.
    public func failure(expecting expected: [List.Element]) -> String? {
        let previous = Array(shown.withLock { $0 })
        let new = events.takeAll()
        let now = Array(list.snapshot)
        if now != expected { return "shows \(now), expected \(expected)" }
        if new.count > 1 { return "\(new.count) events for one change" }
        guard let event = new.first else {
            return previous == expected ? nil : "no event, but the list went from \(previous) to \(expected)"
        }
        // (An update is passed on even when the source's element is equal to the one it replaced:
        // the source published it, and it may be another instance.)
        if previous == expected && event.changeset.updates.isEmpty {
            return "an event \(event.changeset) that changes nothing"
        }
        if let failure = event.changeset.validationFailure() { return "invalid \(event.changeset): \(failure)" }
        if event.changeset.applied(to: previous, element: { event.snapshot[$0] }) != expected {
            return "\(event.changeset) does not replay \(previous) into \(expected)"
        }
        var before = previous.count
        for (index, stage) in event.staged(from: ListSnapshot(previous)).enumerated() {
            let batch = BatchUpdate(stage.changeset)
            for validator in [BatchUpdateValidator.tableView, .collectionView] {
                let result = validator.validate(batch, before: [before], after: [stage.data.count])
                if !result.isValid || !result.warnings.isEmpty {
                    return
                        "\(validator.flavor) rejects stage \(index) \(stage.changeset) of \(event.changeset): \(result)"
                }
            }
            before = stage.data.count
        }
        shown.withLock { $0 = event.snapshot }
        return nil
    }
}

/// Random mutations and batches of an `ObservableCollection<TestItem>`, the source of the derived
/// lists' property tests: every kind of change a source publishes (appends, inserts, removals,
/// moves, updates, removals at several offsets, `replace(with:)` and appends of several), with
/// contents below `contents`.
public struct RandomSourceMutations {
    private var nextID: Int
    private let contents: Int

    /// Mutations whose new elements have identifiers from `firstID` on, and contents in
    /// `0..<contents`.
    public init(firstID: Int = 1_000, contents: Int = 12) {
        nextID = firstID
        self.contents = contents
    }

    /// A new element.
    public mutating func item(_ random: inout SplitMix64) -> TestItem {
        nextID += 1
        return TestItem(id: nextID, content: random.int(below: contents))
    }

    /// One random mutation of `source`.
    public mutating func mutate(_ source: ObservableCollection<TestItem>, _ random: inout SplitMix64) {
        let count = source.count
        switch random.int(below: 9) {
        case 0: source.append(item(&random))
        case 1: source.insert(item(&random), at: random.int(in: 0...count))
        case 2 where count > 0: source.remove(at: random.int(below: count))
        case 3 where count > 1: source.move(from: random.int(below: count), to: random.int(below: count))
        case 4 where count > 0:
            let at = random.int(below: count)
            source[at] = TestItem(id: source[at].id, content: random.int(below: contents))
        case 5 where count > 0:
            source.remove(atOffsets: Set((0..<random.int(in: 1...4)).map { _ in random.int(below: count) }))
        case 6:
            var new = Array(source.snapshot).filter { _ in !random.chance(1, in: 5) }
            for offset in new.indices where random.chance(1, in: 4) {
                new[offset].content = random.int(below: contents)
            }
            if new.count > 1 { new.swapAt(random.int(below: new.count), random.int(below: new.count)) }
            new.insert(item(&random), at: random.int(in: 0...new.count))
            source.replace(with: new)
        default: source.append(contentsOf: (0..<random.int(in: 0...5)).map { _ in item(&random) })
        }
    }

    /// One random mutation of `source`, or, one time in ten, a batch of one to six.
    public mutating func mutateOrBatch(_ source: ObservableCollection<TestItem>, _ random: inout SplitMix64) {
        if random.chance(1, in: 10) {
            source.performBatchUpdates {
                for _ in 0..<random.int(in: 1...6) { mutate(source, &random) }
            }
        } else {
            mutate(source, &random)
        }
    }

    /// One random mutation of `source` that stays valid while other threads mutate it too (the
    /// source keeps more than 100 elements, and no offset is within 4 of its end): an append, an
    /// insert in the middle, a removal, a move to the front in a batch with an append, or an
    /// update. Identifiers are unique per `thread` and `step`.
    public static func mutateConcurrently(
        _ source: ObservableCollection<TestItem>, thread: Int, step: Int, _ random: inout SplitMix64
    ) {
        let count = source.count
        switch random.int(below: 5) {
        case 0: source.append(TestItem(id: 10_000 * (thread + 1) + step, content: random.int(below: 9)))
        case 1: source.insert(TestItem(id: 10_000 * (thread + 5) + step, content: random.int(below: 9)), at: count / 2)
        case 2 where count > 100: source.remove(atOffsets: [random.int(below: count - 4)])
        case 3 where count > 100:
            let offset = random.int(below: count - 4)
            source.performBatchUpdates {
                source.move(from: offset, to: 0)
                source.append(TestItem(id: 10_000 * (thread + 9) + step, content: random.int(below: 9)))
            }
        default:
            if count > 100 { source[random.int(below: count - 4)] = TestItem(id: -step - 1, content: step) }
        }
    }

    /// Four threads each mutate `source` `rounds` times with ``mutateConcurrently(_:thread:step:_:)``,
    /// seeded with their thread number; returns when all are done.
    public static func mutateFromFourThreads(_ source: ObservableCollection<TestItem>, rounds: Int) {
        runOnThreads(4) { thread in
            var random = SplitMix64(seed: UInt64(thread))
            for step in 0..<rounds { mutateConcurrently(source, thread: thread, step: step, &random) }
        }
    }
}
