import XCTest

@testable import RippleBenchKit

/// The log on standard error: a live line on a terminal; elsewhere one plain line per scenario,
/// without escape codes or carriage returns; nothing with `--quiet`.
final class ProgressLogTests: XCTestCase {
    private final class Buffer {
        var text = ""
    }

    /// Runs two groups of trivial tasks with a log of `style` and returns what it wrote.
    private func logged(_ style: ProgressLog.Style) -> String {
        let buffer = Buffer()
        let log = ProgressLog(style: style) { buffer.text += $0 }
        let runner = BenchmarkRunner(runs: 5, log: log)
        log.line("ripple-bench: about 1 s")
        for scenario in ["1k", "2k"] {
            var sum = 0
            let tasks = ["ripple", "floor"].map { engine in
                BenchmarkTask(suite: "diff", scenario: scenario, element: "int", engine: engine, n: 1) {
                    sum &+= 1
                    return nil
                }
            }
            _ = runner.measure(BenchmarkGroup(tasks: tasks))
        }
        log.suiteEnded()
        return buffer.text
    }

    func testPlainLogHasOneLinePerScenarioAndNoEscapes() {
        let text = logged(.plain)
        XCTAssertFalse(text.contains("\u{1B}"), text)
        XCTAssertFalse(text.contains("\r"), text)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines.count, 4, text)  // the estimate, two scenarios, the final newline
        XCTAssertEqual(lines[0], "ripple-bench: about 1 s")
        XCTAssertTrue(lines[1].hasPrefix("[diff] 1k int: ripple "), text)
        XCTAssertTrue(lines[1].contains(", floor "), text)
        XCTAssertTrue(lines[2].hasPrefix("[diff] 2k int: ripple "), text)
        XCTAssertEqual(lines[3], "")
    }

    func testQuietLogWritesNothing() {
        XCTAssertEqual(logged(.quiet), "")
    }

    func testTerminalLogRewritesOneLine() {
        let text = logged(.terminal)
        XCTAssertTrue(text.contains("\u{1B}[2K\r[diff] 1k int ripple warm-up"), text)
        XCTAssertTrue(text.contains("\u{1B}[2K\r[diff] 2k int floor run 5/5"), text)
        XCTAssertFalse(text.contains("[diff] 1k int: "), "no per-scenario lines on a terminal")
        XCTAssertTrue(text.hasSuffix("\u{1B}[2K\r"))
    }

    func testAStandardErrorThatIsNotATerminalIsPlain() {
        // Under `swift test`, standard error is a pipe or a file, never a terminal in CI.
        if isatty(2) == 0 {
            XCTAssertEqual(ProgressLog.standardStyle(quiet: false), .plain)
        }
        XCTAssertEqual(ProgressLog.standardStyle(quiet: true), .quiet)
    }
}
