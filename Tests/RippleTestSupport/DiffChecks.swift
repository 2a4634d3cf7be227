// Every rule a diff result must follow, checked against the independent replay oracle and the
// brute-force pairing. Each check returns a failure sentence instead of asserting, so that seeded
// and exhaustive loops can name the input that failed.

import RippleDiff

/// Checks `changes`, the diff of `source` against `target`, against every documented rule.
///
/// The checks, first failure wins:
/// 1. the counts match the lists, `validationFailure()` is `nil` and the parts are in order;
/// 2. the independent replay oracle (``replay(_:on:element:)``) gives `target`;
/// 3. `Changeset.applied(to:element:)` gives `target`;
/// 4. the pairing the change-set implies, and so its deletes and inserts, are the brute-force
///    ``referencePairing(source:target:)``;
/// 5. the number of moves is the minimum for that pairing;
/// 6. the updates are exactly the pairs whose contents differ, ascending by source offset;
/// 7. the duplicates are the reference's (only between the common prefix and suffix).
///
/// - Parameters:
///   - changes: The change-set to check.
///   - source: The list before the change.
///   - target: The list after the change.
///   - identity: The identity the diff used.
///   - sameElement: Whether a replayed element is the target's element; `==` or `===`.
/// - Returns: `nil` when every check passes, otherwise a sentence naming the first failure.
/// - Complexity: O((*n* + *m*)²), for *n* source and *m* target elements.
public func diffFailure<Element, Rule>(
    _ changes: Changeset,
    from source: [Element],
    to target: [Element],
    identity: DiffIdentity<Element, Rule>,
    sameElement: (Element, Element) -> Bool
) -> String? {
    guard changes.sourceCount == source.count, changes.targetCount == target.count else {
        return "\(changes): counts should be \(source.count) → \(target.count)"
    }
    if let failure = changes.validationFailure() { return "\(changes): invalid: \(failure)" }
    if let failure = orderingFailure(of: changes) { return "\(changes): \(failure)" }

    let rows: [ReplayedRow]
    switch replayRows(of: changes) {
    case .success(let replayed): rows = replayed
    case .failure(let failure): return "\(changes): the replay oracle rejects it: \(failure)"
    }
    let replayed = elements(of: rows, updates: changes.updates, source: source) { target[$0] }
    if let mismatch = firstMismatch(replayed, target, by: sameElement) {
        return "\(changes): the replay oracle's result differs from the target: \(mismatch)"
    }
    if let mismatch = firstMismatch(changes.applied(to: source) { target[$0] }, target, by: sameElement) {
        return "\(changes): applied(to:element:) differs from the target: \(mismatch)"
    }

    var sourceIDs: [Rule.Identifier] = []
    sourceIDs.reserveCapacity(source.count)
    for element in source { sourceIDs.append(identity._rule.identifier(of: element)) }
    var targetIDs: [Rule.Identifier] = []
    targetIDs.reserveCapacity(target.count)
    for element in target { targetIDs.append(identity._rule.identifier(of: element)) }
    let reference = referencePairing(source: sourceIDs, target: targetIDs)
    var pairs: [Changeset.OffsetPair] = []
    pairs.reserveCapacity(rows.count)
    for offset in 0..<rows.count {
        if case .source(let old) = rows[offset] { pairs.append(Changeset.OffsetPair(source: old, target: offset)) }
    }
    guard pairs == reference.pairs else {
        return "\(changes): pairs \(pairs) differ from the pairing rule's \(reference.pairs)"
    }
    // Implied by the pairs and the replay, but cheap to state.
    guard changes.deletes == reference.deletes, changes.inserts == reference.inserts else {
        return "\(changes): deletes and inserts should be \(reference.deletes) and \(reference.inserts)"
    }
    guard changes.moves.count == reference.minimalMoveCount else {
        return "\(changes): \(changes.moves.count) moves, the minimum is \(reference.minimalMoveCount)"
    }
    var expectedUpdates: [Changeset.OffsetPair] = []
    for pair in pairs where !identity._rule.sameContent(source[pair.source], target[pair.target]) {
        expectedUpdates.append(pair)
    }
    expectedUpdates.sort()
    guard changes.updates == expectedUpdates else {
        return "\(changes): updates should be exactly the changed pairs \(expectedUpdates)"
    }
    guard changes.duplicates == reference.duplicates else {
        return "\(changes): duplicates should be source \(reference.duplicates.sourceOffsets), "
            + "target \(reference.duplicates.targetOffsets)"
    }
    return nil
}

/// Checks `changes` for `Equatable` elements; see ``diffFailure(_:from:to:identity:sameElement:)``.
///
/// - Parameters:
///   - changes: The change-set to check.
///   - source: The list before the change.
///   - target: The list after the change.
///   - identity: The identity the diff used.
/// - Returns: `nil` when every check passes, otherwise a sentence naming the first failure.
/// - Complexity: O((*n* + *m*)²), for *n* source and *m* target elements.
public func diffFailure<Element: Equatable, Rule>(
    _ changes: Changeset,
    from source: [Element],
    to target: [Element],
    identity: DiffIdentity<Element, Rule>
) -> String? {
    diffFailure(
        changes, from: source, to: target, identity: identity,
        sameElement: ==)
}

