// An independent replay of a change-set, modelled on how UIKit performs a batch update.
//
// `Changeset.applied(to:element:)` fills free target slots with the untouched elements in one
// pass. This oracle works the other way, the way a table view's row bookkeeping does: it removes
// the deleted rows and the move sources from a copy, last to first, then inserts the new rows and
// the move destinations, first to last. The two agree only if the change-set means what the
// documentation says, so tests run both.

import RippleDiff

/// Where a row of a replayed list comes from.
public enum ReplayedRow: Hashable, Sendable, CustomStringConvertible {
    /// The element at this source offset, kept in place or moved.
    case source(Int)
    /// A new element, inserted at this target offset.
    case inserted(Int)

    /// The row as `"s3"` (from source offset 3) or `"+3"` (inserted at target offset 3).
    public var description: String {
        switch self {
        case .source(let offset): "s\(offset)"
        case .inserted(let offset): "+\(offset)"
        }
    }
}

/// Why a change-set cannot be replayed.
public struct ReplayFailure: Error, Hashable, CustomStringConvertible {
    /// A sentence naming the problem.
    public var message: String

    /// Creates a failure.
    ///
    /// - Parameter message: A sentence naming the problem.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}

/// Replays `changes` the way UIKit performs a batch, and says where every target row comes from.
///
/// Deletes and move sources are removed from the source rows in descending order; inserts and
/// move destinations are then inserted in ascending target order. Every step is checked: offsets in
/// range, no row removed or filled twice, each insertion within the rows so far, and the final
/// count. Updates must name a source element that lands exactly at the update's target offset.
///
/// This function does not use `Changeset.applied(to:element:)` or `Changeset.validationFailure()`.
///
/// - Parameter changes: The change-set to replay. Its parts may come in any order.
/// - Returns: One ``ReplayedRow`` per target offset, or the first problem found.
/// - Complexity: O((*n* + *m*)²) in the worst case, for *n* source and *m* target rows.
public func replayRows(of changes: Changeset) -> Result<[ReplayedRow], ReplayFailure> {
    let sourceCount = changes.sourceCount
    let targetCount = changes.targetCount
    guard sourceCount >= 0, targetCount >= 0 else {
        return .failure(ReplayFailure("negative count \(sourceCount) → \(targetCount)"))
    }
    // Mark what leaves and what arrives first, so that a row named twice is caught whatever the
    // order of the parts; then remove last to first and insert first to last, as UIKit does.
    var removed = [Bool](repeating: false, count: sourceCount)
    func remove(_ offset: Int) -> ReplayFailure? {
        guard offset >= 0 && offset < sourceCount else {
            return ReplayFailure("source offset \(offset) is out of range 0..<\(sourceCount)")
        }
        guard !removed[offset] else {
            return ReplayFailure("source offset \(offset) is removed twice (delete or move)")
        }
        removed[offset] = true
        return nil
    }
    for offset in changes.deletes {
        if let failure = remove(offset) { return .failure(failure) }
    }
    for move in changes.moves {
        if let failure = remove(move.source) { return .failure(failure) }
    }
    var arriving = [ReplayedRow?](repeating: nil, count: targetCount)
    func arrive(_ row: ReplayedRow, at offset: Int) -> ReplayFailure? {
        guard offset >= 0 && offset < targetCount else {
            return ReplayFailure("target offset \(offset) is out of range 0..<\(targetCount)")
        }
        guard arriving[offset] == nil else {
            return ReplayFailure("target offset \(offset) is filled twice (insert or move)")
        }
        arriving[offset] = row
        return nil
    }
    for offset in changes.inserts {
        if let failure = arrive(.inserted(offset), at: offset) { return .failure(failure) }
    }
    for move in changes.moves {
        if let failure = arrive(.source(move.source), at: move.target) { return .failure(failure) }
    }
    var rows: [ReplayedRow] = []
    rows.reserveCapacity(Swift.max(sourceCount, targetCount))
    for offset in 0..<sourceCount { rows.append(.source(offset)) }
    var offset = sourceCount
    while offset > 0 {
        offset -= 1
        if removed[offset] { rows.remove(at: offset) }
    }
    for target in 0..<targetCount {
        guard let row = arriving[target] else { continue }
        guard target <= rows.count else {
            return .failure(
                ReplayFailure(
                    "target offset \(target) is out of range: only \(rows.count) rows before it after the update"))
        }
        rows.insert(row, at: target)
    }
    guard rows.count == targetCount else {
        return .failure(
            ReplayFailure(
                "the replay has \(rows.count) rows, the change-set promises \(targetCount) "
                    + "(\(sourceCount) - \(changes.deletes.count) deleted + \(changes.inserts.count) inserted)"))
    }
    var updatedSources = [Bool](repeating: false, count: sourceCount)
    for update in changes.updates {
        guard update.target >= 0 && update.target < targetCount else {
            return .failure(ReplayFailure("update \(update) has its target out of range 0..<\(targetCount)"))
        }
        guard rows[update.target] == .source(update.source) else {
            return .failure(
                ReplayFailure(
                    "update \(update) names source \(update.source), but target \(update.target) "
                        + "holds \(rows[update.target])"))
        }
        // The row check above ties each source to one target, so a repeated source is a repeat.
        guard !updatedSources[update.source] else {
            return .failure(ReplayFailure("update \(update) is listed twice"))
        }
        updatedSources[update.source] = true
    }
    return .success(rows)
}

/// Replays `changes` onto `source` the way UIKit performs a batch, independently of
/// `Changeset.applied(to:element:)`.
///
/// Kept and moved rows take their element from `source`; inserted and updated rows take theirs
/// from `element(atTarget:)`. See ``replayRows(of:)`` for the checks.
///
/// ```swift
/// let changes = Changeset(from: old, to: new)
/// XCTAssertEqual(try replay(changes, on: old) { new[$0] }.get(), new)
/// ```
///
/// - Parameters:
///   - changes: The change-set to replay.
///   - source: The list before the change; must have `changes.sourceCount` elements.
///   - element: Returns the element at a target offset, for inserts and updates.
/// - Returns: The list after the change, or the first problem found.
/// - Complexity: O((*n* + *m*)²) in the worst case, for *n* source and *m* target elements.
public func replay<Element>(
    _ changes: Changeset,
    on source: [Element],
    element: (_ targetOffset: Int) -> Element
) -> Result<[Element], ReplayFailure> {
    guard source.count == changes.sourceCount else {
        return .failure(
            ReplayFailure("the source has \(source.count) elements, the change-set expects \(changes.sourceCount)"))
    }
    return replayRows(of: changes).map { rows in
        elements(of: rows, updates: changes.updates, source: source, element: element)
    }
}

/// Builds the replayed list from the rows ``replayRows(of:)`` found.
func elements<Element>(
    of rows: [ReplayedRow],
    updates: [Changeset.OffsetPair],
    source: [Element],
    element: (_ targetOffset: Int) -> Element
) -> [Element] {
    var result: [Element] = []
    result.reserveCapacity(rows.count)
    for target in 0..<rows.count {
        switch rows[target] {
        case .source(let offset): result.append(source[offset])
        case .inserted: result.append(element(target))
        }
    }
    for update in updates { result[update.target] = element(update.target) }
    return result
}

/// Checks that the parts of `changes` come in their documented order.
///
/// Deletes ascend, inserts ascend, moves ascend by target offset and updates by source offset, all
/// strictly.
///
/// - Parameter changes: The change-set to check.
/// - Returns: `nil` when the order is right, otherwise a sentence naming the first problem.
/// - Complexity: O(*d* + *i* + *k* + *u*) for the numbers of deletes, inserts, moves and updates.
public func orderingFailure(of changes: Changeset) -> String? {
    func firstDescent<Part>(_ parts: [Part], _ key: (Part) -> Int) -> Int? {
        var index = 1
        while index < parts.count {
            if key(parts[index - 1]) >= key(parts[index]) { return index }
            index += 1
        }
        return nil
    }
    if let index = firstDescent(changes.deletes, { $0 }) {
        return "deletes are not strictly ascending at position \(index): \(changes.deletes)"
    }
    if let index = firstDescent(changes.inserts, { $0 }) {
        return "inserts are not strictly ascending at position \(index): \(changes.inserts)"
    }
    if let index = firstDescent(changes.moves, { $0.target }) {
        return "moves are not strictly ascending by target at position \(index): \(changes.moves)"
    }
    if let index = firstDescent(changes.updates, { $0.source }) {
        return "updates are not strictly ascending by source at position \(index): \(changes.updates)"
    }
    if let index = firstDescent(changes.duplicates.sourceOffsets, { $0 }) {
        return "duplicate source offsets are not strictly ascending at position \(index)"
    }
    if let index = firstDescent(changes.duplicates.targetOffsets, { $0 }) {
        return "duplicate target offsets are not strictly ascending at position \(index)"
    }
    return nil
}

/// Checks that UIKit reloads every update of `changes` at the right row when they share a batch.
///
/// UIKit turns a reload of source row *s* into a delete of *s* and an insert at *s′*, and computes
/// *s′* from the batch's deletes and inserts alone, ignoring moves (see
/// `uikit-batch-rules.md`, R3). So an update is safe in a batch only when its element is not moved
/// and *s′* is the update's target offset. This function finds *s′* by replaying the deletes and
/// inserts on a list of source offsets.
///
/// - Parameter changes: The change-set of one batch.
/// - Returns: `nil` when every update is reloaded at the right row, otherwise the first problem.
/// - Complexity: O((*n* + *m*) · *i*) for *n* source rows, *m* target rows and *i* inserts.
public func reloadSafetyFailure(of changes: Changeset) -> String? {
    if changes.updates.isEmpty { return nil }
    let sourceCount = changes.sourceCount
    var inserts = changes.inserts
    if inserts.indices.dropFirst().contains(where: { inserts[$0 - 1] > inserts[$0] }) { inserts.sort() }
    var moved = [Bool](repeating: false, count: sourceCount)
    for move in changes.moves where move.source >= 0 && move.source < sourceCount { moved[move.source] = true }
    var deleted = [Bool](repeating: false, count: sourceCount)
    for offset in changes.deletes where offset >= 0 && offset < sourceCount { deleted[offset] = true }
    // The batch without its moves: source offsets after the deletes, then nil for each insert.
    var rows: [Int] = []  // a source offset, or -1 for an insert
    rows.reserveCapacity(sourceCount + changes.inserts.count)
    for offset in 0..<sourceCount where !deleted[offset] { rows.append(offset) }
    for offset in inserts where offset <= rows.count { rows.insert(-1, at: offset) }
    var reloadTarget = [Int](repeating: -1, count: sourceCount)
    for position in 0..<rows.count where rows[position] >= 0 { reloadTarget[rows[position]] = position }
    for update in changes.updates {
        guard update.source >= 0 && update.source < sourceCount else {
            return "update \(update) has its source out of range 0..<\(sourceCount)"
        }
        if moved[update.source] {
            return "update \(update) reloads a moved element; UIKit rejects that (R3b)"
        }
        guard reloadTarget[update.source] == update.target else {
            return "update \(update) would be reloaded at target \(reloadTarget[update.source]) "
                + "because UIKit places reloads by the deletes and inserts alone (R3f)"
        }
    }
    return nil
}
