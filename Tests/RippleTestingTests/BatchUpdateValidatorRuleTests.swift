import RippleDiff
import RippleTesting
import XCTest

/// For each rule family R1–R16, batches that break it on purpose and the exact message UIKit
/// would raise, plus the neighbouring batches that are valid.
final class BatchUpdateValidatorRuleTests: XCTestCase {
    private typealias Kit = BatchTestKit
    private let table = BatchUpdateValidator.tableView
    private let collection = BatchUpdateValidator.collectionView

    private func path(_ section: Int, _ item: Int) -> ElementPath { Kit.path(section, item) }
    private func ns(_ section: Int, _ item: Int) -> String { Kit.ns(section, item) }

    // MARK: - R1 coordinates

    func testDeletesUseBeforeAndInsertsUseAfterCoordinates() {
        // Before [5]: delete 4 (the last before row) and insert 4 (the last after row): valid.
        let batch = Kit.batch {
            $0.deleteItems(at: [path(0, 4)])
            $0.insertItems(at: [path(0, 4)])
        }
        Kit.assertValid(batch, before: [5], after: [5], by: table)
        // Delete 5 names a before row that does not exist, even though the after state has 6.
        Kit.assertRejected(
            Kit.batch {
                $0.deleteItems(at: [path(0, 5)])
                $0.insertItems(at: [path(0, 0), path(0, 1)])
            },
            before: [5], after: [6], by: table, id: .deleteItemOutOfBounds,
            message: "attempt to delete row 5 from section 0 which only contains 5 rows before the update")
        // A move goes from a before path to an after path.
        Kit.assertValid(
            Kit.batch {
                $0.deleteItems(at: [path(0, 0)])
                $0.moveItem(at: path(0, 4), to: path(0, 0))
            },
            before: [5], after: [4], by: table)
    }

    // MARK: - R2 order

    func testCallOrderDoesNotMatter() {
        let operations: [BatchUpdate.Operation] = [
            .deleteItem(path(0, 1)), .insertItem(path(0, 0)), .moveItem(path(0, 3), to: path(0, 4)),
            .reloadItem(path(0, 2)), .deleteSection(1), .insertSection(1),
        ]
        let expected = table.validate(BatchUpdate(operations: operations), before: [5, 2], after: [5, 7])
        XCTAssertTrue(expected.isValid, "\(expected)")
        for rotation in 1..<operations.count {
            let rotated = Array(operations[rotation...] + operations[..<rotation])
            XCTAssertEqual(table.validate(BatchUpdate(operations: rotated), before: [5, 2], after: [5, 7]), expected)
            XCTAssertEqual(
                table.validate(BatchUpdate(operations: rotated.reversed()), before: [5, 2], after: [5, 7]), expected)
        }
    }

    // MARK: - R3 reloads

    func testReloadOfADeletedPathGivesM7BeforeAnyOtherCheck() {
        // The out-of-range delete (M3) would come later: reload conversion runs first.
        Kit.assertRejected(
            Kit.batch {
                $0.deleteItems(at: [path(0, 1), path(0, 9)])
                $0.reloadItems(at: [path(0, 1)])
            },
            before: [3], after: [1], by: collection, id: .deleteAndReloadSamePath, rule: .reloadIsDeleteAndInsert,
            message: "attempt to delete and reload the same index path (\(ns(0, 1)))")
    }

    func testReloadLandingOnAMoveDestinationGivesM9() {
        // R3d: the reload of (0, 0) is reinserted at (0, 0), where the move lands.
        Kit.assertRejected(
            Kit.batch {
                $0.reloadItems(at: [path(0, 0)])
                $0.moveItem(at: path(0, 2), to: path(0, 0))
            },
            before: [3], after: [3], by: table, id: .insertAndMoveToSamePath, rule: .reloadIsDeleteAndInsert,
            message: "attempt to perform an insert and a move to the same index path (\(ns(0, 0)))")
    }

    func testReloadInAMissingSectionGivesM2() {
        Kit.assertRejected(
            Kit.batch { $0.reloadItems(at: [path(1, 0)]) }, before: [2], after: [2], by: table,
            id: .deleteItemInMissingSection,
            rule: .reloadIsDeleteAndInsert,
            message: "attempt to delete row 0 from section 1, but there are only 1 sections before the update")
    }

