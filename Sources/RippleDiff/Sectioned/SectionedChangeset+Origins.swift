extension SectionedChangeset {
    /// Builds the change-set of a sectioned list whose sections and items are tracked by position,
    /// with minimal moves and no hashing.
    ///
    /// Items are numbered across the source sections in order: the item at `(section, item)` of
    /// the source has the *flat number* `sourceItemCounts[0..<section].sum() + item`.
    ///
    /// - `sectionOrigins[t]` is the source section the target section `t` came from, or a negative
    ///   number for a new section. Source sections that appear nowhere are deleted.
    /// - `itemOrigins[t][j]` is the flat number of the source item now at target path `(t, j)`, or
    ///   a negative number for a new item. Source items that appear nowhere are deleted; those of a
    ///   deleted section leave with it and are not listed.
    ///
    /// Among the items of a surviving section that stayed in it, a longest run that kept its order
    /// stays in place and the rest are moves, so the moves inside each section are minimal. An item
    /// that changed section is always one move (also out of a deleted section or into an inserted
    /// one, as a diff reports it; ``StagedSectionedChangeset`` rewrites those for UIKit). New items
    /// in a new section arrive with it and are not listed as inserts.
    ///
    /// This is how a sectioned observable collection folds a batch into one change-set: it keeps
    /// each section's and each item's origin while the batch is open.
    ///
    /// ```swift
    /// // Source: [[a, b], [c]]; target: [[c, a], [x]] where the second target section is new.
    /// let changes = SectionedChangeset(
    ///     sourceItemCounts: [2, 1], sectionOrigins: [0, -1], itemOrigins: [[2, 0], [-1]])
    /// // section 1 deleted, section 1 inserted; b deleted; c moves (1 - 0)→(0 - 0)
    /// ```
    ///
    /// - Parameters:
    ///   - sourceItemCounts: The number of items in each source section.
    ///   - sectionOrigins: For each target section, its source section or a negative number.
    ///     Each source section may appear at most once.
    ///   - itemOrigins: For each target section, for each of its items, the item's flat source
    ///     number or a negative number. Each flat number may appear at most once.
    ///   - updatedSourceSections: Source sections whose own value changed. Deleted ones are ignored.
    ///   - updatedSourceItems: Flat source numbers of items whose content changed. Deleted ones are
    ///     ignored; the rest become ``itemUpdates``.
    /// - Complexity: O(*s* + *t* + *n* + *m* + *u* log *u*) for *s* source and *t* target sections
    ///   holding *n* and *m* items and *u* updates, plus O(*k* log *k*) per section whose *k* kept
    ///   items changed order, and O(log *s*) per item that changed section.
    public init(
        sourceItemCounts: [Int],
        sectionOrigins: [Int],
        itemOrigins: [[Int]],
        updatedSourceSections: some Sequence<Int> = [],
        updatedSourceItems: some Sequence<Int> = []
    ) {
        let method = "SectionedChangeset(sourceItemCounts:sectionOrigins:itemOrigins:)"
        precondition(
            itemOrigins.count == sectionOrigins.count,
            "\(method): \(itemOrigins.count) item origin lists for \(sectionOrigins.count) target sections")
        let sections = Changeset(
            sourceCount: sourceItemCounts.count, origins: sectionOrigins, updatedSources: updatedSourceSections)
        let sourceStarts = _itemStarts(sourceItemCounts)
        let total = sourceStarts[sourceItemCounts.count]
        let targetItemCounts = itemOrigins.map(\.count)
        let targetStarts = _itemStarts(targetItemCounts)
        var survives = [Bool](repeating: false, count: sourceItemCounts.count)
        for origin in sectionOrigins where origin >= 0 { survives[origin] = true }

        // The flat target number of each source item that stays somewhere, or -1.
        var landing = [Int](repeating: -1, count: total)
        var inserts: [ElementPath] = []
        var moves: [PathPair] = []
        var kept: [Int32] = []
        var keptTargets: [Int] = []
        var sectionMoves: [PathPair] = []
        for (target, origins) in itemOrigins.enumerated() {
            let source = sectionOrigins[target]
            let low = source >= 0 ? sourceStarts[source] : 0
            let high = source >= 0 ? sourceStarts[source + 1] : 0
            kept.removeAll(keepingCapacity: true)
            keptTargets.removeAll(keepingCapacity: true)
            sectionMoves.removeAll(keepingCapacity: true)
            var inOrder = true
            var last: Int32 = -1
            for (item, origin) in origins.enumerated() {
                if origin < 0 {
                    if source >= 0 { inserts.append(ElementPath(item: item, section: target)) }
                    continue
                }
                precondition(
                    origin < total,
                    "\(method): item origin \(origin) at (\(target) - \(item)) is out of range 0..<\(total)")
                precondition(
                    landing[origin] < 0,
                    "\(method): source item \(origin) appears twice, the second time at (\(target) - \(item))")
                landing[origin] = targetStarts[target] + item
                if origin >= low && origin < high {
                    let offset = Int32(truncatingIfNeeded: origin - low)
                    if offset < last { inOrder = false }
                    last = offset
                    kept.append(offset)
                    keptTargets.append(item)
                } else {
                    sectionMoves.append(
                        PathPair(
                            source: _path(ofFlat: origin, starts: sourceStarts),
                            target: ElementPath(item: item, section: target)))
                }
            }
            if !inOrder {
                var keep = [Bool](repeating: false, count: kept.count)
                kept.withUnsafeBufferPointer { values in
                    keep.withUnsafeMutableBufferPointer { keep in
                        _ = _markLongestIncreasingSubsequence(values, keep: keep)
                    }
                }
                for index in kept.indices where !keep[index] {
                    sectionMoves.append(
                        PathPair(
                            source: ElementPath(item: Int(kept[index]), section: source),
                            target: ElementPath(item: keptTargets[index], section: target)))
                }
                sectionMoves.sort { $0.target.item < $1.target.item }
            }
            moves.append(contentsOf: sectionMoves)
        }

        var deletes: [ElementPath] = []
        for section in sourceItemCounts.indices where survives[section] {
            for flat in sourceStarts[section]..<sourceStarts[section + 1] where landing[flat] < 0 {
                deletes.append(ElementPath(item: flat - sourceStarts[section], section: section))
            }
        }

        var updates: [PathPair] = []
        for flat in updatedSourceItems {
            precondition(
                flat >= 0 && flat < total, "\(method): updated source item \(flat) is out of range 0..<\(total)")
            guard landing[flat] >= 0 else { continue }
            updates.append(
                PathPair(
                    source: _path(ofFlat: flat, starts: sourceStarts),
                    target: _path(ofFlat: landing[flat], starts: targetStarts)))
        }
        if updates.count > 1 {
            updates.sort()
            var unique = [updates[0]]
            for update in updates.dropFirst() where update != unique[unique.count - 1] { unique.append(update) }
            updates = unique
        }
        self.init(
            sections: sections, sourceItemCounts: sourceItemCounts, targetItemCounts: targetItemCounts,
            itemDeletes: deletes, itemInserts: inserts, itemMoves: moves, itemUpdates: updates)
    }
}
