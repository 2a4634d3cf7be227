import RippleDiff
import RippleTesting
import XCTest

/// The path of row `item` in `section`.
private func path(_ section: Int, _ item: Int) -> ElementPath { BatchTestKit.path(section, item) }

/// `HeadlessTableView`: applying batches with UIKit's semantics, nesting, data-source timing,
/// recording violations and recovering, misuse, and the accessors.
final class HeadlessTableViewTests: XCTestCase {
    /// A data source whose sections a test changes at will.
    private final class Model: HeadlessViewDataSource {
        var sections: [[String]]
        init(_ sections: [[String]]) { self.sections = sections }
        func sectionsForHeadlessView() -> [[String]] { sections }
    }

    // MARK: - Reconfiguring (R17)

    func testReconfigure_readsTheRowsAgainInPlace_andIsRecorded() {
        let model = Model([["a", "b", "c"]])
        let tableView = HeadlessTableView(dataSource: model)
        tableView.reloadData()
        model.sections = [["a", "B", "c"]]
        tableView.reconfigureRows(at: [path(0, 1)])
        XCTAssertEqual(tableView.rows, [["a", "B", "c"]])
        XCTAssertEqual(tableView.events.last, .reconfigure([path(0, 1)]))
        XCTAssertEqual(tableView.violations, [])
    }

    func testReconfigure_insideABatch_orOfAMissingRow_isAViolationOfR17() {
        let model = Model([["a", "b"]])
        let tableView = HeadlessTableView(dataSource: model)
        tableView.reloadData()
        tableView.performBatchUpdates {
            tableView.reconfigureRows(at: [path(0, 0)])
        }
        XCTAssertEqual(tableView.violations.map(\.rule), [.reconfigurePass])
        XCTAssertTrue(tableView.violations[0].message.contains("inside a batch"), tableView.violations[0].message)
        tableView.reconfigureRows(at: [path(0, 2)])
        XCTAssertEqual(tableView.violations.map(\.rule), [.reconfigurePass, .reconfigurePass])
        XCTAssertTrue(
            tableView.violations[1].message.contains("(0 - 2)")
                || tableView.violations[1].message.contains("does not exist"), tableView.violations[1].message)
        XCTAssertEqual(tableView.rows, [["a", "b"]])
    }

    // MARK: - Applying batches

    func testBatchIsAppliedWithUIKitSemantics() {
        let model = Model([["a", "b", "c", "d"], ["x", "y"]])
        let tableView = HeadlessTableView(dataSource: model)
        tableView.reloadData()
        var finished: [Bool] = []
        tableView.performBatchUpdates(
            {
                model.sections = [["new", "a", "C"], ["d", "x", "y"]]
                tableView.deleteRows(at: [path(0, 1)])
                tableView.insertRows(at: [path(0, 0)])
                tableView.moveRow(at: path(0, 3), to: path(1, 0))
                tableView.reloadRows(at: [path(0, 2)])
            }, completion: { finished.append($0) })
        XCTAssertEqual(tableView.violations, [])
        XCTAssertEqual(tableView.warnings, [])
        XCTAssertEqual(tableView.rows, model.sections)
        XCTAssertEqual(finished, [true])
        XCTAssertEqual(tableView.events.count, 2)
        XCTAssertEqual(tableView.events.first, .reloadData)
        guard case .batchUpdates(let batch, let result) = tableView.events.last else {
            return XCTFail("\(tableView.events)")
        }
        XCTAssertEqual(batch.operations.count, 4)
        XCTAssertTrue(result.isValid)
    }

    func testMovedRowsKeepTheirValueAndOtherRowsAreNotReread() {
        let model = Model([["a", "b", "c"]])
        let tableView = HeadlessTableView(dataSource: model)
        tableView.performBatchUpdates {
            // "a" moves and changes content; "b" changes content without a reload.
            model.sections = [["B", "c", "A"]]
            tableView.moveRow(at: path(0, 0), to: path(0, 2))
        }
        XCTAssertNil(tableView.lastViolation)
        // UIKit moves cells without asking the data source again: the view shows stale values.
        XCTAssertEqual(tableView.rows, [["b", "c", "a"]])
    }

