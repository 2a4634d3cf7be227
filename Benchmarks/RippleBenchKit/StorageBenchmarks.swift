import RippleDiff

/// The `storage` suite: `ListSnapshot`, the storage every live list is about to keep (event
/// snapshots, the sources' rendered data, the reads of `cellForRow`), against `Array`, at
/// 1,000,000 elements.
///
/// Scenarios, each run by both engines on the same elements:
/// - `1m-sum`: a `for … in` loop over the whole list adding up a field, on `Int` elements (a loop
///   `Array` vectorizes) and on a struct with a `String` field (``Item``);
/// - `1m-read`: ``readsPerRun`` subscript reads at random offsets, given in advance;
/// - `1m-append`: ``appendsPerRun`` appends to a list of 1,000,000 elements;
/// - `1m-insert`: ``insertsPerRun`` insertions in the middle of a list of 1,000,000 elements.
///
/// Engines: `array` (`Array`, the baseline) and `listsnapshot`; the sums also run
/// `listsnapshot-foreach`, the same loop through `forEach(_:)`, which lends each element rather
/// than copying it out. The table's median is per timed run; the summary prints the time per
/// element (`sum`) or per operation, and the ratio to `array` next to the targets (`for … in`
/// within 1.5×, a random read well under 100 ns).
///
/// Not in the default run: only `--suite storage` or `--full` measure it.
enum StorageBenchmarks {
    static let suite = BenchmarkSuite(
        name: "storage",
        summary: "`ListSnapshot` (`listsnapshot`) vs `Array` (`array`) at 1,000,000 elements: `for … in` sums, random "
            + "subscript reads, appends, insertions in the middle",
        makeGroups: { mode, scenarios in groups(mode, scenarios) },
        summarize: { summarize($0) },
        defaultModes: [.full])

    /// An element with a `String` field, short enough to be stored inline, as a row's title is.
    struct Item: Sendable {
        var id: Int
        var title: String
        var score: Int

        init(_ id: Int) {
            self.id = id
            title = "Item \(id)"
            score = id & 7
        }
    }

    /// Random reads per timed run.
    static let readsPerRun = 100_000
    /// Appends per timed run.
    static let appendsPerRun = 10_000
    /// Insertions in the middle per timed run (an `Array` moves half a million elements for each).
    static let insertsPerRun = 200

    /// The elements of every scenario; `--quick` uses 10,000, for a smoke test.
    static func size(_ mode: BenchmarkMode) -> (name: String, count: Int) {
        mode == .quick ? ("10k", 10_000) : ("1m", 1_000_000)
    }

    /// The scenarios' names for a mode.
    static func scenarios(_ mode: BenchmarkMode) -> [String] {
        let size = size(mode).name
        return ["sum", "read", "append", "insert"].map { "\(size)-\($0)" }
    }

    /// The operations one timed run of a scenario performs (`sum`: one per element).
    static func operations(_ scenario: String, count: Int) -> Int {
        if scenario.hasSuffix("-read") { return readsPerRun }
        if scenario.hasSuffix("-append") { return appendsPerRun }
        if scenario.hasSuffix("-insert") { return insertsPerRun }
        return count
    }

