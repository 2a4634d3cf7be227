import RippleDiff

// Why this file is long: it is one state machine, shared by both headless views: reloads, drags,
// selection, reconfigures and batches all write the same private(set) state, which split files
// would have to make writable module-wide. Its screen changes are in HeadlessLayoutChange.swift.

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

    /// Reads the data source: its counts now, and its values at paths of now.
    let readDataSource: () -> _DataSourceRead<Element>

    /// Called with each violation after the view has recovered.
    var violationHandler: ((BatchUpdateViolation) -> Void)?

    /// The values on screen, one persistent list per section, so that a batch changes only the
    /// rows it names. Between batches, also the cached before-state of the next batch (R14).
    private(set) var displayed: [ListSnapshot<Element>] = []

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

    /// The selected items, at their paths on screen. Batches carry them along as UIKit does:
    /// deleted and reloaded items leave the selection, moved and kept items stay selected where
    /// they go; a reload or a rejected batch clears it.
    private(set) var selection: Set<ElementPath> = []

    /// Whether several items may be selected at once.
    var allowsMultipleSelection = false

    private(set) var violations: [BatchUpdateViolation] = []
    private(set) var warnings: [BatchUpdateWarning] = []
    private(set) var events: [HeadlessViewEvent] = []

    /// Called with what changed on screen, after the displayed values changed and before any
    /// completion runs, as UIKit asks for the cells of a batch inside `endUpdates()`. A
    /// ``HeadlessCellHost`` sets it to carry its cells along with their rows.
    var layoutObserver: ((_HeadlessLayoutChange) -> Void)?

    init(
        typeName: String, reloadsLazily: Bool, validator: BatchUpdateValidator,
        readDataSource: @escaping () -> _DataSourceRead<Element>
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
        displayed = readDataSource().allSections()
        needsReload = false
        selection.removeAll()
    }

    /// The displayed values, loading them first if needed.
    ///
    /// - Complexity: O(*n*) for *n* items: it copies them out of the persistent lists.
    var sections: [[Element]] {
        loadIfNeeded()
        return displayed.map(Array.init)
    }

    /// The number of sections on screen, loading them first if needed.
    var numberOfSections: Int {
        loadIfNeeded()
        return displayed.count
    }

    func numberOfItems(inSection section: Int, method: String) -> Int {
        loadIfNeeded()
        let sections = displayed
        precondition(
            sections.indices.contains(section),
            "\(typeName).\(method): section \(section) is out of range 0..<\(sections.count)")
        return sections[section].count
    }

    func element(at path: ElementPath, method: String, itemWord: String) -> Element {
        loadIfNeeded()
        let sections = displayed
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
        let limit =
            displayed.indices.contains(destination.section)
            ? displayed[destination.section].count - (destination.section == source.section ? 1 : 0) : -1
        precondition(
            destination.item >= 0 && destination.item <= limit,
            "\(typeName).\(method): \(destination) is not a place the row can be dropped")
        let value = displayed[source.section].remove(at: source.item)
        displayed[destination.section].insert(value, at: destination.item)
        // The drag as a plan of one move, which carries the selection and the cells as a batch does.
        let sections = displayed.indices.map { Optional($0) }
        let plan = _BatchPlan(
            afterSources: sections, beforeTargets: sections, removedItems: [], addedItems: [],
            moves: [_ItemMove(from: source, to: destination)])
        if !selection.isEmpty { selection = Set(selection.compactMap(plan.destinations())) }
        layoutObserver?(.carried(plan.carry))
    }

    // MARK: - Selection

    /// Selects the item at `path`, or adds it to the selection when several may be selected; with
    /// single selection, any other item is deselected.
    func select(_ path: ElementPath, method: String) {
        requireOnScreen(path, method: method)
        if !allowsMultipleSelection { selection.removeAll() }
        selection.insert(path)
    }

    /// Deselects the item at `path`; an item that is not selected stays so.
    func deselect(_ path: ElementPath, method: String) {
        requireOnScreen(path, method: method)
        selection.remove(path)
    }

    /// The selected paths, in order.
    var selectedPaths: [ElementPath] { selection.sorted() }

    private func requireOnScreen(_ path: ElementPath, method: String) {
        loadIfNeeded()
        precondition(
            displayed.indices.contains(path.section) && displayed[path.section].indices.contains(path.item),
            "\(typeName).\(method): \(path) is not on screen; item counts: \(displayed.map(\.count))")
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
                    rule: .reloadDataOutsideBatches, messageID: nil,
                    message:
                        "reloadData() called inside a batch (update depth \(depth)); UIKit forbids it inside beginUpdates()/endUpdates() or performBatchUpdates(_:completion:). The batch is abandoned and the view reloads when it ends."
                ))
            return
        }
        events.append(.reloadData)
        selection.removeAll()
        needsReload = true
        if !reloadsLazily { loadIfNeeded() }
        layoutObserver?(.reloaded)
    }

    // MARK: - Reconfiguring (R17)

    /// Reconfigures items in place, as `reconfigureRows(at:)`/`reconfigureItems(at:)` do: the
    /// cells on screen are configured again, without a reuse and without display callbacks (C4).
    ///
    /// Ripple reconfigures in a pass of its own, after the structural batch, by the items' final
    /// paths (R17): inside an open batch, or for a path that names no item, the call is recorded
    /// as a violation and ignored.
    func reconfigure(_ paths: [ElementPath], method: String) {
        loadIfNeeded()
        guard depth == 0 else {
            recordMisuse(
                BatchUpdateViolation(
                    rule: .reconfigurePass, messageID: nil,
                    message:
                        "\(method) called inside a batch (update depth \(depth)); Ripple reconfigures in a pass of its own, after the structural batch, by the items' final index paths. The call is ignored."
                ))
            return
        }
        let counts = displayed.map { $0.count }
        if let bad = paths.first(where: {
            !(counts.indices.contains($0.section) && (0..<counts[$0.section]).contains($0.item))
        }) {
            recordMisuse(
                BatchUpdateViolation(
                    rule: .reconfigurePass, messageID: nil,
                    message:
                        "\(method): attempt to reconfigure item at index path \(bad), which does not exist; item counts: \(counts). The call is ignored."
                ))
            return
        }
        // Only the cells change: the displayed values are read again in place.
        let after = readDataSource()
        if after.counts == counts {
            for path in paths { displayed[path.section][path.item] = after.element(path) }
        }
        events.append(.reconfigure(paths))
        layoutObserver?(.reconfigured(paths))
    }

    /// Configures the headers and footers of `sections` on screen again in place: a pass of its
    /// own after the structural batch, as for items; inside an open batch, or for a section that
    /// does not exist, the call is recorded as a violation and ignored.
    func reconfigureSupplementaryViews(inSections sections: [Int]) {
        loadIfNeeded()
        let method = "reconfigureSupplementaryViews(inSections:)"
        guard depth == 0 else {
            recordMisuse(
                BatchUpdateViolation(
                    rule: .reconfigurePass, messageID: nil,
                    message:
                        "\(method) called inside a batch (update depth \(depth)); Ripple reconfigures in a pass of its own, after the structural batch, by the sections' final indices. The call is ignored."
                ))
            return
        }
        if let bad = sections.first(where: { !displayed.indices.contains($0) }) {
            recordMisuse(
                BatchUpdateViolation(
                    rule: .reconfigurePass, messageID: nil,
                    message:
                        "\(method): attempt to reconfigure the supplementary views of section \(bad), which does not exist; number of sections: \(displayed.count). The call is ignored."
                ))
            return
        }
        events.append(.reconfigureSupplementaryViews(sections))
        layoutObserver?(.reconfiguredSupplementaryViews(sections))
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
                    rule: .orderAndNesting, messageID: nil,
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

    /// Makes every call recorded in `batch`, as one batch or inside the open one.
    func apply(_ batch: BatchUpdate) {
        beginUpdates()
        record(batch.operations)
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
            displayed = after.allSections()
            needsReload = false
            selection.removeAll()
            events.append(.reloadData)
            layoutObserver?(.reloaded)
            for callback in callbacks { callback(false) }
            return
        }

        let (result, plan) = validator._evaluate(batch, before: displayed.map { $0.count }, after: after.counts)
        warnings.append(contentsOf: result.warnings)
        events.append(.batchUpdates(batch, result))
        if let plan {
            plan.apply(to: &displayed, reading: after)
            // Selected items travel with the batch; deleted and reloaded ones leave the selection.
            if !selection.isEmpty { selection = Set(selection.compactMap(plan.destinations())) }
        } else {
            // Real UIKit raises NSInternalInconsistencyException here. Recover as an app's
            // fallback would: show what the data source reports.
            displayed = after.allSections()
            selection.removeAll()
        }
        needsReload = false
        layoutObserver?(plan.map { .carried($0.carry) } ?? .reloaded)
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

/// What a headless view reads of its data source at one moment: the item counts, as
/// `numberOfRowsInSection` answers, and the value at a path of that moment, as `cellForRowAt`
/// would show it. A batch reads the counts, and the values of only the rows it inserts or reloads.
struct _DataSourceRead<Element> {
    /// The number of items in each section.
    let counts: [Int]

    /// The value at a path, which must be in range of ``counts``.
    let element: (ElementPath) -> Element

    /// The values, when the data source handed them over whole.
    private let sections: [[Element]]?

    /// A read of values the data source handed over whole.
    init(sections: [[Element]]) {
        counts = sections.map { $0.count }
        element = { sections[$0.section][$0.item] }
        self.sections = sections
    }

    /// A read that asks the data source for each value it needs.
    init(counts: [Int], element: @escaping (ElementPath) -> Element) {
        self.counts = counts
        self.element = element
        sections = nil
    }

    /// Every value of a section.
    ///
    /// - Complexity: O(*m*) for *m* items in the section.
    func section(_ section: Int) -> ListSnapshot<Element> {
        if let sections { return ListSnapshot(sections[section]) }
        return ListSnapshot((0..<counts[section]).lazy.map { element(ElementPath(item: $0, section: section)) })
    }

    /// Every value, section by section.
    ///
    /// - Complexity: O(*n*) for *n* items.
    func allSections() -> [ListSnapshot<Element>] { counts.indices.map(section) }
}
