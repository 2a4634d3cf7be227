import RippleDiff
import RippleTestSupport
import XCTest

/// Hand-written cases for `StagedSectionedChangeset`: one per staging rule, each also run through
/// the rule checker and oracle of `SectionedTestOracle.swift`.
final class SectionedStagingTests: XCTestCase {
    /// Stages `source → target`, checks every stage, and returns the stages.
    private func stage(
        _ source: [SxSnapshot], _ target: [SxSnapshot], file: StaticString = #filePath, line: UInt = #line
    ) -> StagedSectionedChangeset<SxSection, SxItem> {
        XCTAssertNil(sectionedCheck(source, target, uniqueIDs: true), file: file, line: line)
        return StagedSectionedChangeset(from: source, to: target)
    }

    func testCrossSectionMoveIsOneStage() {
        let staged = stage(sxList([(1, [1, 2]), (2, [3, 4])]), sxList([(1, [2]), (2, [1, 3, 4])]))
        XCTAssertEqual(staged.count, 1)
        XCTAssertEqual(staged[0].changeset.itemMoves, [sxPair((0, 0), (1, 0))])
    }

    /// R7 (M10): a move out of a deleted section becomes an insert.
    func testMoveOutOfDeletedSectionBecomesInsert() {
        let staged = stage(sxList([(1, [1, 2]), (2, [3])]), sxList([(2, [3, 1])]))
        XCTAssertEqual(staged.count, 1)
        let changes = staged[0].changeset
        XCTAssertEqual(changes.sections.deletes, [0])
        XCTAssertEqual(changes.itemInserts, [sxPath(0, 1)])
        XCTAssertEqual(changes.itemMoves, [])
        XCTAssertEqual(changes.itemDeletes, [])
    }

    /// R7 (M11): a move into an inserted section becomes a delete.
    func testMoveIntoInsertedSectionBecomesDelete() {
        let staged = stage(sxList([(1, [1, 2])]), sxList([(1, [2]), (3, [1])]))
        XCTAssertEqual(staged.count, 1)
        let changes = staged[0].changeset
        XCTAssertEqual(changes.sections.inserts, [1])
        XCTAssertEqual(changes.itemDeletes, [sxPath(0, 0)])
        XCTAssertEqual(changes.itemMoves, [])
        XCTAssertEqual(changes.itemInserts, [])
    }

    /// R7 both ways: the item leaves and arrives with its sections; its update is dropped.
    func testMoveFromDeletedToInsertedSectionDisappears() {
        var target = sxList([(2, [1])])
        target[0].items[0].content = 5
        let staged = stage(sxList([(1, [1])]), target)
        XCTAssertEqual(staged.count, 1)
        let changes = staged[0].changeset
        XCTAssertEqual(changes.sections.deletes, [0])
        XCTAssertEqual(changes.sections.inserts, [0])
        XCTAssertEqual(changes.changeCount, 2)
    }

    /// R12: a moved section with an item change inside is deleted and inserted.
    func testMovedSectionWithItemChangeIsReplaced() {
        let staged = stage(
            sxList([(1, [1]), (2, [2]), (3, [3])]),
            sxList([(3, [3, 4]), (1, [1]), (2, [2])]))
        XCTAssertEqual(staged.count, 1)
        let changes = staged[0].changeset
        XCTAssertEqual(changes.sections.moves, [])
        XCTAssertEqual(changes.sections.deletes, [2])
        XCTAssertEqual(changes.sections.inserts, [0])
        XCTAssertEqual(changes.itemInserts, [])
    }

    /// R12 on the target side: an item moved into a moved section replaces that section, and the
    /// move becomes a delete in its source section.
    func testMoveIntoMovedSectionReplacesIt() {
        let staged = stage(
            sxList([(1, [1, 5]), (2, [2]), (3, [3])]),
            sxList([(3, [3, 5]), (1, [1]), (2, [2])]))
        XCTAssertEqual(staged.count, 1)
        let changes = staged[0].changeset
        XCTAssertEqual(changes.sections.moves, [])
        XCTAssertEqual(changes.sections.deletes, [2])
        XCTAssertEqual(changes.sections.inserts, [0])
        XCTAssertEqual(changes.itemDeletes, [sxPath(0, 1)])
        XCTAssertEqual(changes.itemMoves, [])
    }