    func testReloadPositionFollowsDeletesAndInserts() {
        // Reload (0, 2) after deleting (0, 0) and inserting (0, 0) and (0, 1): UIKit reinserts it
        // at (0, 3), which is right, so there is no warning.
        let batch = Kit.batch {
            $0.deleteItems(at: [path(0, 0)])
            $0.insertItems(at: [path(0, 0), path(0, 1)])
            $0.reloadItems(at: [path(0, 2)])
        }
        XCTAssertEqual(Kit.assertValid(batch, before: [4], after: [5], by: table), [])
    }

    func testReloadsInsideDeletedSectionsAreIgnored() {
        let batch = Kit.batch {
            $0.deleteSections([0])
            $0.reloadItems(at: [path(0, 1), path(0, 9)])
        }
        XCTAssertEqual(Kit.assertValid(batch, before: [2, 2], after: [2], by: table), [])
    }

    func testSectionReloadReplacesTheSection() {
        Kit.assertValid(Kit.batch { $0.reloadSections([1]) }, before: [2, 3], after: [2, 7], by: table)
        // A section reload is a delete plus an insert, so it counts in M22.
        Kit.assertRejected(
            Kit.batch { $0.reloadSections([0]) }, before: [1, 1], after: [1, 1, 1], by: table, id: .invalidSectionCount,
            rule: .sectionCount,
            message:
                "Invalid update: invalid number of sections.  The number of sections contained in the table view after the update (3) must be equal to the number of sections contained in the table view before the update (2), plus or minus the number of sections inserted or deleted (1 inserted, 1 deleted)."
        )
        // Reloading a moved section is a delete and a move from the same section.
        Kit.assertRejected(
            Kit.batch {
                $0.reloadSections([0])
                $0.moveSection(0, toSection: 1)
            },
            before: [1, 1], after: [1, 1], by: table, id: .deleteAndMoveFromSamePath, rule: .reloadIsDeleteAndInsert,
            message: "attempt to perform a delete and a move from the same section (0)")
    }

    func testReloadShiftedByAMoveAcrossSectionsWarns() {
        // The move out of (0, 0) shifts (0, 2) to (0, 1), but UIKit reinserts the reload at (0, 2).
        let warnings = Kit.assertValid(
            Kit.batch {
                $0.reloadItems(at: [path(0, 2)])
                $0.moveItem(at: path(0, 0), to: path(1, 0))
            },
            before: [4, 1], after: [3, 2], by: collection)
        XCTAssertEqual(
            warnings.map(\.kind),
            [.reloadIgnoresMoves(reloaded: path(0, 2), animated: path(0, 2), actual: path(0, 1))])
        XCTAssertEqual(
            warnings.first?.message,
            "reload of item (0 - 2) refreshes (0 - 2), where UIKit places it from the batch's deletes and inserts alone, but the item ends at (0 - 1) once the batch's moves are applied: the wrong item is reloaded and no exception is raised. Reload in a batch of its own."
        )
        // When the shifted reload was the last row, its reinsert is out of range.
        Kit.assertRejected(
            Kit.batch {
                $0.reloadItems(at: [path(0, 2)])
                $0.moveItem(at: path(0, 0), to: path(1, 0))
            },
            before: [3, 1], after: [2, 2], by: table, id: .insertItemOutOfBounds, rule: .reloadIsDeleteAndInsert,
            message: "attempt to insert row 2 into section 0, but there are only 2 rows in section 0 after the update")
    }

    // MARK: - R4 check order

    func testDeletesAreCheckedInDescendingOrder() {
        Kit.assertRejected(
            Kit.batch { $0.deleteItems(at: [path(0, 7), path(0, 9)]) }, before: [5], after: [3], by: table,
            id: .deleteItemOutOfBounds,
            message: "attempt to delete row 9 from section 0 which only contains 5 rows before the update")
        Kit.assertRejected(
            Kit.batch {
                $0.deleteItems(at: [path(0, 7)])
                $0.deleteSections([4])
            },
            before: [5], after: [], by: table, id: .deleteSectionOutOfBounds,
            message: "attempt to delete section 4, but there are only 1 sections before the update")
    }

