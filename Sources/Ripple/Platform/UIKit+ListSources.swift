#if canImport(UIKit) && !os(watchOS)
import RippleDiff
import UIKit

// Thin glue: UIKit's views adopt `ListView`, and one adapter per view kind answers UIKit's
// data-source and delegate calls through `ListDataSource`, forwarding the rest to the app's
// delegate (`ListViewAdapter`). Every decision (staging, fallbacks, pagination, cell binding,
// selection) lives in platform-independent code tested on Linux; the adapters' only branches are
// the forwarding rule itself: the app's answer when it gives one, Ripple's otherwise.

extension IndexPath {
    /// The UIKit index path of a Ripple path.
    init(_ path: ElementPath) { self.init(item: path.item, section: path.section) }
}

extension ElementPath {
    /// The Ripple path of a UIKit index path.
    init(_ indexPath: IndexPath) { self.init(item: indexPath.item, section: indexPath.section) }
}

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

/// `UICollectionView` is a ``ListView``.
extension UICollectionView: ListView {
    /// Whether the collection view is in a window.
    public var isInWindow: Bool { window != nil }
    /// Inserts sections, in after coordinates.
    public func insertSections(_ sections: [Int]) { insertSections(IndexSet(sections)) }
    /// Deletes sections, in before coordinates.
    public func deleteSections(_ sections: [Int]) { deleteSections(IndexSet(sections)) }
    /// Reloads sections, in before coordinates.
    public func reloadSections(_ sections: [Int]) { reloadSections(IndexSet(sections)) }
    /// Inserts items, in after coordinates.
    public func insertItems(at paths: [ElementPath]) { insertItems(at: paths.map(IndexPath.init)) }
    /// Deletes items, in before coordinates.
    public func deleteItems(at paths: [ElementPath]) { deleteItems(at: paths.map(IndexPath.init)) }
    /// Reloads items, in before coordinates.
    public func reloadItems(at paths: [ElementPath]) { reloadItems(at: paths.map(IndexPath.init)) }
    /// Moves an item from its before path to its after path.
    public func moveItem(at path: ElementPath, to newPath: ElementPath) {
        moveItem(at: IndexPath(path), to: IndexPath(newPath))
    }
    /// Configures items again in place: `reconfigureItems(at:)` on iOS 15 and later; before, the
    /// visible cells are configured again directly (items off screen have no cell).
    public func reconfigureItems(at paths: [ElementPath]) {
        if #available(iOS 15, tvOS 15, macCatalyst 15, *) {
            reconfigureItems(at: paths.map(IndexPath.init))
        } else {
            (dataSource as? ListViewAdapter)?.configureVisibleCells(at: paths) { cellForItem(at: IndexPath($0)) }
        }
    }
    /// Configures the headers and footers on screen of `sections` again in place, through the
    /// source (UIKit has no call for it).
    public func reconfigureSupplementaryViews(inSections sections: [Int]) {
        guard let adapter = dataSource as? ListViewAdapter else { return }
        let wanted = Set(sections)
        for kind in [UICollectionView.elementKindSectionHeader, UICollectionView.elementKindSectionFooter] {
            for path in indexPathsForVisibleSupplementaryElements(ofKind: kind) where wanted.contains(path.section) {
                adapter.configureVisibleSupplementaryView(
                    supplementaryView(forElementKind: kind, at: path), inSection: path.section)
            }
        }
    }
    /// Makes `source` the collection view's data source and delegate, through an adapter.
    ///
    /// - Parameter source: The list source that drives the collection view.
    /// - Returns: The adapter, which the source keeps alive.
    public func adoptDataSource<Source: ListDataSource>(_ source: Source) -> AnyObject? {
        let adapter = CollectionViewAdapter(source: source, appDelegate: source.delegate)
        dataSource = adapter
        delegate = adapter
        return adapter
    }
}

#if !os(tvOS)
extension UISwipeActionsConfiguration {
    /// UIKit's configuration of Ripple's swipe actions, or `nil` for none (the view's default).
    @MainActor
    static func ripple(_ actions: [SwipeAction]) -> UISwipeActionsConfiguration? {
        guard !actions.isEmpty else { return nil }
        return UISwipeActionsConfiguration(
            actions: actions.map { action in
                UIContextualAction(style: action.style == .destructive ? .destructive : .normal, title: action.title) {
                    _, _, completion in completion(action.perform())
                }
            })
    }
}