    func testReloadShiftedByAMoveRefreshesTheWrongRow() {
        // V25 with values: UIKit reloads (0, 2), but "c" has moved up to (0, 1).
        let model = Model([["a", "b", "c", "d"]])
        let tableView = HeadlessTableView(dataSource: model)
        tableView.reloadData()
        tableView.performBatchUpdates {
            model.sections = [["b", "C", "d", "a"]]
            tableView.reloadRows(at: [path(0, 2)])
            tableView.moveRow(at: path(0, 0), to: path(0, 3))
        }
        XCTAssertEqual(tableView.violations, [])
        XCTAssertEqual(
            tableView.warnings.map(\.kind),
            [.reloadIgnoresMoves(reloaded: path(0, 2), animated: path(0, 2), actual: path(0, 1))])
        XCTAssertEqual(tableView.rows, [["b", "d", "d", "a"]])
        XCTAssertNotEqual(tableView.rows, model.sections)
    }

    func testSectionOperations() {
        let model = Model([["a"], ["b", "c"], ["d"], ["e"]])
        let tableView = HeadlessTableView(dataSource: model)
        tableView.reloadData()
        tableView.performBatchUpdates {
            model.sections = [["c", "b", "x"], ["new"], ["a"], ["E"]]
            tableView.deleteSections([2])
            tableView.insertSections([1])
            tableView.moveSection(1, toSection: 0)
            // Inside the moved section: not a cross-section move (R12).
            tableView.moveRow(at: path(1, 1), to: path(0, 0))
            tableView.insertRows(at: [path(0, 2)])
            tableView.reloadSections([3])
        }
        XCTAssertEqual(tableView.violations, [])
        XCTAssertEqual(tableView.rows, model.sections)
        XCTAssertEqual(tableView.numberOfSections, 4)
        XCTAssertEqual(tableView.numberOfRows(inSection: 0), 3)
        XCTAssertEqual(tableView.row(at: path(3, 0)), "E")
    }

    func testOperationOutsideABatchIsABatchOfItsOwn() {
        let model = Model([["a"]])
        let tableView = HeadlessTableView(dataSource: model)
        tableView.layoutIfNeeded()
        model.sections = [["a", "b"]]
        tableView.insertRows(at: [path(0, 1)])
        XCTAssertEqual(tableView.rows, [["a", "b"]])
        model.sections = [["b"]]
        tableView.deleteRows(at: [path(0, 0)])
        XCTAssertEqual(tableView.rows, [["b"]])
        XCTAssertEqual(tableView.events.count, 2)
        XCTAssertEqual(tableView.violations, [])
    }

    func testApplyMakesEveryCallOfABatch() {
        let model = Model([["a", "b", "c"]])
        let tableView = HeadlessTableView(dataSource: model)
        let old = model.sections[0]
        let new = ["c", "d", "a"]
        model.sections = [new]
        tableView.reloadData()
        model.sections = [old]
        tableView.reloadData()
        for stage in StagedChangeset(from: old, to: new, identity: .value) {
            tableView.performBatchUpdates {
                model.sections = [stage.data]
                tableView.apply(BatchUpdate(stage.changeset))
            }
        }
        XCTAssertEqual(tableView.violations, [])
        XCTAssertEqual(tableView.rows, [new])
    }

    // MARK: - Nesting (R2)