    /// V20's shape: moveSection 1 → 0 with a row moving inside it. Legal for UIKit, but R12's
    /// policy replaces the section.
    func testMovedSectionWithMoveInsideIsReplaced() {
        let staged = stage(sxList([(1, [1, 2]), (2, [3, 4, 5])]), sxList([(2, [4, 5, 3]), (1, [1, 2])]))
        XCTAssertEqual(staged.count, 1)
        XCTAssertEqual(staged[0].changeset.sections.moves, [])
        XCTAssertEqual(staged[0].changeset.itemMoves, [])
    }

    /// A moved section without item changes keeps its move, next to item changes elsewhere.
    func testQuietSectionMoveIsKept() {
        let staged = stage(
            sxList([(1, [1]), (2, [2]), (3, [3])]),
            sxList([(3, [3]), (1, [1, 5]), (2, [2])]))
        XCTAssertEqual(staged.count, 1)
        let changes = staged[0].changeset
        XCTAssertEqual(changes.sections.moves, [Changeset.OffsetPair(source: 2, target: 0)])
        XCTAssertEqual(changes.itemInserts, [sxPath(1, 1)])
    }

    func testItemUpdateInPlaceIsOneStage() {
        var target = sxList([(1, [1, 2])])
        target[0].items[1].content = 1
        let staged = stage(sxList([(1, [1, 2])]), target)
        XCTAssertEqual(staged.count, 1)
        XCTAssertEqual(staged[0].changeset.itemUpdates, [sxPair((0, 1), (0, 1))])
    }

    /// An update shifted only by deletes and inserts lands where UIKit computes it: one stage.
    func testUpdateShiftedByDeletesAndInsertsIsOneStage() {
        var target = sxList([(1, [2, 9, 3])])
        target[0].items[2].content = 1
        let staged = stage(sxList([(1, [1, 2, 3])]), target)
        XCTAssertEqual(staged.count, 1)
        XCTAssertEqual(staged[0].changeset.itemUpdates, [sxPair((0, 2), (0, 2))])
    }

    /// R3b (V06): a moved item cannot be reloaded in the same batch.
    func testMovedUpdatedItemTakesTwoStages() {
        var target = sxList([(1, [3, 1, 2])])
        target[0].items[0].content = 1
        let source = sxList([(1, [1, 2, 3])])
        let staged = stage(source, target)
        XCTAssertEqual(staged.count, 2)
        XCTAssertEqual(staged[0].changeset.itemUpdates, [sxPair((0, 2), (0, 2))])
        XCTAssertEqual(staged[0].data[0].items, [SxItem(id: 1), SxItem(id: 2), SxItem(id: 3, content: 1)])
        XCTAssertEqual(staged[1].changeset.itemMoves, [sxPair((0, 2), (0, 0))])
        XCTAssertEqual(staged[1].changeset.itemUpdates, [])
        XCTAssertEqual(staged[1].data, target)
    }

    /// R3f: a cross-section move shifts the updated row; UIKit would reload the wrong one.
    func testUpdateShiftedByAMoveTakesTwoStages() {
        var target = sxList([(1, [2]), (2, [1, 3])])
        target[0].items[0].content = 1
        let staged = stage(sxList([(1, [1, 2]), (2, [3])]), target)
        XCTAssertEqual(staged.count, 2)
        XCTAssertEqual(staged[0].changeset.itemUpdates, [sxPair((0, 1), (0, 1))])
        XCTAssertEqual(staged[1].changeset.itemMoves, [sxPair((0, 0), (1, 0))])
    }

    /// R3c (V17): an item reload next to a section move takes its own stage.
    func testUpdateWithSectionMoveTakesTwoStages() {
        var target = sxList([(2, [2]), (1, [1])])
        target[1].items[0].content = 1
        let staged = stage(sxList([(1, [1]), (2, [2])]), target)
        XCTAssertEqual(staged.count, 2)
        XCTAssertEqual(staged[0].changeset.itemUpdates, [sxPair((0, 0), (0, 0))])
        XCTAssertEqual(staged[1].changeset.sections.moves.count, 1)
    }

    /// V18: a section reload next to a section move takes its own stage.
    func testSectionUpdateWithSectionMoveTakesTwoStages() {
        var target = sxList([(2, [2]), (1, [1]), (3, [3])])
        target[2].section.title = 1
        let staged = stage(sxList([(1, [1]), (2, [2]), (3, [3])]), target)
        XCTAssertEqual(staged.count, 2)
        XCTAssertEqual(staged[0].changeset.sections.updates, [Changeset.OffsetPair(source: 2, target: 2)])
        XCTAssertEqual(staged[0].data[2].section.title, 1)
        XCTAssertEqual(staged[1].changeset.sections.moves.count, 1)
    }

