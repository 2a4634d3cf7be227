#if canImport(RippleTesting)
import Ripple
import RippleDiff
import RippleTesting

/// The `screen` suite: what a screen test pays per event (issue 44). The same events as a test
/// makes them, through a `HeadlessTableScreen` and a `HeadlessCollectionScreen` with a registered
/// cell and 10 rows on screen, `settle()` included, against the same event through a
/// `TableViewSource` on a ``CountingListView`` with no checks and no cells (`floor`).
///
/// Each event is one mutation of an `ObservableCollection`, then the screen settled (the floor:
/// the main queue drained): an append, an update of the row in the middle, a removal of the row
/// in the middle, a batch that removes and inserts 1% of the rows at spread positions, and a
/// `replace(with:)` that drops the middle row and appends one (a diff of the whole list, in the
/// collection, for every engine).
///
/// The summary gives, per screen and per one-row event, the time at `100k` ÷ at `1k` (bound:
/// ≤ 2×) and, at `10`, the screen ÷ the floor (bound: ≤ 20×). `1m` runs in `--full`.
enum ScreenBenchmarks {
    static let suite = BenchmarkSuite(
        name: "screen",
        summary: "A headless screen (`HeadlessTableScreen`, `HeadlessCollectionScreen`, `settle()` included) per "
            + "event, against a `TableViewSource` on a counting view (`floor`)",
        makeGroups: { mode, scenarios in groups(mode, scenarios) },
        summarize: { summarize($0) },
        defaultModes: [.standard, .full])

    typealias Row = LiveBenchmarks.Row

    /// One event's mutation.
    enum Operation: String, CaseIterable {
        case append, update, remove
        /// One batch that removes and inserts 1% of the rows (at least one each).
        case batch
        /// `replace(with:)` with the middle row dropped and a new row appended.
        case replace

        /// The events that change one row, which the per-size bound is about.
        static let oneRow: [Operation] = [.append, .update, .remove]

        /// The events per timed run: `base`, but a tenth for a replace (a diff of the whole list),
        /// and no more removals than half the rows.
        func iterations(_ base: Int, rows: Int) -> Int {
            switch self {
            case .replace: max(1, base / 10)
            case .remove: max(1, min(base, rows / 2))
            case .append, .update, .batch: base
            }
        }
    }

    /// The engines: the two headless screens and the floor.
    enum Engine: String, CaseIterable {
        case table, collection, floor
    }

    /// The sizes of a mode with their events per timed run.
    static func sizes(_ mode: BenchmarkMode) -> [(size: String, count: Int, iterations: Int)] {
        let all = [("10", 10, 200), ("1k", 1_000, 100), ("100k", 100_000, 10), ("1m", 1_000_000, 3)]
        switch mode {
        case .quick: return Array(all.prefix(2))
        case .standard: return Array(all.prefix(3))
        case .full: return all
        }
    }

    @MainActor
    static func groups(_ mode: BenchmarkMode, _ only: Set<String>?) -> [BenchmarkGroup] {
        var groups: [BenchmarkGroup] = []
        for (size, count, iterations) in sizes(mode) {
            let rows = (0..<count).map(Row.init)
            for operation in Operation.allCases {
                let scenario = "\(size)-\(operation.rawValue)"
                guard only?.contains(scenario) ?? true else { continue }
                let tasks = Engine.allCases.map { engine in
                    let fixture = Fixture<Harness>()
                    return BenchmarkTask(
                        suite: "screen", scenario: scenario, element: "row", engine: engine.rawValue, n: count,
                        elements: 1,
                        body: { MainActor.assumeIsolated { fixture.value!.event(operation) } },
                        prepare: {
                            MainActor.assumeIsolated {
                                fixture.value?.checkCaughtUp()
                                fixture.value = nil
                                fixture.value = Harness(engine, rows: rows)
                            }
                        },
                        iterations: operation.iterations(iterations, rows: count))
                }
                groups.append(BenchmarkGroup(tasks: tasks))
            }
        }
        return groups
    }

