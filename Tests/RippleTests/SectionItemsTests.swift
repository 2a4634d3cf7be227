import Dispatch
import Foundation
import Ripple
import RippleDiff
import RippleTestSupport
import RippleTesting
import XCTest

/// Tests of `SectionItems`: a section's items live in the sectioned collection holding the
/// section (one storage, one lock, one event sequence), and on their own before and after.
final class SectionItemsTests: XCTestCase {
    private func path(_ section: Int, _ item: Int) -> ElementPath { ElementPath(item: item, section: section) }

    private func make(_ sections: [(Int, [Int])]) -> (TestSections, SectionedChangeChecker, SubscriptionToken) {
        makeCheckedSections(sections)
    }

    // MARK: - On their own

    func testItemsOnTheirOwnChangeAndPublishNothing() {
        let section = TestSection(TestHeader(id: 1), items: [TestItem(id: 1)])
        section.items.append(TestItem(id: 2))
        section.items.insert(TestItem(id: 0), at: 0)
        section.items.move(from: 0, to: 2)
        section.items[0] = TestItem(id: 1, content: 5)
        section.items.removeAll { $0.id == 2 }
        section.items.performBatchUpdates { section.items.append(TestItem(id: 3)) }
        XCTAssertEqual(section.items.snapshot, [TestItem(id: 1, content: 5), TestItem(id: 0), TestItem(id: 3)])
        XCTAssertEqual(section.items.count, 3)
        XCTAssertEqual(Array(section.items).ids, [1, 0, 3])
        XCTAssertEqual(section.items.first?.id, 1)
        XCTAssertEqual(section.items.last?.id, 3)
        XCTAssertEqual(section.items[1..<3].map(\.id), [0, 3])
    }

    // MARK: - Held by a collection: one storage

    func testEveryMutationThroughItemsIsOneEventOfTheCollectionAtTheSectionsPositionThen() {
        let (collection, checker, token) = make([(1, [1, 2]), (2, [3])])
        let recorder = EventRecorder<SectionedCollectionChange<TestHeader, TestItem>>()
        let recording = collection.subscribe(on: .synchronous, recorder.handler)
        let second = collection.sections[1]
        second.items.append(TestItem(id: 4))
        XCTAssertEqual(recorder.events.last?.changeset.itemInserts, [path(1, 1)])
        collection.moveSection(from: 1, to: 0)
        second.items.insert(TestItem(id: 5), at: 0)
        XCTAssertEqual(recorder.events.last?.changeset.itemInserts, [path(0, 0)])
        recording.cancel()
        second.items.remove(at: 1)
        second.items.move(from: 0, to: 1)
        second.items[0] = TestItem(id: 4, content: 1)
        second.items.remove(atOffsets: [1])
        second.items.append(contentsOf: [TestItem(id: 6), TestItem(id: 7)])
        second.items.move(fromOffsets: [0], toOffset: 3)
        second.items.removeAll { $0.id == 6 }
        second.items.replace(with: [TestItem(id: 7), TestItem(id: 8)])
        XCTAssertEqual(collection.snapshot.shape, [[7, 8], [1, 2]])
        XCTAssertEqual(checker.eventCount, 11)
        checker.assertConsistent(finalSnapshot: collection.snapshot)
        token.cancel()
    }

    func testReadsThroughItemsAndThroughTheCollectionAreOneList() {
        let (collection, checker, token) = make([(1, [1, 2]), (2, [3])])
        let first = collection.sections[0]
        collection.appendItem(TestItem(id: 4), toSection: 0)
        XCTAssertEqual(first.items.snapshot.ids, [1, 2, 4])
        first.items.remove(at: 0)
        XCTAssertEqual(collection.numberOfItems(inSection: 0), 2)
        XCTAssertEqual(collection[path(0, 0)], first.items[0])
        collection.performBatchUpdates {
            first.items.append(TestItem(id: 5))
            // Inside a batch too: the reads show every change at once.
            XCTAssertEqual(collection.snapshot[0].items.ids, [2, 4, 5])
            XCTAssertEqual(first.items.count, collection.numberOfItems(inSection: 0))
        }
        checker.assertConsistent(finalSnapshot: collection.snapshot)
        token.cancel()
    }

