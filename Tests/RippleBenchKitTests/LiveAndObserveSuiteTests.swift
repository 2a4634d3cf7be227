import XCTest

@testable import RippleBenchKit

/// The `observe` and `live` suites: their scenarios, which runs include them, their summaries, and
/// the screens they drive. Behaviour only; no timing is asserted.
final class LiveAndObserveSuiteTests: XCTestCase {
    private let suiteNames = RippleBench.suites.map(\.name)

    func testTheObserveScenarios() {
        XCTAssertEqual(ObserveBenchmarks.scenarios(.standard).map(\.name), ["10k-append", "100k-append"])
        XCTAssertEqual(ObserveBenchmarks.scenarios(.standard).map(\.count), [10_000, 100_000])
        XCTAssertEqual(ObserveBenchmarks.scenarios(.full).map(\.name), ["10k-append", "100k-append"])
        XCTAssertEqual(ObserveBenchmarks.scenarios(.quick).map(\.name), ["10k-append"])
    }

    func testTheLiveScenarios() {
        XCTAssertEqual(
            LiveBenchmarks.scenarios(.standard).map(\.name),
            [
                "1k-append", "1k-update", "1k-remove", "10k-append", "10k-update", "10k-remove",
                "100k-append", "100k-update", "100k-remove", "1m-append", "1m-update", "1m-remove",
            ])
        XCTAssertEqual(
            LiveBenchmarks.scenarios(.quick).map(\.name),
            ["1k-append", "1k-update", "1k-remove", "10k-append", "10k-update", "10k-remove"])
        XCTAssertEqual(LiveBenchmarks.scenarios(.full), LiveBenchmarks.scenarios(.standard))
        let counts = ["1k": 1_000, "10k": 10_000, "100k": 100_000, "1m": 1_000_000]
        for scenario in LiveBenchmarks.scenarios(.standard) {
            XCTAssertEqual(scenario.count, counts[scenario.size], scenario.name)
            XCTAssertGreaterThan(scenario.iterations, 0, scenario.name)
            // The appends and removals of one timed run change the list's size by at most 10%.
            XCTAssertLessThanOrEqual(scenario.iterations * 10, scenario.count, scenario.name)
        }
    }

    func testSuiteParsesTheNewSuites() throws {
        XCTAssertEqual(try BenchmarkOptions.parse(["--suite", "live"], suiteNames: suiteNames).suite, "live")
        XCTAssertEqual(try BenchmarkOptions.parse(["--suite", "observe"], suiteNames: suiteNames).suite, "observe")
        XCTAssertEqual(
            try BenchmarkOptions.parse(["--quick", "--suite", "live"], suiteNames: suiteNames),
            BenchmarkOptions(mode: .quick, suite: "live"))
        XCTAssertThrowsError(try BenchmarkOptions.parse(["--suite", "lives"], suiteNames: suiteNames)) { error in
            XCTAssertEqual(
                "\(error)",
                "no suite named 'lives'; the suites are diff, sections, sections-live, publish, observe, command, live, storage, "
                    + "derived"
                    + RippleBench.screenSuites.map { ", \($0.name)" }.joined()
            )
        }
    }

    /// `observe` runs in every mode; `live` only in `--full`, or when `--suite live` names it.
    func testWhichRunsIncludeTheSuites() throws {
        func selected(_ arguments: [String]) throws -> [String] {
            RippleBench.selectedSuites(try BenchmarkOptions.parse(arguments, suiteNames: suiteNames)).map(\.name)
        }
        // `screen` where RippleTesting links (Linux): in the default and full runs, not the quick one.
        let screen = RippleBench.screenSuites.map(\.name)
        XCTAssertEqual(
            try selected([]),
            ["diff", "sections", "sections-live", "publish", "observe", "command", "derived"] + screen)
        XCTAssertEqual(
            try selected(["--quick"]), ["diff", "sections", "sections-live", "publish", "observe", "command"])
        XCTAssertEqual(
            try selected(["--full"]),
            ["diff", "sections", "sections-live", "publish", "observe", "command", "live", "storage", "derived"]
                + screen)
        XCTAssertEqual(try selected(["--suite", "live"]), ["live"])
        XCTAssertEqual(try selected(["--quick", "--suite", "live"]), ["live"])
        XCTAssertEqual(try selected(["--suite", "observe"]), ["observe"])
    }

    private func result(_ suite: String, _ scenario: String, _ engine: String, _ median: Int64) -> BenchmarkResult {
        BenchmarkResult(
            task: BenchmarkTask(suite: suite, scenario: scenario, element: "int", engine: engine, n: 1, body: { nil }),
            medianNanoseconds: median, minNanoseconds: median, runs: 7, moves: nil)
    }

    func testTheLiveSummaryPrintsTheRatioFrom1kTo1mPerOperation() {
        let results = [
            result("live", "1k-append", "ripple", 20_000), result("live", "1m-append", "ripple", 20_000_000),
            result("live", "1k-update", "ripple", 10_000), result("live", "1m-update", "ripple", 25_000),
            result("live", "1k-remove", "ripple", 10_000), result("live", "100k-remove", "ripple", 25_000),
        ]
        XCTAssertEqual(
            LiveBenchmarks.summarize(results),
            ["time per event at `1m` ÷ at `1k` (target: ≤ 3×): append 1000×, update 2.50×"])
        XCTAssertEqual(LiveBenchmarks.summarize(Array(results.prefix(1))), [])
    }

