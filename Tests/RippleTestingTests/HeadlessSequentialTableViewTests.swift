import Ripple
import RippleTestSupport
import RippleTesting
import XCTest

/// `HeadlessSequentialTableView`: `NSTableView`'s sequential row updates, nesting, data-source
/// timing, recording violations with their messages and recovering, and the conformance to
/// `SequentialRowView`.
final class HeadlessSequentialTableViewTests: XCTestCase {
    /// A data source whose rows a test changes at will, counting its reads.
    private final class Model {
        var rows: [String]
        private(set) var reads = 0
        init(_ rows: [String]) { self.rows = rows }
        func read() -> [String] {
            reads += 1
            return rows
        }
    }

    /// A view reading `model`, loaded.
    private func makeView(_ model: Model) -> HeadlessSequentialTableView<String> {
        let tableView = HeadlessSequentialTableView { model.read() }
        tableView.reloadData()
        return tableView
    }

    /// AppKit's message for a row out of range.
    private func outOfRange(_ row: Int, _ count: Int) -> String {
        "NSTableView error inserting/removing/moving row \(row) (numberOfRows: \(count))."
    }

    // MARK: - Operations

    func testRemoveRowsRemovesAllAtOnce() {
        let model = Model(["a", "b", "c", "d", "e"])
        let tableView = makeView(model)
        tableView.beginUpdates()
        model.rows = ["a", "c", "e"]
        tableView.removeRows([1, 3])
        XCTAssertEqual(tableView.numberOfRows, 3)
        tableView.endUpdates()
        XCTAssertEqual(tableView.violations, [])
        XCTAssertEqual(tableView.rows, ["a", "c", "e"])
    }

    func testInsertRowsNamePositionsAfterTheInsertionAndReadTheDataSource() {
        let model = Model(["a", "b", "c"])
        let tableView = makeView(model)
        tableView.beginUpdates()
        tableView.insertRows([0, 2, 5])
        XCTAssertEqual(tableView.numberOfRows, 6)
        model.rows = ["x", "a", "y", "b", "c", "z"]
        tableView.endUpdates()
        XCTAssertEqual(tableView.violations, [])
        XCTAssertEqual(tableView.rows, ["x", "a", "y", "b", "c", "z"])
    }

    func testInsertingAscendingRowsOneAtATimeIsEquivalent() {
        let model = Model(["a", "b", "c"])
        let atOnce = makeView(model)
        let oneByOne = makeView(model)
        model.rows = ["x", "a", "y", "b", "c", "z"]
        atOnce.insertRows([0, 2, 5])
        oneByOne.beginUpdates()
        for row in [0, 2, 5] { oneByOne.insertRows([row]) }
        oneByOne.endUpdates()
        XCTAssertEqual(atOnce.violations, [])
        XCTAssertEqual(oneByOne.violations, [])
        XCTAssertEqual(atOnce.rows, model.rows)
        XCTAssertEqual(oneByOne.rows, model.rows)
    }

    func testInsertAtTheEndAndIntoAnEmptyView() {
        let model = Model([])
        let tableView = makeView(model)
        model.rows = ["a", "b"]
        tableView.insertRows([0, 1])
        model.rows = ["a", "b", "c"]
        tableView.insertRows([2])
        XCTAssertEqual(tableView.violations, [])
        XCTAssertEqual(tableView.rows, ["a", "b", "c"])
    }

    func testMoveRowRemovesThenInsertsAndKeepsTheMovedValue() {
        let model = Model(["a", "b", "c", "d"])
        let tableView = makeView(model)
        tableView.beginUpdates()
        tableView.moveRow(at: 0, to: 2)  // b c a d
        tableView.moveRow(at: 3, to: 0)  // d b c a
        XCTAssertEqual(tableView.numberOfRows, 4)
        // The moved rows change content, but a move does not read the data source.
        model.rows = ["D", "b", "c", "A"]
        tableView.endUpdates()
        XCTAssertEqual(tableView.violations, [])
        XCTAssertEqual(tableView.rows, ["d", "b", "c", "a"])
    }

