import RippleDiff
import RippleTestSupport
import XCTest

/// Seeded random sectioned pairs, checked in both directions against the independent oracle and
/// rule checker in `SectionedTestOracle.swift`.
final class SectionedRandomTests: XCTestCase {
    /// 10,000 seeds × 2 directions = 20,000 small pairs with unique identifiers.
    func testRandomSmallPairs() {
        var coverage = SectionedCoverage()
        forEachSeed(TestScale.seeds(0..<10_000)) { seed, random in
            let (source, target) = sectionedRandomPair(SxShape(), &random)
            return sectionedCheck(source, target, uniqueIDs: true, coverage: &coverage)
                ?? sectionedCheck(target, source, uniqueIDs: true, coverage: &coverage).map { "inverse: \($0)" }
        }
        // The generator must reach every case the staging treats specially.
        print("sectioned random coverage:", coverage)
        // (A scaled run, with a fraction of the seeds, needs only that fraction of the cases.)
        for (name, count) in coverage.tallies where count < TestScale.count(100) {
            XCTFail("only \(count) random pairs with \(name)")
        }
    }

    /// Heavy churn: most sections and items change, so section moves meet item changes often.
    func testRandomHeavyChurn() {
        forEachSeedConcurrently(TestScale.seeds(100_000..<102_000)) { seed, random in
            let shape = SxShape(maxSections: 6, maxItems: 5, sectionChurn: 45, itemChurn: 35)
            let (source, target) = sectionedRandomPair(shape, &random)
            return sectionedCheck(source, target, uniqueIDs: true)
                ?? sectionedCheck(target, source, uniqueIDs: true).map { "inverse: \($0)" }
        }
    }

    /// Repeated section and item identifiers: never a crash, always a valid, replayable result.
    func testRandomDuplicates() {
        forEachSeedConcurrently(TestScale.seeds(200_000..<202_000)) { seed, random in
            let (source, target) = sectionedRandomPair(SxShape(duplicates: true), &random)
            return sectionedCheck(source, target, uniqueIDs: false)
                ?? sectionedCheck(target, source, uniqueIDs: false).map { "inverse: \($0)" }
        }
    }

    /// Larger lists, where longest-increasing-run choices and cross-section moves pile up.
    func testRandomMediumPairs() {
        forEachSeedConcurrently(TestScale.seeds(300_000..<300_150, minimum: 20)) { seed, random in
            let shape = SxShape(maxSections: 14, maxItems: 30, sectionChurn: 15, itemChurn: 12)
            let (source, target) = sectionedRandomPair(shape, &random)
            return sectionedCheck(source, target, uniqueIDs: true)
                ?? sectionedCheck(target, source, uniqueIDs: true).map { "inverse: \($0)" }
        }
    }
}

/// Checks one diff and its staging; returns the first problem, or `nil`.
func sectionedCheck(_ source: [SxSnapshot], _ target: [SxSnapshot], uniqueIDs: Bool) -> String? {
    var coverage = SectionedCoverage()
    return sectionedCheck(source, target, uniqueIDs: uniqueIDs, coverage: &coverage)
}

/// How often the random pairs reach each case that the staging treats specially.
struct SectionedCoverage: CustomStringConvertible {
    var emptyDiff = 0
    var emptySection = 0
    var allSectionsReplaced = 0
    var crossSectionMove = 0
    var moveOutOfDeletedSection = 0
    var moveIntoInsertedSection = 0
    var sectionMoveWithItemChanges = 0
    var sectionMoveKept = 0
    var sectionReload = 0
    var oneStageWithReloads = 0
    var twoStages = 0

    var tallies: [(String, Int)] {
        [
            ("an empty diff", emptyDiff), ("an empty section", emptySection),
            ("all sections replaced", allSectionsReplaced), ("a cross-section move", crossSectionMove),
            ("a move out of a deleted section", moveOutOfDeletedSection),
            ("a move into an inserted section", moveIntoInsertedSection),
            ("a section move rewritten (R12)", sectionMoveWithItemChanges),
            ("a section move kept", sectionMoveKept), ("a section reload", sectionReload),
            ("one stage with reloads", oneStageWithReloads), ("two stages", twoStages),
        ]
    }

    var description: String { tallies.map { "\($0.0): \($0.1)" }.joined(separator: ", ") }

