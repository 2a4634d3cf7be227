#if canImport(AppKit) && !targetEnvironment(macCatalyst)
import AppKit
import RippleDiff

// Thin glue: `NSTableView` is a `SequentialRowView` (its updates apply one after another, which
// `SequentialListView` turns a source's batches into), `NSCollectionView` is a `ListView` (its
// batches read like UIKit's), and one adapter per view kind answers AppKit's data-source and
// delegate calls through `ListDataSource`, forwarding the rest to the app's delegate
// (`ListViewAdapter`). Every decision lives in platform-independent code tested on Linux. `NSTableView` has no sections, so the sectioned sources drive `NSCollectionView` only.

extension IndexPath {
    /// The AppKit index path of a Ripple path.
    init(_ path: ElementPath) { self.init(item: path.item, section: path.section) }
}

extension ElementPath {
    /// The Ripple path of an AppKit index path.
    init(_ indexPath: IndexPath) { self.init(item: indexPath.item, section: indexPath.section) }
}

/// `NSTableView` is a ``SequentialRowView``: rows slide out and in, and reloads cover every column.
extension NSTableView: SequentialRowView {
    /// Whether the table is in a window.
    public var isInWindow: Bool { window != nil }
    /// Removes rows, named as they are now, all at once.
    public func removeRows(_ rows: [Int]) { removeRows(at: IndexSet(rows), withAnimation: .slideUp) }
    /// Inserts rows at their positions after the insertion.
    public func insertRows(_ rows: [Int]) { insertRows(at: IndexSet(rows), withAnimation: .slideDown) }
    /// Configures the views of rows on screen again in place (AppKit has no reconfigure call).
    public func reconfigureRows(_ rows: [Int]) {
        let source = (dataSource as? ListViewAdapter)?.source
        for row in rows {
            for column in 0..<numberOfColumns {
                if let view = view(atColumn: column, row: row, makeIfNecessary: false) {
                    source?.configure(view, at: ElementPath(item: row, section: 0))
                }
            }
        }
    }
    /// Reloads rows, every column.
    public func reloadRows(_ rows: [Int]) {
        reloadData(forRowIndexes: IndexSet(rows), columnIndexes: IndexSet(integersIn: 0..<numberOfColumns))
    }
    /// Makes `source` the table's data source and delegate, through an adapter that also keeps
    /// `rows` alive.
    ///
    /// - Parameters:
    ///   - source: The list source that drives the table.
    ///   - rows: The list view the source drives the table through.
    /// - Returns: The adapter, which the source keeps alive.
    public func adoptDataSource<Source: ListDataSource>(_ source: Source, through rows: SequentialListView)
        -> AnyObject?
    {
        let adapter = TableViewAppKitAdapter(source: source, rows: rows, appDelegate: source.delegate)
        dataSource = adapter
        delegate = adapter
        return adapter
    }
}

