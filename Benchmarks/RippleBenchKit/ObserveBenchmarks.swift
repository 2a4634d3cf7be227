import Ripple

/// The `observe` suite: what one `append` costs a collection followed by an `ObservedList`, the
/// list a SwiftUI view reads (issue 24, item 7), at two sizes of the list.
///
/// Engines, side by side at the same size:
/// - `ripple`: `ObservableCollection.append`, then the main queue drained (``MainQueue/drain()``),
///   which delivers the event to the `ObservedList` (its only subscriber, on the main actor as in
///   an app) and applies it, before the next append;
/// - `array`: `Array.append` plus one closure call, the `publish` suite's baseline.
///
/// Each timed run appends ``appendsPerRun`` elements to a list of the scenario's size, built
/// untimed before the run; the figures are per append. The list's own storage is appended to in
/// place, so the time per append should not grow with the list: the summary prints the ratio from
/// `10k` to `100k` (target ≤ 1.2×).
enum ObserveBenchmarks {
    static let suite = BenchmarkSuite(
        name: "observe",
        summary:
            "`ObservedList` following an `ObservableCollection`, each append delivered on the main actor and applied "
            + "before the next (`ripple`) vs `Array.append` plus one closure call (`array`); per append",
        makeGroups: { mode, _ in groups(mode) },
        summarize: { summarize($0) })

    /// Appends per timed run; the table shows the time per append.
    static let appendsPerRun = 1_000

    /// The list sizes of a mode: `10k-append` and `100k-append`; `--quick` only the first.
    static func scenarios(_ mode: BenchmarkMode) -> [(name: String, count: Int)] {
        let all = [("10k-append", 10_000), ("100k-append", 100_000)]
        return mode == .quick ? Array(all.prefix(1)) : all
    }

    /// One group: both sizes and both engines, measured round-robin, so that the machine's drift
    /// (this machine moves by tens of percent from one second to the next) hits both sizes alike
    /// and the ratio from `10k` to `100k` compares like with like.
    @MainActor
    static func groups(_ mode: BenchmarkMode) -> [BenchmarkGroup] {
        var group = BenchmarkGroup(tasks: [])
        for (name, count) in scenarios(mode) {
            let start = (0..<count).map { IntElement(id: $0, content: 0) }
            func task(_ engine: String, prepare: @escaping () -> Void, _ body: @escaping () -> Int?) -> BenchmarkTask {
                BenchmarkTask(
                    suite: "observe", scenario: name, element: "int", engine: engine, n: count, elements: 1, body: body,
                    prepare: prepare, iterations: appendsPerRun)
            }
            let plain = ArrayFixture(start)
            group.tasks.append(task("array", prepare: { plain.reset() }) { plain.append() })
            if #available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *) {
                let observed = ObservedFixture(start)
                group.tasks.append(
                    task("ripple", prepare: { MainActor.assumeIsolated { observed.reset() } }) {
                        MainActor.assumeIsolated { observed.append() }
                    })
            } else {
                group.skipped = [
                    ("ripple", "`ripple` skipped: `ObservedList` needs iOS 17, macOS 14, tvOS 17 or watchOS 10")
                ]
            }
        }
        return [group]
    }

    /// The time per append at `100k` ÷ at `10k`, for each engine measured at both (target for
    /// `ripple`: ≤ 1.2×).
    static func summarize(_ results: [BenchmarkResult]) -> [String] {
        var parts: [String] = []
        for engine in ["ripple", "array"] {
            func median(_ scenario: String) -> Int64? {
                results.first { $0.task.scenario == scenario && $0.task.engine == engine }?.medianNanoseconds
            }
            guard let small = median("10k-append"), let large = median("100k-append"), small > 0 else { continue }
            parts.append("`\(engine)` \(BenchmarkReport.format(Double(large) / Double(small)))×")
        }
        guard !parts.isEmpty else { return [] }
        return ["time per append at `100k` ÷ at `10k` (target for `ripple`: ≤ 1.2×): " + parts.joined(separator: ", ")]
    }

    /// The `array` engine's state: a fresh array of the scenario's size before each timed run.
    final class ArrayFixture {
        let start: [IntElement]
        var array: [IntElement] = []
        var next = 0
        let observer = Observer()

        init(_ start: [IntElement]) { self.start = start }

        /// A unique copy of the start with room for the run's appends: the timed run appends
        /// and copies nothing.
        func reset() {
            array = start
            array.reserveCapacity(start.count + appendsPerRun)
            next = start.count
        }

        /// `array`: `Array.append` plus one closure call.
        @inline(never)
        func append() -> Int? {
            array.append(IntElement(id: next, content: 0))
            next += 1
            observer.notify(array.count)
            return nil
        }
    }

    /// The `ripple` engine's state: a collection followed by an `ObservedList`, rebuilt before
    /// each timed run.
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @MainActor
    final class ObservedFixture {
        let start: [IntElement]
        var collection = ObservableCollection<IntElement>()
        var list: ObservedList<IntElement>?
        /// Appends since the last reset.
        var appended = 0

        init(_ start: [IntElement]) { self.start = start }

        /// A fresh collection of the start and its list, then two appends, untimed: the first gives
        /// the collection and the list storage of their own (both began as the start's), the
        /// second room to grow, so that the timed appends copy nothing, as the `array` engine's.
        ///
        /// It checks first that the list of the run before applied every append of that run.
        func reset() {
            if let list {
                precondition(
                    list.version == collection.version && list.elements.count == start.count + appended,
                    "the list must have applied every append")
            }
            list = nil
            collection = ObservableCollection(start)
            list = ObservedList(collection)
            appended = 0
            for _ in 0..<2 { _ = append() }
        }

        /// `ripple`: one append, then the main queue drained, the list's event included.
        @inline(never)
        func append() -> Int? {
            collection.append(IntElement(id: start.count + appended, content: 0))
            appended += 1
            MainQueue.drain()
            return nil
        }
    }
}
