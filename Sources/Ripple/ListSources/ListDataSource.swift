import RippleDiff

/// What a list view asks of its source: counts, the cell for each row, headers and footers, the
/// user's events, and what the delegate needs (cell sizes, swipe actions, moves, and the app's own
/// delegate to forward the rest to).
///
/// ``ListSource`` and ``ListSourceWithSection`` adopt it. Ripple's UIKit and AppKit adapters
/// answer the views' data-source and delegate calls through it, and RippleTesting's headless cell
/// host drives it as a scrolling view would.
@MainActor
public protocol ListDataSource: AnyObject {
    /// The type of the items, usually cell presenters.
    associatedtype Item

    /// The type of the section values that headers and footers show, usually section presenters;
    /// `Never` for a list without sections.
    associatedtype Section = Never

    /// The app's own delegate, to which the platform adapter forwards what the source does not
    /// answer itself (``ListSourceBase/delegate``).
    var delegate: AnyObject? { get }

    /// The number of sections to show.
    var numberOfSections: Int { get }

    /// The number of rows to show in a section, loading row included.
    ///
    /// - Parameter section: A section.
    func numberOfItems(inSection section: Int) -> Int

    /// The reuse identifier of the cell for the row at `path`.
    ///
    /// - Parameter path: A row on screen.
    func cellIdentifier(at path: ElementPath) -> String

    /// Hands the row's item to a dequeued cell (``PresentingCell/show(_:)``), or none for a
    /// loading row.
    ///
    /// The cell is any ``PresentingCell`` whose `Item` the row's item is, or casts to: a cell
    /// typed on a concrete presenter shows the rows of that presenter in a heterogeneous list. A
    /// cell that cannot show the row's item is reported through ``Diagnostics``
    /// (``Diagnostic/Kind/cellTypeMismatch``), naming the row, the item's type and the cell's
    /// type: never a silent blank row.
    ///
    /// - Parameters:
    ///   - cell: A cell dequeued with ``cellIdentifier(at:)``.
    ///   - path: The row it shows.
    func configure(_ cell: AnyObject, at path: ElementPath)

    /// The reuse identifier of a section's header or footer view, or `nil` when the section has
    /// none of that kind.
    ///
    /// - Parameters:
    ///   - kind: A header or a footer.
    ///   - section: A section on screen.
    func supplementaryIdentifier(_ kind: SupplementaryKind, inSection section: Int) -> String?

    /// Hands a section's value to a dequeued header or footer view: any ``PresentingCell`` whose
    /// `Item` the section's value is, or casts to.
    ///
    /// - Parameters:
    ///   - view: A view dequeued with ``supplementaryIdentifier(_:inSection:)``.
    ///   - section: The section it shows.
    func configureSupplementary(_ view: AnyObject, inSection section: Int)

    /// The size of the cell at `path` from its presenter, or `nil` for the view's own size.
    ///
    /// - Parameters:
    ///   - path: A row on screen.
    ///   - bounds: The size of the list view's bounds.
    func cellSize(at path: ElementPath, in bounds: LayoutSize) -> LayoutSize?

    /// The swipe actions of the cell at `path`, from its presenter; none shows the view's default.
    ///
    /// - Parameters:
    ///   - edge: The edge the swipe starts from.
    ///   - path: A row on screen.
    func swipeActions(_ edge: SwipeEdge, at path: ElementPath) -> [SwipeAction]

    /// Whether the user may drag the item at `path` to reorder it.
    ///
    /// - Parameter path: A row on screen.
    func canMoveItem(at path: ElementPath) -> Bool

    /// Where an item dragged from `source` lands when dropped at `proposed`.
    ///
    /// - Parameters:
    ///   - source: The dragged item's path.
    ///   - proposed: Where the view proposes to drop it.
    func targetPath(forMovingItemFrom source: ElementPath, proposed: ElementPath) -> ElementPath

    /// Takes the user's move of an item, which the view shows already.
    ///
    /// - Parameters:
    ///   - source: The item's path before the move.
    ///   - destination: Its path after the move.
    func moveItem(from source: ElementPath, to destination: ElementPath)

    /// Forwards an event of the row at `path`.
    ///
    /// - Parameters:
    ///   - event: What happened.
    ///   - path: The row, in the coordinates of what the view shows.
    func handle(_ event: ListItemEvent, at path: ElementPath)
}

extension ListDataSource {
    /// `nil`: a list without sections has no headers or footers.
    ///
    /// - Parameters:
    ///   - kind: A header or a footer.
    ///   - section: A section on screen.
    public func supplementaryIdentifier(_ kind: SupplementaryKind, inSection section: Int) -> String? { nil }

    /// Does nothing: a list without sections has no headers or footers.
    ///
    /// - Parameters:
    ///   - view: A header or footer view.
    ///   - section: The section it shows.
    public func configureSupplementary(_ view: AnyObject, inSection section: Int) {}
}