    func testMoveToTheSamePlaceChangesNothing() {
        let model = Model(["a", "b"])
        let tableView = makeView(model)
        tableView.moveRow(at: 1, to: 1)
        XCTAssertEqual(tableView.violations, [])
        XCTAssertEqual(tableView.rows, ["a", "b"])
    }

    func testReloadRowsKeepTheirPositionsAndOnlyTheyReadTheDataSource() {
        let model = Model(["a", "b", "c"])
        let tableView = makeView(model)
        model.rows = ["X", "B", "C"]
        tableView.reloadRows([1, 2])
        XCTAssertEqual(tableView.violations, [])
        // Row 0 changed without a reload: the view keeps showing its old value.
        XCTAssertEqual(tableView.rows, ["a", "B", "C"])
    }

    func testEachCallNamesRowsAsTheCallsBeforeItLeftThem() {
        let model = Model(["a", "b", "c", "d"])
        let tableView = makeView(model)
        tableView.beginUpdates()
        tableView.removeRows([0])  // b c d
        XCTAssertEqual(tableView.numberOfRows, 3)
        tableView.insertRows([1])  // b new c d
        XCTAssertEqual(tableView.numberOfRows, 4)
        tableView.moveRow(at: 1, to: 3)  // b c d new
        tableView.reloadRows([0])  // B c d new
        // Inside a batch, `rows` still shows the state before it.
        XCTAssertEqual(tableView.rows, ["a", "b", "c", "d"])
        XCTAssertTrue(tableView.hasUncommittedUpdates)
        model.rows = ["B", "c", "d", "new"]
        tableView.endUpdates()
        XCTAssertFalse(tableView.hasUncommittedUpdates)
        XCTAssertEqual(tableView.violations, [])
        // The inserted row reads its value at the position it occupies at the end.
        XCTAssertEqual(tableView.rows, ["B", "c", "d", "new"])
    }

    func testReloadedRowThatMovesReadsItsValueWhereItEnds() {
        let model = Model(["a", "b", "c"])
        let tableView = makeView(model)
        tableView.beginUpdates()
        tableView.reloadRows([0])
        tableView.moveRow(at: 0, to: 2)  // b c A
        model.rows = ["b", "c", "A"]
        tableView.endUpdates()
        XCTAssertEqual(tableView.violations, [])
        XCTAssertEqual(tableView.rows, ["b", "c", "A"])
    }

    func testEmptyCallsChangeNothing() {
        let model = Model(["a"])
        let tableView = makeView(model)
        tableView.beginUpdates()
        tableView.removeRows([])
        tableView.insertRows([])
        tableView.reloadRows([])
        tableView.endUpdates()
        XCTAssertEqual(tableView.violations, [])
        XCTAssertEqual(tableView.rows, ["a"])
    }

    // MARK: - Nesting and batches of their own

    func testNestedBatchesApplyOnceAtTheOutermostEnd() {
        let model = Model(["a", "b"])
        let tableView = makeView(model)
        XCTAssertEqual(model.reads, 1)
        tableView.beginUpdates()
        tableView.removeRows([0])
        tableView.beginUpdates()
        tableView.insertRows([1])
        tableView.endUpdates()
        // The inner end reads nothing and shows nothing new.
        XCTAssertTrue(tableView.hasUncommittedUpdates)
        XCTAssertEqual(model.reads, 1)
        XCTAssertEqual(tableView.rows, ["a", "b"])
        XCTAssertEqual(tableView.numberOfRows, 2)
        // An intermediate data-source state never matters.
        model.rows = []
        model.rows = ["b", "c"]
        tableView.endUpdates()
        XCTAssertFalse(tableView.hasUncommittedUpdates)
        XCTAssertEqual(model.reads, 2)
        XCTAssertEqual(tableView.violations, [])
        XCTAssertEqual(tableView.rows, ["b", "c"])
    }

