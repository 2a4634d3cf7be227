import RippleDiff

/// A table view without UIKit: it shows values from a data source, takes UIKit's batch updates,
/// and checks every batch against UIKit's rules, so a test on Linux proves that the updates would
/// not crash a real `UITableView`.
///
/// The view keeps the values it displays, section by section. At the end of the outermost batch it
/// reads the data source, validates the batch against the counts it cached at its last reload or
/// batch (R14) and, when UIKit would accept the batch, applies it the way UIKit does: deletes,
/// reloads and move sources name before positions; inserts and move destinations name after
/// positions; inserted and reloaded rows take the data source's new values; moved rows keep their
/// values; every other row keeps its place in order. If the batch describes the change, ``rows``
/// then equals the data source:
///
/// ```swift
/// var names = ["a", "b", "c"]
/// let tableView = HeadlessTableView { [names] }   // or a HeadlessViewDataSource
/// tableView.reloadData()
/// tableView.performBatchUpdates {
///     names = ["a", "c", "d"]
///     tableView.deleteRows(at: [ElementPath(item: 1, section: 0)])
///     tableView.insertRows(at: [ElementPath(item: 2, section: 0)])
/// }
/// XCTAssertNil(tableView.lastViolation)
/// XCTAssertEqual(tableView.rows, [names])
/// ```
///
/// # Violations
/// Where real UIKit raises `NSInternalInconsistencyException` and terminates the app, the headless
/// view records the ``BatchUpdateViolation`` (with UIKit's message) in ``violations``, calls
/// ``violationHandler``, and recovers by showing what the data source reports, as a `reloadData()`
/// fallback would. It never traps, so one test can check several batches.
///
/// # Timing
/// - The view reads its data source the first time it needs it (an accessor, ``layoutIfNeeded()``,
///   a batch), then on ``reloadData()``, which reads at once as `UITableView` does, and at the end
///   of each outermost batch.
/// - Operations called outside a batch form a batch of their own (R2).
/// - Completions run synchronously at the end of the outermost batch, with `true` when the batch
///   was applied and `false` when it was rejected or abandoned.
///
/// # Thread Safety
/// Not `Sendable`. Use a view from one thread or actor, as UIKit requires the main thread.
public final class HeadlessTableView<Row> {
    let engine: _HeadlessListEngine<Row>

    /// Creates a table view that reads its sections from a closure.
    ///
    /// - Parameters:
    ///   - countMismatchStyle: The message for a wrong number of rows: classic M24 (the default)
    ///     or the newer multi-line M25.
    ///   - sections: Returns the values to show, one array per section. The view holds it strongly.
    public convenience init(
        countMismatchStyle: BatchUpdateValidator.CountMismatchStyle = .classic,
        sections: @escaping () -> [[Row]]
    ) {
        self.init(countMismatchStyle: countMismatchStyle, reading: { _DataSourceRead(sections: sections()) })
    }

    /// Creates a table view that reads its data source a count and a row at a time, as UIKit's
    /// `numberOfRowsInSection` and `cellForRowAt` do: a batch then costs what it changes, not the
    /// number of rows, and reads only the rows it inserts or reloads.
    ///
    /// ```swift
    /// var titles = ["a", "b", "c"]
    /// let longTable = HeadlessTableView(rowCounts: { [titles.count] }, row: { titles[$0.item] })
    /// longTable.reloadData()
    /// ```
    ///
    /// - Parameters:
    ///   - countMismatchStyle: The message for a wrong number of rows: classic M24 (the default)
    ///     or the newer multi-line M25.
    ///   - rowCounts: Returns the number of rows of each section now. The view holds it strongly.
    ///   - row: Returns the value of the row at a path now, within `rowCounts`. The view holds it
    ///     strongly.
    public convenience init(
        countMismatchStyle: BatchUpdateValidator.CountMismatchStyle = .classic,
        rowCounts: @escaping () -> [Int], row: @escaping (ElementPath) -> Row
    ) {
        self.init(countMismatchStyle: countMismatchStyle) { _DataSourceRead(counts: rowCounts(), element: row) }
    }

