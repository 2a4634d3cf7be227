// The flat diff: prefix/suffix trim, one hash per identifier, minimal moves.
//
// 1. Trim the common prefix and suffix (pairs with equal identifiers at equal distance from either
//    end) in one linear pass, without hashing. Unchanged lists end here.
// 2. Put the identifiers of the remaining source elements in a flat open-addressing table, chaining
//    duplicates in source order (`_IdentifierTable`, `IdentifierTable.swift`, which the sectioned
//    diff uses too).
// 3. Look up each remaining target identifier: it takes the first unmatched source element with the
//    same identifier, or becomes an insert. When the source repeats identifiers, it takes the one
//    near its own place instead, and the leftovers pair afterwards (`DuplicatePairing.swift`).
//    Identifiers first seen in the target are added to the table too, so that repeats in the
//    target are reported.
// 4. If the matched source offsets are not increasing in target order, keep a longest increasing
//    subsequence in place and move the rest (`_emitMovesAndInserts`).
// 5. One pass over each side yields deletes, updates and inserts (`_emitDeletesAndUpdates`).
//
// `_diffMiddle` runs steps 2 to 5, each a named function or table method.

/// Computes the change-set from `source` to `target`.
///
/// - Complexity: Expected O(*n* + *m*) identifier hashes and comparisons, plus O(*k* log *k*)
///   to choose the moves among *k* matched elements that changed order.
@inlinable
internal func _flatDiff<Element, ID: Hashable>(
    _ source: UnsafeBufferPointer<Element>,
    _ target: UnsafeBufferPointer<Element>,
    identifier: (Element) -> ID,
    contentEquals: (Element, Element) -> Bool
) -> Changeset {
    withoutActuallyEscaping(identifier) { identifier in
        withoutActuallyEscaping(contentEquals) { contentEquals in
            _flatDiff(
                source, target,
                identity: _ClosureIdentity(identifier: identifier, contentEquals: contentEquals))
        }
    }
}

/// Computes the change-set from `source` to `target` under an identity rule.
///
/// - Complexity: Expected O(*n* + *m*) identifier hashes and comparisons, plus O(*k* log *k*)
///   to choose the moves among *k* matched elements that changed order.
@inlinable
internal func _flatDiff<Identity: _IdentityRule>(
    _ source: UnsafeBufferPointer<Identity.Element>,
    _ target: UnsafeBufferPointer<Identity.Element>,
    identity: Identity,
    duplicatePairing: _DuplicatePairing = .inOrder,
    touchingCapacity: Int = _touchingCapacity
) -> Changeset {
    let sourceCount = source.count
    let targetCount = target.count
    precondition(
        sourceCount < Int(Int32.max) / 2 && targetCount < Int(Int32.max) / 2,
        "Changeset(from:to:): lists of \(sourceCount) and \(targetCount) elements exceed the diff's limit of \(Int(Int32.max) / 2 - 1) elements each"
    )

    // 1. Common prefix and suffix.
    var updates: [Changeset.OffsetPair] = []
    let shorter = Swift.min(sourceCount, targetCount)
    var prefix = 0
    while prefix < shorter {
        let match = identity.match(source[prefix], target[prefix])
        if match == .different { break }
        if match == .updated { updates.append(Changeset.OffsetPair(source: prefix, target: prefix)) }
        prefix &+= 1
    }
    var suffix = 0
    var suffixUpdates: [Changeset.OffsetPair] = []
    while suffix < shorter &- prefix {
        let oldOffset = sourceCount &- 1 &- suffix
        let newOffset = targetCount &- 1 &- suffix
        let match = identity.match(source[oldOffset], target[newOffset])
        if match == .different { break }
        if match == .updated {
            suffixUpdates.append(Changeset.OffsetPair(source: oldOffset, target: newOffset))
        }
        suffix &+= 1
    }
    let oldCount = sourceCount &- prefix &- suffix
    let newCount = targetCount &- prefix &- suffix

    var changes = Changeset(sourceCount: sourceCount, targetCount: targetCount)
    if oldCount > 0 || newCount > 0 {
        _diffMiddle(
            source: UnsafeBufferPointer(rebasing: source[prefix..<(prefix + oldCount)]),
            target: UnsafeBufferPointer(rebasing: target[prefix..<(prefix + newCount)]),
            offset: prefix,
            identity: identity,
            duplicatePairing: duplicatePairing,
            touchingCapacity: touchingCapacity,
            into: &changes,
            updates: &updates)
    }
    if !suffixUpdates.isEmpty { updates.append(contentsOf: suffixUpdates.reversed()) }
    changes.updates = updates
    return changes
}

