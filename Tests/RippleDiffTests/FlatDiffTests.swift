import RippleDiff
import RippleTestSupport
import XCTest

/// Hand-written cases of the flat diff: the pairing rule, minimal moves, duplicates, and named
/// regression cases. The exhaustive and random suites check the same rules at scale.
final class FlatDiffTests: XCTestCase {
    private typealias Pair = Changeset.OffsetPair

    /// Diffs the identifiers, checks every rule, and returns the change-set.
    private func diff(
        _ source: [Int], _ target: [Int], file: StaticString = #filePath, line: UInt = #line
    ) -> Changeset {
        let changes = Changeset(from: source, to: target, identity: .value)
        if let failure = diffFailure(
            changes, from: source, to: target, identity: .key({ $0 }, contentEquals: { _, _ in true }))
        {
            XCTFail(failure, file: file, line: line)
        }
        return changes
    }

    // MARK: - Basics

    func test_emptyLists() {
        XCTAssertEqual(diff([], []), .unchanged(count: 0))
        XCTAssertEqual(diff([], [1, 2]), Changeset(sourceCount: 0, targetCount: 2, inserts: [0, 1]))
        XCTAssertEqual(diff([1, 2], []), Changeset(sourceCount: 2, targetCount: 0, deletes: [0, 1]))
    }

    func test_identicalLists_areUnchanged() {
        XCTAssertEqual(diff([1, 2, 3], [1, 2, 3]), .unchanged(count: 3))
        XCTAssertEqual(diff([1, 1, 1], [1, 1, 1]), .unchanged(count: 3), "duplicates in a common prefix are fine")
    }

    func test_allReplaced() {
        XCTAssertEqual(
            diff([1, 2, 3], [4, 5]),
            Changeset(sourceCount: 3, targetCount: 2, deletes: [0, 1, 2], inserts: [0, 1]))
    }

    func test_reversed_keepsOneElementAndMovesTheRest() {
        let changes = diff([0, 1, 2, 3, 4], [4, 3, 2, 1, 0])
        XCTAssertEqual(changes.moves.count, 4)
        XCTAssertEqual(changes.deletes, [])
        XCTAssertEqual(changes.inserts, [])
    }

    func test_aTableAtItsFullest_leavesScratchForEveryMatch() {
        // Found by fuzz-flat under AddressSanitizer: after the lookups the diff works in the
        // table's memory, 12 bytes per match, but a table filled to its limit (capacity minus a
        // third, rounded down) has less: 22 source elements in 32 slots is 256 bytes for 264. The
        // longest increasing run wrote past the end. (Without AddressSanitizer the overflow went
        // unnoticed into the allocator's padding; `.ci/run` runs this test under it.)
        var capacity = 16
        while capacity <= 1 << 12 {
            let count = capacity - capacity / 3
            let source = Array(0..<count)
            let changes = diff(source, source.reversed())
            XCTAssertEqual(changes.moves.count, count - 1, "\(count) elements")
            capacity <<= 1
        }
        // The fuzzer's case: repeated identifiers, paired by place, then left over.
        let fuzzed = [15, 15, 0] + [Int](repeating: 15, count: 21)
        let changes = diff(fuzzed, [Int](repeating: 15, count: 23) + [Int](repeating: 0, count: 6))
        XCTAssertEqual(changes.sourceCount, 24)
        let items =
            [TestItem(id: 15, content: 1), TestItem(id: 15), TestItem(id: 0, content: 1)]
            + [TestItem](repeating: TestItem(id: 15, content: 1), count: 21)
        let newItems =
            [TestItem](repeating: TestItem(id: 15, content: 1), count: 16) + [TestItem(id: 15)]
            + [TestItem](repeating: TestItem(id: 15, content: 1), count: 5) + [TestItem(id: 15)]
            + [TestItem](repeating: TestItem(id: 0), count: 6)
        let itemChanges = Changeset(from: items, to: newItems)
        XCTAssertNil(itemChanges.validationFailure())
        XCTAssertEqual(StagedChangeset(from: items, to: newItems).last?.data, newItems)
    }

    func test_movesAreMinimal_oneElementMovedFarAway() {
        // Moving the first element to the end is one move, not four.
        XCTAssertEqual(
            diff([0, 1, 2, 3, 4], [1, 2, 3, 4, 0]),
            Changeset(sourceCount: 5, targetCount: 5, moves: [Pair(source: 0, target: 4)]))
        XCTAssertEqual(
            diff([0, 1, 2, 3, 4], [4, 0, 1, 2, 3]),
            Changeset(sourceCount: 5, targetCount: 5, moves: [Pair(source: 4, target: 0)]))
    }

