import RippleDiff
import RippleTesting
import XCTest

/// The fact sheet's test vectors V01–V25, each with the exact expected message, for the flavour(s)
/// the vector names; vectors that name no flavour run for both, with each flavour's wording.
final class BatchUpdateValidatorVectorTests: XCTestCase {
    private typealias Kit = BatchTestKit
    private let both: [BatchUpdateValidator.Flavor] = [.tableView, .collectionView]

    private func path(_ section: Int, _ item: Int) -> ElementPath { Kit.path(section, item) }
    private func ns(_ section: Int, _ item: Int) -> String { Kit.ns(section, item) }
    private func row(_ flavor: BatchUpdateValidator.Flavor) -> String { flavor == .tableView ? "row" : "item" }
    private func rows(_ flavor: BatchUpdateValidator.Flavor) -> String { flavor == .tableView ? "rows" : "items" }

    private func m24(
        _ flavor: BatchUpdateValidator.Flavor, section: Int, after: Int, before: Int,
        inserted: Int, deleted: Int, movedIn: Int, movedOut: Int
    ) -> String {
        let rows = rows(flavor)
        return
            "Invalid update: invalid number of \(rows) in section \(section).  The number of \(rows) contained in an existing section after the update (\(after)) must be equal to the number of \(rows) contained in that section before the update (\(before)), plus or minus the number of \(rows) inserted or deleted from that section (\(inserted) inserted, \(deleted) deleted) and plus or minus the number of \(rows) moved into or out of that section (\(movedIn) moved in, \(movedOut) moved out)."
    }

    func testV01DeleteAndInsertIsValid() {
        let batch = Kit.batch {
            $0.deleteItems(at: [path(0, 1)])
            $0.insertItems(at: [path(0, 3)])
        }
        for flavor in both {
            XCTAssertEqual(Kit.assertValid(batch, before: [5], after: [5], by: Kit.validator(flavor)), [])
        }
    }

    func testV02DeleteOutOfRangeGivesM3() {
        let batch = Kit.batch { $0.deleteItems(at: [path(0, 5)]) }
        for flavor in both {
            Kit.assertRejected(
                batch, before: [5], after: [4], by: Kit.validator(flavor), id: .deleteItemOutOfBounds,
                rule: .deleteConflictsAndBounds,
                message:
                    "attempt to delete \(row(flavor)) 5 from section 0 which only contains 5 \(rows(flavor)) before the update"
            )
        }
    }

    func testV03InsertOutOfRangeGivesM6() {
        let batch = Kit.batch { $0.insertItems(at: [path(0, 9)]) }
        for flavor in both {
            Kit.assertRejected(
                batch, before: [8], after: [9], by: Kit.validator(flavor), id: .insertItemOutOfBounds,
                rule: .insertConflictsAndBounds,
                message:
                    "attempt to insert \(row(flavor)) 9 into section 0, but there are only 9 \(rows(flavor)) in section 0 after the update"
            )
        }
    }

    func testV04InsertWithoutUpdatingTheDataSourceGivesM24() {
        let batch = Kit.batch { $0.insertItems(at: [path(0, 0)]) }
        for flavor in both {
            Kit.assertRejected(
                batch, before: [5], after: [5], by: Kit.validator(flavor), id: .invalidItemCount, rule: .itemCounts,
                message: m24(flavor, section: 0, after: 5, before: 5, inserted: 1, deleted: 0, movedIn: 0, movedOut: 0))
        }
    }

    func testV04NewerFormIsM25() {
        Kit.assertRejected(
            Kit.batch { $0.insertItems(at: [path(0, 0)]) }, before: [5], after: [5],
            by: Kit.validator(.tableView, detailed: true), id: .invalidBatchUpdates, rule: .itemCounts,
            message: """
                Invalid batch updates detected: the number of sections and/or rows returned by the data source before and after performing the batch updates are inconsistent with the updates.
                Data source before updates = { 1 section with row counts: [5] }
                Data source after updates = { 1 section with row counts: [5] }
                Updates = [
                \tInsert row (0 - 0)
                ]
                Table view: <UITableView: 0x0000000000000000>
                """)
        // The collection-view form, as in deltachat-ios #1901 (before [1], after [1]).
        Kit.assertRejected(
            Kit.batch { $0.insertItems(at: [path(0, 0)]) }, before: [1], after: [1],
            by: Kit.validator(.collectionView, detailed: true), id: .invalidBatchUpdates, rule: .itemCounts,
            message: """
                Invalid batch updates detected: the number of sections and/or items returned by the data source before and/or after performing the batch updates are inconsistent with the updates.
                Data source before updates = { 1 section with item counts: [1] }
                Data source after updates = { 1 section with item counts: [1] }
                Updates = [
                \tInsert item (0 - 0)
                ]
                Collection view: <UICollectionView: 0x0000000000000000>
                """)
    }

