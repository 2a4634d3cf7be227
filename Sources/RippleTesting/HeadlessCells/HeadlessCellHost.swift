import Ripple
import RippleDiff

/// The scrolling part of a list view, without UIKit: it asks a list source for the cells of the
/// rows on screen and for the headers and footers of their sections, dequeues and reuses them, and
/// carries them through every batch exactly as UIKit does (`uikit-cell-lifecycle.md`, C1–C6); it
/// also scrolls, and plays the user's taps.
///
/// Pair it with a headless table or collection view that the same source drives: the view checks
/// every batch and keeps the selection, the host follows the view's batches, reloads and
/// reconfigures and shows what a user would see.
///
/// <!-- swift
/// final class BookCell: HeadlessCell<String> {}
/// let books = ObservableCollection((1...50).map { "Book \($0)" })
/// let screen = HeadlessTableScreen(collection: books, visibleRowCount: 10)
/// screen.settle()
/// -->
/// ```swift
/// screen.register(BookCell.self)  // the screen's host is `screen.cells`
/// let host = screen.cells
/// host.layout()
/// host.scroll(toRow: 40)          // drives pagination through willDisplay
/// host.tap(host.visiblePaths[0])  // selects the row, and drives selectItem
/// ```
///
/// # Cells belong to rows
/// The host keeps one cell per row on screen and never matches cells to items:
/// - The first ``layout()``, a scroll and the view's `reloadData()` ask the source for the cells of
///   the rows that come on screen (C2). A reload first sends every cell on screen to the reuse
///   pool.
/// - A batch carries each cell with its row. A row the batch neither deletes nor reloads keeps its
///   cell wherever inserts, deletes and moves shift it, and the source is **not** asked again,
///   even when the row's element is now another object (C1). A row the batch inserts or reloads
///   that is on screen gets a cell from the source; a deleted or reloaded row's cell, and the cells
///   of rows pushed off screen, go to the reuse pool after the batch's new cells are dequeued, as
///   they animate out on a device (C3).
/// - A reconfigure (`reconfigureRows(at:)`/`reconfigureItems(at:)`) asks the source to configure the
///   row's cell again, the same cell, without ``HeadlessReusableView/prepareForReuse()`` and without
///   display callbacks (C4).
/// - `willDisplay` comes after a new cell is configured; `didEndDisplaying` when a cell leaves: at
///   its path before the batch for a deleted or reloaded row, at its path now for a row scrolled or
///   pushed off screen (C5).
///
/// Headers and footers follow their sections the same way: a section the batch neither deletes nor
/// reloads keeps its views wherever it moves.
///
/// The reuse pool of an identifier gives back the cell that entered it last, and cells enter it in
/// the order of their rows before the change. UIKit does not document its pool's order; the host
/// fixes one so that a test is repeatable.
///
/// Without a headless view (`view: nil`), the host cannot see batches: each ``layout()`` keeps the
/// cells of the rows on screen by position, as a view that was not told of a change.
@MainActor
public final class HeadlessCellHost<Source: ListDataSource> {
    /// A cell on screen and the row it shows.
    public typealias VisibleCell = (path: ElementPath, cell: HeadlessReusableView)

    /// A header or footer on screen and the section it belongs to.
    public typealias VisibleSupplementaryView = (kind: SupplementaryKind, section: Int, view: HeadlessReusableView)

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
    private var cellQueue = _ReuseQueue()
    private var supplementaryQueue = _ReuseQueue()
    /// Whether the first layout happened: before it the screen shows no cell, and the view's
    /// changes need none.
    private var hasLaidOut = false

    /// The cell class for an identifier that has none registered, or `nil` to trap as UIKit does.
    /// The screens give the loading row a ``HeadlessLoadingCell`` this way.
    var fallbackCellClass: ((String) -> HeadlessReusableView.Type?)?

    /// Creates a host.
    ///
    /// - Parameters:
    ///   - source: The list source, held strongly, as a test holds its screen.
    ///   - view: The headless table or collection view the source drives (or a
    ///     `SequentialListView` over a ``HeadlessSequentialTableView``), held weakly: the host
    ///     follows its batches, reloads and reconfigures, and it keeps the selection that
    ///     ``tap(_:)`` and ``deselect(_:)`` change. A view feeds one host, the last made for it.
    ///     Without one, taps only send their events.
    ///   - visibleRowCount: How many rows fit on screen.
    public init(source: Source, view: (any ListView)? = nil, visibleRowCount: Int) {
        self.source = source
        self.selectionView = view as? any _HeadlessSelecting
        self.visibleRowCount = visibleRowCount
        let observed: AnyObject? = (view as? SequentialListView)?.rowView ?? view
        (observed as? any _HeadlessLayoutObservable)?.engineLayoutObserver = { [weak self] change in
            // The headless views are used on the main thread, as UIKit's: the source that drives
            // the view, and so this host, are main-actor isolated, and call the view there. The
            // view runs this observer synchronously from those calls, so it is on the main actor;
            // were it not, assumeIsolated would trap rather than let the host race.
            MainActor.assumeIsolated { self?.viewChanged(change) }
        }
    }

