import Dispatch
import Ripple
import RippleDiff
import RippleTesting
import XCTest

/// What a section header shows.
@MainActor
private protocol ShelfHeaderView: Viewable {
    func show(title: String)
}

/// A section's presenter: a shelf of books.
private final class ShelfPresenter: Presenter<any ShelfHeaderView> {
    let title: String
    nonisolated init(_ title: String) {
        self.title = title
        super.init()
    }

    override func injectView(_ view: any ShelfHeaderView) {
        super.injectView(view)
        view.show(title: title)
    }
}

/// A header that is the shelf's view.
private final class ShelfHeader: HeadlessCell<ShelfPresenter>, ShelfHeaderView {
    var title = ""
    func show(title: String) { self.title = title }
}

/// A book row's presenter; it hears its selection.
private final class BookPresenter: SelectableCellPresenter {
    let id: Int
    private(set) var log: [String] = []
    init(_ id: Int) { self.id = id }
    func didSelectCell() { log.append("didSelectCell") }
    func didDeselectCell() { log.append("didDeselectCell") }
}

/// `HeadlessCellHost`: section headers and footers, the user's taps with the view's selection,
/// and cells that show their row's selection.
///
/// `@MainActor`, with `async` methods: the main queue turns while a test awaits.
@MainActor
final class HeadlessCellHostTests: XCTestCase {
    private func path(_ item: Int, _ section: Int = 0) -> ElementPath { ElementPath(item: item, section: section) }

    /// Shelves of books on a sectioned table screen.
    private func shelves(
        _ layout: [(String, [Int])], visibleRowCount: Int
    ) -> (
        SectionedCollection<ShelfPresenter, BookPresenter>,
        HeadlessTableScreenWithSection<ShelfPresenter, BookPresenter>
    ) {
        let collection = SectionedCollection<ShelfPresenter, BookPresenter>(
            layout.map { SectionData(ShelfPresenter($0.0), items: $0.1.map(BookPresenter.init)) })
        let screen = HeadlessTableScreenWithSection(collection: collection, visibleRowCount: visibleRowCount)
        screen.register(HeadlessCell<BookPresenter>.self)
        screen.register(header: ShelfHeader.self)
        return (collection, screen)
    }

    /// Books on a flat table screen.
    private func bookScreen(_ count: Int) -> (ObservableCollection<BookPresenter>, HeadlessTableScreen<BookPresenter>) {
        let books = ObservableCollection((0..<count).map(BookPresenter.init))
        let screen = HeadlessTableScreen(collection: books, visibleRowCount: 5)
        screen.register(HeadlessCell<BookPresenter>.self)
        return (books, screen)
    }

    func test_headersAndFooters_ofTheSectionsOnScreen_showTheirSectionPresenters() async {
        let (collection, screen) = shelves(
            [("Novels", [1, 2, 3]), ("Poems", [4, 5]), ("Plays", [6, 7, 8])], visibleRowCount: 4)
        screen.register(footer: HeadlessCell<ShelfPresenter>.self, where: { $0.title == "Poems" })
        let host = screen.cells
        await screen.settle()

        XCTAssertEqual(
            host.visibleSupplementaryViews.map(\.section), [0, 1, 1], "Novels' header, Poems' header and footer")
        XCTAssertEqual((host.header(inSection: 0) as? ShelfHeader)?.title, "Novels")
        XCTAssertTrue(
            collection.snapshot[1].section.view === host.header(inSection: 1), "the header is its presenter's view")
        XCTAssertEqual(
            (host.footer(inSection: 1)?.shownItem as? ShelfPresenter)?.title, "Poems",
            "a footer of a class of its own")
        XCTAssertFalse(host.footer(inSection: 1) is ShelfHeader)
        XCTAssertNil(host.footer(inSection: 0))
        XCTAssertNil(host.header(inSection: 2), "Plays is below the screen")

        let novels = host.header(inSection: 0)
        host.scroll(toRow: 4)  // rows 4...7: the end of Poems and Plays
        XCTAssertEqual(host.visibleSupplementaryViews.map(\.section), [1, 1, 2])
        XCTAssertTrue(host.header(inSection: 1) !== novels, "Poems kept its header")
        XCTAssertEqual((host.header(inSection: 2) as? ShelfHeader)?.title, "Plays")
        XCTAssertTrue(host.header(inSection: 2) === novels, "Novels' header was reused for Plays")
        XCTAssertEqual(novels?.reuseCount, 1)
        XCTAssertNil(collection.snapshot[0].section.view, "a reused header leaves its old presenter")
    }

