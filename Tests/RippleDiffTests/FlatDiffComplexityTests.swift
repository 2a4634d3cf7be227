import RippleDiff
import RippleTestSupport
import XCTest

/// Complexity fencing: counts the `hash(into:)` and `==` calls the diff makes on an instrumented
/// identifier, so that a slide from linear to quadratic work fails a test rather than only a
/// benchmark. No timing is measured.
///
/// The bounds, for *n* source and *m* target elements:
/// - at most one hash per element: `hashes ≤ n + m`;
/// - `equalities ≤ 2 · (n + m)`: one per element for the prefix and suffix trim, plus about one per
///   element to confirm a table hit (a 31-bit tag filters out nearly all other comparisons);
/// - an unchanged list hashes nothing and compares each identifier at most once.
final class FlatDiffComplexityTests: XCTestCase {
    private static let equalityFactor = 2

    /// An element whose identifier counts its calls. Its `==` compares the identifiers' values
    /// without counting, so that only the diff's identity work is counted.
    private struct CountedItem: Identifiable, Equatable {
        var id: CountingID
        var content: Int
        static func == (lhs: CountedItem, rhs: CountedItem) -> Bool {
            lhs.id.value == rhs.id.value && lhs.content == rhs.content
        }
    }

    private enum Scenario: CaseIterable {
        case shuffled, inserted, deleted, allReplaced, duplicates, sameIdentifier, reversed, moveOne, unchanged

        /// The identifier lists for `count` source elements.
        func lists(count: Int, using random: inout SplitMix64) -> (source: [Int], target: [Int]) {
            let source = Array(0..<count)
            switch self {
            case .shuffled:
                var target = source
                random.shuffle(&target)
                return (source, target)
            case .inserted:
                var target = source
                for fresh in count..<(count + count / 10) {
                    target.insert(fresh, at: random.int(below: target.count + 1))
                }
                return (source, target)
            case .deleted:
                return (source, source.filter { _ in !random.chance(1, in: 10) })
            case .allReplaced:
                return (source, Array(count..<(2 * count)))
            case .duplicates:
                return (
                    (0..<count).map { _ in random.int(below: 10) },
                    (0..<count).map { _ in random.int(below: 10) }
                )
            case .sameIdentifier:
                // Every element shares one identifier; the target is shorter and starts elsewhere.
                return ([Int](repeating: 7, count: count), [1] + [Int](repeating: 7, count: count / 2))
            case .reversed:
                return (source, source.reversed())
            case .moveOne:
                return (source, Array(source.dropFirst()) + [0])
            case .unchanged:
                return (source, source)
            }
        }
    }

    func test_counts_n1000() throws {
        try skipUnderInternalChecks()
        checkCounts(count: 1_000)
    }

    func test_counts_n10000() throws {
        try skipUnderInternalChecks()
        checkCounts(count: 10_000)
    }

    /// `RIPPLE_INTERNAL_CHECKS` replays every diff, which calls the identity and content closures
    /// again: the counts then measure the checks, not the diff.
    private func skipUnderInternalChecks() throws {
        #if RIPPLE_INTERNAL_CHECKS
        throw XCTSkip("RIPPLE_INTERNAL_CHECKS replays every diff, calling the closures again")
        #endif
    }

    private func checkCounts(count: Int, file: StaticString = #filePath, line: UInt = #line) {
        var random = SplitMix64(seed: UInt64(count))
        for scenario in Scenario.allCases {
            let (sourceIDs, targetIDs) = scenario.lists(count: count, using: &random)
            let total = sourceIDs.count + targetIDs.count
            for overload in ["closures", "Identifiable", "Hashable", "Hashable, blocked table"] {
                let counter = CallCounter()
                let context = "\(scenario), n = \(count), \(overload)"
                let changes: Changeset
                switch overload {
                case "closures":
                    changes = Changeset(
                        from: sourceIDs, to: targetIDs, identity: .key({ CountingID($0, counter) }, contentEquals: ==))
                case "Identifiable":
                    let source = sourceIDs.map { CountedItem(id: CountingID($0, counter), content: 0) }
                    let target = targetIDs.map { CountedItem(id: CountingID($0, counter), content: 0) }
                    changes = Changeset(from: source, to: target)
                case "Hashable":
                    changes = Changeset(
                        from: sourceIDs.map { CountingID($0, counter) }, to: targetIDs.map { CountingID($0, counter) },
                        identity: .value)
                default:
                    // The path large lists take: the table filled and probed by blocks.
                    changes = RippleDiff._flatDiff(
                        from: sourceIDs.map { CountingID($0, counter) }, to: targetIDs.map { CountingID($0, counter) },
                        touchingCapacity: 0)
                }
                XCTAssertNil(changes.validationFailure(), context, file: file, line: line)
                XCTAssertLessThanOrEqual(counter.hashes, total, "hashes, \(context)", file: file, line: line)
                XCTAssertLessThanOrEqual(
                    counter.equalities, Self.equalityFactor * total, "equalities, \(context)", file: file, line: line)
                if scenario == .unchanged {
                    XCTAssertEqual(
                        counter.hashes, 0, "an unchanged list hashes nothing, \(overload)", file: file, line: line)
                    XCTAssertLessThanOrEqual(
                        counter.equalities, count, "at most one comparison per element, \(overload)", file: file,
                        line: line)
                    XCTAssertTrue(changes.isEmpty, file: file, line: line)
                }
            }
        }
    }

    func test_counts_stagedChangesetDiffsOnce() {
        let counter = CallCounter()
        var random = SplitMix64(seed: 7)
        let (sourceIDs, targetIDs) = Scenario.shuffled.lists(count: 2_000, using: &random)
        let staged = StagedChangeset(
            from: sourceIDs, to: targetIDs, identity: .key({ CountingID($0, counter) }, contentEquals: ==))
        XCTAssertEqual(staged.count, 1)
        XCTAssertLessThanOrEqual(counter.hashes, 4_000)
        XCTAssertLessThanOrEqual(counter.equalities, Self.equalityFactor * 4_000)
    }

    func test_counter_countsEveryCall() {
        let counter = CallCounter()
        let a = CountingID(1, counter)
        let b = CountingID(1, counter)
        XCTAssertEqual(a, b)
        XCTAssertFalse(a == CountingID(2, counter))
        _ = a.hashValue
        _ = Set([a, b])
        XCTAssertEqual(counter.equalities, 3)
        XCTAssertGreaterThanOrEqual(counter.hashes, 3)
        counter.reset()
        XCTAssertEqual(counter.hashes, 0)
        XCTAssertEqual(counter.equalities, 0)
    }
}
