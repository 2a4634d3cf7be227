import Dispatch
import Foundation
import Ripple
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

/// Runs `body` once per seed in `seeds`, as ``forEachSeed(_:file:line:_:)`` does, on every core:
/// for cases that share nothing, such as diffs of values, whose seeds may run in any order.
///
/// The failures are reported on the calling thread once every case has run (or once five have
/// failed), the lowest seeds first, each named with its seed, so a failure reads and replays as it
/// does in the serial form.
///
/// - Parameters:
///   - seeds: The seeds to run. Use a fixed range so a run is repeatable.
///   - file: The file to report failures in.
///   - line: The line to report failures at.
///   - body: The case; returns a failure description, or `nil` when the case passed. It runs on
///     several threads at once, so it may touch nothing but its own values.
public func forEachSeedConcurrently(
    _ seeds: Range<UInt64>,
    file: StaticString = #filePath,
    line: UInt = #line,
    _ body: @Sendable (_ seed: UInt64, _ random: inout SplitMix64) -> String?
) {
    forEachCaseConcurrently(seeds.count, file: file, line: line) { index in
        let seed = seeds.lowerBound + UInt64(index)
        var random = SplitMix64(seed: seed)
        return body(seed, &random).map { "seed \(seed): \($0)" }
    }
}

/// Runs `body` for each index in `0..<count` on every core, and reports the failures on the calling
/// thread once every case has run (or once five have failed), the lowest indices first.
///
/// - Parameters:
///   - count: The number of cases.
///   - file: The file to report failures in.
///   - line: The line to report failures at.
///   - body: The case at an index; returns a failure description, or `nil` when the case passed.
///     It runs on several threads at once, so it may touch nothing but its own values.
public func forEachCaseConcurrently(
    _ count: Int,
    file: StaticString = #filePath,
    line: UInt = #line,
    _ body: @Sendable (_ index: Int) -> String?
) {
    registerXCTestLeakRoots()
    let failures = LockedState<[(index: Int, failure: String)]>([])
    let workers = Swift.max(1, Swift.min(ProcessInfo.processInfo.activeProcessorCount, count))
    DispatchQueue.concurrentPerform(iterations: workers) { worker in
        // Worker w runs cases w, w + workers, …: neighbouring cases cost alike, so the workers
        // finish together.
        for index in stride(from: worker, to: count, by: workers) {
            guard failures.withLock({ $0.count < 5 }) else { return }
            if let failure = body(index) { failures.withLock { $0.append((index, failure)) } }
        }
    }
    let found = failures.withLock { $0.sorted { $0.index < $1.index } }
    for (_, failure) in found.prefix(5) { XCTFail(failure, file: file, line: line) }
    if found.count >= 5 { XCTFail("stopping after 5 failing cases", file: file, line: line) }
}