    func test_headersFollowTheirSections_asSectionsMove() async {
        let (collection, screen) = shelves([("Novels", [1]), ("Poems", [2])], visibleRowCount: 4)
        let host = screen.cells
        await screen.settle()
        let poems = host.header(inSection: 1)
        collection.moveSection(from: 1, to: 0)
        collection.insertSection(SectionData(ShelfPresenter("Essays")), at: 2)
        await screen.settle()
        XCTAssertEqual(screen.tableView.violations, [])
        XCTAssertEqual(
            host.visibleSupplementaryViews.map { ($0.view as? ShelfHeader)?.title }, ["Poems", "Novels", "Essays"])
        XCTAssertTrue(host.header(inSection: 0) === poems, "a moved section keeps its header")
    }

    /// Single selection: a tap deselects the row selected before, then selects; the presenters,
    /// `onItemEvent` and the cells hear it in UIKit's order.
    func test_tap_withSingleSelection_deselectsThePreviousRowFirst() async {
        let (books, screen) = bookScreen(4)
        let (view, host) = (screen.tableView, screen.cells)
        var events: [String] = []
        screen.source.onItemEvent = { event, book, _ in events.append("\(event) \(book.id)") }
        await screen.settle()
        XCTAssertEqual(events, ["willDisplay 0", "willDisplay 1", "willDisplay 2", "willDisplay 3"])
        events.removeAll()

        host.tap(path(1))
        host.tap(path(3))
        XCTAssertEqual(view.selectedPaths, [path(3)])
        XCTAssertEqual(
            events,
            [
                "highlighted 1", "unhighlighted 1", "selected 1",
                "highlighted 3", "unhighlighted 3", "deselected 1", "selected 3",
            ])
        XCTAssertEqual(books.snapshot[1].log, ["didSelectCell", "didDeselectCell"])
        XCTAssertEqual(books.snapshot[3].log, ["didSelectCell"])
        XCTAssertEqual(host.visibleCells.map(\.cell.isSelected), [false, false, false, true])

        events.removeAll()
        host.tap(path(3))  // UITableView selects a selected row again
        XCTAssertEqual(events, ["highlighted 3", "unhighlighted 3", "selected 3"])
        host.deselect(path(3))
        XCTAssertEqual(view.selectedPaths, [])
        XCTAssertEqual(books.snapshot[3].log, ["didSelectCell", "didSelectCell", "didDeselectCell"])
        XCTAssertEqual(host.visibleCells.map(\.cell.isSelected), [false, false, false, false])
    }

    func test_tap_withMultipleSelection_togglesRows() async {
        let books = ObservableCollection((0..<3).map(BookPresenter.init))
        let screen = HeadlessCollectionScreen(collection: books)
        let (view, host) = (screen.collectionView, screen.cells)
        view.allowsMultipleSelection = true
        screen.register(HeadlessCell<BookPresenter>.self)
        await screen.settle()
        host.tap(path(0))
        host.tap(path(2))
        XCTAssertEqual(view.selectedPaths, [path(0), path(2)])
        host.tap(path(0))
        XCTAssertEqual(view.selectedPaths, [path(2)])
        XCTAssertEqual(books.snapshot[0].log, ["didSelectCell", "didDeselectCell"])
    }

    /// The selection moves with its row as the collection changes; a deleted row leaves the
    /// selection without a `didDeselect`, as in UIKit.
    func test_theSelection_followsItsRow_throughTheSourcesBatches() async {
        let (books, screen) = bookScreen(3)
        let (view, host) = (screen.tableView, screen.cells)
        await screen.settle()
        let selected = books.snapshot[1]
        host.tap(path(1))

        books.insert(BookPresenter(9), at: 0)
        books.move(from: 2, to: 3)
        await screen.settle()
        XCTAssertEqual(view.violations, [])
        XCTAssertEqual(view.selectedPaths, [path(3)])
        XCTAssertTrue(host.visibleItems[3] === selected)
        XCTAssertTrue(host.visibleCells[3].cell.isSelected)

        books.remove(at: 3)
        await screen.settle()
        XCTAssertEqual(view.selectedPaths, [])
        XCTAssertEqual(selected.log, ["didSelectCell"])
    }

    /// Without a view, a tap only sends its events, as before the host kept a selection.
    func test_tap_withoutAView_sendsTheEventsOnly() async {
        let (books, screen) = bookScreen(2)
        await screen.settle()
        let host = HeadlessCellHost(source: screen.source, visibleRowCount: 2)
        // The identifier the screen's registration routes the rows to: the cell's type name.
        host.register(
            HeadlessCell<BookPresenter>.self,
            forCellReuseIdentifier: String(reflecting: HeadlessCell<BookPresenter>.self))
        host.layout()
        host.tap(path(0))
        host.tap(path(1))
        XCTAssertEqual(books.snapshot.map(\.log), [["didSelectCell"], ["didSelectCell"]])
        XCTAssertEqual(screen.tableView.selectedPaths, [])
    }