    /// Registers a cell class for a reuse identifier, as `register(_:forCellReuseIdentifier:)`.
    ///
    /// Any ``HeadlessCell`` class goes, whatever its item type, as with UIKit; the source reports a
    /// cell that cannot show its row's item through `Diagnostics`. Prefer the screens'
    /// `register(_:for:)`, which the compiler checks.
    ///
    /// - Parameters:
    ///   - cellClass: The class to make cells of.
    ///   - identifier: The reuse identifier.
    package func register(_ cellClass: HeadlessReusableView.Type, forCellReuseIdentifier identifier: String) {
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
        _ viewClass: HeadlessReusableView.Type, forSupplementaryViewWithReuseIdentifier identifier: String
    ) {
        supplementaryQueue.registry[identifier] = viewClass
    }

    /// Whether any cell class is registered.
    public var hasRegisteredCells: Bool { !cellQueue.registry.isEmpty }

    /// The paths on screen, top to bottom.
    public var visiblePaths: [ElementPath] { visibleCells.map(\.path) }

    /// The items the cells on screen show, top to bottom; `nil` for a loading row, or for a cell
    /// that shows no item of the source's type.
    public var visibleItems: [Source.Item?] { visibleCells.map { $0.cell.shownItem as? Source.Item } }

    /// The cell on screen at `path`, as `cellForRow(at:)`: `nil` for a row off screen.
    ///
    /// - Parameter path: A row.
    public func cell(at path: ElementPath) -> HeadlessReusableView? {
        visibleCells.first { $0.path == path }?.cell
    }

    /// The header on screen of a section, or `nil` when the section is not on screen or has none.
    ///
    /// - Parameter section: A section.
    public func header(inSection section: Int) -> HeadlessReusableView? {
        visibleSupplementaryViews.first { $0.kind == .header && $0.section == section }?.view
    }

    /// The footer on screen of a section, or `nil` when the section is not on screen or has none.
    ///
    /// - Parameter section: A section.
    public func footer(inSection section: Int) -> HeadlessReusableView? {
        visibleSupplementaryViews.first { $0.kind == .footer && $0.section == section }?.view
    }

    /// Scrolls so that `row`, counted across sections, is the first on screen (clamped to the
    /// content), and lays out: rows that leave the screen give their cells to the reuse pool, rows
    /// that come on screen ask the source for theirs.
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

    /// Shows the rows on screen with their cells, and their sections' headers and footers: the
    /// first call asks the source for every cell on screen; later calls keep the cells of rows
    /// that stay on screen and ask only for the rows that come on screen (after a scroll, or when
    /// the content grew or shrank around the screen).
    public func layout() {
        hasLaidOut = true
        var carried: [ElementPath: HeadlessReusableView] = [:]
        for entry in visibleCells { carried[entry.path] = entry.cell }
        var headers: [SupplementaryKey: HeadlessReusableView] = [:]
        for entry in visibleSupplementaryViews {
            headers[SupplementaryKey(kind: entry.kind, section: entry.section)] = entry.view
        }
        layOut(carrying: carried, leaving: [], supplementary: headers, leavingSupplementary: [], afterBatch: false)
    }

    /// Follows one change of the view's screen.
    private func viewChanged(_ change: _HeadlessLayoutChange) {
        guard hasLaidOut else { return }
        switch change {
        case .reloaded:
            // Every cell leaves, then the rows on screen ask for cells again (C2, C3, C5).
            let leaving = visibleCells.map { Leaving(path: $0.path, cell: $0.cell) }
            let leavingViews = visibleSupplementaryViews.map(\.view)
            layOut(
                carrying: [:], leaving: leaving, supplementary: [:], leavingSupplementary: leavingViews,
                afterBatch: false)
        case .carried(let items, let sections):
            carry(items: items, sections: sections)
        case .reconfigured(let paths):
            reconfigure(paths)
        case .reconfiguredSupplementaryViews(let sections):
            let wanted = Set(sections)
            for entry in visibleSupplementaryViews where wanted.contains(entry.section) {
                source.configureSupplementary(entry.view, inSection: entry.section)
            }
        }
    }

