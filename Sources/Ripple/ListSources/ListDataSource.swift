import RippleDiff

/// What a list view asks of its source: counts, the cell for each row and the user's events.
///
/// ``ListSource`` and ``ListSourceWithSection`` adopt it. Ripple's UIKit adapters answer
/// `UITableViewDataSource` and `UICollectionViewDataSource` through it, and RippleTesting's
/// headless cell host drives it as a scrolling view would.
@MainActor
public protocol ListDataSource: AnyObject {
    /// The type of the items, usually cell presenters.
    associatedtype Item

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
    /// - Parameters:
    ///   - cell: A cell dequeued with ``cellIdentifier(at:)``.
    ///   - path: The row it shows.
    func configure<Cell: PresentingCell>(_ cell: Cell, at path: ElementPath) where Cell.Item == Item

    /// Forwards an event of the row at `path`.
    ///
    /// - Parameters:
    ///   - event: What happened.
    ///   - path: The row, in the coordinates of what the view shows.
    func handle(_ event: ListItemEvent, at path: ElementPath)
}