    func testCallOutsideABatchIsABatchOfItsOwn() {
        let model = Model(["a"])
        let tableView = makeView(model)
        model.rows = ["a", "b"]
        tableView.insertRows([1])
        XCTAssertEqual(model.reads, 2)
        XCTAssertFalse(tableView.hasUncommittedUpdates)
        XCTAssertEqual(tableView.rows, ["a", "b"])
        model.rows = ["b", "a"]
        tableView.moveRow(at: 0, to: 1)
        model.rows = ["B", "a"]
        tableView.reloadRows([0])
        model.rows = ["a"]
        tableView.removeRows([0])
        XCTAssertEqual(model.reads, 5)
        XCTAssertEqual(tableView.violations, [])
        XCTAssertEqual(tableView.rows, ["a"])
    }

    // MARK: - Data-source timing

    func testDataSourceIsReadLazilyThenOnReloadAndAtTheEndOfEachOutermostBatch() {
        let model = Model(["a"])
        let tableView = HeadlessSequentialTableView { model.read() }
        XCTAssertEqual(model.reads, 0)
        XCTAssertEqual(tableView.numberOfRows, 1)
        XCTAssertEqual(model.reads, 1)
        model.rows = ["a", "b"]
        XCTAssertEqual(tableView.rows, ["a"])
        tableView.reloadData()
        // A table view reads at once.
        XCTAssertEqual(model.reads, 2)
        XCTAssertEqual(tableView.rows, ["a", "b"])
        tableView.beginUpdates()
        tableView.endUpdates()
        XCTAssertEqual(model.reads, 3)
    }

    func testFirstBatchReadsTheDataSourceAtItsStart() {
        let model = Model(["a"])
        let tableView = HeadlessSequentialTableView { model.read() }
        tableView.beginUpdates()
        XCTAssertEqual(model.reads, 1)
        XCTAssertEqual(tableView.numberOfRows, 1)
        model.rows = ["a", "b"]
        tableView.insertRows([1])
        tableView.endUpdates()
        XCTAssertEqual(model.reads, 2)
        XCTAssertEqual(tableView.violations, [])
        XCTAssertEqual(tableView.rows, ["a", "b"])
    }

    func testDataSourceIsHeldStrongly() {
        weak var weakModel: Model?
        let tableView: HeadlessSequentialTableView<String>
        do {
            let model = Model(["a"])
            weakModel = model
            tableView = HeadlessSequentialTableView { model.read() }
        }
        XCTAssertNotNil(weakModel)
        XCTAssertEqual(tableView.rows, ["a"])
    }

    // MARK: - Violations: rows out of range (AppKit's wording)

    func testRemovingARowOutOfRange() {
        let model = Model(["a", "b", "c"])
        let tableView = makeView(model)
        tableView.removeRows([1, 3])
        let violation = tableView.lastViolation
        XCTAssertEqual(violation?.kind, .rowOutOfRange)
        XCTAssertEqual(violation?.method, "removeRows(_:)")
        XCTAssertEqual(violation?.message, outOfRange(3, 3))
        XCTAssertEqual(violation?.exceptionName, "NSTableViewException")
        XCTAssertEqual(violation?.hasAppKitWording, true)
        tableView.removeRows([-1])
        XCTAssertEqual(tableView.lastViolation?.message, outOfRange(-1, 3))
        XCTAssertEqual(tableView.violations.count, 2)
    }

    func testTheDocumentedAppKitMessage() {
        let model = Model((0..<33).map { "\($0)" })
        let tableView = makeView(model)
        tableView.removeRows([40])
        XCTAssertEqual(
            tableView.lastViolation?.message, "NSTableView error inserting/removing/moving row 40 (numberOfRows: 33).")
    }

