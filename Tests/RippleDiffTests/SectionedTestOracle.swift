// Test-only tools for the sectioned diff, written apart from the production code:
// - `sectionedOracleReplay`: replays a change-set the way UIKit reads a batch (or, in `.difference`
//   mode, the way the diff describes the whole change) with plain arrays and linear scans;
// - `sectionedRuleViolation`: the structural UIKit rules one staged batch must obey;
// - `sectionedRandomPair`: seeded random sectioned inputs.
// Names carry a `sectioned`/`Sx` prefix so they never collide with RippleTestSupport.

import RippleDiff
import RippleTestSupport

/// An item with an identity and a content that can change.
struct SxItem: Identifiable, Hashable, CustomStringConvertible {
    var id: Int
    var content: Int = 0
    var description: String { content == 0 ? "\(id)" : "\(id)'\(content)" }
}

/// A section value (its header) with an identity and a title that can change.
struct SxSection: Identifiable, Hashable, CustomStringConvertible {
    var id: Int
    var title: Int = 0
    var description: String { title == 0 ? "S\(id)" : "S\(id)'\(title)" }
}

typealias SxSnapshot = SectionSnapshot<SxSection, SxItem>

/// Builds a sectioned list from `[(sectionID, [itemID])]`, all contents zero.
func sxList(_ sections: [(Int, [Int])]) -> [SxSnapshot] {
    sections.map { SxSnapshot(section: SxSection(id: $0.0), items: $0.1.map { SxItem(id: $0) }) }
}

func sxPath(_ section: Int, _ item: Int) -> ElementPath { ElementPath(item: item, section: section) }

func sxPair(_ from: (Int, Int), _ to: (Int, Int)) -> SectionedChangeset.PathPair {
    SectionedChangeset.PathPair(source: sxPath(from.0, from.1), target: sxPath(to.0, to.1))
}

// MARK: - Replay oracle

enum SectionedReplayMode {
    /// UIKit's reading of one batch: a section update is a reload (the section is deleted and
    /// inserted, its items come from the data), an item update is a reload of that item, items
    /// of inserted sections come from the data.
    case batch
    /// The diff's reading of a whole change: a section update changes only the section value;
    /// items may move out of deleted sections and into inserted ones.
    case difference
}

