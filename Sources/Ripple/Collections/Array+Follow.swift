import RippleDiff

extension Array {
    /// Brings the array from the list `changes` starts from to `target`, the list it ends at:
    /// in place for one kind of change (inserts, deletes, updates, or a single move), so that an
    /// append costs O(1) and never copies the array; otherwise the array becomes `target`, sharing
    /// its buffer.
    ///
    /// A mirror of a list (a section's recorded items, an observed list) follows the list's events
    /// with it: repeating a single mutation in place keeps the mirror's buffer its own, where
    /// sharing the list's buffer would make the list's next mutation copy it.
    ///
    /// - Parameters:
    ///   - changes: The change from the array as it is to `target`.
    ///   - target: The list after the change.
    /// - Returns: What left the array (removed or replaced elements, or the whole old array), for
    ///   the caller to release where it chooses: after unlocking, when it holds a lock.
    /// - Complexity: O(*k*) for *k* elements appended or updated; O(*n*) for other changes.
    @discardableResult
    mutating func follow(_ changes: Changeset, to target: [Element]) -> [Element] {
        let (deletes, inserts, moves, updates) = (changes.deletes, changes.inserts, changes.moves, changes.updates)
        if deletes.isEmpty && moves.isEmpty && updates.isEmpty {
            if let first = inserts.first, first == count, inserts.count == target.count - count {
                append(contentsOf: target[first...])
            } else {
                for offset in inserts { insert(target[offset], at: offset) }
            }
            return []
        }
        if inserts.isEmpty && moves.isEmpty && updates.isEmpty && deletes.count == 1 {
            return [remove(at: deletes[0])]
        }
        if deletes.isEmpty && inserts.isEmpty && updates.isEmpty && moves.count == 1 {
            insert(remove(at: moves[0].source), at: moves[0].target)
            return []
        }
        if deletes.isEmpty && inserts.isEmpty && moves.isEmpty {
            var replaced: [Element] = []
            replaced.reserveCapacity(updates.count)
            for update in updates {
                replaced.append(self[update.target])
                self[update.target] = target[update.target]
            }
            return replaced
        }
        let old = self
        self = target
        return old
    }
}
