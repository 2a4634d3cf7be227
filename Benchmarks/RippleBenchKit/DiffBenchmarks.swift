import RippleDiff

/// The `diff` suite: RippleDiff's staged diff against a one-pass `Dictionary` floor and the
/// standard library's `difference(from:).inferringMoves()`.
///
/// Scenarios:
/// - `5k`, `10k`, `100k`, `1m`: DifferenceKit's benchmark shape (one block of 10% deleted at 20%,
///   one block of 10% inserted at 30%, the first 2% shuffled). Its long unchanged suffix is trimmed
///   without hashing, which flatters the ratio to `floor`.
/// - `10k-scattered`, `100k-scattered`, `1m-scattered`: 10% deletes and 10% inserts at random
///   positions, 1% moved, 5% content updates, so that nearly nothing is left to trim.
/// - `200-small`: 200 rows with 3 inserts, 2 deletes, 5 updates and 1 move at random positions,
///   the typical screen refresh; each sample times 1,000 diffs.
/// - `10k-dups`: 10,000 rows whose identifiers are drawn from 2,000, with the scattered edit
///   (inserted rows draw from the same 2,000).
/// - `100k-reversed`: the same rows in reverse order.
/// - `100k-nochange`: an equal list; `100k-replaced`: every identifier new.
enum DiffBenchmarks {
    static let suite = BenchmarkSuite(
        name: "diff",
        summary:
            "flat staged diff (`ripple`) vs one `Dictionary` pass (`floor`) vs `difference(from:).inferringMoves()` (`stdlib`)",
        makeGroups: groups(mode:scenarios:),
        summarize: summarize(_:))

    /// The largest size at which the standard library's diff is measured: 100,000 in the full
    /// run, where it takes seconds per run; 10,000 in the others, where it takes milliseconds.
    static func stdlibLimit(_ mode: BenchmarkMode) -> Int {
        mode == .full ? fullStdlibLimit : 10_000
    }

    static let fullStdlibLimit = 100_000

    struct Scenario {
        var name: String
        var count: Int
        var kind: Kind
        /// Diffs per timed sample, for lists too small to time one at a time.
        var iterations = 1

        enum Kind {
            /// DifferenceKit's shape.
            case changed(ChangeShape)
            /// The target equals the source.
            case nochange
            /// Every identifier is new.
            case replaced
            /// A scattered edit; identifiers drawn from `0..<distinct` when it is set, otherwise unique.
            case scattered(ScatteredEdit, distinct: Int?)
            /// The source in reverse order.
            case reversed
        }

        /// Whether the suite reports the diff's peak memory here (from ``memoryScenarioSize`` up).
        var reportsMemory: Bool {
            switch kind {
            case .changed, .scattered: return true
            default: return false
            }
        }

        /// Whether the target equals the source.
        var isUnchanged: Bool {
            if case .nochange = kind { return true }
            return false
        }

        /// Whether the standard library's diff is quadratic here.
        var stdlibIsQuadratic: Bool {
            switch kind {
            case .replaced, .reversed: return true
            default: return false
            }
        }
    }

