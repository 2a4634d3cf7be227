import Ripple
import RippleDiff
import RippleTestSupport
import RippleTesting
import XCTest

/// A sequential row view that logs the calls it gets and keeps only a row count.
@MainActor
private final class RecordingRowView: SequentialRowView {
    var numberOfRows: Int
    var isInWindow = true
    var calls: [String] = []

    init(rows: Int) { numberOfRows = rows }

    func reloadData() { calls.append("reloadData") }
    func beginUpdates() { calls.append("begin") }
    func endUpdates() { calls.append("end") }
    func removeRows(_ rows: [Int]) {
        calls.append("remove \(rows)")
        numberOfRows -= rows.count
    }
    func insertRows(_ rows: [Int]) {
        calls.append("insert \(rows)")
        numberOfRows += rows.count
    }
    func moveRow(at row: Int, to newRow: Int) { calls.append("move \(row)→\(newRow)") }
    func reloadRows(_ rows: [Int]) { calls.append("reload \(rows)") }
    func reconfigureRows(_ rows: [Int]) { calls.append("reconfigure \(rows)") }

    var adoptedSources: [AnyObject] = []
    /// Records the source and returns the list view as the adapter, which keeps it alive, as the
    /// `NSTableView` adapter does.
    func adoptDataSource<Source: ListDataSource>(_ source: Source, through rows: SequentialListView) -> AnyObject? {
        adoptedSources.append(source)
        return rows
    }
}

/// `SequentialListView`: a list source's batches, in UIKit's coordinates, as the calls a sequential
/// row view (`NSTableView`) reads one after another.
final class SequentialListViewTests: XCTestCase {
    func test_aBatch_becomesOneUpdatesBlock_withRemovalsMovesInsertionsAndReloadsInOrder() {
        MainActor.assumeIsolated {
            // a b c d e → X a c e d: b deleted, X inserted at 0, d moved 3 → 4, a reloaded (lands at 1).
            let rowView = RecordingRowView(rows: 5)
            let view = SequentialListView(rowView)
            var finished: Bool?
            view.performBatchUpdates(
                {
                    view.deleteItems(at: [path(1)])
                    view.insertItems(at: [path(0)])
                    view.moveItem(at: path(3), to: path(4))
                    view.reloadItems(at: [path(0)])
                }, completion: { finished = $0 })
            XCTAssertEqual(rowView.calls, ["begin", "remove [1]", "move 2→3", "insert [0]", "reload [1]", "end"])
            XCTAssertEqual(finished, true)
            XCTAssertEqual(view.numberOfItems(inSection: 0), 5)
        }
    }

    /// A source made with `init(view: SequentialListView(rowView), …)` adopts the row view, and the
    /// adapter the row view returns keeps the list view alive, though the source holds it weakly.
    func test_aSourceAdoptsTheRowView_whoseAdapterKeepsTheListViewAlive() {
        MainActor.assumeIsolated {
            let collection = ObservableCollection([TestItem](ids: [1, 2]))
            let rowView = RecordingRowView(rows: 0)
            let source = TableViewSource(view: SequentialListView(rowView), collection: collection)
            XCTAssertEqual(rowView.adoptedSources.count, 1)
            XCTAssertTrue(rowView.adoptedSources.first === source)
            XCTAssertNotNil(source.listView, "the adapter keeps the list view alive")

            let table = HeadlessSequentialTableView<TestItem> { [] }
            let tableSource = TableViewSource(view: SequentialListView(table), collection: collection)
            XCTAssertTrue(table.adoptedSource === tableSource)
            XCTAssertEqual(table.adoptionCount, 1)
        }
    }

    func test_callsOutsideABatch_formABatchOfTheirOwn() {
        MainActor.assumeIsolated {
            let rowView = RecordingRowView(rows: 3)
            let view = SequentialListView(rowView)
            view.deleteItems(at: [path(0), path(2)])
            view.insertItems(at: [path(1)])
            XCTAssertEqual(rowView.calls, ["begin", "remove [0, 2]", "end", "begin", "insert [1]", "end"])
        }
    }

    func test_nestedBatches_joinTheOutermostOne() {
        MainActor.assumeIsolated {
            let rowView = RecordingRowView(rows: 3)
            let view = SequentialListView(rowView)
            var inner: Bool?
            view.performBatchUpdates(
                {
                    view.deleteItems(at: [path(0)])
                    view.performBatchUpdates({ view.insertItems(at: [path(2)]) }, completion: { inner = $0 })
                }, completion: nil)
            XCTAssertEqual(rowView.calls, ["begin", "remove [0]", "insert [2]", "end"])
            XCTAssertEqual(inner, true)
        }
    }

