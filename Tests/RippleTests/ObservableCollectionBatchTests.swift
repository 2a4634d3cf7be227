import Dispatch
import Foundation
import Ripple
import RippleDiff
import RippleTestSupport
import XCTest

/// `performBatchUpdates`, `beginUpdates`/`endUpdates`: one event per outermost batch, the net
/// change-set, minimal moves, results and errors.
final class ObservableCollectionBatchTests: XCTestCase {
    private typealias Pair = Changeset.OffsetPair

    private struct Failure: Error, Equatable {
        var code: Int
    }

    /// A collection of `TestItem`s with ids `0..<count`, a recorder and a checker attached.
    private final class Fixture: @unchecked Sendable {
        let collection: ObservableCollection<TestItem>
        let recorder = EventRecorder<CollectionChange<TestItem>>()
        let checker: ChangeChecker<TestItem>
        private var tokens: [SubscriptionToken] = []

        init(_ items: [TestItem]) {
            collection = ObservableCollection(items)
            checker = ChangeChecker(initial: items, useUIKitOracle: true)
            tokens = [
                collection.subscribe(on: .synchronous, recorder.handler),
                collection.subscribe(on: .synchronous, checker.handler),
            ]
        }

        convenience init(count: Int) {
            self.init([TestItem](ids: Array(0..<count)))
        }

        var events: [CollectionChange<TestItem>] { recorder.events }

        func assertConsistent(file: StaticString = #filePath, line: UInt = #line) {
            checker.assertConsistent(
                finalSnapshot: Array(collection.snapshot), finalVersion: collection.version, file: file, line: line)
        }
    }

    // MARK: - One event per batch

    func test_batch_publishesOneEventWithTheNetChangeset() {
        let fixture = Fixture(count: 4)
        let collection = fixture.collection
        collection.performBatchUpdates {
            collection.append(TestItem(id: 100))
            collection.remove(at: 0)
            collection.insert(TestItem(id: 101), at: 1)
            collection.move(from: 3, to: 0)
            collection[2] = TestItem(id: 101, content: 1)
            collection[3] = TestItem(id: 2, content: 1)
            XCTAssertEqual(fixture.recorder.count, 0, "nothing is published while the batch is open")
        }
        XCTAssertEqual(fixture.events.count, 1)
        XCTAssertEqual(
            fixture.events.first?.changeset,
            Changeset(
                sourceCount: 4, targetCount: 5, deletes: [0], inserts: [2, 4],
                moves: [Pair(source: 3, target: 0)], updates: [Pair(source: 2, target: 3)]))
        XCTAssertEqual(fixture.events.first?.snapshot.ids, [3, 1, 101, 2, 100])
        XCTAssertEqual(fixture.events.first?.version, 1)
        fixture.assertConsistent()
    }

    func test_nestedPerformBatchUpdates_publishOnceAtTheOutermostEnd() {
        let fixture = Fixture(count: 2)
        let collection = fixture.collection
        collection.performBatchUpdates {
            collection.append(TestItem(id: 10))
            collection.performBatchUpdates {
                collection.append(TestItem(id: 11))
                collection.performBatchUpdates { _ = collection.remove(at: 0) }
                XCTAssertEqual(fixture.recorder.count, 0)
            }
            XCTAssertEqual(fixture.recorder.count, 0, "an inner batch's end publishes nothing")
            XCTAssertTrue(collection.isBatching)
            collection.append(TestItem(id: 12))
        }
        XCTAssertFalse(collection.isBatching)
        XCTAssertEqual(fixture.events.count, 1)
        XCTAssertEqual(
            fixture.events.first?.changeset,
            Changeset(sourceCount: 2, targetCount: 4, deletes: [0], inserts: [1, 2, 3]))
        fixture.assertConsistent()
    }

    func test_beginEndUpdates_nest_andMixWithPerformBatchUpdates() {
        let fixture = Fixture(count: 4)
        let collection = fixture.collection
        XCTAssertFalse(collection.isBatching)
        collection.beginUpdates()
        XCTAssertTrue(collection.isBatching)
        collection.beginUpdates()
        collection.remove(at: 3)
        collection.endUpdates()
        XCTAssertTrue(collection.isBatching)
        collection.performBatchUpdates { collection.move(from: 0, to: 2) }
        XCTAssertEqual(fixture.recorder.count, 0)
        collection.endUpdates()
        XCTAssertFalse(collection.isBatching)
        XCTAssertEqual(
            fixture.events.map(\.changeset),
            [Changeset(sourceCount: 4, targetCount: 3, deletes: [3], moves: [Pair(source: 0, target: 2)])])
        fixture.assertConsistent()
    }

