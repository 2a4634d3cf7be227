import Ripple
import RippleDiff

/// The scrolling part of a list view, without UIKit: it asks a list source for the cells of the
/// rows on screen and for the headers and footers of their sections, dequeues and reuses them as
/// UIKit does, scrolls, and plays the user's taps.
///
/// Pair it with a headless table or collection view that the same source drives: the view checks
/// every batch and keeps the selection, the host shows what a user would see.
///
/// ```swift
/// let host = HeadlessCellHost(source: source, view: tableView, visibleRowCount: 10)
/// host.register(BookCell.self, forCellReuseIdentifier: "Cell")
/// host.layout()
/// host.scroll(toRow: 40)          // drives pagination through willDisplay
/// host.tap(host.visiblePaths[0])  // selects the row, and drives selectItem
/// ```
///
/// # Layout
/// ``layout()`` shows the rows from ``firstVisibleRow`` (counted across sections) on, up to
/// ``visibleRowCount`` of them. A row whose item is an object already shown in a cell keeps that
/// cell, as a moved row does in UIKit; every other row gets a cell from the reuse pool for its
/// identifier (which calls ``HeadlessCell/prepareForReuse()``) or a new one, configured by the
/// source. Rows that appear get `willDisplay`, rows that leave `didEndDisplaying`.
///
/// The sections of the rows on screen show their headers and footers
/// (``visibleSupplementaryViews``, ``header(inSection:)``, ``footer(inSection:)``) when the source
/// names an identifier for them, reused the same way.
@MainActor
public final class HeadlessCellHost<Source: ListDataSource> {
    /// A cell on screen and the row it shows.
    public typealias VisibleCell = (path: ElementPath, cell: HeadlessCell<Source.Item>)

    /// A header or footer on screen and the section it belongs to.
    public typealias VisibleSupplementaryView = (
        kind: SupplementaryKind, section: Int, view: HeadlessCell<Source.Section>
    )

    /// The source that answers for the rows.
    public let source: Source

    /// How many rows fit on screen.
    public var visibleRowCount: Int

    /// The first row on screen, counted across sections from the top.
    public private(set) var firstVisibleRow = 0

    /// The rows on screen and their cells, top to bottom.
    public private(set) var visibleCells: [VisibleCell] = []

    /// The headers and footers on screen, top to bottom: for each section on screen its header,
    /// then its footer, when the source names an identifier for them.
    public private(set) var visibleSupplementaryViews: [VisibleSupplementaryView] = []

    /// Every cell made so far.
    public private(set) var createdCellCount = 0

    /// The view that keeps the selection, held weakly.
    private weak var selectionView: (any _HeadlessSelecting)?
    private var cellQueue = _ReuseQueue<Source.Item>()
    private var supplementaryQueue = _ReuseQueue<Source.Section>()

    /// The cell class for an identifier that has none registered, or `nil` to trap as UIKit does.
    /// The screens give the loading row a ``HeadlessLoadingCell`` this way.
    var fallbackCellClass: ((String) -> HeadlessCell<Source.Item>.Type?)?

    /// Creates a host.
    ///
    /// - Parameters:
    ///   - source: The list source, held strongly, as a test holds its screen.
    ///   - view: The headless table or collection view the source drives, held weakly: it keeps
    ///     the selection that ``tap(_:)`` and ``deselect(_:)`` change. Without one, taps only send
    ///     their events.
    ///   - visibleRowCount: How many rows fit on screen.
    public init(source: Source, view: (any ListView)? = nil, visibleRowCount: Int) {
        self.source = source
        self.selectionView = view as? any _HeadlessSelecting
        self.visibleRowCount = visibleRowCount
    }

    /// Registers a cell class for a reuse identifier, as `register(_:forCellReuseIdentifier:)`.
    ///
    /// - Parameters:
    ///   - cellClass: The class to make cells of.
    ///   - identifier: The reuse identifier.
    public func register(_ cellClass: HeadlessCell<Source.Item>.Type, forCellReuseIdentifier identifier: String) {
        cellQueue.registry[identifier] = cellClass
    }

