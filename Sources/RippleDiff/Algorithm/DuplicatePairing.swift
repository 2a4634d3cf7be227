// Pairing repeated identifiers by place.
//
// Paired strictly in order, repeats cost many moves: when one of five rows with the same
// identifier is deleted, or one more is inserted, each later one pairs with its neighbour's
// partner, far from its own place, and moves. So when the source repeats identifiers (between the
// common prefix and suffix), the diff pairs by place instead, while it looks up the target
// (`_IdentifierTable.matchTarget`, step 3):
//
// 1. It follows the drift between the lists: a target element at offset t is expected at source
//    offset t + drift, and the drift is the offset (source - target) of the last pair made.
// 2. A target element looks at the unmatched source occurrences of its identifier, in source
//    order: it passes over those more than `_nearWindow` (4) before the expected offset, at most
//    `_nearScan` (8) of them, and takes the next one if it lies within 4 of the expected offset.
//    The ones passed over then stay unmatched for good.
// 3. Otherwise it waits, unmatched, and passes over nothing. The offset of the occurrence it
//    looked at is a hint: when it agrees (within 4) with the hint of one of the two elements that
//    waited before it since the last pair, the lists have shifted, and the drift moves there.
// 4. Afterwards, an identifier with exactly one unmatched occurrence left on each side pairs them
//    (usually a move). More are deleted and inserted: no pairing of them is more right than
//    another (which is also how `inferringMoves()` reads repeats).
//
// Moves are then chosen as always, minimal for this pairing. Each step costs O(1) per element
// (step 2 looks at no more than 9 occurrences), so repeated identifiers cost about what unique
// ones do. When no identifier repeats in the source, each identifier has at most one occurrence to
// take and the pairing is the in-order one.
//
// The window is a compromise. Wider, an inserted element takes a neighbour's occurrence more often
// (then both move); narrower, a burst of edits outruns it more often. 4 is the narrowest window
// that keeps the benchmark's `dups` shape (deletes and inserts at random) nearly all in place;
// docs/performance.md has the measurement of each width.

/// Pairs the occurrences left unmatched by the pairing by place: an identifier with exactly one
/// unmatched occurrence on each side pairs them.
///
/// `targetToSource[t]` is -2 - s for a target element whose identifier the source has, but that is
/// unmatched (one of `unmatched`), where `s` is a source occurrence of the identifier; other
/// unmatched elements are -1.
///
/// Each pass is written without a branch on the data (matched or not, how many left), which is as
/// unpredictable as the lists: a condition picks a value or an offset to write to, the last of
/// `sourceToTarget` and of the scratch arrays being a sink for writes that do not count.
///
/// - Parameters:
///   - sourceCount: The number of source elements in the middle.
///   - lastSame: For each source offset, the last source offset with its identifier.
///   - sourceToTarget: For each source offset, its target partner or -1, and one more element to
///     write to; updated.
///   - targetToSource: For each target offset, its source partner or a negative value; updated.
///   - unmatched: The target offsets of the unmatched elements whose identifier the source has.
///   - scratch: At least 5 × (`sourceCount` + 1) bytes of memory aligned for `Int32`, overwritten.
/// - Returns: The number of new pairs.
/// - Complexity: O(*n* + *u*) for *n* source elements and *u* unmatched target elements.
@inlinable
internal func _pairLeftovers(
    sourceCount: Int,
    lastSame: UnsafeMutableBufferPointer<Int32>,
    sourceToTarget: UnsafeMutableBufferPointer<Int32>,
    targetToSource: UnsafeMutableBufferPointer<Int32>,
    unmatched: UnsafeBufferPointer<Int32>,
    scratch: UnsafeMutableRawPointer
) -> Int {
    // An identifier is known by the last source offset of its chain. Per identifier: one unmatched
    // source occurrence, and its unmatched occurrences on each side (two bits each, saturating at
    // 2, since only "exactly one" matters: bits 0-1 the source's, 2-3 the target's).
    let sink = sourceCount
    let someSource = scratch.bindMemory(to: Int32.self, capacity: sourceCount &+ 1)
    let counts = (scratch + 4 &* (sourceCount &+ 1)).bindMemory(to: UInt8.self, capacity: sourceCount &+ 1)
    counts.initialize(repeating: 0, count: sourceCount &+ 1)
    for old in 0..<sourceCount {
        // All ones when `old` is unmatched, else zero.
        let open = Int(sourceToTarget[old] &>> 31)
        let key = Int(lastSame[old])
        let count = counts[key]
        counts[key] = count &+ (UInt8(truncatingIfNeeded: open & 1) & ~(count &>> 1) & 1)
        someSource[(key & open) | (sink & ~open)] = Int32(truncatingIfNeeded: old)
    }
    for new in unmatched {
        let key = Int(lastSame[Int(-2 &- targetToSource[Int(new)])])
        let count = counts[key]
        counts[key] = count &+ (~(count &>> 1) & 0x4)
        targetToSource[Int(new)] = -2 &- Int32(truncatingIfNeeded: key)
    }
    var paired = 0
    for new in unmatched {
        let key = Int(-2 &- targetToSource[Int(new)])
        // All ones when the identifier has one unmatched occurrence on each side, else zero.
        let pairs = Int32(truncatingIfNeeded: counts[key] == 0x5 ? -1 : 0)
        let old = someSource[key]
        targetToSource[Int(new)] = (old & pairs) | ~pairs
        sourceToTarget[Int((old & pairs) | (Int32(truncatingIfNeeded: sink) & ~pairs))] = new
        paired &-= Int(pairs)
    }
    return paired
}

/// How an identifier table pairs repeated identifiers (between the common prefix and suffix).
@usableFromInline
internal enum _DuplicatePairing {
    /// Strictly in order: each target occurrence takes the first unmatched source occurrence. The
    /// sectioned diff's rule, for sections and items (`docs/diff.md` says why).
    case inOrder
    /// By place when the source repeats identifiers (see above), otherwise in order. The public
    /// flat diffs' rule.
    case keepingOrder
}

/// The distance between two offsets.
@inlinable @inline(__always)
internal func _distance(_ a: Int, _ b: Int) -> Int { a > b ? a &- b : b &- a }

/// The offset between source and target partners that the pairing by place expects (see the
/// top of this file).
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
/// the top of this file).
@inlinable
internal var _nearWindow: Int { 4 }

/// How many unmatched occurrences before the window an occurrence of a repeated identifier passes
/// over at most (see the top of this file).
@inlinable
internal var _nearScan: Int { 8 }
