import RippleDiff

/// The state machine shared by ``HeadlessTableView`` and ``HeadlessCollectionView``: the displayed
/// values, the cached before-state, batch nesting, validation and recovery.
///
/// It is a class, not a struct stored in the view, so that a data source or a handler that calls
/// back into the view never overlaps an exclusive access to the view's state.
final class _HeadlessListEngine<Element> {
    /// The public type, for precondition messages: `HeadlessTableView`.
    let typeName: String

    /// Whether `reloadData()` only marks the view as needing a reload, like `UICollectionView`,
    /// instead of reading the data source at once, like `UITableView`.
    let reloadsLazily: Bool

    /// The rules and wording.
    var validator: BatchUpdateValidator

    /// Reads the data source.
    let readDataSource: () -> [[Element]]

    /// Called with each violation after the view has recovered.
    var violationHandler: ((BatchUpdateViolation) -> Void)?

    /// The values on screen. Between batches, also the cached before-state of the next batch (R14).
    private(set) var displayed: [[Element]] = []

    /// Whether the data source must be read before ``displayed`` can be used.
    private(set) var needsReload = true

    /// The nesting depth of begin/end and `performBatchUpdates` (R2).
    private(set) var depth = 0

    /// The operations of the open batch, in call order.
    private var pending = BatchUpdate()

    /// The completions of the `performBatchUpdates` calls of the open batch.
    private var completions: [(Bool) -> Void] = []

    /// Whether `reloadData()` was called inside the open batch (R15).
    private var reloadedInsideBatch = false

    /// The list source that adopted the view as its data source, held weakly as UIKit does.
    private(set) weak var adoptedSource: AnyObject?

    /// How many times a list source adopted the view.
    private(set) var adoptionCount = 0

    private(set) var violations: [BatchUpdateViolation] = []
    private(set) var warnings: [BatchUpdateWarning] = []
    private(set) var events: [HeadlessViewEvent] = []

    init(
        typeName: String, reloadsLazily: Bool, validator: BatchUpdateValidator,
        readDataSource: @escaping () -> [[Element]]
    ) {
        self.typeName = typeName
        self.reloadsLazily = reloadsLazily
        self.validator = validator
        self.readDataSource = readDataSource
    }

    // MARK: - Reading

    /// Reads the data source if the view has not since its creation or a lazy `reloadData()`,
    /// as a view's layout pass does.
    func loadIfNeeded() {
        guard needsReload else { return }
        let sections = readDataSource()
        displayed = sections
        needsReload = false
    }

    /// The displayed values, loading them first if needed.
    var sections: [[Element]] {
        loadIfNeeded()
        return displayed
    }

    func numberOfItems(inSection section: Int, method: String) -> Int {
        let sections = self.sections
        precondition(
            sections.indices.contains(section),
            "\(typeName).\(method): section \(section) is out of range 0..<\(sections.count)")
        return sections[section].count
    }

    func element(at path: ElementPath, method: String, itemWord: String) -> Element {
        let sections = self.sections
        precondition(
            sections.indices.contains(path.section),
            "\(typeName).\(method): section \(path.section) of index path \(path) is out of range 0..<\(sections.count)"
        )
        let items = sections[path.section]
        precondition(
            items.indices.contains(path.item),
            "\(typeName).\(method): \(itemWord) \(path.item) of index path \(path) is out of range 0..<\(items.count) in section \(path.section)"
        )
        return items[path.item]
    }

    /// Records that `source` adopted the view (``ListView/adoptDataSource(_:)``).
    func adopt(_ source: AnyObject) {
        adoptedSource = source
        adoptionCount += 1
    }

    /// Moves a displayed value at once, outside any batch, as a view does when the user drags a
    /// row to a new place; the view then tells its data source.
    func moveInteractively(from source: ElementPath, to destination: ElementPath, method: String) {
        loadIfNeeded()
        precondition(depth == 0, "\(typeName).\(method): a drag cannot happen inside a batch")
        precondition(
            displayed.indices.contains(source.section) && displayed[source.section].indices.contains(source.item),
            "\(typeName).\(method): \(source) is not on screen")
        let limit = displayed.indices.contains(destination.section)
            ? displayed[destination.section].count - (destination.section == source.section ? 1 : 0) : -1
        precondition(
            destination.item >= 0 && destination.item <= limit,
            "\(typeName).\(method): \(destination) is not a place the row can be dropped")
        let value = displayed[source.section].remove(at: source.item)
        displayed[destination.section].insert(value, at: destination.item)
    }

    func clearDiagnostics() {
        violations.removeAll()
        warnings.removeAll()
        events.removeAll()
    }

    // MARK: - Reloading (R15)

    func reloadData() {
        guard depth == 0 else {
            reloadedInsideBatch = true
            recordMisuse(
                BatchUpdateViolation(
                    rule: .r15, messageID: nil,
                    message:
                        "reloadData() called inside a batch (update depth \(depth)); UIKit forbids it inside beginUpdates()/endUpdates() or performBatchUpdates(_:completion:). The batch is abandoned and the view reloads when it ends."
                ))
            return
        }
        events.append(.reloadData)
        if reloadsLazily {
            needsReload = true
        } else {
            needsReload = true
            loadIfNeeded()
        }
    }

    // MARK: - Batches (R2, R14)

    func beginUpdates() {
        // A view that still needs a reload reads its data source now, before the updates run:
        // mutating the data source before the batch then makes before equal after (R14).
        if depth == 0 { loadIfNeeded() }
        depth += 1
    }

    func endUpdates() {
        guard depth > 0 else {
            recordMisuse(
                BatchUpdateViolation(
                    rule: .r2, messageID: nil,
                    message: "endUpdates() called without a matching beginUpdates(); the call is ignored."))
            return
        }
        depth -= 1
        if depth == 0 { commit() }
    }

    func performBatchUpdates(_ updates: (() -> Void)?, completion: ((Bool) -> Void)?) {
        beginUpdates()
        updates?()
        if let completion { completions.append(completion) }
        endUpdates()
    }

    /// Records an operation; outside a batch it is a batch of its own (R2).
    func record(_ operations: [BatchUpdate.Operation]) {
        if depth == 0 {
            beginUpdates()
            pending.operations.append(contentsOf: operations)
            endUpdates()
        } else {
            pending.operations.append(contentsOf: operations)
        }
    }

    /// Validates and applies the outermost batch, or records the violation and recovers.
    private func commit() {
        let batch = pending
        let callbacks = completions
        pending = BatchUpdate()
        completions = []
        let after = readDataSource()

        if reloadedInsideBatch {
            reloadedInsideBatch = false
            displayed = after
            needsReload = false
            events.append(.reloadData)
            for callback in callbacks { callback(false) }
            return
        }

        let before = displayed
        let (result, plan) = validator._evaluate(
            batch, before: before.map(\.count), after: after.map(\.count))
        warnings.append(contentsOf: result.warnings)
        events.append(.batchUpdates(batch, result))
        if let plan {
            displayed = plan.applied(to: before, dataSource: after)
        } else {
            // Real UIKit raises NSInternalInconsistencyException here. Recover as an app's
            // fallback would: show what the data source reports.
            displayed = after
        }
        needsReload = false
        if let violation = result.violation {
            violations.append(violation)
            violationHandler?(violation)
        }
        for callback in callbacks { callback(plan != nil) }
    }

    private func recordMisuse(_ violation: BatchUpdateViolation) {
        violations.append(violation)
        events.append(.misuse(violation))
        violationHandler?(violation)
    }
}
