// The flat diff: prefix/suffix trim, one hash per identifier, minimal moves.
//
// 1. Trim the common prefix and suffix (pairs with equal identifiers at equal distance from either
//    end) in one linear pass, without hashing. Unchanged lists end here.
// 2. Put the identifiers of the remaining source elements in a flat open-addressing table, chaining
//    duplicates in source order.
// 3. Look up each remaining target identifier: it takes the first unmatched source element with the
//    same identifier, or becomes an insert. Identifiers first seen in the target are added to the
//    table too, so that repeats in the target are reported.
// 4. If the matched source offsets are not increasing in target order, keep a longest increasing
//    subsequence in place and move the rest.
// 5. One pass over each side yields deletes, updates and inserts.

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
internal func _flatDiff<Identity: _DiffIdentity>(
    _ source: UnsafeBufferPointer<Identity.Element>,
    _ target: UnsafeBufferPointer<Identity.Element>,
    identity: Identity,
    touchingCapacity: Int = _touchingCapacity
) -> Changeset {
    let sourceCount = source.count
    let targetCount = target.count
    precondition(
        sourceCount < Int(Int32.max) / 2 && targetCount < Int(Int32.max) / 2,
        "Changeset(from:to:): lists of \(sourceCount) and \(targetCount) elements exceed the diff's limit of \(Int(Int32.max) / 2 - 1) elements each")

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
            touchingCapacity: touchingCapacity,
            into: &changes,
            updates: &updates)
    }
    if !suffixUpdates.isEmpty { updates.append(contentsOf: suffixUpdates.reversed()) }
    changes.updates = updates
    return changes
}