    func testInsertingARowBeyondTheCountAtTheMomentOfItsInsertion() {
        let model = Model(["a", "b", "c"])
        let tableView = makeView(model)
        tableView.insertRows([4])
        XCTAssertEqual(tableView.lastViolation?.kind, .rowOutOfRange)
        XCTAssertEqual(tableView.lastViolation?.method, "insertRows(_:)")
        XCTAssertEqual(tableView.lastViolation?.message, outOfRange(4, 3))
        // The second row is inserted into 4 rows, so 4 is valid there but 5 is not.
        model.rows = ["a", "b", "c", "x", "y"]
        tableView.insertRows([3, 4])
        XCTAssertEqual(tableView.violations.count, 1)
        XCTAssertEqual(tableView.rows, ["a", "b", "c", "x", "y"])
        tableView.insertRows([1, 7])
        XCTAssertEqual(tableView.lastViolation?.message, outOfRange(7, 6))
        tableView.insertRows([-2])
        XCTAssertEqual(tableView.lastViolation?.message, outOfRange(-2, 5))
        XCTAssertEqual(tableView.violations.count, 3)
    }

    func testMovingFromOrToARowOutOfRange() {
        let model = Model(["a", "b", "c"])
        let tableView = makeView(model)
        tableView.moveRow(at: 3, to: 0)
        XCTAssertEqual(tableView.lastViolation?.kind, .rowOutOfRange)
        XCTAssertEqual(tableView.lastViolation?.method, "moveRow(at:to:)")
        XCTAssertEqual(tableView.lastViolation?.message, outOfRange(3, 3))
        // The destination names the rows after the move, whose count is unchanged.
        tableView.moveRow(at: 0, to: 3)
        XCTAssertEqual(tableView.lastViolation?.message, outOfRange(3, 3))
        tableView.moveRow(at: -1, to: 0)
        XCTAssertEqual(tableView.lastViolation?.message, outOfRange(-1, 3))
        XCTAssertEqual(tableView.violations.count, 3)
        XCTAssertEqual(tableView.rows, ["a", "b", "c"])
    }

    func testReloadingARowOutOfRange() {
        let model = Model(["a", "b"])
        let tableView = makeView(model)
        tableView.reloadRows([0, 2])
        XCTAssertEqual(tableView.lastViolation?.kind, .rowOutOfRange)
        XCTAssertEqual(tableView.lastViolation?.method, "reloadRows(_:)")
        XCTAssertEqual(tableView.lastViolation?.message, outOfRange(2, 2))
    }

    func testRangeIsTheCountTheCallsBeforeLeft() {
        let model = Model(["a", "b", "c"])
        let tableView = makeView(model)
        tableView.beginUpdates()
        tableView.removeRows([0])
        // Row 2 existed before the batch, but not after the removal.
        tableView.reloadRows([2])
        tableView.endUpdates()
        XCTAssertEqual(tableView.lastViolation?.message, outOfRange(2, 2))
    }

    // MARK: - Violations: Ripple's wording

    func testRowsThatAreNotAscending() {
        let model = Model(["a", "b", "c", "d", "e"])
        let tableView = makeView(model)
        tableView.removeRows([2, 1])
        let violation = tableView.lastViolation
        XCTAssertEqual(violation?.kind, .rowsNotAscending)
        XCTAssertEqual(violation?.method, "removeRows(_:)")
        XCTAssertEqual(
            violation?.message,
            "HeadlessSequentialTableView.removeRows(_:): row 1 follows row 2, but rows must be ascending and distinct: the row after 2 must be in 3..<5 (numberOfRows: 5)."
        )
        XCTAssertNil(violation?.exceptionName)
        XCTAssertEqual(violation?.hasAppKitWording, false)
        tableView.reloadRows([4, 0])
        XCTAssertEqual(
            tableView.lastViolation?.message,
            "HeadlessSequentialTableView.reloadRows(_:): row 0 follows row 4, but rows must be ascending and distinct: no row can follow 4, the last of 0..<5 (numberOfRows: 5)."
        )
    }

    /// Issue 13: removals `[2, 0]` of 3 rows (from an unsorted change-set) read `it must be in 3..<3`.
    func testRowsAfterTheLastRowNameNoEmptyRange() {
        let tableView = makeView(Model(["a", "b", "c"]))
        tableView.removeRows([2, 0])
        XCTAssertEqual(
            tableView.lastViolation?.message,
            "HeadlessSequentialTableView.removeRows(_:): row 0 follows row 2, but rows must be ascending and distinct: no row can follow 2, the last of 0..<3 (numberOfRows: 3)."
        )
        XCTAssertEqual(tableView.rows, ["a", "b", "c"])
    }

