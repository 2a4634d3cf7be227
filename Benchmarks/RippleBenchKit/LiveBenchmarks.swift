import Ripple
import RippleDiff

/// The `live` suite: what a screen pays per event (issue 23, item 3). An `ObservableCollection` of
/// rows with a `TableViewSource` on a ``CountingListView`` (the source's logic, UIKit's batch
/// calls, a view that only keeps its counts), at 1,000 to 1,000,000 rows.
///
/// Each event is one mutation, then the main queue drained until the source has rendered it (one
/// `performBatchUpdates`), before the next: an append, an update of the row in the middle, or a
/// removal of the row in the middle. Engine `ripple` only: there is no baseline engine; the
/// summary prints the time per event at `1m` ÷ at `1k` (target: ≤ 3×).
///
/// A note under the table gives the memory held by the collection, the source and two
/// subscribers that each keep the latest snapshot, after ``memoryAppends`` appends to 1,000,000
/// rows, against one `Array` of the same rows.
///
/// The collection keeps a `ListSnapshot`, which every event's snapshot, the source's rendered list
/// and the subscribers' copies share: a mutation copies the nodes on its path, not the list.
/// (While it kept an `Array`, the first mutation after an event copied the whole list; see
/// `docs/performance.md` for the figures before and after.)
enum LiveBenchmarks {
    static let suite = BenchmarkSuite(
        name: "live",
        summary: "`ObservableCollection` with a `TableViewSource` on a counting view: one mutation and its rendered "
            + "batch, per event (`ripple`)",
        makeGroups: { mode, scenarios in groups(mode, scenarios) },
        summarize: { summarize($0) },
        defaultModes: [.full])

    /// A row of the screen: an identifier and what a cell shows (a title short enough to be stored
    /// inline, so that copying rows allocates nothing beyond the array).
    struct Row: Identifiable, Equatable, Sendable {
        var id: Int
        var title: String
        var revision: Int

        init(id: Int) {
            self.id = id
            title = "Row \(id)"
            revision = 0
        }
    }

    /// One event's mutation.
    enum Operation: String, CaseIterable {
        /// `append` of a new row.
        case append
        /// An update of the row in the middle (its revision + 1), through the subscript.
        case update
        /// `remove(at:)` of the row in the middle.
        case remove
    }

    /// One scenario: the list's size and the mutation of each event.
    struct Scenario: Equatable {
        var size: String
        var count: Int
        var operation: Operation
        /// Events per timed run: more where one event is too short to time alone.
        var iterations: Int

        /// `1k-append`, `1m-remove`, …
        var name: String { "\(size)-\(operation.rawValue)" }
    }

    /// The sizes of a mode with their events per timed run; `--quick` only up to 10,000 rows.
    static func sizes(_ mode: BenchmarkMode) -> [(size: String, count: Int, iterations: Int)] {
        let all = [("1k", 1_000, 100), ("10k", 10_000, 50), ("100k", 100_000, 10), ("1m", 1_000_000, 3)]
        return mode == .quick ? Array(all.prefix(2)) : all
    }

    /// Every scenario of a mode, size by size: append, update, remove.
    static func scenarios(_ mode: BenchmarkMode) -> [Scenario] {
        sizes(mode).flatMap { size, count, iterations in
            Operation.allCases.map { Scenario(size: size, count: count, operation: $0, iterations: iterations) }
        }
    }

    /// Appends before the memory is read, and the rows they are made to.
    static let memoryAppends = 10_000
    static let memoryRows = 1_000_000
    /// The appends of the memory note made in one event: one, as a screen makes them. (Before
    /// the storage was a `ListSnapshot`, one event at 1m cost about 20 ms, and the note made 100
    /// events of 100 appends instead.)
    static let memoryAppendsPerEvent = 1