    func testV05DeleteAndMoveFromTheSamePathGivesM8() {
        let batch = Kit.batch {
            $0.deleteItems(at: [path(0, 1)])
            $0.moveItem(at: path(0, 1), to: path(0, 2))
        }
        for flavor in both {
            Kit.assertRejected(
                batch, before: [4], after: [3], by: Kit.validator(flavor), id: .deleteAndMoveFromSamePath,
                rule: .deleteConflictsAndBounds,
                message: "attempt to perform a delete and a move from the same index path (\(ns(0, 1)))")
        }
    }

    func testV06ReloadOfAMoveSourceGivesM8() {
        let batch = Kit.batch {
            $0.reloadItems(at: [path(0, 1)])
            $0.moveItem(at: path(0, 1), to: path(0, 0))
        }
        for flavor in both {
            Kit.assertRejected(
                batch, before: [3], after: [3], by: Kit.validator(flavor), id: .deleteAndMoveFromSamePath,
                rule: .reloadIsDeleteAndInsert,
                message: "attempt to perform a delete and a move from the same index path (\(ns(0, 1)))")
        }
    }

    func testV07DeleteAndReloadOfTheSamePathGivesM7() {
        let batch = Kit.batch {
            $0.deleteItems(at: [path(0, 1)])
            $0.reloadItems(at: [path(0, 1)])
        }
        for flavor in both {
            Kit.assertRejected(
                batch, before: [3], after: [2], by: Kit.validator(flavor), id: .deleteAndReloadSamePath,
                rule: .reloadIsDeleteAndInsert,
                message: "attempt to delete and reload the same index path (\(ns(0, 1)))")
        }
    }

    func testV08InsertAndMoveToTheSamePathGivesM9() {
        let batch = Kit.batch {
            $0.insertItems(at: [path(0, 0)])
            $0.moveItem(at: path(0, 2), to: path(0, 0))
        }
        for flavor in both {
            Kit.assertRejected(
                batch, before: [3], after: [4], by: Kit.validator(flavor), id: .insertAndMoveToSamePath,
                rule: .insertConflictsAndBounds,
                message: "attempt to perform an insert and a move to the same index path (\(ns(0, 0)))")
        }
    }

    func testV09TwoMovesToOneDestinationGiveM21() {
        let batch = Kit.batch {
            $0.moveItem(at: path(0, 0), to: path(0, 2))
            $0.moveItem(at: path(0, 1), to: path(0, 2))
        }
        for flavor in both {
            Kit.assertRejected(
                batch, before: [3], after: [3], by: Kit.validator(flavor), id: .twoItemsMovedToOne,
                rule: .moveDuplicates,
                message: "attempt to move both \(row(flavor)) at index path \(ns(0, 0)) and \(ns(0, 1)) to \(ns(0, 2))")
        }
    }

    func testV10IdenticalMovesAreMerged() {
        let batch = Kit.batch {
            $0.moveItem(at: path(0, 0), to: path(0, 2))
            $0.moveItem(at: path(0, 0), to: path(0, 2))
        }
        for flavor in both {
            let warnings = Kit.assertValid(batch, before: [3], after: [3], by: Kit.validator(flavor))
            // Valid; the repeat is only flagged.
            XCTAssertEqual(warnings.map(\.kind), [.duplicate(.moveItem(path(0, 0), to: path(0, 2)))])
        }
    }