/// Replays `changes` onto `before`, taking new things from `data`, and returns the result or the
/// reason it cannot be replayed. Independent of `SectionedChangeset.applied(to:section:item:)`.
func sectionedOracleReplay<S, I>(
    _ changes: SectionedChangeset,
    before: [SectionSnapshot<S, I>],
    data: [SectionSnapshot<S, I>],
    mode: SectionedReplayMode
) -> Result<[SectionSnapshot<S, I>], SxOracleFailure> {
    func fail(_ message: String) -> Result<[SectionSnapshot<S, I>], SxOracleFailure> {
        .failure(SxOracleFailure(message: message))
    }
    let sections = changes.sections
    guard sections.sourceCount == before.count else {
        return fail("sourceCount \(sections.sourceCount) but \(before.count) sections before")
    }
    // Sections: which before-section fills each after-slot (nil = comes from data).
    var removed = Set(sections.deletes)
    var added = Set(sections.inserts)
    var reloadedTargets = Set<Int>()
    if mode == .batch {
        for update in sections.updates {
            removed.insert(update.source)
            added.insert(update.target)
            reloadedTargets.insert(update.target)
        }
    }
    for move in sections.moves { removed.insert(move.source) }
    let afterCount = before.count - removed.count + added.count + sections.moves.count
    guard afterCount == data.count, afterCount == sections.targetCount else {
        return fail("section count: \(before.count) before, \(afterCount) by the batch, \(data.count) in the data")
    }
    var fill = [Int?](repeating: nil, count: afterCount)
    var taken = [Bool](repeating: false, count: afterCount)
    for offset in added {
        guard offset >= 0 && offset < afterCount, !taken[offset] else {
            return fail("section insert \(offset) clashes")
        }
        taken[offset] = true
    }
    for move in sections.moves {
        guard move.target >= 0 && move.target < afterCount, !taken[move.target] else {
            return fail("section move \(move) clashes")
        }
        taken[move.target] = true
        fill[move.target] = move.source
    }
    var slot = 0
    for source in before.indices where !removed.contains(source) {
        while taken[slot] { slot += 1 }
        fill[slot] = source
        taken[slot] = true
    }
    // Items, per after-section.
    var result: [SectionSnapshot<S, I>] = []
    for target in 0..<afterCount {
        let movesIn = changes.itemMoves.filter { $0.target.section == target }
        guard let source = fill[target] else {
            // An inserted (or, in batch mode, reloaded) section.
            if mode == .batch {
                result.append(data[target])
                continue
            }
            var items = data[target].items.map { Optional($0) }
            for move in movesIn {
                items[move.target.item] = before[move.source.section].items[move.source.item]
            }
            for update in changes.itemUpdates where update.target.section == target {
                items[update.target.item] = data[target].items[update.target.item]
            }
            result.append(SectionSnapshot(section: data[target].section, items: items.map { $0! }))
            continue
        }
        let old = before[source].items
        var leaving = Set<Int>()
        for path in changes.itemDeletes where path.section == source {
            guard path.item >= 0 && path.item < old.count else { return fail("item delete \(path) out of range") }
            leaving.insert(path.item)
        }
        for move in changes.itemMoves where move.source.section == source { leaving.insert(move.source.item) }
        var arriving: [Int: I] = [:]
        for path in changes.itemInserts where path.section == target {
            guard path.item >= 0 && path.item < data[target].items.count else {
                return fail("item insert \(path) out of range")
            }
            arriving[path.item] = data[target].items[path.item]
        }
        for move in movesIn {
            arriving[move.target.item] = before[move.source.section].items[move.source.item]
        }
        if mode == .batch {
            // reload = delete + insert; the insert's position is checked by the rule checker.
            for update in changes.itemUpdates where update.source.section == source {
                leaving.insert(update.source.item)
                arriving[update.target.item] = data[target].items[update.target.item]
            }
        }
        let count = old.count - leaving.count + arriving.count
        guard count == data[target].items.count else {
            return fail(
                "section \(source) → \(target): \(old.count) items - \(leaving.count) + \(arriving.count) = \(count), data has \(data[target].items.count)"
            )
        }
        var items = [I?](repeating: nil, count: count)
        for (offset, value) in arriving {
            guard offset < count, items[offset] == nil else {
                return fail("item slot \(offset) of section \(target) clashes")
            }
            items[offset] = value
        }
        var next = 0
        for (offset, value) in old.enumerated() where !leaving.contains(offset) {
            while items[next] != nil { next += 1 }
            items[next] = value
        }
        if mode == .difference {
            for update in changes.itemUpdates where update.target.section == target {
                items[update.target.item] = data[target].items[update.target.item]
            }
        }
        var value = before[source].section
        if mode == .difference, sections.updates.contains(where: { $0.target == target }) {
            value = data[target].section
        }
        result.append(SectionSnapshot(section: value, items: items.map { $0! }))
    }
    _ = reloadedTargets
    return .success(result)
}

struct SxOracleFailure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

// MARK: - Rule checker