extension ListSourceBase {
    /// The swipe actions of the row at `indexPath` (``swipeActions(_:at:)``) as UIKit's
    /// configuration, or `nil` when it has none. The table adapter answers with it; hand it to a
    /// collection view's list layout:
    /// `listConfiguration.trailingSwipeActionsConfigurationProvider = { source.swipeActionsConfiguration(.trailing, at: $0) }`.
    ///
    /// - Parameters:
    ///   - edge: The edge the swipe starts from.
    ///   - indexPath: A row on screen.
    /// - Returns: The configuration, or `nil`.
    public func swipeActionsConfiguration(_ edge: SwipeEdge, at indexPath: IndexPath) -> UISwipeActionsConfiguration? {
        UISwipeActionsConfiguration.ripple(swipeActions(edge, at: ElementPath(indexPath)))
    }
}
#endif

extension ListSourceBase {
    /// Registers `cellClass` with the table view this source drives, and shows in it the rows
    /// whose item is of type `itemType` and meets `condition`: the one way to map rows to cells
    /// (GenericCellPresenters' `registerCell(on:)`).
    ///
    /// The cell's item type and `itemType` are the same type, so a cell that cannot show the
    /// items does not compile. In a heterogeneous list (items of type `any Row`), a cell typed on
    /// one presenter shows that presenter's rows; `condition` tells apart rows of one type that
    /// need different cells:
    ///
    /// <!-- swift
    /// import UIKit
    ///
    /// protocol CountryCellView: Viewable {}
    /// final class CountryCellPresenter: Presenter<any CountryCellView> {
    ///     var isFeatured: Bool { false }
    /// }
    /// let source = TableViewSource(view: UITableView(), collection: ObservableCollection<CountryCellPresenter>())
    /// -->
    /// ```swift uikit
    /// final class CountryCell: TableViewCell<CountryCellPresenter> {}
    /// final class FeaturedCountryCell: TableViewCell<CountryCellPresenter> {}
    /// source.register(CountryCell.self)
    /// source.register(FeaturedCountryCell.self, where: { $0.isFeatured })
    /// ```
    ///
    /// - Parameters:
    ///   - cellClass: The cell class; its reuse identifier is its type name.
    ///   - itemType: The type of the items it shows: the cell's own item type by default, or a
    ///     subclass of it. An item's exact dynamic type is looked up, then the source's `Item`.
    ///   - condition: Which of those items it shows; `nil` (the default) for all. Conditional
    ///     registrations are tried in the order made, before the one without a condition.
    public func register<Cell: UITableViewCell & PresentingCell>(
        _ cellClass: Cell.Type, for itemType: Cell.Item.Type = Cell.Item.self,
        where condition: ((Cell.Item) -> Bool)? = nil
    ) {
        let identifier = String(reflecting: cellClass)
        route(itemsOf: itemType, where: condition.map(CellRoute.erase), toCellsWith: identifier)
        (listView as? UITableView)?.register(cellClass, forCellReuseIdentifier: identifier)
    }

    /// Registers `cellClass` with the collection view this source drives, and shows in it the
    /// rows whose item is of type `itemType` and meets `condition`, as the table form does.
    ///
    /// - Parameters:
    ///   - cellClass: The cell class; its reuse identifier is its type name.
    ///   - itemType: The type of the items it shows: the cell's own item type by default.
    ///   - condition: Which of those items it shows; `nil` (the default) for all.
    public func register<Cell: UICollectionViewCell & PresentingCell>(
        _ cellClass: Cell.Type, for itemType: Cell.Item.Type = Cell.Item.self,
        where condition: ((Cell.Item) -> Bool)? = nil
    ) {
        let identifier = String(reflecting: cellClass)
        route(itemsOf: itemType, where: condition.map(CellRoute.erase), toCellsWith: identifier)
        (listView as? UICollectionView)?.register(cellClass, forCellWithReuseIdentifier: identifier)
    }
}