/// `NSCollectionView` is a ``ListView``; its batches animate through its animator.
extension NSCollectionView: ListView {
    /// Whether the collection view is in a window.
    public var isInWindow: Bool { window != nil }
    /// Runs `updates` as one animated batch.
    public func performBatchUpdates(_ updates: (() -> Void)?, completion: ((Bool) -> Void)?) {
        animator().performBatchUpdates(updates, completionHandler: completion)
    }
    /// Inserts sections, in after coordinates.
    public func insertSections(_ sections: [Int]) { insertSections(IndexSet(sections)) }
    /// Deletes sections, in before coordinates.
    public func deleteSections(_ sections: [Int]) { deleteSections(IndexSet(sections)) }
    /// Reloads sections, in before coordinates.
    public func reloadSections(_ sections: [Int]) { reloadSections(IndexSet(sections)) }
    /// Inserts items, in after coordinates.
    public func insertItems(at paths: [ElementPath]) { insertItems(at: Set(paths.map(IndexPath.init))) }
    /// Deletes items, in before coordinates.
    public func deleteItems(at paths: [ElementPath]) { deleteItems(at: Set(paths.map(IndexPath.init))) }
    /// Reloads items, in before coordinates.
    public func reloadItems(at paths: [ElementPath]) { reloadItems(at: Set(paths.map(IndexPath.init))) }
    /// Moves an item from its before path to its after path.
    public func moveItem(at path: ElementPath, to newPath: ElementPath) {
        moveItem(at: IndexPath(path), to: IndexPath(newPath))
    }
    /// Configures the items on screen again in place (AppKit has no reconfigure call).
    public func reconfigureItems(at paths: [ElementPath]) {
        (dataSource as? ListViewAdapter)?.configureVisibleCells(at: paths) { item(at: IndexPath($0)) }
    }
    /// Configures the headers and footers on screen of `sections` again in place, through the
    /// source (AppKit has no call for it).
    public func reconfigureSupplementaryViews(inSections sections: [Int]) {
        guard let adapter = dataSource as? ListViewAdapter else { return }
        let wanted = Set(sections)
        for kind in [NSCollectionView.elementKindSectionHeader, NSCollectionView.elementKindSectionFooter] {
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
        let adapter = CollectionViewAppKitAdapter(source: source, appDelegate: source.delegate)
        dataSource = adapter
        delegate = adapter
        return adapter
    }
}

extension ListSourceBase {
    /// Registers `itemClass` with the collection view this source drives, and shows in it every
    /// row (that meets `condition`): the one way to map rows to cells, as on UIKit. The item
    /// class's item type is the list's element type, which the compiler checks; name another
    /// type with `register(_:for:where:)`.
    ///
    /// - Parameters:
    ///   - itemClass: The collection view item class; its identifier is its type name.
    ///   - condition: Which rows it shows; `nil` (the default) for all. Conditional registrations
    ///     are tried in the order made, before the one without a condition.
    public func register<ViewItem: NSCollectionViewItem & PresentingCell>(
        _ itemClass: ViewItem.Type, where condition: ((Item) -> Bool)? = nil
    ) where ViewItem.Item == Item {
        register(itemClass, routing: Item.self, where: condition.map(CellRoute.erase))
    }

    /// Registers `itemClass` with the collection view this source drives, and shows in it the
    /// rows whose item is of type `itemType` and meets `condition`, as on UIKit.
    ///
    /// - Parameters:
    ///   - itemClass: The collection view item class; its identifier is its type name.
    ///   - itemType: The type of the items it shows: the cell's own item type, or a subclass of it.
    ///   - condition: Which of those items it shows; `nil` (the default) for all.
    /// - Precondition: A row's item can have the type `itemType`; otherwise it traps, naming
    ///   both types.
    public func register<ViewItem: NSCollectionViewItem & PresentingCell>(
        _ itemClass: ViewItem.Type, for itemType: ViewItem.Item.Type, where condition: ((ViewItem.Item) -> Bool)? = nil
    ) {
        checkRegistration(of: itemClass, for: itemType, in: "register(_:for:where:)")
        register(itemClass, routing: itemType, where: condition.map(CellRoute.erase))
    }

    /// Routes the rows of `itemType` to `itemClass` and registers it with the collection view.
    private func register(
        _ itemClass: NSCollectionViewItem.Type, routing itemType: Any.Type, where condition: ((Any) -> Bool)?
    ) {
        let identifier = String(reflecting: itemClass)
        route(itemsOf: itemType, where: condition, toCellsWith: identifier)
        (listView as? NSCollectionView)?.register(
            itemClass, forItemWithIdentifier: NSUserInterfaceItemIdentifier(identifier))
    }

    /// Registers `nib`, whose top-level view is a `cellViewClass`, with the table view this
    /// source drives, and shows in it every row (that meets `condition`). (`NSTableView` makes its
    /// cell views from nibs only.)
    ///
    /// - Parameters:
    ///   - cellViewClass: The cell view class; its identifier is its type name.
    ///   - nib: The nib that holds one. `nil` when the table's own cell views in Interface Builder
    ///     carry the identifier already: `String(reflecting: cellViewClass)`, such as
    ///     `"MyApp.BookCellView"`.
    ///   - condition: Which rows it shows; `nil` (the default) for all.
    public func register<CellView: NSTableCellView & PresentingCell>(
        _ cellViewClass: CellView.Type, nib: NSNib?, where condition: ((Item) -> Bool)? = nil
    ) where CellView.Item == Item {
        register(cellViewClass, nib: nib, routing: Item.self, where: condition.map(CellRoute.erase))
    }