    func testRowsThatAreNotDistinct() {
        let model = Model(["a", "b", "c"])
        let tableView = makeView(model)
        tableView.insertRows([1, 1])
        XCTAssertEqual(tableView.lastViolation?.kind, .rowsNotAscending)
        XCTAssertEqual(
            tableView.lastViolation?.message,
            "HeadlessSequentialTableView.insertRows(_:): row 1 follows row 1, but rows must be ascending and distinct: the row after 1 must be in 2..<5 (numberOfRows: 4)."
        )
        tableView.reloadRows([0, 0])
        XCTAssertEqual(
            tableView.lastViolation?.message,
            "HeadlessSequentialTableView.reloadRows(_:): row 0 follows row 0, but rows must be ascending and distinct: the row after 0 must be in 1..<3 (numberOfRows: 3)."
        )
        XCTAssertEqual(tableView.violations.count, 2)
    }

    func testRowCountThatDiffersFromTheDataSource() {
        let model = Model(["a", "b"])
        let tableView = makeView(model)
        model.rows = ["a"]
        tableView.beginUpdates()
        tableView.endUpdates()
        let violation = tableView.lastViolation
        XCTAssertEqual(violation?.kind, .rowCountMismatch)
        XCTAssertEqual(violation?.method, "endUpdates()")
        XCTAssertEqual(
            violation?.message,
            "HeadlessSequentialTableView.endUpdates(): the batch leaves 2 rows but the data source has 1; the inserted and removed rows must account for the change (numberOfRows after the updates: 2, data source: 1)."
        )
        XCTAssertNil(violation?.exceptionName)
        XCTAssertEqual(tableView.rows, ["a"])
        // A call outside a batch ends its own batch.
        model.rows = ["a", "b", "c"]
        tableView.insertRows([1])
        XCTAssertEqual(tableView.lastViolation?.method, "insertRows(_:)")
        XCTAssertEqual(
            tableView.lastViolation?.message,
            "HeadlessSequentialTableView.insertRows(_:): the batch leaves 2 rows but the data source has 3; the inserted and removed rows must account for the change (numberOfRows after the updates: 2, data source: 3)."
        )
        XCTAssertEqual(tableView.rows, ["a", "b", "c"])
        XCTAssertEqual(tableView.violations.count, 2)
    }

    func testReloadDataInsideABatch() {
        let model = Model(["a"])
        let tableView = makeView(model)
        tableView.beginUpdates()
        tableView.beginUpdates()
        model.rows = ["a", "b", "c"]
        tableView.insertRows([1])
        tableView.reloadData()
        XCTAssertEqual(tableView.lastViolation?.kind, .reloadDataInsideBatch)
        XCTAssertEqual(tableView.lastViolation?.method, "reloadData()")
        XCTAssertEqual(
            tableView.lastViolation?.message,
            "HeadlessSequentialTableView.reloadData(): called inside a batch (update depth 2); the rest of the batch is ignored and the view shows the data source when the batch ends."
        )
        tableView.endUpdates()
        tableView.endUpdates()
        XCTAssertEqual(tableView.violations.count, 1)
        XCTAssertEqual(tableView.rows, ["a", "b", "c"])
    }

    func testUnmatchedEndUpdates() {
        let model = Model(["a"])
        let tableView = makeView(model)
        var handled: [SequentialUpdateViolation] = []
        tableView.violationHandler = { handled.append($0) }
        tableView.endUpdates()
        XCTAssertEqual(tableView.lastViolation?.kind, .unmatchedEndUpdates)
        XCTAssertEqual(
            tableView.lastViolation?.message,
            "HeadlessSequentialTableView.endUpdates(): called without a matching beginUpdates(); the call is ignored.")
        XCTAssertEqual(handled, tableView.violations)
        XCTAssertFalse(tableView.hasUncommittedUpdates)
        // The view still works.
        model.rows = ["a", "b"]
        tableView.insertRows([1])
        XCTAssertEqual(tableView.violations.count, 1)
        XCTAssertEqual(tableView.rows, ["a", "b"])
    }