    func testV11MoveAcrossSections() {
        let batch = Kit.batch { $0.moveItem(at: path(0, 0), to: path(1, 0)) }
        for flavor in both {
            Kit.assertValid(batch, before: [2, 2], after: [1, 3], by: Kit.validator(flavor))
            Kit.assertRejected(
                batch, before: [2, 2], after: [2, 2], by: Kit.validator(flavor), id: .invalidItemCount,
                rule: .itemCounts,
                message: m24(flavor, section: 0, after: 2, before: 2, inserted: 0, deleted: 0, movedIn: 0, movedOut: 1))
        }
    }

    func testV12RowDeletesInADeletedSectionAreIgnored() {
        let batch = Kit.batch {
            $0.deleteSections([0])
            $0.deleteItems(at: [path(0, 1), path(0, 7)])
        }
        for flavor in both {
            XCTAssertEqual(Kit.assertValid(batch, before: [3, 2], after: [2], by: Kit.validator(flavor)), [])
        }
    }

    func testV13RowInsertsInAnInsertedSectionAreIgnored() {
        let batch = Kit.batch {
            $0.insertSections([0])
            $0.insertItems(at: [path(0, 0), path(0, 1), path(0, 2)])
        }
        for flavor in both {
            XCTAssertEqual(Kit.assertValid(batch, before: [2], after: [3, 2], by: Kit.validator(flavor)), [])
        }
    }

    func testV14MoveOutOfADeletedSectionIsAnError() {
        let batch = Kit.batch {
            $0.deleteSections([0])
            $0.moveItem(at: path(0, 1), to: path(0, 3))
        }
        Kit.assertRejected(
            batch, before: [2, 3], after: [4], by: Kit.validator(.collectionView), id: .moveFromDeletedSection,
            rule: .crossLifecycleMoves,
            message: "cannot move an item from a deleted section (0)")
        // The iOS 12 table view silently reloads; policy R7 makes it an error with the old message.
        Kit.assertRejected(
            batch, before: [2, 3], after: [4], by: Kit.validator(.tableView), id: .moveFromDeletedSection,
            rule: .crossLifecycleMoves,
            message: "cannot move a row from a deleted section")
    }

    func testV15WrongNumberOfSectionsGivesM22() {
        for flavor in both {
            let view = flavor == .tableView ? "table view" : "collection view"
            Kit.assertRejected(
                BatchUpdate(), before: [1], after: [1, 0], by: Kit.validator(flavor), id: .invalidSectionCount,
                rule: .sectionCount,
                message:
                    "Invalid update: invalid number of sections.  The number of sections contained in the \(view) after the update (2) must be equal to the number of sections contained in the \(view) before the update (1), plus or minus the number of sections inserted or deleted (0 inserted, 0 deleted)."
            )
        }
    }

    func testV16SectionDeleteOutOfRangeGivesM1() {
        for flavor in both {
            Kit.assertRejected(
                Kit.batch { $0.deleteSections([2]) }, before: [1, 1], after: [1], by: Kit.validator(flavor),
                id: .deleteSectionOutOfBounds, rule: .deleteConflictsAndBounds,
                message: "attempt to delete section 2, but there are only 2 sections before the update")
        }
    }

    func testV17ReloadAlongsideASectionMoveGivesM24() {
        let batch = Kit.batch {
            $0.reloadItems(at: [path(1, 0)])
            $0.moveSection(1, toSection: 0)
        }
        for flavor in both {
            Kit.assertRejected(
                batch, before: [3, 3], after: [3, 3], by: Kit.validator(flavor), id: .invalidItemCount,
                rule: .itemCounts,
                message: m24(flavor, section: 0, after: 3, before: 3, inserted: 0, deleted: 1, movedIn: 0, movedOut: 0))
        }
    }

    func testV18SectionReloadLandingOnAMoveDestinationGivesM9() {
        let batch = Kit.batch {
            $0.moveSection(2, toSection: 4)
            $0.reloadSections([3])
            $0.deleteSections([4])
            $0.insertSections([2])
        }
        let six = [Int](repeating: 1, count: 6)
        for flavor in both {
            Kit.assertRejected(
                batch, before: six, after: six, by: Kit.validator(flavor), id: .insertAndMoveToSamePath,
                rule: .reloadIsDeleteAndInsert,
                message: "attempt to perform an insert and a move to the same section (4)")
        }
    }

