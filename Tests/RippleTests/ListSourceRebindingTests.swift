import Ripple
import RippleTestSupport
import RippleTesting
import XCTest

/// What a book row shows.
@MainActor
private protocol BookRowView: Viewable {
    func show(title: String)
}

/// A book, as the app's model.
private struct Book: Sendable {
    var id: Int
    var title: String
}

/// A cell presenter, rebuilt on every refresh and diffed by `id` ("fresh presenters, diffed by id").
private final class BookRowPresenter: Presenter<any BookRowView>, Identifiable, Equatable {
    nonisolated let id: Int
    nonisolated let title: String

    nonisolated init(book: Book) {
        id = book.id
        title = book.title
        super.init()
    }

    override func injectView(_ view: any BookRowView) {
        super.injectView(view)
        view.show(title: title)
    }

    nonisolated static func == (lhs: BookRowPresenter, rhs: BookRowPresenter) -> Bool {
        lhs.id == rhs.id && lhs.title == rhs.title
    }
}

/// What a shelf's header shows.
@MainActor
private protocol ShelfHeaderViewing: Viewable {
    func show(title: String)
}

/// A section presenter, rebuilt on every refresh and diffed by `id`.
private final class ShelfHeaderPresenter: Presenter<any ShelfHeaderViewing>, Identifiable, Equatable {
    nonisolated let title: String
    nonisolated var id: String { title }

    nonisolated init(_ title: String) {
        self.title = title
        super.init()
    }

    override func injectView(_ view: any ShelfHeaderViewing) {
        super.injectView(view)
        view.show(title: title)
    }

    nonisolated static func == (lhs: ShelfHeaderPresenter, rhs: ShelfHeaderPresenter) -> Bool { lhs.title == rhs.title }
}

/// A header (or footer) view of a shelf.
private final class ShelfHeaderView: HeadlessCell<ShelfHeaderPresenter>, ShelfHeaderViewing {
    var title = ""
    var shown: ShelfHeaderPresenter? { item }
    func show(title: String) { self.title = title }
}

/// A row object, for a list of optional rows.
private final class OptionalRow: Sendable {
    let id: Int
    init(_ id: Int) { self.id = id }
}

/// A cell that shows a book row.
private final class BookRowCell: HeadlessCell<BookRowPresenter>, BookRowView {
    var title = ""
    func show(title: String) { self.title = title }
}

/// Another cell type, for the rows whose title starts with "Ad".
private final class AdRowCell: HeadlessCell<BookRowPresenter>, BookRowView {
    var title = ""
    func show(title: String) { self.title = title }
}

/// List sources rebind the cells of rows a change kept (uikit-cell-lifecycle.md, C7): a kept row
/// whose element is another object, and an updated row, are reconfigured in place after the batch,
/// or reloaded when they need another cell type.
@MainActor
final class ListSourceRebindingTests: XCTestCase {
    private let books = [Book(id: 1, title: "Dune"), Book(id: 2, title: "Emma")]

    private func screen(_ list: ObservableCollection<BookRowPresenter>) -> HeadlessTableScreen<BookRowPresenter> {
        let screen = HeadlessTableScreen(collection: list)
        screen.register(BookRowCell.self)
        screen.register(AdRowCell.self, where: { $0.title.hasPrefix("Ad") })
        return screen
    }

    /// Issue 21, bug 1: the docs' refresh pattern. Row 1 is kept, and its element is a new object:
    /// on a device nothing asks for its cell again, so the source must rebind it.
    func test_aRefreshWithFreshPresenters_rebindsTheKeptRowInItsCell() async {
        let list = ObservableCollection(books.map(BookRowPresenter.init(book:)))
        let screen = screen(list)
        await screen.settle()
        let oldPresenter = list.snapshot[1]
        let cell = screen.cells.visibleCells[1].cell as? BookRowCell

        list.replace(with: [Book(id: 1, title: "Dune (2nd)"), books[1]].map(BookRowPresenter.init(book:)))
        await screen.settle()

        let newPresenter = list.snapshot[1]
        XCTAssertFalse(newPresenter === oldPresenter)
        XCTAssertTrue(screen.cells.visibleCells[1].cell === cell, "the kept row keeps its cell")
        XCTAssertTrue(screen.cells.visibleItems[1] === newPresenter, "the cell shows the new presenter")
        XCTAssertTrue(newPresenter.view === cell)
        XCTAssertTrue(newPresenter.hasView)
        XCTAssertFalse(oldPresenter.hasView, "the presenter that lost the cell gave up its view")
        XCTAssertEqual(cell?.reuseCount, 0, "no trip through the reuse pool")
        XCTAssertEqual((screen.cells.visibleCells[0].cell as? BookRowCell)?.title, "Dune (2nd)")
        XCTAssertEqual(screen.tableView.violations, [])
        XCTAssertEqual(
            screen.tableView.events.last,
            .reconfigure([ElementPath(item: 0, section: 0), ElementPath(item: 1, section: 0)]))
    }

