#if canImport(UIKit) && !os(watchOS)
import RippleDiff
import UIKit

// Thin glue (see UIKit+ListSources.swift): `UITableView` as a `ListView`, and the adapter that
// answers its data-source and delegate calls.

/// `UITableView` is a ``ListView``: rows are items, and every change animates `.automatic`.
extension UITableView: ListView {
    /// The number of rows in a section; the ``ListView`` name of `numberOfRows(inSection:)`.
    public func numberOfItems(inSection section: Int) -> Int { numberOfRows(inSection: section) }
    /// Whether the table is in a window.
    public var isInWindow: Bool { window != nil }
    /// Inserts sections, in after coordinates.
    public func insertSections(_ sections: [Int]) { insertSections(IndexSet(sections), with: .automatic) }
    /// Deletes sections, in before coordinates.
    public func deleteSections(_ sections: [Int]) { deleteSections(IndexSet(sections), with: .automatic) }
    /// Reloads sections, in before coordinates.
    public func reloadSections(_ sections: [Int]) { reloadSections(IndexSet(sections), with: .automatic) }
    /// Inserts rows, in after coordinates.
    public func insertItems(at paths: [ElementPath]) { insertRows(at: paths.map(IndexPath.init), with: .automatic) }
    /// Deletes rows, in before coordinates.
    public func deleteItems(at paths: [ElementPath]) { deleteRows(at: paths.map(IndexPath.init), with: .automatic) }
    /// Reloads rows, in before coordinates.
    public func reloadItems(at paths: [ElementPath]) { reloadRows(at: paths.map(IndexPath.init), with: .automatic) }
    /// Moves a row from its before path to its after path.
    public func moveItem(at path: ElementPath, to newPath: ElementPath) {
        moveRow(at: IndexPath(path), to: IndexPath(newPath))
    }
    /// Configures rows again in place: `reconfigureRows(at:)` on iOS 15 and later; before, the
    /// visible cells are configured again directly (rows off screen have no cell).
    public func reconfigureItems(at paths: [ElementPath]) {
        if #available(iOS 15, tvOS 15, macCatalyst 15, *) {
            reconfigureRows(at: paths.map(IndexPath.init))
        } else {
            (dataSource as? ListViewAdapter)?.configureVisibleCells(at: paths) { cellForRow(at: IndexPath($0)) }
        }
    }
    /// Configures the headers and footers on screen of `sections` again in place, through the
    /// source (UIKit has no call for it).
    public func reconfigureSupplementaryViews(inSections sections: [Int]) {
        guard let adapter = dataSource as? ListViewAdapter else { return }
        for section in sections {
            adapter.configureVisibleSupplementaryView(headerView(forSection: section), inSection: section)
            adapter.configureVisibleSupplementaryView(footerView(forSection: section), inSection: section)
        }
    }
    /// Makes `source` the table's data source and delegate, through an adapter.
    ///
    /// - Parameter source: The list source that drives the table.
    /// - Returns: The adapter, which the source keeps alive.
    public func adoptDataSource<Source: ListDataSource>(_ source: Source) -> AnyObject? {
        let adapter = TableViewAdapter(source: source, appDelegate: source.delegate)
        dataSource = adapter
        delegate = adapter
        return adapter
    }
}

/// Answers a table view's data-source and delegate calls for a Ripple list source, and forwards the
/// rest to the app's delegate (see `ListSourceBase.delegate` for the rule).
final class TableViewAdapter: ListViewAdapter {}

@MainActor
extension TableViewAdapter: UITableViewDataSource, UITableViewDelegate {
    private var app: UITableViewDelegate? { appDelegate as? UITableViewDelegate }

    func numberOfSections(in tableView: UITableView) -> Int { source?.numberOfSections ?? 0 }

    func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {
        source?.numberOfItems(inSection: section) ?? 0
    }

