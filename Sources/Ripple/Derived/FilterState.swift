import RippleDiff

/// What a ``FilteredList`` keeps of its source, and the step that turns a source change-set into
/// the filtered list's: a value, mutated by one thread at a time (the list's processor), with the
/// predicate already evaluated. The filtered elements themselves are the list's (its
/// ``DerivedList/snapshot``); the steps below take them `inout`.
struct FilterState<Element: Sendable>: Sendable {
    /// Which source elements pass, in source order.
    var passes: PassCounts

    /// The state of `source` filtered by `isIncluded`, which runs once per element, in order, and
    /// the passing elements, in source order: the filtered list.
    ///
    /// - Complexity: O(*n*).
    static func filtering(
        _ source: ListSnapshot<Element>, by isIncluded: (Element) -> Bool
    ) -> (state: FilterState, elements: ListSnapshot<Element>) {
        let evaluated = evaluate(source, isIncluded)
        return (FilterState(passes: PassCounts(evaluated.flags)), ListSnapshot(evaluated.passing))
    }

    /// `isIncluded` of every element of `source`, and the elements that pass, in one pass (this
    /// code is generic and not inlined into the caller, so every element it copies or hands to a
    /// generic call goes through its type's metadata: one pass, and one bulk build after it).
    private static func evaluate(
        _ source: ListSnapshot<Element>, _ isIncluded: (Element) -> Bool
    ) -> (flags: [Bool], passing: [Element]) {
        var flags: [Bool] = []
        flags.reserveCapacity(source.count)
        var passing: [Element] = []
        for element in source {
            let passes = isIncluded(element)
            flags.append(passes)
            if passes { passing.append(element) }
        }
        return (flags, passing)
    }

    /// The new flags of the elements a source change-set brings: one per insert, move and update,
    /// in the change-set's order.
    struct Flags {
        var inserts: [Bool]
        var moves: [Bool]
        var updates: [Bool]

        /// Evaluates `isIncluded` on the elements `changeset` inserts, moves and updates, as they are in
        /// `after`.
        init(of changeset: Changeset, in after: ListSnapshot<Element>, _ isIncluded: (Element) -> Bool) {
            inserts = changeset.inserts.map { isIncluded(after[$0]) }
            moves = changeset.moves.map { isIncluded(after[$0.target]) }
            updates = changeset.updates.map { isIncluded(after[$0.target]) }
        }
    }

    /// Applies a source change-set, with the flags of the elements it brings, to this state and to
    /// `elements`, and returns the filtered list's change-set.
    ///
    /// - Parameters:
    ///   - changeset: The source's change-set, from the source these flags describe.
    ///   - after: The source after it.
    ///   - flags: The new flags of the inserted, moved and updated elements.
    ///   - elements: The filtered list this state describes; it becomes the new one.
    /// - Returns: The change-set from the old filtered list to the new one; empty when no passing
    ///   element was touched.
    /// - Complexity: O(*k* log *n*) for *k* changes in a source of *n* elements.
    mutating func apply(
        _ changeset: Changeset, after: ListSnapshot<Element>, flags: Flags, elements: inout ListSnapshot<Element>
    ) -> Changeset {
        let oldCount = elements.count
        // Where the touched elements were among the passing ones, before the change.
        var deletes = changeset.deletes.map { passes.flagAndRank(at: $0) }.filter(\.passes).map(\.rank)
        let moveSources = changeset.moves.map { passes.flagAndRank(at: $0.source) }
        let updateSources = changeset.updates.map { passes.flagAndRank(at: $0.source) }
        let moved = Set(changeset.moves.map(\.source))

        // The flags in the new source order: removals from the end, insertions from the start.
        for offset in (changeset.deletes + changeset.moves.map(\.source)).sorted(by: >) { passes.remove(at: offset) }
        let arrivals = (Array(zip(changeset.inserts, flags.inserts)) + zip(changeset.moves.map(\.target), flags.moves))
            .sorted { $0.0 < $1.0 }
        for (offset, flag) in arrivals { passes.insert(flag, at: offset) }
        for (update, flag) in zip(changeset.updates, flags.updates) where !moved.contains(update.source) {
            passes.set(flag, at: update.target)
        }

        // The filtered list's changes, with the source offset each arriving element comes from.
        var inserts: [(target: Int, from: Int)] = []
        var moves: [(pair: Changeset.OffsetPair, from: Int)] = []
        var updates: [(pair: Changeset.OffsetPair, from: Int)] = []
        for (target, flag) in zip(changeset.inserts, flags.inserts) where flag {
            inserts.append((passes.rank(of: target), target))
        }
        for ((move, flag), old) in zip(zip(changeset.moves, flags.moves), moveSources) {
            switch (old.passes, flag) {
            case (true, true):
                moves.append(
                    (Changeset.OffsetPair(source: old.rank, target: passes.rank(of: move.target)), move.target))
            case (true, false): deletes.append(old.rank)
            case (false, true): inserts.append((passes.rank(of: move.target), move.target))
            case (false, false): break
            }
        }
        for ((update, flag), old) in zip(zip(changeset.updates, flags.updates), updateSources) {
            let isMoved = moved.contains(update.source)
            switch (old.passes, flag) {
            case (true, true):
                updates.append(
                    (Changeset.OffsetPair(source: old.rank, target: passes.rank(of: update.target)), update.target))
            case (true, false) where !isMoved: deletes.append(old.rank)
            case (false, true) where !isMoved: inserts.append((passes.rank(of: update.target), update.target))
            default: break
            }
        }

        // The same changes on the filtered list.
        deletes.sort()
        for offset in (deletes + moves.map(\.pair.source)).sorted(by: >) { elements.remove(at: offset) }
        let arriving = (inserts + moves.map { ($0.pair.target, $0.from) }).sorted { $0.target < $1.target }
        for (target, from) in arriving { elements.insert(after[from], at: target) }
        for (pair, from) in updates { elements[pair.target] = after[from] }
        let insertTargets = inserts.map(\.target).sorted()
        return Changeset(
            sourceCount: oldCount, targetCount: elements.count, deletes: deletes, inserts: insertTargets,
            moves: Self.necessaryMoves(moves.map(\.pair), deletes: deletes, inserts: insertTargets),
            updates: updates.map(\.pair).sorted())
    }

