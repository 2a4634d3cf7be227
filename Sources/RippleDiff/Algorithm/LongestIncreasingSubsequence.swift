// The longest increasing subsequence, by patience sorting with back-pointers.
//
// Used to choose moves: among the matched elements listed in target order, the ones whose source
// offsets form a longest increasing run stay in place; every other matched element is a move.
// That makes the number of moves minimal: matched - LIS.

/// Marks the elements of a longest strictly increasing subsequence of `values`.
///
/// The subsequence chosen is the one patience sorting finds: it ends with the last element that
/// ends an increasing run of the greatest length, and each of its elements is preceded by the last
/// element before it that ends a run one shorter. (Tests model this choice; see
/// `ReferenceDiff.swift` in the test support.)
///
/// - Parameters:
///   - values: The sequence, with every value distinct.
///   - keep: Receives `true` at the positions that belong to the chosen subsequence; must have
///     `values.count` elements, all `false`.
/// - Returns: The length of the subsequence.
/// - Complexity: O(*k* log *k*) for *k* values; O(*k*) when `values` is mostly increasing: the
///   run a value extends is searched for from the longest one down, by doubling steps, so a value
///   that extends one of the *d* longest runs costs O(log *d*).
@inlinable
package func _markLongestIncreasingSubsequence(
    _ values: UnsafeBufferPointer<Int32>,
    keep: UnsafeMutableBufferPointer<Bool>
) -> Int {
    let count = values.count
    if count == 0 { return 0 }
    // tails[l] = position (in values) of the smallest tail of an increasing run of length l + 1;
    // tailValues[l] = values[tails[l]], kept apart so that the search reads one array.
    let tails = UnsafeMutableBufferPointer<Int32>.allocate(capacity: count)
    let tailValues = UnsafeMutableBufferPointer<Int32>.allocate(capacity: count)
    let previous = UnsafeMutableBufferPointer<Int32>.allocate(capacity: count)
    defer {
        tails.deallocate()
        tailValues.deallocate()
        previous.deallocate()
    }
    var length = 0
    for position in 0..<count {
        previous[position] = _extendRun(
            with: values[position], at: position, tails: tails, tailValues: tailValues, length: &length)
    }
    var position = Int(tails[length &- 1])
    while position >= 0 {
        keep[position] = true
        position = Int(previous[position])
    }
    return length
}

/// One step of patience sorting, shared by both functions here: `value`, at `position`, ends a
/// run one longer than the longest whose smallest tail is below it.
///
/// `tails[l]` is the position of the smallest tail of an increasing run of length `l + 1`, and
/// `tailValues[l]` its value (kept apart so that the search reads one array); both are updated, and
/// `length` grows when `value` extends the longest run.
///
/// - Returns: The position of the element before `value` in its run, or -1.
/// - Complexity: O(1) when `value` extends the longest run; O(log *d*) when it extends one of the
///   *d* longest, since the run is searched for from the longest one down by doubling strides.
@inlinable @inline(__always)
internal func _extendRun(
    with value: Int32, at position: Int,
    tails: UnsafeMutableBufferPointer<Int32>, tailValues: UnsafeMutableBufferPointer<Int32>,
    length: inout Int
) -> Int32 {
    var low: Int
    if length == 0 || tailValues[length &- 1] < value {
        low = length
        length &+= 1
    } else {
        // Smallest l with tailValues[l] >= value. tailValues[high] >= value; step down by doubling
        // strides until a tail below `value` is passed, then search in between.
        var high = length &- 1
        var stride = 1
        while high >= stride && tailValues[high &- stride] >= value {
            high &-= stride
            stride &<<= 1
        }
        low = high >= stride ? high &- stride &+ 1 : 0
        while low < high {
            let middle = (low &+ high) >> 1
            if tailValues[middle] < value { low = middle &+ 1 } else { high = middle }
        }
    }
    tails[low] = Int32(truncatingIfNeeded: position)
    tailValues[low] = value
    return low == 0 ? -1 : tails[low &- 1]
}

/// Marks a longest strictly increasing run among the matched elements of a flat diff, read in
/// target order straight from `targetToSource` (negative entries are unmatched and skipped), with
/// the same choice as ``_markLongestIncreasingSubsequence(_:keep:)``.
///
/// Works in `scratch`, at least 12 bytes per matched element and aligned for `Int32`; on return its
/// first `matched` `Int32`s say, for each matched element in target order, whether it stays
/// (``_stays``).
///
/// - Parameters:
///   - targetToSource: For each target offset, its source partner or a negative value.
///   - matched: The number of non-negative entries.
///   - scratch: The working memory.
/// - Returns: The marks, and the length of the run.
/// - Complexity: O(*m* + *k* log *k*) for *m* target and *k* matched elements; O(*m*) when they are
///   mostly in order.
@inlinable
internal func _markLongestIncreasingRun(
    _ targetToSource: UnsafeMutableBufferPointer<Int32>,
    matched: Int,
    scratch: UnsafeMutableRawPointer
) -> (marks: UnsafeMutableBufferPointer<Int32>, length: Int) {
    let base = scratch.bindMemory(to: Int32.self, capacity: 3 &* matched)
    // previous[i]: the position of the element before the i-th in the best run ending there.
    let previous = UnsafeMutableBufferPointer(start: base, count: matched)
    let tails = UnsafeMutableBufferPointer(start: base + matched, count: matched)
    let tailValues = UnsafeMutableBufferPointer(start: base + 2 &* matched, count: matched)
    var length = 0
    var position = 0
    for new in 0..<targetToSource.count {
        let value = targetToSource[new]
        if value < 0 { continue }
        previous[position] = _extendRun(
            with: value, at: position, tails: tails, tailValues: tailValues, length: &length)
        position &+= 1
    }
    if length > 0 {
        var position = Int(tails[length &- 1])
        while position >= 0 {
            let before = Int(previous[position])
            previous[position] = _stays
            position = before
        }
    }
    return (previous, length)
}

/// The mark of ``_markLongestIncreasingRun(_:matched:scratch:)`` for an element that stays.
@inlinable
internal var _stays: Int32 { -2 }