    @MainActor
    static func groups(_ mode: BenchmarkMode, _ only: Set<String>?) -> [BenchmarkGroup] {
        let chosen = scenarios(mode).filter { only?.contains($0.name) ?? true }
        var rowsBySize: [Int: [Row]] = [:]
        var groups = chosen.map { scenario in
            let rows = rowsBySize[scenario.count] ?? (0..<scenario.count).map(Row.init)
            rowsBySize[scenario.count] = rows
            let screen = Fixture<Screen>()
            return BenchmarkGroup(tasks: [
                BenchmarkTask(
                    suite: "live", scenario: scenario.name, element: "row", engine: "ripple", n: scenario.count,
                    elements: 1,
                    body: { MainActor.assumeIsolated { screen.value!.event(scenario.operation) } },
                    prepare: {
                        MainActor.assumeIsolated {
                            if let previous = screen.value {
                                precondition(
                                    previous.isCaughtUp, "the source must have rendered every event as one batch")
                            }
                            screen.value = nil
                            screen.value = Screen(rows)
                        }
                    },
                    iterations: scenario.iterations)
            ])
        }
        rowsBySize = [:]
        if mode != .quick, !groups.isEmpty, only == nil || only!.contains(where: { $0.hasPrefix("1m-") }) {
            groups[groups.count - 1].notes.append(memoryNote(rows: memoryRows, appends: memoryAppends))
        }
        return groups
    }

    /// The time per event at `1m` ÷ at `1k`, per operation (target: ≤ 3×).
    static func summarize(_ results: [BenchmarkResult]) -> [String] {
        var parts: [String] = []
        for operation in Operation.allCases {
            func median(_ size: String) -> Int64? {
                results.first { $0.task.scenario == "\(size)-\(operation.rawValue)" && $0.task.engine == "ripple" }?
                    .medianNanoseconds
            }
            guard let small = median("1k"), let large = median("1m"), small > 0 else { continue }
            parts.append("\(operation.rawValue) \(BenchmarkReport.format(Double(large) / Double(small)))×")
        }
        guard !parts.isEmpty else { return [] }
        return ["time per event at `1m` ÷ at `1k` (target: ≤ 3×): " + parts.joined(separator: ", ")]
    }

    /// The memory note: the bytes held by a screen of `rows` rows after `appends` appends, with
    /// two subscribers keeping the latest snapshot, against one `Array` of the same rows.
    @MainActor
    static func memoryNote(rows: Int, appends: Int) -> String {
        let events = appends / memoryAppendsPerEvent
        let what =
            "resident memory held by the collection, the source and two subscribers that each keep the latest snapshot, "
            + "after \(appends.withSeparators) appends to \(rows.withSeparators) rows"
            + (memoryAppendsPerEvent == 1
                ? "" : " (\(events.withSeparators) events of \(memoryAppendsPerEvent) appends)")
        var screen: Screen?
        guard
            let held = MemoryProbe.heldGrowth({
                let made = Screen((0..<rows).map(Row.init), subscribers: 2)
                for _ in 0..<events { made.appendBatch(memoryAppendsPerEvent) }
                precondition(made.isCaughtUp, "the source and the subscribers must have taken every append")
                screen = made
            })
        else { return "\(what): not measured on this platform" }
        let count = screen!.count
        screen = nil
        var array: [Row]?
        guard let arrayBytes = MemoryProbe.heldGrowth({ array = (0..<count).map(Row.init) }) else {
            return "\(what): not measured on this platform"
        }
        withExtendedLifetime(array) {}
        let ratio = arrayBytes > 0 ? BenchmarkReport.format(Double(held) / Double(arrayBytes)) + "×" : "–"
        return
            "\(what): \(BenchmarkReport.bytes(held)), against \(BenchmarkReport.bytes(arrayBytes)) for one `Array` of the same "
            + "\(count.withSeparators) rows (\(MemoryLayout<Row>.stride) bytes each): \(ratio)"
    }

    /// One event's mutation of `collection`, which has `count` rows and makes new rows from
    /// `nextID` on: the suites `live` and `screen` share it.
    static func mutate(
        _ collection: ObservableCollection<Row>, _ operation: Operation, count: inout Int, nextID: inout Int
    ) {
        switch operation {
        case .append:
            collection.append(Row(id: nextID))
            nextID += 1
            count += 1
        case .update:
            let middle = count / 2
            var row = collection[middle]
            row.revision += 1
            collection[middle] = row
        case .remove:
            _ = collection.remove(at: count / 2)
            count -= 1
        }
    }

    /// A screen: the collection, its source on a counting view, and optional subscribers that keep
    /// the latest snapshot, as presenters do.
    @MainActor
    final class Screen {
        let collection: ObservableCollection<Row>
        let view = CountingListView()
        let source: TableViewSource<Row>
        /// The latest snapshot each subscriber received, and its version.
        private(set) var kept: [(snapshot: ListSnapshot<Row>, version: Int)]
        private var tokens: [SubscriptionToken] = []
        private(set) var count: Int
        private var nextID: Int

