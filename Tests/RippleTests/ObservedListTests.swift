import Observation
import Ripple
import RippleTestSupport
import XCTest

/// `ObservedList` and `ObservedSectionedList`: the lists a SwiftUI view reads.
final class ObservedListTests: XCTestCase {

    func test_startsFromThePublishedList_andChangesOncePerEvent() {
        MainActor.assumeIsolated {
            let collection = ObservableCollection([1, 2, 3])
            let list = ObservedList(collection)
            XCTAssertEqual(list.elements, [1, 2, 3])
            XCTAssertEqual(list.version, 0)
            let counter = InvalidationCounter { _ = list.elements }
            for round in 1...5 {
                collection.append(round)
                flushMainQueue()
                XCTAssertEqual(counter.invalidations, 2 * round - 1, "one invalidation per event")
                collection.remove(at: 0)
                flushMainQueue()
                XCTAssertEqual(counter.invalidations, 2 * round, "one invalidation per event")
            }
            XCTAssertEqual(list.elements, collection.snapshot)
            XCTAssertEqual(list.version, collection.version)
        }
    }

    /// A SwiftUI view shows a derived list as it shows a collection: a search over books, each
    /// shown through its row object, changes once per source event and once per new query.
    func test_followsADerivedList_oncePerEvent() {
        MainActor.assumeIsolated {
            let books = ObservableCollection((0..<6).map { TestItem(id: $0, content: $0) })
            let matching = books.filtered { $0.content % 2 == 0 }
            let shown = matching.mapped { "book \($0.id)" }
            let list = ObservedList(shown)
            XCTAssertEqual(Array(list.elements), ["book 0", "book 2", "book 4"])
            let counter = InvalidationCounter { _ = list.elements }
            books.append(TestItem(id: 6, content: 6))
            books.append(TestItem(id: 7, content: 7))  // filtered out: no event
            matching.setPredicate { $0.content % 3 == 0 }
            flushMainQueue()
            XCTAssertEqual(counter.invalidations, 2, "one invalidation per event of the derived list")
            XCTAssertEqual(Array(list.elements), ["book 0", "book 3", "book 6"])
            XCTAssertEqual(list.version, shown.version)
        }
    }

    func test_aBatch_isOneEvent_andOneTransaction() {
        MainActor.assumeIsolated {
            let collection = ObservableCollection(Array(0..<10))
            let list = ObservedList(collection)
            var transactions = 0
            list.transaction = { change in
                transactions += 1
                change()
            }
            let counter = InvalidationCounter { _ = list.elements }
            collection.performBatchUpdates {
                collection.remove(at: 3)
                collection.append(99)
                collection.move(from: 0, to: 5)
            }
            collection.replace(with: [99, 1, 2], identity: .value)
            flushMainQueue()
            XCTAssertEqual(transactions, 2)
            XCTAssertEqual(counter.invalidations, 2, "one invalidation per event: the batch, then the replace")
            XCTAssertEqual(list.elements, [99, 1, 2])
        }
    }

    /// Issues 23 and 24: following an event costs O(1): the list's elements are the event's
    /// snapshot, which shares its storage with the collection, and an earlier list never changes.
    func test_anAppendToALongList_sharesTheCollectionsStorage() {
        MainActor.assumeIsolated {
            let collection = ObservableCollection(Array(0..<100_000))
            let list = ObservedList(collection)
            for appended in 0..<64 {
                let before = list.elements
                collection.append(appended)
                flushMainQueue()
                XCTAssertTrue(list.elements.isIdentical(to: collection.snapshot), "append \(appended)")
                XCTAssertEqual(before.count, 100_000 + appended, "a held list never changes")
            }
            XCTAssertEqual(list.elements, collection.snapshot)
        }
    }

