import RippleDiff
import RippleTesting

// The checks each target runs on one input. A failed check traps with a message (`fuzzFailure`), so
// libFuzzer records the input; `Fuzz/README.md` says how to turn it into a regression test.

private let validators = [
    BatchUpdateValidator(flavor: .tableView), BatchUpdateValidator(flavor: .collectionView),
    BatchUpdateValidator(flavor: .tableView, countMismatchStyle: .detailed),
]

/// Every validator accepts `batch`, without a warning.
private func checkValid(_ batch: BatchUpdate, before: [Int], after: [Int], _ context: @autoclosure () -> String) {
    for validator in validators {
        let result = validator.validate(batch, before: before, after: after)
        fuzzCheck(result.isValid && result.warnings.isEmpty, "\(context()): \(validator.flavor): \(result)")
    }
}

/// Whether every identifier of `list` is unique.
private func isUnique<ID: Hashable>(_ ids: [ID]) -> Bool { Set(ids).count == ids.count }

// MARK: - Flat

/// The flat diff and its staging: the change-set is valid and replays to the target; each stage is
/// valid, replays on the previous stage's data to its own, passes both validators without a
/// warning, applies to a headless table view, and turns sequentially into the stage's data.
func checkFlat(_ source: [FuzzItem], _ target: [FuzzItem]) {
    var pair: String { "\(source) → \(target)" }
    let changes = Changeset(from: source, to: target)
    if let failure = changes.validationFailure() { fuzzFailure("\(pair): invalid \(changes): \(failure)") }
    fuzzCheck(changes.applied(to: source) { target[$0] } == target, "\(pair): \(changes) does not replay")
    if isUnique(source.map(\.id)) && isUnique(target.map(\.id)) {
        fuzzCheck(changes.duplicates.isEmpty, "\(pair): duplicates reported for unique identifiers: \(changes)")
    }
    fuzzCheck(changes.isEmpty == (source == target), "\(pair): isEmpty is \(changes.isEmpty)")

    let staged = StagedChangeset(changeset: changes, source: source, target: target)
    fuzzCheck(staged == StagedChangeset(from: source, to: target), "\(pair): the two initializers disagree")
    fuzzCheck(staged.count <= 2 && staged.isEmpty == changes.isEmpty, "\(pair): \(staged)")
    var shown = source
    var data = [source]
    let tableView = HeadlessTableView { data }
    tableView.reloadData()
    for stage in staged {
        var context: String { "\(pair), stage \(stage.changeset) of \(staged)" }
        let stageData = stage.data
        if let failure = stage.changeset.validationFailure() { fuzzFailure("\(context): invalid: \(failure)") }
        fuzzCheck(stage.changeset.applied(to: shown) { stageData[$0] } == stageData, "\(context): does not replay")
        let batch = BatchUpdate(stage.changeset)
        checkValid(batch, before: [shown.count], after: [stageData.count], context)
        tableView.performBatchUpdates {
            data = [stageData]
            tableView.apply(batch)
        }
        fuzzCheck(tableView.violations.isEmpty && tableView.warnings.isEmpty, "\(context): \(tableView.violations)")
        fuzzCheck(tableView.rows == [stageData], "\(context): the table view shows \(tableView.rows)")
        checkSequential(stage.changeset, from: shown, to: stageData)
        shown = stageData
    }
    fuzzCheck(shown == target, "\(pair): the stages end at \(shown)")
}

// MARK: - Sectioned