    /// An updated row (same identifier, new content) is reconfigured by default: the same cell,
    /// configured again, no reload in the batch.
    func test_anUpdatedRow_isReconfiguredInItsCell_byDefault() async {
        let list = ObservableCollection(books.map(BookRowPresenter.init(book:)))
        let screen = screen(list)
        await screen.settle()
        let cell = screen.cells.visibleCells[0].cell

        list[0] = BookRowPresenter(book: Book(id: 1, title: "Dune Messiah"))
        await screen.settle()

        XCTAssertTrue(screen.cells.visibleCells[0].cell === cell)
        XCTAssertEqual((cell as? BookRowCell)?.title, "Dune Messiah")
        XCTAssertEqual(cell.configureCount, 2)
        XCTAssertEqual(cell.reuseCount, 0)
        XCTAssertFalse(
            screen.tableView.events.contains { event in
                if case .batchUpdates(let batch, _) = event {
                    return batch.operations.contains(.reloadItem(ElementPath(item: 0, section: 0)))
                }
                return false
            }, "no reload")
        XCTAssertEqual(screen.tableView.violations, [])
    }

    /// With `updateStyle = .reload`, an updated row is reloaded in the batch: a cell from the reuse
    /// pool, as before.
    func test_anUpdatedRow_isReloaded_withTheReloadStyle() async {
        let list = ObservableCollection(books.map(BookRowPresenter.init(book:)))
        let screen = screen(list)
        screen.source.updateStyle = .reload
        await screen.settle()
        let cell = screen.cells.visibleCells[0].cell

        list[0] = BookRowPresenter(book: Book(id: 1, title: "Dune Messiah"))
        await screen.settle()

        XCTAssertFalse(screen.cells.visibleCells[0].cell === cell, "a reload takes another cell")
        XCTAssertEqual((screen.cells.visibleCells[0].cell as? BookRowCell)?.title, "Dune Messiah")
        guard case .batchUpdates(let batch, let result) = screen.tableView.events.last else {
            return XCTFail("\(screen.tableView.events)")
        }
        XCTAssertEqual(batch.operations, [.reloadItem(ElementPath(item: 0, section: 0))])
        XCTAssertTrue(result.isValid)
    }

    /// A kept or updated row whose new element needs another cell type cannot be reconfigured
    /// (C4): it is reloaded, in a batch of its own after the event's batch.
    func test_aRowThatNeedsAnotherCellType_isReloaded() async {
        let list = ObservableCollection(books.map(BookRowPresenter.init(book:)))
        let screen = screen(list)
        await screen.settle()

        list.replace(with: [Book(id: 1, title: "Ad: Dune"), books[1]].map(BookRowPresenter.init(book:)))
        await screen.settle()

        XCTAssertTrue(screen.cells.visibleCells[0].cell is AdRowCell)
        XCTAssertTrue(screen.cells.visibleItems[0] === list.snapshot[0])
        XCTAssertTrue(screen.cells.visibleItems[1] === list.snapshot[1])
        XCTAssertEqual(screen.tableView.violations, [])
    }

