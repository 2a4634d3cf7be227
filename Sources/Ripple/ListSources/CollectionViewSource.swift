/// A collection view's source over a flat ``ObservableCollection``: it animates every change of the
/// collection as UIKit batch updates, and answers the collection view's data-source and delegate calls.
///
/// <!-- swift
/// import UIKit
///
/// protocol BookCellView: Viewable {}
/// final class BookCellPresenter: Presenter<any BookCellView> {}
/// final class ShelfPresenter: Presenter<any Viewable> {
///     let books = ObservableCollection<BookCellPresenter>()
/// }
/// -->
/// ```swift uikit
/// final class ShelfViewController: ViewController<ShelfPresenter> {
///     private let collectionView = UICollectionView(frame: .zero, collectionViewLayout: UICollectionViewFlowLayout())
///     private var source: CollectionViewSource<BookCellPresenter>!
///
///     override func viewDidLoad() {
///         super.viewDidLoad()
///         source = CollectionViewSource(view: collectionView, collection: presenter.books)
///     }
/// }
/// ```
///
/// See ``ListSource`` for how it renders, and when it reloads instead.
@MainActor
public final class CollectionViewSource<CellPresenter: Sendable>: ListSource<CellPresenter> {
    /// Creates a source that renders `collection` into `view`, and makes itself the view's data
    /// source and delegate (``ListView/adoptDataSource(_:)``).
    ///
    /// - Parameters:
    ///   - view: The collection view (a `UICollectionView`, or RippleTesting's `HeadlessCollectionView`), held
    ///     weakly.
    ///   - collection: The items: an ``ObservableCollection``, or a list derived from one, such as a
    ///     ``FilteredList`` (whose items the user cannot reorder: only its source changes it).
    ///   - selectItem: Executed with the presenter of each selected item.
    ///   - reloadThreshold: The largest change to animate; larger ones reload. `nil` animates all.
    public init(
        view: any ListView, collection: some LiveList<CellPresenter>,
        selectItem: CommandWithParameter<CellPresenter>? = nil, reloadThreshold: Int? = nil
    ) {
        super.init(
            view: view, collection: collection, selectItem: selectItem, reloadThreshold: reloadThreshold,
            name: "CollectionViewSource<\(CellPresenter.self)>")
    }
}