    func testTheObserveSummaryPrintsTheRatioFrom10kTo100k() {
        let results = [
            result("observe", "10k-append", "array", 10), result("observe", "100k-append", "array", 20),
            result("observe", "10k-append", "ripple", 40_000), result("observe", "100k-append", "ripple", 44_000),
        ]
        XCTAssertEqual(
            ObserveBenchmarks.summarize(results),
            ["time per append at `100k` ÷ at `10k` (target for `ripple`: ≤ 1.2×): `ripple` 1.10×, `array` 2.00×"])
        XCTAssertEqual(
            ObserveBenchmarks.summarize(Array(results.prefix(3))),
            [
                "time per append at `100k` ÷ at `10k` (target for `ripple`: ≤ 1.2×): `array` 2.00×"
            ])
        XCTAssertEqual(ObserveBenchmarks.summarize([]), [])
    }

    @MainActor
    func testTheGroupsOfAQuickRun() {
        let observe = ObserveBenchmarks.groups(.quick)
        XCTAssertEqual(
            observe.map { $0.tasks.map { "\($0.scenario) \($0.engine)" } }, [["10k-append array", "10k-append ripple"]])
        XCTAssertEqual(observe.flatMap { $0.tasks.map(\.iterations) }, [1_000, 1_000])
        XCTAssertEqual(
            ObserveBenchmarks.groups(.standard).map { $0.tasks.map { "\($0.scenario) \($0.engine)" } },
            [["10k-append array", "10k-append ripple", "100k-append array", "100k-append ripple"]],
            "both sizes in one group, measured round-robin")
        let live = LiveBenchmarks.groups(.quick, nil)
        XCTAssertEqual(live.map { $0.tasks.map(\.engine) }, Array(repeating: ["ripple"], count: 6))
        XCTAssertEqual(live.flatMap(\.notes), [], "the memory note needs the 1m scenarios")
        XCTAssertEqual(LiveBenchmarks.groups(.quick, ["1k-update"]).flatMap { $0.tasks.map(\.scenario) }, ["1k-update"])
    }

    /// A screen takes every event as one batch, on a view that keeps the right counts, with its
    /// subscribers caught up: what each timed event of `live` waits for.
    @MainActor
    func testAScreenRendersEveryEventAsOneBatch() {
        let screen = LiveBenchmarks.Screen((0..<100).map(LiveBenchmarks.Row.init), subscribers: 2)
        XCTAssertEqual(screen.view.counts, [100])
        XCTAssertEqual(screen.view.reloads, 1)
        XCTAssertTrue(screen.isCaughtUp)
        for operation in [LiveBenchmarks.Operation.append, .append, .update, .remove] {
            _ = screen.event(operation)
            XCTAssertTrue(screen.isCaughtUp, "\(operation)")
            if operation == .update {
                XCTAssertEqual(
                    screen.collection.snapshot.map(\.revision), (0..<102).map { $0 == 51 ? 1 : 0 },
                    "the row in the middle")
            }
        }
        XCTAssertEqual(
            screen.collection.snapshot.map(\.id), Array(0..<51) + Array(52..<102), "the row in the middle removed")
        screen.appendBatch(10)
        XCTAssertTrue(screen.isCaughtUp)
        XCTAssertEqual(screen.view.counts, [111])
        XCTAssertEqual(screen.view.batches, 4, "the appends, the removal and the batch")
        XCTAssertEqual(screen.view.reconfigures, 1, "the update: a reconfigure, no batch")
        XCTAssertEqual(screen.source.renderedItems, screen.collection.snapshot)
        XCTAssertEqual(screen.kept.map(\.snapshot), [screen.collection.snapshot, screen.collection.snapshot])
    }

    /// The `observe` engine's list applies every append before the next one.
    @MainActor
    func testTheObservedListAppliesEveryAppend() throws {
        guard #available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *) else { throw XCTSkip("needs ObservedList") }
        let fixture = ObserveBenchmarks.ObservedFixture((0..<10).map { IntElement(id: $0, content: 0) })
        fixture.reset()
        for _ in 0..<3 { _ = fixture.append() }
        let list = try XCTUnwrap(fixture.list)
        XCTAssertEqual(list.elements.map(\.id), Array(0..<15), "two appends of the reset, then three")
        XCTAssertEqual(list.version, fixture.collection.version)
        fixture.reset()
        XCTAssertEqual(fixture.list?.elements.count, 12)
    }

    func testThousandsSeparators() {
        XCTAssertEqual(0.withSeparators, "0")
        XCTAssertEqual(999.withSeparators, "999")
        XCTAssertEqual(1_000.withSeparators, "1,000")
        XCTAssertEqual(1_010_000.withSeparators, "1,010,000")
        XCTAssertEqual((-12_345).withSeparators, "-12,345")
    }
}