/// A table view cell that shows one item, usually a cell presenter: subclass it and adopt your
/// cell's view protocol, and the source attaches the cell to its presenter on dequeue.
open class TableViewCell<CellPresenter>: UITableViewCell, PresentingCell {
    /// The item shown.
    public var item: CellPresenter?

    /// Prepares the view for reuse, and gives up its item (``PresentingCell/prepareItemForReuse()``).
    /// Call `super` when you override it.
    open override func prepareForReuse() {
        super.prepareForReuse()
        prepareItemForReuse()
    }
}

/// A collection view cell that shows one item, usually a cell presenter.
open class CollectionViewCell<CellPresenter>: UICollectionViewCell, PresentingCell {
    /// The item shown.
    public var item: CellPresenter?

    /// Prepares the view for reuse, and gives up its item (``PresentingCell/prepareItemForReuse()``).
    /// Call `super` when you override it.
    open override func prepareForReuse() {
        super.prepareForReuse()
        prepareItemForReuse()
    }
}

/// A table header or footer view that shows a section's value, usually its presenter.
open class TableViewHeaderFooterView<SectionPresenter>: UITableViewHeaderFooterView, PresentingCell {
    /// The section value shown.
    public var item: SectionPresenter?

    /// Prepares the view for reuse, and gives up its item (``PresentingCell/prepareItemForReuse()``).
    /// Call `super` when you override it.
    open override func prepareForReuse() {
        super.prepareForReuse()
        prepareItemForReuse()
    }
}

/// A collection view header or footer view that shows a section's value.
open class CollectionReusableView<SectionPresenter>: UICollectionReusableView, PresentingCell {
    /// The section value shown.
    public var item: SectionPresenter?

