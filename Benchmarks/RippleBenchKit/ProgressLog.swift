#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// ripple-bench's log on standard error.
///
/// - `terminal`: one live line, rewritten for every run of every engine (an erase-line escape and
///   a carriage return), cleared at the end of each suite.
/// - `plain`: one line per measured group (a scenario on one element kind), with its medians:
///   no escape codes, no carriage returns. For logs in files and CI.
/// - `quiet`: nothing but warnings.
struct ProgressLog {
    enum Style: Equatable {
        case terminal
        case plain
        case quiet
    }

    var style: Style
    /// Writes text to the log as is (no newline added).
    var write: (String) -> Void

    /// `terminal` when standard error is a terminal, `plain` otherwise; `quiet` when asked.
    static func standardStyle(quiet: Bool) -> Style {
        if quiet { return .quiet }
        return isatty(2) != 0 ? .terminal : .plain
    }

    /// A run of `task` is starting (`round`: "warm-up", "run 3/7").
    func running(_ task: BenchmarkTask, round: String) {
        guard style == .terminal else { return }
        write("\u{1B}[2K\r[\(task.suite)] \(task.scenario) \(task.element) \(task.engine) \(round)")
    }

    /// A group has been measured.
    func measured(_ results: [BenchmarkResult]) {
        guard style == .plain, let first = results.first else { return }
        let engines = results.map { result in
            "\(result.task.engine) \(BenchmarkReport.duration(result.medianNanoseconds))"
        }
        write(
            "[\(first.task.suite)] \(first.task.scenario) \(first.task.element): \(engines.joined(separator: ", "))\n")
    }

    /// A suite has ended: the live line is cleared.
    func suiteEnded() {
        guard style == .terminal else { return }
        write("\u{1B}[2K\r")
    }

    /// A line of its own, such as the expected length of the run.
    func line(_ text: String) {
        switch style {
        case .terminal: write("\u{1B}[2K\r\(text)\n")
        case .plain: write(text + "\n")
        case .quiet: break
        }
    }
}
