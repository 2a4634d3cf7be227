extension SectionedChangeset: CustomStringConvertible, CustomDebugStringConvertible {
    /// A one-line summary of both levels, such as
    /// `SectionedChangeset(sections 3 → 3: delete [1], insert [2]; items 7 → 6: move [(0 - 1)→(1 - 0)])`.
    ///
    /// Empty parts are left out; a level without changes reads `no changes`.
    /// Each list is cut after its first 20 entries, with a count of the rest (`[0, 1, …, 19, … 980 more]`),
    /// so that a huge change-set still prints as a readable line.
    public var description: String {
        var sectionParts: [String] = []
        if !sections.deletes.isEmpty { sectionParts.append("delete \(_cappedList(sections.deletes))") }
        if !sections.inserts.isEmpty { sectionParts.append("insert \(_cappedList(sections.inserts))") }
        if !sections.moves.isEmpty { sectionParts.append("move \(_cappedList(sections.moves))") }
        if !sections.updates.isEmpty { sectionParts.append("update \(_cappedList(sections.updates))") }
        if !sections.duplicates.sourceOffsets.isEmpty {
            sectionParts.append("duplicate source \(_cappedList(sections.duplicates.sourceOffsets))")
        }
        if !sections.duplicates.targetOffsets.isEmpty {
            sectionParts.append("duplicate target \(_cappedList(sections.duplicates.targetOffsets))")
        }
        var itemParts: [String] = []
        if !itemDeletes.isEmpty { itemParts.append("delete \(_cappedList(itemDeletes))") }
        if !itemInserts.isEmpty { itemParts.append("insert \(_cappedList(itemInserts))") }
        if !itemMoves.isEmpty { itemParts.append("move \(_cappedList(itemMoves))") }
        if !itemUpdates.isEmpty { itemParts.append("update \(_cappedList(itemUpdates))") }
        if !itemDuplicates.sourcePaths.isEmpty {
            itemParts.append("duplicate source \(_cappedList(itemDuplicates.sourcePaths))")
        }
        if !itemDuplicates.targetPaths.isEmpty {
            itemParts.append("duplicate target \(_cappedList(itemDuplicates.targetPaths))")
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