    static func scenarios(quick: Bool) -> [Scenario] {
        func changed(_ name: String, _ count: Int) -> Scenario {
            Scenario(
                name: name, count: count,
                kind: .changed(
                    ChangeShape(count: count, deleted: count / 10, inserted: count / 10, shuffled: count / 50)))
        }
        func scattered(_ name: String, _ count: Int) -> Scenario {
            Scenario(name: name, count: count, kind: .scattered(.proportional(count), distinct: nil))
        }
        let small = Scenario(
            name: "200-small", count: 200,
            kind: .scattered(ScatteredEdit(deleted: 2, inserted: 3, moved: 1, updated: 5), distinct: nil),
            iterations: 1_000)
        let dups = Scenario(name: "10k-dups", count: 10_000, kind: .scattered(.proportional(10_000), distinct: 2_000))
        if quick {
            return [
                changed("5k", 5_000),
                scattered("5k-scattered", 5_000),
                Scenario(name: "200-small", count: 200, kind: small.kind, iterations: 100),
                dups,
                Scenario(name: "5k-reversed", count: 5_000, kind: .reversed),
                Scenario(name: "5k-nochange", count: 5_000, kind: .nochange),
                Scenario(name: "5k-replaced", count: 5_000, kind: .replaced),
            ]
        }
        return [
            changed("5k", 5_000),
            changed("10k", 10_000),
            changed("100k", 100_000),
            changed("1m", 1_000_000),
            scattered("10k-scattered", 10_000),
            scattered("100k-scattered", 100_000),
            scattered("1m-scattered", 1_000_000),
            small,
            dups,
            Scenario(name: "100k-reversed", count: 100_000, kind: .reversed),
            Scenario(name: "100k-nochange", count: 100_000, kind: .nochange),
            Scenario(name: "100k-replaced", count: 100_000, kind: .replaced),
        ]
    }

    /// Builds a scenario's rows, the same for every element kind.
    static func rows(_ scenario: Scenario) -> (source: [Row], target: [Row]) {
        let count = scenario.count
        var random = BenchmarkRandom(seed: 0x5EED)
        switch scenario.kind {
        case .changed(let shape):
            return shape.make(seed: 0x5EED) { _, offset in Row(id: offset, content: 0) }
        case .nochange:
            let source = (0..<count).map { Row(id: $0, content: 0) }
            return (source, source)
        case .replaced:
            return ((0..<count).map { Row(id: $0, content: 0) }, (count..<(2 * count)).map { Row(id: $0, content: 0) })
        case .reversed:
            let source = (0..<count).map { Row(id: $0, content: 0) }
            return (source, source.reversed())
        case .scattered(let edit, let distinct):
            if let distinct {
                let source = (0..<count).map { _ in Row(id: Int.random(in: 0..<distinct, using: &random), content: 0) }
                let target = edit.apply(to: source, using: &random) { Int.random(in: 0..<distinct, using: &$0) }
                return (source, target)
            }
            let source = (0..<count).map { Row(id: $0, content: 0) }
            var nextID = count
            let target = edit.apply(to: source, using: &random) { _ in
                defer { nextID += 1 }
                return nextID
            }
            return (source, target)
        }
    }

    static func groups(mode: BenchmarkMode, scenarios only: Set<String>?) -> [BenchmarkGroup] {
        scenarios(quick: mode == .quick).filter { only?.contains($0.name) ?? true }.flatMap { scenario in
            let (source, target) = rows(scenario)
            let largest = (source + target).map(\.id).max() ?? 0
            // One string per identifier number; the source shares them, the target gets fresh copies.
            let uuids = (0...largest).map { uuidString(number: $0) }
            return [
                group(
                    scenario, element: "int", stdlibLimit: stdlibLimit(mode),
                    source: source.map { IntElement(id: $0.id, content: $0.content) },
                    target: target.map { IntElement(id: $0.id, content: $0.content) }),
                group(
                    scenario, element: "uuid", stdlibLimit: stdlibLimit(mode),
                    source: source.map { UUIDElement(id: uuids[$0.id], content: $0.content) },
                    target: target.map {
                        UUIDElement(id: String(decoding: Array(uuids[$0.id].utf8), as: UTF8.self), content: $0.content)
                    }),
            ]
        }
    }