    func test_insertsAndDeletesAloneNeverMove() {
        XCTAssertEqual(
            diff([1, 2, 3, 4], [0, 2, 5, 4, 6]),
            Changeset(sourceCount: 4, targetCount: 5, deletes: [0, 2], inserts: [0, 2, 4]))
    }

    func test_swappingTwoElements_isOneMove() {
        XCTAssertEqual(
            diff([1, 2], [2, 1]),
            Changeset(sourceCount: 2, targetCount: 2, moves: [Pair(source: 1, target: 0)]))
    }

    // MARK: - The pairing rule

    func test_pairing_commonPrefixAndSuffixArePairedInPlace() {
        // 1 and 3 repeat in the middle, but the outer ones are paired in place first.
        let source = [1, 3, 1, 3]
        let target = [1, 1, 3, 3]
        let reference = referencePairing(source: source, target: target)
        XCTAssertEqual(reference.prefixCount, 1)
        XCTAssertEqual(reference.suffixCount, 1)
        let changes = diff(source, target)
        XCTAssertEqual(changes, Changeset(sourceCount: 4, targetCount: 4, moves: [Pair(source: 2, target: 1)]))
    }

    func test_pairing_repeatedIdentifiersPairInOrder() {
        // Between the prefix and suffix: the first unpaired 7 in the source goes with the next 7 in
        // the target. Source 7s at 1 and 3 pair with target 7s at 0 and 2; the 8 moves.
        let source = [9, 7, 8, 7, 5]
        let target = [7, 8, 7, 9, 5]
        let reference = referencePairing(source: source, target: target)
        XCTAssertEqual(
            reference.pairs,
            [
                Pair(source: 1, target: 0), Pair(source: 2, target: 1), Pair(source: 3, target: 2),
                Pair(source: 0, target: 3), Pair(source: 4, target: 4),
            ])
        let changes = diff(source, target)
        XCTAssertEqual(changes.moves, [Pair(source: 0, target: 3)])
    }

    func test_pairing_prefixAndSuffixTakeTheirRepeatsFirst() {
        // Both source 4s are in the common prefix and suffix, so the middle 4 of the target finds
        // no unpaired 4 and is an insert, in the 0's place.
        XCTAssertEqual(
            diff([4, 0, 4], [4, 4, 4]),
            Changeset(sourceCount: 3, targetCount: 3, deletes: [1], inserts: [1]))
    }

    func test_pairing_surplusRepeatsAreDeleted() {
        // Only the first 4 of the source finds a partner; the later ones are deleted.
        XCTAssertEqual(
            diff([0, 4, 4, 4], [4, 0]),
            Changeset(
                sourceCount: 4, targetCount: 2, deletes: [2, 3], moves: [Pair(source: 1, target: 0)],
                duplicates: Changeset.Duplicates(sourceOffsets: [2, 3])))
    }

    // MARK: - Duplicates

    func test_duplicates_areReportedInAscendingOrder() {
        let changes = diff([5, 2, 5, 2, 5, 1], [2, 2, 6, 5, 6, 5])
        XCTAssertEqual(changes.duplicates.sourceOffsets, [2, 3, 4])
        XCTAssertEqual(changes.duplicates.targetOffsets, [1, 4, 5])
    }

    func test_duplicates_onlyBetweenTheCommonPrefixAndSuffix() {
        // The 1 at source 0 and target 0 is in the common prefix, so the later 1s are not repeats
        // of anything the diff hashed: nothing is reported.
        let changes = diff([1, 2, 1], [1, 1, 2])
        XCTAssertTrue(changes.duplicates.isEmpty)
        XCTAssertEqual(changes.moves.count, 1)
        // Without the prefix, the same repeats are reported.
        XCTAssertEqual(
            diff([2, 1, 1], [1, 1, 2]).duplicates, Changeset.Duplicates(sourceOffsets: [2], targetOffsets: [1]))
    }

    func test_duplicates_onlyInTheTarget() {
        let changes = diff([1, 2], [3, 3, 3])
        XCTAssertEqual(changes.duplicates, Changeset.Duplicates(targetOffsets: [1, 2]))
        XCTAssertEqual(changes.inserts, [0, 1, 2])
    }