/// Diffs the part between the common prefix and suffix, in named steps: index the source
/// (``_IdentifierTable/indexSource(touchingCapacity:)``), match the target
/// (``_IdentifierTable/matchTargets(pairing:touchingCapacity:)``), pair the repeats left over
/// (``_IdentifierTable/pairLeftovers(scratch:)``), choose the moves and emit them with the inserts
/// (``_emitMovesAndInserts(_:offset:scratch:into:)``), emit the deletes and updates
/// (``_emitDeletesAndUpdates(_:offset:into:updates:)``) and the repeats
/// (``_emitDuplicates(_:offset:into:)``).
///
/// Offsets written to `changes` are shifted by `offset`; updates are appended to `updates` in
/// ascending source order.
@inlinable
internal func _diffMiddle<Identity: _IdentityRule>(
    source: UnsafeBufferPointer<Identity.Element>,
    target: UnsafeBufferPointer<Identity.Element>,
    offset: Int,
    identity: Identity,
    duplicatePairing: _DuplicatePairing,
    touchingCapacity: Int,
    into changes: inout Changeset,
    updates: inout [Changeset.OffsetPair]
) {
    // 2. and 3. Sized for the source's identifiers; it doubles if new ones come.
    var table = _IdentifierTable(source: source, target: target, identity: identity)
    defer { table.deallocate() }
    table.indexSource(touchingCapacity: touchingCapacity)
    table.matchTargets(pairing: duplicatePairing, touchingCapacity: touchingCapacity)

    // From here on, the table's memory is the scratch space of the pairing of leftovers and of the
    // moves, which need 12 bytes per source element.
    let scratch = table.scratchSpace(bytes: 12 &* source.count)
    defer { scratch.deallocate() }
    table.pairLeftovers(scratch: scratch.base)

    // 4. and 5.
    _emitMovesAndInserts(table, offset: offset, scratch: scratch.base, into: &changes)
    _emitDeletesAndUpdates(table, offset: offset, into: &changes, updates: &updates)
    _emitDuplicates(table, offset: offset, into: &changes)
}

/// Step 4 of the flat diff: if the matched source offsets are not increasing in target order,
/// keeps a longest increasing run in place and moves every other matched element; the inserts are
/// written in the same pass over the target. Offsets are shifted by `offset`.
///
/// - Parameters:
///   - table: The matched table.
///   - offset: The length of the common prefix.
///   - scratch: 12 bytes per source element, aligned for `Int32`.
///   - changes: Receives `moves` (ascending by target) and `inserts` (ascending).
@inlinable
internal func _emitMovesAndInserts<Identity: _IdentityRule>(
    _ table: _IdentifierTable<Identity>,
    offset: Int,
    scratch: UnsafeMutableRawPointer,
    into changes: inout Changeset
) {
    let newCount = table.target.count
    let matched = table.matched
    let targetToSource = table.targetToSource
    if table.inOrder {
        changes.inserts = _exactArray(count: newCount &- matched) { inserts in
            var written = 0
            for new in 0..<newCount where targetToSource[new] < 0 {
                inserts[written] = offset &+ new
                written &+= 1
            }
            return written
        }
        return
    }
    let (marks, stay) = _markLongestIncreasingRun(targetToSource, matched: matched, scratch: scratch)
    var moves: [Changeset.OffsetPair] = []
    var insertsWritten = 0
    changes.inserts = _exactArray(count: newCount &- matched) { inserts in
        moves = _exactArray(count: matched &- stay) { moves in
            var position = 0
            var movesWritten = 0
            for new in 0..<newCount {
                let old = targetToSource[new]
                if old < 0 {
                    inserts[insertsWritten] = offset &+ new
                    insertsWritten &+= 1
                    continue
                }
                if marks[position] != _stays {
                    (moves.baseAddress.unsafelyUnwrapped + movesWritten).initialize(
                        to: Changeset.OffsetPair(source: offset &+ Int(old), target: offset &+ new))
                    movesWritten &+= 1
                }
                position &+= 1
            }
            return movesWritten
        }
        return insertsWritten
    }
    changes.moves = moves
}

