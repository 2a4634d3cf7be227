import RippleDiff

extension ListSnapshot {
    /// Removes the elements at `sorted` (ascending, unique, in range) and returns them (in no
    /// particular order), so that the caller decides where they are released.
    ///
    /// A few offsets are removed one by one, from the last, each copying only its path; many are
    /// removed by rebuilding the list from the others in one pass.
    ///
    /// - Complexity: O(*k* log *n*) for *k* offsets of *n* elements while *k* ≤ *n* / 8, otherwise
    ///   O(*n*).
    @inlinable
    mutating func extractSorted(_ sorted: [Int]) -> [Element] {
        var removed: [Element] = []
        removed.reserveCapacity(sorted.count)
        if sorted.count <= count / 8 {
            for offset in sorted.reversed() { removed.append(remove(at: offset)) }
            return removed
        }
        var kept: [Element] = []
        kept.reserveCapacity(count - sorted.count)
        var next = 0
        for (offset, element) in enumerated() {
            if next < sorted.count && sorted[next] == offset {
                removed.append(element)
                next += 1
            } else {
                kept.append(element)
            }
        }
        self = ListSnapshot(kept)
        return removed
    }

    /// Puts the elements in `order`: the element at `i` afterwards is the one at `order[i]` before
    /// (`order` is a permutation of `0..<count`), rebuilding the list from one array copy.
    ///
    /// - Complexity: O(*n*).
    @inlinable
    mutating func reorder(_ order: [Int]) {
        let old = Array(self)
        self = ListSnapshot(order.lazy.map { old[$0] })
    }
}