    /// A sectioned source rebinds the same way.
    func test_aSectionedRefreshWithFreshPresenters_rebindsTheKeptRows() async {
        let shelves = SectionedCollection([SectionData("Shelf", items: books.map(BookRowPresenter.init(book:)))])
        let screen = HeadlessTableScreenWithSection(collection: shelves)
        screen.register(BookRowCell.self)
        await screen.settle()
        let cells = screen.cells.visibleCells.map(\.cell)

        shelves.replace(
            with: [SectionSnapshot(section: "Shelf", items: books.map(BookRowPresenter.init(book:)))],
            sectionIdentity: .key({ $0 }, contentEquals: ==), itemIdentity: .key(\.id, contentEquals: ==))
        await screen.settle()

        XCTAssertTrue(
            zip(screen.cells.visibleCells.map(\.cell), cells).allSatisfy { $0 === $1 }, "the rows keep their cells")
        for (index, presenter) in shelves.snapshot[0].items.enumerated() {
            XCTAssertTrue(screen.cells.visibleItems[index] === presenter)
            XCTAssertTrue(presenter.view === cells[index])
        }
        XCTAssertEqual(screen.tableView.violations, [])
    }

    /// Issue 35: rows of an optional class type (`Row?`) are objects too. They never got object
    /// rebinding: the check for "may be an object" read the type's metadata kind, which is an
    /// enum's for an `Optional`.
    func test_optionalObjectRows_areRebound_likeObjectRows() async {
        let list = ObservableCollection<OptionalRow?>([OptionalRow(1), OptionalRow(2)])
        let screen = HeadlessTableScreen(collection: list)
        screen.register(HeadlessCell<OptionalRow?>.self)
        await screen.settle()

        // Rows 1 and 2 are kept with fresh objects; row 3 is new, so that the replace is an event.
        list.replace(
            with: [OptionalRow(1), OptionalRow(2), OptionalRow(3)],
            identity: .key({ $0?.id ?? -1 }, contentEquals: { _, _ in true }))
        await screen.settle()

        let paths = [ElementPath(item: 0, section: 0), ElementPath(item: 1, section: 0)]
        XCTAssertEqual(screen.tableView.events.last, .reconfigure(paths))
        for (index, shown) in screen.cells.visibleItems.prefix(2).enumerated() {
            XCTAssertTrue((shown ?? nil) === list.snapshot[index], "row \(index) shows the new object")
        }
        XCTAssertEqual(screen.tableView.violations, [])
    }

    /// Issue 35, bug 2: a kept section whose header presenter is a fresh object (equal by `id`
    /// and `==`) keeps its header view, which now shows the new presenter; the old one gives up
    /// the view. Only the rows were rebound: the header kept the old presenter, and the new one
    /// had no view.
    func test_aSectionsRefreshWithAFreshHeaderPresenter_rebindsItsHeader() async {
        let shelves = SectionedCollection([SectionData(ShelfHeaderPresenter("A"), items: [1, 2])])
        let screen = HeadlessTableScreenWithSection(collection: shelves)
        screen.register(HeadlessCell<Int>.self)
        screen.register(header: ShelfHeaderView.self)
        await screen.settle()
        let old = shelves.snapshot[0].section
        let header = screen.cells.header(inSection: 0) as? ShelfHeaderView
        XCTAssertTrue(old.view === header)

        let fresh = ShelfHeaderPresenter("A")
        shelves.replace(
            withSections: [SectionData(fresh, items: [1, 2, 3])], sectionIdentity: .id, itemIdentity: .value)
        await screen.settle()

        XCTAssertTrue(screen.cells.header(inSection: 0) === header, "the kept section keeps its header view")
        XCTAssertTrue(fresh.view === header, "the new presenter has the header view")
        XCTAssertTrue(header?.shown === fresh, "the header shows the new presenter")
        XCTAssertFalse(old.hasView, "the presenter that lost the header gave up its view")
        XCTAssertEqual(screen.tableView.events.last, .reconfigureSupplementaryViews([0]))
        XCTAssertEqual(screen.tableView.violations, [])
    }

    /// Value rows: a kept row shows an equal value, so nothing is rebound.
    func test_valueRows_needNoRebinding() async {
        let list = ObservableCollection([1, 2, 3])
        let screen = HeadlessTableScreen(collection: list)
        screen.register(HeadlessCell<Int>.self)
        await screen.settle()

        list.insert(0, at: 0)
        await screen.settle()

        XCTAssertFalse(
            screen.tableView.events.contains { if case .reconfigure = $0 { return true } else { return false } })
        XCTAssertEqual(screen.cells.visibleItems, [0, 1, 2, 3])
    }
}
