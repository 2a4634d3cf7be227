import Ripple
import RippleDiff

/// The `derived` suite: what a derived list costs per source event (issue 45), against the code
/// users write without one: derive the whole list again and `replace(with:)` the shown list.
///
/// The source is an `ObservableCollection` of rows; half of them pass the filter (an even
/// revision). Engine `ripple` follows it with `filtered(by:)` or `mapped(_:updating:)`, engine
/// `recompute` with `shown.replace(with: source.snapshot.filter(…))` or `.map(…)`; each shown list
/// has one synchronous subscriber, so every event is built. Elements, one source event each:
/// - `filter-append`: a new row that passes;
/// - `filter-update`: the middle row's revision + 2 (it still passes, or still does not);
/// - `filter-flip`: the middle row's revision + 1 (it starts or stops passing);
/// - `filter-remove`: the middle row removed;
/// - `filter-predicate`: a new predicate, which alternately leaves out the rows whose identifier
///   is a multiple of 4 and lets them in again (`recompute` replaces the shown list with the same
///   result);
/// - `map-append`, `map-update`, `map-remove`: the same events through a map that gives each row
///   an object (a presenter), made when the row arrives (`recompute` makes one per row per event,
///   and diffs them by `id`).
///
/// The summary prints, for `ripple`, the time per source event at the largest size ÷ at `1k`
/// (target: ≤ 3×), at `100k` ÷ `recompute` (target: ≤ 0.05×), and the predicate change ÷
/// `recompute`'s filter and replace (target: ≤ 2×).
enum DerivedBenchmarks {
    static let suite = BenchmarkSuite(
        name: "derived",
        summary: "a filtered list per source event (`ripple`) against filtering again and `replace(with:)` "
            + "(`recompute`)",
        makeGroups: { mode, scenarios in groups(mode, scenarios) },
        summarize: { summarize($0) },
        defaultModes: [.standard, .full])

    typealias Row = LiveBenchmarks.Row

    /// One source event.
    enum Operation: String, CaseIterable {
        case append = "filter-append"
        case update = "filter-update"
        case flip = "filter-flip"
        case remove = "filter-remove"
        case predicate = "filter-predicate"
        case mapAppend = "map-append"
        case mapUpdate = "map-update"
        case mapRemove = "map-remove"

        /// Whether the event goes through a map (otherwise through a filter).
        var maps: Bool { [.mapAppend, .mapUpdate, .mapRemove].contains(self) }
    }

    /// The object a map gives each row: equal to another for the same row.
    final class Presented: Identifiable, Equatable, Sendable {
        let row: Row
        init(_ row: Row) { self.row = row }
        var id: Int { row.id }
        static func == (lhs: Presented, rhs: Presented) -> Bool { lhs.row == rhs.row }
    }

    /// The sizes of a mode with their events per timed run: `1m` only in `--full`.
    static func sizes(_ mode: BenchmarkMode) -> [(size: String, count: Int, iterations: Int)] {
        let all = [("1k", 1_000, 100), ("100k", 100_000, 10), ("1m", 1_000_000, 3)]
        return mode == .full ? all : Array(all.prefix(mode == .quick ? 1 : 2))
    }

    /// Whether a row passes: an even revision, and, under the narrow predicate, an identifier
    /// that is no multiple of 4.
    static func passes(_ row: Row, narrow: Bool) -> Bool {
        row.revision % 2 == 0 && (!narrow || row.id % 4 != 0)
    }

    @MainActor
    static func groups(_ mode: BenchmarkMode, _ only: Set<String>?) -> [BenchmarkGroup] {
        var groups: [BenchmarkGroup] = []
        for (size, count, iterations) in sizes(mode) where only?.contains(size) ?? true {
            let rows = (0..<count).map { id in
                var row = Row(id: id)
                row.revision = id % 2
                return row
            }
            for operation in Operation.allCases {
                groups.append(
                    BenchmarkGroup(
                        tasks: ["ripple", "recompute"].map { engine in
                            let fixture = Fixture<Screen>()
                            return BenchmarkTask(
                                suite: "derived", scenario: size, element: operation.rawValue, engine: engine,
                                n: count, elements: 1, body: { fixture.value!.event(operation) },
                                prepare: {
                                    fixture.value = nil
                                    fixture.value = Screen(
                                        rows, recomputes: engine == "recompute", maps: operation.maps)
                                },
                                iterations: engine == "recompute" && count > 1_000 ? 1 : iterations)
                        }))
            }
        }
        return groups
    }