    /// Registers a header or footer view class for a reuse identifier, as
    /// `register(_:forHeaderFooterViewReuseIdentifier:)` and
    /// `register(_:forSupplementaryViewOfKind:withReuseIdentifier:)`. Headers and footers share
    /// the identifiers.
    ///
    /// A section whose identifier has no class registered gets a plain ``HeadlessCell``, so a test
    /// can read which section a header shows without registering one.
    ///
    /// - Parameters:
    ///   - viewClass: The class to make views of; adopt your header's view protocol in it, and the
    ///     section presenter attaches it as its view.
    ///   - identifier: The reuse identifier the source names (`headerIdentifier`,
    ///     `footerIdentifier`).
    public func register(
        _ viewClass: HeadlessCell<Source.Section>.Type, forSupplementaryViewWithReuseIdentifier identifier: String
    ) {
        supplementaryQueue.registry[identifier] = viewClass
    }

    /// Whether any cell class is registered.
    public var hasRegisteredCells: Bool { !cellQueue.registry.isEmpty }

    /// The paths on screen, top to bottom.
    public var visiblePaths: [ElementPath] { visibleCells.map(\.path) }

    /// The items on screen, top to bottom; `nil` for a loading row.
    public var visibleItems: [Source.Item?] { visibleCells.map(\.cell.item) }

    /// The header on screen of a section, or `nil` when the section is not on screen or has none.
    ///
    /// - Parameter section: A section.
    public func header(inSection section: Int) -> HeadlessCell<Source.Section>? {
        visibleSupplementaryViews.first { $0.kind == .header && $0.section == section }?.view
    }

    /// The footer on screen of a section, or `nil` when the section is not on screen or has none.
    ///
    /// - Parameter section: A section.
    public func footer(inSection section: Int) -> HeadlessCell<Source.Section>? {
        visibleSupplementaryViews.first { $0.kind == .footer && $0.section == section }?.view
    }

    /// Scrolls so that `row`, counted across sections, is the first on screen (clamped to the
    /// content), and lays out.
    ///
    /// - Parameter row: The row to show first.
    public func scroll(toRow row: Int) {
        firstVisibleRow = max(0, row)
        layout()
    }

    /// Scrolls to the end of the content, and lays out.
    public func scrollToEnd() {
        scroll(toRow: totalRowCount - visibleRowCount)
    }

    // MARK: - Gestures

    /// Taps a row, as the user does: highlight and unhighlight, then the selection, as UIKit sends
    /// them.
    ///
    /// With the view given at init, the row becomes selected in the view's ``HeadlessTableView/selectedPaths``;
    /// with single selection, the row selected before is deselected first and the source hears
    /// `.deselected` for it; with multiple selection, tapping a selected row deselects it instead.
    /// The source then hears `.selected` (or `.deselected`), which reaches a
    /// `SelectableCellPresenter`, `onItemEvent` and the `selectItem` command.
    ///
    /// - Parameter path: A row on screen.
    /// - Precondition: `path` is on screen.
    public func tap(_ path: ElementPath) {
        requireOnScreen(path, method: "tap(_:)")
        source.handle(.highlighted, at: path)
        source.handle(.unhighlighted, at: path)
        if let view = selectionView {
            if view.allowsMultipleSelection && view.selectedPaths.contains(path) {
                return deselect(path)
            }
            if !view.allowsMultipleSelection {
                for old in view.selectedPaths where old != path {
                    view._deselect(old)
                    source.handle(.deselected, at: old)
                }
            }
            view._select(path)
            showSelection()
        }
        source.handle(.selected, at: path)
    }

    /// Deselects a selected row, as the user does (a tap on a selected row with multiple
    /// selection): the view's selection loses it, then the source hears `.deselected`, which
    /// reaches a `SelectableCellPresenter` and `onItemEvent`.
    ///
    /// - Parameter path: A row on screen, selected when the host has a view.
    /// - Precondition: `path` is on screen and, with a view, selected.
    public func deselect(_ path: ElementPath) {
        requireOnScreen(path, method: "deselect(_:)")
        if let view = selectionView {
            let selected = view.selectedPaths
            precondition(
                selected.contains(path),
                "HeadlessCellHost.deselect(_:): row \(path) is not selected; selected rows: \(selected)")
            view._deselect(path)
            showSelection()
        }
        source.handle(.deselected, at: path)
    }