    /// Creates a table view that reads its data source through `read`.
    init(
        countMismatchStyle: BatchUpdateValidator.CountMismatchStyle = .classic,
        reading read: @escaping () -> _DataSourceRead<Row>
    ) {
        engine = _HeadlessListEngine(
            typeName: "HeadlessTableView", reloadsLazily: false,
            validator: BatchUpdateValidator(flavor: .tableView, countMismatchStyle: countMismatchStyle),
            readDataSource: read)
    }

    /// Creates a table view that reads its sections from a data source, held weakly as UIKit does.
    ///
    /// - Parameters:
    ///   - dataSource: The data source. Once it is gone the view reads no section.
    ///   - countMismatchStyle: The message for a wrong number of rows: classic M24 (the default)
    ///     or the newer multi-line M25.
    public convenience init(
        dataSource: some HeadlessViewDataSource<Row>,
        countMismatchStyle: BatchUpdateValidator.CountMismatchStyle = .classic
    ) {
        self.init(countMismatchStyle: countMismatchStyle) { [weak dataSource] in
            dataSource?.sectionsForHeadlessView() ?? []
        }
    }

    // MARK: - Configuration

    /// The message for a wrong number of rows: classic M24 or the newer multi-line M25.
    public var countMismatchStyle: BatchUpdateValidator.CountMismatchStyle {
        get { engine.validator.countMismatchStyle }
        set { engine.validator.countMismatchStyle = newValue }
    }

    /// Called with each violation, after the view has recorded it and recovered.
    ///
    /// The handler may use the view. Real UIKit would raise `NSInternalInconsistencyException`
    /// with the violation's message instead.
    public var violationHandler: ((BatchUpdateViolation) -> Void)? {
        get { engine.violationHandler }
        set { engine.violationHandler = newValue }
    }

    /// Whether the view is in a window, as a list source asks before it animates. `true` unless a
    /// test sets it to `false` to play a view that is off screen.
    public var isInWindow = true

    // MARK: - Displayed state

    /// The rows on screen, section by section.
    ///
    /// Outside a batch this is also the before-state of the next batch. Inside a batch it still
    /// shows the state before the batch.
    public var rows: [[Row]] { engine.sections }

    /// The number of sections on screen.
    public var numberOfSections: Int { engine.numberOfSections }

    /// The number of rows on screen in a section.
    ///
    /// - Parameter section: A section on screen.
    /// - Returns: The number of rows in `section`.
    /// - Precondition: `section` is in `0..<numberOfSections`.
    public func numberOfRows(inSection section: Int) -> Int {
        engine.numberOfItems(inSection: section, method: "numberOfRows(inSection:)")
    }

    /// The row on screen at a path, as `cellForRow(at:)` would configure it.
    ///
    /// - Parameter path: A path on screen.
    /// - Returns: The row's value.
    /// - Precondition: `path` names a row on screen.
    public func row(at path: ElementPath) -> Row {
        engine.element(at: path, method: "row(at:)", itemWord: "row")
    }

    // MARK: - Data source

    /// The list source that adopted the view as its data source and delegate, held weakly as UIKit
    /// holds a data source; `nil` before any did (or once it is gone).
    ///
    /// A Ripple list source adopts its view when it starts driving it, as it installs its adapter
    /// on a `UITableView`.
    public var adoptedSource: AnyObject? { engine.adoptedSource }

    /// How many times a list source adopted the view: once when it starts driving it, and once
    /// more each time its forwarding delegate changes (UIKit reads which methods a delegate
    /// implements only when it is assigned).
    public var adoptionCount: Int { engine.adoptionCount }

    // MARK: - Selection

    /// Whether several rows may be selected at once, as `allowsMultipleSelection`. `false` by
    /// default: selecting a row deselects the others.
    public var allowsMultipleSelection: Bool {
        get { engine.allowsMultipleSelection }
        set { engine.allowsMultipleSelection = newValue }
    }

