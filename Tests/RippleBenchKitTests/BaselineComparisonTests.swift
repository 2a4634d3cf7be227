import Foundation
import XCTest

@testable import RippleBenchKit

/// `--compare`: hand-made baselines and runs, compared by each cell's ratio to its baseline engine.
final class BaselineComparisonTests: XCTestCase {
    /// A results file as `--json` writes it, with the given `ripple` and `floor` medians of one
    /// `diff` scenario, and a `stdlib` median.
    private func run(ripple: Int, floor: Int, stdlib: Int = 50_000_000, header: Bool = true) -> String {
        let records = """
            [
                {"suite": "diff", "scenario": "10k", "element": "int", "engine": "ripple", "n": 10000, "median_ns": \(ripple), "min_ns": 1, "runs": 7, "moves": 3},
                {"suite": "diff", "scenario": "10k", "element": "int", "engine": "floor", "n": 10000, "median_ns": \(floor), "min_ns": 1, "runs": 7},
                {"suite": "diff", "scenario": "10k", "element": "int", "engine": "stdlib", "n": 10000, "median_ns": \(stdlib), "min_ns": 1, "runs": 7}
              ]
            """
        guard header else { return records }
        return """
            {
              "header": {"processor": "Test CPU", "cores": 2, "swift": "6.3", "configuration": "release", "mode": "quick", "runs": 7,
                         "date": "2026-11-26T00:00:00Z", "load_start": 0.50, "load_end": 0.70},
              "results": \(records)
            }
            """
    }

    private func compare(baseline: String, current: String, tolerance: Double = 0.1) throws -> BaselineComparison {
        let old = try BenchmarkRecord.parse(Array(baseline.utf8), file: "baseline.json").records
        let new = try BenchmarkRecord.parse(Array(current.utf8), file: "current.json").records
        return BaselineComparison(baseline: old, current: new, tolerance: tolerance)
    }

    func testARegressedRatioExitsNonZeroAndNamesTheCell() throws {
        // ripple ÷ floor: 0.50× → 0.60×, a 20% regression, against a tolerance of 10%.
        let comparison = try compare(
            baseline: run(ripple: 500_000, floor: 1_000_000), current: run(ripple: 600_000, floor: 1_000_000))
        XCTAssertEqual(comparison.exitStatus, 1)
        XCTAssertEqual(comparison.regressions.map(\.current.cell), ["diff/10k/int/ripple"])
        XCTAssertEqual(comparison.regressionLines, ["diff/10k/int/ripple: 0.50× → 0.60× the baseline engine (+20%)"])
        let report = comparison.markdown(baselinePath: "baseline.json", baselineHeader: nil)
        XCTAssertTrue(
            report.contains(
                "| diff | 10k | int | ripple | 500 µs | 600 µs | +20% | 0.50× | 0.60× | +20% | **regressed** |"), report
        )
        XCTAssertTrue(report.contains("**1 cell regressed beyond 10%:**"), report)
    }

    func testWithinToleranceExitsZero() throws {
        // 0.50× → 0.54×: 8%.
        let comparison = try compare(
            baseline: run(ripple: 500_000, floor: 1_000_000), current: run(ripple: 540_000, floor: 1_000_000))
        XCTAssertEqual(comparison.exitStatus, 0)
        XCTAssertTrue(comparison.regressions.isEmpty)
        XCTAssertTrue(
            comparison.markdown(baselinePath: "b", baselineHeader: nil).hasSuffix(
                "No cell's ratio to its baseline engine regressed beyond 10%."))
    }

    func testASlowerMachineIsNotARegression() throws {
        // Everything twice as slow, ratios unchanged: the medians change, the verdict does not.
        let comparison = try compare(
            baseline: run(ripple: 500_000, floor: 1_000_000), current: run(ripple: 1_000_000, floor: 2_000_000))
        XCTAssertEqual(comparison.exitStatus, 0)
        let ripple = try XCTUnwrap(comparison.rows.first { $0.current.engine == "ripple" })
        XCTAssertEqual(ripple.medianChange ?? 0, 1.0, accuracy: 1e-9)
        XCTAssertEqual(ripple.ratioChange ?? 1, 0, accuracy: 1e-9)
    }

    func testAFasterFloorCanRegressTheRatio() throws {
        // The same ripple median, but floor got faster: Ripple lost ground.
        let comparison = try compare(
            baseline: run(ripple: 500_000, floor: 1_000_000), current: run(ripple: 500_000, floor: 800_000))
        XCTAssertEqual(comparison.regressions.map(\.current.cell), ["diff/10k/int/ripple"])
    }

    func testTheToleranceIsTheLimit() throws {
        let baseline = run(ripple: 500_000, floor: 1_000_000)
        let current = run(ripple: 600_000, floor: 1_000_000)
        XCTAssertEqual(try compare(baseline: baseline, current: current, tolerance: 0.25).exitStatus, 0)
        XCTAssertEqual(try compare(baseline: baseline, current: current, tolerance: 0.15).exitStatus, 1)
    }

    func testStdlibAndTheFloorNeverRegress() throws {
        let comparison = try compare(
            baseline: run(ripple: 500_000, floor: 1_000_000, stdlib: 10_000_000),
            current: run(ripple: 500_000, floor: 1_000_000, stdlib: 90_000_000))
        XCTAssertEqual(comparison.exitStatus, 0)
    }

