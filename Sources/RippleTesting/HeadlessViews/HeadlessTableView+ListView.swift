import Ripple
import RippleDiff

/// A headless table view is a `ListView`, so Ripple's list sources drive it exactly as they
/// drive a `UITableView`: every batch they make is validated against UIKit's rules.
extension HeadlessTableView: ListView {
    /// The number of rows on screen in a section; the `ListView` name of
    /// ``numberOfRows(inSection:)``.
    ///
    /// - Parameter section: A section on screen.
    public func numberOfItems(inSection section: Int) -> Int { numberOfRows(inSection: section) }

    /// Inserts rows; the `ListView` name of ``insertRows(at:)``.
    ///
    /// - Parameter paths: The new rows' paths once the batch is applied.
    public func insertItems(at paths: [ElementPath]) { insertRows(at: paths) }

    /// Deletes rows; the `ListView` name of ``deleteRows(at:)``.
    ///
    /// - Parameter paths: The rows' paths before the batch.
    public func deleteItems(at paths: [ElementPath]) { deleteRows(at: paths) }

    /// Reloads rows; the `ListView` name of ``reloadRows(at:)``.
    ///
    /// - Parameter paths: The rows' paths before the batch.
    public func reloadItems(at paths: [ElementPath]) { reloadRows(at: paths) }

    /// Moves a row; the `ListView` name of ``moveRow(at:to:)``.
    ///
    /// - Parameters:
    ///   - path: Its path before the batch.
    ///   - newPath: Its path after the batch.
    public func moveItem(at path: ElementPath, to newPath: ElementPath) { moveRow(at: path, to: newPath) }

    /// Reconfigures rows in place; the `ListView` name of ``reconfigureRows(at:)``.
    ///
    /// - Parameter paths: The rows' paths.
    public func reconfigureItems(at paths: [ElementPath]) { reconfigureRows(at: paths) }

    /// Records that `source` adopted the view (``adoptedSource``, ``adoptionCount``); the view
    /// keeps reading its sections from its own data source.
    ///
    /// - Parameter source: The list source that drives the view.
    /// - Returns: `nil`: there is no adapter to keep alive.
    public func adoptDataSource<Source: ListDataSource>(_ source: Source) -> AnyObject? {
        engine.adopt(source)
        return nil
    }
}
