// Why this file is long: the planner is one decision procedure over UIKit's batch rules; each rule's
// check sits next to the rules it depends on.
//
// Staging a sectioned change-set for UIKit. The decisions depend on the change-set alone, so they
// are made by a non-generic planner (`_planSectionedStages`); the generic initializer only builds
// the data of the reload stage. Rule tags (R3, R7, R12, M8…) refer to `uikit-batch-rules.md`.

extension StagedSectionedChangeset {
    /// Stages a sectioned change-set for UIKit.
    ///
    /// Produces no stage when nothing changed, one stage when UIKit can apply everything in one
    /// batch, and two stages (reloads first, then structure) when some section or item update
    /// cannot share the structural batch. See ``StagedSectionedChangeset`` for the stages and the
    /// rewrites.
    ///
    /// - Parameters:
    ///   - changeset: A valid change-set from `source` to `target` (see
    ///     ``SectionedChangeset/validationFailure()``).
    ///   - source: The sections before the changes.
    ///   - target: The sections after the changes.
    /// - Complexity: O(*s* + *t* + *c* log *c*) for *s* source and *t* target sections and *c*
    ///   changes (O(*s* + *t* + *c*) when the change-set's lists are sorted, as a diff's are), plus
    ///   the copy of each section that a reload stage refreshes.
    @inlinable
    public init(
        changeset: SectionedChangeset,
        source: [SectionSnapshot<Section, Item>],
        target: [SectionSnapshot<Section, Item>]
    ) {
        precondition(
            source.count == changeset.sections.sourceCount && target.count == changeset.sections.targetCount,
            "StagedSectionedChangeset(changeset:source:target:): \(source.count) → \(target.count) sections, "
                + "but the change-set goes \(changeset.sections.sourceCount) → \(changeset.sections.targetCount)")
        if let failure = _shapeFailure(source, changeset.sourceItemCounts, side: "source")
            ?? _shapeFailure(target, changeset.targetItemCounts, side: "target")
            ?? changeset._stagingFailure()
        {
            preconditionFailure("StagedSectionedChangeset(changeset:source:target:): \(failure)")
        }
        if changeset.isEmpty {
            self.init(stages: [])
            return
        }
        let plan = _planSectionedStages(changeset)
        guard let reloads = plan.reloads else {
            self.init(stages: [Stage(changeset: plan.structure, data: target)])
            return
        }
        var refreshed = source
        for pair in plan.refreshedSections {
            refreshed[pair.source].section = target[pair.target].section
        }
        for pair in plan.refreshedItems {
            refreshed[pair.source.section].items[pair.source.item] =
                target[pair.target.section].items[pair.target.item]
        }
        self.init(stages: [
            Stage(changeset: reloads, data: refreshed),
            Stage(changeset: plan.structure, data: target),
        ])
    }
}

/// Why `list` does not have the shape `counts` describes, or `nil`: the first section whose item
/// count differs, naming both counts.
///
/// - Parameters:
///   - list: The sections.
///   - counts: The change-set's item counts for them.
///   - side: `source` or `target`, for the message.
/// - Complexity: O(*s*) for *s* sections.
@usableFromInline
internal func _shapeFailure<Section, Item>(
    _ list: [SectionSnapshot<Section, Item>], _ counts: [Int], side: String
) -> String? {
    guard list.count == counts.count else {
        return "the \(side) has \(list.count) sections, but \(side)ItemCounts has \(counts.count) entries"
    }
    for offset in list.indices where list[offset].items.count != counts[offset] {
        return "\(side) section \(offset) has \(list[offset].items.count) items, "
            + "but \(side)ItemCounts[\(offset)] is \(counts[offset])"
    }
    return nil
}