    func testABatchOfTheItemsIsABatchOfTheCollection() {
        let (collection, checker, token) = make([(1, [1, 2]), (2, [3])])
        let first = collection.sections[0]
        first.items.performBatchUpdates {
            first.items.remove(at: 0)
            collection.appendItem(TestItem(id: 4), toSection: 1)
            collection.moveItem(from: path(0, 0), to: path(1, 0))
            first.items.append(TestItem(id: 5))
        }
        XCTAssertEqual(checker.eventCount, 1)
        XCTAssertEqual(collection.snapshot.shape, [[5], [2, 3, 4]])
        first.items.beginUpdates()
        first.items.append(TestItem(id: 6))
        collection.removeItem(at: path(1, 0))
        XCTAssertEqual(checker.eventCount, 1)
        first.items.endUpdates()
        XCTAssertEqual(checker.eventCount, 2)
        checker.assertConsistent(finalSnapshot: collection.snapshot)
        token.cancel()
    }

    func testEndUpdatesClosesTheBatchItOpenedAfterTheSectionLeft() {
        let (collection, checker, token) = make([(1, [1]), (2, [2])])
        let first = collection.sections[0]
        first.items.beginUpdates()
        collection.removeSection(at: 0)
        first.items.append(TestItem(id: 3))  // Its own now: not part of the batch.
        XCTAssertTrue(collection.isBatching)
        first.items.endUpdates()
        XCTAssertFalse(collection.isBatching)
        XCTAssertEqual(checker.eventCount, 1)
        XCTAssertEqual(first.items.snapshot.ids, [1, 3])
        checker.assertConsistent(finalSnapshot: collection.snapshot)
        token.cancel()
    }

    // MARK: - Leaving and sharing

    func testARemovedSectionTakesItsItemsAlongAndPublishesNoMore() {
        let (collection, checker, token) = make([(1, [1, 2]), (2, [3])])
        let removed = collection.removeSection(at: 0)
        XCTAssertEqual(removed.items.snapshot.ids, [1, 2])
        removed.items.append(TestItem(id: 4))
        XCTAssertEqual(removed.items.snapshot.ids, [1, 2, 4])
        XCTAssertEqual(checker.eventCount, 1)
        collection.insertSection(removed, at: 1)
        XCTAssertEqual(collection.snapshot.shape, [[3], [1, 2, 4]])
        removed.items.remove(at: 0)
        XCTAssertEqual(collection.snapshot.shape, [[3], [2, 4]])
        checker.assertConsistent(finalSnapshot: collection.snapshot)
        token.cancel()
    }

    func testASectionSharingTheItemsReplacesTheOldInPlaceAndKeepsThem() {
        let (collection, checker, token) = make([(1, [1, 2]), (2, [3])])
        let recorder = EventRecorder<SectionedCollectionChange<TestHeader, TestItem>>()
        let recording = collection.subscribe(on: .synchronous, recorder.handler)
        let old = collection.sections[0]
        let renamed = old.replacingSection(with: TestHeader(id: 1, title: 1))
        collection.replaceSection(at: 0, with: renamed)
        XCTAssertEqual(recorder.events.last?.changeset.sections.updates.count, 1)
        recording.cancel()
        old.items.append(TestItem(id: 4))  // The same items, through either section.
        XCTAssertEqual(renamed.items.snapshot.ids, [1, 2, 4])
        XCTAssertEqual(collection.snapshot.shape, [[1, 2, 4], [3]])
        checker.assertConsistent(finalSnapshot: collection.snapshot)
        token.cancel()
    }

    func testReplaceWithSectionsKeepsTheItemsOfSectionsItHoldsWhereverTheyGo() {
        let (collection, checker, token) = make([(1, [1, 2]), (2, [3])])
        let (first, second) = (collection.sections[0], collection.sections[1])
        let fresh = TestSection(TestHeader(id: 3), items: [TestItem(id: 4)])
        collection.replace(withSections: [second, fresh, first])
        XCTAssertEqual(collection.snapshot.shape, [[3], [4], [1, 2]])
        first.items.append(TestItem(id: 5))
        fresh.items.append(TestItem(id: 6))
        XCTAssertEqual(collection.snapshot.shape, [[3], [4, 6], [1, 2, 5]])
        checker.assertConsistent(finalSnapshot: collection.snapshot)
        token.cancel()
    }

    // MARK: - Threads