    func testV19RepeatedDeletesAreMergedThenCounted() {
        let batch = Kit.batch {
            $0.deleteItems(at: [path(0, 0)])
            $0.deleteItems(at: [path(0, 0)])
            $0.deleteItems(at: [path(0, 0)])
        }
        for flavor in both {
            let result = Kit.validator(flavor).validate(batch, before: [3], after: [0])
            XCTAssertEqual(result.violation?.messageID, .invalidItemCount)
            XCTAssertEqual(
                result.violation?.message,
                m24(flavor, section: 0, after: 0, before: 3, inserted: 0, deleted: 1, movedIn: 0, movedOut: 0))
            // R13: both repeats are flagged.
            XCTAssertEqual(
                result.warnings.map(\.kind),
                [.duplicate(.deleteItem(path(0, 0))), .duplicate(.deleteItem(path(0, 0)))])
            XCTAssertEqual(result.warnings.map(\.rule), [.duplicateOperations, .duplicateOperations])
        }
    }

    func testV20MoveInsideAMovedSectionIsValid() {
        let batch = Kit.batch {
            $0.moveSection(1, toSection: 0)
            $0.moveItem(at: path(1, 0), to: path(0, 2))
        }
        for flavor in both {
            XCTAssertEqual(Kit.assertValid(batch, before: [2, 3], after: [3, 2], by: Kit.validator(flavor)), [])
        }
    }

    func testV21SectionMoveOutOfRangeGivesM13() {
        for flavor in both {
            Kit.assertRejected(
                Kit.batch { $0.moveSection(0, toSection: 2) }, before: [1, 1], after: [1, 1],
                by: Kit.validator(flavor), id: .moveSectionDestinationOutOfBounds, rule: .moveBounds,
                message: "attempt to to move section 0 to section 2, but there are only 2 sections after the update")
        }
    }

    func testV22MoveFromAnEmptySectionGivesM15() {
        for flavor in both {
            Kit.assertRejected(
                Kit.batch { $0.moveItem(at: path(2, 0), to: path(0, 0)) }, before: [1, 1, 0], after: [1, 1, 0],
                by: Kit.validator(flavor), id: .moveItemSourceOutOfBounds, rule: .moveBounds,
                message:
                    "attempt to move index path (\(ns(2, 0))) that does not exist - there are only 0 \(rows(flavor)) in section 2 before the update"
            )
        }
    }

    func testV23RowDeleteInAMissingSectionGivesM2() {
        for flavor in both {
            Kit.assertRejected(
                Kit.batch { $0.deleteItems(at: [path(1, 1)]) }, before: [1], after: [1],
                by: Kit.validator(flavor), id: .deleteItemInMissingSection, rule: .deleteConflictsAndBounds,
                message:
                    "attempt to delete \(row(flavor)) 1 from section 1, but there are only 1 sections before the update"
            )
        }
    }

    func testV24ReloadOutOfRangeGivesM3() {
        for flavor in both {
            Kit.assertRejected(
                Kit.batch { $0.reloadItems(at: [path(1, 2)]) }, before: [2, 2], after: [2, 2],
                by: Kit.validator(flavor), id: .deleteItemOutOfBounds, rule: .reloadIsDeleteAndInsert,
                message:
                    "attempt to delete \(row(flavor)) 2 from section 1 which only contains 2 \(rows(flavor)) before the update"
            )
        }
    }

    func testV25ReloadShiftedByAMoveOnlyWarns() {
        let batch = Kit.batch {
            $0.reloadItems(at: [path(0, 2)])
            $0.moveItem(at: path(0, 0), to: path(0, 3))
        }
        for flavor in both {
            let warnings = Kit.assertValid(batch, before: [4], after: [4], by: Kit.validator(flavor))
            XCTAssertEqual(
                warnings.map(\.kind),
                [.reloadIgnoresMoves(reloaded: path(0, 2), animated: path(0, 2), actual: path(0, 1))])
            XCTAssertEqual(warnings.map(\.rule), [.reloadIsDeleteAndInsert])
        }
    }
}
