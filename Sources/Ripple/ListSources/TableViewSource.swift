/// A table view's source over a flat ``ObservableCollection``: it animates every change of the
/// collection as UIKit batch updates, and answers the table's data-source and delegate calls.
///
/// <!-- swift
/// import UIKit
///
/// protocol BookCellView: Viewable {}
/// final class BookCellPresenter: Presenter<any BookCellView> {}
/// final class BookListPresenter: Presenter<any Viewable> {
///     let books = ObservableCollection<BookCellPresenter>()
/// }
/// -->
/// ```swift uikit
/// final class BookListViewController: ViewController<BookListPresenter> {
///     private let tableView = UITableView()
///     private var source: TableViewSource<BookCellPresenter>!
///
///     override func viewDidLoad() {
///         super.viewDidLoad()
///         source = TableViewSource(view: tableView, collection: presenter.books)
///     }
/// }
/// ```
///
/// See ``ListSource`` for how it renders, and when it reloads instead.
@MainActor
public final class TableViewSource<CellPresenter: Sendable>: ListSource<CellPresenter> {
    /// Creates a source that renders `collection` into `view`, and makes itself the view's data
    /// source and delegate (``ListView/adoptDataSource(_:)``).
    ///
    /// - Parameters:
    ///   - view: The table view (a `UITableView`, or RippleTesting's `HeadlessTableView`), held
    ///     weakly.
    ///   - collection: The rows: an ``ObservableCollection``, or a list derived from one, such as a
    ///     ``FilteredList`` (whose rows the user cannot reorder: only its source changes it).
    ///   - selectItem: Executed with the presenter of each selected row.
    ///   - reloadThreshold: The largest change to animate; larger ones reload. `nil` animates all.
    public init(
        view: any ListView, collection: some LiveList<CellPresenter>,
        selectItem: CommandWithParameter<CellPresenter>? = nil, reloadThreshold: Int? = nil
    ) {
        super.init(
            view: view, collection: collection, selectItem: selectItem, reloadThreshold: reloadThreshold,
            name: "TableViewSource<\(CellPresenter.self)>")
    }
}