    /// Registers `nib`, whose top-level view is a `cellViewClass`, with the table view this
    /// source drives, and shows in it the rows whose item is of type `itemType` and meets
    /// `condition`.
    ///
    /// - Parameters:
    ///   - cellViewClass: The cell view class; its identifier is its type name.
    ///   - nib: The nib that holds one, or `nil` (see the form without `for:`).
    ///   - itemType: The type of the items it shows: the cell's own item type, or a subclass of it.
    ///   - condition: Which of those items it shows; `nil` (the default) for all.
    /// - Precondition: A row's item can have the type `itemType`; otherwise it traps, naming
    ///   both types.
    public func register<CellView: NSTableCellView & PresentingCell>(
        _ cellViewClass: CellView.Type, nib: NSNib?, for itemType: CellView.Item.Type,
        where condition: ((CellView.Item) -> Bool)? = nil
    ) {
        checkRegistration(of: cellViewClass, for: itemType, in: "register(_:nib:for:where:)")
        register(cellViewClass, nib: nib, routing: itemType, where: condition.map(CellRoute.erase))
    }

    /// Routes the rows of `itemType` to `cellViewClass` and registers `nib` with the table view.
    private func register(
        _ cellViewClass: NSTableCellView.Type, nib: NSNib?, routing itemType: Any.Type,
        where condition: ((Any) -> Bool)?
    ) {
        let identifier = String(reflecting: cellViewClass)
        route(itemsOf: itemType, where: condition, toCellsWith: identifier)
        if let nib, let table = (listView as? SequentialListView)?.rowView as? NSTableView {
            table.register(nib, forIdentifier: NSUserInterfaceItemIdentifier(identifier))
        }
    }
}

/// A table cell view that shows one item, usually a cell presenter: subclass it and adopt your
/// cell's view protocol, and the source attaches the cell to its presenter when the table asks for
/// it. Register it with the source's `register(_:nib:for:where:)`.
open class TableCellView<CellPresenter>: NSTableCellView, PresentingCell {
    /// The item shown.
    public var item: CellPresenter?

    /// Prepares the view for reuse, and gives up its item (``PresentingCell/prepareItemForReuse()``).
    /// Call `super` when you override it.
    open override func prepareForReuse() {
        super.prepareForReuse()
        prepareItemForReuse()
    }
}

/// A collection view item that shows one item, usually a cell presenter.
open class CollectionViewItem<CellPresenter>: NSCollectionViewItem, PresentingCell {
    /// The item shown.
    public var item: CellPresenter?

    /// Prepares the view for reuse, and gives up its item (``PresentingCell/prepareItemForReuse()``).
    /// Call `super` when you override it.
    open override func prepareForReuse() {
        super.prepareForReuse()
        prepareItemForReuse()
    }
}

extension ListSourceWithSection {
    /// Registers `viewClass` with the collection view this source drives, as the header of every
    /// section (that meets `condition`), as on UIKit. The view's item type is the section type,
    /// which the compiler checks; name another type with `register(header:for:where:)`.
    ///
    /// - Parameters:
    ///   - viewClass: The view class; its identifier is its type name.
    ///   - condition: Which sections have it; `nil` (the default) for all. A section none covers
    ///     has no header.
    public func register<View: NSView & NSCollectionViewElement & PresentingCell>(
        header viewClass: View.Type, where condition: ((Section) -> Bool)? = nil
    ) where View.Item == Section {
        register(viewClass, as: .header, routing: Section.self, where: condition.map(CellRoute.erase))
    }