    func testNestedBatchesValidateOnceAtTheOutermostEnd() {
        let model = Model([["a", "b"]])
        let tableView = HeadlessTableView(dataSource: model)
        tableView.reloadData()
        var completions: [String] = []
        tableView.beginUpdates()
        tableView.deleteRows(at: [path(0, 0)])
        tableView.performBatchUpdates(
            {
                tableView.beginUpdates()
                tableView.insertRows(at: [path(0, 1)])
                tableView.endUpdates()
                // Inner ends validate nothing; the view still shows the old rows.
                XCTAssertTrue(tableView.hasUncommittedUpdates)
                XCTAssertEqual(tableView.rows, [["a", "b"]])
            }, completion: { completions.append("inner \($0)") })
        XCTAssertTrue(tableView.hasUncommittedUpdates)
        XCTAssertEqual(tableView.events, [.reloadData])
        XCTAssertEqual(completions, [])
        // An intermediate data-source state that fits neither end never matters.
        model.sections = [[]]
        model.sections = [["b", "c"]]
        tableView.endUpdates()
        XCTAssertFalse(tableView.hasUncommittedUpdates)
        XCTAssertEqual(completions, ["inner true"])
        XCTAssertEqual(tableView.events.count, 2)
        guard case .batchUpdates(let batch, let result) = tableView.events.last else {
            return XCTFail("\(tableView.events)")
        }
        XCTAssertEqual(batch.operations, [.deleteItem(path(0, 0)), .insertItem(path(0, 1))])
        XCTAssertTrue(result.isValid)
        XCTAssertEqual(tableView.rows, [["b", "c"]])
    }

    func testNestedPerformBatchUpdatesRunCompletionsInOrderAfterTheOuterEnd() {
        let model = Model([["a"]])
        let tableView = HeadlessTableView(dataSource: model)
        var log: [String] = []
        tableView.performBatchUpdates(
            {
                tableView.performBatchUpdates(
                    { log.append("inner updates") }, completion: { _ in log.append("inner done") })
                log.append("outer updates")
            }, completion: { _ in log.append("outer done") })
        XCTAssertEqual(log, ["inner updates", "outer updates", "inner done", "outer done"])
    }

    // MARK: - Data-source timing (R14)

    func testBeforeStateIsTheCacheOfTheLastReload() {
        let model = Model([["a", "b"]])
        let tableView = HeadlessTableView(dataSource: model)
        tableView.reloadData()
        // Changed before the batch: a table view has already cached [2], so this still works.
        model.sections = [["a", "b", "c"]]
        tableView.performBatchUpdates { tableView.insertRows(at: [path(0, 2)]) }
        XCTAssertEqual(tableView.violations, [])
        XCTAssertEqual(tableView.rows, [["a", "b", "c"]])
    }

    func testBeforeStateIsTheResultOfTheLastBatch() {
        let model = Model([["a", "b"]])
        let tableView = HeadlessTableView(dataSource: model)
        tableView.reloadData()
        tableView.performBatchUpdates {
            model.sections = [["a"]]
            tableView.deleteRows(at: [path(0, 1)])
        }
        // The second batch starts from [1], not from the [2] of the reload.
        tableView.performBatchUpdates {
            model.sections = [["a", "z"]]
            tableView.insertRows(at: [path(0, 1)])
        }
        XCTAssertEqual(tableView.violations, [])
        XCTAssertEqual(tableView.rows, [["a", "z"]])
    }

    func testChangedDataSourceWithoutUpdatesIsRejected() {
        let model = Model([["a", "b"]])
        let tableView = HeadlessTableView(dataSource: model)
        tableView.reloadData()
        model.sections = [["a"]]
        tableView.beginUpdates()
        tableView.endUpdates()
        XCTAssertEqual(tableView.lastViolation?.messageID, .invalidItemCount)
        XCTAssertEqual(
            tableView.lastViolation?.message,
            "Invalid update: invalid number of rows in section 0.  The number of rows contained in an existing section after the update (1) must be equal to the number of rows contained in that section before the update (2), plus or minus the number of rows inserted or deleted from that section (0 inserted, 0 deleted) and plus or minus the number of rows moved into or out of that section (0 moved in, 0 moved out)."
        )
    }

    // MARK: - Violations and recovery