    mutating func record(
        _ changes: SectionedChangeset, _ staged: StagedSectionedChangeset<SxSection, SxItem>,
        _ source: [SxSnapshot], _ target: [SxSnapshot]
    ) {
        if changes.isEmpty { emptyDiff += 1 }
        if source.contains(where: \.items.isEmpty) || target.contains(where: \.items.isEmpty) { emptySection += 1 }
        if !source.isEmpty && !target.isEmpty && changes.sections.deletes.count == source.count
            && changes.sections.inserts.count == target.count
        {
            allSectionsReplaced += 1
        }
        let deleted = Set(changes.sections.deletes)
        let inserted = Set(changes.sections.inserts)
        if changes.itemMoves.contains(where: { $0.source.section != $0.target.section }) { crossSectionMove += 1 }
        if changes.itemMoves.contains(where: { deleted.contains($0.source.section) }) { moveOutOfDeletedSection += 1 }
        if changes.itemMoves.contains(where: { inserted.contains($0.target.section) }) { moveIntoInsertedSection += 1 }
        let structural = staged.last?.changeset.sections
        if let structural, structural.moves.count < changes.sections.moves.count { sectionMoveWithItemChanges += 1 }
        if let structural, !structural.moves.isEmpty { sectionMoveKept += 1 }
        if staged.contains(where: { !$0.changeset.sections.updates.isEmpty }) { sectionReload += 1 }
        if staged.count == 1
            && !(staged[0].changeset.sections.updates.isEmpty && staged[0].changeset.itemUpdates.isEmpty)
            && !(staged[0].changeset.itemDeletes.isEmpty && staged[0].changeset.itemInserts.isEmpty
                && staged[0].changeset.itemMoves.isEmpty && staged[0].changeset.sections.deletes.isEmpty
                && staged[0].changeset.sections.inserts.isEmpty)
        {
            oneStageWithReloads += 1
        }
        if staged.count == 2 { twoStages += 1 }
    }
}

/// Checks one diff and its staging; returns the first problem, or `nil`.
func sectionedCheck(
    _ source: [SxSnapshot], _ target: [SxSnapshot], uniqueIDs: Bool, coverage: inout SectionedCoverage
) -> String? {
    let changes = SectionedChangeset(from: source, to: target)
    func context() -> String { "\(source) → \(target)\n\(changes)" }
    if let failure = changes.validationFailure() { return "invalid diff: \(failure)\n\(context())" }
    if let failure = sectionedOrderFailure(changes) { return "diff: \(failure)\n\(context())" }

    // The diff replays to the target, by the production replay and by the oracle.
    let replayed = changes.applied(
        to: source, section: { target[$0].section }, item: { target[$0.section].items[$0.item] })
    if replayed != target { return "applied(to:) gives \(replayed)\n\(context())" }
    switch sectionedOracleReplay(changes, before: source, data: target, mode: .difference) {
    case .failure(let failure): return "oracle cannot replay the diff: \(failure)\n\(context())"
    case .success(let result) where result != target: return "oracle replay of the diff gives \(result)\n\(context())"
    case .success: break
    }
    if uniqueIDs, let failure = sectionedMinimalityFailure(changes, source, target) {
        return "\(failure)\n\(context())"
    }
    if !uniqueIDs {
        // Every reported repeat really repeats an identifier seen earlier on its side.
        for (side, paths) in [
            (source, changes.itemDuplicates.sourcePaths), (target, changes.itemDuplicates.targetPaths),
        ] {
            for path in paths {
                let id = side[path.section].items[path.item].id
                let earlier = side.enumerated().contains { s, section in
                    section.items.enumerated().contains { i, item in item.id == id && sxPath(s, i) < path }
                }
                if !earlier { return "duplicate (\(path)) does not repeat an earlier identifier\n\(context())" }
            }
        }
    }

    // Staging: every stage obeys the rules and replays to its data; the last data is the target.
    // (`testIdentityOverloadsAgree` checks that the diffing initializers stage the same way.)
    let staged = StagedSectionedChangeset(changeset: changes, source: source, target: target)
    if let failure = sectionedStagesFailure(staged, source: source, target: target) {
        return "\(failure)\n\(context())\n\(staged)"
    }
    if changes.isEmpty != staged.isEmpty { return "an empty diff must give no stage\n\(context())" }
    coverage.record(changes, staged, source, target)
    if staged.count == 2,
        let failure = sectionedMergeWasNeededFailure(staged, changes: changes, source: source, target: target)
    {
        return "\(failure)\n\(context())\n\(staged)"
    }
    return nil
}