extension SectionedChangeset {
    /// Why the staging cannot read this change-set, or `nil`: the section-level change-set must be
    /// valid and every item path must lie inside the item counts. This is what the planner indexes
    /// by; the rest of ``validationFailure()`` (which costs O(*n* + *m*) in the items) is the
    /// caller's promise.
    ///
    /// - Complexity: O(*s* + *t* + *c*) for *s* and *t* sections and *c* item changes.
    @usableFromInline
    internal func _stagingFailure() -> String? {
        if let failure = sections.validationFailure() { return "sections: \(failure)" }
        guard sourceItemCounts.count == sections.sourceCount, targetItemCounts.count == sections.targetCount else {
            return "the item counts have \(sourceItemCounts.count) → \(targetItemCounts.count) entries for "
                + "\(sections.sourceCount) → \(sections.targetCount) sections"
        }
        func outside(_ path: ElementPath, _ counts: [Int]) -> Bool {
            !(counts.indices.contains(path.section) && path.item >= 0 && path.item < counts[path.section])
        }
        func range(_ path: ElementPath, _ counts: [Int], _ side: String) -> String {
            counts.indices.contains(path.section)
                ? "\(side) section \(path.section) has items 0..<\(counts[path.section])"
                : "\(side) sections are 0..<\(counts.count)"
        }
        for path in itemDeletes where outside(path, sourceItemCounts) {
            return "item delete (\(path)) is out of range: \(range(path, sourceItemCounts, "source"))"
        }
        for path in itemInserts where outside(path, targetItemCounts) {
            return "item insert (\(path)) is out of range: \(range(path, targetItemCounts, "target"))"
        }
        for pairs in [("item move", itemMoves), ("item update", itemUpdates)] {
            for pair in pairs.1 {
                if outside(pair.source, sourceItemCounts) {
                    return "\(pairs.0) \(pair) is out of range: \(range(pair.source, sourceItemCounts, "source"))"
                }
                if outside(pair.target, targetItemCounts) {
                    return "\(pairs.0) \(pair) is out of range: \(range(pair.target, targetItemCounts, "target"))"
                }
            }
        }
        return nil
    }
}

/// The batches for one sectioned change-set, without their data.
@usableFromInline
internal struct _SectionedStagePlan {
    /// The reload batch, in source coordinates, or `nil` when the updates ride in ``structure``.
    @usableFromInline var reloads: SectionedChangeset?

    /// The structural batch (with the updates when ``reloads`` is `nil`).
    @usableFromInline var structure: SectionedChangeset

    /// Sections whose value the reload stage's data takes from the target: (source, target).
    @usableFromInline var refreshedSections: [Changeset.OffsetPair]

    /// Items whose content the reload stage's data takes from the target: (source, target).
    @usableFromInline var refreshedItems: [SectionedChangeset.PathPair]

    @usableFromInline
    init(
        reloads: SectionedChangeset?,
        structure: SectionedChangeset,
        refreshedSections: [Changeset.OffsetPair] = [],
        refreshedItems: [SectionedChangeset.PathPair] = []
    ) {
        self.reloads = reloads
        self.structure = structure
        self.refreshedSections = refreshedSections
        self.refreshedItems = refreshedItems
    }
}