    func testFourThreadsThroughItemsAndPathsAgreeWithEveryEvent() {
        // Sections 0–3 belong one to each thread, for the steps that read a count and then act on
        // it; other threads only add to them. Any thread removes from sections 4 and 5, through
        // steps that check their offsets under the lock.
        forEachSeed(0..<2) { seed, _ in
            let (collection, checker, token) = make(
                [(1, [1, 2, 3]), (2, [4, 5]), (3, []), (4, [6]), (5, [7, 8, 9]), (6, [])])
            let sections = collection.sections
            DispatchQueue.concurrentPerform(iterations: 4) { thread in
                var random = SplitMix64(seed: seed &* 31 &+ UInt64(thread))
                let own = sections[thread].items
                for step in 0..<500 {
                    let id = (thread + 1) * 1_000_000 + step
                    let shared = sections[4 + random.int(below: 2)].items
                    switch random.int(below: 8) {
                    case 0: sections[random.int(below: sections.count)].items.append(TestItem(id: id))
                    case 1: shared.removeAll { $0.id % 3 == 0 }
                    case 2:
                        own.performBatchUpdates {
                            own.insert(TestItem(id: id), at: 0)
                            own.move(from: 0, to: own.count - 1)
                        }
                    case 3:
                        _ = collection.moveItem(
                            from: ElementPath(item: 0, section: 4 + random.int(below: 2)),
                            to: ElementPath(item: 0, section: random.int(below: 6)),
                            ifVersion: collection.version)
                    case 4: collection.appendItem(TestItem(id: id), toSection: random.int(below: 6))
                    case 5: if own.count > 8 { own.remove(atOffsets: [0, 1]) }
                    case 6: if !own.isEmpty { own[0] = TestItem(id: own[0].id, content: step) }
                    default: XCTAssertEqual(collection.snapshot.count, 6)
                    }
                }
            }
            checker.assertConsistent(finalSnapshot: collection.snapshot, "seed \(seed)")
            token.cancel()
            let reads = collection.snapshot.map(\.items)
            return reads == sections.map(\.items.snapshot) ? nil : "the items read through the sections differ"
        }
    }

    /// Issue 35: `replace(with:)` ran the items' `id` and `==` under the collection's lock, so an
    /// `id` that read the collection trapped (the lock is not recursive). The diff now runs
    /// outside it, as `ObservableCollection.replace(with:)`'s does.
    func test_replace_runsTheItemsIdAndEqualityOutsideTheLock() {
        let reader = CollectionReader()
        let section = SectionData("A", items: [ReadingItem(1, reader), ReadingItem(2, reader)])
        let collection = SectionedCollection([section])
        reader.collection = collection
        let recorder = EventRecorder<SectionedCollectionChange<String, ReadingItem>>()
        let token = collection.subscribe(on: .synchronous, recorder.handler)
        defer { token.cancel() }
        section.items.replace(with: [ReadingItem(2, reader), ReadingItem(3, reader)])
        XCTAssertEqual(collection.snapshot[0].items.map(\.value), [2, 3])
        XCTAssertEqual(recorder.events.count, 1)
        XCTAssertGreaterThan(reader.reads, 0, "the items' id read the collection")
    }

    // MARK: - Traps (in child processes)

    /// The entry point of the child processes; skipped in a normal run.
    func test_childProcessEntry() throws {
        let name = try childProcessCase()
        let collection = TestSections(makeSectionedList([(1, [1, 2]), (2, [])]))
        switch name {
        case "insertHeld": collection.insertSection(collection.sections[0], at: 2)
        case "replaceHeldTwice": collection.replace(withSections: [collection.sections[0], collection.sections[0]])
        case "removeOutOfRange": collection.sections[0].items.remove(at: 5)
        case "endUpdates": collection.sections[1].items.endUpdates()
        default: return
        }
        print("the case did not trap")
    }

    func test_mistakes_trapWithAMessageNamingTheMethodAndTheValue() throws {
        let expected: [String: String] = [
            "insertHeld":
                "SectionedCollection.insertSection(_:at:): the section for position 2 has items that are already in a "
                + "sectioned collection",
            "replaceHeldTwice":
                "SectionedCollection.replace(withSections:): the section for position 1 has items that are already in "
                + "a sectioned collection",
            "removeOutOfRange": "SectionItems.remove(at:): offset 5 is out of range 0..<2",
            "endUpdates": "SectionItems.endUpdates(): called without a matching beginUpdates()",
        ]
        try assertChildCasesTrap("RippleTests.SectionItemsTests/test_childProcessEntry", expected: expected)
    }
}

/// Lets `ReadingItem`'s `id` read the collection that holds it.
private final class CollectionReader: @unchecked Sendable {
    // Safe: set once before any item reads it, and read and counted on the test's one thread.
    var collection: SectionedCollection<String, ReadingItem>?
    var reads = 0
}

/// An item whose `id` reads the collection holding it, as a getter over shared state might.
private struct ReadingItem: Identifiable, Equatable, Sendable {
    let value: Int
    let reader: CollectionReader

    init(_ value: Int, _ reader: CollectionReader) {
        self.value = value
        self.reader = reader
    }

    var id: Int {
        if let collection = reader.collection {
            _ = collection.numberOfSections
            reader.reads += 1
        }
        return value
    }

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.value == rhs.value }
}