    func test_duplicates_sameIdentifierEverywhere_neverCrash() {
        for sourceCount in 0...12 {
            for targetCount in 0...12 {
                let changes = diff(Array(repeating: 0, count: sourceCount), Array(repeating: 0, count: targetCount))
                XCTAssertEqual(changes.moves, [])
                XCTAssertEqual(changes.deletes.count + changes.inserts.count, abs(sourceCount - targetCount))
            }
        }
        // And large, with content changes: every pair is an update, nothing moves.
        let source = (0..<5_000).map { TestItem(id: 0, content: $0 % 2) }
        let target = [TestItem](repeating: TestItem(id: 0, content: 0), count: 4_000)
        let changes = Changeset(from: source, to: target)
        XCTAssertNil(changes.validationFailure())
        XCTAssertEqual(changes.moves, [])
        assertEqualSequences(changes.applied(to: source) { target[$0] }, target)
    }

    func test_duplicates_manyRepeatsOfManyIdentifiers_neverCrash() {
        forEachSeed(TestScale.seeds(0..<200, minimum: 20)) { _, random in
            let distinct = random.int(in: 1...20)
            let source = DiffInput.duplicatedItems(count: random.int(in: 0...300), distinct: distinct, using: &random)
            let target = DiffInput.duplicatedItems(count: random.int(in: 0...300), distinct: distinct, using: &random)
            let changes = Changeset(from: source, to: target)
            if let failure = changes.validationFailure() { return failure }
            if let failure = orderingFailure(of: changes) { return failure }
            let replayed = changes.applied(to: source) { target[$0] }
            return firstMismatch(replayed, target)
        }
    }

    // MARK: - Hash collisions

    /// An identifier whose hash ignores part of its value: `buckets` 1 makes every identifier
    /// collide, so the diff must fall back on `==` for every probe.
    private struct CollidingID: Hashable {
        var value: Int
        var buckets: Int
        static func == (lhs: CollidingID, rhs: CollidingID) -> Bool { lhs.value == rhs.value }
        func hash(into hasher: inout Hasher) { hasher.combine(value % buckets) }
    }

    func test_collidingHashes_pairAsWithoutCollisions() {
        forEachSeed(TestScale.seeds(0..<3_000, minimum: 300)) { seed, random in
            let buckets = [1, 2, 5][Int(seed % 3)]
            let shape = DiffInputShape.allCases[Int(seed / 3) % DiffInputShape.allCases.count]
            let input = DiffInput.random(shape, count: random.int(in: 0...30), using: &random)
            let identifier = { (item: TestItem) in CollidingID(value: item.id, buckets: buckets) }
            let changes = Changeset(from: input.source, to: input.target, identity: .key(identifier, contentEquals: ==))
            if changes != Changeset(from: input.source, to: input.target) {
                return "\(buckets) buckets, \(input): \(changes) differs from the diff by Int identifiers"
            }
            return diffFailure(
                changes, from: input.source, to: input.target, identity: .key(identifier, contentEquals: ==)
            )
            .map { "\(buckets) buckets, \(input): \($0)" }
        }
    }

    // MARK: - Large inputs

    func test_largeShuffle_replaysAndMovesMinimally() throws {
        var random = SplitMix64(seed: 42)
        let source = DiffInput.uniqueItems(count: 3_000, using: &random)
        var target = source
        random.shuffle(&target)
        let changes = Changeset(from: source, to: target)
        XCTAssertNil(changes.validationFailure())
        assertEqualSequences(changes.applied(to: source) { target[$0] }, target)
        assertEqualSequences(try replay(changes, on: source) { target[$0] }.get(), target)
        // Minimal: matched − LIS of the source offsets in target order.
        let position = Dictionary(uniqueKeysWithValues: source.enumerated().map { ($1.id, $0) })
        let order = target.map { position[$0.id]! }
        XCTAssertEqual(changes.moves.count, 3_000 - patienceLongestIncreasingSubsequence(order))
    }

    /// An O(k log k) LIS length for inputs too large for the quadratic reference.
    private func patienceLongestIncreasingSubsequence(_ values: [Int]) -> Int {
        var tails: [Int] = []
        for value in values {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if tails[middle] < value { low = middle + 1 } else { high = middle }
            }
            if low == tails.count { tails.append(value) } else { tails[low] = value }
        }
        return tails.count
    }
}
