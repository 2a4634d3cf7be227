import Dispatch
import Foundation
import Ripple
import RippleDiff
import RippleTestSupport
import XCTest

/// One thread's share of a stress test of an `ObservableCollection<Int>` (here and in
/// `ConcurrentReadTests`): a random mix of every index-based mutation and of batches, keeping the
/// collection at `floor` elements or more.
///
/// Elements `0..<floor` are there from the start. Each thread removes by index only as many
/// elements as it has inserted, so the collection never holds fewer than `floor` elements and
/// every index below `floor` stays valid whatever the other threads do. Values are never reused:
/// thread *t* adds values from `(t + 1) * 10_000_000` up, and negative ones for elements it alone
/// removes again.
struct FlatMutator {
    static let floor = 16

    let collection: ObservableCollection<Int>
    let thread: Int
    var random: SplitMix64
    /// Elements this thread inserted minus elements it removed by index; never negative.
    var net = 0
    var serial = 0
    var ephemeral = 0

    init(collection: ObservableCollection<Int>, thread: Int) {
        self.collection = collection
        self.thread = thread
        random = SplitMix64(seed: UInt64(thread) &* 7_919 &+ 1)
    }

    mutating func value() -> Int {
        serial += 1
        return (thread + 1) * 10_000_000 + serial
    }

    mutating func step(inBatch: Bool) {
        let floor = Self.floor
        var choice = random.int(below: inBatch ? 11 : 12)
        if net > 8 && choice < 3 { choice = 3 }
        switch choice {
        case 0:
            collection.append(value())
            net += 1
        case 1:
            collection.insert(value(), at: random.int(in: 0...floor))
            net += 1
        case 2:
            collection.insert(contentsOf: [value(), value()], at: random.int(in: 0...floor))
            net += 2
        case 3 where net >= 1:
            collection.remove(at: random.int(below: floor))
            net -= 1
        case 4 where net >= 2:
            let first = random.int(below: floor)
            collection.remove(atOffsets: [first, (first + 1 + random.int(below: floor - 1)) % floor])
            net -= 2
        case 5:
            collection.move(from: random.int(below: floor), to: random.int(below: floor))
        case 6:
            let offsets = (0..<random.int(in: 1...4)).map { _ in random.int(below: floor) }
            collection.move(fromOffsets: offsets, toOffset: random.int(in: 0...floor))
        case 7:
            collection[random.int(below: floor)] = value()
        case 8:
            // Ephemeral elements are negative; only their owner removes them by value, which
            // keeps the floor whatever the index-based removals of other threads took.
            ephemeral += 1
            collection.append(-((thread + 1) * 10_000_000 + ephemeral))
        case 9:
            let low = -((thread + 1) * 10_000_000 + ephemeral)
            let high = -((thread + 1) * 10_000_000)
            collection.removeAll { $0 >= low && $0 < high }
        case 10:
            collection.move(from: random.int(below: floor), to: random.int(below: floor))
        default:
            let steps = random.int(in: 1...5)
            collection.performBatchUpdates {
                for _ in 0..<steps { step(inBatch: true) }
            }
        }
    }
}

/// `ObservableCollection` under concurrent mutation, concurrent subscription and re-entrant
/// mutation from handlers.
final class ObservableCollectionConcurrencyTests: XCTestCase {
    private static let floor = FlatMutator.floor