/// Checks that `staged` stages `changes`, the diff of `source` against `target`, correctly.
///
/// The checks:
/// - no stage when `changes` is empty, otherwise one or two;
/// - each stage is valid, ordered and safe for UIKit's reloads (``reloadSafetyFailure(of:)``),
///   starts from the previous stage's data (or `source`), and the replay oracle turns that into
///   the stage's data;
/// - the last stage's data is `target`;
/// - one stage is `changes` itself; two stages appear only when `changes` is not reload-safe, and
///   are the updates in place (with the duplicate report) followed by the rest.
///
/// - Parameters:
///   - staged: The staged change-set to check.
///   - changes: The flat change-set it was made from.
///   - source: The list before the change.
///   - target: The list after the change.
///   - changesVerified: Pass `true` when ``diffFailure(_:from:to:identity:sameElement:)``
///     has passed for `changes`; a single stage equal to `changes` then needs no replay of its own,
///     since that replay is the one `diffFailure` ran.
///   - sameElement: Whether two elements are the same; `==` or `===`.
/// - Returns: `nil` when every check passes, otherwise a sentence naming the first failure.
/// - Complexity: O((*n* + *m*)²), for *n* source and *m* target elements.
public func stagedFailure<Data, Element>(
    _ staged: StagedChangeset<Data>,
    for changes: Changeset,
    from source: [Element],
    to target: [Element],
    changesVerified: Bool = false,
    sameElement: (Element, Element) -> Bool
) -> String? where Data.Element == Element {
    if changes.isEmpty {
        return staged.isEmpty ? nil : "\(staged): an unchanged list should have no stage"
    }
    guard (1...2).contains(staged.count) else { return "\(staged): expected one or two stages" }
    if staged.count == 1 {
        guard staged[0].changeset == changes else { return "\(staged): one stage should be \(changes) itself" }
        if changesVerified {
            if let failure = reloadSafetyFailure(of: changes) { return "\(staged): \(failure)" }
            if let mismatch = firstMismatch(Array(staged[0].data), target, by: sameElement) {
                return "\(staged): the stage's data differs from the target: \(mismatch)"
            }
            return nil
        }
    }
    var current = source
    for index in 0..<staged.count {
        let stage = staged[index]
        let changeset = stage.changeset
        // Built only for a failure: describing the stages costs more than checking them.
        func context() -> String { "\(staged): stage \(index)" }
        guard changeset.sourceCount == current.count, changeset.targetCount == stage.data.count else {
            return "\(context()) should go from \(current.count) to \(stage.data.count) elements"
        }
        if let failure = changeset.validationFailure() { return "\(context()) is invalid: \(failure)" }
        if let failure = orderingFailure(of: changeset) { return "\(context()): \(failure)" }
        if let failure = reloadSafetyFailure(of: changeset) { return "\(context()): \(failure)" }
        let data = Array(stage.data)
        switch replay(changeset, on: current, element: { data[$0] }) {
        case .success(let replayed):
            if let mismatch = firstMismatch(replayed, data, by: sameElement) {
                return "\(context()): replaying it on the previous data differs from its data: \(mismatch)"
            }
        case .failure(let failure):
            return "\(context()): the replay oracle rejects it: \(failure)"
        }
        current = data
    }
    if let mismatch = firstMismatch(current, target, by: sameElement) {
        return "\(staged): the last stage's data differs from the target: \(mismatch)"
    }
    if staged.count == 1 { return nil }
    guard reloadSafetyFailure(of: changes) != nil else {
        return "\(staged): \(changes) is safe in one batch, two stages are not needed"
    }
    let updatesInPlace = Changeset(
        sourceCount: changes.sourceCount, targetCount: changes.sourceCount,
        updates: changes.updates.map { Changeset.OffsetPair(source: $0.source, target: $0.source) },
        duplicates: changes.duplicates)
    guard staged[0].changeset == updatesInPlace else {
        return "\(staged): the first stage should be \(updatesInPlace), the updates in place"
    }
    var structure = changes
    structure.updates = []
    structure.duplicates = Changeset.Duplicates()
    guard staged[1].changeset == structure else {
        return "\(staged): the second stage should be \(structure), everything but the updates"
    }
    return nil
}

/// Checks `staged` for `Equatable` elements; see ``stagedFailure(_:for:from:to:changesVerified:sameElement:)``.
///
/// - Parameters:
///   - staged: The staged change-set to check.
///   - changes: The flat change-set it was made from.
///   - source: The list before the change.
///   - target: The list after the change.
///   - changesVerified: Whether `diffFailure` has passed for `changes`; see the general form.
/// - Returns: `nil` when every check passes, otherwise a sentence naming the first failure.
/// - Complexity: O((*n* + *m*)²), for *n* source and *m* target elements.
public func stagedFailure<Data, Element: Equatable>(
    _ staged: StagedChangeset<Data>,
    for changes: Changeset,
    from source: [Element],
    to target: [Element],
    changesVerified: Bool = false
) -> String? where Data.Element == Element {
    stagedFailure(staged, for: changes, from: source, to: target, changesVerified: changesVerified, sameElement: ==)
}