        /// A screen of `rows`, rendered (the source's first `reloadData()`) before it returns.
        init(_ rows: [Row], subscribers: Int = 0) {
            collection = ObservableCollection(rows)
            source = TableViewSource(view: view, collection: collection)
            kept = Array(repeating: ([], 0), count: subscribers)
            count = rows.count
            nextID = rows.count
            for index in 0..<subscribers {
                tokens.append(
                    collection.subscribe { [unowned self] change in kept[index] = (change.snapshot, change.version) })
            }
            MainQueue.drain()
            precondition(view.reloads == 1, "the source must have shown the rows")
        }

        /// One event: the mutation, then the main queue drained, the source's (and every
        /// subscriber's) delivery of the event included.
        @inline(never)
        func event(_ operation: Operation) -> Int? {
            LiveBenchmarks.mutate(collection, operation, count: &count, nextID: &nextID)
            MainQueue.drain()
            return nil
        }

        /// One event of `count` appends, made in one batch, then the main queue drained.
        func appendBatch(_ count: Int) {
            collection.performBatchUpdates {
                for _ in 0..<count {
                    collection.append(Row(id: nextID))
                    nextID += 1
                }
            }
            self.count += count
            MainQueue.drain()
        }

        /// Whether the source and every subscriber have taken every event, each as one batch, or
        /// (an update, which the source shows by reconfiguring its row) one reconfigure.
        var isCaughtUp: Bool {
            let version = collection.version
            return source.renderedVersion == version && kept.allSatisfy { $0.version == version }
                && view.reloads == 1 && view.batches + view.reconfigures == version && view.counts == [count]
        }
    }
}

/// A list view that keeps only its counts: every call a list source makes, with none of UIKit's
/// work, so that the `live` suite times the source's own logic.
@MainActor
final class CountingListView: ListView {
    private(set) var counts: [Int] = []
    /// `reloadData()` calls so far, the source's first rendering included.
    private(set) var reloads = 0
    /// `performBatchUpdates` calls so far.
    private(set) var batches = 0
    /// `reconfigureItems(at:)` calls so far.
    private(set) var reconfigures = 0
    /// Reads the data source's counts, for `reloadData()`.
    private var readCounts: () -> [Int] = { [] }

    var numberOfSections: Int { counts.count }
    func numberOfItems(inSection section: Int) -> Int { counts[section] }
    var isInWindow: Bool { true }

    func reloadData() {
        counts = readCounts()
        reloads += 1
    }

    func performBatchUpdates(_ updates: (() -> Void)?, completion: ((Bool) -> Void)?) {
        batches += 1
        updates?()
        completion?(true)
    }

    func insertSections(_ sections: [Int]) {
        for section in sections.sorted() { counts.insert(0, at: section) }
    }
    func deleteSections(_ sections: [Int]) {
        for section in sections.sorted(by: >) { counts.remove(at: section) }
    }
    func reloadSections(_ sections: [Int]) {}
    func moveSection(_ section: Int, toSection newSection: Int) {
        counts.insert(counts.remove(at: section), at: newSection)
    }

    func insertItems(at paths: [ElementPath]) {
        for path in paths { counts[path.section] += 1 }
    }
    func deleteItems(at paths: [ElementPath]) {
        for path in paths { counts[path.section] -= 1 }
    }
    func reloadItems(at paths: [ElementPath]) {}
    func moveItem(at path: ElementPath, to newPath: ElementPath) {
        counts[path.section] -= 1
        counts[newPath.section] += 1
    }
    func reconfigureItems(at paths: [ElementPath]) { reconfigures += 1 }

    func adoptDataSource<Source: ListDataSource>(_ source: Source) -> AnyObject? {
        readCounts = { [weak source] in
            guard let source else { return [] }
            return (0..<source.numberOfSections).map { source.numberOfItems(inSection: $0) }
        }
        return nil
    }
}

extension Int {
    /// The number with thousands separators: `1,000,000`.
    var withSeparators: String {
        let digits = String(self.magnitude)
        var groups: [Substring] = []
        var end = digits.endIndex
        while end > digits.startIndex {
            let start = digits.index(end, offsetBy: -3, limitedBy: digits.startIndex) ?? digits.startIndex
            groups.insert(digits[start..<end], at: 0)
            end = start
        }
        return (self < 0 ? "-" : "") + groups.joined(separator: ",")
    }
}