    func testInsertsAreCheckedInAscendingOrder() {
        Kit.assertRejected(
            Kit.batch { $0.insertItems(at: [path(0, 9), path(0, 7)]) }, before: [5], after: [7], by: table,
            id: .insertItemOutOfBounds,
            message: "attempt to insert row 7 into section 0, but there are only 7 rows in section 0 after the update")
    }

    func testDeletesComeBeforeInsertsBeforeMovesBeforeCounts() {
        let deleteError = BatchUpdate(operations: [.deleteItem(path(0, 9))])
        let insertError = BatchUpdate(operations: [.insertItem(path(0, 9))])
        let moveBoundsError = BatchUpdate(operations: [.moveItem(path(0, 1), to: path(0, 8))])
        let moveDuplicateError = BatchUpdate(operations: [
            .moveItem(path(0, 0), to: path(0, 1)), .moveItem(path(0, 0), to: path(0, 2)),
        ])
        let cases: [(BatchUpdate, BatchUpdateMessageID)] = [
            (deleteError, .deleteItemOutOfBounds), (insertError, .insertItemOutOfBounds),
            (moveBoundsError, .moveItemDestinationOutOfBounds), (moveDuplicateError, .itemMovedToTwoDestinations),
        ]
        // Combine each error with all the later ones and a wrong section count: the first wins.
        for (index, (batch, id)) in cases.enumerated() {
            var combined = batch
            for (later, _) in cases[(index + 1)...] { combined.append(contentsOf: later) }
            let result = table.validate(combined, before: [3], after: [3, 0])
            XCTAssertEqual(result.violation?.messageID, id, "\(combined): \(result)")
        }
        let counts = table.validate(BatchUpdate(), before: [3], after: [3, 0])
        XCTAssertEqual(counts.violation?.messageID, .invalidSectionCount)
    }

    func testSectionCountIsCheckedBeforeRowCounts() {
        let result = table.validate(Kit.batch { $0.insertItems(at: [path(0, 0)]) }, before: [1], after: [1, 1])
        XCTAssertEqual(result.violation?.messageID, .invalidSectionCount)
    }

    // MARK: - R5 deletes

    func testDeleteChecks() {
        Kit.assertRejected(
            Kit.batch { $0.deleteSections([3]) }, before: [1, 1], after: [], by: collection,
            id: .deleteSectionOutOfBounds, rule: .deleteConflictsAndBounds,
            message: "attempt to delete section 3, but there are only 2 sections before the update")
        Kit.assertRejected(
            Kit.batch { $0.deleteItems(at: [path(2, 0)]) }, before: [1, 1], after: [1, 1], by: collection,
            id: .deleteItemInMissingSection,
            message: "attempt to delete item 0 from section 2, but there are only 2 sections before the update")
        Kit.assertRejected(
            Kit.batch { $0.deleteItems(at: [path(1, 1)]) }, before: [1, 1], after: [1, 0], by: collection,
            id: .deleteItemOutOfBounds,
            message: "attempt to delete item 1 from section 1 which only contains 1 items before the update")
        Kit.assertRejected(
            Kit.batch { $0.deleteItems(at: [path(0, -1)]) }, before: [1], after: [0], by: table,
            id: .deleteItemOutOfBounds,
            message: "attempt to delete row -1 from section 0 which only contains 1 rows before the update")
        Kit.assertRejected(
            Kit.batch {
                $0.deleteSections([1])
                $0.moveSection(1, toSection: 0)
            },
            before: [1, 1], after: [1], by: table, id: .deleteAndMoveFromSamePath, rule: .deleteConflictsAndBounds,
            message: "attempt to perform a delete and a move from the same section (1)")
    }

    func testSectionDeleteSkipsBoundsOfItsRowDeletes() {
        // Row deletes in the deleted section are never bounds-checked, and not counted.
        Kit.assertValid(
            Kit.batch {
                $0.deleteItems(at: [path(1, 99)])
                $0.deleteSections([1])
                $0.deleteItems(at: [path(0, 0)])
            },
            before: [2, 3], after: [1], by: table)
    }

