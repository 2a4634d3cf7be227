import RippleDiff
import RippleTesting
import XCTest

/// `BatchUpdate`: recording in call order, the UIKit-named methods, and the change-set conversion.
final class BatchUpdateTests: XCTestCase {
    private func path(_ section: Int, _ item: Int) -> ElementPath { BatchTestKit.path(section, item) }

    func testMethodsRecordOneOperationPerIndexInCallOrder() {
        var batch = BatchUpdate()
        XCTAssertTrue(batch.isEmpty)
        batch.reloadItems(at: [path(0, 1)])
        batch.deleteSections([2, 1])
        batch.insertItems(at: [path(0, 0), path(1, 3)])
        batch.moveSection(0, toSection: 3)
        batch.insertSections([4])
        batch.reloadSections([5])
        batch.deleteItems(at: [path(0, 2)])
        batch.moveItem(at: path(0, 3), to: path(1, 0))
        XCTAssertFalse(batch.isEmpty)
        XCTAssertEqual(
            batch.operations,
            [
                .reloadItem(path(0, 1)), .deleteSection(2), .deleteSection(1), .insertItem(path(0, 0)),
                .insertItem(path(1, 3)), .moveSection(0, to: 3), .insertSection(4), .reloadSection(5),
                .deleteItem(path(0, 2)), .moveItem(path(0, 3), to: path(1, 0)),
            ])
    }

    func testAppendingMergesBatchesAsNestingDoes() {
        var outer = BatchUpdate(operations: [.deleteSection(0)])
        outer.append(contentsOf: BatchUpdate(operations: [.insertSection(1), .deleteSection(0)]))
        XCTAssertEqual(outer.operations, [.deleteSection(0), .insertSection(1), .deleteSection(0)])
    }

    func testEqualityFollowsCallOrder() {
        let first = BatchUpdate(operations: [.deleteSection(0), .insertSection(1)])
        let second = BatchUpdate(operations: [.insertSection(1), .deleteSection(0)])
        XCTAssertNotEqual(first, second)
        XCTAssertEqual(Set([first, second, first]).count, 2)
    }

    func testChangesetConversionUsesSourceOffsetsForUpdates() {
        let changeset = Changeset(
            sourceCount: 4, targetCount: 4, deletes: [0], inserts: [3],
            moves: [Changeset.OffsetPair(source: 3, target: 0)],
            updates: [Changeset.OffsetPair(source: 2, target: 1)])
        let batch = BatchUpdate(changeset, inSection: 2)
        XCTAssertEqual(
            batch.operations,
            [
                .deleteItem(path(2, 0)), .insertItem(path(2, 3)), .moveItem(path(2, 3), to: path(2, 0)),
                .reloadItem(path(2, 2)),
            ])
        XCTAssertEqual(BatchUpdate(Changeset.unchanged(count: 3)), BatchUpdate())
    }

    func testChangesetOfADiffIsAValidBatch() {
        let old = ["a", "b", "c", "d"]
        let new = ["d", "a", "e", "c"]
        let batch = BatchUpdate(Changeset(from: old, to: new, identity: .value))
        XCTAssertTrue(BatchUpdateValidator.tableView.validate(batch, before: [4], after: [4]).isValid)
    }

    func testDescriptions() {
        let batch = BatchUpdate(operations: [
            .deleteSection(1), .insertSection(2), .moveSection(3, to: 4), .reloadSection(5),
            .deleteItem(path(0, 1)), .insertItem(path(0, 2)), .moveItem(path(0, 3), to: path(1, 0)),
            .reloadItem(path(2, 2)),
        ])
        XCTAssertEqual(
            batch.description,
            "BatchUpdate[delete section 1, insert section 2, move section 3 to 4, reload section 5, delete item (0 - 1), insert item (0 - 2), move item (0 - 3) to (1 - 0), reload item (2 - 2)]"
        )
        XCTAssertEqual(BatchUpdate().description, "BatchUpdate[]")
    }
}