    /// A reloaded section is deleted and inserted whole, so item changes inside it wait.
    func testSectionUpdateWithItemChangeInsideTakesTwoStages() {
        var target = sxList([(1, [1, 2])])
        target[0].section.title = 1
        let staged = stage(sxList([(1, [1])]), target)
        XCTAssertEqual(staged.count, 2)
        XCTAssertEqual(staged[0].changeset.sections.updates, [Changeset.OffsetPair(source: 0, target: 0)])
        XCTAssertEqual(staged[0].data, [SxSnapshot(section: SxSection(id: 1, title: 1), items: [SxItem(id: 1)])])
        XCTAssertEqual(staged[1].changeset.itemInserts, [sxPath(0, 1)])
    }

    func testSectionUpdateWithChangesElsewhereIsOneStage() {
        var target = sxList([(0, []), (1, [1]), (2, [2, 3])])
        target[1].section.title = 1
        let staged = stage(sxList([(1, [1]), (2, [2])]), target)
        XCTAssertEqual(staged.count, 1)
        XCTAssertEqual(staged[0].changeset.sections.updates, [Changeset.OffsetPair(source: 0, target: 1)])
        XCTAssertEqual(staged[0].changeset.sections.inserts, [0])
        XCTAssertEqual(staged[0].changeset.itemInserts, [sxPath(2, 1)])
    }

    /// A section reload keeps the item updates inside it: UIKit ignores them (the section is read
    /// again whole), but the stage replays to its data only with them.
    func testSectionUpdateKeepsItsItemUpdates() {
        var target = sxList([(1, [1, 2])])
        target[0].section.title = 1
        target[0].items[0].content = 1
        let staged = stage(sxList([(1, [1, 2])]), target)
        XCTAssertEqual(staged.count, 1)
        XCTAssertEqual(staged[0].changeset.sections.updates.count, 1)
        XCTAssertEqual(staged[0].changeset.itemUpdates, [sxPair((0, 0), (0, 0))])
    }

    /// Issue 13: `[S0 a: [1 x]]` → `[S0 b: [1 y]]` lost the item's content when its single stage
    /// was replayed with `applied(to:section:item:)`.
    func testReplayingAStageThatReloadsASectionKeepsTheItemChange() {
        var target = sxList([(0, [1])])
        target[0].section.title = 1
        target[0].items[0].content = 1
        let source = sxList([(0, [1])])
        let staged = stage(source, target)
        XCTAssertEqual(
            "\(staged)",
            "StagedSectionedChangeset(\n  0: SectionedChangeset(sections 1 → 1: update [0→0]; items 1 → 1: update [(0 - 0)→(0 - 0)])\n)"
        )
        let stageData = staged[0].data
        let replayed = staged[0].changeset.applied(
            to: source, section: { stageData[$0].section }, item: { stageData[$0.section].items[$0.item] })
        XCTAssertEqual(replayed, target)
        XCTAssertEqual(stageData, target)
    }

    /// Two stages: the reload stage reloads the section and lists the item updated inside it.
    func testReloadStageListsTheItemUpdatesOfReloadedSections() {
        var target = sxList([(2, [2]), (1, [1, 3])])
        target[1].section.title = 1
        target[1].items[0].content = 1
        let staged = stage(sxList([(1, [1, 3]), (2, [2])]), target)
        XCTAssertEqual(staged.count, 2)
        XCTAssertEqual(staged[0].changeset.sections.updates, [Changeset.OffsetPair(source: 0, target: 0)])
        XCTAssertEqual(staged[0].changeset.itemUpdates, [sxPair((0, 0), (0, 0))])
        XCTAssertEqual(
            staged[0].data[0],
            SxSnapshot(section: SxSection(id: 1, title: 1), items: [SxItem(id: 1, content: 1), SxItem(id: 3)]))
    }

    func testDuplicatesGoToTheFirstStage() {
        let source = sxList([(1, [1, 2, 3]), (2, [1, 8])])
        var target = sxList([(1, [3, 1, 2]), (2, [9, 1])])
        target[0].items[0].content = 1
        let staged = StagedSectionedChangeset(from: source, to: target)
        XCTAssertEqual(staged.count, 2)
        XCTAssertEqual(staged[0].changeset.itemDuplicates.sourcePaths, [sxPath(1, 0)])
        XCTAssertEqual(staged[0].changeset.itemDuplicates.targetPaths, [sxPath(1, 1)])
        XCTAssertTrue(staged[1].changeset.itemDuplicates.isEmpty)
        XCTAssertNil(sectionedCheck(source, target, uniqueIDs: false))
    }