    /// Builds one scenario's engines on one element kind.
    ///
    /// The target is always a fresh array, and its strings are fresh copies, as when a refresh decodes
    /// the same rows from the network: no engine can win by noticing shared storage.
    static func group<Element: Identifiable & Equatable>(
        _ scenario: Scenario, element: String, stdlibLimit: Int, source: [Element], target: [Element]
    ) -> BenchmarkGroup {
        let sourceIDs = source.map(\.id)
        let targetIDs = target.map(\.id)
        let n = scenario.count
        func task(_ engine: String, _ body: @escaping () -> Int?) -> BenchmarkTask {
            BenchmarkTask(
                suite: "diff", scenario: scenario.name, element: element, engine: engine, n: n,
                elements: source.count + target.count, body: body, iterations: scenario.iterations)
        }
        var tasks = [
            task("ripple") { rippleEngine(source, target) },
            task("floor") { floorEngine(source, target) },
        ]
        var skipped: [(engine: String, reason: String)] = []
        if scenario.stdlibIsQuadratic {
            skipped.append(
                (
                    "stdlib",
                    "`stdlib` skipped at `\(scenario.name)`: Myers' algorithm is quadratic when every element changed or moved"
                ))
        } else if n > (scenario.isUnchanged ? fullStdlibLimit : stdlibLimit) {
            // An unchanged list costs `stdlib` one pass, so it runs there up to the full limit.
            skipped.append(
                stdlibLimit < fullStdlibLimit
                    ? (
                        "stdlib",
                        "`stdlib` skipped at `\(scenario.name)`: above 10,000 elements it takes seconds per run (`--full` measures it up to 100,000)"
                    )
                    : ("stdlib", "`stdlib` skipped at `\(scenario.name)`: above 100,000 elements it takes minutes"))
        } else {
            tasks.append(
                task("stdlib") { stdlibEngine(sourceIDs, targetIDs) })
        }
        var notes: [String] = []
        if n >= memoryScenarioSize, scenario.reportsMemory {
            // The memory target: peak memory beyond the inputs, per element, for the diff alone and
            // staged. One run each, outside the timed ones.
            let diff = MemoryProbe.peakGrowth { blackHole(Changeset(from: source, to: target)) }
            let staged = MemoryProbe.peakGrowth { blackHole(StagedChangeset(from: source, to: target)) }
            if let diff, let staged {
                notes.append(
                    "memory at `\(scenario.name)` \(element) (target: < 64 bytes per element beyond the inputs): "
                        + "`Changeset` peak \(diff / n) bytes per element, `StagedChangeset` \(staged / n)")
            }
        }
        return BenchmarkGroup(tasks: tasks, skipped: skipped, notes: notes)
    }

    // The engines are functions of their own, never inlined, so that a profiler can name them:
    // `valgrind --tool=callgrind --toggle-collect='*rippleEngine*' ripple-bench --suite diff …`.

    /// `ripple`: the staged diff. Returns the moves of every stage.
    @inline(never)
    static func rippleEngine<Element: Identifiable & Equatable>(_ source: [Element], _ target: [Element]) -> Int? {
        let staged = StagedChangeset(from: source, to: target)
        blackHole(staged)
        return staged.stages.reduce(0) { $0 + $1.changeset.moves.count }
    }

    /// `floor`: a `Dictionary` of the source identifiers, looked up with each target identifier.
    @inline(never)
    static func floorEngine<Element: Identifiable>(_ source: [Element], _ target: [Element]) -> Int? {
        var table = [Element.ID: Int](minimumCapacity: source.count)
        for (offset, element) in source.enumerated() { table[element.id] = offset }
        var found = 0
        for element in target where table[element.id] != nil { found &+= 1 }
        blackHole(found)
        return nil
    }

    /// `stdlib`: `difference(from:).inferringMoves()` of the identifiers. Returns the inferred moves.
    @inline(never)
    static func stdlibEngine<ID: Hashable>(_ sourceIDs: [ID], _ targetIDs: [ID]) -> Int? {
        let difference = targetIDs.difference(from: sourceIDs).inferringMoves()
        var moves = 0
        for change in difference {
            if case .insert(_, _, let associated) = change, associated != nil { moves += 1 }
        }
        return moves
    }

    /// The smallest scenario whose peak memory the suite reports.
    static let memoryScenarioSize = 100_000