/// The first UIKit batch rule (from `uikit-batch-rules.md`) that `changes`, read as one batch from
/// `before` to `after`, breaks; `nil` when it obeys them all.
func sectionedRuleViolation<S, I>(
    _ changes: SectionedChangeset,
    before: [SectionSnapshot<S, I>],
    after: [SectionSnapshot<S, I>]
) -> String? {
    let sections = changes.sections
    let beforeCount = before.count
    let afterCount = after.count
    // R10
    guard
        afterCount == beforeCount - sections.deletes.count - sections.updates.count
            + sections.inserts.count + sections.updates.count
    else { return "R10/M22: section count \(beforeCount) → \(afterCount) does not fit the batch" }
    // R5, R6 for sections, duplicates (R9/R13)
    guard Set(sections.deletes).count == sections.deletes.count else { return "R13: duplicate section delete" }
    guard Set(sections.inserts).count == sections.inserts.count else { return "R13: duplicate section insert" }
    for offset in sections.deletes where offset < 0 || offset >= beforeCount { return "M1: section delete \(offset)" }
    for offset in sections.inserts where offset < 0 || offset >= afterCount { return "M4: section insert \(offset)" }
    let deletedSections = Set(sections.deletes)
    let insertedSections = Set(sections.inserts)
    let movedFrom = Set(sections.moves.map(\.source))
    let movedTo = Set(sections.moves.map(\.target))
    guard movedFrom.count == sections.moves.count else { return "M18: a section moves to two places" }
    guard movedTo.count == sections.moves.count else { return "M20: two sections move to one place" }
    for move in sections.moves {
        if move.source < 0 || move.source >= beforeCount { return "M12: section move \(move)" }
        if move.target < 0 || move.target >= afterCount { return "M13: section move \(move)" }
        if deletedSections.contains(move.source) { return "M8: section \(move.source) deleted and moved" }
        if insertedSections.contains(move.target) { return "M9: section \(move.target) inserted and moved to" }
    }
    // Section reloads (R3 for sections): not deleted, not moved, no section moves in the batch.
    let reloadedSources = Set(sections.updates.map(\.source))
    let reloadedTargets = Set(sections.updates.map(\.target))
    for update in sections.updates {
        if deletedSections.contains(update.source) { return "M7: section \(update.source) deleted and reloaded" }
        if movedFrom.contains(update.source) { return "R3b: section \(update.source) reloaded and moved" }
        if !sections.moves.isEmpty { return "R3c/V18: section reload \(update) alongside section moves" }
        // Where UIKit puts the reloaded section: from deletes and inserts alone.
        let rank = update.source - sections.deletes.filter { $0 < update.source }.count
        var position = rank
        for insert in sections.inserts.sorted() where insert <= position { position += 1 }
        if position != update.target { return "R3d/R3f: section reload \(update) lands at \(position)" }
        if insertedSections.contains(update.target) {
            return "M9: section reload target \(update.target) also inserted"
        }
    }
    let movedSectionSources = movedFrom
    let movedSectionTargets = movedTo

    func inBefore(_ path: ElementPath) -> Bool {
        path.section >= 0 && path.section < beforeCount && path.item >= 0
            && path.item < before[path.section].items.count
    }
    func inAfter(_ path: ElementPath) -> Bool {
        path.section >= 0 && path.section < afterCount && path.item >= 0 && path.item < after[path.section].items.count
    }
    // Item deletes (R5).
    guard Set(changes.itemDeletes).count == changes.itemDeletes.count else { return "R13: duplicate item delete" }
    for path in changes.itemDeletes {
        if !inBefore(path) { return "M2/M3: item delete (\(path)) out of range" }
        if deletedSections.contains(path.section) { return "policy: item delete (\(path)) inside a deleted section" }
        if movedSectionSources.contains(path.section) { return "R12: item delete (\(path)) inside moved section" }
        if reloadedSources.contains(path.section) { return "policy: item delete (\(path)) inside a reloaded section" }
    }
    // Item inserts (R6).
    guard Set(changes.itemInserts).count == changes.itemInserts.count else { return "R13: duplicate item insert" }
    for path in changes.itemInserts {
        if !inAfter(path) { return "M5/M6: item insert (\(path)) out of range" }
        if insertedSections.contains(path.section) { return "policy: item insert (\(path)) inside an inserted section" }
        if movedSectionTargets.contains(path.section) { return "R12: item insert (\(path)) inside moved section" }
        if reloadedTargets.contains(path.section) { return "policy: item insert (\(path)) inside a reloaded section" }
    }
    // Item moves (R7, R8, R9, R12).
    let deletedPaths = Set(changes.itemDeletes)
    let insertedPaths = Set(changes.itemInserts)
    guard Set(changes.itemMoves.map(\.source)).count == changes.itemMoves.count else { return "M19: item moved twice" }
    guard Set(changes.itemMoves.map(\.target)).count == changes.itemMoves.count else {
        return "M21: two items moved to one path"
    }
    for move in changes.itemMoves {
        if !inBefore(move.source) { return "M14/M15: item move \(move) source out of range" }
        if !inAfter(move.target) { return "M16/M17: item move \(move) target out of range" }
        if deletedPaths.contains(move.source) { return "M8: item (\(move.source)) deleted and moved" }
        if insertedPaths.contains(move.target) { return "M9: item (\(move.target)) inserted and moved to" }
        if deletedSections.contains(move.source.section) { return "M10: item move \(move) out of a deleted section" }
        if insertedSections.contains(move.target.section) { return "M11: item move \(move) into an inserted section" }
        if movedSectionSources.contains(move.source.section) || movedSectionTargets.contains(move.target.section) {
            return "R12: item move \(move) touches a moved section"
        }
        if reloadedSources.contains(move.source.section) || reloadedTargets.contains(move.target.section) {
            return "policy: item move \(move) touches a reloaded section"
        }
    }
    // Item reloads (R3).
    let movedPaths = Set(changes.itemMoves.map(\.source))
    guard Set(changes.itemUpdates.map(\.source)).count == changes.itemUpdates.count else {
        return "R13: item reloaded twice"
    }
    for update in changes.itemUpdates {
        if !inBefore(update.source) { return "M2/M3: item reload \(update) out of range" }
        if !inAfter(update.target) { return "item reload \(update) target out of range" }
        if deletedPaths.contains(update.source) { return "M7: item (\(update.source)) deleted and reloaded" }
        if movedPaths.contains(update.source) { return "R3b/M8: item (\(update.source)) reloaded and moved" }
        if !sections.moves.isEmpty { return "R3c: item reload \(update) alongside section moves" }
        if deletedSections.contains(update.source.section) {
            return "policy: item reload \(update) in a deleted section"
        }
        // An item reload inside a reloaded section is dropped with the section's delete (R5); the
        // stage lists it so that `applied` replays the stage to its data.
        if reloadedSources.contains(update.source.section) { continue }
        // UIKit's position for the reload: section from section deletes and inserts, item from
        // item deletes and inserts, ignoring moves.
        var section = update.source.section - sections.deletes.filter { $0 < update.source.section }.count
        for insert in sections.inserts.sorted() where insert <= section { section += 1 }
        let rank =
            update.source.item
            - changes.itemDeletes.filter { $0.section == update.source.section && $0.item < update.source.item }.count
        var item = rank
        for insert in changes.itemInserts.filter({ $0.section == section }).map(\.item).sorted() where insert <= item {
            item += 1
        }
        let landing = ElementPath(item: item, section: section)
        if landing != update.target { return "R3d/R3f: item reload \(update) lands at (\(landing))" }
        if insertedPaths.contains(landing) { return "M9: item reload lands on an insert" }
    }
    return nil
}