    func testViolationIsRecordedReportedAndRecoveredFrom() {
        let model = Model([["a", "b", "c"]])
        let tableView = HeadlessTableView(dataSource: model)
        tableView.reloadData()
        var handled: [BatchUpdateViolation] = []
        var finished: [Bool] = []
        tableView.violationHandler = { handled.append($0) }
        tableView.performBatchUpdates(
            {
                model.sections = [["a", "c"]]
                tableView.deleteRows(at: [path(0, 3)])
            }, completion: { finished.append($0) })
        let expected = BatchUpdateViolation(
            rule: .deleteConflictsAndBounds, messageID: .deleteItemOutOfBounds,
            message: "attempt to delete row 3 from section 0 which only contains 3 rows before the update")
        XCTAssertEqual(tableView.violations, [expected])
        XCTAssertEqual(tableView.lastViolation, expected)
        XCTAssertEqual(handled, [expected])
        XCTAssertEqual(finished, [false])
        // Recovered like reloadData: the view shows the data source.
        XCTAssertEqual(tableView.rows, [["a", "c"]])
        XCTAssertFalse(tableView.hasUncommittedUpdates)
        // The next batch starts from the recovered state.
        tableView.performBatchUpdates {
            model.sections = [["c"]]
            tableView.deleteRows(at: [path(0, 0)])
        }
        XCTAssertEqual(tableView.violations.count, 1)
        XCTAssertEqual(tableView.rows, [["c"]])
    }

    func testHandlerMayUseTheView() {
        let model = Model([["a"]])
        let tableView = HeadlessTableView(dataSource: model)
        tableView.reloadData()
        tableView.violationHandler = { [unowned tableView] _ in
            XCTAssertFalse(tableView.hasUncommittedUpdates)
            tableView.reloadData()
        }
        tableView.insertRows(at: [path(0, 0)])
        XCTAssertEqual(tableView.violations.count, 1)
        XCTAssertEqual(tableView.events.last, .reloadData)
        XCTAssertEqual(tableView.rows, [["a"]])
    }

    func testDetailedCountMessage() {
        let model = Model([["a", "b", "c"]])
        let tableView = HeadlessTableView(dataSource: model, countMismatchStyle: .detailed)
        XCTAssertEqual(tableView.countMismatchStyle, .detailed)
        tableView.reloadData()
        tableView.performBatchUpdates {
            model.sections = [[]]
            tableView.deleteRows(at: [path(0, 1)])
        }
        XCTAssertEqual(
            tableView.lastViolation?.message,
            """
            Invalid batch updates detected: the number of sections and/or rows returned by the data source before and after performing the batch updates are inconsistent with the updates.
            Data source before updates = { 1 section with row counts: [3] }
            Data source after updates = { 1 section with row counts: [0] }
            Updates = [
            \tDelete row (0 - 1)
            ]
            Table view: <UITableView: 0x0000000000000000>
            """)
        tableView.countMismatchStyle = .classic
        model.sections = [["a"]]
        tableView.reloadData()
        tableView.insertRows(at: [path(0, 0)])
        XCTAssertEqual(tableView.lastViolation?.messageID, .invalidItemCount)
    }

    func testClearDiagnostics() {
        let tableView = HeadlessTableView { [["a"]] }
        tableView.insertRows(at: [path(0, 0)])
        XCTAssertFalse(tableView.violations.isEmpty)
        tableView.clearDiagnostics()
        XCTAssertEqual(tableView.violations, [])
        XCTAssertEqual(tableView.warnings, [])
        XCTAssertEqual(tableView.events, [])
        XCTAssertNil(tableView.lastViolation)
    }

    // MARK: - Misuse (R2, R15)

    func testReloadDataInsideABatchIsAMisuseAndAbandonsTheBatch() {
        let model = Model([["a"]])
        let tableView = HeadlessTableView(dataSource: model)
        tableView.reloadData()
        var finished: [Bool] = []
        tableView.performBatchUpdates(
            {
                model.sections = [["a", "b", "c"]]
                tableView.insertRows(at: [path(0, 1)])
                tableView.reloadData()
            }, completion: { finished.append($0) })
        XCTAssertEqual(tableView.violations.map(\.rule), [.reloadDataOutsideBatches])
        XCTAssertNil(tableView.lastViolation?.messageID)
        XCTAssertEqual(finished, [false])
        XCTAssertEqual(tableView.rows, [["a", "b", "c"]])
        XCTAssertEqual(tableView.events.count, 3)
        XCTAssertEqual(tableView.events.last, .reloadData)
        guard case .misuse(let violation) = tableView.events[1] else { return XCTFail("\(tableView.events)") }
        XCTAssertEqual(violation.rule, .reloadDataOutsideBatches)
    }