    func test_consecutiveBatches_publishOneEventEach_withConsecutiveVersions() {
        let fixture = Fixture(count: 1)
        let collection = fixture.collection
        collection.append(TestItem(id: 1))
        collection.performBatchUpdates { collection.append(TestItem(id: 2)) }
        collection.performBatchUpdates {}
        collection.performBatchUpdates { _ = collection.remove(at: 0) }
        collection.insert(TestItem(id: 3), at: 0)
        XCTAssertEqual(fixture.events.map(\.version), [1, 2, 3, 4])
        fixture.assertConsistent()
    }

    // MARK: - Netting

    func test_emptyBatch_publishesNothing() {
        let fixture = Fixture(count: 2)
        fixture.collection.performBatchUpdates {}
        fixture.collection.beginUpdates()
        fixture.collection.endUpdates()
        XCTAssertEqual(fixture.recorder.count, 0)
        XCTAssertEqual(fixture.collection.version, 0)
    }

    func test_insertThenRemove_netsToNothing() {
        let fixture = Fixture(count: 3)
        let collection = fixture.collection
        collection.performBatchUpdates {
            collection.insert(TestItem(id: 9), at: 1)
            collection.append(TestItem(id: 10))
            collection[1] = TestItem(id: 9, content: 4)
            collection.remove(at: 1)
            collection.removeAll { $0.id == 10 }
        }
        XCTAssertEqual(fixture.recorder.count, 0)
        XCTAssertEqual(fixture.collection.version, 0)
    }

    func test_moveThereAndBack_netsToNothing() {
        let fixture = Fixture(count: 4)
        let collection = fixture.collection
        collection.performBatchUpdates {
            collection.move(from: 0, to: 3)
            collection.move(fromOffsets: [1, 2], toOffset: 0)
            collection.move(fromOffsets: [0, 1], toOffset: 3)
            collection.move(from: 3, to: 0)
        }
        XCTAssertEqual(collection.snapshot.ids, [0, 1, 2, 3])
        XCTAssertEqual(fixture.recorder.count, 0)
    }

    func test_updateThenRemove_isOnlyADelete() {
        let fixture = Fixture(count: 3)
        let collection = fixture.collection
        collection.performBatchUpdates {
            collection[1] = TestItem(id: 1, content: 7)
            collection.remove(at: 1)
        }
        XCTAssertEqual(fixture.events.map(\.changeset), [Changeset(sourceCount: 3, targetCount: 2, deletes: [1])])
        fixture.assertConsistent()
    }

    func test_updateTwice_isOneUpdate() {
        let fixture = Fixture(count: 3)
        let collection = fixture.collection
        collection.performBatchUpdates {
            collection[2] = TestItem(id: 2, content: 1)
            collection[2] = TestItem(id: 2, content: 2)
        }
        XCTAssertEqual(
            fixture.events.map(\.changeset),
            [Changeset(sourceCount: 3, targetCount: 3, updates: [Pair(source: 2, target: 2)])])
        fixture.assertConsistent()
    }

    func test_updateThenMove_isAnUpdateWithBothOffsetsAndAMove() {
        let fixture = Fixture(count: 3)
        let collection = fixture.collection
        collection.performBatchUpdates {
            collection[0] = TestItem(id: 0, content: 1)
            collection.move(from: 0, to: 2)
        }
        XCTAssertEqual(
            fixture.events.map(\.changeset),
            [
                Changeset(
                    sourceCount: 3, targetCount: 3, moves: [Pair(source: 0, target: 2)],
                    updates: [Pair(source: 0, target: 2)])
            ])
        fixture.assertConsistent()
    }

    func test_updateOfAnInsertedElement_isOnlyAnInsert() {
        let fixture = Fixture(count: 2)
        let collection = fixture.collection
        collection.performBatchUpdates {
            collection.insert(TestItem(id: 5), at: 0)
            collection[0] = TestItem(id: 5, content: 3)
        }
        XCTAssertEqual(
            fixture.events.map(\.changeset), [Changeset(sourceCount: 2, targetCount: 3, inserts: [0])])
        fixture.assertConsistent()
    }

