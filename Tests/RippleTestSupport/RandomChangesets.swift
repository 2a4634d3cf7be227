// Seeded random change-sets that are valid by construction, for testing replay and staging apart
// from the diff that normally produces them.

import RippleDiff

extension Changeset {
    /// Generates a valid change-set with its parts in their documented order.
    ///
    /// Each source element is deleted, moved or kept at random; inserts and move destinations take
    /// random target offsets; a random share of the kept and moved elements is updated. Duplicates
    /// are left empty.
    ///
    /// - Parameters:
    ///   - maximumSourceCount: The largest source count to draw.
    ///   - maximumInsertCount: The largest number of inserts to draw.
    ///   - random: The generator to draw from.
    /// - Returns: A change-set for which ``replayRows(of:)`` and `validationFailure()` succeed.
    /// - Complexity: O((*n* + *m*)²) for the drawn source and target counts.
    public static func randomValid(
        maximumSourceCount: Int = 12,
        maximumInsertCount: Int = 6,
        using random: inout SplitMix64
    ) -> Changeset {
        let sourceCount = random.int(in: 0...maximumSourceCount)
        let rates = [0, 10, 30, 60]
        let deleteRate = rates[random.int(below: rates.count)]
        let moveRate = rates[random.int(below: rates.count)]
        var deletes: [Int] = []
        var moveSources: [Int] = []
        for offset in 0..<sourceCount {
            if random.chance(deleteRate, in: 100) {
                deletes.append(offset)
            } else if random.chance(moveRate, in: 100) {
                moveSources.append(offset)
            }
        }
        let insertCount = random.int(in: 0...maximumInsertCount)
        let targetCount = sourceCount - deletes.count + insertCount
        var freeTargets = Array(0..<targetCount)
        random.shuffle(&freeTargets)
        let inserts = freeTargets.prefix(insertCount).sorted()
        let moveTargets = Array(freeTargets.dropFirst(insertCount).prefix(moveSources.count))
        random.shuffle(&moveSources)
        let moves = zip(moveSources, moveTargets)
            .map { OffsetPair(source: $0, target: $1) }
            .sorted { $0.target < $1.target }
        var changes = Changeset(
            sourceCount: sourceCount, targetCount: targetCount, deletes: deletes, inserts: inserts, moves: moves)
        guard case .success(let rows) = replayRows(of: changes) else {
            preconditionFailure("Changeset.randomValid: built an invalid change-set \(changes)")
        }
        let updateRate = rates[random.int(below: rates.count)]
        for target in rows.indices {
            if case .source(let source) = rows[target], random.chance(updateRate, in: 100) {
                changes.updates.append(OffsetPair(source: source, target: target))
            }
        }
        changes.updates.sort()
        return changes
    }
}