/// Splits a valid, non-empty sectioned change-set into the batches UIKit accepts.
///
/// 1. R12: a moved section with item deletes, inserts or moves inside it (source or target side)
///    becomes a section delete plus insert.
/// 2. R7: item moves out of a deleted section or into an inserted one become a delete and/or an
///    insert; item changes inside deleted or inserted sections disappear (they go with the section).
/// 3. Updates inside replaced sections disappear (the section insert shows the new content). Item
///    updates inside a reloaded section stay: UIKit drops them with the section's delete, but
///    ``SectionedChangeset/itemUpdates`` must still list every item whose content changed, so that
///    `applied(to:section:item:)` replays the stage to its data.
/// 4. The remaining updates join the structural batch only if UIKit would place each reload where
///    the data puts it: no section moves in the batch (R3c), no item delete, insert or move inside
///    a reloaded section, no reloaded item that moves (R3b), and each reloaded item's position
///    computed from the batch's deletes and inserts alone equals its real target (R3d, R3f).
///    Otherwise they get a batch of their own, first, in place.
///
/// - Complexity: O(*s* + *t* + *c* log *c*) for *s* and *t* sections and *c* changes; O(*s* + *t*
///   + *c*) when the change-set's lists are sorted.
@usableFromInline
internal func _planSectionedStages(_ changes: SectionedChangeset) -> _SectionedStagePlan {
    typealias PathPair = SectionedChangeset.PathPair
    let sourceSectionCount = changes.sections.sourceCount
    let targetSectionCount = changes.sections.targetCount

    // Sections touched by an item change: deletes and move sources on the source side, inserts and
    // move targets on the target side.
    var sourceTouched = [Bool](repeating: false, count: sourceSectionCount)
    var targetTouched = [Bool](repeating: false, count: targetSectionCount)
    for path in changes.itemDeletes { sourceTouched[path.section] = true }
    for path in changes.itemInserts { targetTouched[path.section] = true }
    for move in changes.itemMoves {
        sourceTouched[move.source.section] = true
        targetTouched[move.target.section] = true
    }

    // 1. R12: replace moved sections that have item changes inside.
    var sectionDeleted = [Bool](repeating: false, count: sourceSectionCount)
    var sectionInserted = [Bool](repeating: false, count: targetSectionCount)
    for offset in changes.sections.deletes { sectionDeleted[offset] = true }
    for offset in changes.sections.inserts { sectionInserted[offset] = true }
    var sectionMoves: [Changeset.OffsetPair] = []
    var sectionDeletes = changes.sections.deletes
    var sectionInserts = changes.sections.inserts
    for move in changes.sections.moves {
        if sourceTouched[move.source] || targetTouched[move.target] {
            sectionDeleted[move.source] = true
            sectionInserted[move.target] = true
            sectionDeletes.append(move.source)
            sectionInserts.append(move.target)
        } else {
            sectionMoves.append(move)
        }
    }
    if sectionMoves.count != changes.sections.moves.count || !_isAscending(sectionDeletes) {
        sectionDeletes.sort()
    }
    if sectionMoves.count != changes.sections.moves.count || !_isAscending(sectionInserts) {
        sectionInserts.sort()
    }

    // 2. R7: the items of the structural batch.
    var deletes: [ElementPath] = []
    deletes.reserveCapacity(changes.itemDeletes.count)
    for path in changes.itemDeletes where !sectionDeleted[path.section] { deletes.append(path) }
    var inserts: [ElementPath] = []
    inserts.reserveCapacity(changes.itemInserts.count)
    for path in changes.itemInserts where !sectionInserted[path.section] { inserts.append(path) }
    var moves: [PathPair] = []
    moves.reserveCapacity(changes.itemMoves.count)
    var rewritten = false
    for move in changes.itemMoves {
        let leaves = sectionDeleted[move.source.section]
        let arrives = sectionInserted[move.target.section]
        if !leaves && !arrives {
            moves.append(move)
            continue
        }
        rewritten = true
        if !leaves { deletes.append(move.source) }
        if !arrives { inserts.append(move.target) }
    }
    // The reload check below sweeps these lists in order. Sorting is linear on a diff's sorted
    // lists (plus a sorted tail of rewrites); a hand-made change-set out of its documented order is
    // invalid, but is staged as if it were sorted.
    if rewritten || !_isAscending(deletes) { deletes.sort() }
    if rewritten || !_isAscending(inserts) { inserts.sort() }
    if !_isAscending(moves, by: { $0.target < $1.target }) { moves.sort { $0.target < $1.target } }

    // 3. The updates that still need a reload.
    var sectionUpdates: [Changeset.OffsetPair] = []
    for update in changes.sections.updates where !sectionDeleted[update.source] {
        sectionUpdates.append(update)
    }
    // Item updates inside a reloaded section stay: UIKit ignores a row reload inside a reloaded
    // section (the section is read again whole), but the stage must still say what changed, so
    // that replaying it with `applied(to:section:item:)` gives its data.
    var itemUpdates: [PathPair] = []
    for update in changes.itemUpdates
    where !sectionDeleted[update.source.section] && !sectionInserted[update.target.section] {
        itemUpdates.append(update)
    }

    let sections = Changeset(
        sourceCount: sourceSectionCount,
        targetCount: targetSectionCount,
        deletes: sectionDeletes,
        inserts: sectionInserts,
        moves: sectionMoves,
        updates: [],
        duplicates: changes.sections.duplicates)
    var structure = SectionedChangeset(
        sections: sections,
        sourceItemCounts: changes.sourceItemCounts,
        targetItemCounts: changes.targetItemCounts,
        itemDeletes: deletes,
        itemInserts: inserts,
        itemMoves: moves,
        itemDuplicates: changes.itemDuplicates)
    if sectionUpdates.isEmpty && itemUpdates.isEmpty {
        return _SectionedStagePlan(reloads: nil, structure: structure)
    }
    if !_isAscending(sectionUpdates, by: { $0.source < $1.source }) { sectionUpdates.sort { $0.source < $1.source } }
    if !_isAscending(itemUpdates, by: { $0.source < $1.source }) { itemUpdates.sort { $0.source < $1.source } }

    // 4. One batch if every reload lands where UIKit computes it.
    if _reloadsShareBatch(
        sectionUpdates: sectionUpdates, itemUpdates: itemUpdates, structure: structure)
    {
        structure.sections.updates = sectionUpdates
        structure.itemUpdates = itemUpdates
        return _SectionedStagePlan(reloads: nil, structure: structure)
    }

    // Two batches: reloads in place first, then the structure alone.
    var inPlaceSections: [Changeset.OffsetPair] = []
    inPlaceSections.reserveCapacity(sectionUpdates.count)
    for update in sectionUpdates {
        inPlaceSections.append(Changeset.OffsetPair(source: update.source, target: update.source))
    }
    var inPlaceItems: [PathPair] = []
    inPlaceItems.reserveCapacity(itemUpdates.count)
    for update in itemUpdates {
        inPlaceItems.append(PathPair(source: update.source, target: update.source))
    }
    let reloads = SectionedChangeset(
        sections: Changeset(
            sourceCount: sourceSectionCount,
            targetCount: sourceSectionCount,
            updates: inPlaceSections,
            duplicates: changes.sections.duplicates),
        sourceItemCounts: changes.sourceItemCounts,
        targetItemCounts: changes.sourceItemCounts,
        itemUpdates: inPlaceItems,
        itemDuplicates: changes.itemDuplicates)
    structure.sections.duplicates = Changeset.Duplicates()
    structure.itemDuplicates = SectionedChangeset.ItemDuplicates()
    return _SectionedStagePlan(
        reloads: reloads,
        structure: structure,
        refreshedSections: sectionUpdates,
        refreshedItems: itemUpdates)
}

