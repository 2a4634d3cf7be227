import RippleDiff

// The checks of moves and counts, phases 4 to 7 of `_Batch` (see BatchUpdateValidator+Checks.swift).

extension _Batch {
    // MARK: - 4. Move bounds (R8)

    /// Checks section moves (M12, M13), then item moves (M14, M15, M16, M17), ascending by source.
    func checkMoveBounds(before: [Int], after: [Int]) -> BatchUpdateViolation? {
        for move in sectionMoves {
            if !before.indices.contains(move.from) {
                return messages.m12(section: move.from, sectionCount: before.count)
            }
            if !after.indices.contains(move.to) {
                return messages.m13(section: move.from, to: move.to, sectionCount: after.count)
            }
        }
        for move in itemMoves {
            guard before.indices.contains(move.from.section) else {
                return messages.m14(move.from, sectionCount: before.count)
            }
            guard move.from.item >= 0 && move.from.item < before[move.from.section] else {
                return messages.m15(move.from, itemCount: before[move.from.section])
            }
            guard after.indices.contains(move.to.section) else {
                return messages.m16(move.from, to: move.to, sectionCount: after.count)
            }
            guard move.to.item >= 0 && move.to.item < after[move.to.section] else {
                return messages.m17(move.from, to: move.to, itemCount: after[move.to.section])
            }
        }
        return nil
    }

    // MARK: - 5. Move duplicates (R9)

    /// Identical moves are already merged. Checks one section moved to two places (M18), two
    /// sections moved to one place (M20), then the same for items (M19, M21).
    func checkMoveDuplicates() -> BatchUpdateViolation? {
        guard sectionMoves.count > 1 || itemMoves.count > 1 else { return nil }
        if let (from, first, second) = Self.firstSplit(sectionMoves.map { ($0.from, $0.to) }) {
            return messages.m18(section: from, to: first, and: second)
        }
        if let (to, first, second) = Self.firstSplit(sectionMoves.map { ($0.to, $0.from) }) {
            return messages.m20(section: first, and: second, to: to)
        }
        if let (from, first, second) = Self.firstSplit(itemMoves.map { ($0.from, $0.to) }) {
            return messages.m19(from, to: first, and: second)
        }
        if let (to, first, second) = Self.firstSplit(itemMoves.map { ($0.to, $0.from) }) {
            return messages.m21(first, and: second, to: to)
        }
        return nil
    }

    /// The smallest key that maps to two different values, with its two smallest values.
    private static func firstSplit<Key: Comparable, Value: Comparable>(
        _ pairs: [(Key, Value)]
    ) -> (Key, Value, Value)? {
        let sorted = pairs.sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        for index in sorted.indices.dropFirst() where sorted[index - 1].0 == sorted[index].0 {
            return (sorted[index].0, sorted[index - 1].1, sorted[index].1)
        }
        return nil
    }

    // MARK: - 6. Number of sections (R10)

    /// Checks that the after count equals the before count plus section inserts minus section
    /// deletes, reloads included (M22).
    func checkSectionCount(before: [Int], after: [Int]) -> BatchUpdateViolation? {
        let expected = before.count + allSectionInserts.count - allSectionDeletes.count
        guard after.count == expected else {
            return messages.m22(
                after: after.count, before: before.count,
                inserted: allSectionInserts.count, deleted: allSectionDeletes.count)
        }
        return nil
    }

    // MARK: - 7. Number of items (R11, R12)

    /// Places the sections: moved ones at their destinations, the others in order in the free
    /// slots. Valid only once phases 1 to 6 passed.
    func mapSections(before: [Int], after: [Int]) -> _SectionMap {
        var map = _SectionMap(
            targets: [Int?](repeating: nil, count: before.count),
            sources: [Int?](repeating: nil, count: after.count))
        var taken = [Bool](repeating: false, count: after.count)
        for section in allSectionInserts { taken[section] = true }
        for move in sectionMoves {
            taken[move.to] = true
            map.targets[move.from] = move.to
            map.sources[move.to] = move.from
        }
        var next = 0
        for section in before.indices
        where !allSectionDeletes.contains(section) && !sectionMoveSources.contains(section) {
            while taken[next] { next += 1 }
            map.targets[section] = next
            map.sources[next] = section
            next += 1
        }
        return map
    }

    /// Checks, for each after section in ascending order that is not inserted, that its count is
    /// the before count plus inserts minus deletes plus moves in minus moves out. A move counts
    /// only when it crosses sections, so a move inside a moved section is neutral (R12).
    func checkItemCounts(
        before: [Int], after: [Int], sections: _SectionMap,
        style: BatchUpdateValidator.CountMismatchStyle
    ) -> BatchUpdateViolation? {
        var inserted = [Int](repeating: 0, count: after.count)
        var deleted = [Int](repeating: 0, count: before.count)
        var movedIn = [Int](repeating: 0, count: after.count)
        var movedOut = [Int](repeating: 0, count: before.count)
        for path in addedItems { inserted[path.section] += 1 }
        for path in removedItems { deleted[path.section] += 1 }
        for move in itemMoves where sections.targets[move.from.section] != move.to.section {
            movedOut[move.from.section] += 1
            movedIn[move.to.section] += 1
        }
        for (target, source) in sections.sources.enumerated() {
            guard let source else { continue }
            // Checked arithmetic: counts come from the caller, and `Int.max` or `Int.min` must give
            // a violation, not an overflow trap. A sum beyond `Int` cannot equal any count.
            let (left, leftOverflow) = before[source].subtractingReportingOverflow(deleted[source] + movedOut[source])
            // Unreachable with real counts while repeats are merged and bounds are checked; only a
            // negative before count reaches it.
            if leftOverflow || left < 0 { return messages.m23(section: target) }
            let (expected, overflow) = left.addingReportingOverflow(inserted[target] + movedIn[target])
            if !overflow && after[target] == expected { continue }
            switch style {
            case .classic:
                return messages.m24(
                    _BatchUpdateMessages.SectionCounts(
                        section: target, after: after[target], before: before[source],
                        inserted: inserted[target], deleted: deleted[source],
                        movedIn: movedIn[target], movedOut: movedOut[source]))
            case .detailed:
                return messages.m25(before: before, after: after, updates: updateEntries())
            }
        }
        return nil
    }

    /// The batch as newer UIKit lists it in M25: reloads shown as a delete and an insert, repeats
    /// merged; deletes, then inserts, then moves, sections before items, each ascending.
    func updateEntries() -> [String] {
        var entries: [String] = []
        for section in allSectionDeletes.sorted() { entries.append(messages.updateEntry(.deleteSection(section))) }
        for path in itemDeletes.union(reloads.map(\.source)).sorted() {
            entries.append(messages.updateEntry(.deleteItem(path)))
        }
        for section in allSectionInserts.sorted() { entries.append(messages.updateEntry(.insertSection(section))) }
        for path in itemInserts.union(reloads.map(\.target)).sorted() {
            entries.append(messages.updateEntry(.insertItem(path)))
        }
        for move in sectionMoves { entries.append(messages.updateEntry(.moveSection(move.from, to: move.to))) }
        for move in itemMoves { entries.append(messages.updateEntry(.moveItem(move.from, to: move.to))) }
        return entries
    }
}
