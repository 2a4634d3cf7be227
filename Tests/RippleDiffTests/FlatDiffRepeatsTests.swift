import RippleDiff
import RippleTestSupport
import XCTest

/// The pairing of repeated identifiers by place (`DuplicatePairing.swift`, `docs/diff.md`): what
/// it keeps in place that in-order pairing moves, where it falls back, and a seeded differential
/// test against the brute-force reference on lists long enough for the window to matter (the
/// exhaustive and random suites use lists of up to 40 elements, mostly within one window).
final class FlatDiffRepeatsTests: XCTestCase {
    /// Identifiers that cycle through `distinct` values: every identifier repeats.
    private func cycling(_ count: Int, distinct: Int) -> [Int] { (0..<count).map { $0 % distinct } }

    /// `source` and `target` each between two identifiers of their own, so that no common prefix or
    /// suffix is trimmed: the whole lists reach the pairing.
    private func framed(_ source: [Int], _ target: [Int]) -> ([Int], [Int]) {
        ([-1] + source + [-2], [-3] + target + [-4])
    }

    /// Diffs by place and in order, checks every rule for the first, and returns both.
    private func diff(
        _ source: [Int], _ target: [Int], file: StaticString = #filePath, line: UInt = #line
    ) -> (byPlace: Changeset, inOrder: Changeset) {
        let byPlace = Changeset(from: source, to: target, identity: .value)
        if let failure = diffFailure(
            byPlace, from: source, to: target, identity: .key({ $0 }, contentEquals: { _, _ in true }))
        {
            XCTFail(failure, file: file, line: line)
        }
        XCTAssertEqual(RippleDiff._flatDiff(from: source, to: target), byPlace, file: file, line: line)
        let inOrder = RippleDiff._flatDiff(from: source, to: target, keepingOrder: false)
        XCTAssertNil(inOrder.validationFailure(), file: file, line: line)
        return (byPlace, inOrder)
    }

    // MARK: - What stays in place

    func test_aDeletedOccurrence_movesNothingElse() {
        // 60 elements over 10 identifiers; the element at 3 goes. In order, every later occurrence
        // of its identifier pairs with its neighbour's partner, 10 places off.
        var target = cycling(60, distinct: 20)
        target.remove(at: 3)
        let (source, framedTarget) = framed(cycling(60, distinct: 20), target)
        let (byPlace, inOrder) = diff(source, framedTarget)
        XCTAssertEqual(byPlace.deletes, [0, 4, 61])
        XCTAssertEqual(byPlace.inserts, [0, 60])
        XCTAssertEqual(byPlace.moves, [])
        XCTAssertGreaterThan(inOrder.moves.count, 0, "in order, the repeats after the delete move")
    }

    func test_anInsertedOccurrence_movesNothingElse() {
        var target = cycling(60, distinct: 20)
        target.insert(7, at: 2)
        let (source, framedTarget) = framed(cycling(60, distinct: 20), target)
        let (byPlace, inOrder) = diff(source, framedTarget)
        XCTAssertEqual(byPlace.deletes, [0, 61])
        XCTAssertEqual(byPlace.inserts, [0, 3, 62])
        XCTAssertEqual(byPlace.moves, [])
        XCTAssertGreaterThan(inOrder.moves.count, 0)
    }

    func test_aMovedOccurrence_isOneMove() {
        // The single occurrence left unpaired on each side pairs, as a move.
        var target = cycling(60, distinct: 20)
        target.insert(target.remove(at: 4), at: 50)
        let (source, framedTarget) = framed(cycling(60, distinct: 20), target)
        let (byPlace, _) = diff(source, framedTarget)
        XCTAssertEqual(byPlace.deletes, [0, 61])
        XCTAssertEqual(byPlace.inserts, [0, 61])
        XCTAssertEqual(byPlace.moves, [Changeset.OffsetPair(source: 5, target: 51)])
    }

    func test_ambiguousLeftovers_areDeletedAndInserted() {
        // Two occurrences of 4 leave the front and two appear at the back: which one went where is
        // anybody's guess, so they are deleted and inserted, not moved.
        let source = [4, 4] + (100..<140) + [5]
        let target = Array(100..<140) + [4, 4, 6]
        let (byPlace, _) = diff(source, target)
        XCTAssertEqual(byPlace.moves, [])
        XCTAssertEqual(byPlace.deletes, [0, 1, 42])
        XCTAssertEqual(byPlace.inserts, [40, 41, 42])
    }