    // MARK: - R6 inserts

    func testInsertChecks() {
        Kit.assertRejected(
            Kit.batch { $0.insertSections([2]) }, before: [1], after: [1, 1], by: table, id: .insertSectionOutOfBounds,
            rule: .insertConflictsAndBounds,
            message: "attempt to insert section 2 but there are only 2 sections after the update")
        Kit.assertRejected(
            Kit.batch { $0.insertItems(at: [path(1, 0)]) }, before: [1], after: [2], by: collection,
            id: .insertItemInMissingSection,
            message: "attempt to insert item 0 into section 1, but there are only 1 sections after the update")
        Kit.assertRejected(
            Kit.batch { $0.insertItems(at: [path(0, 2)]) }, before: [1], after: [2], by: table,
            id: .insertItemOutOfBounds,
            message: "attempt to insert row 2 into section 0, but there are only 2 rows in section 0 after the update")
        Kit.assertRejected(
            Kit.batch {
                $0.insertSections([0])
                $0.moveSection(1, toSection: 0)
            },
            before: [1, 1], after: [1, 1, 1], by: collection, id: .insertAndMoveToSamePath,
            rule: .insertConflictsAndBounds,
            message: "attempt to perform an insert and a move to the same section (0)")
    }

    func testRepeatedInsertsAreMerged() {
        let result = table.validate(
            Kit.batch { $0.insertItems(at: [path(0, 0), path(0, 0)]) }, before: [1], after: [2])
        XCTAssertTrue(result.isValid, "\(result)")
        XCTAssertEqual(result.warnings.map(\.kind), [.duplicate(.insertItem(path(0, 0)))])
    }

    // MARK: - R7 cross-lifecycle moves

    func testMoveIntoAnInsertedSectionGivesM11() {
        let batch = Kit.batch {
            $0.insertSections([1])
            $0.moveItem(at: path(0, 0), to: path(1, 0))
        }
        Kit.assertRejected(
            batch, before: [2], after: [1, 1], by: collection, id: .moveIntoInsertedSection, rule: .crossLifecycleMoves,
            message: "cannot move an item into a newly inserted section (1)")
        Kit.assertRejected(
            batch, before: [2], after: [1, 1], by: table, id: .moveIntoInsertedSection, rule: .crossLifecycleMoves,
            message: "cannot move a row into a newly inserted section (1)")
    }

    func testMoveOutOfAReloadedSectionGivesM10() {
        Kit.assertRejected(
            Kit.batch {
                $0.reloadSections([0])
                $0.moveItem(at: path(0, 0), to: path(1, 0))
            },
            before: [1, 1], after: [1, 2], by: collection, id: .moveFromDeletedSection, rule: .crossLifecycleMoves,
            message: "cannot move an item from a deleted section (0)")
    }

    // MARK: - R8 move bounds

    func testMoveBoundChecksInOrder() {
        Kit.assertRejected(
            Kit.batch { $0.moveSection(2, toSection: 0) }, before: [1, 1], after: [1, 1], by: table,
            id: .moveSectionSourceOutOfBounds,
            rule: .moveBounds, message: "attempt to move section 2, but there are only 2 sections before the update")
        Kit.assertRejected(
            Kit.batch { $0.moveItem(at: path(3, 0), to: path(9, 9)) }, before: [1], after: [1], by: table,
            id: .moveItemFromMissingSection, rule: .moveBounds,
            message:
                "attempt to move index path (\(ns(3, 0))) from a section that does not exist - there are only 1 sections before the update"
        )
        Kit.assertRejected(
            Kit.batch { $0.moveItem(at: path(0, 1), to: path(9, 9)) }, before: [1], after: [1], by: collection,
            id: .moveItemSourceOutOfBounds, rule: .moveBounds,
            message:
                "attempt to move index path (\(ns(0, 1))) that does not exist - there are only 1 items in section 0 before the update"
        )
        Kit.assertRejected(
            Kit.batch { $0.moveItem(at: path(0, 0), to: path(1, 9)) }, before: [1], after: [1], by: table,
            id: .moveItemToMissingSection, rule: .moveBounds,
            message:
                "attempt to move index path (\(ns(0, 0))) to index path (\(ns(1, 9))) in section that does not exist - there are only 1 sections after the update"
        )
        Kit.assertRejected(
            Kit.batch { $0.moveItem(at: path(0, 0), to: path(0, 1)) }, before: [1], after: [1], by: collection,
            id: .moveItemDestinationOutOfBounds, rule: .moveBounds,
            message:
                "attempt to move index path (\(ns(0, 0))) to index path (\(ns(0, 1))) that does not exist - there are only 1 items in section 0 after the update"
        )
    }

