import XCTest

/// Runs `body` once per seed in `seeds`, each with its own generator, and names the seed in every
/// failure so the case can be replayed by running `forEachSeed([seed]) { … }` with the same body.
///
/// - Parameters:
///   - seeds: The seeds to run. Use a fixed range so a run is repeatable.
///   - file: The file to report failures in.
///   - line: The line to report failures at.
///   - body: The case; returns a failure description, or `nil` when the case passed.
public func forEachSeed(
    _ seeds: some Sequence<UInt64>,
    file: StaticString = #filePath,
    line: UInt = #line,
    _ body: (_ seed: UInt64, _ random: inout SplitMix64) throws -> String?
) rethrows {
    registerXCTestLeakRoots()
    var failures = 0
    for seed in seeds {
        var random = SplitMix64(seed: seed)
        if let failure = try body(seed, &random) {
            XCTFail("seed \(seed): \(failure)", file: file, line: line)
            failures += 1
            if failures >= 5 {
                XCTFail("stopping after 5 failing seeds", file: file, line: line)
                return
            }
        }
    }
}
