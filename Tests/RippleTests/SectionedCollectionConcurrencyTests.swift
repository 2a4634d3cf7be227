import Dispatch
import Foundation
import Ripple
import RippleDiff
import RippleTestSupport
import XCTest

/// Mutations of different sections from several threads at once: every event arrives once, in
/// version order without gaps, and replays to the final list. Runs under ThreadSanitizer in CI.
final class SectionedCollectionConcurrencyTests: XCTestCase {
    func testFourThreadsMutatingDifferentSections() {
        let threads = 4
        let operations = 300
        let collection = TestSections(makeSectionedList((0..<threads).map { ($0, []) }))
        let checker = SectionedChangeChecker(initial: collection.snapshot, light: true)
        let token = collection.subscribe(on: .synchronous, checker.handler)
        let queued = SectionedChangeChecker(initial: collection.snapshot, light: true)
        let serial = DispatchQueue(label: "sectioned-collection-stress")
        let queuedToken = collection.subscribe(on: .queue(serial), queued.handler)
        let sections = collection.sections
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            var random = SplitMix64(seed: UInt64(thread))
            let items = sections[thread].items
            for step in 0..<operations {
                let id = thread * 100_000 + step
                // The section's position changes as other threads move sections.
                let position = { collection.sections.firstIndex { $0 === sections[thread] }! }
                switch random.int(below: 6) {
                case 0:
                    items.append(TestItem(id: id))
                case 1:
                    collection.appendItem(TestItem(id: id), toSection: position())
                case 2:
                    if !items.isEmpty { items.remove(at: 0) }
                case 3:
                    collection.performBatchUpdates {
                        items.append(TestItem(id: id))
                        if items.count > 1 { items.move(from: 0, to: items.count - 1) }
                    }
                case 4:
                    collection.moveSection(from: position(), to: random.int(below: threads))
                default:
                    items.performBatchUpdates {
                        items.insert(TestItem(id: id), at: 0)
                        if items.count > 2 { items.remove(at: 2) }
                    }
                }
            }
        }
        serial.sync {}
        let final = Array(collection.snapshot)
        XCTAssertEqual(final.map(\.items), collection.sections.map { $0.items.snapshot })
        checker.assertConsistent(finalSnapshot: final, "synchronous subscriber")
        queued.assertConsistent(finalSnapshot: final, "queue subscriber")
        XCTAssertEqual(checker.eventCount, collection.version)
        XCTAssertEqual(queued.eventCount, collection.version)
        token.cancel()
        queuedToken.cancel()
    }

    func testConcurrentMutationsOfOneSectionStayValid() {
        // Mutations of the same section through its own collection and by path at once may reach
        // the sectioned collection in either order; the events must stay valid and end right.
        let collection = TestSections(makeSectionedList([(0, [1, 2, 3]), (1, [])]))
        let checker = SectionedChangeChecker(initial: collection.snapshot, light: true)
        let token = collection.subscribe(on: .synchronous, checker.handler)
        let items = collection.sections[0].items
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for step in 0..<200 {
                let id = 10 * (thread * 1_000 + step) + 7
                switch (thread + step) % 4 {
                case 0: items.append(TestItem(id: id))
                case 1: collection.insertItem(TestItem(id: id), at: ElementPath(item: 0, section: 0))
                case 2:
                    if collection.numberOfItems(inSection: 0) > 3 {
                        collection.moveItem(
                            from: ElementPath(item: 0, section: 0), to: ElementPath(item: 0, section: 1))
                    }
                default:
                    if collection.numberOfItems(inSection: 1) > 0 {
                        collection.removeItem(at: ElementPath(item: 0, section: 1))
                    }
                }
            }
        }
        let final = Array(collection.snapshot)
        XCTAssertEqual(final.map(\.items), collection.sections.map { $0.items.snapshot })
        checker.assertConsistent(finalSnapshot: final)
        token.cancel()
    }
}