/// Whether the reloads can join the structural batch: UIKit must put every reloaded section and
/// item exactly where the data does. The structure's item deletes and inserts and `itemUpdates`
/// (by source) must be sorted.
///
/// - Complexity: O(*s* + *t* + *c* + *u* log *c*) for *s* and *t* sections, *c* structural changes
///   and *u* item updates.
@usableFromInline
internal func _reloadsShareBatch(
    sectionUpdates: [Changeset.OffsetPair],
    itemUpdates: [SectionedChangeset.PathPair],
    structure: SectionedChangeset
) -> Bool {
    // R3c, V17, V18: UIKit places reloads ignoring moves, so no reload rides with a section move.
    if !structure.sections.moves.isEmpty { return false }
    let deletes = structure.itemDeletes
    let inserts = structure.itemInserts
    if !sectionUpdates.isEmpty {
        // A reloaded section is deleted and inserted whole: no item change may name it.
        var sourceTouched = [Bool](repeating: false, count: structure.sections.sourceCount)
        var targetTouched = [Bool](repeating: false, count: structure.sections.targetCount)
        for path in deletes { sourceTouched[path.section] = true }
        for path in inserts { targetTouched[path.section] = true }
        for move in structure.itemMoves {
            sourceTouched[move.source.section] = true
            targetTouched[move.target.section] = true
        }
        for update in sectionUpdates where sourceTouched[update.source] || targetTouched[update.target] {
            return false
        }
    }
    if itemUpdates.isEmpty { return true }
    var movedSources: [ElementPath] = []
    movedSources.reserveCapacity(structure.itemMoves.count)
    for move in structure.itemMoves { movedSources.append(move.source) }
    movedSources.sort()

    // Without section moves, unmoved items keep their order across sections, so one forward pass
    // over the sorted deletes, inserts and moves computes where UIKit puts each reload.
    var movedCursor = 0
    var deleteCursor = 0
    var sectionDeleteStart = 0
    var insertCursor = 0
    var sectionInsertStart = 0
    for update in itemUpdates {
        // R3b, M8: a reloaded item must not move.
        while movedCursor < movedSources.count && movedSources[movedCursor] < update.source { movedCursor += 1 }
        if movedCursor < movedSources.count && movedSources[movedCursor] == update.source { return false }
        let section = update.source.section
        while sectionDeleteStart < deletes.count && deletes[sectionDeleteStart].section < section {
            sectionDeleteStart += 1
        }
        deleteCursor = Swift.max(deleteCursor, sectionDeleteStart)
        while deleteCursor < deletes.count && deletes[deleteCursor] < update.source { deleteCursor += 1 }
        let rank = update.source.item - (deleteCursor - sectionDeleteStart)
        let targetSection = update.target.section
        while sectionInsertStart < inserts.count && inserts[sectionInsertStart].section < targetSection {
            sectionInsertStart += 1
        }
        insertCursor = Swift.max(insertCursor, sectionInsertStart)
        while insertCursor < inserts.count && inserts[insertCursor].section == targetSection
            && inserts[insertCursor].item <= rank + (insertCursor - sectionInsertStart)
        {
            insertCursor += 1
        }
        // R3d, R3f: UIKit's position for the reload must be the item's real target.
        if rank + (insertCursor - sectionInsertStart) != update.target.item { return false }
    }
    return true
}

/// Whether `values` is in ascending order.
///
/// - Complexity: O(*n*) for *n* values.
@usableFromInline
internal func _isAscending<T: Comparable>(_ values: [T]) -> Bool {
    _isAscending(values, by: <)
}

/// Whether `values` is in ascending order by `areInIncreasingOrder`.
///
/// - Complexity: O(*n*) for *n* values.
@usableFromInline
internal func _isAscending<T>(_ values: [T], by areInIncreasingOrder: (T, T) -> Bool) -> Bool {
    var index = 1
    while index < values.count {
        if areInIncreasingOrder(values[index], values[index - 1]) { return false }
        index += 1
    }
    return true
}
