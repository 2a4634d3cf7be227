/// A row of slots, each occupied or free, that counts the occupied slots before any slot in
/// O(log *n*): a Fenwick (binary indexed) tree over 0/1 counts.
struct OccupancyCounts {
    /// `tree[i]` (1-based) sums the counts of the slots in `(i - lowbit(i)), i]`.
    private var tree: [Int32]

    /// Creates the counts with `occupied[slot]` telling whether each slot starts occupied.
    ///
    /// - Complexity: O(*n*).
    init(occupied: [Bool]) {
        tree = [Int32](repeating: 0, count: occupied.count + 1)
        for (slot, isOccupied) in occupied.enumerated() where isOccupied { tree[slot + 1] += 1 }
        // Push each node's sum to its parent once: the linear-time construction.
        for index in 1..<tree.count {
            let parent = index + (index & -index)
            if parent < tree.count { tree[parent] += tree[index] }
        }
    }

    /// The number of occupied slots before `slot`.
    ///
    /// - Complexity: O(log *n*).
    func occupied(before slot: Int) -> Int {
        var sum: Int32 = 0
        var index = slot
        while index > 0 {
            sum += tree[index]
            index &= index - 1
        }
        return Int(sum)
    }

    /// Marks `slot` occupied (`delta` 1) or free (`delta` -1).
    ///
    /// - Complexity: O(log *n*).
    mutating func add(_ delta: Int32, at slot: Int) {
        var index = slot + 1
        while index < tree.count {
            tree[index] += delta
            index += index & -index
        }
    }
}