/// The sectioned diff and its staging, as ``checkFlat(_:_:)`` with both headless views; every stage
/// replays with `applied(to:section:item:)`, headers included, to its data.
func checkSectioned(_ source: [FuzzSection], _ target: [FuzzSection]) {
    var pair: String { "\(source) → \(target)" }
    let changes = SectionedChangeset(from: source, to: target)
    if let failure = changes.validationFailure() { fuzzFailure("\(pair): invalid \(changes): \(failure)") }
    let replayed = changes.applied(
        to: source, section: { target[$0].section }, item: { target[$0.section].items[$0.item] })
    fuzzCheck(replayed == target, "\(pair): \(changes) replays to \(replayed)")
    fuzzCheck(changes.isEmpty == (source == target), "\(pair): isEmpty is \(changes.isEmpty)")
    if isUnique(source.map(\.section.id)) && isUnique(target.map(\.section.id))
        && isUnique(source.flatMap(\.items).map(\.id)) && isUnique(target.flatMap(\.items).map(\.id))
    {
        fuzzCheck(!changes.hasDuplicates, "\(pair): duplicates reported for unique identifiers: \(changes)")
    }

    let staged = StagedSectionedChangeset(changeset: changes, source: source, target: target)
    fuzzCheck(staged.count <= 2 && staged.isEmpty == changes.isEmpty, "\(pair): \(staged)")
    var shown = source
    var tableData = source.map { Array($0.items) }
    let tableView = HeadlessTableView { tableData }
    tableView.reloadData()
    var collectionData = source.map { Array($0.items) }
    let collectionView = HeadlessCollectionView { collectionData }
    collectionView.layoutIfNeeded()
    for stage in staged {
        var context: String { "\(pair), stage \(stage.changeset) of \(staged)" }
        let stageData = stage.data
        if let failure = stage.changeset.validationFailure() { fuzzFailure("\(context): invalid: \(failure)") }
        let stageReplay = stage.changeset.applied(
            to: shown, section: { stageData[$0].section }, item: { stageData[$0.section].items[$0.item] })
        fuzzCheck(stageReplay == stageData, "\(context): replays to \(stageReplay)")
        let batch = BatchUpdate(stage.changeset)
        checkValid(batch, before: shown.map(\.items.count), after: stageData.map(\.items.count), context)
        tableView.performBatchUpdates {
            tableData = stageData.map { Array($0.items) }
            tableView.apply(batch)
        }
        collectionView.performBatchUpdates {
            collectionData = stageData.map { Array($0.items) }
            collectionView.apply(batch)
        }
        for (name, shownItems, violations, warnings) in [
            ("table view", tableView.rows, tableView.violations, tableView.warnings),
            ("collection view", collectionView.items, collectionView.violations, collectionView.warnings),
        ] {
            fuzzCheck(
                violations.isEmpty && warnings.isEmpty, "\(context): the \(name) reports \(violations) \(warnings)")
            fuzzCheck(shownItems == stageData.map({ Array($0.items) }), "\(context): the \(name) shows \(shownItems)")
        }
        shown = stageData
    }
    fuzzCheck(shown == target, "\(pair): the stages end at \(shown)")
}

// MARK: - Raw batches

/// A raw batch of calls, valid or not: the validator answers without trapping, the same whatever
/// the call order (UIKit reads a batch in any order), and headless views given it never trap and end
/// showing their data source: the batch's result when it is valid, the recovery when it is not.
func checkRawBatch(_ calls: [BatchCall], before: [Int], after: [Int], countsFromViews: Bool) {
    var batch = BatchUpdate()
    for call in calls {
        switch call {
        case .deleteSection(let s): batch.deleteSections([s])
        case .insertSection(let s): batch.insertSections([s])
        case .reloadSection(let s): batch.reloadSections([s])
        case .moveSection(let a, let b): batch.moveSection(a, toSection: b)
        case .deleteItem(let p): batch.deleteItems(at: [p])
        case .insertItem(let p): batch.insertItems(at: [p])
        case .reloadItem(let p): batch.reloadItems(at: [p])
        case .moveItem(let a, let b): batch.moveItem(at: a, to: b)
        }
    }
    var context: String { "\(batch) for \(before) → \(after)" }
    for validator in validators {
        let result = validator.validate(batch, before: before, after: after)
        let reversed = validator.validate(
            BatchUpdate(operations: batch.operations.reversed()), before: before, after: after)
        fuzzCheck(result.violation == reversed.violation, "\(context): call order changes \(result) into \(reversed)")
        _ = result.description
    }
    guard countsFromViews else { return }
    // Views hold real rows: the counts here are small and not negative.
    let old = before.enumerated().map { section, count in (0..<count).map { section * 100 + $0 } }
    let new = after.enumerated().map { section, count in (0..<count).map { 10_000 + section * 100 + $0 } }
    var tableData = old
    let tableView = HeadlessTableView { tableData }
    tableView.reloadData()
    tableView.performBatchUpdates {
        tableData = new
        tableView.apply(batch)
    }
    var collectionData = old
    let collectionView = HeadlessCollectionView { collectionData }
    collectionView.layoutIfNeeded()
    collectionView.performBatchUpdates {
        collectionData = new
        collectionView.apply(batch)
    }
    for (name, shown, violations) in [
        ("table view", tableView.rows, tableView.violations),
        ("collection view", collectionView.items, collectionView.violations),
    ] {
        fuzzCheck(shown.map(\.count) == after, "\(context): the \(name) shows \(shown) (\(violations))")
        if !violations.isEmpty {
            fuzzCheck(shown == new, "\(context): the \(name) did not recover to the data source: \(shown)")
        }
    }
    // The same calls on a sequential (AppKit) table view, on the first section's rows.
    var rows = old.first ?? []
    let sequential = HeadlessSequentialTableView { rows }
    _ = sequential.rows
    sequential.beginUpdates()
    rows = new.first ?? []
    for call in calls {
        switch call {
        case .deleteItem(let p): sequential.removeRows([p.item])
        case .insertItem(let p): sequential.insertRows([p.item])
        case .reloadItem(let p): sequential.reloadRows([p.item])
        case .moveItem(let a, let b): sequential.moveRow(at: a.item, to: b.item)
        case .deleteSection, .insertSection, .reloadSection, .moveSection: break
        }
    }
    sequential.endUpdates()
    fuzzCheck(
        sequential.rows.count == rows.count, "\(calls): the sequential view shows \(sequential.rows), data \(rows)")
    if !sequential.violations.isEmpty {
        fuzzCheck(sequential.rows == rows, "\(calls): the sequential view did not recover: \(sequential.rows)")
    }
}