    // MARK: - Recovery

    func testViolationIgnoresTheRestOfTheBatchAndRecoversAtItsEnd() {
        let model = Model(["a", "b", "c"])
        let tableView = makeView(model)
        var handled: [SequentialUpdateViolation] = []
        tableView.violationHandler = { [unowned tableView] violation in
            // The handler runs once the view has recovered.
            XCTAssertFalse(tableView.hasUncommittedUpdates)
            XCTAssertEqual(tableView.rows, ["c", "x"])
            handled.append(violation)
        }
        tableView.beginUpdates()
        tableView.removeRows([0])
        tableView.removeRows([5])
        // Recorded at the call; the handler waits for the end of the batch.
        XCTAssertEqual(tableView.violations.map(\.message), [outOfRange(5, 2)])
        XCTAssertEqual(handled, [])
        // Ignored: neither applied nor checked.
        tableView.insertRows([0])
        tableView.removeRows([9])
        tableView.reloadData()
        XCTAssertEqual(tableView.numberOfRows, 2)
        model.rows = ["c", "x"]
        tableView.endUpdates()
        XCTAssertEqual(tableView.violations.count, 1)
        XCTAssertEqual(handled, tableView.violations)
        XCTAssertEqual(tableView.rows, ["c", "x"])
        // The next batch starts from the recovered state.
        model.rows = ["x"]
        tableView.removeRows([0])
        XCTAssertEqual(tableView.violations.count, 1)
        XCTAssertEqual(tableView.rows, ["x"])
    }

    func testHandlerMayUseTheView() {
        let model = Model(["a"])
        let tableView = makeView(model)
        tableView.violationHandler = { [unowned tableView] _ in
            XCTAssertFalse(tableView.hasUncommittedUpdates)
            tableView.reloadData()
            model.rows = ["a", "b"]
            tableView.insertRows([1])
        }
        tableView.insertRows([0])
        XCTAssertEqual(tableView.violations.count, 1)
        XCTAssertEqual(tableView.rows, ["a", "b"])
    }

    func testClearDiagnostics() {
        let tableView = HeadlessSequentialTableView { ["a"] }
        tableView.removeRows([1])
        XCTAssertNotNil(tableView.lastViolation)
        tableView.clearDiagnostics()
        XCTAssertEqual(tableView.violations, [])
        XCTAssertNil(tableView.lastViolation)
    }

    func testViolationDescription() {
        let violation = SequentialUpdateViolation(
            kind: .rowOutOfRange, method: "removeRows(_:)", message: outOfRange(1, 1))
        XCTAssertEqual(
            violation.description,
            "rowOutOfRange removeRows(_:): NSTableView error inserting/removing/moving row 1 (numberOfRows: 1).")
        XCTAssertEqual(SequentialUpdateViolation.Kind.allCases.count, 5)
    }

    // MARK: - SequentialRowView

    func testListSourcesDriveItThroughSequentialRowView() {
        MainActor.assumeIsolated {
            let model = Model(["a", "b", "c"])
            let tableView = HeadlessSequentialTableView { model.read() }
            XCTAssertTrue(tableView.isInWindow)
            Self.drive(tableView, model: model)
            XCTAssertEqual(tableView.violations, [])
            XCTAssertEqual(tableView.rows, ["c", "B", "d"])
            tableView.isInWindow = false
            XCTAssertFalse((tableView as any SequentialRowView).isInWindow)
        }
    }