    /// The lines under the suite's table: the bounds on `ripple`'s ratio to `floor`, the moves in
    /// `10k-dups` against `stdlib`'s, and the scaling from `10k` to `1m`.
    static func summarize(_ results: [BenchmarkResult]) -> [String] {
        bounds(of: results) + dupsMoves(of: results) + scaling(of: results)
    }

    /// `ripple` ÷ `floor` in every scenario and element kind with at least 200 elements: at most
    /// 1.0×, and at most 1.5× in `dups`.
    static func bounds(of results: [BenchmarkResult]) -> [String] {
        var worst: (ratio: Double, where: String)?
        var dups: [String] = []
        for result in results where result.task.engine == "ripple" && result.task.n >= 200 {
            guard
                let floor = results.first(where: {
                    $0.task.engine == "floor" && $0.task.scenario == result.task.scenario
                        && $0.task.element == result.task.element
                }), floor.medianNanoseconds > 0
            else { continue }
            let ratio = Double(result.medianNanoseconds) / Double(floor.medianNanoseconds)
            if result.task.scenario.hasSuffix("dups") {
                dups.append("\(result.task.element) \(BenchmarkReport.format(ratio))×")
            } else if worst == nil || ratio > worst!.ratio {
                worst = (ratio, "`\(result.task.scenario)` \(result.task.element)")
            }
        }
        var lines: [String] = []
        if let worst {
            lines.append(
                "`ripple` ÷ `floor`, largest outside `dups` (target ≤ 1.0×): \(BenchmarkReport.format(worst.ratio))× at \(worst.where)"
            )
        }
        if !dups.isEmpty {
            lines.append("`ripple` ÷ `floor` in `dups` (target ≤ 1.5×): " + dups.joined(separator: ", "))
        }
        return lines
    }

    /// The moves `ripple` reports in the `dups` scenario against `stdlib`'s (target: at most 1.25×).
    static func dupsMoves(of results: [BenchmarkResult]) -> [String] {
        var parts: [String] = []
        for element in ["int", "uuid"] {
            func moves(_ engine: String) -> Int? {
                results.first {
                    $0.task.scenario.hasSuffix("dups") && $0.task.element == element && $0.task.engine == engine
                }?.moves
            }
            guard let ripple = moves("ripple"), let stdlib = moves("stdlib") else { continue }
            let ratio = stdlib == 0 ? "–" : BenchmarkReport.format(Double(ripple) / Double(stdlib)) + "×"
            parts.append("\(element) \(ripple) vs \(stdlib) (\(ratio))")
        }
        guard !parts.isEmpty else { return [] }
        return ["moves in `dups`, `ripple` vs `stdlib` (target ≤ 1.25×): " + parts.joined(separator: ", ")]
    }

    /// The scaling target: the time per element at `1m` divided by the time per element at `10k`
    /// (at most 1.5× for `ripple`), for each engine and element kind measured at both.
    static func scaling(of results: [BenchmarkResult]) -> [String] {
        func perElement(_ scenario: String, _ element: String, _ engine: String) -> Double? {
            results.first { $0.task.scenario == scenario && $0.task.element == element && $0.task.engine == engine }
                .map { Double($0.medianNanoseconds) / Double($0.task.n) }
        }
        var lines: [String] = []
        for (small, large) in [("10k", "1m"), ("10k-scattered", "1m-scattered")] {
            var parts: [String] = []
            for engine in ["ripple", "floor"] {
                for element in ["int", "uuid"] {
                    guard let perSmall = perElement(small, element, engine),
                        let perLarge = perElement(large, element, engine),
                        perSmall > 0
                    else { continue }
                    parts.append("`\(engine)` \(element) \(BenchmarkReport.format(perLarge / perSmall))×")
                }
            }
            if !parts.isEmpty {
                lines.append(
                    "scaling, time per element at `\(large)` ÷ at `\(small)` (target for `ripple`: ≤ 1.5×): "
                        + parts.joined(separator: ", "))
            }
        }
        return lines
    }
}
