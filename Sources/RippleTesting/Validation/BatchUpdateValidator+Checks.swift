import RippleDiff

// The checks, in UIKit's order (R4). Each phase returns the first violation it finds; the phases
// share the merged, reload-converted operations in `_Batch`.
// Phases 1 to 3 are here; 4 to 7 (moves and counts) are in BatchUpdateValidator+MoveAndCountChecks.swift.

extension BatchUpdateValidator {
    /// Validates `batch` and, when it is valid, returns the plan a headless view applies.
    func _evaluate(
        _ batch: BatchUpdate, before: [Int], after: [Int]
    ) -> (result: BatchUpdateResult, plan: _BatchPlan?) {
        let messages = _BatchUpdateMessages(flavor: flavor)
        var work = _Batch(batch, messages: messages)
        let violation =
            work.convertReloads()
            ?? work.checkDeletes(before: before)
            ?? work.checkInserts(after: after)
            ?? work.checkMoveBounds(before: before, after: after)
            ?? work.checkMoveDuplicates()
            ?? work.checkSectionCount(before: before, after: after)
        if let violation {
            return (BatchUpdateResult(violation: violation, warnings: work.warnings), nil)
        }
        let sections = work.mapSections(before: before, after: after)
        if let violation = work.checkItemCounts(
            before: before, after: after, sections: sections, style: countMismatchStyle)
        {
            return (BatchUpdateResult(violation: violation, warnings: work.warnings), nil)
        }
        work.warnAboutReloads(sections: sections)
        let plan = work.plan(sections: sections)
        return (BatchUpdateResult(violation: nil, warnings: work.warnings), plan)
    }
}

extension BatchUpdateViolation {
    /// The same violation, attributed to `rule`.
    func citing(_ rule: BatchUpdateRule) -> BatchUpdateViolation {
        var copy = self
        copy.rule = rule
        return copy
    }
}

/// Where each section goes: before → after and after → before.
struct _SectionMap {
    /// For each before section, its after section, or `nil` when it is deleted.
    var targets: [Int?]

    /// For each after section, its before section, or `nil` when it is inserted.
    var sources: [Int?]
}

/// The batch's operations merged (duplicates dropped and reported) and, after
/// ``convertReloads()``, with reloads turned into deletes and inserts.
struct _Batch {
    let messages: _BatchUpdateMessages
    var warnings: [BatchUpdateWarning] = []

    // Explicit operations, merged.
    var sectionDeletes = Set<Int>()
    var sectionInserts = Set<Int>()
    var sectionReloads: [Int] = []
    var sectionMoves: [_SectionMove] = []
    var itemDeletes = Set<ElementPath>()
    var itemInserts = Set<ElementPath>()
    var itemReloads: [ElementPath] = []
    var itemMoves: [_ItemMove] = []

    // After `convertReloads()`: deletes and inserts including those made from reloads, without
    // item operations inside deleted or inserted sections.
    var allSectionDeletes = Set<Int>()
    var allSectionInserts = Set<Int>()
    var removedItems = Set<ElementPath>()
    var addedItems = Set<ElementPath>()
    /// Each converted item reload: its before path and the after path UIKit gives it.
    var reloads: [(source: ElementPath, target: ElementPath)] = []

    // Move look-ups.
    var sectionMoveSources = Set<Int>()
    var sectionMoveTargets = Set<Int>()
    var itemMoveSources = Set<ElementPath>()
    var itemMoveTargets = Set<ElementPath>()
    var itemMoveSourceSections = Set<Int>()
    var itemMoveTargetSections = Set<Int>()