    /// Makes the calls a list source would, through the protocol alone.
    @MainActor
    private static func drive(_ view: some SequentialRowView, model: Model) {
        view.reloadData()
        XCTAssertEqual(view.numberOfRows, 3)
        XCTAssertTrue(view.isInWindow)
        model.rows = ["c", "B", "d"]
        view.beginUpdates()
        view.removeRows([0])  // b c
        view.moveRow(at: 1, to: 0)  // c b
        view.reloadRows([1])  // c B
        view.insertRows([2])  // c B d
        XCTAssertEqual(view.numberOfRows, 3)
        view.endUpdates()
    }

    // MARK: - Randomized

    /// A call on a `SequentialRowView`.
    private enum Call: CustomStringConvertible {
        case remove([Int])
        case insert([Int])
        case move(Int, Int)
        case reload([Int])

        var description: String {
            switch self {
            case .remove(let rows): return "removeRows(\(rows))"
            case .insert(let rows): return "insertRows(\(rows))"
            case .move(let row, let newRow): return "moveRow(at: \(row), to: \(newRow))"
            case .reload(let rows): return "reloadRows(\(rows))"
            }
        }

        func make(on view: HeadlessSequentialTableView<String>) {
            switch self {
            case .remove(let rows): view.removeRows(rows)
            case .insert(let rows): view.insertRows(rows)
            case .move(let row, let newRow): view.moveRow(at: row, to: newRow)
            case .reload(let rows): view.reloadRows(rows)
            }
        }
    }

    func testRandomValidSequentialCallsLeaveTheDataSource() {
        // forEachSeed names the seed in every failure, to replay with `forEachSeed([seed])`.
        forEachSeed(0..<300) { _, random in
            var fresh = 0
            func freshValue() -> String {
                fresh += 1
                return "v\(fresh)"
            }
            var reference = (0..<random.int(in: 0...8)).map { _ in freshValue() }
            let model = Model(reference)
            let tableView = HeadlessSequentialTableView { model.read() }
            tableView.reloadData()
            var log: [String] = []

            /// A random valid call, made on `reference` at once.
            func randomCall() -> Call {
                let count = reference.count
                switch random.int(below: 4) {
                case 0:
                    let rows = (0..<count).filter { _ in random.chance(1, in: 3) }
                    for row in rows.reversed() { reference.remove(at: row) }
                    return .remove(rows)
                case 1:
                    let inserted = random.int(in: 1...3)
                    var positions = Array(0..<(count + inserted))
                    random.shuffle(&positions)
                    let rows = positions.prefix(inserted).sorted()
                    for row in rows { reference.insert(freshValue(), at: row) }
                    return .insert(rows)
                case 2 where count > 0:
                    let row = random.int(below: count)
                    let newRow = random.int(below: count)
                    reference.insert(reference.remove(at: row), at: newRow)
                    return .move(row, newRow)
                default:
                    let rows = (0..<count).filter { _ in random.chance(1, in: 3) }
                    for row in rows { reference[row] = freshValue() }
                    return .reload(rows)
                }
            }

            for round in 0..<random.int(in: 1...8) {
                if random.chance(1, in: 4) {
                    // A call of its own: the data source changes before it.
                    let call = randomCall()
                    log.append("\(call)")
                    model.rows = reference
                    call.make(on: tableView)
                } else {
                    log.append("begin")
                    tableView.beginUpdates()
                    for _ in 0..<random.int(in: 1...6) {
                        let nested = random.chance(1, in: 6)
                        if nested { tableView.beginUpdates() }
                        let call = randomCall()
                        log.append("\(call)")
                        call.make(on: tableView)
                        if nested { tableView.endUpdates() }
                        if tableView.numberOfRows != reference.count {
                            return
                                "round \(round): numberOfRows \(tableView.numberOfRows) ≠ \(reference.count) after \(log)"
                        }
                    }
                    model.rows = reference
                    tableView.endUpdates()
                    log.append("end")
                }
                if !tableView.violations.isEmpty {
                    return "round \(round): \(tableView.violations) after \(log)"
                }
                if tableView.rows != reference {
                    return "round \(round): rows \(tableView.rows) ≠ \(reference) after \(log)"
                }
            }
            return nil
        }
    }
}
