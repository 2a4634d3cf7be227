import Ripple
import RippleDiff

/// A table screen without UIKit, ready for a test: a ``HeadlessTableView`` that checks every
/// batch and keeps the selection, the `TableViewSource` that drives it (and is its data source, as
/// with `UITableView`), and a ``HeadlessCellHost`` that shows cells, scrolls and taps.
///
/// <!-- swift
/// struct Book: Equatable, Sendable {
///     var title: String
/// }
/// final class BookCellPresenter: Sendable {
///     let book: Book
///     init(_ book: Book) { self.book = book }
/// }
/// final class BookListPresenter: Sendable {
///     let books = ObservableCollection<BookCellPresenter>()
///     func loaded(_ page: [Book]) { books.append(contentsOf: page.map(BookCellPresenter.init)) }
///     let shelves = SectionedCollection([SectionData("Novels", items: [BookCellPresenter(Book(title: "Dune"))])])
/// }
/// let presenter = BookListPresenter()
/// let page = [Book(title: "Dune")]
/// final class BookCell: HeadlessCell<BookCellPresenter> {}
/// -->
/// ```swift
/// @MainActor
/// final class BookListScreenTests: XCTestCase {
///     func testLoadedBooksShow() async {
///         let screen = HeadlessTableScreen(collection: presenter.books)
///         screen.register(BookCell.self)
///         presenter.loaded(page)          // from any thread
///         await screen.settle()           // the main queue delivers, the cells lay out
///         XCTAssertEqual(screen.tableView.violations, [])
///         XCTAssertEqual(screen.shownItems.map(\.book), presenter.books.map(\.book))
///     }
/// }
/// ```
///
/// See ``HeadlessListScreen`` for what settling waits for.
@MainActor
public final class HeadlessTableScreen<CellPresenter: Sendable>: HeadlessListScreen<TableViewSource<CellPresenter>> {
    /// The table view: one value per row, the row's presenter, or `nil` for the loading row.
    public let tableView: HeadlessTableView<CellPresenter?>

    /// Creates the screen; the source subscribes to `collection` at once.
    ///
    /// - Parameters:
    ///   - collection: The rows.
    ///   - selectItem: Executed with the presenter of each selected row.
    ///   - reloadThreshold: The largest change to animate.
    ///   - visibleRowCount: How many rows fit on screen.
    public init(
        collection: some LiveList<CellPresenter>, selectItem: CommandWithParameter<CellPresenter>? = nil,
        reloadThreshold: Int? = nil, visibleRowCount: Int = 10
    ) {
        let link = _SourceLink<CellPresenter>()
        let tableView = HeadlessTableView(reading: link.rows)
        let source = TableViewSource(
            view: tableView, collection: collection, selectItem: selectItem, reloadThreshold: reloadThreshold)
        self.tableView = tableView
        super.init(
            source: source, link: link, view: tableView, visibleRowCount: visibleRowCount,
            collectionVersion: { collection.version })
    }

    /// The presenters the table shows, without the loading row.
    public var shownItems: [CellPresenter] {
        tableView.rows.first?.compactMap { $0 } ?? []
    }
}

/// A sectioned table screen without UIKit: a ``HeadlessTableView`` that checks every batch and
/// keeps the selection, the `TableViewSourceWithSection` that drives it, and a
/// ``HeadlessCellHost`` that shows cells, section headers and footers, scrolls and taps.
///
/// <!-- swift
/// final class ShelfHeader: HeadlessCell<String> {
///     var title: String? { item }
/// }
/// -->
/// ```swift
/// @MainActor
/// final class ShelvesScreenTests: XCTestCase {
///     func testShelfHeadersShow() async {
///         let screen = HeadlessTableScreenWithSection(collection: presenter.shelves)
///         screen.register(BookCell.self)
///         screen.register(header: ShelfHeader.self)
///         await screen.settle()
///         XCTAssertEqual((screen.cells.header(inSection: 0) as? ShelfHeader)?.title, "Novels")
///     }
/// }
/// ```
///
/// See ``HeadlessListScreen`` for what settling waits for.
@MainActor
public final class HeadlessTableScreenWithSection<SectionPresenter: Sendable, CellPresenter: Sendable>:
    HeadlessListScreen<TableViewSourceWithSection<SectionPresenter, CellPresenter>>
{
    /// The table view: one value per row, the row's presenter, or `nil` for the loading row.
    public let tableView: HeadlessTableView<CellPresenter?>

    /// Creates the screen; the source subscribes to `collection` at once.
    ///
    /// - Parameters:
    ///   - collection: The sections and their rows.
    ///   - selectItem: Executed with the presenter of each selected row.
    ///   - reloadThreshold: The largest change to animate.
    ///   - visibleRowCount: How many rows fit on screen.
    public init(
        collection: SectionedCollection<SectionPresenter, CellPresenter>,
        selectItem: CommandWithParameter<CellPresenter>? = nil, reloadThreshold: Int? = nil,
        visibleRowCount: Int = 10
    ) {
        let link = _SourceLink<CellPresenter>()
        let tableView = HeadlessTableView(reading: link.rows)
        let source = TableViewSourceWithSection(
            view: tableView, collection: collection, selectItem: selectItem, reloadThreshold: reloadThreshold)
        self.tableView = tableView
        super.init(
            source: source, link: link, view: tableView, visibleRowCount: visibleRowCount,
            collectionVersion: { collection.version })
    }

    /// The presenters the table shows, section by section, without the loading row.
    public var shownItems: [[CellPresenter]] {
        tableView.rows.map { $0.compactMap { $0 } }
    }

    /// The section values (header presenters) of the sections the table shows.
    public var shownSections: [SectionPresenter] {
        source.renderedSections.map(\.section)
    }
}