    // MARK: - Layout

    /// Shows the rows on screen with up-to-date cells, and their sections' headers and footers;
    /// call it after the view changed, as UIKit lays out after a batch or a reload.
    public func layout() {
        let total = totalRowCount
        firstVisibleRow = max(0, min(firstVisibleRow, total - visibleRowCount))
        let paths = self.paths(from: firstVisibleRow, count: min(visibleRowCount, total))
        layOutCells(at: paths)
        layOutSupplementaryViews(inSections: sectionsOnScreen(showing: paths))
        showSelection()
    }

    private func layOutCells(at paths: [ElementPath]) {
        // Cells whose object item is still on screen keep showing it, wherever it went.
        var keptByItem: [ObjectIdentifier: HeadlessCell<Source.Item>] = [:]
        for entry in visibleCells {
            if let key = objectKey(entry.cell.item) { keptByItem[key] = entry.cell }
        }
        var next: [VisibleCell] = []
        var reused: Set<ObjectIdentifier> = []
        var pending: [(index: Int, identifier: String)] = []
        for path in paths {
            let identifier = source.cellIdentifier(at: path)
            if let key = itemKey(at: path), let cell = keptByItem[key], cell.reuseIdentifier == identifier {
                keptByItem[key] = nil
                reused.insert(ObjectIdentifier(cell))
                next.append((path, cell))
            } else {
                pending.append((next.count, identifier))
                next.append((path, cellPlaceholder))
            }
        }
        // Cells that left the screen go to the reuse pool, then the new rows take cells.
        for entry in visibleCells where !reused.contains(ObjectIdentifier(entry.cell)) {
            source.handle(.didEndDisplaying, at: entry.path)
            cellQueue.enqueue(entry.cell)
        }
        for (index, identifier) in pending {
            let cell = dequeueCell(identifier)
            source.configure(cell, at: next[index].path)
            next[index].cell = cell
        }
        visibleCells = next
        for (index, _) in pending { source.handle(.willDisplay, at: next[index].path) }
    }

    private func layOutSupplementaryViews(inSections sections: Range<Int>) {
        var kept: [SupplementaryKey: HeadlessCell<Source.Section>] = [:]
        for entry in visibleSupplementaryViews {
            if let section = objectKey(entry.view.item) { kept[SupplementaryKey(kind: entry.kind, section: section)] = entry.view }
        }
        var next: [VisibleSupplementaryView] = []
        var reused: Set<ObjectIdentifier> = []
        var pending: [(index: Int, identifier: String)] = []
        for section in sections {
            for kind in [SupplementaryKind.header, .footer] {
                guard let identifier = source.supplementaryIdentifier(kind, inSection: section) else { continue }
                let probe = ProbeCell<Source.Section>()
                source.configureSupplementary(probe, inSection: section)
                if let value = objectKey(probe.item), let view = kept[SupplementaryKey(kind: kind, section: value)],
                    view.reuseIdentifier == identifier
                {
                    kept[SupplementaryKey(kind: kind, section: value)] = nil
                    reused.insert(ObjectIdentifier(view))
                    next.append((kind, section, view))
                } else {
                    pending.append((next.count, identifier))
                    next.append((kind, section, supplementaryPlaceholder))
                }
            }
        }
        for entry in visibleSupplementaryViews where !reused.contains(ObjectIdentifier(entry.view)) {
            supplementaryQueue.enqueue(entry.view)
        }
        for (index, identifier) in pending {
            let view =
                supplementaryQueue.dequeue(identifier)
                ?? supplementaryQueue.make(HeadlessCell<Source.Section>.self, identifier: identifier)
            source.configureSupplementary(view, inSection: next[index].section)
            next[index].view = view
        }
        visibleSupplementaryViews = next
    }

    /// Marks the cells on screen as selected or not, from the view's selection.
    private func showSelection() {
        guard let view = selectionView else { return }
        let selected = Set(view.selectedPaths)
        for entry in visibleCells { entry.cell.isSelected = selected.contains(entry.path) }
    }