    /// The moves among `moves` that must stay moves, ascending by target: a source move can keep
    /// its element's place among the filtered ones (the elements it passed over were filtered out),
    /// and UIKit would animate such a move for nothing.
    ///
    /// A move can become a kept element when as many kept elements precede it before the change as
    /// after; of those, a longest run in increasing target order stays (the others would cross it).
    ///
    /// - Parameters:
    ///   - moves: The filtered list's moves.
    ///   - deletes: Its deletes, ascending.
    ///   - inserts: Its inserts, ascending.
    /// - Complexity: O(*m* log *m* + *m* log *k*) for *m* moves and *k* deletes and inserts.
    static func necessaryMoves(
        _ moves: [Changeset.OffsetPair], deletes: [Int], inserts: [Int]
    ) -> [Changeset.OffsetPair] {
        guard !moves.isEmpty else { return [] }
        let sources = moves.map(\.source).sorted()
        let targets = moves.map(\.target).sorted()
        /// How many of `sorted` are below `value`.
        func countBelow(_ value: Int, in sorted: [Int]) -> Int {
            var (low, high) = (0, sorted.count)
            while low < high {
                let middle = (low + high) / 2
                if sorted[middle] < value { low = middle + 1 } else { high = middle }
            }
            return low
        }
        let candidates = moves.filter { move in
            move.source - countBelow(move.source, in: deletes) - countBelow(move.source, in: sources)
                == move.target - countBelow(move.target, in: inserts) - countBelow(move.target, in: targets)
        }.sorted()
        var stays = [Bool](repeating: false, count: candidates.count)
        let candidateTargets = candidates.map { Int32($0.target) }
        candidateTargets.withUnsafeBufferPointer { values in
            stays.withUnsafeMutableBufferPointer { _ = _markLongestIncreasingSubsequence(values, keep: $0) }
        }
        let staying = Set(zip(candidates, stays).filter(\.1).map(\.0))
        return moves.filter { !staying.contains($0) }.sorted { $0.target < $1.target }
    }

    /// Filters `source` (the source this state describes) again with `isIncluded`, replaces
    /// `elements` (the filtered list this state describes) with the result, and returns the
    /// change-set from the old filtered list to the new one: deletes and inserts only, since both
    /// keep the source's order.
    ///
    /// - Complexity: O(*n*), and *n* calls of `isIncluded`.
    mutating func refilter(
        _ source: ListSnapshot<Element>, by isIncluded: (Element) -> Bool, elements: inout ListSnapshot<Element>
    ) -> Changeset {
        let passed = passes.flags
        let oldCount = elements.count
        let evaluated = Self.evaluate(source, isIncluded)
        let flags = evaluated.flags
        passes = PassCounts(flags)
        elements = ListSnapshot(evaluated.passing)
        var deletes: [Int] = []
        var inserts: [Int] = []
        var old = 0
        var new = 0
        for offset in flags.indices {
            switch (passed[offset], flags[offset]) {
            case (true, true):
                old += 1
                new += 1
            case (true, false):
                deletes.append(old)
                old += 1
            case (false, true):
                inserts.append(new)
                new += 1
            case (false, false): break
            }
        }
        return Changeset(sourceCount: oldCount, targetCount: elements.count, deletes: deletes, inserts: inserts)
    }
}
