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
        self.init(
            sourceItemCounts: sourceItemCounts, sectionOrigins: sectionOrigins,
            sparseItemOrigins: itemOrigins.map { $0 },
            updatedSections: Array(updatedSourceSections), updatedItems: Array(updatedSourceItems))
    }

    /// ``init(sourceItemCounts:sectionOrigins:itemOrigins:updatedSourceSections:updatedSourceItems:)``
    /// with arrays, where `nil` origins stand for a section whose items are those of its source
    /// section, untouched and in order: a batch that touched a few sections pays for those.
    ///
    /// One body compiled for arrays, not a generic one run through witness tables from other
    /// modules. `package`: Ripple's sectioned collection folds its batches with it.
    ///
    /// - Precondition: A section with `nil` origins came from a source section.
    /// - Complexity: O(*s* + *t* + *u* log *u*) for *u* updates, plus one pass over the origins given
    ///   and O(*r* log *r* + *c* log *c*) for the *r* runs of items they keep in place and the *c*
    ///   items that change section; O(*r*²) more in a section with up to 256 runs out of order.
    package init(
        sourceItemCounts: [Int],
        sectionOrigins: [Int],
        sparseItemOrigins itemOrigins: [[Int]?],
        updatedSections: [Int],
        updatedItems: [Int]
    ) {
        let method = "SectionedChangeset(sourceItemCounts:sectionOrigins:itemOrigins:)"
        precondition(
            itemOrigins.count == sectionOrigins.count,
            "\(method): \(itemOrigins.count) item origin lists for \(sectionOrigins.count) target sections")
        let sections = Changeset(
            sourceCount: sourceItemCounts.count, origins: sectionOrigins, updatedSources: updatedSections)
        let sourceStarts = _itemStarts(sourceItemCounts)
        let total = sourceStarts[sourceItemCounts.count]
        let targetItemCounts = itemOrigins.indices.map { target in
            if let origins = itemOrigins[target] { return origins.count }
            let source = sectionOrigins[target]
            precondition(
                source >= 0, "\(method): the new section \(target) has no item origins; give it one per item")
            return sourceItemCounts[source]
        }
        let targetStarts = _itemStarts(targetItemCounts)
        // The target section each source section became, or -1 for a deleted one.
        var targetOfSource = [Int](repeating: -1, count: sourceItemCounts.count)
        for (target, origin) in sectionOrigins.enumerated() where origin >= 0 { targetOfSource[origin] = target }
        /// Whether source section `section` survives with its items untouched (no origins given).
        func isUntouched(_ section: Int) -> Bool {
            targetOfSource[section] >= 0 && itemOrigins[targetOfSource[section]] == nil
        }

        // Per source section, the runs of its items that stayed in it (in the section it became),
        // sorted by source offset; and where each item that changed section landed, as flat numbers.
        var keptRuns = [[_KeptRun]](repeating: [], count: sourceItemCounts.count)
        var crossLanding: [Int: Int] = [:]
        var inserts: [ElementPath] = []
        var moves: [PathPair] = []
        var sectionRuns: [_KeptRun] = []
        var sectionMoves: [PathPair] = []
        for target in itemOrigins.indices {
            guard let touched = itemOrigins[target] else { continue }  // Untouched: nothing to list.
            let source = sectionOrigins[target]
            let low = source >= 0 ? sourceStarts[source] : 0
            let high = source >= 0 ? sourceStarts[source + 1] : 0
            sectionRuns.removeAll(keepingCapacity: true)
            sectionMoves.removeAll(keepingCapacity: true)
            var inOrder = true
            touched.withUnsafeBufferPointer { origins in
                let count = origins.count
                var item = 0
                while item < count {
                    let origin = origins[item]
                    if origin < 0 {
                        if source >= 0 { inserts.append(ElementPath(item: item, section: target)) }
                        item &+= 1
                        continue
                    }
                    precondition(
                        origin < total,
                        "\(method): item origin \(origin) at (\(target) - \(item)) is out of range 0..<\(total)")
                    if origin >= low && origin < high {
                        // A run: consecutive in the source and in the target.
                        var end = item &+ 1
                        while end < count && origins[end] == origins[end &- 1] &+ 1 && origins[end] < high { end &+= 1 }
                        let run = _KeptRun(start: origin &- low, length: end &- item, target: item)
                        if let last = sectionRuns.last, run.start < last.start { inOrder = false }
                        sectionRuns.append(run)
                        item = end
                    } else {
                        precondition(
                            crossLanding.updateValue(targetStarts[target] &+ item, forKey: origin) == nil,
                            "\(method): source item \(origin) appears twice, the second time at (\(target) - \(item))")
                        sectionMoves.append(
                            PathPair(
                                source: _path(ofFlat: origin, starts: sourceStarts),
                                target: ElementPath(item: item, section: target)))
                        item &+= 1
                    }
                }
            }
            if !inOrder {
                let keep = _KeptRun.longestIncreasing(sectionRuns)
                for (index, run) in sectionRuns.enumerated() where !keep[index] {
                    for offset in 0..<run.length {
                        sectionMoves.append(
                            PathPair(
                                source: ElementPath(item: run.start &+ offset, section: source),
                                target: ElementPath(item: run.target &+ offset, section: target)))
                    }
                }
                sectionMoves.sort { $0.target.item < $1.target.item }
            }
            moves.append(contentsOf: sectionMoves)
            if source >= 0 { keptRuns[source] = inOrder ? sectionRuns : sectionRuns.sorted { $0.start < $1.start } }
        }

        // The items of each source section that left it, by offset.
        var leftFor = [[Int]](repeating: [], count: sourceItemCounts.count)
        for flat in crossLanding.keys {
            let path = _path(ofFlat: flat, starts: sourceStarts)
            leftFor[path.section].append(path.item)
        }
        var deletes: [ElementPath] = []
        for section in sourceItemCounts.indices where targetOfSource[section] >= 0 {
            var left = leftFor[section]
            left.sort()
            func twice(_ offset: Int) -> Never {
                preconditionFailure("\(method): source item \(sourceStarts[section] + offset) appears twice")
            }
            if isUntouched(section) {
                // All its items stayed, so none can also be elsewhere.
                if let offset = left.first { twice(offset) }
                continue
            }
            // The gaps between the kept runs are deletes, except the items that left.
            var next = 0
            var leftIndex = 0
            func gap(upTo end: Int) {
                while next < end {
                    if leftIndex < left.count && left[leftIndex] == next {
                        leftIndex &+= 1
                    } else {
                        deletes.append(ElementPath(item: next, section: section))
                    }
                    next &+= 1
                }
            }
            for run in keptRuns[section] {
                if run.start < next { twice(run.start) }
                gap(upTo: run.start)
                next = run.start &+ run.length
                if leftIndex < left.count && left[leftIndex] < next { twice(left[leftIndex]) }
            }
            gap(upTo: sourceItemCounts[section])
        }

        var updates: [PathPair] = []
        for flat in updatedItems {
            precondition(
                flat >= 0 && flat < total, "\(method): updated source item \(flat) is out of range 0..<\(total)")
            let source = _path(ofFlat: flat, starts: sourceStarts)
            if let landed = crossLanding[flat] {
                updates.append(PathPair(source: source, target: _path(ofFlat: landed, starts: targetStarts)))
            } else if isUntouched(source.section) {
                updates.append(
                    PathPair(
                        source: source, target: ElementPath(item: source.item, section: targetOfSource[source.section]))
                )
            } else if targetOfSource[source.section] >= 0,
                let run = _KeptRun.containing(source.item, in: keptRuns[source.section])
            {
                updates.append(
                    PathPair(
                        source: source,
                        target: ElementPath(
                            item: run.target &+ (source.item &- run.start), section: targetOfSource[source.section])))
            }
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

/// A run of items that stayed in their section: consecutive in the source and in the target.
///
/// A batch leaves most of a section in place, so its kept items form a few long runs: the longest
/// increasing subsequence is found over the runs, each weighted by its length, instead of over the
/// items. A longest subsequence never takes part of a run (a run's source offsets are consecutive,
/// so any item that could follow part of it could follow all of it), so this is as minimal as the
/// item-level one.
struct _KeptRun {
    /// The source offset of its first item, inside the section.
    var start: Int
    var length: Int
    /// The target offset of its first item, inside the section.
    var target: Int

    /// Which of `runs` (in target order) stay in place: a longest increasing subsequence of their
    /// source offsets, weighted by length; every item of the others moves.
    ///
    /// - Complexity: O(*r*²) for *r* runs up to 256; above that, O(*k* log *k*) over their *k*
    ///   items.
    static func longestIncreasing(_ runs: [_KeptRun]) -> [Bool] {
        let count = runs.count
        var keep = [Bool](repeating: false, count: count)
        guard count > 0 else { return keep }
        if count <= 256 {
            // best[i]: the most items a subsequence of runs ending with run i keeps.
            var best = [Int](repeating: 0, count: count)
            var previous = [Int](repeating: -1, count: count)
            var end = 0
            for i in 0..<count {
                best[i] = runs[i].length
                for j in 0..<i where runs[j].start < runs[i].start && best[j] &+ runs[i].length > best[i] {
                    best[i] = best[j] &+ runs[i].length
                    previous[i] = j
                }
                if best[i] > best[end] { end = i }
            }
            var run = end
            while run >= 0 {
                keep[run] = true
                run = previous[run]
            }
            return keep
        }
        // Many runs: the item-level subsequence; it keeps whole runs (see the type's note), so one
        // item of a run says whether the run stays.
        var values: [Int32] = []
        var runOf: [Int] = []
        for (index, run) in runs.enumerated() {
            for offset in 0..<run.length {
                values.append(Int32(truncatingIfNeeded: run.start &+ offset))
                runOf.append(index)
            }
        }
        var keptItems = [Bool](repeating: false, count: values.count)
        values.withUnsafeBufferPointer { values in
            keptItems.withUnsafeMutableBufferPointer { keptItems in
                _ = _markLongestIncreasingSubsequence(values, keep: keptItems)
            }
        }
        for index in keptItems.indices where keptItems[index] { keep[runOf[index]] = true }
        return keep
    }

    /// The run of `sorted` (by `start`, not overlapping) that holds source offset `offset`.
    ///
    /// - Complexity: O(log *r*).
    static func containing(_ offset: Int, in sorted: [_KeptRun]) -> _KeptRun? {
        var (low, high) = (0, sorted.count)
        while low < high {
            let middle = (low &+ high) / 2
            if sorted[middle].start &+ sorted[middle].length <= offset { low = middle &+ 1 } else { high = middle }
        }
        guard low < sorted.count, sorted[low].start <= offset else { return nil }
        return sorted[low]
    }
}