    func testUnmatchedEndUpdatesIsAMisuse() {
        let tableView = HeadlessTableView { [["a"]] }
        tableView.endUpdates()
        XCTAssertEqual(tableView.violations.map(\.rule), [.orderAndNesting])
        XCTAssertFalse(tableView.hasUncommittedUpdates)
        // The view still works.
        tableView.beginUpdates()
        tableView.endUpdates()
        XCTAssertEqual(tableView.violations.count, 1)
    }

    // MARK: - Data source

    func testDataSourceIsHeldWeakly() {
        var model: Model? = Model([["a"], ["b"]])
        let tableView = HeadlessTableView(dataSource: model!)
        XCTAssertEqual(tableView.numberOfSections, 2)
        weak let weakModel = model
        model = nil
        XCTAssertNil(weakModel)
        tableView.reloadData()
        XCTAssertEqual(tableView.numberOfSections, 0)
    }

    func testDataSourceIsReadLazilyThenOnReload() {
        var reads = 0
        var data = [["a"]]
        let tableView = HeadlessTableView {
            reads += 1
            return data
        }
        XCTAssertEqual(reads, 0)
        XCTAssertEqual(tableView.numberOfRows(inSection: 0), 1)
        XCTAssertEqual(reads, 1)
        data = [["a", "b"]]
        XCTAssertEqual(tableView.rows, [["a"]])
        tableView.reloadData()
        // A table view reads at once.
        XCTAssertEqual(reads, 2)
        XCTAssertEqual(tableView.rows, [["a", "b"]])
        XCTAssertEqual(tableView.row(at: path(0, 1)), "b")
    }

    // MARK: - Reading a row at a time

    func testAMillionRows_aBatchReadsOnlyTheRowsItNames_andARejectedOneIsReportedWithUIKitsMessage() {
        var rows = Array(0..<1_000_000)
        var readRows: [Int] = []
        let tableView = HeadlessTableView(
            rowCounts: { [rows.count] },
            row: { path in
                readRows.append(path.item)
                return rows[path.item]
            })
        tableView.reloadData()
        XCTAssertEqual(readRows.count, 1_000_000, "a reload reads every row")

        // A batch that describes the change reads only the row it inserts.
        readRows = []
        tableView.performBatchUpdates {
            rows.remove(at: 500_000)
            rows.insert(-1, at: 10)
            tableView.deleteRows(at: [path(0, 500_000)])
            tableView.insertRows(at: [path(0, 10)])
        }
        XCTAssertEqual(tableView.violations, [])
        XCTAssertEqual(readRows, [10])
        XCTAssertEqual(tableView.numberOfRows(inSection: 0), 1_000_000)
        XCTAssertEqual(tableView.row(at: path(0, 10)), -1)
        XCTAssertEqual(tableView.row(at: path(0, 500_000)), 499_999)
        XCTAssertEqual(tableView.row(at: path(0, 999_999)), 999_999)

        // One that does not is rejected with UIKit's message, and the view shows the data source.
        rows.append(1_000_000)
        tableView.performBatchUpdates {}
        XCTAssertEqual(tableView.lastViolation?.messageID, .invalidItemCount)
        XCTAssertEqual(
            tableView.lastViolation?.message,
            "Invalid update: invalid number of rows in section 0.  The number of rows contained in an existing section after the update (1000001) must be equal to the number of rows contained in that section before the update (1000000), plus or minus the number of rows inserted or deleted from that section (0 inserted, 0 deleted) and plus or minus the number of rows moved into or out of that section (0 moved in, 0 moved out)."
        )
        XCTAssertEqual(tableView.numberOfRows(inSection: 0), 1_000_001)
        XCTAssertEqual(tableView.row(at: path(0, 1_000_000)), 1_000_000)
    }
}
