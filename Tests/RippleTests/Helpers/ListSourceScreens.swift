import Ripple
import RippleDiff
import RippleTestSupport
import RippleTesting

/// What a headless view shows for a list source: its rows, section by section, with `nil` for the
/// loading row, as a `UITableView` or `UICollectionView` reads them from its data source.
@MainActor
func shownRows<Item, Rendered>(of source: ListSourceBase<Item, Rendered>?) -> [[Item?]] {
    guard let source else { return [] }
    return (0..<source.numberOfSections).map { section in
        (0..<source.numberOfItems(inSection: section)).map { item in
            let path = ElementPath(item: item, section: section)
            return source.isLoadingRow(path) ? nil : source.element(at: path)
        }
    }
}

/// The number of rows of each section of a source, loading row included, as a view asks for them.
@MainActor
func itemCounts<Item, Rendered>(of source: ListSourceBase<Item, Rendered>?) -> [Int] {
    guard let source else { return [] }
    return (0..<source.numberOfSections).map(source.numberOfItems(inSection:))
}

/// A source's row at a path, `nil` for the loading row, as a view asks for it.
@MainActor
func row<Item, Rendered>(at path: ElementPath, of source: ListSourceBase<Item, Rendered>?) -> Item? {
    guard let source, !source.isLoadingRow(path) else { return nil }
    return source.element(at: path)
}

/// A path in a list: `path(2)` is item 2 of section 0.
func path(_ item: Int, _ section: Int = 0) -> ElementPath { ElementPath(item: item, section: section) }

/// A flat table screen: a headless table view that shows the source's rows, loading row included.
@MainActor
final class FlatTableScreen {
    let view: HeadlessTableView<TestItem?>
    let source: TableViewSource<TestItem>

    init(_ collection: ObservableCollection<TestItem>) {
        let box = SourceBox<TableViewSource<TestItem>>()
        view = HeadlessTableView(
            rowCounts: { [box] in MainActor.assumeIsolated { itemCounts(of: box.source) } },
            row: { [box] path in MainActor.assumeIsolated { row(at: path, of: box.source) } })
        source = TableViewSource(view: view, collection: collection)
        box.source = source
    }

    /// The view's rows as identifiers, `nil` for the loading row.
    var shownIDs: [Int?] { view.rows.first?.map { $0?.id } ?? [] }

    /// Displays the last row, as scrolling to the end does.
    func displayLastRow() {
        source.handle(.willDisplay, at: path(source.numberOfItems(inSection: 0) - 1))
    }

    /// The user drags a row and drops it near `proposed`, as UIKit plays it: it asks where the row
    /// may land, moves it on screen, then tells the source.
    func drag(from start: ElementPath, to proposed: ElementPath) {
        let target = source.targetPath(forMovingItemFrom: start, proposed: proposed)
        view.dragRow(at: start, to: target)
        source.moveItem(from: start, to: target)
    }
}

/// A sectioned collection screen: a headless collection view that shows the source's items,
/// loading row included.
@MainActor
final class SectionedGridScreen {
    let view: HeadlessCollectionView<TestItem?>
    let source: CollectionViewSourceWithSection<String, TestItem>

    init(_ collection: SectionedCollection<String, TestItem>) {
        let box = SourceBox<CollectionViewSourceWithSection<String, TestItem>>()
        view = HeadlessCollectionView(
            itemCounts: { [box] in MainActor.assumeIsolated { itemCounts(of: box.source) } },
            item: { [box] path in MainActor.assumeIsolated { row(at: path, of: box.source) } })
        source = CollectionViewSourceWithSection(view: view, collection: collection)
        box.source = source
    }

    /// The view's items as identifiers, section by section, `nil` for the loading row.
    var shownIDs: [[Int?]] { view.items.map { $0.map { $0?.id } } }

    /// The user drags an item and drops it near `proposed`, as UIKit plays it.
    func drag(from start: ElementPath, to proposed: ElementPath) {
        let target = source.targetPath(forMovingItemFrom: start, proposed: proposed)
        view.dragItem(at: start, to: target)
        source.moveItem(from: start, to: target)
    }
}

/// The source a headless view reads, held weakly as a view holds its data source.
@MainActor
private final class SourceBox<Source: AnyObject> {
    weak var source: Source?
}

/// Sections of test items: `sections([("A", [1, 2])])`.
func sections(_ layout: [(String, [Int])]) -> [SectionSnapshot<String, TestItem>] {
    layout.map { SectionSnapshot(section: $0.0, items: [TestItem](ids: $0.1)) }
}

extension HeadlessCellHost {
    /// Registers `cellClass` for `identifier` and routes every row of `source` to it: what
    /// `register(_:where:)` does on a screen, for a host made by hand (a row that no registration
    /// covers traps at its first layout). `cellClass` may be one that cannot show the rows, to
    /// test that report.
    ///
    /// - Parameters:
    ///   - cellClass: The class to make the rows' cells of.
    ///   - source: The source whose rows it shows: the host's own, or the one behind it.
    ///   - identifier: The reuse identifier; `"Cell"` by default.
    func register<Item, Rendered>(
        _ cellClass: HeadlessReusableView.Type, forEveryRowOf source: ListSourceBase<Item, Rendered>,
        identifier: String = "Cell"
    ) {
        register(cellClass, forCellReuseIdentifier: identifier)
        source.route(itemsOf: Item.self, where: nil, toCellsWith: identifier)
    }
}