    /// Prepares the view for reuse, and gives up its item (``PresentingCell/prepareItemForReuse()``).
    /// Call `super` when you override it.
    open override func prepareForReuse() {
        super.prepareForReuse()
        prepareItemForReuse()
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

/// Answers a collection view's data-source and delegate calls for a Ripple list source, and
/// forwards the rest to the app's delegate (see `ListSourceBase.delegate` for the rule).
final class CollectionViewAdapter: ListViewAdapter {}

@MainActor
extension CollectionViewAdapter: UICollectionViewDataSource, UICollectionViewDelegateFlowLayout {
    private var app: UICollectionViewDelegateFlowLayout? { appDelegate as? UICollectionViewDelegateFlowLayout }

    func numberOfSections(in collectionView: UICollectionView) -> Int { source?.numberOfSections ?? 0 }

    func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int {
        source?.numberOfItems(inSection: section) ?? 0
    }

    func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell
    {
        guard let source else { return UICollectionViewCell() }
        return Self.cell(of: source, in: collectionView, at: indexPath)
    }

    private static func cell<Source: ListDataSource>(
        of source: Source, in collectionView: UICollectionView, at indexPath: IndexPath
    ) -> UICollectionViewCell {
        let path = ElementPath(indexPath)
        let cell = collectionView.dequeueReusableCell(
            withReuseIdentifier: source.cellIdentifier(at: path), for: indexPath)
        source.configure(cell, at: path)
        return cell
    }

    func collectionView(
        _ collectionView: UICollectionView, viewForSupplementaryElementOfKind kind: String, at indexPath: IndexPath
    ) -> UICollectionReusableView {
        if let view = (appDelegate as? UICollectionViewDataSource)?.collectionView?(
            collectionView, viewForSupplementaryElementOfKind: kind, at: indexPath)
        {
            return view
        }
        guard let source else { return UICollectionReusableView() }
        return Self.supplementaryView(kind, of: source, in: collectionView, at: indexPath)
    }

    private static func supplementaryView<Source: ListDataSource>(
        _ kind: String, of source: Source, in collectionView: UICollectionView, at indexPath: IndexPath
    ) -> UICollectionReusableView {
        let supplementaryKind: SupplementaryKind = kind == UICollectionView.elementKindSectionFooter ? .footer : .header
        guard let identifier = source.supplementaryIdentifier(supplementaryKind, inSection: indexPath.section)
        else { return UICollectionReusableView() }
        let view = collectionView.dequeueReusableSupplementaryView(
            ofKind: kind, withReuseIdentifier: identifier, for: indexPath)
        source.configureSupplementary(view, inSection: indexPath.section)
        return view
    }

    func collectionView(_ collectionView: UICollectionView, canMoveItemAt indexPath: IndexPath) -> Bool {
        if let answer = (appDelegate as? UICollectionViewDataSource)?.collectionView?(
            collectionView, canMoveItemAt: indexPath)
        {
            return answer
        }
        return source?.canMoveItem(at: ElementPath(indexPath)) ?? false
    }

    func collectionView(
        _ collectionView: UICollectionView, moveItemAt sourceIndexPath: IndexPath, to destinationIndexPath: IndexPath
    ) {
        source?.moveItem(from: ElementPath(sourceIndexPath), to: ElementPath(destinationIndexPath))
        (appDelegate as? UICollectionViewDataSource)?.collectionView?(
            collectionView, moveItemAt: sourceIndexPath, to: destinationIndexPath)
    }

    @available(iOS 15, tvOS 15, macCatalyst 15, *)
    func collectionView(
        _ collectionView: UICollectionView,
        targetIndexPathForMoveOfItemFromOriginalIndexPath originalIndexPath: IndexPath,
        atCurrentIndexPath currentIndexPath: IndexPath, toProposedIndexPath proposedIndexPath: IndexPath
    ) -> IndexPath {
        if let answer = app?.collectionView?(
            collectionView, targetIndexPathForMoveOfItemFromOriginalIndexPath: originalIndexPath,
            atCurrentIndexPath: currentIndexPath, toProposedIndexPath: proposedIndexPath)
        {
            return answer
        }
        guard let source else { return proposedIndexPath }
        return IndexPath(
            source.targetPath(
                forMovingItemFrom: ElementPath(originalIndexPath), proposed: ElementPath(proposedIndexPath)))
    }

    func collectionView(
        _ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
        sizeForItemAt indexPath: IndexPath
    ) -> CGSize {
        if let size = app?.collectionView?(collectionView, layout: collectionViewLayout, sizeForItemAt: indexPath) {
            return size
        }
        if let size = source?.cellSize(at: ElementPath(indexPath), in: LayoutSize(collectionView.bounds.size)) {
            return CGSize(size)
        }
        return (collectionViewLayout as? UICollectionViewFlowLayout)?.itemSize ?? CGSize(width: 50, height: 50)
    }

    func collectionView(_ collectionView: UICollectionView, didSelectItemAt indexPath: IndexPath) {
        source?.handle(.selected, at: ElementPath(indexPath))
        app?.collectionView?(collectionView, didSelectItemAt: indexPath)
    }

    func collectionView(_ collectionView: UICollectionView, didDeselectItemAt indexPath: IndexPath) {
        source?.handle(.deselected, at: ElementPath(indexPath))
        app?.collectionView?(collectionView, didDeselectItemAt: indexPath)
    }

    func collectionView(_ collectionView: UICollectionView, didHighlightItemAt indexPath: IndexPath) {
        source?.handle(.highlighted, at: ElementPath(indexPath))
        app?.collectionView?(collectionView, didHighlightItemAt: indexPath)
    }

    func collectionView(_ collectionView: UICollectionView, didUnhighlightItemAt indexPath: IndexPath) {
        source?.handle(.unhighlighted, at: ElementPath(indexPath))
        app?.collectionView?(collectionView, didUnhighlightItemAt: indexPath)
    }

    func collectionView(
        _ collectionView: UICollectionView, willDisplay cell: UICollectionViewCell, forItemAt indexPath: IndexPath
    ) {
        source?.handle(.willDisplay, at: ElementPath(indexPath))
        app?.collectionView?(collectionView, willDisplay: cell, forItemAt: indexPath)
    }

    func collectionView(
        _ collectionView: UICollectionView, didEndDisplaying cell: UICollectionViewCell, forItemAt indexPath: IndexPath
    ) {
        source?.handle(.didEndDisplaying, at: ElementPath(indexPath))
        app?.collectionView?(collectionView, didEndDisplaying: cell, forItemAt: indexPath)
    }
}
#endif
