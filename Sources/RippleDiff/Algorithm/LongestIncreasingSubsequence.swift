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
internal func _markLongestIncreasingSubsequence(
    _ values: UnsafeBufferPointer<Int32>,
    keep: UnsafeMutableBufferPointer<Bool>
) -> Int {
    let scratch = UnsafeMutableRawPointer.allocate(
        byteCount: Swift.max(_longestIncreasingSubsequenceScratch(values.count), 1),
        alignment: MemoryLayout<Int32>.alignment)
    defer { scratch.deallocate() }
    return _markLongestIncreasingSubsequence(values, keep: keep, scratch: scratch)
}

/// The bytes of scratch memory ``_markLongestIncreasingSubsequence(_:keep:scratch:)`` needs for
/// `count` values.
@inlinable
internal func _longestIncreasingSubsequenceScratch(_ count: Int) -> Int {
    3 &* MemoryLayout<Int32>.stride &* count
}

/// Marks the elements of a longest strictly increasing subsequence of `values`, working in
/// `scratch`: at least ``_longestIncreasingSubsequenceScratch(_:)`` bytes, aligned for `Int32`,
/// whose contents it overwrites.
@inlinable
internal func _markLongestIncreasingSubsequence(
    _ values: UnsafeBufferPointer<Int32>,
    keep: UnsafeMutableBufferPointer<Bool>,
    scratch: UnsafeMutableRawPointer
) -> Int {
    let count = values.count
    if count == 0 { return 0 }
    // tails[l] = position (in values) of the smallest tail of an increasing run of length l + 1;
    // tailValues[l] = values[tails[l]], kept apart so that the search reads one array.
    let base = scratch.bindMemory(to: Int32.self, capacity: 3 &* count)
    let tails = UnsafeMutableBufferPointer(start: base, count: count)
    let tailValues = UnsafeMutableBufferPointer(start: base + count, count: count)
    let previous = UnsafeMutableBufferPointer(start: base + 2 &* count, count: count)
    var length = 0
    for position in 0..<count {
        let value = values[position]
        if length == 0 || tailValues[length &- 1] < value {
            previous[position] = length == 0 ? -1 : tails[length &- 1]
            tails[length] = Int32(truncatingIfNeeded: position)
            tailValues[length] = value
            length &+= 1
            continue
        }
        // Smallest l with tailValues[l] >= value. tailValues[high] >= value; step down by doubling
        // strides until a tail below `value` is passed, then search in between.
        var high = length &- 1
        var stride = 1
        while high >= stride && tailValues[high &- stride] >= value {
            high &-= stride
            stride &<<= 1
        }
        var low = high >= stride ? high &- stride &+ 1 : 0
        while low < high {
            let middle = (low &+ high) >> 1
            if tailValues[middle] < value { low = middle &+ 1 } else { high = middle }
        }
        previous[position] = low == 0 ? -1 : tails[low &- 1]
        tails[low] = Int32(truncatingIfNeeded: position)
        tailValues[low] = value
    }
    var position = Int(tails[length &- 1])
    while position >= 0 {
        keep[position] = true
        position = Int(previous[position])
    }
    return length
}
