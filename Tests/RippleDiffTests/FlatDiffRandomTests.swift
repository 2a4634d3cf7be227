import RippleDiff
import RippleTestSupport
import XCTest

/// Seeded random diffs, 100,000 per run (a `TestScale` fraction of them in CI's sanitizer steps), on every core, each
/// checked in both directions against every rule:
/// validity, the independent replay oracle, `applied(to:element:)`, the brute-force pairing,
/// minimal moves, exact updates, duplicates (reported only between the common prefix and suffix),
/// and staging. A failure names its seed; replay it with `forEachSeed([seed])`, and keep the input
/// as a named regression test in `FlatDiffTests`.
final class FlatDiffRandomTests: XCTestCase {
    func test_random_edited() { check(.edited, cases: 30_000, firstSeed: 1_000_000) }
    func test_random_heavyDuplicates() { check(.heavyDuplicates, cases: 25_000, firstSeed: 2_000_000) }
    func test_random_shuffled() { check(.shuffled, cases: 15_000, firstSeed: 3_000_000) }
    func test_random_reversed() { check(.reversed, cases: 10_000, firstSeed: 4_000_000) }
    func test_random_identical() { check(.identical, cases: 10_000, firstSeed: 5_000_000) }
    func test_random_allReplaced() { check(.allReplaced, cases: 5_000, firstSeed: 6_000_000) }
    func test_random_empty() { check(.empty, cases: 5_000, firstSeed: 7_000_000) }

    /// Large tables are filled and probed by blocks (hash a block, touch its slots, then insert or
    /// probe). Forced on small lists of every shape, the blocked path must give exactly the
    /// change-set of the one-at-a-time path.
    func test_random_blockedTable_givesTheSameChangesetAsOneAtATime() {
        for shape in DiffInputShape.allCases {
            forEachSeedConcurrently(TestScale.seeds(8_000_000..<8_003_000)) { _, random in
                let count = random.chance(1, in: 50) ? random.int(in: 41...700) : random.int(in: 0...40)
                let input = DiffInput.random(shape, count: count, using: &random)
                let source = input.source.map(\.id)
                let target = input.target.map(\.id)
                let blocked = RippleDiff._flatDiff(from: source, to: target, touchingCapacity: 0)
                let oneAtATime = Changeset(from: source, to: target, identity: .value)
                return blocked == oneAtATime
                    ? nil : "\(shape): \(source) → \(target): blocked \(blocked), one at a time \(oneAtATime)"
            }
        }
    }

    /// Checks `cases` inputs of one shape: sizes 0–40, and one case in 500 of 41–500 (the
    /// brute-force reference is quadratic, so large cases cost hundreds of small ones).
    private func check(
        _ shape: DiffInputShape, cases: UInt64, firstSeed: UInt64, file: StaticString = #filePath, line: UInt = #line
    ) {
        forEachSeedConcurrently(TestScale.seeds(firstSeed..<(firstSeed + cases)), file: file, line: line) { _, random in
            let count = random.chance(1, in: 500) ? random.int(in: 41...500) : random.int(in: 0...40)
            let input = DiffInput.random(shape, count: count, using: &random)
            guard
                let failure = Self.failure(input)
                    ?? Self.failure(input.inverted).map({ "inverse diff (target → source): \($0)" })
            else { return nil }
            let size = "\(input.source.count) → \(input.target.count) elements"
            return input.source.count + input.target.count <= 60
                ? "\(shape), \(size): \(input): \(failure)"
                : "\(shape), \(size): \(failure)"
        }
    }

    /// Every check for one input, or `nil`.
    static func failure(_ input: DiffInput) -> String? {
        let (source, target) = (input.source, input.target)
        let changes = Changeset(from: source, to: target)
        if let failure = diffFailure(changes, from: source, to: target, identity: .key({ $0.id }, contentEquals: ==)) {
            return failure
        }
        let staged = StagedChangeset(changeset: changes, source: source, target: target)
        return stagedFailure(staged, for: changes, from: source, to: target, changesVerified: true)
    }
}
