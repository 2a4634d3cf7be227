import RippleDiff

/// A ``ListView`` over a ``SequentialRowView``: it takes a list source's batches, which name rows
/// before and after the whole batch as UIKit does, and makes the calls that describe them one after
/// another, as `NSTableView` reads them.
///
/// <!-- swift
/// import RippleTesting
///
/// let tableView = HeadlessSequentialTableView<String> { [] }
/// final class ShelfPresenter: Sendable {
///     let books = ObservableCollection(["Dune", "Emma"])
/// }
/// let presenter = ShelfPresenter()
/// -->
/// ```swift
/// let rows = SequentialListView(tableView)   // an NSTableView, or a HeadlessSequentialTableView
/// let source = TableViewSource(view: rows, collection: presenter.books)
/// ```
///
/// With an `NSTableView`, the source makes the table's adapter its data source and delegate, and
/// the adapter keeps this list view alive (the source holds its view weakly).
///
/// Each batch becomes one `beginUpdates()`/`endUpdates()` pair: the rows the batch deletes are
/// removed at once, moved rows move one at a time (``SequentialChangeset``), inserted rows are
/// inserted, and reloaded rows reload where they end up. Calls made outside `performBatchUpdates`
/// form a batch of their own; nested batches join the outermost one.
///
/// A batch the view would reject (a row out of range, named twice, or counts that disagree) is not
/// applied: the view reloads, and ``Diagnostics`` reports it as `invalidBatch`.
///
/// The view has one section. It serves the flat sources (`TableViewSource`, `ListSource`); section
/// calls are programming errors and trap.
@MainActor
public final class SequentialListView: ListView {
    /// The view the calls go to, held weakly.
    public private(set) weak var rowView: (any SequentialRowView)?

    /// The calls of the batch being recorded, in UIKit's coordinates.
    private struct Batch {
        var sourceCount: Int
        var deletes: [Int] = []
        var inserts: [Int] = []
        var moves: [Changeset.OffsetPair] = []
        var reloads: [Int] = []
    }

    private var batch: Batch?

    /// Creates the list view of a sequential row view.
    ///
    /// - Parameter rowView: The view, held weakly: keep it alive elsewhere (its window does).
    public init(_ rowView: any SequentialRowView) {
        self.rowView = rowView
    }

    /// One: a sequential row view has one section.
    public var numberOfSections: Int { 1 }

    /// The number of rows the view shows now.
    ///
    /// - Parameter section: Must be 0.
    public func numberOfItems(inSection section: Int) -> Int {
        checkSection(section, "numberOfItems(inSection:)")
        return rowView?.numberOfRows ?? 0
    }

    /// Whether the view is in a window; `false` once it has gone.
    public var isInWindow: Bool { rowView?.isInWindow ?? false }

    /// Reloads the view.
    public func reloadData() { rowView?.reloadData() }

    /// Makes `source` the row view's data source and delegate
    /// (``SequentialRowView/adoptDataSource(_:through:)``).
    ///
    /// - Parameter source: The list source that drives the view.
    /// - Returns: What the row view returns: for `NSTableView`, its adapter, which also keeps this
    ///   list view alive.
    public func adoptDataSource<Source: ListDataSource>(_ source: Source) -> AnyObject? {
        rowView?.adoptDataSource(source, through: self)
    }

    /// Records the calls `updates` makes, then makes the sequential calls that describe them.
    ///
    /// - Parameters:
    ///   - updates: Updates the data source and makes the insert, delete, move and reload calls.
    ///   - completion: Called at once, with `true` when the batch was applied and `false` when the
    ///     view reloaded instead (or has gone).
    /// - Complexity: O(*n* + *c* log *c* + *k* log *n*) for *n* rows, *c* calls and *k* moves, plus the
    ///   view's own work.
    public func performBatchUpdates(_ updates: (() -> Void)?, completion: ((Bool) -> Void)?) {
        guard batch == nil else {
            // Nested: the calls join the outermost batch.
            updates?()
            completion?(true)
            return
        }
        guard let rowView else {
            updates?()
            completion?(false)
            return
        }
        batch = Batch(sourceCount: rowView.numberOfRows)
        updates?()
        guard let recorded = batch else { return }
        batch = nil
        // Not `completion?(apply(…))`: optional chaining would skip the call when there is no completion.
        let applied = apply(recorded, to: rowView)
        completion?(applied)
    }

    /// Inserts rows, in after coordinates (section 0).
    public func insertItems(at paths: [ElementPath]) {
        record("insertItems(at:)", paths) { $0.inserts += paths.map(\.item) }
    }

    /// Deletes rows, in before coordinates (section 0).
    public func deleteItems(at paths: [ElementPath]) {
        record("deleteItems(at:)", paths) { $0.deletes += paths.map(\.item) }
    }