    /// Merges the operations and reports repeats (R9, R13).
    init(_ batch: BatchUpdate, messages: _BatchUpdateMessages) {
        self.messages = messages
        var reloadedSections = Set<Int>()
        var reloadedItems = Set<ElementPath>()
        var movedSections = Set<_SectionMove>()
        var movedItems = Set<_ItemMove>()
        for operation in batch.operations {
            let isNew: Bool
            switch operation {
            case .deleteSection(let section): isNew = sectionDeletes.insert(section).inserted
            case .insertSection(let section): isNew = sectionInserts.insert(section).inserted
            case .reloadSection(let section): isNew = reloadedSections.insert(section).inserted
            case .moveSection(let from, let to):
                isNew = movedSections.insert(_SectionMove(from: from, to: to)).inserted
            case .deleteItem(let path): isNew = itemDeletes.insert(path).inserted
            case .insertItem(let path): isNew = itemInserts.insert(path).inserted
            case .reloadItem(let path): isNew = reloadedItems.insert(path).inserted
            case .moveItem(let from, let to):
                isNew = movedItems.insert(_ItemMove(from: from, to: to)).inserted
            }
            if !isNew { warnings.append(messages.duplicate(operation)) }
        }
        sectionReloads = reloadedSections.sorted()
        itemReloads = reloadedItems.sorted()
        sectionMoves = movedSections.sorted()
        itemMoves = movedItems.sorted()
        for move in sectionMoves {
            sectionMoveSources.insert(move.from)
            sectionMoveTargets.insert(move.to)
        }
        for move in itemMoves {
            itemMoveSources.insert(move.from)
            itemMoveTargets.insert(move.to)
            itemMoveSourceSections.insert(move.from.section)
            itemMoveTargetSections.insert(move.to.section)
        }
    }

    // MARK: - 1. Reloads (R3)

    /// Turns each reload into a delete of its before path and an insert at the path UIKit computes
    /// from the explicit deletes and inserts alone, ignoring moves.
    ///
    /// - Returns: M7 when a path is both deleted and reloaded.
    mutating func convertReloads() -> BatchUpdateViolation? {
        let explicitSectionDeletes = sectionDeletes.sorted()
        let explicitSectionInserts = sectionInserts.sorted()
        func sectionTarget(_ section: Int) -> Int {
            _slot(
                ofRank: section - _countBelow(section, in: explicitSectionDeletes),
                skipping: explicitSectionInserts)
        }

        allSectionDeletes = sectionDeletes
        allSectionInserts = sectionInserts
        for section in sectionReloads {
            allSectionDeletes.insert(section)
            allSectionInserts.insert(sectionTarget(section))
        }

        let deletesBySection = itemReloads.isEmpty ? [:] : Self.itemsBySection(itemDeletes)
        let insertsBySection = itemReloads.isEmpty ? [:] : Self.itemsBySection(itemInserts)
        for path in itemReloads {
            if itemDeletes.contains(path) { return messages.m7(path) }
            // Item changes inside deleted sections are ignored ([TX]), reloads included.
            if allSectionDeletes.contains(path.section) { continue }
            let section = sectionTarget(path.section)
            let rank = path.item - _countBelow(path.item, in: deletesBySection[path.section] ?? [])
            let target = ElementPath(
                item: _slot(ofRank: rank, skipping: insertsBySection[section] ?? []), section: section)
            reloads.append((path, target))
        }

        removedItems = itemDeletes.filter { !allSectionDeletes.contains($0.section) }
        addedItems = itemInserts.filter { !allSectionInserts.contains($0.section) }
        for reload in reloads {
            removedItems.insert(reload.source)
            if !allSectionInserts.contains(reload.target.section) { addedItems.insert(reload.target) }
        }
        return nil
    }

    // MARK: - 2. Deletes (R5, R7)

    /// Checks section and item deletes (reloads included) in descending order: each against the
    /// moves first (M8, M10), then against the before counts (M1, M2, M3).
    func checkDeletes(before: [Int]) -> BatchUpdateViolation? {
        let sections = allSectionDeletes.sorted(by: >)
        let items = removedItems.sorted(by: >)
        var nextSection = 0
        var nextItem = 0
        while nextSection < sections.count || nextItem < items.count {
            if nextSection < sections.count
                && (nextItem == items.count || sections[nextSection] >= items[nextItem].section)
            {
                let section = sections[nextSection]
                nextSection += 1
                let rule: BatchUpdateRule =
                    sectionDeletes.contains(section) ? .deleteConflictsAndBounds : .reloadIsDeleteAndInsert
                if sectionMoveSources.contains(section) { return messages.m8(section: section, rule: rule) }
                if itemMoveSourceSections.contains(section) { return messages.m10(section: section) }
                if !before.indices.contains(section) {
                    return messages.m1(section: section, sectionCount: before.count).citing(rule)
                }
            } else {
                let path = items[nextItem]
                nextItem += 1
                // A reload's delete breaks R3 (R3b: reload of a move source, R3e: out of range).
                let rule: BatchUpdateRule =
                    itemDeletes.contains(path) ? .deleteConflictsAndBounds : .reloadIsDeleteAndInsert
                if itemMoveSources.contains(path) { return messages.m8(path, rule: rule) }
                guard before.indices.contains(path.section) else {
                    return messages.m2(path, sectionCount: before.count).citing(rule)
                }
                guard path.item >= 0 && path.item < before[path.section] else {
                    return messages.m3(path, itemCount: before[path.section]).citing(rule)
                }
            }
        }
        return nil
    }