    // MARK: - R9 move duplicates

    func testMoveDuplicateChecks() {
        Kit.assertRejected(
            Kit.batch {
                $0.moveSection(0, toSection: 2)
                $0.moveSection(0, toSection: 1)
            },
            before: [1, 1, 1], after: [1, 1, 1], by: table, id: .sectionMovedToTwoDestinations, rule: .moveDuplicates,
            message: "attempt to move section 0 to both section 1 and section 2")
        Kit.assertRejected(
            Kit.batch {
                $0.moveSection(2, toSection: 0)
                $0.moveSection(1, toSection: 0)
            },
            before: [1, 1, 1], after: [1, 1, 1], by: table, id: .twoSectionsMovedToOne, rule: .moveDuplicates,
            message: "attempt to move both section 1 and section 2 to section 0")
        Kit.assertRejected(
            Kit.batch {
                $0.moveItem(at: path(0, 0), to: path(0, 2))
                $0.moveItem(at: path(0, 0), to: path(0, 1))
            },
            before: [3], after: [3], by: table, id: .itemMovedToTwoDestinations, rule: .moveDuplicates,
            message: "attempt to move row at index path \(ns(0, 0)) to both \(ns(0, 1)) and \(ns(0, 2))")
        Kit.assertRejected(
            Kit.batch {
                $0.moveItem(at: path(0, 0), to: path(0, 2))
                $0.moveItem(at: path(0, 1), to: path(0, 2))
            },
            before: [3], after: [3], by: collection, id: .twoItemsMovedToOne, rule: .moveDuplicates,
            message: "attempt to move both item at index path \(ns(0, 0)) and \(ns(0, 1)) to \(ns(0, 2))")
    }

    func testIdenticalSectionMovesAreMerged() {
        let result = table.validate(
            Kit.batch {
                $0.moveSection(0, toSection: 1)
                $0.moveSection(0, toSection: 1)
            },
            before: [1, 2], after: [2, 1])
        XCTAssertTrue(result.isValid, "\(result)")
        XCTAssertEqual(result.warnings.map(\.rule), [.moveDuplicates])
    }

    // MARK: - R10 number of sections

    func testSectionCount() {
        Kit.assertValid(
            Kit.batch {
                $0.deleteSections([0, 1])
                $0.insertSections([0])
            },
            before: [1, 1, 4], after: [2, 4], by: table)
        Kit.assertRejected(
            Kit.batch { $0.deleteSections([0]) }, before: [1, 1], after: [1, 1], by: collection,
            id: .invalidSectionCount, rule: .sectionCount,
            message:
                "Invalid update: invalid number of sections.  The number of sections contained in the collection view after the update (2) must be equal to the number of sections contained in the collection view before the update (2), plus or minus the number of sections inserted or deleted (0 inserted, 1 deleted)."
        )
        // Section moves are neutral.
        Kit.assertValid(Kit.batch { $0.moveSection(0, toSection: 1) }, before: [1, 2], after: [2, 1], by: table)
    }

    // MARK: - R11 number of rows