    /// Issue 24: four threads mutate at random; after every event, the list is that event's
    /// snapshot, at that version, read and written on the main actor only.
    func test_randomMutationsFromFourThreads_theListIsEachEventsSnapshot() {
        forEachSeed(1...3) { seed, _ in
            let collection = ObservableCollection([Int]())
            let (list, checker, counter) = MainActor.assumeIsolated {
                let list = ObservedList(collection)
                let checker = SnapshotChecker()
                let counter = InvalidationCounter { _ = list.elements }
                return (list, checker, counter)
            }
            let token = collection.subscribe { change in
                checker.check(list.elements == change.snapshot && list.version == change.version, change.version)
            }
            runOnThreads(4) { thread in
                var random = SplitMix64(seed: seed &* 31 &+ UInt64(thread))
                for step in 0..<400 {
                    switch random.int(below: 6) {
                    case 0, 1: collection.append(step)
                    case 2: collection.removeAll { $0 % 7 == step % 7 }
                    case 3:
                        collection.performBatchUpdates {
                            collection.append(step)
                            collection.append(-step)
                        }
                    case 4:
                        collection.replace(with: Array(Set(collection.snapshot).prefix(30)).sorted(), identity: .value)
                    default:
                        // Check and move in one step: another thread may empty the list meanwhile.
                        let version = collection.version
                        if collection.count > 1 { _ = collection.move(from: 0, to: 1, ifVersion: version) }
                    }
                }
            }
            MainActor.assumeIsolated { flushMainQueue() }
            token.cancel()
            return MainActor.assumeIsolated {
                let events = collection.version
                if let failure = checker.failure { return failure }
                if list.elements != collection.snapshot { return "the list ends at \(list.elements.count) elements" }
                if counter.invalidations != events {
                    return "\(counter.invalidations) invalidations for \(events) events"
                }
                return nil
            }
        }
    }

    func test_sectioned_itemChangesInPlace_andSectionChangesBySnapshot() {
        MainActor.assumeIsolated {
            let collection = SectionedCollection([
                SectionSnapshot(section: "A", items: Array(0..<1_000)), SectionSnapshot(section: "B", items: []),
            ])
            let list = ObservedSectionedList(collection)
            let counter = InvalidationCounter { _ = list.sections }
            collection.appendItem(-1, toSection: 0)
            flushMainQueue()
            XCTAssertEqual(counter.invalidations, 1)
            collection.appendItem(-2, toSection: 0)
            collection.sections[1].items.append(7)
            collection.moveSection(from: 1, to: 0)
            collection.moveItem(from: ElementPath(item: 0, section: 0), to: ElementPath(item: 0, section: 1))
            flushMainQueue()
            XCTAssertEqual(counter.invalidations, 5, "one invalidation per event")
            XCTAssertEqual(list.sections, collection.snapshot)
            XCTAssertEqual(list.version, collection.version)
        }
    }

    /// Issue 23: following an event costs O(sections): the list's sections share their items with
    /// the collection, and a list held from before never changes.
    func test_sectioned_anItemAppendedToALongSection_sharesTheCollectionsStorage() {
        MainActor.assumeIsolated {
            let collection = SectionedCollection([SectionSnapshot(section: "A", items: Array(0..<100_000))])
            let list = ObservedSectionedList(collection)
            for appended in 0..<64 {
                let before = list.sections
                collection.appendItem(appended, toSection: 0)
                flushMainQueue()
                XCTAssertTrue(
                    list.sections[0].items.isIdentical(to: collection.snapshot[0].items), "append \(appended)")
                XCTAssertEqual(before[0].items.count, 100_000 + appended, "a held list never changes")
            }
            XCTAssertEqual(list.sections, collection.snapshot)
        }
    }

    func test_theListDeallocates_andCancelsItsSubscription() {
        let collection = ObservableCollection([1])
        let sectioned = SectionedCollection([SectionSnapshot(section: "A", items: [1])])
        MainActor.assumeIsolated {
            assertDeallocated {
                let list = ObservedList(collection)
                let sections = ObservedSectionedList(sectioned)
                collection.append(2)
                return weakReferences(list, sections)
            }
        }
        XCTAssertEqual(collection.subscriberCount, 0)
        XCTAssertEqual(sectioned.subscriberCount, 0)
        collection.append(3)
        MainActor.assumeIsolated { flushMainQueue() }
    }
}

/// Records the first event after which the list was not that event's snapshot.
@MainActor
private final class SnapshotChecker {
    private(set) var failure: String?

    func check(_ agrees: Bool, _ version: Int) {
        if !agrees && failure == nil { failure = "the list differs from the snapshot of version \(version)" }
    }
}