    /// Registers `viewClass` with the collection view this source drives, as the header of the
    /// sections whose value is of type `sectionType` and meets `condition`, as on UIKit.
    ///
    /// - Parameters:
    ///   - viewClass: The view class; its identifier is its type name.
    ///   - sectionType: The type of the section values it shows: the view's own item type, or a
    ///     subclass of it.
    ///   - condition: Which of those sections have it; `nil` (the default) for all.
    /// - Precondition: A section's value can have the type `sectionType`; otherwise it traps,
    ///   naming both types.
    public func register<View: NSView & NSCollectionViewElement & PresentingCell>(
        header viewClass: View.Type, for sectionType: View.Item.Type, where condition: ((View.Item) -> Bool)? = nil
    ) {
        checkRegistration(ofSupplementary: viewClass, for: sectionType, in: "register(header:for:where:)")
        register(viewClass, as: .header, routing: sectionType, where: condition.map(CellRoute.erase))
    }

    /// Registers `viewClass` with the collection view this source drives, as the footer of every
    /// section (that meets `condition`).
    ///
    /// - Parameters:
    ///   - viewClass: The view class; its identifier is its type name.
    ///   - condition: Which sections have it; `nil` (the default) for all.
    public func register<View: NSView & NSCollectionViewElement & PresentingCell>(
        footer viewClass: View.Type, where condition: ((Section) -> Bool)? = nil
    ) where View.Item == Section {
        register(viewClass, as: .footer, routing: Section.self, where: condition.map(CellRoute.erase))
    }

    /// Registers `viewClass` with the collection view this source drives, as the footer of the
    /// sections whose value is of type `sectionType` and meets `condition`.
    ///
    /// - Parameters:
    ///   - viewClass: The view class; its identifier is its type name.
    ///   - sectionType: The type of the section values it shows.
    ///   - condition: Which of those sections have it; `nil` (the default) for all.
    /// - Precondition: A section's value can have the type `sectionType` (see the header form).
    public func register<View: NSView & NSCollectionViewElement & PresentingCell>(
        footer viewClass: View.Type, for sectionType: View.Item.Type, where condition: ((View.Item) -> Bool)? = nil
    ) {
        checkRegistration(ofSupplementary: viewClass, for: sectionType, in: "register(footer:for:where:)")
        register(viewClass, as: .footer, routing: sectionType, where: condition.map(CellRoute.erase))
    }

    /// Routes the sections of `sectionType` to `viewClass` and registers it with the collection
    /// view, for the kind of supplementary view AppKit's flow layout asks for.
    private func register(
        _ viewClass: NSView.Type, as kind: SupplementaryKind, routing sectionType: Any.Type,
        where condition: ((Any) -> Bool)?
    ) {
        let identifier = String(reflecting: viewClass)
        route(kind, ofSectionsOf: sectionType, where: condition, toViewsWith: identifier)
        (listView as? NSCollectionView)?.register(
            viewClass,
            forSupplementaryViewOfKind: kind == .header
                ? NSCollectionView.elementKindSectionHeader : NSCollectionView.elementKindSectionFooter,
            withIdentifier: NSUserInterfaceItemIdentifier(identifier))
    }
}

/// A collection view header or footer that shows a section's value, usually its presenter.
open class CollectionSupplementaryView<SectionPresenter>: NSView, NSCollectionViewElement, PresentingCell {
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
final class TableViewAppKitAdapter: ListViewAdapter {
    /// The row view the source drives; the source holds its view weakly, so the adapter keeps it.
    let rows: SequentialListView

    init(source: any ListDataSource, rows: SequentialListView, appDelegate: AnyObject?) {
        self.rows = rows
        super.init(source: source, appDelegate: appDelegate)
    }
}

@MainActor
extension TableViewAppKitAdapter: NSTableViewDataSource, NSTableViewDelegate {
    private var app: NSTableViewDelegate? { appDelegate as? NSTableViewDelegate }

    func numberOfRows(in tableView: NSTableView) -> Int { source?.numberOfItems(inSection: 0) ?? 0 }

    func tableView(_ tableView: NSTableView, viewFor tableColumn: NSTableColumn?, row: Int) -> NSView? {
        guard let source else { return nil }
        return Self.view(of: source, in: tableView, row: row)
    }