    func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        guard let source else { return UITableViewCell() }
        return Self.cell(of: source, in: tableView, at: indexPath)
    }

    private static func cell<Source: ListDataSource>(
        of source: Source, in tableView: UITableView, at indexPath: IndexPath
    ) -> UITableViewCell {
        let path = ElementPath(indexPath)
        let cell = tableView.dequeueReusableCell(withIdentifier: source.cellIdentifier(at: path), for: indexPath)
        source.configure(cell, at: path)
        return cell
    }

    func tableView(_ tableView: UITableView, canMoveRowAt indexPath: IndexPath) -> Bool {
        if let answer = (appDelegate as? UITableViewDataSource)?.tableView?(tableView, canMoveRowAt: indexPath) {
            return answer
        }
        return source?.canMoveItem(at: ElementPath(indexPath)) ?? false
    }

    func tableView(_ tableView: UITableView, moveRowAt sourceIndexPath: IndexPath, to destinationIndexPath: IndexPath) {
        source?.moveItem(from: ElementPath(sourceIndexPath), to: ElementPath(destinationIndexPath))
        (appDelegate as? UITableViewDataSource)?.tableView?(
            tableView, moveRowAt: sourceIndexPath, to: destinationIndexPath)
    }

    func tableView(
        _ tableView: UITableView, targetIndexPathForMoveFromRowAt sourceIndexPath: IndexPath,
        toProposedIndexPath proposedDestinationIndexPath: IndexPath
    ) -> IndexPath {
        if let answer = app?.tableView?(
            tableView, targetIndexPathForMoveFromRowAt: sourceIndexPath,
            toProposedIndexPath: proposedDestinationIndexPath)
        {
            return answer
        }
        guard let source else { return proposedDestinationIndexPath }
        return IndexPath(
            source.targetPath(
                forMovingItemFrom: ElementPath(sourceIndexPath), proposed: ElementPath(proposedDestinationIndexPath)))
    }

    func tableView(_ tableView: UITableView, heightForRowAt indexPath: IndexPath) -> CGFloat {
        if let height = app?.tableView?(tableView, heightForRowAt: indexPath) { return height }
        let size = source?.cellSize(at: ElementPath(indexPath), in: LayoutSize(tableView.bounds.size))
        return size.map { CGFloat($0.height) } ?? tableView.rowHeight
    }

    #if !os(tvOS)
    func tableView(
        _ tableView: UITableView, leadingSwipeActionsConfigurationForRowAt indexPath: IndexPath
    ) -> UISwipeActionsConfiguration? {
        if appImplements(#selector(UITableViewDelegate.tableView(_:leadingSwipeActionsConfigurationForRowAt:))) {
            return app?.tableView?(tableView, leadingSwipeActionsConfigurationForRowAt: indexPath)
        }
        return UISwipeActionsConfiguration.ripple(source?.swipeActions(.leading, at: ElementPath(indexPath)) ?? [])
    }

    func tableView(
        _ tableView: UITableView, trailingSwipeActionsConfigurationForRowAt indexPath: IndexPath
    ) -> UISwipeActionsConfiguration? {
        if appImplements(#selector(UITableViewDelegate.tableView(_:trailingSwipeActionsConfigurationForRowAt:))) {
            return app?.tableView?(tableView, trailingSwipeActionsConfigurationForRowAt: indexPath)
        }
        return UISwipeActionsConfiguration.ripple(source?.swipeActions(.trailing, at: ElementPath(indexPath)) ?? [])
    }
    #endif

    func tableView(_ tableView: UITableView, viewForHeaderInSection section: Int) -> UIView? {
        if appImplements(#selector(UITableViewDelegate.tableView(_:viewForHeaderInSection:))) {
            return app?.tableView?(tableView, viewForHeaderInSection: section)
        }
        return supplementaryView(.header, in: tableView, section: section)
    }

    func tableView(_ tableView: UITableView, viewForFooterInSection section: Int) -> UIView? {
        if appImplements(#selector(UITableViewDelegate.tableView(_:viewForFooterInSection:))) {
            return app?.tableView?(tableView, viewForFooterInSection: section)
        }
        return supplementaryView(.footer, in: tableView, section: section)
    }

    private func supplementaryView(_ kind: SupplementaryKind, in tableView: UITableView, section: Int) -> UIView? {
        guard let source else { return nil }
        return Self.supplementaryView(kind, of: source, in: tableView, section: section)
    }

    private static func supplementaryView<Source: ListDataSource>(
        _ kind: SupplementaryKind, of source: Source, in tableView: UITableView, section: Int
    ) -> UIView? {
        guard let identifier = source.supplementaryIdentifier(kind, inSection: section),
            let view = tableView.dequeueReusableHeaderFooterView(withIdentifier: identifier)
        else { return nil }
        source.configureSupplementary(view, inSection: section)
        return view
    }

    func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) {
        source?.handle(.selected, at: ElementPath(indexPath))
        app?.tableView?(tableView, didSelectRowAt: indexPath)
    }

    func tableView(_ tableView: UITableView, didDeselectRowAt indexPath: IndexPath) {
        source?.handle(.deselected, at: ElementPath(indexPath))
        app?.tableView?(tableView, didDeselectRowAt: indexPath)
    }

    func tableView(_ tableView: UITableView, didHighlightRowAt indexPath: IndexPath) {
        source?.handle(.highlighted, at: ElementPath(indexPath))
        app?.tableView?(tableView, didHighlightRowAt: indexPath)
    }

    func tableView(_ tableView: UITableView, didUnhighlightRowAt indexPath: IndexPath) {
        source?.handle(.unhighlighted, at: ElementPath(indexPath))
        app?.tableView?(tableView, didUnhighlightRowAt: indexPath)
    }

    func tableView(_ tableView: UITableView, willDisplay cell: UITableViewCell, forRowAt indexPath: IndexPath) {
        source?.handle(.willDisplay, at: ElementPath(indexPath))
        app?.tableView?(tableView, willDisplay: cell, forRowAt: indexPath)
    }

    func tableView(_ tableView: UITableView, didEndDisplaying cell: UITableViewCell, forRowAt indexPath: IndexPath) {
        source?.handle(.didEndDisplaying, at: ElementPath(indexPath))
        app?.tableView?(tableView, didEndDisplaying: cell, forRowAt: indexPath)
    }
}
#endif