    func testRowCountsAreCheckedPerAfterSection() {
        // Section 0 adds up; section 1 (before section 1) does not: 2 + 1 inserted ≠ 2.
        Kit.assertRejected(
            Kit.batch { $0.insertItems(at: [path(1, 0)]) }, before: [2, 2], after: [2, 2], by: table,
            id: .invalidItemCount, rule: .itemCounts,
            message:
                "Invalid update: invalid number of rows in section 1.  The number of rows contained in an existing section after the update (2) must be equal to the number of rows contained in that section before the update (2), plus or minus the number of rows inserted or deleted from that section (1 inserted, 0 deleted) and plus or minus the number of rows moved into or out of that section (0 moved in, 0 moved out)."
        )
        // After section 0 shows before section 1 (moved), so its counts are before section 1's.
        Kit.assertRejected(
            Kit.batch {
                $0.moveSection(1, toSection: 0)
                $0.moveItem(at: path(0, 0), to: path(0, 0))
            },
            before: [2, 5], after: [5, 2], by: table, id: .invalidItemCount, rule: .itemCounts,
            message:
                "Invalid update: invalid number of rows in section 0.  The number of rows contained in an existing section after the update (5) must be equal to the number of rows contained in that section before the update (5), plus or minus the number of rows inserted or deleted from that section (0 inserted, 0 deleted) and plus or minus the number of rows moved into or out of that section (1 moved in, 0 moved out)."
        )
    }

    func testDetailedCountMessageListsConvertedUpdates() {
        let batch = Kit.batch {
            $0.reloadItems(at: [path(0, 1)])
            $0.moveItem(at: path(1, 0), to: path(0, 0))
            $0.deleteItems(at: [path(1, 1)])
            $0.deleteItems(at: [path(1, 1)])
        }
        Kit.assertRejected(
            batch, before: [3, 2], after: [3, 0], by: Kit.validator(.tableView, detailed: true),
            id: .invalidBatchUpdates, rule: .itemCounts,
            message: """
                Invalid batch updates detected: the number of sections and/or rows returned by the data source before and after performing the batch updates are inconsistent with the updates.
                Data source before updates = { 2 sections with row counts: [3, 2] }
                Data source after updates = { 2 sections with row counts: [3, 0] }
                Updates = [
                \tDelete row (0 - 1),
                \tDelete row (1 - 1),
                \tInsert row (0 - 1),
                \tMove row (1 - 0) to (0 - 0)
                ]
                Table view: <UITableView: 0x0000000000000000>
                """)
        // A wrong number of sections keeps the classic M22 in the detailed style, as newer UIKit does.
        let sections = Kit.validator(.collectionView, detailed: true).validate(BatchUpdate(), before: [], after: [0])
        XCTAssertEqual(sections.violation?.messageID, .invalidSectionCount)
    }

    func testNegativeBeforeCountGivesM23() {
        // M23 is unreachable with real counts (deletes are merged and bounds-checked); a
        // negative count supplied by hand is the only way to reach it.
        Kit.assertRejected(
            BatchUpdate(), before: [-1], after: [0], by: table, id: .deleteMoreItemsThanExist, rule: .itemCounts,
            message:
                "Invalid update: invalid number of rows in section 0.  Attempt to delete more rows than exist in section."
        )
        Kit.assertRejected(
            BatchUpdate(), before: [-1], after: [0], by: collection, id: .deleteMoreItemsThanExist, rule: .itemCounts,
            message:
                "Invalid update: invalid number of items in section 0.  Attempt to delete more items than exist in section."
        )
    }