    /// The selected rows' paths on screen, in order, as `indexPathsForSelectedRows`.
    ///
    /// Batches carry the selection along as `UITableView` does: a moved or kept row stays selected
    /// at its new path, a deleted or reloaded one leaves the selection; ``reloadData()`` and a
    /// rejected batch clear it. A ``HeadlessCellHost`` given this view selects and deselects
    /// rows when it plays the user's taps.
    public var selectedPaths: [ElementPath] { engine.selectedPaths }

    /// Selects the row at `path`, deselecting the others unless ``allowsMultipleSelection``, as
    /// `selectRow(at:animated:scrollPosition:)` does: the data source hears nothing of it.
    ///
    /// - Parameter path: A row on screen.
    /// - Precondition: `path` is on screen.
    public func selectRow(at path: ElementPath) { engine.select(path, method: "selectRow(at:)") }

    /// Deselects the row at `path`, as `deselectRow(at:animated:)` does: the data source hears
    /// nothing of it.
    ///
    /// - Parameter path: A row on screen.
    /// - Precondition: `path` is on screen.
    public func deselectRow(at path: ElementPath) { engine.deselect(path, method: "deselectRow(at:)") }

    // MARK: - Gestures

    /// Plays the user dragging a row from `path` and dropping it at `newPath`: the row moves on
    /// screen at once, with no batch, as `UITableView` moves it before it calls its data source's
    /// `tableView(_:moveRowAt:to:)`. Call the list source's `moveItem(from:to:)` next, as UIKit does.
    ///
    /// - Parameters:
    ///   - path: The row's path on screen.
    ///   - newPath: Where it is dropped: in its own section an index below the section's count, in
    ///     another section an index up to that section's count.
    /// - Precondition: No batch is open, and both paths are on screen.
    public func dragRow(at path: ElementPath, to newPath: ElementPath) {
        engine.moveInteractively(from: path, to: newPath, method: "dragRow(at:to:)")
    }

    // MARK: - Diagnostics

    /// Every violation so far, oldest first: rejected batches and misuse.
    public var violations: [BatchUpdateViolation] { engine.violations }

    /// The most recent violation, or `nil`.
    public var lastViolation: BatchUpdateViolation? { engine.violations.last }

    /// Every warning of the batches so far, oldest first (R3f, R13).
    public var warnings: [BatchUpdateWarning] { engine.warnings }

    /// What the view did, oldest first: reloads, batches with their results, misuse.
    public var events: [HeadlessViewEvent] { engine.events }

    /// Forgets ``violations``, ``warnings`` and ``events``.
    public func clearDiagnostics() { engine.clearDiagnostics() }

    /// Whether a batch is open (between the outermost begin and end).
    public var hasUncommittedUpdates: Bool { engine.depth > 0 }

    // MARK: - Reloading

    /// Reads the data source and shows it.
    ///
    /// Inside a batch, UIKit forbids it (R15): the view records a misuse, abandons the batch and
    /// reloads when the batch ends.
    public func reloadData() { engine.reloadData() }

    /// Reads the data source if the view has not done so yet, as a layout pass does.
    public func layoutIfNeeded() { engine.loadIfNeeded() }

    // MARK: - Batches

    /// Opens a batch, or a nested batch inside an open one. Nested batches merge into the
    /// outermost one (R2).
    public func beginUpdates() { engine.beginUpdates() }

    /// Closes a batch. Closing the outermost batch reads the data source, validates the batch and
    /// applies it, or records the violation and recovers.
    ///
    /// - Complexity: O(*n* + *k* log *k*) for *n* rows and *k* operations.
    public func endUpdates() { engine.endUpdates() }