    /// The bounds of issue 45 for the filter: per event at the largest size ÷ at `1k`, at `100k`
    /// against `recompute`, and the predicate change against `recompute`'s replace.
    static func summarize(_ results: [BenchmarkResult]) -> [String] {
        func median(_ size: String, _ operation: Operation, _ engine: String) -> Int64? {
            results.first {
                $0.task.scenario == size && $0.task.element == operation.rawValue && $0.task.engine == engine
            }?
            .medianNanoseconds
        }
        let largest = results.contains { $0.task.scenario == "1m" } ? "1m" : "100k"
        var scaling: [String] = []
        var against: [String] = []
        for operation in Operation.allCases {
            // A new predicate costs O(n) by design: only source events must not grow with the list.
            if operation != .predicate, let small = median("1k", operation, "ripple"),
                let large = median(largest, operation, "ripple"), small > 0
            {
                scaling.append("\(operation.rawValue) \(BenchmarkReport.format(Double(large) / Double(small)))×")
            }
            if let ripple = median("100k", operation, "ripple"), let recompute = median("100k", operation, "recompute"),
                recompute > 0
            {
                against.append("\(operation.rawValue) \(BenchmarkReport.format(Double(ripple) / Double(recompute)))×")
            }
        }
        var lines: [String] = []
        if !scaling.isEmpty {
            lines.append(
                "`ripple`, time per event at `\(largest)` ÷ at `1k` (target: ≤ 3×): " + scaling.joined(separator: ", "))
        }
        if !against.isEmpty {
            lines.append(
                "`ripple` ÷ `recompute` at `100k` (target: ≤ 0.05× for source events, ≤ 2× for `filter-predicate`): "
                    + against.joined(separator: ", "))
        }
        return lines
    }

    /// A source and what shows it: a filtered or mapped list, or a collection replaced with the
    /// filtered or mapped source after each event.
    final class Screen {
        let source: ObservableCollection<Row>
        private let filtered: FilteredList<Row>?
        private let shown: ObservableCollection<Row>?
        private let mapped: MappedList<Row, Presented>?
        private let shownMapped: ObservableCollection<Presented>?
        private var token: SubscriptionToken?
        private var narrow = false
        private var count: Int
        private var nextID: Int
        /// The events the shown list published, so that none is skipped for want of a subscriber.
        private let events = Counter()

        init(_ rows: [Row], recomputes: Bool, maps: Bool) {
            source = ObservableCollection(rows)
            count = rows.count
            nextID = rows.count
            let events = events
            let count: @Sendable (CollectionChange<Row>) -> Void = { _ in events.increment() }
            let countMapped: @Sendable (CollectionChange<Presented>) -> Void = { _ in events.increment() }
            shown =
                recomputes && !maps
                ? ObservableCollection(rows.filter { DerivedBenchmarks.passes($0, narrow: false) }) : nil
            filtered = !recomputes && !maps ? source.filtered { DerivedBenchmarks.passes($0, narrow: false) } : nil
            shownMapped = recomputes && maps ? ObservableCollection(rows.map(Presented.init)) : nil
            mapped = !recomputes && maps ? source.mapped { Presented($0) } : nil
            token =
                shown?.subscribe(on: .synchronous, count) ?? filtered?.subscribe(on: .synchronous, count)
                ?? shownMapped?.subscribe(on: .synchronous, countMapped)
                ?? mapped?.subscribe(on: .synchronous, countMapped)
        }

        /// One source event, and what follows it in the shown list.
        func event(_ operation: Operation) -> Int? {
            switch operation {
            case .append, .mapAppend:
                var row = Row(id: nextID)
                row.revision = 0
                source.append(row)
                nextID += 1
                count += 1
            case .update, .flip, .mapUpdate:
                let middle = count / 2
                var row = source[middle]
                row.revision += operation == .update ? 2 : 1
                source[middle] = row
            case .remove, .mapRemove:
                _ = source.remove(at: count / 2)
                count -= 1
            case .predicate:
                narrow.toggle()
                let narrow = narrow
                if let filtered {
                    filtered.setPredicate { DerivedBenchmarks.passes($0, narrow: narrow) }
                } else {
                    recompute()
                }
                return nil
            }
            if shown != nil { recompute() }
            if let shownMapped { shownMapped.replace(with: source.snapshot.map(Presented.init)) }
            return nil
        }

        /// What users write today: filter the whole source, and replace the shown list with it.
        private func recompute() {
            let narrow = narrow
            shown!.replace(with: source.snapshot.filter { DerivedBenchmarks.passes($0, narrow: narrow) })
        }
    }

}