/// Per stage: the structural rules, the oracle replay and `applied` against the stage's data, valid
/// change-set; overall: at most two stages, a reload stage holds reloads only, the last data is the
/// target.
func sectionedStagesFailure(
    _ staged: StagedSectionedChangeset<SxSection, SxItem>,
    source: [SxSnapshot],
    target: [SxSnapshot]
) -> String? {
    if staged.count > 2 { return "\(staged.count) stages" }
    var before = source
    for (index, stage) in staged.enumerated() {
        let changes = stage.changeset
        if changes.isEmpty { return "stage \(index) is empty" }
        if let failure = changes.validationFailure() { return "stage \(index) is invalid: \(failure)" }
        if let failure = sectionedOrderFailure(changes) { return "stage \(index): \(failure)" }
        if changes.sourceItemCounts != before.map(\.items.count)
            || changes.targetItemCounts != stage.data.map(\.items.count)
        {
            return "stage \(index) counts do not match the data"
        }
        if let violation = sectionedRuleViolation(changes, before: before, after: stage.data) {
            return "stage \(index) breaks \(violation)"
        }
        switch sectionedOracleReplay(changes, before: before, data: stage.data, mode: .batch) {
        case .failure(let failure): return "stage \(index) cannot be replayed: \(failure)"
        case .success(let result) where result != stage.data:
            return "stage \(index) replays to \(result), its data is \(stage.data)"
        case .success: break
        }
        // RippleDiff's own replay agrees: a stage's item updates are exact, even inside a reloaded
        // section.
        let data = stage.data
        let replayed = changes.applied(
            to: before, section: { data[$0].section }, item: { data[$0.section].items[$0.item] })
        if replayed != data {
            return "stage \(index): applied(to:section:item:) gives \(replayed), its data is \(data)"
        }
        if staged.count == 2 && index == 0 {
            let structural =
                changes.sections.deletes.count + changes.sections.inserts.count
                + changes.sections.moves.count + changes.itemDeletes.count + changes.itemInserts.count
                + changes.itemMoves.count
            if structural != 0 { return "the reload stage changes structure" }
        }
        if staged.count == 2 && index == 1 && (!changes.sections.updates.isEmpty || !changes.itemUpdates.isEmpty) {
            return "the structural stage after a reload stage reloads"
        }
        before = stage.data
    }
    if before != target { return "the last stage's data \(before) is not the target" }
    return nil
}

/// When staging used two batches, the one-batch alternative (structure plus the same reloads at
/// their targets) must break a rule; otherwise the second batch was not needed.
func sectionedMergeWasNeededFailure(
    _ staged: StagedSectionedChangeset<SxSection, SxItem>,
    changes: SectionedChangeset,
    source: [SxSnapshot],
    target: [SxSnapshot]
) -> String? {
    var merged = staged[1].changeset
    let reloads = staged[0].changeset
    for update in reloads.sections.updates {
        guard let full = changes.sections.updates.first(where: { $0.source == update.source }) else {
            return "reload of section \(update.source) is not a diff update"
        }
        merged.sections.updates.append(full)
    }
    for update in reloads.itemUpdates {
        guard let full = changes.itemUpdates.first(where: { $0.source == update.source }) else {
            return "reload of item (\(update.source)) is not a diff update"
        }
        merged.itemUpdates.append(full)
    }
    if sectionedRuleViolation(merged, before: source, after: target) == nil {
        return "two stages, but one batch would obey every rule: \(merged)"
    }
    return nil
}

