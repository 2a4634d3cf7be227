import Foundation

/// How much of the heavy randomized and soak tests a run does: the fraction in the environment
/// variable `RIPPLE_TEST_SCALE`, 1 (everything) when it is unset.
///
/// `.ci/run` runs the suite at full scale first (the plain `swift test`), then under the sanitizers
/// at a fraction: they still drive every code path, with fewer repetitions. A scaled run takes a
/// prefix of the full run's seeds, so a seed that fails in a scaled run fails in the full run too,
/// and every failure still names its seed.
///
///     RIPPLE_TEST_SCALE=0.1 swift test --sanitize=address
///
/// Scale only sampled work (seed counts, operation counts). Exhaustive tests are proofs, not
/// samples: leave them whole (`.ci/run` skips their largest lengths where they cost too much).
public enum TestScale {
    /// The fraction, in (0, 1]. A value that is not a number in that range stops the run.
    public static let fraction: Double = {
        guard let text = ProcessInfo.processInfo.environment["RIPPLE_TEST_SCALE"], !text.isEmpty else { return 1 }
        guard let value = Double(text), value > 0, value <= 1 else {
            fatalError("RIPPLE_TEST_SCALE=\(text): expected a fraction in (0, 1]")
        }
        return value
    }()

    /// Whether this run does everything.
    public static var isFull: Bool { fraction == 1 }

    /// `full` scaled by `fraction`, rounded up, and at least `minimum` (or `full`, when smaller).
    public static func count(_ full: Int, minimum: Int = 1) -> Int {
        guard !isFull else { return full }
        let scaled = Int((Double(full) * fraction).rounded(.up))
        return Swift.min(full, Swift.max(minimum, scaled))
    }

    /// The first `fraction` of `seeds` (at least `minimum` of them, or all when fewer).
    public static func seeds(_ seeds: Range<UInt64>, minimum: Int = 1) -> Range<UInt64> {
        let kept = count(seeds.count, minimum: minimum)
        return seeds.lowerBound..<(seeds.lowerBound + UInt64(kept))
    }
}