    /// Issue 13: extreme indices and counts crashed the validator on arithmetic overflow. They are
    /// violations like any other out-of-range value.
    func testExtremeIndicesAndCountsAreViolationsNotOverflows() {
        // A reload of row Int.max next to an insert: UIKit's target for it is past Int.max.
        Kit.assertRejected(
            Kit.batch {
                $0.reloadItems(at: [path(0, .max)])
                $0.insertItems(at: [path(0, 0)])
            },
            before: [3], after: [4], by: table, id: .deleteItemOutOfBounds, rule: .reloadIsDeleteAndInsert,
            message:
                "attempt to delete row 9223372036854775807 from section 0 which only contains 3 rows before the update")
        // A reload of section Int.max next to a section insert.
        Kit.assertRejected(
            Kit.batch {
                $0.reloadSections([.max])
                $0.insertSections([0])
            },
            before: [1], after: [1, 1], by: collection, id: .deleteSectionOutOfBounds, rule: .reloadIsDeleteAndInsert,
            message: "attempt to delete section 9223372036854775807, but there are only 1 sections before the update")
        // A section of Int.max rows with two inserts: the count check's sum is past Int.max.
        let result = table.validate(
            Kit.batch { $0.insertItems(at: [path(0, 0), path(0, 1)]) }, before: [.max], after: [.max])
        XCTAssertEqual(result.violation?.messageID, .invalidItemCount)
        XCTAssertEqual(
            result.violation?.message,
            "Invalid update: invalid number of rows in section 0.  The number of rows contained in an existing section "
                + "after the update (9223372036854775807) must be equal to the number of rows contained in that section "
                + "before the update (9223372036854775807), plus or minus the number of rows inserted or deleted from "
                + "that section (2 inserted, 0 deleted) and plus or minus the number of rows moved into or out of that "
                + "section (0 moved in, 0 moved out).")
        // Int.min before: a negative count, which no delete or move out can reach.
        Kit.assertRejected(
            BatchUpdate(), before: [.min], after: [.min], by: table, id: .deleteMoreItemsThanExist, rule: .itemCounts,
            message:
                "Invalid update: invalid number of rows in section 0.  Attempt to delete more rows than exist in section."
        )
        // Int.min and Int.max as indices.
        Kit.assertRejected(
            Kit.batch { $0.moveItem(at: path(0, .min), to: path(0, .max)) }, before: [2], after: [2], by: table,
            id: .moveItemSourceOutOfBounds,
            message:
                "attempt to move index path (\(ns(0, .min))) that does not exist - there are only 2 rows in section 0 before the update"
        )
        Kit.assertRejected(
            Kit.batch { $0.moveSection(.max, toSection: .min) }, before: [2], after: [2], by: table,
            id: .moveSectionSourceOutOfBounds,
            message: "attempt to move section 9223372036854775807, but there are only 1 sections before the update")
    }

    // MARK: - R12 moved sections

    func testMovesAcrossMovedSectionsCountOnlyWhenTheyChangeSection() {
        // Section 0 moves to 1; a row from before section 0 to after section 1 stays in its section.
        Kit.assertValid(
            Kit.batch {
                $0.moveSection(0, toSection: 1)
                $0.moveItem(at: path(0, 0), to: path(1, 1))
            },
            before: [2, 1], after: [1, 2], by: collection)
        // A row from before section 0 to after section 0 (before section 1) changes section.
        Kit.assertValid(
            Kit.batch {
                $0.moveSection(0, toSection: 1)
                $0.moveItem(at: path(0, 0), to: path(0, 0))
            },
            before: [2, 1], after: [2, 1], by: collection)
    }

    // MARK: - R13 duplicates

    func testDuplicatesAreFlaggedInEachFlavoursWords() {
        let batch = Kit.batch {
            $0.deleteItems(at: [path(0, 0), path(0, 0)])
            $0.insertItems(at: [path(0, 0), path(0, 0)])
            $0.reloadSections([1, 1])
        }
        let tableWarnings = Kit.assertValid(batch, before: [1, 1], after: [1, 1], by: table)
        XCTAssertEqual(
            tableWarnings.map(\.kind),
            [.duplicate(.deleteItem(path(0, 0))), .duplicate(.insertItem(path(0, 0))), .duplicate(.reloadSection(1))])
        XCTAssertEqual(
            tableWarnings.first?.message, "duplicate delete of row (0 - 0) in one batch; UITableView merges the repeat")
        let collectionWarnings = Kit.assertValid(batch, before: [1, 1], after: [1, 1], by: collection)
        XCTAssertEqual(
            collectionWarnings.first?.message,
            "duplicate delete of item (0 - 0) in one batch; UICollectionView can corrupt its state on repeated deletes and crash with EXC_BAD_ACCESS instead of an exception (IGListKit #657)"
        )
    }

    // MARK: - R16 everything is an error

    func testBothFlavoursRejectTheSameBatches() {
        // The iOS 12 table view fell back to reloadData for R7; both flavours reject instead.
        let batch = Kit.batch {
            $0.deleteSections([1])
            $0.moveItem(at: path(1, 0), to: path(0, 0))
        }
        XCTAssertFalse(table.validate(batch, before: [1, 1], after: [2]).isValid)
        XCTAssertFalse(collection.validate(batch, before: [1, 1], after: [2]).isValid)
    }
}
