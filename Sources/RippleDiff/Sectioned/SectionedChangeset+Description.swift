extension SectionedChangeset: CustomStringConvertible, CustomDebugStringConvertible {
    /// A one-line summary of both levels, such as
    /// `SectionedChangeset(sections 3 → 3: delete [1], insert [2]; items 7 → 6: move [(0 - 1)→(1 - 0)])`.
    ///
    /// Empty parts are left out; a level without changes reads `no changes`.
    public var description: String {
        var sectionParts: [String] = []
        if !sections.deletes.isEmpty { sectionParts.append("delete \(sections.deletes)") }
        if !sections.inserts.isEmpty { sectionParts.append("insert \(sections.inserts)") }
        if !sections.moves.isEmpty { sectionParts.append("move \(sections.moves)") }
        if !sections.updates.isEmpty { sectionParts.append("update \(sections.updates)") }
        if !sections.duplicates.sourceOffsets.isEmpty {
            sectionParts.append("duplicate source \(sections.duplicates.sourceOffsets)")
        }
        if !sections.duplicates.targetOffsets.isEmpty {
            sectionParts.append("duplicate target \(sections.duplicates.targetOffsets)")
        }
        var itemParts: [String] = []
        if !itemDeletes.isEmpty { itemParts.append("delete \(itemDeletes)") }
        if !itemInserts.isEmpty { itemParts.append("insert \(itemInserts)") }
        if !itemMoves.isEmpty { itemParts.append("move \(itemMoves)") }
        if !itemUpdates.isEmpty { itemParts.append("update \(itemUpdates)") }
        if !itemDuplicates.sourcePaths.isEmpty {
            itemParts.append("duplicate source \(itemDuplicates.sourcePaths)")
        }
        if !itemDuplicates.targetPaths.isEmpty {
            itemParts.append("duplicate target \(itemDuplicates.targetPaths)")
        }
        let sourceItems = sourceItemCounts.reduce(0, +)
        let targetItems = targetItemCounts.reduce(0, +)
        let sectionBody = sectionParts.isEmpty ? "no changes" : sectionParts.joined(separator: ", ")
        let itemBody = itemParts.isEmpty ? "no changes" : itemParts.joined(separator: ", ")
        return "SectionedChangeset(sections \(sections.sourceCount) → \(sections.targetCount): \(sectionBody); "
            + "items \(sourceItems) → \(targetItems): \(itemBody))"
    }

    /// The same text as ``description``.
    public var debugDescription: String { description }
}