    /// Reloads rows, in before coordinates (section 0).
    public func reloadItems(at paths: [ElementPath]) {
        record("reloadItems(at:)", paths) { $0.reloads += paths.map(\.item) }
    }

    /// Moves a row from its before position to its after position (section 0).
    public func moveItem(at path: ElementPath, to newPath: ElementPath) {
        record("moveItem(at:to:)", [path, newPath]) {
            $0.moves.append(Changeset.OffsetPair(source: path.item, target: newPath.item))
        }
    }

    /// Configures rows on screen again in place (section 0), outside any batch.
    ///
    /// - Parameter paths: The rows' paths, as the rows are now.
    public func reconfigureItems(at paths: [ElementPath]) {
        for path in paths { checkSection(path.section, "reconfigureItems(at:)") }
        rowView?.reconfigureRows(paths.map(\.item))
    }

    /// Traps: a sequential row view has one section.
    public func insertSections(_ sections: [Int]) { sectionCallTraps("insertSections(_:)", sections) }
    /// Traps: a sequential row view has one section.
    public func deleteSections(_ sections: [Int]) { sectionCallTraps("deleteSections(_:)", sections) }
    /// Traps: a sequential row view has one section.
    public func reloadSections(_ sections: [Int]) { sectionCallTraps("reloadSections(_:)", sections) }
    /// Traps: a sequential row view has one section.
    public func moveSection(_ section: Int, toSection newSection: Int) {
        sectionCallTraps("moveSection(_:toSection:)", [section, newSection])
    }

    // MARK: - Recording and applying

    /// Records one call in the current batch, or in a batch of its own.
    private func record(_ method: String, _ paths: [ElementPath], _ add: (inout Batch) -> Void) {
        for path in paths { checkSection(path.section, method) }
        if batch != nil {
            add(&batch!)
        } else if let rowView {
            var single = Batch(sourceCount: rowView.numberOfRows)
            add(&single)
            _ = apply(single, to: rowView)
        }
    }

    /// Makes the sequential calls of a recorded batch, or reloads the view when the batch is
    /// invalid. Returns whether the batch was applied.
    private func apply(_ recorded: Batch, to rowView: any SequentialRowView) -> Bool {
        if recorded.deletes.isEmpty && recorded.inserts.isEmpty && recorded.moves.isEmpty && recorded.reloads.isEmpty {
            return true
        }
        var changeset = Changeset(
            sourceCount: recorded.sourceCount,
            targetCount: recorded.sourceCount - recorded.deletes.count + recorded.inserts.count,
            deletes: recorded.deletes.sorted(), inserts: recorded.inserts.sorted(),
            moves: recorded.moves.sorted { $0.target < $1.target })
        if let failure = changeset.validationFailure() ?? reloadFailure(recorded.reloads, in: changeset) {
            Diagnostics.report(
                Diagnostic(
                    kind: .invalidBatch, source: "SequentialListView.performBatchUpdates(_:completion:)",
                    message: "the view would reject this batch (\(failure)); reloaded the view instead"))
            rowView.reloadData()
            return false
        }
        if !recorded.reloads.isEmpty {
            let landing = changeset.landingOffsets()
            changeset.updates = recorded.reloads.sorted().map { Changeset.OffsetPair(source: $0, target: landing[$0]) }
        }
        let steps = SequentialChangeset(validated: changeset)
        rowView.beginUpdates()
        if !steps.removals.isEmpty { rowView.removeRows(steps.removals) }
        for move in steps.moves { rowView.moveRow(at: move.source, to: move.target) }
        if !steps.insertions.isEmpty { rowView.insertRows(steps.insertions) }
        if !steps.reloads.isEmpty { rowView.reloadRows(steps.reloads) }
        rowView.endUpdates()
        return true
    }

    /// Why the reloads of a batch are invalid, or `nil`: each must name a row of the source once,
    /// and not one that the batch deletes or moves (UIKit's rule too).
    private func reloadFailure(_ reloads: [Int], in changeset: Changeset) -> String? {
        guard !reloads.isEmpty else { return nil }
        var named = [Bool](repeating: false, count: changeset.sourceCount)
        for offset in changeset.deletes { named[offset] = true }
        for move in changeset.moves { named[move.source] = true }
        for offset in reloads {
            guard offset >= 0 && offset < changeset.sourceCount else {
                return "reload \(offset) is out of range 0..<\(changeset.sourceCount)"
            }
            guard !named[offset] else { return "row \(offset) is reloaded and also deleted, moved or reloaded" }
            named[offset] = true
        }
        return nil
    }

    private func checkSection(_ section: Int, _ method: String) {
        precondition(section == 0, "SequentialListView.\(method): section \(section) is out of range 0..<1")
    }

    private func sectionCallTraps(_ method: String, _ sections: [Int]) -> Never {
        preconditionFailure(
            "SequentialListView.\(method): a sequential row view has one section, which cannot be inserted, "
                + "deleted, reloaded or moved; got \(sections)")
    }
}