/// Step 5 of the flat diff: one pass over the source writes the deletes and appends the updates
/// (matched pairs whose content differs), both in source order and shifted by `offset`.
@inlinable
internal func _emitDeletesAndUpdates<Identity: _IdentityRule>(
    _ table: _IdentifierTable<Identity>,
    offset: Int,
    into changes: inout Changeset,
    updates: inout [Changeset.OffsetPair]
) {
    let source = table.source
    let target = table.target
    let identity = table.identity
    let sourceToTarget = table.sourceToTarget
    let oldCount = source.count
    changes.deletes = _exactArray(count: oldCount &- table.matched) { deletes in
        var written = 0
        for old in 0..<oldCount {
            let new = Int(sourceToTarget[old])
            if new < 0 {
                deletes[written] = offset &+ old
                written &+= 1
            } else if !identity.sameContent(source[old], target[new]) {
                updates.append(Changeset.OffsetPair(source: offset &+ old, target: offset &+ new))
            }
        }
        return written
    }
}

/// The repeats the table recorded on either side, shifted by `offset`, as `changes.duplicates`.
@inlinable
internal func _emitDuplicates<Identity: _IdentityRule>(
    _ table: _IdentifierTable<Identity>,
    offset: Int,
    into changes: inout Changeset
) {
    if table.sourceRepeats.isEmpty && table.targetRepeats.isEmpty { return }
    changes.duplicates = Changeset.Duplicates(
        sourceOffsets: table.sourceRepeats.offsets(shiftedBy: offset),
        targetOffsets: table.targetRepeats.offsets(shiftedBy: offset))
}

/// The flat diff of two lists of hashable values, touching the table by blocks from
/// `touchingCapacity` slots up (`0`: always), with repeated identifiers paired by place
/// (`keepingOrder`, as the public diffs do) or in order: lets tests run the path that large lists
/// take on small ones, and compare with the in-order pairing.
package func _flatDiff<Value: Hashable>(
    from source: [Value], to target: [Value], touchingCapacity: Int = _touchingCapacity,
    keepingOrder: Bool = true
) -> Changeset {
    source.withUnsafeBufferPointer { old in
        target.withUnsafeBufferPointer { new in
            _flatDiff(
                old, new, identity: _HashableIdentity<Value>(),
                duplicatePairing: keepingOrder ? .keepingOrder : .inOrder,
                touchingCapacity: touchingCapacity)
        }
    }
}

/// An array of `count` elements written by `initialize`, which gets uninitialized memory for them
/// and returns how many it wrote, in order from the start.
///
/// `initialize` always runs, with an empty buffer when `count` is 0, so that it can produce other
/// results too. A count of 0 never reaches `Array(unsafeUninitializedCapacity:)`: with no capacity
/// it writes the count into the empty-array storage that every process shares, a race that
/// ThreadSanitizer reports when two threads diff at once (Swift 6.3).
@inlinable
internal func _exactArray<Element>(
    count: Int, _ initialize: (UnsafeMutableBufferPointer<Element>) -> Int
) -> [Element] {
    if count == 0 {
        let written = initialize(UnsafeMutableBufferPointer(start: nil, count: 0))
        assert(written == 0, "_exactArray(count:_:): wrote \(written) elements into 0")
        return []
    }
    return Array(unsafeUninitializedCapacity: count) { buffer, initialized in
        initialized = initialize(buffer)
    }
}
