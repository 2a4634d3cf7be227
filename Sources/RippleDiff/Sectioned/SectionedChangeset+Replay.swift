extension SectionedChangeset {
    /// Checks that the change-set describes a consistent change, and says what is wrong if not.
    ///
    /// The checks:
    /// - ``sections`` is a valid ``Changeset`` whose section updates pair a section with its own
    ///   target, and the item counts have one entry per section;
    /// - ``itemDeletes`` and ``itemInserts`` are ascending and distinct, ``itemMoves`` ascending by
    ///   target path and ``itemUpdates`` ascending by source path, as documented;
    /// - every item path is in range; no source path is deleted or moved twice, and no target path
    ///   is inserted or moved to twice;
    /// - no item delete lies inside a deleted section and no item insert inside an inserted one
    ///   (those items leave and arrive with their section);
    /// - each surviving section's count agrees: the source count, minus its deletes and moves out,
    ///   plus its inserts and moves in, equals the target count; an inserted section holds at
    ///   least the items moved into it;
    /// - every item update names an item that survives, at the target path where it lands.
    ///
    /// Moves out of deleted sections and into inserted sections are valid here: they keep an item's
    /// identity. A single UIKit batch rejects them, which is why ``StagedSectionedChangeset``
    /// rewrites them.
    ///
    /// - Returns: `nil` when the change-set is valid, otherwise a sentence naming the first problem.
    /// - Complexity: O(*s* + *t* + *n* + *m*), where *s* and *t* are the source and target section
    ///   counts and *n* and *m* the source and target item counts.
    public func validationFailure() -> String? {
        if let failure = sections.validationFailure() { return "sections: \(failure)" }
        let sourceSectionCount = sections.sourceCount
        let targetSectionCount = sections.targetCount
        guard sourceItemCounts.count == sourceSectionCount else {
            return "sourceItemCounts has \(sourceItemCounts.count) entries for \(sourceSectionCount) source sections"
        }
        guard targetItemCounts.count == targetSectionCount else {
            return "targetItemCounts has \(targetItemCounts.count) entries for \(targetSectionCount) target sections"
        }
        if let negative = sourceItemCounts.firstIndex(where: { $0 < 0 }) {
            return "source section \(negative) has a negative item count"
        }
        if let negative = targetItemCounts.firstIndex(where: { $0 < 0 }) {
            return "target section \(negative) has a negative item count"
        }
        for (side, counts) in [("source", sourceItemCounts), ("target", targetItemCounts)] {
            var total = 0
            for count in counts {
                let (sum, overflow) = total.addingReportingOverflow(count)
                guard !overflow else { return "the \(side) item counts add up to more than \(Int.max)" }
                total = sum
            }
        }
        // `sections.validationFailure()` has checked that each section update follows its section.
        let mapping = _SectionMapping(sections)
        let sourceStarts = _itemStarts(sourceItemCounts)
        let targetStarts = _itemStarts(targetItemCounts)
        // 0 = untouched, 1 = deleted, 2 = moved
        var sourceUse = [UInt8](repeating: 0, count: sourceStarts[sourceSectionCount])
        var targetUse = [UInt8](repeating: 0, count: targetStarts[targetSectionCount])
        var leaving = [Int](repeating: 0, count: sourceSectionCount)
        var arriving = [Int](repeating: 0, count: targetSectionCount)

        func sourceFlat(_ path: ElementPath) -> Int? {
            guard path.section >= 0, path.section < sourceSectionCount, path.item >= 0,
                path.item < sourceItemCounts[path.section]
            else { return nil }
            return sourceStarts[path.section] + path.item
        }
        func targetFlat(_ path: ElementPath) -> Int? {
            guard path.section >= 0, path.section < targetSectionCount, path.item >= 0,
                path.item < targetItemCounts[path.section]
            else { return nil }
            return targetStarts[path.section] + path.item
        }

        if let failure = _orderFailure(of: "item deletes", itemDeletes, by: \.self, parenthesized: true)
            ?? _orderFailure(of: "item inserts", itemInserts, by: \.self, parenthesized: true)
            ?? _orderFailure(of: "item moves", itemMoves, by: \.target, keyName: "target", parenthesized: true)
            ?? _orderFailure(of: "item updates", itemUpdates, by: \.source, keyName: "source", parenthesized: true)
        {
            return failure
        }
        for path in itemDeletes {
            guard let flat = sourceFlat(path) else { return "item delete (\(path)) is out of range" }
            guard mapping.targetOf[path.section] >= 0 else {
                return "item delete (\(path)) is inside deleted section \(path.section); its items leave with it"
            }
            guard sourceUse[flat] == 0 else { return "source path (\(path)) is deleted twice" }
            sourceUse[flat] = 1
            leaving[path.section] += 1
        }
        for path in itemInserts {
            guard let flat = targetFlat(path) else { return "item insert (\(path)) is out of range" }
            guard mapping.sourceOf[path.section] >= 0 else {
                return "item insert (\(path)) is inside inserted section \(path.section); its items arrive with it"
            }
            guard targetUse[flat] == 0 else { return "target path (\(path)) is inserted twice" }
            targetUse[flat] = 1
            arriving[path.section] += 1
        }
        for move in itemMoves {
            guard let from = sourceFlat(move.source) else { return "item move \(move) has its source out of range" }
            guard let to = targetFlat(move.target) else { return "item move \(move) has its target out of range" }
            guard sourceUse[from] == 0 else {
                return "source path (\(move.source)) is both moved and deleted, or moved twice"
            }
            guard targetUse[to] == 0 else {
                return "target path (\(move.target)) is both moved to and inserted, or moved to twice"
            }
            sourceUse[from] = 2
            targetUse[to] = 2
            leaving[move.source.section] += 1
            arriving[move.target.section] += 1
        }
        for target in 0..<targetSectionCount {
            let source = mapping.sourceOf[target]
            if source < 0 {
                guard arriving[target] <= targetItemCounts[target] else {
                    return "inserted section \(target) holds \(targetItemCounts[target]) items but "
                        + "\(arriving[target]) are moved into it"
                }
                continue
            }
            let expected = sourceItemCounts[source] - leaving[source] + arriving[target]
            guard expected == targetItemCounts[target] else {
                return "section \(source) → \(target): \(sourceItemCounts[source]) items, minus "
                    + "\(leaving[source]) deleted or moved out, plus \(arriving[target]) inserted or "
                    + "moved in, gives \(expected), not \(targetItemCounts[target])"
            }
        }

        // Where each surviving source item lands, as a flat target offset.
        var landing = [Int](repeating: -1, count: sourceUse.count)
        for move in itemMoves {
            landing[sourceStarts[move.source.section] + move.source.item] =
                targetStarts[move.target.section] + move.target.item
        }
        for source in 0..<sourceSectionCount {
            let target = mapping.targetOf[source]
            guard target >= 0 else { continue }
            var next = targetStarts[target]
            for flat in sourceStarts[source]..<sourceStarts[source + 1] where sourceUse[flat] == 0 {
                while targetUse[next] != 0 { next += 1 }
                landing[flat] = next
                next += 1
            }
        }
        for (index, update) in itemUpdates.enumerated() {
            guard let from = sourceFlat(update.source), let to = targetFlat(update.target) else {
                return "item update \(update) is out of range"
            }
            guard index == 0 || itemUpdates[index - 1].source != update.source else {
                return "source path (\(update.source)) is updated twice"
            }
            guard landing[from] >= 0 else {
                return "item update \(update) names an item that does not survive"
            }
            guard landing[from] == to else {
                return "item update \(update) does not follow the item: it lands at "
                    + "(\(_path(ofFlat: landing[from], starts: targetStarts)))"
            }
        }
        return nil
    }

    /// Replays the change-set onto `source` and returns the sectioned list it describes.
    ///
    /// Deleted sections and items are dropped; moved items are placed at their target paths;
    /// inserted sections, inserted items, updated sections and updated items are taken from the
    /// closures. The other items keep their order inside their section and fill the free slots. An
    /// inserted section's slots that no move fills are taken from `item(atTarget:)`. For a
    /// change-set produced by `SectionedChangeset(from: source, to: target)`,
    ///
    /// <!-- swift
    /// struct Folder: Identifiable, Equatable {
    ///     var id: String
    /// }
    /// struct Mail: Identifiable, Equatable {
    ///     var id: Int
    /// }
    /// let source = [SectionSnapshot(section: Folder(id: "Inbox"), items: [Mail(id: 1), Mail(id: 2)])]
    /// let target = [SectionSnapshot(section: Folder(id: "Inbox"), items: [Mail(id: 2), Mail(id: 3)])]
    /// let changes = SectionedChangeset(from: source, to: target)
    /// -->
    /// ```swift
    /// let replayed = changes.applied(to: source, section: { target[$0].section }, item: { target[$0.section].items[$0.item] })
    /// ```
    ///
    /// `replayed` equals `target`.
    ///
    /// - Parameters:
    ///   - source: The list the change-set starts from. Its section and item counts must equal
    ///     ``sections``' source count and ``sourceItemCounts``.
    ///   - section: Returns the section value at a target offset; called for inserted and updated
    ///     sections.
    ///   - item: Returns the item at a target path; called for inserted and updated items and for
    ///     the items that arrive with an inserted section.
    /// - Returns: A list shaped by ``targetItemCounts``.
    /// - Precondition: The change-set is valid (see ``validationFailure()``).
    /// - Complexity: O(*s* + *t* + *n* + *m*), where *s* and *t* are the source and target section
    ///   counts and *n* and *m* the source and target item counts.
    public func applied<Section, Item>(
        to source: [SectionSnapshot<Section, Item>],
        section: (_ targetOffset: Int) throws -> Section,
        item: (_ targetPath: ElementPath) throws -> Item
    ) rethrows -> [SectionSnapshot<Section, Item>] {
        if let failure = validationFailure() {
            preconditionFailure("SectionedChangeset.applied(to:section:item:): invalid change-set: \(failure)")
        }
        if let failure = _shapeFailure(source, sourceItemCounts, side: "source") {
            preconditionFailure("SectionedChangeset.applied(to:section:item:): \(failure)")
        }
        let mapping = _SectionMapping(sections)
        var slots = targetItemCounts.map { [Item?](repeating: nil, count: $0) }
        var leaves = sourceItemCounts.map { [Bool](repeating: false, count: $0) }
        for path in itemDeletes { leaves[path.section][path.item] = true }
        for path in itemInserts { slots[path.section][path.item] = try item(path) }
        for move in itemMoves {
            leaves[move.source.section][move.source.item] = true
            slots[move.target.section][move.target.item] = source[move.source.section].items[move.source.item]
        }
        var result: [SectionSnapshot<Section, Item>] = []
        result.reserveCapacity(sections.targetCount)
        for target in 0..<sections.targetCount {
            let from = mapping.sourceOf[target]
            if from >= 0 {
                var next = 0
                for (offset, survivor) in source[from].items.enumerated() where !leaves[from][offset] {
                    while slots[target][next] != nil { next += 1 }
                    slots[target][next] = survivor
                    next += 1
                }
            } else {
                for offset in slots[target].indices where slots[target][offset] == nil {
                    slots[target][offset] = try item(ElementPath(item: offset, section: target))
                }
            }
            let value = from >= 0 ? source[from].section : try section(target)
            result.append(SectionSnapshot(section: value, items: []))
        }
        for update in sections.updates { result[update.target].section = try section(update.target) }
        for update in itemUpdates { slots[update.target.section][update.target.item] = try item(update.target) }
        for target in 0..<sections.targetCount {
            result[target].items = ListSnapshot(slots[target].lazy.map { $0! })
        }
        return result
    }
}
