// The longest increasing subsequence, by patience sorting with back-pointers.
//
// Used to choose moves: among the matched elements listed in target order, the ones whose source
// offsets form a longest increasing run stay in place; every other matched element is a move.
// That makes the number of moves minimal: matched - LIS.

/// Marks the elements of a longest strictly increasing subsequence of `values`.
///
/// - Parameters:
///   - values: The sequence, with every value distinct.
///   - keep: Receives `true` at the positions that belong to the chosen subsequence; must have
///     `values.count` elements, all `false`.
/// - Returns: The length of the subsequence.
/// - Complexity: O(*k* log *k*) for *k* values; O(*k*) when `values` is mostly increasing, since
///   a value larger than every tail is appended without a search.
@inlinable
internal func _markLongestIncreasingSubsequence(
    _ values: UnsafeBufferPointer<Int32>,
    keep: UnsafeMutableBufferPointer<Bool>
) -> Int {
    let count = values.count
    if count == 0 { return 0 }
    // tails[l] = position (in values) of the smallest tail of an increasing run of length l + 1.
    let tails = UnsafeMutableBufferPointer<Int32>.allocate(capacity: count)
    let previous = UnsafeMutableBufferPointer<Int32>.allocate(capacity: count)
    defer {
        tails.deallocate()
        previous.deallocate()
    }
    var length = 0
    for position in 0..<count {
        let value = values[position]
        if length == 0 || values[Int(tails[length - 1])] < value {
            previous[position] = length == 0 ? -1 : tails[length - 1]
            tails[length] = Int32(truncatingIfNeeded: position)
            length += 1
            continue
        }
        // Smallest l with values[tails[l]] >= value.
        var low = 0
        var high = length - 1
        while low < high {
            let middle = (low + high) >> 1
            if values[Int(tails[middle])] < value { low = middle + 1 } else { high = middle }
        }
        previous[position] = low == 0 ? -1 : tails[low - 1]
        tails[low] = Int32(truncatingIfNeeded: position)
    }
    var position = Int(tails[length - 1])
    while position >= 0 {
        keep[position] = true
        position = Int(previous[position])
    }
    return length
}
