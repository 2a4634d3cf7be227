/// What a list source needs of a view that applies row updates one after another, as `NSTableView`
/// does between `beginUpdates()` and `endUpdates()`: one section of rows.
///
/// Unlike a ``ListView``, whose batch names rows before and after the whole batch, each call here
/// names rows as the calls before it in the same batch left them. ``SequentialListView`` turns a
/// list source's batches into such calls, through ``SequentialChangeset``.
///
/// `NSTableView` conforms through Ripple's thin AppKit glue, and RippleTesting's
/// `HeadlessSequentialTableView` conforms too, so the calls a source makes are tested on Linux.
@MainActor
public protocol SequentialRowView: AnyObject {
    /// The number of rows the view shows now (its cache, not the data source).
    var numberOfRows: Int { get }

    /// Whether the view is in a window. Updates off screen are wasted work, so a list source
    /// reloads instead.
    var isInWindow: Bool { get }

    /// Discards what the view shows and reads its data source again.
    func reloadData()

    /// Starts a batch of updates. Batches nest; the view shows the result at the outermost end.
    func beginUpdates()

    /// Ends a batch of updates started by ``beginUpdates()``.
    func endUpdates()

    /// Removes rows, all at once.
    ///
    /// - Parameter rows: Ascending and distinct, naming rows as they are now.
    func removeRows(_ rows: [Int])

    /// Inserts rows, which read their values from the data source.
    ///
    /// - Parameter rows: Ascending and distinct, naming the positions the new rows take, in the
    ///   rows as they are after the insertion.
    func insertRows(_ rows: [Int])

    /// Moves one row: removes it, then inserts it at `newRow`.
    ///
    /// - Parameters:
    ///   - row: The row, as the rows are now.
    ///   - newRow: Its position once moved, in the rows as they are after the move.
    func moveRow(at row: Int, to newRow: Int)

    /// Configures the views of rows on screen again in place, keeping each view (no reuse, no
    /// display callbacks); rows off screen are skipped. Called outside `beginUpdates()`/`endUpdates()`.
    ///
    /// - Parameter rows: Rows as they are now.
    func reconfigureRows(_ rows: [Int])

    /// Reloads rows from the data source; they keep their positions.
    ///
    /// - Parameter rows: Ascending and distinct, naming rows as they are now.
    func reloadRows(_ rows: [Int])

    /// Makes `source` answer the view's data-source and delegate questions; see
    /// ``ListView/adoptDataSource(_:)``, which ``SequentialListView`` forwards here.
    ///
    /// - Parameters:
    ///   - source: The list source that drives the view.
    ///   - rows: The list view the source drives this view through; the adapter keeps it alive,
    ///     since the source holds its view weakly.
    /// - Returns: An object the source must keep alive while it drives the view, or `nil`.
    func adoptDataSource<Source: ListDataSource>(_ source: Source, through rows: SequentialListView) -> AnyObject?
}

extension SequentialRowView {
    /// Does nothing: the view reads its data some other way. Returns `nil`.
    ///
    /// - Parameters:
    ///   - source: The list source that drives the view.
    ///   - rows: The list view the source drives this view through.
    /// - Returns: `nil`.
    public func adoptDataSource<Source: ListDataSource>(_ source: Source, through rows: SequentialListView)
        -> AnyObject?
    {
        nil
    }
}