    func test_aShiftedBlock_isFollowed() {
        // A block of 30 elements deleted in the middle shifts everything after it by 30; the drift
        // follows after a few elements (which wait, and pair afterwards when they can). In order,
        // every identifier with an occurrence in the block pairs one occurrence off from then on.
        var random = SplitMix64(seed: 7)
        let list = (0..<200).map { _ in random.int(below: 25) }
        var target = list
        target.removeSubrange(80..<110)
        let (source, framedTarget) = framed(list, target)
        let (byPlace, inOrder) = diff(source, framedTarget)
        // The 30 deleted, the two ends, and at most two elements right after the shift that find no
        // partner before the drift catches up (their identifiers repeat, so they are deleted and
        // inserted rather than paired across the gap).
        let lost = byPlace.inserts.count - 2
        XCTAssertLessThanOrEqual(lost, 2)
        XCTAssertEqual(byPlace.deletes.count, 32 + lost)
        XCTAssertLessThanOrEqual(byPlace.moves.count, 2)
        XCTAssertGreaterThan(inOrder.moves.count, 10)
    }

    // MARK: - Where the pairing stays in order

    func test_uniqueSourceIdentifiers_pairInOrder() {
        // With no repeat in the source, every identifier has one occurrence to take: exactly the
        // in-order pairing, even when the target repeats identifiers.
        forEachSeed(0..<500) { _, random in
            let count = random.int(in: 0...200)
            let source = Array(0..<count).shuffled(using: &random)
            let target = (0..<random.int(in: 0...200)).map { _ in random.int(below: count + 20) }
            let byPlace = Changeset(from: source, to: target, identity: .value)
            let inOrder = RippleDiff._flatDiff(from: source, to: target, keepingOrder: false)
            return byPlace == inOrder ? nil : "\(source) → \(target): by place \(byPlace), in order \(inOrder)"
        }
    }

    func test_theFirstRepeat_anywhereInTheSource() {
        // The source pass (last to first) inserts with a branch while identifiers are unique, and
        // without one from the first repeat it meets on. Wherever that repeat is (the first or
        // last element, either side of a block of 16), the change-set follows every rule, the
        // blocked path gives the same one, and exactly the later occurrence is reported.
        for count in [2, 3, 16, 17, 33] {
            for later in 1..<count {
                for earlier in 0..<later {
                    var inner = Array(100..<(100 + count))
                    inner[later] = inner[earlier]
                    // One more occurrence of the repeated identifier, the first element gone, the
                    // last moved to the front.
                    let edited = [inner[count - 1], inner[earlier]] + inner.dropFirst().dropLast()
                    let (source, target) = framed(inner, edited)
                    let changes = diff(source, target).byPlace
                    XCTAssertEqual(
                        RippleDiff._flatDiff(from: source, to: target, touchingCapacity: 0), changes,
                        "\(count) elements, repeat at \(earlier) and \(later)")
                    XCTAssertEqual(
                        changes.duplicates.sourceOffsets, [later + 1],
                        "\(count) elements, repeat at \(earlier) and \(later)")
                }
            }
        }
    }

    func test_theLookAheadStopsAfterEightOccurrences() {
        // The bound that keeps the pairing O(1) per element: a target element passes over at most
        // eight occurrences before its expected offset. Here ten occurrences of 0 precede the one
        // at its expected offset (source 40), so the target's 0 waits instead of reaching it, and
        // with eleven unpaired 0s left, it is inserted and they are deleted. With two occurrences
        // fewer, it reaches its own and pairs in place.
        let elements = Array(100..<130)
        let source = Array(repeating: 0, count: 10) + elements + [0, 1]
        let target = elements + [0, 2]
        let (byPlace, inOrder) = diff(source, target)
        XCTAssertEqual(byPlace.inserts, [30, 31])
        XCTAssertEqual(byPlace.deletes, Array(0..<10) + [40, 41])
        XCTAssertEqual(byPlace.moves, [])
        XCTAssertEqual(inOrder.deletes, Array(1..<10) + [40, 41], "in order, the first 0 pairs (and moves)")

        let nearer = Array(repeating: 0, count: 8) + elements + [0, 1]
        let (pairedInPlace, _) = diff(nearer, target)
        XCTAssertEqual(pairedInPlace.inserts, [31])
        XCTAssertEqual(pairedInPlace.deletes, Array(0..<8) + [39])
        XCTAssertEqual(pairedInPlace.moves, [])
    }

    // MARK: - Differential and quality

