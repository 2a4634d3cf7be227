import RippleDiff

/// The `diff` suite: RippleDiff's staged diff against a one-pass `Dictionary` floor and the
/// standard library's `difference(from:).inferringMoves()`.
enum DiffBenchmarks {
    static let suite = BenchmarkSuite(
        name: "diff",
        summary: "flat staged diff (`ripple`) vs one `Dictionary` pass (`floor`) vs `difference(from:).inferringMoves()` (`stdlib`)",
        makeGroups: groups(quick:),
        summarize: scaling(of:))

    /// The largest size at which the standard library's diff is measured.
    static let stdlibLimit = 100_000

    struct Scenario {
        var name: String
        var shape: ChangeShape
        /// `changed`: the shape above; `nochange`: target equals source; `replaced`: every identifier new.
        var kind: Kind
        enum Kind { case changed, nochange, replaced }
    }

    static func scenarios(quick: Bool) -> [Scenario] {
        if quick {
            return [
                Scenario(name: "5k", shape: ChangeShape(count: 5_000, deleted: 1_000, inserted: 1_000, shuffled: 200), kind: .changed),
                Scenario(name: "5k-nochange", shape: ChangeShape(count: 5_000, deleted: 0, inserted: 0, shuffled: 0), kind: .nochange),
                Scenario(name: "5k-replaced", shape: ChangeShape(count: 5_000, deleted: 0, inserted: 0, shuffled: 0), kind: .replaced),
            ]
        }
        return [
            Scenario(name: "5k", shape: ChangeShape(count: 5_000, deleted: 1_000, inserted: 1_000, shuffled: 200), kind: .changed),
            Scenario(name: "10k", shape: ChangeShape(count: 10_000, deleted: 1_000, inserted: 1_000, shuffled: 200), kind: .changed),
            Scenario(name: "100k", shape: ChangeShape(count: 100_000, deleted: 10_000, inserted: 10_000, shuffled: 2_000), kind: .changed),
            Scenario(name: "1m", shape: ChangeShape(count: 1_000_000, deleted: 100_000, inserted: 100_000, shuffled: 20_000), kind: .changed),
            Scenario(name: "100k-nochange", shape: ChangeShape(count: 100_000, deleted: 0, inserted: 0, shuffled: 0), kind: .nochange),
            Scenario(name: "100k-replaced", shape: ChangeShape(count: 100_000, deleted: 0, inserted: 0, shuffled: 0), kind: .replaced),
        ]
    }

    /// The scaling target: the time per element at `1m` divided by the time per element at `10k`
    /// (at most 1.5× for `ripple`), for each engine and element kind measured at both.
    static func scaling(of results: [BenchmarkResult]) -> [String] {
        func perElement(_ scenario: String, _ element: String, _ engine: String) -> Double? {
            results.first { $0.task.scenario == scenario && $0.task.element == element && $0.task.engine == engine }
                .map { Double($0.medianNanoseconds) / Double($0.task.n) }
        }
        var parts: [String] = []
        for engine in ["ripple", "floor"] {
            for element in ["int", "uuid"] {
                guard let small = perElement("10k", element, engine), let large = perElement("1m", element, engine), small > 0
                else { continue }
                parts.append("`\(engine)` \(element) \(BenchmarkReport.format(large / small))×")
            }
        }
        guard !parts.isEmpty else { return [] }
        return ["scaling, time per element at `1m` ÷ at `10k` (target for `ripple`: ≤ 1.5×): " + parts.joined(separator: ", ")]
    }

    static func groups(quick: Bool) -> [BenchmarkGroup] {
        scenarios(quick: quick).flatMap { scenario in
            [
                group(scenario, element: "int", make: { _, offset in IntElement(id: offset, content: 0) }, copy: { $0 }),
                group(
                    scenario, element: "uuid",
                    make: { random, _ in UUIDElement(id: uuidString(&random), content: 0) },
                    copy: { UUIDElement(id: String(decoding: Array($0.id.utf8), as: UTF8.self), content: $0.content) }),
            ]
        }
    }

    /// Builds one scenario's inputs and its engines.
    ///
    /// The target is always a fresh array, and its strings are fresh copies, as when a refresh decodes
    /// the same rows from the network: no engine can win by noticing shared storage.
    static func group<Element: Identifiable & Equatable>(
        _ scenario: Scenario,
        element: String,
        make: (inout BenchmarkRandom, Int) -> Element,
        copy: (Element) -> Element
    ) -> BenchmarkGroup {
        var (source, target) = scenario.shape.make(seed: 0x5EED, newID: make)
        switch scenario.kind {
        case .changed: target = target.map(copy)
        case .nochange: target = source.map(copy)
        case .replaced:
            var random = BenchmarkRandom(seed: 0xFACE)
            target = (0..<source.count).map { make(&random, source.count + $0) }
        }
        let sourceIDs = source.map(\.id)
        let targetIDs = target.map(\.id)
        let n = scenario.shape.count
        func task(_ engine: String, _ body: @escaping () -> Int?) -> BenchmarkTask {
            BenchmarkTask(suite: "diff", scenario: scenario.name, element: element, engine: engine, n: n, body: body)
        }
        var tasks = [
            task("ripple") {
                let staged = StagedChangeset(from: source, to: target)
                blackHole(staged)
                return staged.stages.reduce(0) { $0 + $1.changeset.moves.count }
            },
            task("floor") {
                var table = [Element.ID: Int](minimumCapacity: source.count)
                for (offset, element) in source.enumerated() { table[element.id] = offset }
                var found = 0
                for element in target where table[element.id] != nil { found &+= 1 }
                blackHole(found)
                return nil
            },
        ]
        var skipped: [(engine: String, reason: String)] = []
        if scenario.kind == .replaced {
            skipped.append(("stdlib", "`stdlib` skipped at `\(scenario.name)`: Myers' algorithm is quadratic when every element changed"))
        } else if n > stdlibLimit {
            skipped.append(("stdlib", "`stdlib` skipped at `\(scenario.name)`: above \(stdlibLimit) elements it takes minutes"))
        } else {
            tasks.append(
                task("stdlib") {
                    let difference = targetIDs.difference(from: sourceIDs).inferringMoves()
                    var moves = 0
                    for change in difference {
                        if case .insert(_, _, let associated) = change, associated != nil { moves += 1 }
                    }
                    return moves
                })
        }
        var notes: [String] = []
        if n >= memoryScenarioSize, scenario.kind == .changed {
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

    /// The smallest scenario whose peak memory the suite reports.
    static let memoryScenarioSize = 100_000
}
