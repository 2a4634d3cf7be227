import Foundation
import Ripple
import RippleDiff
import RippleTestSupport
import XCTest

/// TestSections removed from a sectioned collection deallocate and stop publishing into it; the
/// collection itself, its sections and its subscriptions create no retain cycles.
final class SectionedCollectionLeakTests: XCTestCase {
    func testCollectionAndSectionsDeallocate() {
        assertDeallocated {
            let collection = TestSections(makeSectionedList([(1, [1]), (2, [2])]))
            let sections = collection.sections
            let token = collection.subscribe(on: .synchronous) { _ in }
            collection.appendItem(TestItem(id: 3), toSection: 0)
            collection.performBatchUpdates { collection.moveSection(from: 0, to: 1) }
            collection.replace(with: makeSectionedList([(2, [2]), (3, [3])]))
            token.cancel()
            return [WeakReference(collection)] + sections.map { WeakReference($0) }
                + collection.sections.map { WeakReference($0) }
        }
    }

    func testRemovedSectionDeallocates() {
        let collection = TestSections(makeSectionedList([(1, [1]), (2, [2])]))
        assertDeallocated {
            let removed = collection.removeSection(at: 0)
            return weakReferences(removed, removed.items)
        }
        assertDeallocated {
            let dropped = collection.sections[0]
            collection.replace(with: makeSectionedList([(3, [])]))
            return weakReferences(dropped, dropped.items)
        }
        XCTAssertEqual(collection.numberOfSections, 1)
    }

    func testRemovedSectionStopsPublishing() {
        let collection = TestSections(makeSectionedList([(1, [1]), (2, [2]), (3, [3])]))
        let recorder = EventRecorder<SectionedCollectionChange<TestHeader, TestItem>>()
        let token = collection.subscribe(on: .synchronous, recorder.handler)
        let removed = collection.removeSection(at: 0)
        let replaced = collection.sections[0]
        collection.replaceSection(at: 0, with: TestSection(TestHeader(id: 4)))
        let dropped = collection.sections[1]
        collection.replace(with: makeSectionedList([(4, [])]))
        collection.performBatchUpdates {
            collection.appendSection(TestSection(TestHeader(id: 5)))
            collection.removeAllSections()
        }
        let before = recorder.count
        removed.items.append(TestItem(id: 9))
        replaced.items.append(TestItem(id: 10))
        dropped.items.append(TestItem(id: 11))
        XCTAssertEqual(recorder.count, before)
        XCTAssertEqual(removed.items.snapshot.last, TestItem(id: 9))
        XCTAssertEqual(dropped.items.snapshot.last, TestItem(id: 11))
        token.cancel()
    }

    func testSharedSectionOutlivesTheCollectionAndGetsItsItemsBack() {
        let shared = TestSection(TestHeader(id: 1), items: [TestItem(id: 1)])
        assertDeallocated {
            let collection = TestSections([shared])
            shared.items.append(TestItem(id: 2))
            XCTAssertEqual(collection.snapshot.shape, [[1, 2]])
            return WeakReference(collection)
        }
        shared.items.append(TestItem(id: 3))
        XCTAssertEqual(shared.items.snapshot.ids, [1, 2, 3])
    }

    func testSubscriberCapturingTheCollectionWeaklyDoesNotLeak() {
        assertDeallocated {
            let collection = TestSections(makeSectionedList([(1, [])]))
            let token = collection.subscribe(on: .synchronous) { [weak collection] change in
                if change.version == 1 { collection?.appendItem(TestItem(id: 2), toSection: 0) }
            }
            collection.appendItem(TestItem(id: 1), toSection: 0)
            XCTAssertEqual(collection.version, 2)
            return weakReferences(collection, token)
        }
    }

    /// An item whose `deinit` reads the collection it was in: it must not run under the lock.
    private final class Tracer: Sendable {
        let onDeinit: @Sendable () -> Void
        init(_ onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
        deinit { onDeinit() }
    }

    func testItemsAndSectionsAreReleasedOutsideTheLock() {
        let collection = SectionedCollection<TestHeader, Tracer>()
        let released = Locked(0)
        func tracers(_ count: Int) -> [Tracer] {
            (0..<count).map { _ in
                Tracer { [weak collection] in
                    _ = collection?.numberOfSections
                    _ = collection?.snapshot
                    released.withLock { $0 += 1 }
                }
            }
        }
        let token = collection.subscribe(on: .synchronous) { _ in }
        collection.appendSection(SectionData(TestHeader(id: 1), items: tracers(4)))
        collection.appendSection(SectionData(TestHeader(id: 2), items: tracers(2)))
        collection.removeItem(at: ElementPath(item: 0, section: 0))
        collection[ElementPath(item: 0, section: 0)] = tracers(1)[0]
        collection.performBatchUpdates {
            collection.removeItem(at: ElementPath(item: 0, section: 1))
            collection.sections[0].items.remove(at: 0)
        }
        collection.replace(
            with: [SectionSnapshot(section: TestHeader(id: 1), items: Array(collection.snapshot[0].items.prefix(1)))],
            sectionIdentity: .key(\.id, contentEquals: ==),
            itemIdentity: .key({ ObjectIdentifier($0) }, contentEquals: { _, _ in true }))
        collection.replaceSection(at: 0, with: SectionData(TestHeader(id: 3), items: tracers(1)))
        collection.removeAllSections()
        token.cancel()
        XCTAssertEqual(released.current, 8, "every item was released, none under the lock")
    }
}