    func test_anEmptyBatch_makesNoCalls() {
        MainActor.assumeIsolated {
            let rowView = RecordingRowView(rows: 3)
            let view = SequentialListView(rowView)
            var finished: Bool?
            view.performBatchUpdates({}, completion: { finished = $0 })
            XCTAssertEqual(rowView.calls, [])
            XCTAssertEqual(finished, true)
        }
    }

    func test_anInvalidBatch_reloadsTheView_andIsReported() {
        let diagnostics = DiagnosticsCapture()
        defer { diagnostics.restore() }
        MainActor.assumeIsolated {
            let cases: [(String, (SequentialListView) -> Void, String)] = [
                ("delete out of range", { $0.deleteItems(at: [path(7)]) }, "delete 7 is out of range 0..<5"),
                ("insert out of range", { $0.insertItems(at: [path(6)]) }, "insert 6 is out of range 0..<6"),
                ("deleted twice", { $0.deleteItems(at: [path(1), path(1)]) }, "source offset 1 is deleted twice"),
                (
                    "reload of a deleted row",
                    {
                        $0.deleteItems(at: [path(2)])
                        $0.reloadItems(at: [path(2)])
                    }, "row 2 is reloaded and also deleted, moved or reloaded"
                ),
                ("reload out of range", { $0.reloadItems(at: [path(5)]) }, "reload 5 is out of range 0..<5"),
            ]
            for (name, batch, message) in cases {
                let rowView = RecordingRowView(rows: 5)
                let view = SequentialListView(rowView)
                var finished: Bool?
                view.performBatchUpdates({ batch(view) }, completion: { finished = $0 })
                XCTAssertEqual(rowView.calls, ["reloadData"], name)
                XCTAssertEqual(finished, false, name)
                let reported = diagnostics.recorder.events.last
                XCTAssertEqual(reported?.kind, .invalidBatch, name)
                XCTAssertEqual(reported?.source, "SequentialListView.performBatchUpdates(_:completion:)", name)
                XCTAssertTrue(reported?.message.contains(message) ?? false, "\(name): \(String(describing: reported))")
            }
        }
    }

    func test_aRowViewThatHasGone_runsTheUpdatesAndReportsNotFinished() {
        MainActor.assumeIsolated {
            var rowView: RecordingRowView? = RecordingRowView(rows: 2)
            let view = SequentialListView(rowView!)
            rowView = nil
            var ran = false
            var finished: Bool?
            view.performBatchUpdates({ ran = true }, completion: { finished = $0 })
            XCTAssertTrue(ran)
            XCTAssertEqual(finished, false)
            XCTAssertNil(view.rowView)
            XCTAssertFalse(view.isInWindow)
            XCTAssertEqual(view.numberOfItems(inSection: 0), 0)
            view.deleteItems(at: [path(0)])  // no view: nothing to call
        }
    }

    func test_countsAndWindowComeFromTheRowView() {
        MainActor.assumeIsolated {
            let rowView = RecordingRowView(rows: 4)
            let view = SequentialListView(rowView)
            XCTAssertEqual(view.numberOfSections, 1)
            XCTAssertEqual(view.displayedItemCounts, [4])
            rowView.isInWindow = false
            XCTAssertFalse(view.isInWindow)
            view.reloadData()
            XCTAssertEqual(rowView.calls, ["reloadData"])
        }
    }

    // MARK: - End to end: TableViewSource on a headless NSTableView

    /// A table source driving a headless sequential table view through a `SequentialListView`.
    @MainActor
    private struct SequentialScreen {
        let view: HeadlessSequentialTableView<TestItem>
        let rows: SequentialListView
        let source: TableViewSource<TestItem>

        init(_ collection: ObservableCollection<TestItem>) {
            let box = SourceBox()
            view = HeadlessSequentialTableView<TestItem> { [box] in
                MainActor.assumeIsolated { box.source.map { Array($0.renderedItems) } ?? [] }
            }
            rows = SequentialListView(view)
            source = TableViewSource(view: rows, collection: collection)
            box.source = source
        }
    }

    @MainActor
    private final class SourceBox {
        weak var source: TableViewSource<TestItem>?
    }