    private static func view<Source: ListDataSource>(of source: Source, in tableView: NSTableView, row: Int) -> NSView?
    {
        let path = ElementPath(item: row, section: 0)
        let identifier = NSUserInterfaceItemIdentifier(source.cellIdentifier(at: path))
        let view = tableView.makeView(withIdentifier: identifier, owner: tableView.delegate)
        if let view { source.configure(view, at: path) }
        return view
    }

    func tableView(_ tableView: NSTableView, heightOfRow row: Int) -> CGFloat {
        if let height = app?.tableView?(tableView, heightOfRow: row) { return height }
        let size = source?.cellSize(at: ElementPath(item: row, section: 0), in: LayoutSize(tableView.bounds.size))
        return size.map { CGFloat($0.height) } ?? tableView.rowHeight
    }

    func tableView(
        _ tableView: NSTableView, rowActionsForRow row: Int, edge: NSTableView.RowActionEdge
    ) -> [NSTableViewRowAction] {
        if let actions = app?.tableView?(tableView, rowActionsForRow: row, edge: edge) { return actions }
        let actions = source?.swipeActions(
            edge == .leading ? .leading : .trailing, at: ElementPath(item: row, section: 0))
        return (actions ?? []).map { action in
            NSTableViewRowAction(style: action.style == .destructive ? .destructive : .regular, title: action.title) {
                _, _ in _ = action.perform()
            }
        }
    }

    func tableViewSelectionDidChange(_ notification: Notification) {
        if let tableView = notification.object as? NSTableView, tableView.selectedRow >= 0 {
            source?.handle(.selected, at: ElementPath(item: tableView.selectedRow, section: 0))
        }
        app?.tableViewSelectionDidChange?(notification)
    }

    func tableView(_ tableView: NSTableView, didAdd rowView: NSTableRowView, forRow row: Int) {
        source?.handle(.willDisplay, at: ElementPath(item: row, section: 0))
        app?.tableView?(tableView, didAdd: rowView, forRow: row)
    }

    func tableView(_ tableView: NSTableView, didRemove rowView: NSTableRowView, forRow row: Int) {
        // AppKit passes -1 for rows that were removed from the table, not just scrolled away.
        if row >= 0 { source?.handle(.didEndDisplaying, at: ElementPath(item: row, section: 0)) }
        app?.tableView?(tableView, didRemove: rowView, forRow: row)
    }
}

/// Answers a collection view's data-source and delegate calls for a Ripple list source, and
/// forwards the rest to the app's delegate (see `ListSourceBase.delegate` for the rule).
final class CollectionViewAppKitAdapter: ListViewAdapter {}

@MainActor
extension CollectionViewAppKitAdapter: NSCollectionViewDataSource, NSCollectionViewDelegateFlowLayout {
    private var app: NSCollectionViewDelegateFlowLayout? { appDelegate as? NSCollectionViewDelegateFlowLayout }

    func numberOfSections(in collectionView: NSCollectionView) -> Int { source?.numberOfSections ?? 0 }

    func collectionView(_ collectionView: NSCollectionView, numberOfItemsInSection section: Int) -> Int {
        source?.numberOfItems(inSection: section) ?? 0
    }

    func collectionView(
        _ collectionView: NSCollectionView, itemForRepresentedObjectAt indexPath: IndexPath
    ) -> NSCollectionViewItem {
        guard let source else { return NSCollectionViewItem() }
        return Self.item(of: source, in: collectionView, at: indexPath)
    }

    private static func item<Source: ListDataSource>(
        of source: Source, in collectionView: NSCollectionView, at indexPath: IndexPath
    ) -> NSCollectionViewItem {
        let path = ElementPath(indexPath)
        let identifier = NSUserInterfaceItemIdentifier(source.cellIdentifier(at: path))
        let item = collectionView.makeItem(withIdentifier: identifier, for: indexPath)
        source.configure(item, at: path)
        return item
    }

