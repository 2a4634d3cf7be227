// The flat diff: prefix/suffix trim, one hash per identifier, minimal moves.
//
// 1. Trim the common prefix and suffix (pairs with equal identifiers at equal distance from either
//    end) in one linear pass, without hashing. Unchanged lists end here.
// 2. Put the identifiers of the remaining source elements in a flat open-addressing table, chaining
//    duplicates in source order.
// 3. Look up each remaining target identifier: it takes the first unmatched source element with the
//    same identifier, or becomes an insert. When the source repeats identifiers, it takes the one
//    near its own place instead, and the leftovers pair afterwards (`DuplicatePairing.swift`).
//    Identifiers first seen in the target are added to the table too, so that repeats in the
//    target are reported.
// 4. If the matched source offsets are not increasing in target order, keep a longest increasing
//    subsequence in place and move the rest.
// 5. One pass over each side yields deletes, updates and inserts.

/// How the flat diff pairs repeated identifiers between the common prefix and suffix.
@usableFromInline
internal enum _DuplicatePairing {
    /// Strictly in order: each target occurrence takes the first unmatched source occurrence.
    case inOrder
    /// By place when the source repeats identifiers (see `DuplicatePairing.swift`), otherwise in
    /// order.
    case keepingOrder
}

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
            duplicatePairing: duplicatePairing,
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
    let oldCount = source.count
    let newCount = target.count
    // Sized for the source's identifiers; it doubles if new ones come. (Its memory serves as the
    // scratch space of steps 3 and 4, 12 bytes per source element, when it has that many.)
    var table = _SlotTable(forKeys: Swift.max(oldCount, 1))
    let seed = _hashSeed
    // Each identifier's source offsets in ascending order (-1 ends a chain).
    let nextSame = UnsafeMutableBufferPointer<Int32>.allocate(capacity: Swift.max(oldCount, 1))
    // For each source element, the last source offset with its identifier; allocated at the first
    // repeat, when the source's identifiers stop being unique.
    var lastSame = UnsafeMutableBufferPointer<Int32>(start: nil, count: 0)
    // One more than the source: the last is where the pairing of leftovers writes what does not
    // count.
    let sourceToTarget = UnsafeMutableBufferPointer<Int32>.allocate(capacity: oldCount &+ 1)
    sourceToTarget.initialize(repeating: -1)
    // The matched source offset, or -1 for an identifier the source lacks, or -2 - s when every
    // source element with the identifier is taken and `s` is one of them.
    let targetToSource = UnsafeMutableBufferPointer<Int32>.allocate(capacity: Swift.max(newCount, 1))
    // The offsets whose identifier occurred earlier on the same side, as bits; allocated at the
    // first repeat.
    var sourceRepeats = _OffsetBits()
    var targetRepeats = _OffsetBits()
    defer {
        table.deallocate()
        nextSame.deallocate()
        lastSame.deallocate()
        sourceToTarget.deallocate()
        targetToSource.deallocate()
        sourceRepeats.deallocate()
        targetRepeats.deallocate()
    }

    // 2. Source identifiers, last to first, so each chain lists its offsets in ascending order.
    //    While they are unique, each is new: a branch the processor predicts (`insertUnique`).
    //    From the first repeat on, whether one is new or repeats is as unpredictable as the list,
    //    so it is not branched on: both cases write the same slot and links, with different values
    //    (`insertSource`).

    // Inserts `old` and returns true if its identifier is new; returns false, inserting nothing,
    // if it is already there.
    @inline(__always)
    func insertUnique(_ old: Int, hash: Int) -> Bool {
        let tag = _SlotBits.tag(hash)
        var bucket = table.bucket(hash)
        while true {
            let slot = table.slots[bucket]
            if slot == 0 {
                table.slots[bucket] = tag | UInt64(truncatingIfNeeded: old &+ 1)
                table.count &+= 1
                nextSame[old] = -1
                return true
            }
            if slot & _SlotBits.tagMask == tag
                && identity.sameIdentity(source[Int(truncatingIfNeeded: slot & _SlotBits.offsetMask) &- 1], source[old])
            {
                return false
            }
            bucket = table.after(bucket)
        }
    }
    // Called at the first repeat, `old`: every identifier after it is the last of its chain.
    @inline(__always)
    func startRepeats(at old: Int) {
        sourceRepeats.allocate(capacity: oldCount)
        lastSame = .allocate(capacity: oldCount)
        for later in (old &+ 1)..<oldCount { lastSame[later] = Int32(truncatingIfNeeded: later) }
    }
    // Inserts `old`, new or repeated, after the first repeat.
    @inline(__always)
    func insertSource(_ old: Int, hash: Int) {
        let tag = _SlotBits.tag(hash)
        var bucket = table.bucket(hash)
        // An empty slot ends the probe as if it held `old` itself: same tag, same identifier. The
        // choice is arithmetic (`empty` is all ones or zero), not a select, which the compiler
        // would turn back into a branch on the slot.
        var found = 0  // The slot's offset, or -1 when it is empty.
        var empty = 0
        var ref = 0  // The slot's offset, or `old` when it is empty.
        while true {
            let slot = table.slots[bucket]
            found = Int(truncatingIfNeeded: slot & _SlotBits.offsetMask) &- 1
            empty = found &>> 63
            ref = found &+ (empty & (old &+ 1))
            let slotTag = (slot & _SlotBits.tagMask) | (UInt64(bitPattern: Int64(empty)) & tag)
            if slotTag == tag && identity.sameIdentity(source[ref], source[old]) { break }
            bucket = table.after(bucket)
        }
        // `ref` is the chain's head (or `old`); `old` comes before it and becomes the new head.
        table.slots[bucket] = tag | UInt64(truncatingIfNeeded: old &+ 1)
        table.count &-= empty
        nextSame[old] = Int32(truncatingIfNeeded: found)
        // The last offset of the chain is `old` itself when it is new (`ref` is `old`), else ref's.
        lastSame[old] = Int32(truncatingIfNeeded: old)
        lastSame[old] = lastSame[ref]
        sourceRepeats.insert(ref, if: UInt64(bitPattern: Int64(empty &+ 1)))
    }

    // 3. Target identifiers, first to last. With repeated identifiers in the source, by place (see
    //    `DuplicatePairing.swift`).
    var matched = 0
    var inOrder = true
    var lastMatched: Int32 = -1
    var choosesNearest = false
    // With `choosesNearest`, the target elements left unmatched although the source has their
    // identifier, in target order: the first `unmatchedCount` of `unmatched`.
    var unmatched = UnsafeMutableBufferPointer<Int32>(start: nil, count: 0)
    var unmatchedCount = 0
    defer { unmatched.deallocate() }
    var drift = _Drift()
    @inline(__always)
    func probeTarget(_ new: Int, id: Identity.Identifier, hash: Int) {
        let tag = _SlotBits.tag(hash)
        var bucket = table.bucket(hash)
        while true {
            let slot = table.slots[bucket]
            if slot == 0 {
                if table.count == table.limit {
                    // Full: double, then look for a free slot from the identifier's new bucket.
                    table.grow()
                    bucket = table.bucket(hash)
                    while table.slots[bucket] != 0 { bucket = table.after(bucket) }
                }
                table.slots[bucket] = tag | _SlotBits.seenInTarget | UInt64(truncatingIfNeeded: oldCount &+ new &+ 1)
                table.count &+= 1
                targetToSource[new] = -1
                return
            }
            if slot & _SlotBits.tagMask == tag {
                let ref = Int(truncatingIfNeeded: slot & _SlotBits.offsetMask) &- 1
                let same =
                    ref < oldCount
                    ? identity.element(source[ref], has: id) : identity.element(target[ref &- oldCount], has: id)
                if same {
                    if choosesNearest {
                        targetRepeats.insert(new, if: slot &>> 63)
                    } else if slot & _SlotBits.seenInTarget != 0 {
                        targetRepeats.insert(new, capacity: newCount)
                    }
                    if ref >= oldCount {
                        // An identifier only the target has.
                        targetToSource[new] = -1
                        table.slots[bucket] = slot | _SlotBits.seenInTarget
                    } else if slot & _SlotBits.usedUp != 0 {
                        // Every source element with this identifier is taken; `ref` is one of them.
                        targetToSource[new] = -2 &- Int32(truncatingIfNeeded: ref)
                        if choosesNearest {
                            unmatched[unmatchedCount] = Int32(truncatingIfNeeded: new)
                            unmatchedCount &+= 1
                        }
                    } else {
                        // `ref` is the first unmatched source element with this identifier.
                        var taken = ref
                        var next = Int(nextSame[ref])
                        if choosesNearest {
                            // Take the first within the window around the expected offset, passing
                            // over (at most 8) before it; if it is not there, wait. (A branch, not
                            // arithmetic: the processor predicts "take" and goes on to the next
                            // elements before this one's loads arrive; computed, the next expected
                            // offset would wait for them.)
                            let expected = new &+ drift.offset
                            var scanned = 0
                            while next >= 0 && taken < expected &- _nearWindow && scanned < _nearScan {
                                taken = next
                                next = Int(nextSame[next])
                                scanned &+= 1
                            }
                            if _distance(taken, expected) > _nearWindow {
                                drift.wait(taken &- new)
                                targetToSource[new] = -2 &- Int32(truncatingIfNeeded: ref)
                                table.slots[bucket] = slot | _SlotBits.seenInTarget
                                unmatched[unmatchedCount] = Int32(truncatingIfNeeded: new)
                                unmatchedCount &+= 1
                                return
                            }
                            drift.take(taken &- new)
                        }
                        let head = Int32(truncatingIfNeeded: taken)
                        targetToSource[new] = head
                        sourceToTarget[taken] = Int32(truncatingIfNeeded: new)
                        matched &+= 1
                        if head < lastMatched { inOrder = false }
                        lastMatched = head
                        // The slot now refers to the next unmatched source element or, once the
                        // chain is used up, stays on this one, marked as used up.
                        table.slots[bucket] =
                            next >= 0
                            ? (slot & ~_SlotBits.offsetMask) | _SlotBits.seenInTarget | UInt64(truncatingIfNeeded: next &+ 1)
                            : (slot & ~_SlotBits.offsetMask) | _SlotBits.seenInTarget | _SlotBits.usedUp
                                | UInt64(truncatingIfNeeded: taken &+ 1)
                    }
                    return
                }
            }
            bucket = table.after(bucket)
        }
    }

    if table.slots.count < touchingCapacity {
        // The table fits in the processor's caches: one identifier after another.
        var old = oldCount
        while old > 0 {
            old &-= 1
            let hash = identity.hash(of: source[old], seed: seed)
            if !insertUnique(old, hash: hash) {
                startRepeats(at: old)
                insertSource(old, hash: hash)
                break
            }
        }
        while old > 0 {
            old &-= 1
            insertSource(old, hash: identity.hash(of: source[old], seed: seed))
        }
        if case .keepingOrder = duplicatePairing, !sourceRepeats.isEmpty {
            choosesNearest = true
            targetRepeats.allocate(capacity: newCount)
            unmatched = .allocate(capacity: newCount)
        }
        for new in 0..<newCount {
            let id = identity.identifier(of: target[new])
            probeTarget(new, id: id, hash: _diffHash(id, seed: seed))
        }
    } else {
        // A large table: identifiers go in by blocks. Hash the block, touch the slots it will probe
        // first so that the processor fetches their cache lines together instead of one miss at a
        // time, then insert or probe. Each identifier is still hashed once: the block keeps the
        // hashes.
        let hashes = UnsafeMutableBufferPointer<Int>.allocate(capacity: _tableBlock)
        defer { hashes.deallocate() }
        var old = oldCount
        var low = oldCount
        @inline(__always)
        func hashBlock() {
            low = Swift.max(old &- _tableBlock, 0)
            for index in low..<old { hashes[index &- low] = identity.hash(of: source[index], seed: seed) }
            _touch(table, hashes, count: old &- low)
        }
        unique: while old > 0 {
            hashBlock()
            while old > low {
                if !insertUnique(old &- 1, hash: hashes[old &- 1 &- low]) {
                    startRepeats(at: old &- 1)
                    break unique
                }
                old &-= 1
            }
        }
        while old > 0 {
            if old == low { hashBlock() }
            old &-= 1
            insertSource(old, hash: hashes[old &- low])
        }
        if case .keepingOrder = duplicatePairing, !sourceRepeats.isEmpty {
            choosesNearest = true
            targetRepeats.allocate(capacity: newCount)
            unmatched = .allocate(capacity: newCount)
        }
        var first = 0
        while first < newCount {
            let end = Swift.min(first &+ _tableBlock, newCount)
            for index in first..<end { hashes[index &- first] = identity.hash(of: target[index], seed: seed) }
            _touch(table, hashes, count: end &- first)
            for new in first..<end {
                probeTarget(new, id: identity.identifier(of: target[new]), hash: hashes[new &- first])
            }
            first = end
        }
    }

    // From here on, the table's memory is scratch space for steps 3 and 4, which need 12 bytes per
    // source element. A table is at most about two-thirds full, so it nearly always has them; at
    // its fullest (22 elements in 32 slots: 256 bytes for 264) it does not, and the scratch space
    // is allocated instead.
    let scratchBytes = 12 &* oldCount
    let tableBytes = table.slots.count &* MemoryLayout<UInt64>.stride
    let allocatedScratch =
        tableBytes < scratchBytes
        ? UnsafeMutableRawPointer.allocate(byteCount: scratchBytes, alignment: MemoryLayout<UInt64>.alignment)
        : nil
    defer { allocatedScratch?.deallocate() }
    let scratch = allocatedScratch ?? UnsafeMutableRawPointer(table.slots.baseAddress.unsafelyUnwrapped)

    if unmatchedCount > 0 {
        // Occurrences left over by the pairing by place: one left on each side pairs.
        let paired = _pairLeftovers(
            sourceCount: oldCount, lastSame: lastSame, sourceToTarget: sourceToTarget,
            targetToSource: targetToSource,
            unmatched: UnsafeBufferPointer(rebasing: unmatched[0..<unmatchedCount]), scratch: scratch)
        if paired > 0 {
            matched &+= paired
            inOrder = false
        }
    }

    // 4. Moves: everything matched outside one longest increasing run; inserts in the same pass.
    if inOrder {
        changes.inserts = _exactArray(count: newCount &- matched) { inserts in
            var written = 0
            for new in 0..<newCount where targetToSource[new] < 0 {
                inserts[written] = offset &+ new
                written &+= 1
            }
            return written
        }
    } else {
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

    // 5. Deletes and updates in source order.
    changes.deletes = _exactArray(count: oldCount &- matched) { deletes in
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
    if !sourceRepeats.isEmpty || !targetRepeats.isEmpty {
        changes.duplicates = Changeset.Duplicates(
            sourceOffsets: sourceRepeats.offsets(shiftedBy: offset),
            targetOffsets: targetRepeats.offsets(shiftedBy: offset))
    }
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

/// The distance between two offsets.
@inlinable @inline(__always)
internal func _distance(_ a: Int, _ b: Int) -> Int { a > b ? a &- b : b &- a }

/// The offset between source and target partners that the pairing by place expects (see
/// `DuplicatePairing.swift`).
@usableFromInline
internal struct _Drift {
    /// The expected source offset minus the target offset.
    @usableFromInline var offset = 0
    /// Target elements that waited since the last pair or the last shift, and the hints of the
    /// last three.
    @usableFromInline var waited = 0
    @usableFromInline var a = 0
    @usableFromInline var b = 0
    @usableFromInline var c = 0

    @inlinable init() {}

    /// A pair was taken at `offset`.
    @inlinable @inline(__always)
    mutating func take(_ offset: Int) {
        self.offset = offset
        waited = 0
    }

    /// A target element waited; `offset` is its hint, the offset of the occurrence it looked at.
    /// When it agrees (within the window) with the hint of one of the two elements that waited
    /// before it, the drift moves there: the lists have shifted.
    @inlinable @inline(__always)
    mutating func wait(_ offset: Int) {
        a = b
        b = c
        c = offset
        waited &+= 1
        if waited >= 2
            && (_distance(b, c) <= _nearWindow || (waited >= 3 && _distance(a, c) <= _nearWindow))
        {
            self.offset = c
            waited = 0
        }
    }
}

/// How far from its expected source offset an occurrence of a repeated identifier pairs (see
/// `DuplicatePairing.swift`).
@inlinable
internal var _nearWindow: Int { 4 }

/// How many unmatched occurrences before the window an occurrence of a repeated identifier passes
/// over at most (see `DuplicatePairing.swift`).
@inlinable
internal var _nearScan: Int { 8 }

/// A set of offsets as bits, allocated at the first insertion; the flat diff's record of repeated
/// identifiers.
@usableFromInline
internal struct _OffsetBits {
    @usableFromInline var words: UnsafeMutableBufferPointer<UInt64>? = nil
    @usableFromInline var count = 0

    @inlinable init() {}

    @inlinable
    var isEmpty: Bool { count == 0 }

    /// Adds `offset`, which must be new and below `capacity`.
    @inlinable @inline(__always)
    mutating func insert(_ offset: Int, capacity: Int) {
        if words == nil { allocate(capacity: capacity) }
        words.unsafelyUnwrapped[offset >> 6] |= 1 &<< UInt64(truncatingIfNeeded: offset & 63)
        count &+= 1
    }

    /// Allocates room for offsets below `capacity`, so that ``insert(_:if:)`` can be used.
    @inlinable
    mutating func allocate(capacity: Int) {
        let buffer = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: (capacity &+ 63) >> 6)
        buffer.initialize(repeating: 0)
        words = buffer
    }

    /// Adds `offset`, which must be new and within the allocated room, when `bit` is 1 (and
    /// nothing when it is 0), without a branch.
    @inlinable @inline(__always)
    mutating func insert(_ offset: Int, if bit: UInt64) {
        words.unsafelyUnwrapped[offset >> 6] |= bit &<< UInt64(truncatingIfNeeded: offset & 63)
        count &+= Int(truncatingIfNeeded: bit)
    }

    /// The offsets, ascending, each plus `shift`.
    @inlinable
    func offsets(shiftedBy shift: Int) -> [Int] {
        guard let words else { return [] }
        return _exactArray(count: count) { offsets in
            var written = 0
            for index in 0..<words.count {
                var word = words[index]
                while word != 0 {
                    offsets[written] = shift &+ (index &<< 6) &+ word.trailingZeroBitCount
                    written &+= 1
                    word &= word &- 1
                }
            }
            return written
        }
    }

    @inlinable
    func deallocate() { words?.deallocate() }
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