/// With unique identifiers: every identifier on both sides is kept (moved or in place), section and
/// per-section item moves are minimal, cross-section moves are exactly the items that changed
/// section, and the updates are exactly the kept items whose content changed.
func sectionedMinimalityFailure(
    _ changes: SectionedChangeset,
    _ source: [SxSnapshot],
    _ target: [SxSnapshot]
) -> String? {
    // Sections.
    let sourceSectionIDs = source.map(\.section.id)
    let targetSectionIDs = target.map(\.section.id)
    var sectionOfSource: [Int: Int] = [:]
    for (offset, id) in sourceSectionIDs.enumerated() { sectionOfSource[id] = offset }
    let keptSections = targetSectionIDs.compactMap { sectionOfSource[$0] }
    if changes.sections.deletes.count != source.count - keptSections.count {
        return "section deletes \(changes.sections.deletes.count), expected \(source.count - keptSections.count)"
    }
    if changes.sections.moves.count != keptSections.count - sxLongestIncreasing(keptSections) {
        return "section moves \(changes.sections.moves.count) are not minimal"
    }
    var mate: [Int: Int] = [:]  // source section → target section
    for (t, id) in targetSectionIDs.enumerated() {
        if let s = sectionOfSource[id] { mate[s] = t }
    }
    let expectedSectionUpdates = mate.filter { source[$0.key].section != target[$0.value].section }.count
    if changes.sections.updates.count != expectedSectionUpdates { return "section updates are not exact" }

    // Items.
    var sourcePath: [Int: ElementPath] = [:]
    for (s, section) in source.enumerated() {
        for (i, item) in section.items.enumerated() { sourcePath[item.id] = sxPath(s, i) }
    }
    var targetPath: [Int: ElementPath] = [:]
    for (t, section) in target.enumerated() {
        for (j, item) in section.items.enumerated() { targetPath[item.id] = sxPath(t, j) }
    }
    let deletedSections = Set(changes.sections.deletes)
    let insertedSections = Set(changes.sections.inserts)
    let expectedDeletes = sourcePath.filter { targetPath[$0.key] == nil && !deletedSections.contains($0.value.section) }
    if Set(changes.itemDeletes) != Set(expectedDeletes.values) {
        return "item deletes are not exactly the vanished items"
    }
    let expectedInserts = targetPath.filter {
        sourcePath[$0.key] == nil && !insertedSections.contains($0.value.section)
    }
    if Set(changes.itemInserts) != Set(expectedInserts.values) { return "item inserts are not exactly the new items" }
    var crossing = 0
    var inSection: [Int: [(sourceItem: Int, targetItem: Int)]] = [:]
    for (id, from) in sourcePath {
        guard let to = targetPath[id] else { continue }
        if mate[from.section] == to.section {
            inSection[to.section, default: []].append((from.item, to.item))
        } else {
            crossing += 1
        }
    }
    var minimalMoves = crossing
    for (_, pairs) in inSection {
        let sequence = pairs.sorted { $0.targetItem < $1.targetItem }.map(\.sourceItem)
        minimalMoves += sequence.count - sxLongestIncreasing(sequence)
    }
    if changes.itemMoves.count != minimalMoves {
        return "item moves \(changes.itemMoves.count), minimal \(minimalMoves) (\(crossing) across sections)"
    }
    for move in changes.itemMoves {
        let id = source[move.source.section].items[move.source.item].id
        if target[move.target.section].items[move.target.item].id != id { return "move \(move) pairs different items" }
    }
    var expectedUpdates = 0
    for (id, from) in sourcePath {
        guard let to = targetPath[id] else { continue }
        if source[from.section].items[from.item] != target[to.section].items[to.item] { expectedUpdates += 1 }
    }
    if changes.itemUpdates.count != expectedUpdates { return "item updates are not exact" }
    for update in changes.itemUpdates {
        if sourcePath[source[update.source.section].items[update.source.item].id] != update.source
            || targetPath[target[update.target.section].items[update.target.item].id] != update.target
        {
            return "update \(update) pairs different items"
        }
    }
    return nil
}

/// The documented orders: deletes and inserts ascending, moves ascending by target, updates
/// ascending by source, at both levels.
func sectionedOrderFailure(_ changes: SectionedChangeset) -> String? {
    func ascending<T: Comparable>(_ values: [T]) -> Bool {
        var index = 1
        while index < values.count {
            if values[index] <= values[index - 1] { return false }
            index += 1
        }
        return true
    }
    let sections = changes.sections
    if !ascending(sections.deletes) || !ascending(sections.inserts) { return "section deletes or inserts out of order" }
    if !ascending(sections.moves.map(\.target)) { return "section moves out of order" }
    if !ascending(sections.updates.map(\.source)) { return "section updates out of order" }
    if !ascending(changes.itemDeletes) { return "item deletes out of order: \(changes.itemDeletes)" }
    if !ascending(changes.itemInserts) { return "item inserts out of order: \(changes.itemInserts)" }
    if !ascending(changes.itemMoves.map(\.target)) { return "item moves out of order: \(changes.itemMoves)" }
    if !ascending(changes.itemUpdates.map(\.source)) { return "item updates out of order: \(changes.itemUpdates)" }
    if !ascending(changes.itemDuplicates.sourcePaths) || !ascending(changes.itemDuplicates.targetPaths) {
        return "duplicate paths out of order"
    }
    return nil
}