// MARK: - Sequential

/// A change-set as sequential calls: `SequentialChangeset` of a valid change-set, applied one call
/// after another to an array and to a headless sequential table view, gives what `applied` gives.
func checkSequential<Element: Equatable>(_ changes: Changeset, from source: [Element], to target: [Element]) {
    var context: String { "\(changes) on \(source)" }
    let steps = SequentialChangeset(changes)
    fuzzCheck(steps.removals == changes.deletes && steps.insertions == changes.inserts, "\(context): \(steps)")
    fuzzCheck(steps.moves.count <= changes.moves.count, "\(context): \(steps) has more moves")
    if changes.isEmpty { fuzzCheck(steps.isEmpty, "\(context): \(steps) for no change") }
    // Plain arrays: each call on the rows as the calls before it left them.
    var rows: [Element?] = source
    for offset in steps.removals.reversed() { rows.remove(at: offset) }
    for move in steps.moves {
        fuzzCheck(
            rows.indices.contains(move.source) && rows.indices.contains(move.target),
            "\(context): move \(move) out of range")
        rows.insert(rows.remove(at: move.source), at: move.target)
    }
    for offset in steps.insertions {
        fuzzCheck(offset <= rows.count, "\(context): insertion \(offset) past \(rows.count) rows")
        rows.insert(nil, at: offset)
    }
    fuzzCheck(rows.count == target.count, "\(context): \(rows.count) rows, not \(target.count)")
    for offset in steps.reloads { rows[offset] = nil }
    let result = rows.enumerated().map { $0.element ?? target[$0.offset] }
    fuzzCheck(result == target, "\(context): \(steps) gives \(result), not \(target)")
    // A headless NSTableView reads the same calls.
    var data = source
    let tableView = HeadlessSequentialTableView { data }
    _ = tableView.rows
    tableView.beginUpdates()
    data = target
    if !steps.removals.isEmpty { tableView.removeRows(steps.removals) }
    for move in steps.moves { tableView.moveRow(at: move.source, to: move.target) }
    if !steps.insertions.isEmpty { tableView.insertRows(steps.insertions) }
    if !steps.reloads.isEmpty { tableView.reloadRows(steps.reloads) }
    tableView.endUpdates()
    fuzzCheck(tableView.violations.isEmpty, "\(context): \(steps): \(tableView.violations)")
    fuzzCheck(tableView.rows == target, "\(context): the sequential view shows \(tableView.rows)")
}

/// A raw change-set, valid or not: validation answers without trapping; a valid one replays, stages
/// and turns into sequential calls that agree with its replay. `mustBeValid` for one that Ripple
/// built itself.
func checkRawChangeset(_ changes: Changeset, mustBeValid: Bool = false) {
    if let failure = changes.validationFailure() {
        fuzzCheck(!mustBeValid, "\(changes) is invalid: \(failure)")
        return
    }
    _ = changes.description
    let source = (0..<changes.sourceCount).map { FuzzItem(id: $0, content: 0) }
    let target = changes.applied(to: source) { FuzzItem(id: 1_000 + $0, content: 1) }
    fuzzCheck(target.count == changes.targetCount, "\(changes): replay has \(target.count) elements")
    fuzzCheck(changes.landingOffsets().count == changes.sourceCount, "\(changes): landing offsets")
    checkSequential(changes, from: source, to: target)
    let staged = StagedChangeset(changeset: changes, source: source, target: target)
    var shown = source
    for stage in staged {
        let data = stage.data
        if let failure = stage.changeset.validationFailure() { fuzzFailure("\(changes): stage invalid: \(failure)") }
        fuzzCheck(stage.changeset.applied(to: shown) { data[$0] } == data, "\(changes): stage does not replay")
        checkSequential(stage.changeset, from: shown, to: data)
        shown = data
    }
    fuzzCheck(shown == target, "\(changes): stages end at \(shown), not \(target)")
}
