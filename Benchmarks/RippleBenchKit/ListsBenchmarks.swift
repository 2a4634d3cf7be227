import RippleDiff

/// The `lists` suite: the `diff` suite's engines on the user's own lists (`--lists OLD NEW`).
///
/// Each pair is one scenario, named after its files; its element kind is `int` or `string`, after
/// its identifiers. Under the table, one line per pair gives what the diff found (inserts, deletes,
/// moves, updates, repeated identifiers, stages) and its peak memory.
enum ListsBenchmarks {
    static let summary =
        "your lists: staged diff (`ripple`) vs one `Dictionary` pass (`floor`) vs `difference(from:).inferringMoves()` (`stdlib`)"

    /// `stdlib` runs when both lists together hold at most this many rows …
    static let stdlibRowLimit = 200_000
    /// … and (rows × estimated edit distance) stays under this, so that Myers' O((n + m) · D)
    /// stays within seconds.
    static let stdlibWorkLimit = 400_000_000

    /// The suite for `pairs`.
    static func suite(_ pairs: [BenchmarkListPair]) -> BenchmarkSuite {
        BenchmarkSuite(
            name: "lists", summary: summary,
            makeGroups: { _, scenarios in
                pairs.filter { scenarios?.contains($0.name) ?? true }.map(group(_:))
            })
    }

    static func group(_ pair: BenchmarkListPair) -> BenchmarkGroup {
        switch (pair.old, pair.new) {
        case (.int(let old), .int(let new)): return group(pair.name, element: "int", old, new)
        case (.string(let old), .string(let new)): return group(pair.name, element: "string", old, new)
        default:
            return BenchmarkGroup(
                tasks: [], notes: ["`\(pair.name)`: the two lists' identifiers are of different kinds"])
        }
    }

    static func group<ID: Hashable & Sendable>(
        _ name: String, element: String, _ source: [ListRow<ID>], _ target: [ListRow<ID>]
    ) -> BenchmarkGroup {
        let sourceIDs = source.map(\.id)
        let targetIDs = target.map(\.id)
        let elements = source.count + target.count
        func task(_ engine: String, _ body: @escaping () -> Int?) -> BenchmarkTask {
            BenchmarkTask(
                suite: "lists", scenario: name, element: element, engine: engine, n: source.count, elements: elements,
                body: body)
        }
        // What the diff finds, once and untimed.
        let changeset = Changeset(from: source, to: target)
        let staged = StagedChangeset(from: source, to: target)
        var tasks = [
            task("ripple") { DiffBenchmarks.rippleEngine(source, target) },
            task("floor") { DiffBenchmarks.floorEngine(source, target) },
        ]
        var skipped: [(engine: String, reason: String)] = []
        // Myers' edit distance counts a move as a delete plus an insert.
        let distance = changeset.deletes.count + changeset.inserts.count + 2 * changeset.moves.count
        if elements > stdlibRowLimit {
            skipped.append(
                ("stdlib", "`stdlib` skipped at `\(name)`: above \(stdlibRowLimit) rows in all it takes minutes"))
        } else if elements * distance > stdlibWorkLimit {
            skipped.append(
                (
                    "stdlib",
                    "`stdlib` skipped at `\(name)`: Myers' algorithm takes time rows × edits, here about \(elements) × \(distance)"
                ))
        } else {
            tasks.append(task("stdlib") { DiffBenchmarks.stdlibEngine(sourceIDs, targetIDs) })
        }
        let duplicates = changeset.duplicates
        var line =
            "`\(name)` \(element): \(source.count) → \(target.count) rows; \(changeset.inserts.count) inserted, "
            + "\(changeset.deletes.count) deleted, \(changeset.moves.count) moved, \(changeset.updates.count) updated; "
            + "\(duplicates.sourceOffsets.count + duplicates.targetOffsets.count) rows with a repeated identifier "
            + "(\(duplicates.sourceOffsets.count) old, \(duplicates.targetOffsets.count) new); \(staged.stages.count) stage"
            + (staged.stages.count == 1 ? "" : "s")
        let diffMemory = MemoryProbe.peakGrowth { blackHole(Changeset(from: source, to: target)) }
        let stagedMemory = MemoryProbe.peakGrowth { blackHole(StagedChangeset(from: source, to: target)) }
        if let diffMemory, let stagedMemory, source.count + target.count > 0 {
            let rows = max(source.count, target.count)
            line +=
                "; peak memory beyond the inputs: `Changeset` \(BenchmarkReport.bytes(diffMemory)) "
                + "(\(diffMemory / rows) bytes per row), `StagedChangeset` \(BenchmarkReport.bytes(stagedMemory)) (\(stagedMemory / rows) bytes per row)"
        }
        return BenchmarkGroup(tasks: tasks, skipped: skipped, notes: [line])
    }
}
