import Foundation

/// One measured configuration: a suite's scenario, run by one engine on one element kind.
struct BenchmarkTask {
    /// The suite, e.g. `diff`.
    var suite: String
    /// The scenario inside the suite, e.g. `100k`.
    var scenario: String
    /// The element kind, e.g. `int` or `uuid`.
    var element: String
    /// The engine, e.g. `ripple` or `floor`.
    var engine: String
    /// The input size the scenario is named after.
    var n: Int
    /// The elements one run processes, for the throughput (`nil`: `n`). For a diff, the source's
    /// plus the target's.
    var elements: Int? = nil
    /// Runs the measured work once and returns the number of moves it reported, if any.
    /// Inputs are built before the task is made, outside the timed region.
    var body: () -> Int?
    /// Runs before each timed run of `body`, untimed: fresh state for work that consumes it.
    var prepare: (() -> Void)? = nil
    /// How many times one sample runs `body`; the sample's time is divided by it. More than one
    /// for work too short to time alone.
    var iterations = 1
}

/// A group of tasks that compare engines on the same inputs.
///
/// The runner measures the tasks of one group round-robin (A B C A B C …), so the machine's drift
/// hits every engine alike.
struct BenchmarkGroup {
    /// The tasks to compare.
    var tasks: [BenchmarkTask]
    /// Engines left out of this group, with the reason, e.g. `("stdlib", "quadratic at this size")`.
    var skipped: [(engine: String, reason: String)] = []
    /// Other lines to print under the suite's table, such as a one-off measurement.
    var notes: [String] = []
}

/// A suite: a named family of groups, built lazily so unrelated suites cost nothing.
struct BenchmarkSuite: Sendable {
    /// The suite's name, as given to `--suite`.
    var name: String
    /// What the suite measures, printed above its table.
    var summary: String
    /// Builds the groups for a mode (quick, default or full); only those of `scenarios` when
    /// given, where a suite can tell before building (the others are filtered afterwards). Called
    /// on the main actor, where the suites whose subscribers are main-actor ones build them.
    var makeGroups: @MainActor @Sendable (_ mode: BenchmarkMode, _ scenarios: Set<String>?) -> [BenchmarkGroup]
    /// Lines computed from the whole suite's results, printed under its table.
    var summarize: @Sendable (_ results: [BenchmarkResult]) -> [String] = { _ in [] }
    /// The modes whose run includes the suite when no `--suite` names it; `--suite NAME` runs it
    /// in any mode.
    var defaultModes: Set<BenchmarkMode> = [.quick, .standard, .full]
}

/// The measured result of one task.
struct BenchmarkResult {
    var task: BenchmarkTask
    var medianNanoseconds: Int64
    var minNanoseconds: Int64
    var runs: Int
    var moves: Int?

    /// Elements per second of the median: the task's elements (for a diff, the source's plus the
    /// target's) divided by the median in seconds; `nil` when the median is zero.
    var throughput: Double? {
        guard medianNanoseconds > 0 else { return nil }
        return Double(task.elements ?? task.n) * 1e9 / Double(medianNanoseconds)
    }
}

/// Keeps the optimizer from discarding a computed value.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// Runs groups of tasks and collects their timings.
struct BenchmarkRunner {
    /// Measured runs per task after the warm-up.
    var runs: Int
    /// Swept before every timed run (`--cold`), or `nil`.
    var sweep: CacheSweep? = nil
    /// Where progress goes: a live line on a terminal, a line per group, or nothing.
    var log: ProgressLog

    /// Measures every task in `group`, round-robin, after warm-up runs of each: one, or as many
    /// as fit in about 20 ms (at most 20) when the group is quick, so that caches, the allocator's
    /// thresholds and the processor's clock settle before the first measured run.
    ///
    /// Round-robin times each engine right after another one's work: the engine after a long one
    /// (`stdlib`'s diff) starts with caches full of that engine's data, and the one after it finds
    /// the caches and freed memory the first one warmed. With a ``sweep``, every timed run
    /// starts after the same sweep instead.
    func measure(_ group: BenchmarkGroup) -> [BenchmarkResult] {
        let clock = ContinuousClock()
        var samples = [[Int64]](repeating: [], count: group.tasks.count)
        var moves = [Int?](repeating: nil, count: group.tasks.count)
        var warmUps = 1
        var round = 0
        while round < warmUps + runs {
            let roundStart = clock.now
            for (index, task) in group.tasks.enumerated() {
                log.running(task, round: round < warmUps ? "warm-up" : "run \(round - warmUps + 1)/\(runs)")
                task.prepare?()
                var reported: Int?
                let iterations = task.iterations
                if round >= warmUps { sweep?.run() }
                let elapsed = clock.measure {
                    for _ in 0..<iterations { reported = task.body() }
                }
                if round == 0 {
                    moves[index] = reported
                } else if round >= warmUps {
                    samples[index].append(elapsed.nanoseconds / Int64(iterations))
                }
            }
            if round == 0 {
                let roundTime = (clock.now - roundStart).nanoseconds
                warmUps = Int(Swift.min(20, Swift.max(1, 20_000_000 / Swift.max(roundTime, 1))))
            }
            round += 1
        }
        let results = group.tasks.enumerated().map { index, task in
            let sorted = samples[index].sorted()
            return BenchmarkResult(
                task: task, medianNanoseconds: sorted.median, minNanoseconds: sorted.first ?? 0,
                runs: sorted.count, moves: moves[index])
        }
        log.measured(results)
        return results
    }
}

extension Duration {
    /// The duration in whole nanoseconds.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}

extension Array where Element == Int64 {
    /// The median of a sorted array (the mean of the middle two for an even count).
    var median: Int64 {
        if isEmpty { return 0 }
        let middle = count / 2
        return count % 2 == 1 ? self[middle] : (self[middle - 1] + self[middle]) / 2
    }
}

/// A buffer larger than the processor's caches, written once per cache line to push every engine's
/// data out of them (`--cold`).
final class CacheSweep {
    /// 64 MiB: twice the last-level cache of the machines the project has run on.
    let size = 64 << 20
    private let buffer: UnsafeMutableRawPointer

    init() { buffer = .allocate(byteCount: size, alignment: 64) }

    deinit { buffer.deallocate() }

    /// Writes one byte in every 64-byte line of the buffer.
    func run() {
        var offset = 0
        while offset < size {
            buffer.storeBytes(of: UInt8(truncatingIfNeeded: offset >> 6), toByteOffset: offset, as: UInt8.self)
            offset &+= 64
        }
    }
}