// MARK: - Random inputs

/// Draws an integer in `range`.
func sxDraw(_ range: ClosedRange<Int>, _ random: inout SplitMix64) -> Int {
    Int.random(in: range, using: &random)
}

/// `true` with probability `numerator / denominator`.
func sxChance(_ numerator: Int, _ denominator: Int, _ random: inout SplitMix64) -> Bool {
    Int.random(in: 0..<denominator, using: &random) < numerator
}

/// Size and mix of a random sectioned pair.
struct SxShape {
    var maxSections = 5
    var maxItems = 6
    /// Out of 100: chance per section of being deleted, retitled, moved.
    var sectionChurn = 20
    /// Out of 100: chance per item of being deleted, updated, moved.
    var itemChurn = 15
    var duplicates = false
}

/// A random pair of sectioned lists, with section deletes, inserts, moves and retitles, and item
/// deletes, inserts, updates and moves (inside and across sections, into new sections and out of
/// deleted ones); sometimes every section replaced; with `shape.duplicates`, repeated identifiers.
func sectionedRandomPair(_ shape: SxShape, _ random: inout SplitMix64) -> (source: [SxSnapshot], target: [SxSnapshot]) {
    var nextSection = 1
    var nextItem = 1
    func newSection(_ random: inout SplitMix64) -> SxSnapshot {
        defer { nextSection += 1 }
        let empty = sxChance(1, 4, &random)
        let count = empty ? 0 : sxDraw(1...shape.maxItems, &random)
        var items: [SxItem] = []
        for _ in 0..<count {
            items.append(SxItem(id: nextItem))
            nextItem += 1
        }
        return SxSnapshot(section: SxSection(id: nextSection), items: items)
    }
    var source: [SxSnapshot] = []
    for _ in 0..<sxDraw(0...shape.maxSections, &random) { source.append(newSection(&random)) }

    var target: [SxSnapshot]
    var orphans: [SxItem] = []
    if sxChance(1, 12, &random) {
        // Every section replaced; some items survive into the new sections.
        orphans = source.flatMap(\.items)
        target = []
        for _ in 0..<sxDraw(0...shape.maxSections, &random) { target.append(newSection(&random)) }
    } else {
        target = []
        for section in source {
            if sxChance(shape.sectionChurn, 100, &random) {
                orphans.append(contentsOf: section.items)
                continue
            }
            var kept = section
            if sxChance(shape.sectionChurn, 100, &random) { kept.section.title = sxDraw(1...9, &random) }
            target.append(kept)
        }
        for _ in 0..<sxDraw(0...2, &random) {
            target.insert(newSection(&random), at: sxDraw(0...target.count, &random))
        }
        // Section moves: move a few sections to random places.
        if !target.isEmpty {
            for _ in 0..<sxDraw(0...2, &random) where sxChance(shape.sectionChurn * 2, 100, &random) {
                let moved = target.remove(at: sxDraw(0...(target.count - 1), &random))
                target.insert(moved, at: sxDraw(0...target.count, &random))
            }
        }
    }
    // Items: delete, update, move (anywhere, including new sections).
    var travellers: [SxItem] = []
    for s in target.indices {
        var kept: [SxItem] = []
        for var item in target[s].items {
            if sxChance(shape.itemChurn, 100, &random) { continue }
            if sxChance(shape.itemChurn, 100, &random) { item.content = sxDraw(1...9, &random) }
            if sxChance(shape.itemChurn, 100, &random) {
                travellers.append(item)
                continue
            }
            kept.append(item)
        }
        target[s].items = ListSnapshot(kept)
    }
    for var item in orphans where sxChance(1, 3, &random) {
        if sxChance(1, 3, &random) { item.content = sxDraw(1...9, &random) }
        travellers.append(item)
    }
    for _ in 0..<sxDraw(0...3, &random) {
        travellers.append(SxItem(id: nextItem))
        nextItem += 1
    }
    if !target.isEmpty {
        for item in travellers {
            let s = sxDraw(0...(target.count - 1), &random)
            target[s].items.insert(item, at: sxDraw(0...target[s].items.count, &random))
        }
    }
    if shape.duplicates {
        // Repeat some identifiers, on either side, in the same or another section.
        for _ in 0..<sxDraw(1...3, &random) {
            let side = sxChance(1, 2, &random)
            var list = side ? source : target
            let all = list.flatMap(\.items)
            guard let copied = all.isEmpty ? nil : all[sxDraw(0...(all.count - 1), &random)], !list.isEmpty else {
                continue
            }
            let s = sxDraw(0...(list.count - 1), &random)
            var item = copied
            if sxChance(1, 2, &random) { item.content = sxDraw(1...9, &random) }
            list[s].items.insert(item, at: sxDraw(0...list[s].items.count, &random))
            if side { source = list } else { target = list }
        }
        if sxChance(1, 3, &random), let first = source.first {
            // A repeated section identifier.
            source.append(SxSnapshot(section: first.section, items: []))
        }
    }
    return (source, target)
}

/// The length of a longest strictly increasing subsequence, by the quadratic textbook method.
func sxLongestIncreasing(_ values: [Int]) -> Int {
    var best = [Int](repeating: 1, count: values.count)
    for i in values.indices {
        for j in 0..<i where values[j] < values[i] { best[i] = max(best[i], best[j] + 1) }
    }
    return best.max() ?? 0
}
