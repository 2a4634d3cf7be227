// Pairing repeated identifiers by place.
//
// Paired strictly in order, repeats cost many moves: when one of five rows with the same
// identifier is deleted, or one more is inserted, each later one pairs with its neighbour's
// partner, far from its own place, and moves. So when the source repeats identifiers (between the
// common prefix and suffix), the diff pairs by place instead, while it looks up the target
// (`_diffMiddle`, step 3):
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
// (then both move); narrower, a burst of edits outruns it more often. On the benchmark's `dups`
// shape (10% deleted and inserted at random), 4 keeps 99.9% of the longest common subsequence in
// place; 2 and 3 lose track, 8 keeps as much but takes neighbours' occurrences in lists whose
// identifiers repeat every 10 elements or so.

/// Pairs the occurrences left unmatched by the pairing by place: an identifier with exactly one
/// unmatched occurrence on each side pairs them.
///
/// `nextSame` chains the source offsets of each identifier in ascending order (-1 ends a chain).
/// `targetToSource[t]` is -2 - s for a target element whose identifier the source has, but that is
/// unmatched (one of `unmatched`), where `s` is a source occurrence of the identifier; other
/// unmatched elements are -1.
///
/// - Parameters:
///   - sourceCount: The number of source elements in the middle.
///   - nextSame: The chains of repeated identifiers in the source.
///   - lastSame: For each source offset whose identifier repeats later, the last source offset
///     with the identifier.
///   - sourceToTarget: For each source offset, its target partner or -1; updated.
///   - targetToSource: For each target offset, its source partner or a negative value; updated.
///   - unmatched: The target offsets of the unmatched elements whose identifier the source has.
///   - scratch: At least 5 × `sourceCount` bytes of memory aligned for `Int32`, overwritten.
/// - Returns: The number of new pairs.
/// - Complexity: O(*n* + *u*) for *n* source elements and *u* unmatched target elements.
@inlinable
internal func _pairLeftovers(
    sourceCount: Int,
    nextSame: UnsafeMutableBufferPointer<Int32>,
    lastSame: UnsafeMutableBufferPointer<Int32>,
    sourceToTarget: UnsafeMutableBufferPointer<Int32>,
    targetToSource: UnsafeMutableBufferPointer<Int32>,
    unmatched: [Int32],
    scratch: UnsafeMutableRawPointer
) -> Int {
    // An identifier is known by the last source offset of its chain.
    @inline(__always)
    func last(_ member: Int) -> Int {
        nextSame[member] < 0 ? member : Int(lastSame[member])
    }
    // Per identifier: one unmatched source occurrence, and its unmatched occurrences on each side
    // (two bits each, saturating at 2, since only "exactly one" matters).
    let someSource = scratch.bindMemory(to: Int32.self, capacity: sourceCount)
    let counts = (scratch + 4 &* sourceCount).bindMemory(to: UInt8.self, capacity: sourceCount)
    counts.initialize(repeating: 0, count: sourceCount)
    for old in 0..<sourceCount where sourceToTarget[old] < 0 {
        let key = last(old)
        if counts[key] & 0x3 < 2 { counts[key] &+= 1 }
        someSource[key] = Int32(truncatingIfNeeded: old)
    }
    for new in unmatched {
        let key = last(Int(-2 &- targetToSource[Int(new)]))
        if counts[key] & 0xC < 0x8 { counts[key] &+= 0x4 }
        targetToSource[Int(new)] = -2 &- Int32(truncatingIfNeeded: key)
    }
    var paired = 0
    for new in unmatched {
        let key = Int(-2 &- targetToSource[Int(new)])
        if counts[key] == 0x5 {
            let old = someSource[key]
            targetToSource[Int(new)] = old
            sourceToTarget[Int(old)] = new
            paired &+= 1
        } else {
            targetToSource[Int(new)] = -1
        }
    }
    return paired
}