    func testNewAndMissingCells() throws {
        let baseline = """
            {"results": [
              {"suite": "diff", "scenario": "old", "element": "int", "engine": "ripple", "median_ns": 5},
              {"suite": "diff", "scenario": "old", "element": "int", "engine": "floor", "median_ns": 10}
            ]}
            """
        let comparison = try compare(baseline: baseline, current: run(ripple: 500_000, floor: 1_000_000))
        XCTAssertEqual(comparison.exitStatus, 0)
        XCTAssertEqual(comparison.unmatched, 2)
        XCTAssertTrue(comparison.rows.allSatisfy { $0.baseline == nil })
        XCTAssertTrue(
            comparison.markdown(baselinePath: "b", baselineHeader: nil).contains(
                "2 cells of the baseline not measured in this run."))
    }

    func testTheHeaderlessArrayOfEarlierRunnersIsRead() throws {
        let comparison = try compare(
            baseline: run(ripple: 500_000, floor: 1_000_000, header: false),
            current: run(ripple: 900_000, floor: 1_000_000))
        XCTAssertEqual(comparison.exitStatus, 1)
    }

    func testTheBaselineHeaderIsDescribed() throws {
        let header = try BenchmarkRecord.parse(Array(run(ripple: 1, floor: 1).utf8), file: "b.json").header
        XCTAssertEqual(
            BaselineComparison.describe(header: header),
            "Baseline: Test CPU, 2 cores; Swift 6.3; release; quick run, 7 runs; 2026-11-26T00:00:00Z; load 0.50 → 0.70."
        )
    }

    func testWhatTheRunnerWritesIsWhatItCompares() throws {
        func result(_ engine: String, _ median: Int64) -> BenchmarkResult {
            BenchmarkResult(
                task: BenchmarkTask(
                    suite: "diff", scenario: "5k \"q\"", element: "int", engine: engine, n: 5, elements: 10,
                    body: { nil }),
                medianNanoseconds: median, minNanoseconds: median, runs: 7, moves: engine == "ripple" ? 2 : nil)
        }
        let results = [result("ripple", 250), result("floor", 1_000)]
        let header = BenchmarkHeader(
            processor: "CPU \"x\"", cores: 2, system: "Linux", swift: "6.3", configuration: "release",
            internalChecks: false,
            forced: false, mode: "quick", runs: 7, options: [], date: "d", loadAtStart: 1, loadAtEnd: nil)
        let json = BenchmarkReport.json(results, header: header)
        let parsed = try BenchmarkRecord.parse(Array(json.utf8), file: "out.json")
        XCTAssertEqual(parsed.records, BenchmarkRecord.records(results))
        let root = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let written = try XCTUnwrap(root["header"] as? [String: Any])
        XCTAssertEqual(written["processor"] as? String, #"CPU "x""#)
        XCTAssertTrue(written["load_end"] is NSNull)
        XCTAssertEqual(parsed.header?.processor, #"CPU "x""#)
        XCTAssertNil(parsed.header?.loadAtEnd)
        let records = try XCTUnwrap(root["results"] as? [[String: Any]])
        // Throughput: 10 elements in 250 ns, written as a whole number.
        XCTAssertEqual(records[0]["elements_per_s"] as? Int, 40_000_000)
        XCTAssertTrue(json.contains(#""elements_per_s": 40000000,"#), json)
        XCTAssertEqual(records[0]["elements"] as? Int, 10)
    }

    func testBadBaselines() {
        func message(_ text: String) -> String {
            do {
                _ = try BenchmarkRecord.parse(Array(text.utf8), file: "base.json")
                return "no error"
            } catch {
                return error.description
            }
        }
        XCTAssertEqual(
            message("42"),
            "base.json:1:1: expected a ripple-bench JSON file, an object with \"header\" and \"results\", found the number 42"
        )
        XCTAssertEqual(
            message(#"{"header": {}}"#),
            #"base.json:1:1: expected an object with "results": [records …] (ripple-bench --json writes one), found no "results""#
        )
        XCTAssertEqual(
            message(#"[{"suite": "diff", "scenario": "a", "element": "int", "engine": "ripple"}]"#),
            #"base.json: result 1: missing field "median_ns""#)
        XCTAssertEqual(
            message(#"[{"suite": "diff", "scenario": 5, "element": "int", "engine": "ripple", "median_ns": 1}]"#),
            #"base.json: result 1: expected "scenario" to be a string, found the number 5"#)
        XCTAssertEqual(
            message(#"[{"suite": "diff", "scenario": "a", "element": "int", "engine": "ripple", "median_ns": 1.5}]"#),
            #"base.json: result 1: expected "median_ns" to be a whole number of nanoseconds, found the number 1.5"#
        )
        XCTAssertEqual(
            message(#"{"results": [7]}"#), "base.json: result 1: expected a record object, found the number 7")
        XCTAssertEqual(
            message(#"{"results": [{"suite": "diff",}, ]"#),
            "base.json:1:35: not valid JSON: expected the rest of the value (a closing ']', '}' or '\"', "
                + "or the rest of true, false or null), found the end of the file")
        XCTAssertEqual(
            message("ripple-bench (quick)\n\n| suite |"),
            "base.json:1:1: not valid JSON: expected a value, ',', ':', ']', '}' or the end of the file, found 'r'")
    }

    func testTolerances() {
        XCTAssertEqual(BaselineComparison.tolerance("10%"), 0.1)
        XCTAssertEqual(BaselineComparison.tolerance("10"), 0.1)
        XCTAssertEqual(BaselineComparison.tolerance("250%"), 2.5)
        XCTAssertNil(BaselineComparison.tolerance("-5%"))
        XCTAssertNil(BaselineComparison.tolerance("ten"))
    }
}
