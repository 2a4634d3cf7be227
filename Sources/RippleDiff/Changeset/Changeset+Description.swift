extension Changeset: CustomStringConvertible, CustomDebugStringConvertible {
    /// A one-line summary such as `Changeset(5 → 6: delete [1], insert [0, 3], move [2→4])`.
    ///
    /// Empty parts are left out; an empty change-set reads `Changeset(5 → 5: no changes)`.
    /// Each list is cut after its first 20 entries, with a count of the rest (`[0, 1, …, 19, … 980 more]`),
    /// so that a huge change-set still prints as a readable line.
    public var description: String {
        var parts: [String] = []
        if !deletes.isEmpty { parts.append("delete \(_cappedList(deletes))") }
        if !inserts.isEmpty { parts.append("insert \(_cappedList(inserts))") }
        if !moves.isEmpty { parts.append("move \(_cappedList(moves))") }
        if !updates.isEmpty { parts.append("update \(_cappedList(updates))") }
        if !duplicates.sourceOffsets.isEmpty {
            parts.append("duplicate source \(_cappedList(duplicates.sourceOffsets))")
        }
        if !duplicates.targetOffsets.isEmpty {
            parts.append("duplicate target \(_cappedList(duplicates.targetOffsets))")
        }
        let body = parts.isEmpty ? "no changes" : parts.joined(separator: ", ")
        return "Changeset(\(sourceCount) → \(targetCount): \(body))"
    }

    /// The same text as ``description``.
    public var debugDescription: String { description }
}