    /// Runs `updates` as one batch, nested inside an open batch if there is one.
    ///
    /// Update the data source inside `updates`, not before (R14).
    ///
    /// - Parameters:
    ///   - updates: Updates the data source and calls the insert, delete, move and reload methods.
    ///   - completion: Called when the outermost batch ends: `true` when it was applied, `false`
    ///     when it was rejected or abandoned.
    public func performBatchUpdates(_ updates: (() -> Void)?, completion: ((Bool) -> Void)? = nil) {
        engine.performBatchUpdates(updates, completion: completion)
    }

    /// Makes every call recorded in `batch`, as one batch or inside the open one.
    ///
    /// - Parameter batch: The calls to make.
    public func apply(_ batch: BatchUpdate) { engine.apply(batch) }

    // MARK: - Sections

    /// Inserts sections, given in after coordinates.
    ///
    /// - Parameter sections: The new sections' indexes once the batch is applied.
    public func insertSections(_ sections: [Int]) { engine.record(sections.map { .insertSection($0) }) }

    /// Deletes sections, given in before coordinates.
    ///
    /// - Parameter sections: The sections' indexes before the batch.
    public func deleteSections(_ sections: [Int]) { engine.record(sections.map { .deleteSection($0) }) }

    /// Reloads sections, given in before coordinates: a delete plus an insert (R3).
    ///
    /// - Parameter sections: The sections' indexes before the batch.
    public func reloadSections(_ sections: [Int]) { engine.record(sections.map { .reloadSection($0) }) }

    /// Moves a section.
    ///
    /// - Parameters:
    ///   - section: Its index before the batch.
    ///   - newSection: Its index after the batch.
    public func moveSection(_ section: Int, toSection newSection: Int) {
        engine.record([.moveSection(section, to: newSection)])
    }

    // MARK: - Rows

    /// Inserts rows, given in after coordinates.
    ///
    /// - Parameter paths: The new rows' paths once the batch is applied.
    public func insertRows(at paths: [ElementPath]) { engine.record(paths.map { .insertItem($0) }) }

    /// Deletes rows, given in before coordinates.
    ///
    /// - Parameter paths: The rows' paths before the batch.
    public func deleteRows(at paths: [ElementPath]) { engine.record(paths.map { .deleteItem($0) }) }

    /// Reloads rows, given in before coordinates: a delete plus an insert at the path UIKit computes
    /// from the batch's deletes and inserts, ignoring moves (R3).
    ///
    /// - Parameter paths: The rows' paths before the batch.
    public func reloadRows(at paths: [ElementPath]) { engine.record(paths.map { .reloadItem($0) }) }

    /// Moves a row.
    ///
    /// - Parameters:
    ///   - path: Its path before the batch.
    ///   - newPath: Its path after the batch.
    public func moveRow(at path: ElementPath, to newPath: ElementPath) {
        engine.record([.moveItem(path, to: newPath)])
    }

    /// Reconfigures rows in place, as `reconfigureRows(at:)` does (iOS 15): the cells of those
    /// rows that are on screen are configured again by the data source, keeping the cell (no
    /// `prepareForReuse()`, no display callbacks), and the rows read their values again.
    ///
    /// Ripple calls it in a pass of its own after a batch, with the rows' final paths (R17):
    /// inside an open batch, or with a path that names no row, it records a violation and does
    /// nothing.
    ///
    /// - Parameter paths: The rows' paths.
    public func reconfigureRows(at paths: [ElementPath]) { engine.reconfigure(paths, method: "reconfigureRows(at:)") }

    /// Configures the headers and footers on screen of `sections` again in place, keeping each
    /// view, as Ripple's UIKit glue does with `headerView(forSection:)` and
    /// `footerView(forSection:)`.
    ///
    /// Inside an open batch, or with a section that does not exist, it records a violation and
    /// does nothing.
    ///
    /// - Parameter sections: The sections' indices now.
    public func reconfigureSupplementaryViews(inSections sections: [Int]) {
        engine.reconfigureSupplementaryViews(inSections: sections)
    }
}

@available(*, unavailable)
extension HeadlessTableView: Sendable {}