    // MARK: - Cells belong to rows (uikit-cell-lifecycle.md, C1)

    /// Value rows: an insert above the rows on screen keeps every other row's cell, untouched
    /// (no trip through the reuse pool, no configure); the row pushed off screen gives its cell
    /// up; a move carries the moved row's cell and keeps the others'.
    func test_valueRows_insertAboveAndMove_keepEveryOtherRowsCell() async {
        let rows = ObservableCollection(Array(0..<30))
        let screen = HeadlessTableScreen(collection: rows, visibleRowCount: 10)
        screen.register(HeadlessCell<Int>.self)
        await screen.settle()
        let before = screen.cells.visibleCells.map(\.cell)
        XCTAssertEqual(before.map(\.configureCount), Array(repeating: 1, count: 10))

        rows.insert(-1, at: 0)
        await screen.settle()
        let after = screen.cells.visibleCells.map(\.cell)
        XCTAssertEqual(screen.cells.visibleItems, [-1] + Array(0..<9))
        for index in 0..<9 {
            XCTAssertTrue(after[index + 1] === before[index], "row \(index) keeps its cell")
        }
        XCTAssertEqual(after.dropFirst().map(\.reuseCount), Array(repeating: 0, count: 9))
        XCTAssertEqual(after.dropFirst().map(\.configureCount), Array(repeating: 1, count: 9), "not asked again")
        XCTAssertFalse(before.contains { $0 === after[0] }, "the inserted row gets a new cell")

        let moved = after[2]
        rows.move(from: 2, to: 7)
        await screen.settle()
        let final = screen.cells.visibleCells.map(\.cell)
        XCTAssertTrue(final[7] === moved, "the moved row keeps its cell")
        XCTAssertEqual(screen.cells.visibleItems, [-1, 0, 2, 3, 4, 5, 6, 1, 7, 8])
        XCTAssertEqual(
            Set(final.map(ObjectIdentifier.init)), Set(after.map(ObjectIdentifier.init)), "every row kept its cell")
        XCTAssertEqual(final.map(\.reuseCount), Array(repeating: 0, count: 10))
        XCTAssertEqual(screen.tableView.violations, [])
    }

    /// A reloaded row gets a cell from the pool (with `prepareForReuse()`), and its old cell enters
    /// the pool after the batch's new cells are taken, as it animates out on a device.
    func test_reloadedRow_getsAnotherCell_andItsOldCellIsReusedLater() async {
        struct Row: Hashable, Sendable {
            var id: Int
            var title = ""
        }
        let rows = ObservableCollection([0, 1, 2].map { Row(id: $0) })
        let screen = HeadlessTableScreen(collection: rows, visibleRowCount: 10)
        screen.source.updateStyle = .reload
        screen.register(HeadlessCell<Row>.self)
        await screen.settle()
        let old = screen.cells.visibleCells[1].cell

        rows.replace(with: [Row(id: 0), Row(id: 1, title: "new"), Row(id: 2)], identity: .key(\.id, contentEquals: ==))
        await screen.settle()
        XCTAssertFalse(screen.cells.visibleCells[1].cell === old)
        XCTAssertEqual(screen.cells.createdCellCount, 4)

        rows.append(Row(id: 3))
        await screen.settle()
        XCTAssertTrue(screen.cells.visibleCells[3].cell === old, "the reloaded row's old cell was reused")
        XCTAssertEqual(old.reuseCount, 1)
    }

    /// The sequential (`NSTableView`) view feeds the host too: an insert at the top keeps the
    /// other rows' cells.
    func test_sequentialView_carriesCells() {
        MainActor.assumeIsolated {
            let rows = ObservableCollection(Array(0..<5))
            final class Box { var read: () -> [Int] = { [] } }
            let box = Box()
            let table = HeadlessSequentialTableView<Int> { box.read() }
            let list = SequentialListView(table)
            let source = TableViewSource(view: list, collection: rows)
            box.read = { MainActor.assumeIsolated { Array(source.renderedItems) } }
            let host = HeadlessCellHost(source: source, view: list, visibleRowCount: 4)
            host.register(HeadlessCell<Int>.self, forCellReuseIdentifier: "Cell")
            source.route(itemsOf: Int.self, where: nil, toCellsWith: "Cell")  // every row to that cell
            waitForMainQueue()
            host.layout()
            let before = host.visibleCells.map(\.cell)
            rows.insert(-1, at: 1)
            waitForMainQueue()
            XCTAssertEqual(host.visibleItems, [0, -1, 1, 2])
            XCTAssertTrue(host.visibleCells[0].cell === before[0])
            XCTAssertTrue(host.visibleCells[2].cell === before[1])
            XCTAssertTrue(host.visibleCells[3].cell === before[2])
            XCTAssertEqual(table.violations, [])
        }
    }
}