    // MARK: - 3. Inserts (R6, R7)

    /// Checks section and item inserts (reloads included) in ascending order: each against the
    /// moves first (M9, M11), then against the after counts (M4, M5, M6).
    func checkInserts(after: [Int]) -> BatchUpdateViolation? {
        let sections = allSectionInserts.sorted()
        let items = addedItems.sorted()
        var nextSection = 0
        var nextItem = 0
        while nextSection < sections.count || nextItem < items.count {
            if nextSection < sections.count
                && (nextItem == items.count || sections[nextSection] <= items[nextItem].section)
            {
                let section = sections[nextSection]
                nextSection += 1
                let rule: BatchUpdateRule =
                    sectionInserts.contains(section) ? .insertConflictsAndBounds : .reloadIsDeleteAndInsert
                if sectionMoveTargets.contains(section) { return messages.m9(section: section, rule: rule) }
                if itemMoveTargetSections.contains(section) { return messages.m11(section: section) }
                if !after.indices.contains(section) {
                    return messages.m4(section: section, sectionCount: after.count).citing(rule)
                }
            } else {
                let path = items[nextItem]
                nextItem += 1
                // A reload's insert breaks R3 (R3d: its computed path is a move destination).
                let rule: BatchUpdateRule =
                    itemInserts.contains(path) ? .insertConflictsAndBounds : .reloadIsDeleteAndInsert
                if itemMoveTargets.contains(path) { return messages.m9(path, rule: rule) }
                guard after.indices.contains(path.section) else {
                    return messages.m5(path, sectionCount: after.count).citing(rule)
                }
                guard path.item >= 0 && path.item < after[path.section] else {
                    return messages.m6(path, itemCount: after[path.section]).citing(rule)
                }
            }
        }
        return nil
    }

    // MARK: - Warnings (R3f)

    /// Warns about each reload whose computed after path differs from where the item really ends
    /// once the moves are applied: an unmoved, undeleted item fills the free slots in order.
    mutating func warnAboutReloads(sections: _SectionMap) {
        guard !reloads.isEmpty else { return }
        let explicitDeletes = Self.itemsBySection(removedItems.subtracting(reloads.map(\.source)))
        let moveSources = Self.itemsBySection(itemMoves.map(\.from))
        var taken = Self.itemsBySection(addedItems.subtracting(reloads.map(\.target)))
        for move in itemMoves { taken[move.to.section, default: []].append(move.to.item) }
        for (section, items) in taken { taken[section] = items.sorted() }
        for reload in reloads {
            let source = reload.source
            guard let section = sections.targets[source.section] else { continue }
            let rank =
                source.item - _countBelow(source.item, in: explicitDeletes[source.section] ?? [])
                - _countBelow(source.item, in: moveSources[source.section] ?? [])
            let actual = ElementPath(item: _slot(ofRank: rank, skipping: taken[section] ?? []), section: section)
            if actual != reload.target {
                warnings.append(
                    messages.reloadIgnoresMoves(reloaded: source, animated: reload.target, actual: actual))
            }
        }
    }

    // MARK: - Plan

    /// The validated batch in the form a headless view applies.
    func plan(sections: _SectionMap) -> _BatchPlan {
        _BatchPlan(
            afterSources: sections.sources, beforeTargets: sections.targets, removedItems: removedItems,
            addedItems: addedItems, moves: itemMoves)
    }

    /// Paths grouped by section, items ascending.
    static func itemsBySection(_ paths: some Sequence<ElementPath>) -> [Int: [Int]] {
        var grouped: [Int: [Int]] = [:]
        for path in paths { grouped[path.section, default: []].append(path.item) }
        for (section, items) in grouped { grouped[section] = items.sorted() }
        return grouped
    }
}