    // MARK: - Internals

    private lazy var cellPlaceholder = HeadlessCell<Source.Item>(reuseIdentifier: "")
    private lazy var supplementaryPlaceholder = HeadlessCell<Source.Section>(reuseIdentifier: "")

    private var totalRowCount: Int {
        (0..<source.numberOfSections).reduce(0) { $0 + source.numberOfItems(inSection: $1) }
    }

    private func requireOnScreen(_ path: ElementPath, method: String) {
        guard visiblePaths.contains(path) else {
            preconditionFailure("HeadlessCellHost.\(method): row \(path) is not on screen; rows on screen: \(visiblePaths)")
        }
    }

    /// `count` paths from the flat row `first` on.
    private func paths(from first: Int, count: Int) -> [ElementPath] {
        var result: [ElementPath] = []
        var skipped = 0
        for section in 0..<source.numberOfSections {
            let rows = source.numberOfItems(inSection: section)
            for item in 0..<rows where skipped + item >= first && result.count < count {
                result.append(ElementPath(item: item, section: section))
            }
            skipped += rows
        }
        return result
    }

    /// The sections on screen: those of the rows on screen, the empty ones above them at the top
    /// of the content, and the empty ones below them when the rows do not fill the screen.
    private func sectionsOnScreen(showing paths: [ElementPath]) -> Range<Int> {
        let count = source.numberOfSections
        guard let first = paths.first, let last = paths.last else { return 0..<count }
        let lower = firstVisibleRow == 0 ? 0 : first.section
        let upper = paths.count < visibleRowCount ? count : last.section + 1
        return lower..<upper
    }

    private func dequeueCell(_ identifier: String) -> HeadlessCell<Source.Item> {
        if let cell = cellQueue.dequeue(identifier) { return cell }
        guard let cellClass = cellQueue.registry[identifier] ?? fallbackCellClass?(identifier) else {
            preconditionFailure(
                "HeadlessCellHost: unable to dequeue a cell with identifier \(identifier) - "
                    + "must register a class for the identifier; registered: \(cellQueue.registry.keys.sorted())")
        }
        createdCellCount += 1
        return cellQueue.make(cellClass, identifier: identifier)
    }

    /// The identity of the object item a cell would show at `path`, if it is an object.
    private func itemKey(at path: ElementPath) -> ObjectIdentifier? {
        let probe = ProbeCell<Source.Item>()
        source.configure(probe, at: path)
        return objectKey(probe.item)
    }

    private func objectKey<Value>(_ value: Value?) -> ObjectIdentifier? {
        guard let value, Swift.type(of: value as Any) is AnyClass else { return nil }
        return ObjectIdentifier(value as AnyObject)
    }
}

/// A header or footer on screen, by its kind and the object its section shows.
private struct SupplementaryKey: Hashable {
    var kind: SupplementaryKind
    var section: ObjectIdentifier
}

/// Registered classes and reusable cells, by reuse identifier.
@MainActor
struct _ReuseQueue<Item> {
    var registry: [String: HeadlessCell<Item>.Type] = [:]
    private var pool: [String: [HeadlessCell<Item>]] = [:]

    /// Keeps a cell that left the screen for reuse.
    mutating func enqueue(_ cell: HeadlessCell<Item>) {
        pool[cell.reuseIdentifier, default: []].append(cell)
    }

    /// A cell from the pool, prepared for reuse, or `nil` when the pool has none.
    mutating func dequeue(_ identifier: String) -> HeadlessCell<Item>? {
        guard let cell = pool[identifier]?.popLast() else { return nil }
        cell.prepareForReuse()
        return cell
    }

    /// A new cell: of the class registered for `identifier`, else of `fallback`.
    func make(_ fallback: HeadlessCell<Item>.Type, identifier: String) -> HeadlessCell<Item> {
        (registry[identifier] ?? fallback).init(reuseIdentifier: identifier)
    }
}

/// A cell that only records the item a source gives it, to learn a row's item without a real
/// cell. Its item is never a presenter's view: it adopts no view protocol.
@MainActor
private final class ProbeCell<Item>: PresentingCell {
    var item: Item?
}