    /// Carries the cells through a batch or a drag (C1), then lays out.
    private func carry(items origins: [[ElementPath?]], sections sectionOrigins: [Int?]) {
        var cellAt: [ElementPath: HeadlessReusableView] = [:]
        for entry in visibleCells { cellAt[entry.path] = entry.cell }
        var carried: [ElementPath: HeadlessReusableView] = [:]
        for (section, items) in origins.enumerated() {
            for (item, origin) in items.enumerated() {
                guard let origin, let cell = cellAt.removeValue(forKey: origin) else { continue }
                carried[ElementPath(item: item, section: section)] = cell
            }
        }
        // Deleted and reloaded rows' cells leave, at their paths before the batch.
        let leaving = cellAt.map { Leaving(path: $0.key, cell: $0.value) }
        // A section the batch neither deletes nor reloads keeps its header and footer.
        var targetOfSource: [Int: Int] = [:]
        for (target, source) in sectionOrigins.enumerated() { if let source { targetOfSource[source] = target } }
        var headers: [SupplementaryKey: HeadlessReusableView] = [:]
        var leavingViews: [HeadlessReusableView] = []
        for entry in visibleSupplementaryViews {
            if let target = targetOfSource[entry.section] {
                headers[SupplementaryKey(kind: entry.kind, section: target)] = entry.view
            } else {
                leavingViews.append(entry.view)
            }
        }
        layOut(
            carrying: carried, leaving: leaving, supplementary: headers, leavingSupplementary: leavingViews,
            afterBatch: true)
    }

    /// Configures the cells of the rows on screen among `paths` again, keeping them (C4).
    private func reconfigure(_ paths: [ElementPath]) {
        for path in paths {
            guard let cell = cell(at: path) else { continue }
            let identifier = source.cellIdentifier(at: path)
            precondition(
                identifier == cell.reuseIdentifier,
                "HeadlessCellHost: reconfigure of row \(path) dequeues identifier \(identifier), but its cell has \(cell.reuseIdentifier); a reconfigure must keep the cell type (reload the row instead)"
            )
            configure(cell, at: path)
        }
    }

    /// A cell that leaves the screen, and the path it tells the source it left from.
    private struct Leaving {
        var path: ElementPath
        var cell: HeadlessReusableView
    }

    /// Shows the rows on screen: each keeps the cell `carrying` gives it, the others get one from
    /// the source; cells of rows off screen leave, with those in `leaving`.
    ///
    /// After a scroll or a reload, the leaving cells enter the reuse pool first, so the new rows
    /// reuse them; after a batch, they enter it once the new rows have their cells, as they
    /// animate out on a device.
    private func layOut(
        carrying carried: [ElementPath: HeadlessReusableView], leaving: [Leaving],
        supplementary carriedViews: [SupplementaryKey: HeadlessReusableView],
        leavingSupplementary: [HeadlessReusableView],
        afterBatch: Bool
    ) {
        let total = totalRowCount
        firstVisibleRow = max(0, min(firstVisibleRow, total - visibleRowCount))
        let paths = self.paths(from: firstVisibleRow, count: min(visibleRowCount, total))
        var carried = carried
        var next: [VisibleCell] = []
        var pending: [Int] = []
        for path in paths {
            if let cell = carried.removeValue(forKey: path) {
                next.append((path, cell))
            } else {
                pending.append(next.count)
                next.append((path, placeholder))
            }
        }
        // Cells of rows now off screen leave too, at their paths now; all leave in the order of
        // their rows before the change.
        var pushedOff = carried.map { Leaving(path: $0.key, cell: $0.value) }
        pushedOff.sort { $0.path < $1.path }
        let before = Dictionary(
            visibleCells.map { (ObjectIdentifier($0.cell), $0.path) }, uniquingKeysWith: { first, _ in first })
        var allLeaving = leaving + pushedOff
        allLeaving.sort {
            (before[ObjectIdentifier($0.cell)] ?? $0.path) < (before[ObjectIdentifier($1.cell)] ?? $1.path)
        }
        if !afterBatch { release(allLeaving) }
        for index in pending {
            let cell = dequeueCell(source.cellIdentifier(at: next[index].path))
            configure(cell, at: next[index].path)
            next[index].cell = cell
        }
        if afterBatch { release(allLeaving) }
        visibleCells = next
        for index in pending { source.handle(.willDisplay, at: next[index].path) }
        layOutSupplementaryViews(
            inSections: sectionsOnScreen(showing: paths), carrying: carriedViews, leaving: leavingSupplementary,
            afterBatch: afterBatch)
        showSelection()
    }

    /// Tells the source that cells left the screen, and puts them in the reuse pool.
    private func release(_ leaving: [Leaving]) {
        for entry in leaving {
            source.handle(.didEndDisplaying, at: entry.path)
            cellQueue.enqueue(entry.cell)
        }
    }