    static func groups(_ mode: BenchmarkMode, _ only: Set<String>?) -> [BenchmarkGroup] {
        let (size, count) = size(mode)
        func wanted(_ name: String) -> Bool { only?.contains("\(size)-\(name)") ?? true }
        var groups: [BenchmarkGroup] = []
        let ints = Array(0..<count)
        let items = (0..<count).map(Item.init)
        let intList = ListSnapshot(ints)
        let itemList = ListSnapshot(items)
        func task(_ name: String, _ element: String, _ engine: String, _ body: @escaping () -> Int?) -> BenchmarkTask {
            BenchmarkTask(
                suite: "storage", scenario: "\(size)-\(name)", element: element, engine: engine, n: count,
                elements: operations("\(size)-\(name)", count: count), body: body)
        }

        if wanted("sum") {
            groups.append(
                BenchmarkGroup(tasks: [
                    task("sum", "int", "array") {
                        blackHole(sumInts(ints))
                        return nil
                    },
                    task("sum", "int", "listsnapshot") {
                        blackHole(sumInts(intList))
                        return nil
                    },
                    task("sum", "int", "listsnapshot-foreach") {
                        blackHole(sumIntsForEach(intList))
                        return nil
                    },
                ]))
            groups.append(
                BenchmarkGroup(tasks: [
                    task("sum", "struct", "array") {
                        blackHole(sumItems(items))
                        return nil
                    },
                    task("sum", "struct", "listsnapshot") {
                        blackHole(sumItems(itemList))
                        return nil
                    },
                    task("sum", "struct", "listsnapshot-foreach") {
                        blackHole(sumItemsForEach(itemList))
                        return nil
                    },
                ]))
        }
        if wanted("read") {
            // A seeded generator, so that every run reads the same offsets.
            var state: UInt64 = 0x9E37_79B9_7F4A_7C15
            let offsets = (0..<readsPerRun).map { _ -> Int in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return Int((state >> 33) % UInt64(count))
            }
            groups.append(
                BenchmarkGroup(tasks: [
                    task("read", "int", "array") {
                        blackHole(readInts(ints, offsets))
                        return nil
                    },
                    task("read", "int", "listsnapshot") {
                        blackHole(readInts(intList, offsets))
                        return nil
                    },
                ]))
        }
        /// The `array` and `listsnapshot` engines of a mutation scenario, each timing `perRun`
        /// mutations of a fresh copy of its list (made by its fixture's `prepare`, untimed).
        func mutations(
            _ scenario: String, perRun: Int, _ array: Fixture<[Int]>, _ list: Fixture<ListSnapshot<Int>>,
            array arrayBody: @escaping (inout [Int]) -> Int?, list listBody: @escaping (inout ListSnapshot<Int>) -> Int?
        ) -> BenchmarkGroup {
            func task(_ engine: String, body: @escaping () -> Int?, prepare: @escaping () -> Void) -> BenchmarkTask {
                BenchmarkTask(
                    suite: "storage", scenario: "\(size)-\(scenario)", element: "int", engine: engine, n: count,
                    elements: perRun, body: body, prepare: prepare)
            }
            return BenchmarkGroup(tasks: [
                task("array", body: { arrayBody(&array.value) }, prepare: { array.reset() }),
                task("listsnapshot", body: { listBody(&list.value) }, prepare: { list.reset() }),
            ])
        }
        if wanted("append") {
            // One append untimed: it gives the list a right edge of its own, as a list that keeps
            // being appended to has; the timed appends then copy nothing.
            groups.append(
                mutations(
                    "append", perRun: appendsPerRun,
                    Fixture(ints, prepare: { $0.reserveCapacity(count + appendsPerRun) }),
                    Fixture(intList, prepare: { $0.append(-1) }),
                    array: appendInts, list: appendInts))
        }
        if wanted("insert") {
            groups.append(
                mutations(
                    "insert", perRun: insertsPerRun,
                    Fixture(ints, prepare: { $0.reserveCapacity(count + insertsPerRun) }),
                    Fixture(intList, prepare: { $0.insert(-1, at: $0.count / 2) }),
                    array: insertInts, list: insertInts))
        }
        return groups
    }