    func test_fourThreadsTimesTenThousandMutations_subscriberSeesConsecutiveVersionsAndReplaysToTheEnd() {
        let collection = ObservableCollection(Array(0..<Self.floor))
        let checker = ChangeChecker<Int>(initial: Array(collection.snapshot), light: true)
        let token = collection.subscribe(on: .synchronous, checker.handler)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            var mutator = FlatMutator(collection: collection, thread: thread)
            for _ in 0..<10_000 { mutator.step(inBatch: false) }
        }
        XCTAssertFalse(collection.isBatching)
        XCTAssertGreaterThanOrEqual(collection.count, Self.floor)
        checker.assertConsistent(finalSnapshot: Array(collection.snapshot), finalVersion: collection.version)
        XCTAssertEqual(checker.eventCount, collection.version, "one event per version, none lost")
        XCTAssertGreaterThan(collection.version, 10_000)
        token.cancel()
    }

    func test_concurrentMutations_serialQueueSubscriber_seesEveryEventInOrder() {
        let queue = DispatchQueue(label: "ObservableCollectionConcurrencyTests.delivery")
        let collection = ObservableCollection(Array(0..<Self.floor))
        let checker = ChangeChecker<Int>(expectingInitial: true)
        let token = collection.subscribe(on: .queue(queue), sendingCurrent: true, checker.handler)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            var mutator = FlatMutator(collection: collection, thread: thread + 10)
            for _ in 0..<1_000 { mutator.step(inBatch: false) }
        }
        queue.sync {}
        checker.assertConsistent(finalSnapshot: Array(collection.snapshot), finalVersion: collection.version)
        token.cancel()
    }

    // MARK: - Re-entrant mutation

    func test_mutationFromAHandler_isPublishedAfterTheCurrentEventReachedEverySubscriber() {
        let collection = ObservableCollection<String>()
        let log = EventRecorder<String>()
        let tokens = [
            collection.subscribe(on: .synchronous) { change in
                log.record("A v\(change.version) \(change.snapshot)")
                if change.version == 1 {
                    collection.append("from A")
                    log.record("A sees \(collection.snapshot)")
                }
            },
            collection.subscribe(on: .synchronous) { change in log.record("B v\(change.version) \(change.snapshot)") },
        ]
        collection.append("x")
        log.assertEvents([
            "A v1 [\"x\"]",
            "A sees [\"x\", \"from A\"]",
            "B v1 [\"x\"]",
            "A v2 [\"x\", \"from A\"]",
            "B v2 [\"x\", \"from A\"]",
        ])
        tokens.forEach { $0.cancel() }
    }

    func test_batchFromAHandler_isPublishedAsOneLaterEvent() {
        let collection = ObservableCollection([0])
        let checker = ChangeChecker<Int>(initial: [0])
        let versions = EventRecorder<Int>()
        let tokens = [
            collection.subscribe(on: .synchronous) { change in
                versions.record(change.version)
                guard change.version == 1 else { return }
                collection.performBatchUpdates {
                    collection.append(2)
                    collection.remove(at: 0)
                    collection.insert(3, at: 0)
                }
            },
            collection.subscribe(on: .synchronous, checker.handler),
        ]
        collection.append(1)
        versions.assertEvents([1, 2])
        checker.assertConsistent(finalSnapshot: [3, 1, 2], finalVersion: 2)
        tokens.forEach { $0.cancel() }
    }

    func test_handlersMutatingWhileOtherThreadsMutate_noDeadlock_versionsConsecutive() {
        let collection = ObservableCollection(Array(0..<Self.floor))
        let checker = ChangeChecker<Int>(initial: Array(collection.snapshot), light: true)
        let reentrant = Locked(0)
        let tokens = [
            collection.subscribe(on: .synchronous) { change in
                // Every 7th event, mutate from inside the handler, on whichever thread delivers.
                guard change.version % 7 == 0 else { return }
                reentrant.withLock { $0 += 1 }
                if change.version % 2 == 0 {
                    collection.move(from: 0, to: Self.floor - 1)
                } else {
                    collection.performBatchUpdates { collection[1] = -change.version }
                }
            },
            collection.subscribe(on: .synchronous, checker.handler),
        ]
        DispatchQueue.concurrentPerform(iterations: 3) { thread in
            var mutator = FlatMutator(collection: collection, thread: thread + 20)
            for _ in 0..<2_000 { mutator.step(inBatch: false) }
        }
        checker.assertConsistent(finalSnapshot: Array(collection.snapshot), finalVersion: collection.version)
        XCTAssertGreaterThan(reentrant.current, 0)
        tokens.forEach { $0.cancel() }
    }

    // MARK: - Concurrent subscription

    func test_subscribersJoiningWithSendingCurrentDuringMutations_eachSeeAConsistentRun() {
        let collection = ObservableCollection(Array(0..<Self.floor))
        let problems = Locked<[String]>([])
        let running = Locked(true)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            if thread < 2 {
                var mutator = FlatMutator(collection: collection, thread: thread + 30)
                for _ in 0..<3_000 { mutator.step(inBatch: false) }
                running.withLock { $0 = false }
            } else {
                var round = 0
                while running.current || round < 5 {
                    round += 1
                    let checker = ChangeChecker<Int>(expectingInitial: true)
                    let token = collection.subscribe(on: .synchronous, sendingCurrent: true, checker.handler)
                    for _ in 0..<50 where running.current {}
                    token.cancel()
                    if let problem = checker.problems.first {
                        problems.withLock { $0.append("round \(round): \(problem)") }
                    }
                }
            }
        }
        XCTAssertEqual(problems.current.prefix(3), [])
        XCTAssertEqual(collection.subscriberCount, 0)
    }

    // MARK: - Optimistic operations racing

    func test_replaceAndRemoveAllWhere_racingOtherMutations_stayConsistent() {
        let collection = ObservableCollection([TestItem](ids: Array(0..<20)))
        let checker = ChangeChecker<TestItem>(initial: Array(collection.snapshot))
        let token = collection.subscribe(on: .synchronous, checker.handler)
        // Every thread removes what it adds, so the list stays small whichever thread is busy
        // delivering everyone's events.
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            var random = SplitMix64(seed: UInt64(40 + thread))
            for step in 0..<1_000 {
                switch thread {
                case 0:
                    var new = collection.filter { _ in !random.chance(1, in: 6) }
                    random.shuffle(&new)
                    new.append(TestItem(id: 1_000_000 + step))
                    if !new.isEmpty { new[random.int(below: new.count)].content += 1 }
                    collection.replace(with: new)
                case 1:
                    collection.append(TestItem(id: 2_000_000 + step))
                    collection.removeAll { $0.id % 7 == step % 7 }
                case 2:
                    collection.append(TestItem(id: 3_000_000 + step))
                    collection.removeAll { $0.id == 3_000_000 + step - 1 }
                default:
                    collection.performBatchUpdates {
                        collection.append(TestItem(id: 4_000_000 + step))
                        collection.removeAll { $0.id == 4_000_000 + step - 2 }
                        collection.append(TestItem(id: 5_000_000 + step))
                        collection.removeAll { $0.id == 5_000_000 + step - 1 }
                    }
                }
            }
        }
        checker.assertConsistent(finalSnapshot: Array(collection.snapshot), finalVersion: collection.version)
        token.cancel()
    }

    func test_optimisticOperation_doesNotRetryWhenNothingChangedMeanwhile() {
        // While the predicate runs, mutations that change nothing.
        let calls = predicateCalls { collection in
            collection.removeAll { _ in false }
            collection.remove(atOffsets: [])
            collection.append(contentsOf: [])
        }
        XCTAssertEqual(calls, 3, "one pass over three elements: the collection never changed")
    }

    /// Runs `removeAll(where: { $0 == 2 })` on `[1, 2, 3]` on another thread, runs `meanwhile` while
    /// its first predicate call waits, checks that the collection ends as `[1, 3]`, and returns the
    /// number of predicate calls.
    private func predicateCalls(
        file: StaticString = #filePath, line: UInt = #line,
        meanwhile: (ObservableCollection<Int>) -> Void
    ) -> Int {
        let collection = ObservableCollection([1, 2, 3])
        let calls = Locked(0)
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            collection.removeAll { element in
                let call = calls.withLock { calls -> Int in
                    calls += 1
                    return calls
                }
                if call == 1 {
                    entered.signal()
                    release.wait()
                }
                return element == 2
            }
            done.signal()
        }
        entered.wait()
        meanwhile(collection)
        release.signal()
        done.wait()
        XCTAssertEqual(collection.snapshot, [1, 3], file: file, line: line)
        return calls.current
    }

    func test_optimisticOperation_insideABatch_noOpsAreNotCounted_changesAre() {
        let noOps = predicateCalls { collection in
            collection.performBatchUpdates {
                collection.append(contentsOf: [])
                collection.insert(contentsOf: [], at: 1)
                collection.move(from: 1, to: 1)
                collection.move(fromOffsets: [0], toOffset: 1)
                collection.remove(atOffsets: [])
                collection.removeAll { _ in false }
                collection.replace(with: [1, 2, 3], identity: .value)
            }
        }
        XCTAssertEqual(noOps, 3, "nothing changed inside the batch: one pass")
        let change = predicateCalls { collection in
            collection.performBatchUpdates {
                collection.append(4)
                collection.removeAll { $0 == 4 }
            }
        }
        XCTAssertEqual(change, 3 + 3, "the batch changed the elements (and back): a second pass")
        let update = predicateCalls { collection in
            collection.performBatchUpdates { collection[0] = 1 }
        }
        XCTAssertEqual(update, 3 + 3, "a subscript set inside a batch is a change")
    }

    /// Issue 22: `replace(with:)` completes while four threads write constantly: after a bounded
    /// number of optimistic diffs that lost their race, it diffs under the lock. Flat and
    /// sectioned.
    func test_replace_completesUnderFourConstantWriters() {
        let flat = ObservableCollection(Array(0..<100))
        let sectioned = SectionedCollection([SectionData("A", items: Array(0..<100))])
        let stop = Locked(false)
        let writers = DispatchGroup()
        for thread in 0..<4 {
            DispatchQueue.global().async(group: writers) {
                var value = 1_000 * (thread + 1)
                while !stop.withLock({ $0 }) {
                    value += 1
                    flat.append(value)
                    sectioned.appendItem(value, toSection: 0)
                    if flat.count > 150 { flat.removeAll { $0 % 2 == 0 } }
                    if sectioned.numberOfItems(inSection: 0) > 150 {
                        sectioned.replace(
                            with: [SectionSnapshot(section: "A", items: [])], sectionIdentity: .value,
                            itemIdentity: .value)
                    }
                }
            }
        }
        for round in 0..<20 {
            let target = Array(round..<(round + 50))
            flat.replace(with: target, identity: .value)
            sectioned.replace(
                with: [SectionSnapshot(section: "A", items: target)], sectionIdentity: .value, itemIdentity: .value)
        }
        stop.withLock { $0 = true }
        writers.wait()
        flat.replace(with: [1, 2, 3], identity: .value)
        sectioned.replace(
            with: [SectionSnapshot(section: "A", items: [1, 2, 3])], sectionIdentity: .value, itemIdentity: .value)
        XCTAssertEqual(flat.snapshot, [1, 2, 3])
        XCTAssertEqual(sectioned.snapshot.map(\.items), [[1, 2, 3]])
    }
}