    private func layOutSupplementaryViews(
        inSections sections: Range<Int>, carrying carried: [SupplementaryKey: HeadlessReusableView],
        leaving: [HeadlessReusableView], afterBatch: Bool
    ) {
        var carried = carried
        var next: [VisibleSupplementaryView] = []
        var pending: [(index: Int, identifier: String)] = []
        for section in sections {
            for kind in [SupplementaryKind.header, .footer] {
                guard let identifier = source.supplementaryIdentifier(kind, inSection: section) else { continue }
                if let view = carried.removeValue(forKey: SupplementaryKey(kind: kind, section: section)) {
                    next.append((kind, section, view))
                } else {
                    pending.append((next.count, identifier))
                    next.append((kind, section, placeholder))
                }
            }
        }
        let allLeaving =
            leaving
            + carried.sorted {
                ($0.key.section, $0.key.kind == .footer ? 1 : 0) < ($1.key.section, $1.key.kind == .footer ? 1 : 0)
            }.map(\.value)
        if !afterBatch { for view in allLeaving { supplementaryQueue.enqueue(view) } }
        for (index, identifier) in pending {
            let view =
                supplementaryQueue.dequeue(identifier)
                ?? supplementaryQueue.make(HeadlessCell<Source.Section>.self, identifier: identifier)
            source.configureSupplementary(view, inSection: next[index].section)
            next[index].view = view
        }
        if afterBatch { for view in allLeaving { supplementaryQueue.enqueue(view) } }
        visibleSupplementaryViews = next
    }

    /// Marks the cells on screen as selected or not, from the view's selection.
    private func showSelection() {
        guard let view = selectionView else { return }
        let selected = Set(view.selectedPaths)
        for entry in visibleCells { entry.cell.isSelected = selected.contains(entry.path) }
    }

    // MARK: - Internals

    private lazy var placeholder = HeadlessReusableView(reuseIdentifier: "")

    private var totalRowCount: Int {
        (0..<source.numberOfSections).reduce(0) { $0 + source.numberOfItems(inSection: $1) }
    }

    private func configure(_ cell: HeadlessReusableView, at path: ElementPath) {
        cell.configureCount += 1
        source.configure(cell, at: path)
    }

    private func requireOnScreen(_ path: ElementPath, method: String) {
        guard visiblePaths.contains(path) else {
            preconditionFailure(
                "HeadlessCellHost.\(method): row \(path) is not on screen; rows on screen: \(visiblePaths)")
        }
    }

    /// `count` paths from the flat row `first` on.
    private func paths(from first: Int, count: Int) -> [ElementPath] {
        var result: [ElementPath] = []
        var skipped = 0
        for section in 0..<source.numberOfSections {
            let rows = source.numberOfItems(inSection: section)
            if skipped + rows > first && result.count < count {
                for item in max(0, first - skipped)..<rows where result.count < count {
                    result.append(ElementPath(item: item, section: section))
                }
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

    private func dequeueCell(_ identifier: String) -> HeadlessReusableView {
        if let cell = cellQueue.dequeue(identifier) { return cell }
        guard let cellClass = cellQueue.registry[identifier] ?? fallbackCellClass?(identifier) else {
            preconditionFailure(
                "HeadlessCellHost: unable to dequeue a cell with identifier \(identifier) - "
                    + "must register a class for the identifier; registered: \(cellQueue.registry.keys.sorted())")
        }
        createdCellCount += 1
        return cellQueue.make(cellClass, identifier: identifier)
    }
}

/// A header or footer on screen, by its kind and its section.
private struct SupplementaryKey: Hashable {
    var kind: SupplementaryKind
    var section: Int
}

/// Registered classes and reusable cells, by reuse identifier.
@MainActor
struct _ReuseQueue {
    var registry: [String: HeadlessReusableView.Type] = [:]
    private var pool: [String: [HeadlessReusableView]] = [:]

    /// Keeps a cell that left the screen for reuse.
    mutating func enqueue(_ cell: HeadlessReusableView) {
        pool[cell.reuseIdentifier, default: []].append(cell)
    }

    /// The cell that entered the pool last, prepared for reuse, or `nil` when the pool has none.
    mutating func dequeue(_ identifier: String) -> HeadlessReusableView? {
        guard let cell = pool[identifier]?.popLast() else { return nil }
        cell.prepareForReuse()
        return cell
    }

    /// A new cell: of the class registered for `identifier`, else of `fallback`.
    func make(_ fallback: HeadlessReusableView.Type, identifier: String) -> HeadlessReusableView {
        (registry[identifier] ?? fallback).init(reuseIdentifier: identifier)
    }
}
