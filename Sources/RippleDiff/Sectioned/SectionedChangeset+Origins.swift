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
    /// - Complexity: O(*s* + *t* + *u* log *u*) plus the items of the sections with origins, and an
    ///   O(*n*) zero-filled table of where each source item lands.
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
        var survives = [Bool](repeating: false, count: sourceItemCounts.count)
        for origin in sectionOrigins where origin >= 0 { survives[origin] = true }
        // For each source section whose items the target section `t` took untouched: `t`.
        var untouchedTarget = [Int](repeating: -1, count: sourceItemCounts.count)
        for target in itemOrigins.indices where itemOrigins[target] == nil {
            untouchedTarget[sectionOrigins[target]] = target
        }

        // The flat target number of each source item that stays somewhere, or -1.
        var landing = [Int](repeating: -1, count: total)
        var inserts: [ElementPath] = []
        var moves: [PathPair] = []
        // Scratch, reused across sections: the kept items (those that stayed in their section) in
        // target order, as runs of consecutive source offsets.
        let runs = _KeptRuns(capacity: itemOrigins.reduce(0) { Swift.max($0, $1?.count ?? 0) })
        defer { runs.deallocate() }
        var sectionMoves: [PathPair] = []
        landing.withUnsafeMutableBufferPointer { landing in
            for target in itemOrigins.indices {
                let source = sectionOrigins[target]
                let low = source >= 0 ? sourceStarts[source] : 0
                let high = source >= 0 ? sourceStarts[source + 1] : 0
                let targetStart = targetStarts[target]
                guard let touched = itemOrigins[target] else { continue }  // Untouched: nothing to list.
                runs.removeAll()
                sectionMoves.removeAll(keepingCapacity: true)
                touched.withUnsafeBufferPointer { origins in
                    for item in origins.indices {
                        let origin = origins[item]
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
                        landing[origin] = targetStart &+ item
                        if origin >= low && origin < high {
                            runs.append(offset: origin &- low, target: item)
                        } else {
                            sectionMoves.append(
                                PathPair(
                                    source: _path(ofFlat: origin, starts: sourceStarts),
                                    target: ElementPath(item: item, section: target)))
                        }
                    }
                }
                if !runs.isInOrder {
                    runs.forEachMoved { offset, item in
                        sectionMoves.append(
                            PathPair(
                                source: ElementPath(item: offset, section: source),
                                target: ElementPath(item: item, section: target)))
                    }
                    sectionMoves.sort { $0.target.item < $1.target.item }
                }
                moves.append(contentsOf: sectionMoves)
            }
        }

        var deletes: [ElementPath] = []
        landing.withUnsafeBufferPointer { landing in
            for section in sourceItemCounts.indices where survives[section] && untouchedTarget[section] < 0 {
                let start = sourceStarts[section]
                for flat in start..<sourceStarts[section + 1] where landing[flat] < 0 {
                    deletes.append(ElementPath(item: flat &- start, section: section))
                }
            }
        }

        var updates: [PathPair] = []
        for flat in updatedItems {
            precondition(
                flat >= 0 && flat < total, "\(method): updated source item \(flat) is out of range 0..<\(total)")
            let source = _path(ofFlat: flat, starts: sourceStarts)
            if landing[flat] >= 0 {
                updates.append(PathPair(source: source, target: _path(ofFlat: landing[flat], starts: targetStarts)))
            } else if untouchedTarget[source.section] >= 0 {
                updates.append(
                    PathPair(source: source, target: ElementPath(item: source.item, section: untouchedTarget[source.section])))
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

/// The items that stayed in their section, in target order, kept as runs of consecutive source
/// offsets; chooses which of them move.
///
/// A batch leaves most of a section in place, so its kept items form a few long runs: the longest
/// increasing subsequence is found over the runs, each weighted by its length, instead of over the
/// items. A longest subsequence never takes part of a run (a run's source offsets are consecutive,
/// so any item that could follow part of it could follow all of it), so this is as minimal as the
/// item-level one.
struct _KeptRuns {
    /// Per run: its first source offset and its length.
    private let starts: UnsafeMutablePointer<Int>
    private let lengths: UnsafeMutablePointer<Int>
    /// The target offset of every kept item, in order.
    private let targets: UnsafeMutablePointer<Int>
    /// The state, in one box so that the scratch buffers are allocated once per change-set.
    private let counts: UnsafeMutablePointer<(runs: Int, items: Int, isInOrder: Bool)>

    /// Allocates scratch for sections of up to `capacity` items; call ``deallocate()`` after.
    init(capacity: Int) {
        let capacity = Swift.max(capacity, 1)
        starts = .allocate(capacity: capacity)
        lengths = .allocate(capacity: capacity)
        targets = .allocate(capacity: capacity)
        counts = .allocate(capacity: 1)
        counts.initialize(to: (0, 0, true))
    }

    func deallocate() {
        starts.deallocate()
        lengths.deallocate()
        targets.deallocate()
        counts.deallocate()
    }

    /// Whether the runs' offsets increase: then nothing moves.
    var isInOrder: Bool { counts.pointee.isInOrder }

    func removeAll() {
        counts.pointee = (0, 0, true)
    }

    /// Adds the next kept item: the source offset it came from, and its target offset.
    func append(offset: Int, target: Int) {
        let (runs, items, _) = counts.pointee
        targets[items] = target
        counts.pointee.items = items &+ 1
        if runs > 0 {
            let last = runs &- 1
            if starts[last] &+ lengths[last] == offset {
                lengths[last] &+= 1
                return
            }
            if offset < starts[last] { counts.pointee.isInOrder = false }
        }
        starts[runs] = offset
        lengths[runs] = 1
        counts.pointee.runs = runs &+ 1
    }

    /// Calls `body` with the source and target offsets of every kept item outside a longest
    /// increasing subsequence: the fewest items that must move.
    ///
    /// - Complexity: O(*r*²) for *r* runs up to 256; above that, O(*k* log *k*) over the *k*
    ///   items.
    func forEachMoved(_ body: (_ offset: Int, _ target: Int) -> Void) {
        let count = counts.pointee.runs
        var keep = [Bool](repeating: false, count: count)
        if count <= 256 {
            // best[i]: the most items a subsequence of runs ending with run i keeps.
            var best = [Int](repeating: 0, count: count)
            var previous = [Int](repeating: -1, count: count)
            var end = 0
            for i in 0..<count {
                best[i] = lengths[i]
                for j in 0..<i where starts[j] < starts[i] && best[j] &+ lengths[i] > best[i] {
                    best[i] = best[j] &+ lengths[i]
                    previous[i] = j
                }
                if best[i] > best[end] { end = i }
            }
            var run = end
            while run >= 0 {
                keep[run] = true
                run = previous[run]
            }
        } else {
            // Many runs: the item-level subsequence, with each run's items in it together.
            var values: [Int32] = []
            var runOf: [Int] = []
            values.reserveCapacity(counts.pointee.items)
            runOf.reserveCapacity(counts.pointee.items)
            for run in 0..<count {
                for index in 0..<lengths[run] {
                    values.append(Int32(truncatingIfNeeded: starts[run] &+ index))
                    runOf.append(run)
                }
            }
            var keptItems = [Bool](repeating: false, count: values.count)
            values.withUnsafeBufferPointer { values in
                keptItems.withUnsafeMutableBufferPointer { keptItems in
                    _ = _markLongestIncreasingSubsequence(values, keep: keptItems)
                }
            }
            // A longest subsequence keeps whole runs (see the type's note), so one item says it.
            for index in keptItems.indices where keptItems[index] { keep[runOf[index]] = true }
        }
        var item = 0
        for run in 0..<count {
            if !keep[run] {
                for index in 0..<lengths[run] { body(starts[run] &+ index, targets[item &+ index]) }
            }
            item &+= lengths[run]
        }
    }
}
