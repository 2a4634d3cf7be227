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
/// -->
/// ```swift
/// screen.register(BookCell.self)  // the screen's host is `screen.cells`
/// screen.settle()                 // renders the list and lays out the rows on screen
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
    public internal(set) var firstVisibleRow = 0

    /// The rows on screen and their cells, top to bottom.
    public internal(set) var visibleCells: [VisibleCell] = []

    /// The headers and footers on screen, top to bottom: for each section on screen its header,
    /// then its footer, when the source names an identifier for them.
    public internal(set) var visibleSupplementaryViews: [VisibleSupplementaryView] = []

    /// Every cell made so far.
    public internal(set) var createdCellCount = 0

    /// The view that keeps the selection, held weakly.
    private(set) weak var selectionView: (any _HeadlessSelecting)?
    /// The view whose screen the host follows, held weakly: a layout lays it out first.
    private(set) weak var observedView: (any _HeadlessLayoutObservable)?
    var cellQueue = _ReuseQueue()
    var supplementaryQueue = _ReuseQueue()
    /// Whether the first layout happened: before it the screen shows no cell, and the view's
    /// changes need none.
    var hasLaidOut = false

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
        let observedObject: AnyObject? = (view as? SequentialListView)?.rowView ?? view
        let observed = observedObject as? any _HeadlessLayoutObservable
        observedView = observed
        observed?.engineLayoutObserver = { [weak self] change in
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
    /// cell that cannot show its row's item through `Diagnostics`. The screens' `register(_:where:)`
    /// and `register(_:for:where:)` are the checked ways, and route the rows too.
    ///
    /// - Parameters:
    ///   - cellClass: The class to make cells of.
    ///   - identifier: The reuse identifier.
    package func register(_ cellClass: HeadlessReusableView.Type, forCellReuseIdentifier identifier: String) {
        cellQueue.registry[identifier] = cellClass
    }

    /// Registers a header or footer view class for a reuse identifier, as
    /// `register(_:forHeaderFooterViewReuseIdentifier:)` and
    /// `register(_:forSupplementaryViewOfKind:withReuseIdentifier:)`: what a screen's
    /// `register(header:where:)` and `register(footer:where:)` do, once they have routed the
    /// sections to the identifier. Headers and footers share the identifiers.
    ///
    /// - Parameters:
    ///   - viewClass: The class to make views of.
    ///   - identifier: The reuse identifier the source names.
    package func register(
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

    /// What a row on screen holds until the source gives it its cell, while the host lays out.
    lazy var placeholder = HeadlessReusableView(reuseIdentifier: "")
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
