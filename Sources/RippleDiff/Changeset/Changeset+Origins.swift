extension Changeset {
    /// Builds the change-set of a list whose elements are tracked by position, with minimal moves.
    ///
    /// `origins[t]` says where the element now at target offset `t` came from: a source offset, or
    /// a negative number for an element that is new. Source offsets that appear nowhere are deleted.
    /// Among the elements that came from the source, a longest run that kept its order stays in
    /// place and the rest are moves, so the moves are minimal.
    ///
    /// This is how an observable collection folds a batch of mutations into one change-set without
    /// hashing anything: it tracks each element's origin while the batch is open.
    ///
    /// ```swift
    /// // [a, b, c] became [c, x, a]: c came from 2, x is new, a came from 0, b was deleted.
    /// let changes = Changeset(sourceCount: 3, origins: [2, -1, 0])
    /// // deletes [1], inserts [1], moves [2→0]
    /// ```
    ///
    /// - Parameters:
    ///   - sourceCount: The number of elements in the source.
    ///   - origins: For each target offset, the source offset it came from, or a negative number for
    ///     a new element. Each source offset may appear at most once.
    ///   - updatedSources: Source offsets whose content changed. Entries whose element was deleted
    ///     are ignored; the rest become ``updates``.
    /// - Complexity: O(*n* + *m* + *u*), plus O(*k* log *k*) when *k* kept elements changed order,
    ///   where *n* is `sourceCount`, *m* is `origins.count` and *u* is `updatedSources.count`.
    public init(sourceCount: Int, origins: [Int], updatedSources: some Sequence<Int> = []) {
        precondition(sourceCount >= 0, "Changeset(sourceCount:origins:): sourceCount \(sourceCount) is negative")
        let targetCount = origins.count
        var sourceToTarget = [Int](repeating: -1, count: sourceCount)
        var inserts: [Int] = []
        var kept: [Int32] = []
        var inOrder = true
        var last = -1
        for (target, origin) in origins.enumerated() {
            if origin < 0 {
                inserts.append(target)
                continue
            }
            precondition(
                origin < sourceCount,
                "Changeset(sourceCount:origins:): origin \(origin) at target offset \(target) is out of range 0..<\(sourceCount)"
            )
            precondition(
                sourceToTarget[origin] < 0,
                "Changeset(sourceCount:origins:): source offset \(origin) appears at target offsets \(sourceToTarget[origin]) and \(target)"
            )
            sourceToTarget[origin] = target
            kept.append(Int32(truncatingIfNeeded: origin))
            if origin < last { inOrder = false }
            last = origin
        }
        var moves: [OffsetPair] = []
        if !inOrder {
            var keep = [Bool](repeating: false, count: kept.count)
            kept.withUnsafeBufferPointer { values in
                keep.withUnsafeMutableBufferPointer { keep in
                    _ = _markLongestIncreasingSubsequence(values, keep: keep)
                }
            }
            var position = 0
            for (target, origin) in origins.enumerated() where origin >= 0 {
                if !keep[position] { moves.append(OffsetPair(source: origin, target: target)) }
                position += 1
            }
        }
        var deletes: [Int] = []
        for source in 0..<sourceCount where sourceToTarget[source] < 0 { deletes.append(source) }
        var updates: [OffsetPair] = []
        for source in updatedSources {
            precondition(
                source >= 0 && source < sourceCount,
                "Changeset(sourceCount:origins:): updated source offset \(source) is out of range 0..<\(sourceCount)")
            let target = sourceToTarget[source]
            if target >= 0 { updates.append(OffsetPair(source: source, target: target)) }
        }
        updates.sort()
        if updates.count > 1 {
            var unique = [updates[0]]
            for update in updates.dropFirst() where update != unique[unique.count - 1] { unique.append(update) }
            updates = unique
        }
        self.init(
            sourceCount: sourceCount, targetCount: targetCount,
            deletes: deletes, inserts: inserts, moves: moves, updates: updates)
    }
}
