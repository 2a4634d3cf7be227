import XCTest

@testable import RippleBenchKit

final class BenchmarkOptionsTests: XCTestCase {
    private let suites = ["diff", "sections"]

    private func parse(_ arguments: String) throws -> BenchmarkOptions {
        try BenchmarkOptions.parse(arguments.split(separator: " ").map(String.init), suiteNames: suites)
    }

    private func error(_ arguments: String) -> String {
        do {
            _ = try parse(arguments)
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    func testDefaults() throws {
        let options = try BenchmarkOptions.parse([], suiteNames: suites)
        XCTAssertEqual(options.mode, .standard)
        XCTAssertEqual(options.runs, 7)
        XCTAssertEqual(options.tolerance, 0.1)
        XCTAssertNil(options.lists)
    }

    func testListsTakeTwoFilesOrAFolder() throws {
        XCTAssertEqual(try parse("--lists a.json b.json --json out.json").lists, ["a.json", "b.json"])
        XCTAssertEqual(try parse("--lists a.json b.json --json out.json").jsonPath, "out.json")
        XCTAssertEqual(try parse("--lists folder --quiet").lists, ["folder"])
        XCTAssertEqual(try parse("--lists folder --quiet").quiet, true)
        XCTAssertEqual(
            error("--lists"), "--lists needs OLD NEW (two JSON files) or a folder of NAME-old.json and NAME-new.json")
        XCTAssertEqual(
            error("--lists a b --suite diff"), "--lists measures your lists alone; it cannot be combined with --suite")
        XCTAssertEqual(
            error("--quick --lists a b"), "--lists measures your lists as they are; it cannot be combined with --quick")
    }

    func testCompareAndTolerance() throws {
        let options = try parse("--quick --compare base.json --tolerance 300%")
        XCTAssertEqual(options.mode, .quick)
        XCTAssertEqual(options.comparePath, "base.json")
        XCTAssertEqual(options.tolerance, 3)
        XCTAssertEqual(error("--tolerance x"), "--tolerance needs a percentage of at least 0, e.g. 10%, not 'x'")
        XCTAssertEqual(error("--compare"), "--compare needs the path of a JSON file written by --json")
    }

    @MainActor
    func testTheRunnerRefusesADebugBuildAndBadArguments() {
        XCTAssertEqual(RippleBench.main(["--bogus"]), 2)
        #if DEBUG
        // The tests run in a debug build, which ripple-bench refuses to measure without --force.
        XCTAssertEqual(RippleBench.main(["--quick", "--quiet"]), 2)
        #endif
    }

    func testTheEstimateIsSaidUpFront() throws {
        func estimate(_ arguments: String) throws -> String {
            let options = try parse(arguments)
            return RippleBench.estimate(options: options, suites: RippleBench.selectedSuites(options), listRows: 0)
        }
        XCTAssertEqual(
            try estimate(""),
            "ripple-bench: the default run takes about 2½ minutes on a 2-core machine (--quick: seconds; --full: about 11 minutes); "
                + "progress below, the report on standard output at the end")
        XCTAssertTrue(
            try estimate("--quick").hasPrefix("ripple-bench: the quick run takes about 15 s on a 2-core machine;"))
        XCTAssertTrue(
            try estimate("--full").hasPrefix("ripple-bench: the full run takes about 11 minutes on a 2-core machine"))
        XCTAssertTrue(try estimate("--scenario 1m").hasPrefix("ripple-bench: the default run takes at most about"))
        XCTAssertEqual(RippleBench.roughly(3), "5 s")
        XCTAssertEqual(RippleBench.roughly(44), "45 s")
        XCTAssertEqual(RippleBench.roughly(100), "1½ minutes")
        XCTAssertEqual(RippleBench.roughly(130), "2 minutes")
    }

    func testModesAndMistakes() throws {
        XCTAssertEqual(try parse("--full").mode, .full)
        XCTAssertEqual(error("--quick --full"), "--quick and --full cannot be combined")
        XCTAssertEqual(error("--suite nope"), "no suite named 'nope'; the suites are diff, sections")
        XCTAssertEqual(error("--runs 3"), "--runs needs a whole number of at least 5")
        XCTAssertEqual(error("--frobnicate"), "unknown argument '--frobnicate'")
    }
}
