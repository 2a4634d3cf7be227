import RippleDiff
import RippleTesting
import XCTest

/// The message helpers: index-path text, whitespace-insensitive matching, the M25 layout, and the
/// descriptions of results, violations and warnings.
final class BatchUpdateValidatorMessagesTests: XCTestCase {
    private func path(_ section: Int, _ item: Int) -> ElementPath { BatchTestKit.path(section, item) }

    func testIndexPathDescriptionMasksThePointer() {
        XCTAssertEqual(
            BatchUpdateValidator.indexPathDescription(path(3, 12)),
            "<NSIndexPath: 0x0000000000000000> {length = 2, path = 3 - 12}")
    }

    func testMatchingIgnoresWhitespace() throws {
        let result = BatchUpdateValidator.tableView.validate(
            BatchUpdate(operations: [.insertItem(path(0, 0))]), before: [5], after: [5])
        let violation = try XCTUnwrap(result.violation)
        // As pasted in issues: single spaces after the period, wrapped lines.
        let pasted = """
            Invalid update: invalid number of rows in section 0. The number of rows contained in an
            existing section after the update (5) must be equal to the number of rows contained in that section
            before the update (5), plus or minus the number of rows inserted or deleted from that section
            (1 inserted, 0 deleted) and plus or minus the number of rows moved into or out of that section
            (0 moved in, 0 moved out).
            """
        XCTAssertNotEqual(violation.message, pasted)
        XCTAssertTrue(violation.matches(pasted))
        XCTAssertFalse(violation.matches(pasted.replacing("(5)", with: "(6)", maxReplacements: 1)))
        XCTAssertEqual(BatchUpdateViolation.foldingWhitespace("  a \n\t b  "), "a b")
    }

    func testDetailedMessageWithNoSectionsAndNoUpdates() {
        let validator = BatchUpdateValidator(flavor: .collectionView, countMismatchStyle: .detailed)
        let result = validator.validate(BatchUpdate(), before: [2], after: [3])
        XCTAssertEqual(
            result.violation?.message,
            """
            Invalid batch updates detected: the number of sections and/or items returned by the data source before and/or after performing the batch updates are inconsistent with the updates.
            Data source before updates = { 1 section with item counts: [2] }
            Data source after updates = { 1 section with item counts: [3] }
            Updates = [
            ]
            Collection view: <UICollectionView: 0x0000000000000000>
            """)
        XCTAssertEqual(result.violation?.rule, .itemCounts)
    }

    func testViolationFacts() {
        let violation = BatchUpdateViolation(
            rule: .deleteConflictsAndBounds, messageID: .deleteSectionOutOfBounds, message: "text")
        XCTAssertEqual(violation.exceptionName, "NSInternalInconsistencyException")
        XCTAssertEqual(violation.description, "R5 M1: text")
        XCTAssertEqual(
            BatchUpdateViolation(rule: .reloadDataOutsideBatches, messageID: nil, message: "x").description, "R15 -: x")
        XCTAssertEqual(BatchUpdateRule.allCases.count, 17, "R1–R16 from UIKit, R17 Ripple's reconfigure rule")
        XCTAssertEqual(BatchUpdateMessageID.allCases.map(\.description), (1...25).map { "M\($0)" })
    }

    func testResultDescription() {
        let valid = BatchUpdateResult()
        XCTAssertTrue(valid.isValid)
        XCTAssertEqual(valid.description, "valid")
        let result = BatchUpdateValidator.tableView.validate(
            BatchUpdate(operations: [.deleteSection(0), .deleteSection(0)]), before: [1], after: [1])
        XCTAssertFalse(result.isValid)
        XCTAssertEqual(
            result.description,
            """
            invalid: R10 M22: Invalid update: invalid number of sections.  The number of sections contained in the table view after the update (1) must be equal to the number of sections contained in the table view before the update (1), plus or minus the number of sections inserted or deleted (0 inserted, 1 deleted).
            warning: R13: duplicate delete of section 0 in one batch; UITableView merges the repeat
            """)
    }
}