    /// The time per element or operation of each scenario, both engines and the ratio, against
    /// the targets.
    static func summarize(_ results: [BenchmarkResult]) -> [String] {
        var lines: [String] = []
        var seen: [String] = []
        for result in results where !seen.contains("\(result.task.scenario)/\(result.task.element)") {
            let scenario = result.task.scenario
            let element = result.task.element
            seen.append("\(scenario)/\(element)")
            func perOperation(_ engine: String) -> Double? {
                guard
                    let found = results.first(where: {
                        $0.task.scenario == scenario && $0.task.element == element && $0.task.engine == engine
                    })
                else { return nil }
                return Double(found.medianNanoseconds) / Double(found.task.elements ?? found.task.n)
            }
            guard let array = perOperation("array"), let list = perOperation("listsnapshot") else { continue }
            let unit = scenario.hasSuffix("-sum") ? "element" : "operation"
            let target =
                scenario.hasSuffix("-sum")
                ? " (target for `for … in` ≤ 1.5×)" : scenario.hasSuffix("-read") ? " (target: well under 100 ns)" : ""
            func ratio(_ value: Double) -> String { array > 0 ? BenchmarkReport.format(value / array) + "×" : "–" }
            var line =
                "`\(scenario)` \(element), per \(unit): `array` \(nanoseconds(array)), `listsnapshot` \(nanoseconds(list)) "
                + "(\(ratio(list)))"
            if let forEach = perOperation("listsnapshot-foreach") {
                line += ", `listsnapshot-foreach` \(nanoseconds(forEach)) (\(ratio(forEach)))"
            }
            lines.append(line + target)
        }
        return lines
    }

    static func nanoseconds(_ value: Double) -> String {
        value < 10 ? String(format: "%.2f ns", value) : String(format: "%.0f ns", value)
    }

    /// A list reset to a fresh copy of the start before each timed run, then prepared untimed.
    final class Fixture<List> {
        let start: List
        let prepare: (inout List) -> Void
        var value: List

        init(_ start: List, prepare: @escaping (inout List) -> Void) {
            self.start = start
            self.prepare = prepare
            value = start
        }

        func reset() {
            value = start
            prepare(&value)
        }
    }

    // The measured loops: one function per engine, so that each is specialized for its collection.

    @inline(never)
    static func sumInts(_ list: [Int]) -> Int? {
        var sum = 0
        for element in list { sum &+= element }
        return sum
    }

    @inline(never)
    static func sumInts(_ list: ListSnapshot<Int>) -> Int? {
        var sum = 0
        for element in list { sum &+= element }
        return sum
    }

    @inline(never)
    static func sumItems(_ list: [Item]) -> Int? {
        var sum = 0
        for item in list { sum &+= item.id &+ item.score &+ item.title.utf8.count }
        return sum
    }

    @inline(never)
    static func sumItems(_ list: ListSnapshot<Item>) -> Int? {
        var sum = 0
        for item in list { sum &+= item.id &+ item.score &+ item.title.utf8.count }
        return sum
    }

    @inline(never)
    static func sumIntsForEach(_ list: ListSnapshot<Int>) -> Int? {
        var sum = 0
        list.forEach { sum &+= $0 }
        return sum
    }

    @inline(never)
    static func sumItemsForEach(_ list: ListSnapshot<Item>) -> Int? {
        var sum = 0
        list.forEach { item in sum &+= item.id &+ item.score &+ item.title.utf8.count }
        return sum
    }

    @inline(never)
    static func readInts(_ list: [Int], _ offsets: [Int]) -> Int? {
        var sum = 0
        for offset in offsets { sum &+= list[offset] }
        return sum
    }

    @inline(never)
    static func readInts(_ list: ListSnapshot<Int>, _ offsets: [Int]) -> Int? {
        var sum = 0
        for offset in offsets { sum &+= list[offset] }
        return sum
    }

    @inline(never)
    static func appendInts(_ list: inout [Int]) -> Int? {
        for value in 0..<appendsPerRun { list.append(value) }
        return nil
    }

    @inline(never)
    static func appendInts(_ list: inout ListSnapshot<Int>) -> Int? {
        for value in 0..<appendsPerRun { list.append(value) }
        return nil
    }

    @inline(never)
    static func insertInts(_ list: inout [Int]) -> Int? {
        for value in 0..<insertsPerRun { list.insert(value, at: list.count / 2) }
        return nil
    }

    @inline(never)
    static func insertInts(_ list: inout ListSnapshot<Int>) -> Int? {
        for value in 0..<insertsPerRun { list.insert(value, at: list.count / 2) }
        return nil
    }
}