    func test_tableSource_onAHeadlessSequentialTable_animatesEveryMutation_andEndsEqualToTheCollection() {
        let diagnostics = DiagnosticsCapture()
        defer { diagnostics.restore() }
        MainActor.assumeIsolated {
            let collection = ObservableCollection([TestItem](ids: [1, 2, 3, 4]))
            let screen = SequentialScreen(collection)
            flushMainQueue()
            applyOneMutationOfEachKind(to: collection)
            collection.replace(with: collection.snapshot.reversed())
            flushMainQueue()
            XCTAssertEqual(screen.view.violations, [])
            XCTAssertEqual(screen.view.rows, Array(collection.snapshot))
            XCTAssertEqual(screen.source.statistics.reloads, 1, "only the initial reload")
            // The update is a reconfigure of its row, with no (empty) batch.
            XCTAssertGreaterThanOrEqual(screen.source.statistics.batches, 5)
            XCTAssertEqual(diagnostics.recorder.events, [])
        }
    }

    /// Seeded random mutations, delivered a few at a time: every batch must reach the headless
    /// table as calls it accepts, and the table must end equal to the collection.
    func test_tableSource_onAHeadlessSequentialTable_randomMutations() {
        let diagnostics = DiagnosticsCapture()
        defer { diagnostics.restore() }
        MainActor.assumeIsolated {
            for seed: UInt64 in 1...40 {
                var random = SplitMix64(seed: seed)
                let collection = ObservableCollection([TestItem](ids: Array(0..<20)))
                let screen = SequentialScreen(collection)
                flushMainQueue()
                var nextID = 1_000
                for step in 0..<120 {
                    nextID += 1
                    Self.randomMutation(of: collection, random: &random, freshID: nextID)
                    if step % 5 == 0 { flushMainQueue() }
                }
                flushMainQueue()
                XCTAssertEqual(screen.view.violations, [], "seed \(seed)")
                XCTAssertEqual(screen.view.rows, Array(collection.snapshot), "seed \(seed)")
                XCTAssertEqual(screen.source.statistics.reloads, 1, "seed \(seed): only the initial reload")
            }
            XCTAssertEqual(diagnostics.recorder.events, [])
        }
    }

    private static func randomMutation(
        of collection: ObservableCollection<TestItem>, random: inout SplitMix64, freshID: Int
    ) {
        let count = collection.count
        switch random.int(below: 7) {
        case 0: collection.insert(TestItem(id: freshID), at: random.int(in: 0...count))
        case 1 where count > 0: collection.remove(at: random.int(below: count))
        case 2 where count > 1: collection.move(from: random.int(below: count), to: random.int(below: count))
        case 3 where count > 0:
            let index = random.int(below: count)
            let item = collection[index]
            collection[index] = TestItem(id: item.id, content: item.content + 1)
        case 4:
            var items = collection.filter { _ in !random.chance(15, in: 100) }
            random.shuffle(&items)
            if let first = items.first { items[0] = TestItem(id: first.id, content: first.content + 1) }
            collection.replace(with: items + [TestItem(id: freshID)])
        case 5:
            collection.performBatchUpdates {
                collection.append(TestItem(id: freshID))
                if collection.count > 2 { collection.move(from: 0, to: collection.count - 1) }
                collection.removeAll { $0.id % 3 == Int(random.int(below: 3)) && $0.id != freshID }
            }
        default:
            var items = Array(collection.snapshot)
            if items.count > 2 { items.swapAt(0, items.count - 1) }
            collection.replace(with: items)
        }
    }

    // MARK: - Section calls trap (in child processes)

    /// The entry point of the child processes; skipped in a normal run.
    func test_childProcessEntry() throws {
        let name = try childProcessCase()
        MainActor.assumeIsolated {
            let rowView = RecordingRowView(rows: 3)
            let view = SequentialListView(rowView)
            switch name {
            case "insertSections": view.insertSections([1])
            case "moveSection": view.moveSection(0, toSection: 1)
            case "deleteItems": view.deleteItems(at: [path(0, 1)])
            case "numberOfItems": _ = view.numberOfItems(inSection: 2)
            default: return
            }
            print("the case did not trap")
        }
    }

    func test_sectionCalls_trapWithAMessageNamingTheMethodAndTheRange() throws {
        let expected: [String: String] = [
            "insertSections":
                "SequentialListView.insertSections(_:): a sequential row view has one section, which cannot be inserted, deleted, reloaded or moved; got [1]",
            "moveSection":
                "SequentialListView.moveSection(_:toSection:): a sequential row view has one section, which cannot be inserted, deleted, reloaded or moved; got [0, 1]",
            "deleteItems": "SequentialListView.deleteItems(at:): section 1 is out of range 0..<1",
            "numberOfItems": "SequentialListView.numberOfItems(inSection:): section 2 is out of range 0..<1",
        ]
        try assertChildCasesTrap("RippleTests.SequentialListViewTests/test_childProcessEntry", expected: expected)
    }
}