    func collectionView(
        _ collectionView: NSCollectionView,
        viewForSupplementaryElementOfKind kind: NSCollectionView.SupplementaryElementKind,
        at indexPath: IndexPath
    ) -> NSView {
        if let view = (appDelegate as? NSCollectionViewDataSource)?.collectionView?(
            collectionView, viewForSupplementaryElementOfKind: kind, at: indexPath)
        {
            return view
        }
        guard let source else { return NSView() }
        return Self.supplementaryView(kind, of: source, in: collectionView, at: indexPath)
    }

    private static func supplementaryView<Source: ListDataSource>(
        _ kind: NSCollectionView.SupplementaryElementKind, of source: Source, in collectionView: NSCollectionView,
        at indexPath: IndexPath
    ) -> NSView {
        let supplementaryKind: SupplementaryKind = kind == NSCollectionView.elementKindSectionFooter ? .footer : .header
        guard let identifier = source.supplementaryIdentifier(supplementaryKind, inSection: indexPath.section)
        else { return NSView() }
        let view = collectionView.makeSupplementaryView(
            ofKind: kind, withIdentifier: NSUserInterfaceItemIdentifier(identifier), for: indexPath)
        source.configureSupplementary(view, inSection: indexPath.section)
        return view
    }

    func collectionView(
        _ collectionView: NSCollectionView, layout collectionViewLayout: NSCollectionViewLayout,
        sizeForItemAt indexPath: IndexPath
    ) -> NSSize {
        if let size = app?.collectionView?(collectionView, layout: collectionViewLayout, sizeForItemAt: indexPath) {
            return size
        }
        if let size = source?.cellSize(at: ElementPath(indexPath), in: LayoutSize(collectionView.bounds.size)) {
            return CGSize(size)
        }
        return (collectionViewLayout as? NSCollectionViewFlowLayout)?.itemSize ?? NSSize(width: 50, height: 50)
    }

    func collectionView(_ collectionView: NSCollectionView, didSelectItemsAt indexPaths: Set<IndexPath>) {
        for indexPath in indexPaths { source?.handle(.selected, at: ElementPath(indexPath)) }
        app?.collectionView?(collectionView, didSelectItemsAt: indexPaths)
    }

    func collectionView(_ collectionView: NSCollectionView, didDeselectItemsAt indexPaths: Set<IndexPath>) {
        for indexPath in indexPaths { source?.handle(.deselected, at: ElementPath(indexPath)) }
        app?.collectionView?(collectionView, didDeselectItemsAt: indexPaths)
    }

    func collectionView(
        _ collectionView: NSCollectionView, willDisplay item: NSCollectionViewItem,
        forRepresentedObjectAt indexPath: IndexPath
    ) {
        source?.handle(.willDisplay, at: ElementPath(indexPath))
        app?.collectionView?(collectionView, willDisplay: item, forRepresentedObjectAt: indexPath)
    }

    func collectionView(
        _ collectionView: NSCollectionView, didEndDisplaying item: NSCollectionViewItem,
        forRepresentedObjectAt indexPath: IndexPath
    ) {
        source?.handle(.didEndDisplaying, at: ElementPath(indexPath))
        app?.collectionView?(collectionView, didEndDisplaying: item, forRepresentedObjectAt: indexPath)
    }
}

extension TableViewSource {
    /// Creates a source that drives `tableView`: it becomes the table's data source and delegate,
    /// and its batches reach the table as sequential updates. The same as
    /// `TableViewSource(view: SequentialListView(tableView), …)`.
    ///
    /// - Parameters:
    ///   - tableView: The table view. Register its cell views with the source's
    ///     `register(_:nib:for:where:)`.
    ///   - collection: The rows.
    ///   - selectItem: Executed with the presenter of each selected row.
    ///   - reloadThreshold: The largest change to animate; larger ones reload.
    public convenience init(
        tableView: NSTableView, collection: some LiveList<CellPresenter>,
        selectItem: CommandWithParameter<CellPresenter>? = nil, reloadThreshold: Int? = nil
    ) {
        // The table's adapter keeps the list view alive once the source has adopted it.
        let rows = SequentialListView(tableView)
        self.init(view: rows, collection: collection, selectItem: selectItem, reloadThreshold: reloadThreshold)
    }
}
#endif