    func testStagingAHandMadeChangeset() {
        // Unsorted lists in a hand-made change-set are fine.
        let source = sxList([(1, [1, 2, 3]), (2, [4])])
        let target = sxList([(1, [2]), (2, [4, 3])])
        let changes = SectionedChangeset(
            sections: Changeset(sourceCount: 2, targetCount: 2),
            sourceItemCounts: [3, 1], targetItemCounts: [1, 2],
            itemDeletes: [sxPath(0, 0)],
            itemMoves: [sxPair((0, 2), (1, 1))])
        XCTAssertNil(changes.validationFailure())
        let staged = StagedSectionedChangeset(changeset: changes, source: source, target: target)
        XCTAssertEqual(staged.count, 1)
        XCTAssertNil(sectionedStagesFailure(staged, source: source, target: target))
        XCTAssertEqual(
            staged.description,
            "StagedSectionedChangeset(\n  0: SectionedChangeset(sections 2 → 2: no changes; items 4 → 3: delete [0 - 0], move [(0 - 2)→(1 - 1)])\n)"
        )
        XCTAssertEqual(staged.changeCount, 2)
    }

    /// An unsorted hand-made change-set is invalid (its lists are documented as ascending), but the
    /// staging sorts what it reads, so its stages are valid.
    func testStagingAnUnsortedHandMadeChangeset() {
        let source = sxList([(1, [1, 2, 3, 4]), (2, [5])])
        var target = sxList([(1, [2, 3]), (2, [5])])
        target[0].items[1].content = 1
        let changes = SectionedChangeset(
            sections: Changeset(sourceCount: 2, targetCount: 2),
            sourceItemCounts: [4, 1], targetItemCounts: [2, 1],
            itemDeletes: [sxPath(0, 3), sxPath(0, 0)],
            itemUpdates: [sxPair((0, 2), (0, 1))])
        XCTAssertEqual(changes.validationFailure(), "item deletes must be ascending: (0 - 0) follows (0 - 3)")
        let staged = StagedSectionedChangeset(changeset: changes, source: source, target: target)
        XCTAssertEqual(staged.count, 1)
        XCTAssertEqual(staged[0].changeset.itemDeletes, [sxPath(0, 0), sxPath(0, 3)])
        XCTAssertNil(sectionedStagesFailure(staged, source: source, target: target))
    }

    // MARK: - Bad input (issue 13), in child processes

    /// The entry point of the child processes; skipped in a normal run.
    func test_childProcessEntry() throws {
        let name = try childProcessCase()
        let source = sxList([(1, [1, 2]), (2, [3])])
        let target = sxList([(1, [2]), (2, [3, 1])])
        let changes = SectionedChangeset(from: source, to: target)
        switch name {
        case "appliedWithTooFewItemCounts":
            // Used to trap with `Index out of range` before validation could name the problem.
            var short = changes
            short.sourceItemCounts = [2]
            _ = short.applied(to: source, section: { target[$0].section }, item: { target[$0.section].items[$0.item] })
        case "appliedToAnotherList":
            _ = changes.applied(
                to: sxList([(1, [1, 2]), (2, [3, 4])]), section: { target[$0].section },
                item: { target[$0.section].items[$0.item] })
        case "stagedWithAnotherList":
            _ = StagedSectionedChangeset(
                changeset: changes, source: sxList([(1, [1, 2]), (2, [3, 4])]), target: target)
        case "stagedPathOutOfRange":
            var broken = changes
            broken.itemDeletes = [sxPath(0, 5)]
            _ = StagedSectionedChangeset(changeset: broken, source: source, target: target)
        default: return
        }
        print("the case did not trap")
    }

    func test_changesetAndListsThatDoNotBelongTogether_trapWithAMessage() throws {
        try assertChildCasesTrap(
            "RippleDiffTests.SectionedStagingTests/test_childProcessEntry",
            expected: [
                "appliedWithTooFewItemCounts":
                    "SectionedChangeset.applied(to:section:item:): invalid change-set: sourceItemCounts has 1 entries for 2 source sections",
                "appliedToAnotherList":
                    "SectionedChangeset.applied(to:section:item:): source section 1 has 2 items, but sourceItemCounts[1] is 1",
                "stagedWithAnotherList":
                    "StagedSectionedChangeset(changeset:source:target:): source section 1 has 2 items, but sourceItemCounts[1] is 1",
                "stagedPathOutOfRange":
                    "StagedSectionedChangeset(changeset:source:target:): item delete (0 - 5) is out of range: source section 0 has items 0..<2",
            ])
    }
}
