import Ripple

/// A headless sequential table view is a ``SequentialRowView``, so Ripple's list sources drive it
/// exactly as they drive an `NSTableView`: every call they make is checked as it is made, and every
/// batch against the data source when it ends.
///
/// The view's own methods and properties, ``HeadlessSequentialTableView/numberOfRows``,
/// ``HeadlessSequentialTableView/isInWindow``, ``HeadlessSequentialTableView/reloadData()``,
/// ``HeadlessSequentialTableView/beginUpdates()``, ``HeadlessSequentialTableView/endUpdates()``,
/// ``HeadlessSequentialTableView/removeRows(_:)``, ``HeadlessSequentialTableView/insertRows(_:)``,
/// ``HeadlessSequentialTableView/moveRow(at:to:)`` and
/// ``HeadlessSequentialTableView/reloadRows(_:)``, bear the protocol's names; adoption is recorded
/// in ``HeadlessSequentialTableView/adoptedSource``.
extension HeadlessSequentialTableView: SequentialRowView {
    /// Records that `source` adopted the view (``adoptedSource``, ``adoptionCount``); the view
    /// keeps reading its rows from its own data source.
    ///
    /// - Parameters:
    ///   - source: The list source that drives the view.
    ///   - rows: The list view the source drives this view through.
    /// - Returns: `nil`: there is no adapter to keep alive.
    public func adoptDataSource<Source: ListDataSource>(_ source: Source, through rows: SequentialListView)
        -> AnyObject?
    {
        adoptedSource = source
        adoptionCount += 1
        return nil
    }
}
