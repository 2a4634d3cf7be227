import Ripple

/// A cell without UIKit: it shows one item, usually a cell presenter, and is reused as rows scroll
/// in and out of a ``HeadlessCellHost``.
///
/// Subclass it to adopt your cell's view protocol, so that a cell presenter attaches it as its
/// view, exactly as with Ripple's UIKit cell bases:
///
/// <!-- swift
/// protocol BookCellView: Viewable {
///     func show(title: String)
/// }
/// final class BookCellPresenter: Presenter<any BookCellView> {}
/// let bookScreen = HeadlessTableScreen(collection: ObservableCollection<BookCellPresenter>())
/// -->
/// ```swift
/// final class BookCell: HeadlessCell<BookCellPresenter>, BookCellView {
///     var title = ""
///     func show(title: String) { self.title = title }
/// }
/// bookScreen.register(BookCell.self)
/// ```
@MainActor
open class HeadlessCell<Item>: HeadlessReusableView, PresentingCell {
    /// The item shown, or `nil` (a loading row, or a cell waiting in the reuse pool).
    public var item: Item?

    /// The item shown, untyped.
    public override var shownItem: Any? { item }

    /// Creates a cell; ``HeadlessCellHost`` calls this when its reuse pool has no cell to give.
    ///
    /// - Parameter reuseIdentifier: The identifier the cell is registered with.
    public required init(reuseIdentifier: String) {
        super.init(reuseIdentifier: reuseIdentifier)
    }

    /// Called before the cell is reused: gives up its item (see
    /// `PresentingCell.prepareItemForReuse()`). Call `super` when you override it.
    open override func prepareForReuse() {
        super.prepareForReuse()
        prepareItemForReuse()
    }
}

/// What every headless cell, header and footer is, whatever it shows: a view that a
/// ``HeadlessCellHost`` dequeues, reuses and carries along with its row.
///
/// Subclass ``HeadlessCell`` rather than this class: it shows an item. The host registers, keeps
/// and returns cells as this type, as UIKit registers any `UITableViewCell` class, so that a
/// heterogeneous list shows cells typed on different presenters.
@MainActor
open class HeadlessReusableView {
    /// The identifier the cell was registered and dequeued with.
    public let reuseIdentifier: String

    /// How many times the cell has been reused (taken from the reuse pool, after
    /// ``prepareForReuse()``).
    public private(set) var reuseCount = 0

    /// How many times a source configured the cell: once per dequeue, and once per reconfigure,
    /// which keeps the cell (`uikit-cell-lifecycle.md`, C4).
    public internal(set) var configureCount = 0

    /// Whether the row the cell shows is selected, as `isSelected`: a ``HeadlessCellHost`` given a
    /// view sets it from the view's selection when it lays out and when the user taps.
    public internal(set) var isSelected = false

    /// The item the cell shows, whatever its type, or `nil`.
    public var shownItem: Any? { nil }

    /// Creates a cell; ``HeadlessCellHost`` calls this when its reuse pool has no cell to give.
    ///
    /// - Parameter reuseIdentifier: The identifier the cell is registered with.
    public required init(reuseIdentifier: String) {
        self.reuseIdentifier = reuseIdentifier
    }

    /// Called before the cell is reused. Call `super` when you override it.
    open func prepareForReuse() {
        reuseCount += 1
        isSelected = false
    }
}

/// The cell RippleTesting's screens show for a pagination's loading row when no cell class is
/// registered for the source's `loadingCellIdentifier`: it shows no item.
///
/// A test can tell the loading row on screen by it:
///
/// <!-- swift
/// final class NoteCellPresenter: Sendable {}
/// let screen = HeadlessTableScreen(collection: ObservableCollection<NoteCellPresenter>())
/// -->
/// ```swift
/// XCTAssertTrue(screen.cells.visibleCells.last?.cell is HeadlessLoadingCell<NoteCellPresenter>)
/// ```
///
/// Register a cell of your own for the identifier to show something else.
@MainActor
public final class HeadlessLoadingCell<Item>: HeadlessCell<Item> {}
