import Ripple
import RippleDiff
import RippleTestSupport
import RippleTesting
import XCTest

/// `HeadlessTableScreen` and `HeadlessCollectionScreenWithSection`: ready-made screens for tests.
final class HeadlessScreenTests: XCTestCase {
    private final class Row: HeadlessCell<TestItem> {}

    func test_tableScreen_showsTheCollection_withValidBatches_andCells() {
        MainActor.assumeIsolated {
            let collection = ObservableCollection([TestItem](ids: [1, 2, 3]))
            let screen = HeadlessTableScreen(collection: collection, visibleRowCount: 2)
            screen.cells.register(Row.self, forCellReuseIdentifier: "Cell")
            screen.settle()
            collection.append(TestItem(id: 4))
            collection.replace(with: [TestItem](ids: [4, 2, 1]))
            screen.settle()
            XCTAssertEqual(screen.tableView.violations, [])
            XCTAssertEqual(screen.shownItems, collection.snapshot)
            XCTAssertEqual(screen.cells.visibleItems, [TestItem(id: 4), TestItem(id: 2)])
            XCTAssertEqual(screen.source.statistics.reloads, 1)
        }
    }

    func test_tableScreen_loadingRowIsShownAsNil() {
        MainActor.assumeIsolated {
            let scheduler = TestScheduler()
            let collection = ObservableCollection<TestItem>()
            let loadMore = CommandWithResult<Void, PageLoad>(queue: scheduler) { _, done in
                collection.append(TestItem(id: collection.count))
                done(.success(.lastPage))
            }
            let screen = HeadlessTableScreen(collection: collection)
            screen.source.paginate(with: loadMore)
            screen.settle()
            XCTAssertEqual(screen.tableView.rows, [[nil]])
            XCTAssertEqual(screen.shownItems, [])
            XCTAssertEqual(scheduler.runAll(), 1)
            screen.settle()
            XCTAssertEqual(screen.tableView.rows, [[TestItem(id: 0)]])
            XCTAssertEqual(screen.tableView.violations, [])
        }
    }

    func test_sectionedScreen_showsTheSections() {
        MainActor.assumeIsolated {
            let collection = SectionedCollection<TestItem, String>([
                SectionSnapshot(section: "A", items: [TestItem](ids: [1, 2])),
                SectionSnapshot(section: "B", items: [TestItem](ids: [3])),
            ])
            let screen = HeadlessCollectionScreenWithSection(collection: collection)
            screen.settle()
            collection.moveItem(from: ElementPath(item: 0, section: 0), to: ElementPath(item: 1, section: 1))
            collection.moveSection(from: 1, to: 0)
            screen.settle()
            XCTAssertEqual(screen.collectionView.violations, [])
            XCTAssertEqual(screen.collectionView.items, collection.snapshot.map(\.items))
        }
    }
}