    func test_removeAllThenAppend_isDeletesAndInserts() {
        let fixture = Fixture(count: 3)
        let collection = fixture.collection
        collection.performBatchUpdates {
            collection.removeAll()
            collection.append(contentsOf: [TestItem(id: 7), TestItem(id: 8)])
        }
        XCTAssertEqual(
            fixture.events.map(\.changeset),
            [Changeset(sourceCount: 3, targetCount: 2, deletes: [0, 1, 2], inserts: [0, 1])])
        fixture.assertConsistent()
    }

    func test_replaceInsideABatch_foldsIntoTheNetChangeset() {
        let fixture = Fixture(count: 3)
        let collection = fixture.collection
        collection.performBatchUpdates {
            collection.append(TestItem(id: 4))
            collection.replace(with: [TestItem(id: 4), TestItem(id: 1, content: 1), TestItem(id: 9), TestItem(id: 0)])
            collection.move(from: 3, to: 2)
        }
        XCTAssertEqual(collection.snapshot.ids, [4, 1, 0, 9])
        XCTAssertEqual(fixture.events.count, 1)
        let changes = fixture.events.first?.changeset
        XCTAssertEqual(changes?.deletes, [2])
        XCTAssertEqual(changes?.inserts, [0, 3])
        XCTAssertEqual(changes?.updates, [Pair(source: 1, target: 1)], "the update made by replace is kept")
        XCTAssertEqual(changes?.moves.count, 1, "0 and 1 swapped places: one move")
        fixture.assertConsistent()
    }

    // MARK: - Results and errors

    func test_performBatchUpdates_returnsTheBodysResult() {
        let fixture = Fixture(count: 3)
        let collection = fixture.collection
        let removed = collection.performBatchUpdates { () -> TestItem in
            collection.append(TestItem(id: 3))
            return collection.remove(at: 0)
        }
        XCTAssertEqual(removed, TestItem(id: 0))
        XCTAssertEqual(fixture.events.count, 1)
        fixture.assertConsistent()
    }

    func test_performBatchUpdates_rethrows_afterPublishingTheMutationsMadeBeforeTheThrow() {
        let fixture = Fixture(count: 3)
        let collection = fixture.collection
        XCTAssertThrowsError(
            try collection.performBatchUpdates {
                collection.remove(at: 0)
                collection.append(TestItem(id: 5))
                throw Failure(code: 1)
            }
        ) { error in
            XCTAssertEqual(error as? Failure, Failure(code: 1))
        }
        XCTAssertFalse(collection.isBatching, "the batch is closed")
        XCTAssertEqual(collection.snapshot.ids, [1, 2, 5], "the mutations stay")
        XCTAssertEqual(
            fixture.events.map(\.changeset),
            [Changeset(sourceCount: 3, targetCount: 3, deletes: [0], inserts: [2])])
        fixture.assertConsistent()
    }

    func test_innerBatchThrowing_caughtByTheOuterBatch_stillPublishesOnce() {
        let fixture = Fixture(count: 2)
        let collection = fixture.collection
        collection.performBatchUpdates {
            collection.append(TestItem(id: 2))
            do {
                try collection.performBatchUpdates {
                    collection.append(TestItem(id: 3))
                    throw Failure(code: 2)
                }
            } catch {
                XCTAssertEqual(error as? Failure, Failure(code: 2))
            }
            XCTAssertTrue(collection.isBatching)
            XCTAssertEqual(fixture.recorder.count, 0)
            collection.append(TestItem(id: 4))
        }
        XCTAssertEqual(
            fixture.events.map(\.changeset), [Changeset(sourceCount: 2, targetCount: 5, inserts: [2, 3, 4])])
        fixture.assertConsistent()
    }

    func test_throwingBatchWithoutMutations_publishesNothing() {
        let fixture = Fixture(count: 2)
        XCTAssertThrowsError(try fixture.collection.performBatchUpdates { throw Failure(code: 3) })
        XCTAssertEqual(fixture.recorder.count, 0)
        XCTAssertFalse(fixture.collection.isBatching)
    }

    // MARK: - Subscribers and threads