    /// Per screen: the time per one-row event at `100k` ÷ at `1k` (bound ≤ 2×), and at `10` the
    /// screen ÷ the floor (bound ≤ 20×).
    static func summarize(_ results: [BenchmarkResult]) -> [String] {
        func median(_ scenario: String, _ engine: Engine) -> Double? {
            results.first { $0.task.scenario == scenario && $0.task.engine == engine.rawValue }
                .map { Double($0.medianNanoseconds) }
        }
        var lines: [String] = []
        for engine in [Engine.table, .collection] {
            var growth: [String] = []
            var floor: [String] = []
            for operation in Operation.oneRow {
                if let small = median("1k-\(operation.rawValue)", engine),
                    let large = median("100k-\(operation.rawValue)", engine), small > 0
                {
                    growth.append("\(operation.rawValue) \(BenchmarkReport.format(large / small))×")
                }
                if let screen = median("10-\(operation.rawValue)", engine),
                    let bare = median("10-\(operation.rawValue)", .floor), bare > 0
                {
                    floor.append("\(operation.rawValue) \(BenchmarkReport.format(screen / bare))×")
                }
            }
            if !growth.isEmpty {
                lines.append(
                    "\(engine.rawValue): time per event at `100k` ÷ at `1k` (bound ≤ 2×): "
                        + growth.joined(separator: ", "))
            }
            if !floor.isEmpty {
                lines.append(
                    "\(engine.rawValue): at `10` rows, time per event ÷ the floor's (bound ≤ 20×): "
                        + floor.joined(separator: ", "))
            }
        }
        return lines
    }

    /// A cell that shows a row.
    final class RowCell: HeadlessCell<Row> {}

    /// One engine's screen over a fresh collection, and the events a test makes on it.
    @MainActor
    final class Harness {
        let collection: ObservableCollection<Row>
        private let settle: () -> Void
        private let caughtUp: () -> String?
        private var count: Int
        private var nextID: Int

        /// A screen of `rows`, rendered and laid out before it returns.
        init(_ engine: Engine, rows: [Row]) {
            let collection = ObservableCollection(rows)
            self.collection = collection
            count = rows.count
            nextID = rows.count
            switch engine {
            case .table:
                let screen = HeadlessTableScreen(collection: collection)
                screen.register(RowCell.self)
                settle = { screen.settle() }
                caughtUp = { Self.trouble(screen.tableView.violations.map(\.message) + screen.unsettledWork) }
            case .collection:
                let screen = HeadlessCollectionScreen(collection: collection)
                screen.register(RowCell.self)
                settle = { screen.settle() }
                caughtUp = { Self.trouble(screen.collectionView.violations.map(\.message) + screen.unsettledWork) }
            case .floor:
                let view = CountingListView()
                let source = TableViewSource(view: view, collection: collection)
                settle = { MainQueue.drain() }
                caughtUp = {
                    // The source holds its view weakly, as UIKit's views hold their data sources.
                    withExtendedLifetime(view) {}
                    return source.renderedVersion == collection.version
                        ? nil : "rendered \(source.renderedVersion) of \(collection.version)"
                }
            }
            settle()
        }

        /// Traps unless the screen showed every event without a violation.
        func checkCaughtUp() {
            if let trouble = caughtUp() { fatalError("the screen did not show every event: \(trouble)") }
        }

        /// The problems, joined, or `nil` when there is none.
        private static func trouble(_ problems: [String]) -> String? {
            problems.isEmpty ? nil : problems.joined(separator: "; ")
        }

        /// One event: the mutation, then the screen settled.
        @inline(never)
        func event(_ operation: Operation) -> Int? {
            switch operation {
            case .append, .update, .remove:
                LiveBenchmarks.mutate(
                    collection, LiveBenchmarks.Operation(rawValue: operation.rawValue)!, count: &count, nextID: &nextID)
            case .batch:
                let changed = max(1, count / 100)
                let stride = max(1, count / changed)
                collection.performBatchUpdates {
                    for offset in (0..<changed).reversed() {
                        _ = collection.remove(at: min(offset * stride, collection.count - 1))
                    }
                    for offset in 0..<changed {
                        collection.insert(Row(id: nextID), at: min(offset * stride, collection.count))
                        nextID += 1
                    }
                }
            case .replace:
                var rows = Array(collection.snapshot)
                rows.remove(at: count / 2)
                rows.append(Row(id: nextID))
                nextID += 1
                collection.replace(with: rows)
            }
            settle()
            return nil
        }
    }
}
#endif
