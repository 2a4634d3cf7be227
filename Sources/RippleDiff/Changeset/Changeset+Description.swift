extension Changeset: CustomStringConvertible, CustomDebugStringConvertible {
    /// A one-line summary such as `Changeset(5 → 6: delete [1], insert [0, 3], move [2→4])`.
    ///
    /// Empty parts are left out; an empty change-set reads `Changeset(5 → 5: no changes)`.
    public var description: String {
        var parts: [String] = []
        if !deletes.isEmpty { parts.append("delete \(deletes)") }
        if !inserts.isEmpty { parts.append("insert \(inserts)") }
        if !moves.isEmpty { parts.append("move \(moves)") }
        if !updates.isEmpty { parts.append("update \(updates)") }
        if !duplicates.sourceOffsets.isEmpty {
            parts.append("duplicate source \(duplicates.sourceOffsets)")
        }
        if !duplicates.targetOffsets.isEmpty {
            parts.append("duplicate target \(duplicates.targetOffsets)")
        }
        let body = parts.isEmpty ? "no changes" : parts.joined(separator: ", ")
        return "Changeset(\(sourceCount) → \(targetCount): \(body))"
    }

    /// The same text as ``description``.
    public var debugDescription: String { description }
}