    func test_mutationFromAnotherThreadWhileTheBatchIsOpen_isFoldedIn() {
        let fixture = Fixture(count: 2)
        let collection = fixture.collection
        collection.beginUpdates()
        collection.append(TestItem(id: 2))
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            collection.insert(TestItem(id: 3), at: 0)
            done.signal()
        }
        done.wait()
        XCTAssertEqual(fixture.recorder.count, 0)
        collection.endUpdates()
        XCTAssertEqual(
            fixture.events.map(\.changeset), [Changeset(sourceCount: 2, targetCount: 4, inserts: [0, 3])])
        fixture.assertConsistent()
    }

    func test_subscriberJoiningMidBatch_getsTheBatchEvent() {
        let collection = ObservableCollection([TestItem](ids: [0, 1]))
        collection.beginUpdates()
        collection.remove(at: 0)
        let checker = ChangeChecker<TestItem>(initial: [TestItem](ids: [0, 1]))
        let token = collection.subscribe(on: .synchronous, checker.handler)
        collection.append(TestItem(id: 2))
        collection.endUpdates()
        checker.assertConsistent(finalSnapshot: Array(collection.snapshot), finalVersion: 1)
        XCTAssertEqual(checker.eventCount, 1)
        token.cancel()
    }

    // MARK: - Minimal moves

    /// Random batches of moves, inserts, removals and updates on up to 8 elements: the net
    /// change-set has exactly the deletes, inserts and updates that identity implies, and the
    /// fewest moves (checked against a brute-force longest increasing subsequence).
    func test_randomSmallBatches_netChangesetIsExactWithMinimalMoves() {
        forEachSeed(0..<1_500) { seed, random in
            let count = random.int(in: 0...8)
            let initial = [TestItem](ids: Array(0..<count))
            let collection = ObservableCollection(initial)
            let recorder = EventRecorder<CollectionChange<TestItem>>()
            let token = collection.subscribe(on: .synchronous, recorder.handler)
            defer { token.cancel() }
            var nextID = 100
            var log: [String] = []
            collection.performBatchUpdates {
                for _ in 0..<random.int(in: 1...6) {
                    let size = collection.count
                    switch random.int(below: size == 0 ? 1 : 6) {
                    case 0:
                        let at = random.int(in: 0...size)
                        collection.insert(TestItem(id: nextID), at: at)
                        log.append("insert \(nextID) at \(at)")
                        nextID += 1
                    case 1:
                        let at = random.int(below: size)
                        collection.remove(at: at)
                        log.append("remove at \(at)")
                    case 2, 3:
                        let (from, to) = (random.int(below: size), random.int(below: size))
                        collection.move(from: from, to: to)
                        log.append("move \(from) to \(to)")
                    case 4:
                        let offsets = Set((0..<size).filter { _ in random.chance(1, in: 3) })
                        let destination = random.int(in: 0...size)
                        collection.move(fromOffsets: offsets, toOffset: destination)
                        log.append("move \(offsets.sorted()) to \(destination)")
                    default:
                        let at = random.int(below: size)
                        var item = collection[at]
                        item.content += 1
                        collection[at] = item
                        log.append("update at \(at)")
                    }
                }
            }
            let final = Array(collection.snapshot)
            let events = recorder.events
            let context = "\(initial.ids) after [\(log.joined(separator: "; "))] → \(final)"
            let matched = final.filter { $0.id < 100 }
            if final == initial {
                return events.isEmpty ? nil : "\(context): published \(events.count) events for no net change"
            }
            guard events.count == 1, let event = events.first else {
                return "\(context): expected one event, got \(events.count)"
            }
            if let failure = eventFailure(event, after: initial, useUIKitOracle: true) {
                return "\(context): \(failure)"
            }
            let changes = event.changeset
            let finalIDs = Set(final.ids)
            let expectedDeletes = (0..<count).filter { !finalIDs.contains($0) }
            let expectedInserts = final.indices.filter { final[$0].id >= 100 }
            let expectedUpdates = final.indices.compactMap { target -> Pair? in
                let item = final[target]
                return item.id < 100 && item.content != 0 ? Pair(source: item.id, target: target) : nil
            }.sorted()
            let minimal = minimalMoveCount(matchedSources: matched.ids, bruteForce: true)
            if changes.deletes != expectedDeletes {
                return "\(context): deletes \(changes.deletes), expected \(expectedDeletes)"
            }
            if changes.inserts != expectedInserts {
                return "\(context): inserts \(changes.inserts), expected \(expectedInserts)"
            }
            if changes.updates != expectedUpdates {
                return "\(context): updates \(changes.updates), expected \(expectedUpdates)"
            }
            if changes.moves.count != minimal {
                return "\(context): \(changes.moves.count) moves \(changes.moves), minimum \(minimal)"
            }
            for move in changes.moves where final[move.target].id != move.source {
                return "\(context): move \(move) does not follow the element"
            }
            return nil
        }
    }
}