    /// Lists of 100–1,200 elements whose identifiers repeat, under scattered edits, block edits
    /// and shuffles, in both directions: every rule, and the exact pairs of the reference.
    func test_random_longListsWithRepeats_matchTheReference() {
        forEachSeedConcurrently(9_000_000..<9_000_120) { seed, random in
            let count = random.int(in: 100...1_200)
            let distinct = random.int(in: 2...Swift.max(2, count / 3))
            let source = (0..<count).map { _ in TestItem(id: random.int(below: distinct), content: random.int(below: 2))
            }
            let target = Self.edited(source, distinct: distinct, kind: Int(seed % 3), using: &random)
            for (from, to) in [(source, target), (target, source)] {
                let changes = Changeset(from: from, to: to)
                if let failure = diffFailure(changes, from: from, to: to, identity: .key({ $0.id }, contentEquals: ==))
                {
                    return "\(from.count) → \(to.count) elements over \(distinct) identifiers: \(failure)"
                }
            }
            return nil
        }
    }

    /// On the benchmark's `dups` shape (identifiers drawn from a fifth as many values, 10% deleted
    /// and inserted at random, 1% moved, 5% updated), the moves stay within 1.25× those of
    /// `inferringMoves()`, and more elements stay in place than with in-order pairing.
    func test_dupsShape_movesCloseToTheStandardLibrary() {
        forEachSeed(0..<12) { _, random in
            let count = 2_000
            let distinct = count / 5
            let source = (0..<count).map { _ in random.int(below: distinct) }
            let target = Self.scattered(source, distinct: distinct, using: &random)
            let byPlace = Changeset(from: source, to: target, identity: .value)
            let inOrder = RippleDiff._flatDiff(from: source, to: target, keepingOrder: false)
            let stdlibMoves = target.difference(from: source).inferringMoves().reduce(0) { moves, change in
                if case .insert(_, _, let associated) = change, associated != nil { return moves + 1 }
                return moves
            }
            func kept(_ changes: Changeset) -> Int { count - changes.deletes.count - changes.moves.count }
            if Double(byPlace.moves.count) > 1.25 * Double(max(stdlibMoves, 4)) {
                return "\(byPlace.moves.count) moves, inferringMoves() finds \(stdlibMoves)"
            }
            if kept(byPlace) < kept(inOrder) {
                return "\(kept(byPlace)) elements stay in place, in order \(kept(inOrder))"
            }
            return nil
        }
    }

    // MARK: - Inputs

    /// 10% deleted, 10% inserted (identifiers from `0..<distinct`), 1% moved, at random places.
    private static func scattered(_ source: [Int], distinct: Int, using random: inout SplitMix64) -> [Int] {
        var target = source
        for _ in 0..<(source.count / 10) where !target.isEmpty { target.remove(at: random.int(below: target.count)) }
        for _ in 0..<(source.count / 100) where !target.isEmpty {
            let moved = target.remove(at: random.int(below: target.count))
            target.insert(moved, at: random.int(in: 0...target.count))
        }
        for _ in 0..<(source.count / 10) {
            target.insert(random.int(below: distinct), at: random.int(in: 0...target.count))
        }
        return target
    }

    /// Kind 0: scattered edits with content changes; 1: a block deleted and another inserted; 2: a
    /// stretch shuffled.
    private static func edited(
        _ source: [TestItem], distinct: Int, kind: Int, using random: inout SplitMix64
    ) -> [TestItem] {
        var target = source
        switch kind {
        case 0:
            for _ in 0..<random.int(in: 0...(source.count / 8)) where !target.isEmpty {
                target.remove(at: random.int(below: target.count))
            }
            for _ in 0..<random.int(in: 0...(source.count / 8)) {
                let item = TestItem(id: random.int(below: distinct), content: random.int(below: 2))
                target.insert(item, at: random.int(in: 0...target.count))
            }
            for _ in 0..<random.int(in: 0...(source.count / 50)) where !target.isEmpty {
                let moved = target.remove(at: random.int(below: target.count))
                target.insert(moved, at: random.int(in: 0...target.count))
            }
            for _ in 0..<random.int(in: 0...(source.count / 20)) where !target.isEmpty {
                target[random.int(below: target.count)].content += 1
            }
        case 1:
            let start = random.int(below: target.count)
            target.removeSubrange(start..<Swift.min(target.count, start + random.int(in: 1...(source.count / 4))))
            let block = (0..<random.int(in: 1...(source.count / 4))).map { _ in
                TestItem(id: random.int(below: distinct))
            }
            target.insert(contentsOf: block, at: random.int(in: 0...target.count))
        default:
            let start = random.int(below: target.count)
            let end = Swift.min(target.count, start + random.int(in: 1...64))
            var stretch = Array(target[start..<end])
            random.shuffle(&stretch)
            target.replaceSubrange(start..<end, with: stretch)
        }
        return target
    }
}