/// Diffs the part between the common prefix and suffix. Offsets written to `changes` are shifted
/// by `offset`; updates are appended to `updates` in ascending source order.
@inlinable
internal func _diffMiddle<Identity: _DiffIdentity>(
    source: UnsafeBufferPointer<Identity.Element>,
    target: UnsafeBufferPointer<Identity.Element>,
    offset: Int,
    identity: Identity,
    touchingCapacity: Int,
    into changes: inout Changeset,
    updates: inout [Changeset.OffsetPair]
) {
    let oldCount = source.count
    let newCount = target.count
    let capacity = _tableCapacity(forKeys: oldCount &+ newCount)
    let mask = capacity &- 1
    let slots = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: capacity)
    slots.initialize(repeating: 0)
    let nextSame = UnsafeMutableBufferPointer<Int32>.allocate(capacity: Swift.max(oldCount, 1))
    let sourceToTarget = UnsafeMutableBufferPointer<Int32>.allocate(capacity: Swift.max(oldCount, 1))
    sourceToTarget.initialize(repeating: -1)
    let targetToSource = UnsafeMutableBufferPointer<Int32>.allocate(capacity: Swift.max(newCount, 1))
    defer {
        slots.deallocate()
        nextSame.deallocate()
        sourceToTarget.deallocate()
        targetToSource.deallocate()
    }
    var duplicateSource: [Int] = []
    var duplicateTarget: [Int] = []

    // 2. Source identifiers, last to first, so each chain lists its offsets in ascending order.
    @inline(__always)
    func insertSource(_ old: Int, hash: Int) {
        let tag = _SlotBits.tag(hash)
        var bucket = hash & mask
        while true {
            let slot = slots[bucket]
            if slot == 0 {
                slots[bucket] = tag | UInt64(truncatingIfNeeded: old &+ 1)
                nextSame[old] = -1
                return
            }
            if slot & _SlotBits.tagMask == tag {
                let ref = Int(truncatingIfNeeded: slot & _SlotBits.refMask) &- 1
                if identity.sameIdentity(source[ref], source[old]) {
                    // `ref` is the chain's head; `old` comes before it and becomes the new head.
                    duplicateSource.append(offset &+ ref)
                    nextSame[old] = Int32(truncatingIfNeeded: ref)
                    slots[bucket] = tag | UInt64(truncatingIfNeeded: old &+ 1)
                    return
                }
            }
            bucket = (bucket &+ 1) & mask
        }
    }

    // 3. Target identifiers, first to last.
    var matched = 0
    var inOrder = true
    var lastMatched: Int32 = -1
    @inline(__always)
    func probeTarget(_ new: Int, id: Identity.Identifier, hash: Int) {
        let tag = _SlotBits.tag(hash)
        var bucket = hash & mask
        while true {
            let slot = slots[bucket]
            if slot == 0 {
                slots[bucket] = tag | _SlotBits.seenInTarget | UInt64(truncatingIfNeeded: oldCount &+ new &+ 1)
                targetToSource[new] = -1
                return
            }
            if slot & _SlotBits.tagMask == tag {
                let ref = Int(truncatingIfNeeded: slot & _SlotBits.refMask) &- 1
                let same =
                    ref < oldCount
                    ? identity.element(source[ref], has: id) : identity.element(target[ref &- oldCount], has: id)
                if same {
                    var updated = slot | _SlotBits.seenInTarget
                    if slot & _SlotBits.seenInTarget != 0 { duplicateTarget.append(offset &+ new) }
                    if ref < oldCount {
                        // `ref` is the first unmatched source element with this identifier.
                        let head = Int32(truncatingIfNeeded: ref)
                        targetToSource[new] = head
                        sourceToTarget[ref] = Int32(truncatingIfNeeded: new)
                        matched &+= 1
                        if head < lastMatched { inOrder = false }
                        lastMatched = head
                        // The slot now refers to the next unmatched source element, or, once the
                        // chain is used up, to this target element (same identifier).
                        let next = Int(nextSame[ref])
                        let nextRef = next >= 0 ? next : oldCount &+ new
                        updated = (updated & ~_SlotBits.refMask) | UInt64(truncatingIfNeeded: nextRef &+ 1)
                    } else {
                        targetToSource[new] = -1
                    }
                    slots[bucket] = updated
                    return
                }
            }
            bucket = (bucket &+ 1) & mask
        }
    }

    if capacity < touchingCapacity {
        // The table fits in the processor's caches: one identifier after another.
        var old = oldCount
        while old > 0 {
            old &-= 1
            insertSource(old, hash: identity.hashValue(of: source[old]))
        }
        for new in 0..<newCount {
            let id = identity.identifier(of: target[new])
            probeTarget(new, id: id, hash: id.hashValue)
        }
    } else {
        // A large table: identifiers go in by blocks. Hash the block, touch the slots it will probe
        // first so that the processor fetches their cache lines together instead of one miss at a
        // time, then insert or probe. Each identifier is still hashed once: the block keeps the
        // hashes.
        let hashes = UnsafeMutableBufferPointer<Int>.allocate(capacity: _tableBlock)
        defer { hashes.deallocate() }
        var old = oldCount
        while old > 0 {
            let low = Swift.max(old &- _tableBlock, 0)
            for index in low..<old { hashes[index &- low] = identity.hashValue(of: source[index]) }
            _touch(slots, hashes, count: old &- low, mask: mask)
            while old > low {
                old &-= 1
                insertSource(old, hash: hashes[old &- low])
            }
        }
        var low = 0
        while low < newCount {
            let high = Swift.min(low &+ _tableBlock, newCount)
            for index in low..<high { hashes[index &- low] = identity.hashValue(of: target[index]) }
            _touch(slots, hashes, count: high &- low, mask: mask)
            for new in low..<high {
                probeTarget(new, id: identity.identifier(of: target[new]), hash: hashes[new &- low])
            }
            low = high
        }
    }

    // 4. Moves: everything matched outside one longest increasing run.
    if !inOrder {
        let sequence = UnsafeMutableBufferPointer<Int32>.allocate(capacity: matched)
        let keep = UnsafeMutableBufferPointer<Bool>.allocate(capacity: matched)
        keep.initialize(repeating: false)
        defer {
            sequence.deallocate()
            keep.deallocate()
        }
        var position = 0
        for new in 0..<newCount where targetToSource[new] >= 0 {
            sequence[position] = targetToSource[new]
            position &+= 1
        }
        let stay = _markLongestIncreasingSubsequence(UnsafeBufferPointer(sequence), keep: keep)
        var moves: [Changeset.OffsetPair] = []
        moves.reserveCapacity(matched &- stay)
        position = 0
        for new in 0..<newCount where targetToSource[new] >= 0 {
            if !keep[position] {
                moves.append(
                    Changeset.OffsetPair(source: offset &+ Int(targetToSource[new]), target: offset &+ new))
            }
            position &+= 1
        }
        changes.moves = moves
    }

    // 5. Deletes and updates in source order, inserts in target order.
    var deletes: [Int] = []
    deletes.reserveCapacity(oldCount &- matched)
    for old in 0..<oldCount {
        let new = Int(sourceToTarget[old])
        if new < 0 {
            deletes.append(offset &+ old)
        } else if !identity.sameContent(source[old], target[new]) {
            updates.append(Changeset.OffsetPair(source: offset &+ old, target: offset &+ new))
        }
    }
    var inserts: [Int] = []
    inserts.reserveCapacity(newCount &- matched)
    for new in 0..<newCount where targetToSource[new] < 0 {
        inserts.append(offset &+ new)
    }
    changes.deletes = deletes
    changes.inserts = inserts
    if !duplicateSource.isEmpty || !duplicateTarget.isEmpty {
        changes.duplicates = Changeset.Duplicates(
            sourceOffsets: duplicateSource.sorted(), targetOffsets: duplicateTarget)
    }
}

/// The flat diff of two lists of hashable values, touching the table by blocks from
/// `touchingCapacity` slots up (`0`: always): lets tests run the path that large lists take on
/// small ones.
package func _flatDiff<Value: Hashable>(from source: [Value], to target: [Value], touchingCapacity: Int) -> Changeset {
    source.withUnsafeBufferPointer { old in
        target.withUnsafeBufferPointer { new in
            _flatDiff(old, new, identity: _HashableIdentity<Value>(), touchingCapacity: touchingCapacity)
        }
    }
}
