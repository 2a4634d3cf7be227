import RippleDiff
import RippleTestSupport
import XCTest

/// `Changeset.applied(to:element:)`, checked against the independent UIKit-style replay oracle, and
/// the oracle itself.
final class ChangesetReplayTests: XCTestCase {
    private typealias Pair = Changeset.OffsetPair

    // MARK: - applied(to:element:)

    func test_applied_theDocumentationExample() {
        let old = ["a", "b", "c"]
        let new = ["c", "a", "d"]
        let changes = Changeset(from: old, to: new, identity: .value)
        XCTAssertEqual(
            changes,
            Changeset(sourceCount: 3, targetCount: 3, deletes: [1], inserts: [2], moves: [Pair(source: 2, target: 0)]))
        assertEqualSequences(changes.applied(to: old) { new[$0] }, new)
        XCTAssertEqual(try replay(changes, on: old) { new[$0] }.get(), new)
    }

    func test_applied_untouchedElementsKeepTheirOrderAndFillTheFreeSlots() {
        // Insert X at 0, move e to 2, delete b: a, c and d fill slots 1, 3 and 4, in that order.
        let changes = Changeset(
            sourceCount: 5, targetCount: 5, deletes: [1], inserts: [0], moves: [Pair(source: 4, target: 2)])
        let expected = ["X", "a", "e", "c", "d"]
        XCTAssertEqual(changes.applied(to: ["a", "b", "c", "d", "e"]) { _ in "X" }, expected)
        XCTAssertEqual(try replay(changes, on: ["a", "b", "c", "d", "e"]) { _ in "X" }.get(), expected)
        XCTAssertEqual(
            try replayRows(of: changes).get(),
            [.inserted(0), .source(0), .source(4), .source(2), .source(3)])
    }

    func test_applied_movedAndUpdatedElementTakesTheNewValue() {
        let changes = Changeset(
            sourceCount: 3, targetCount: 3, moves: [Pair(source: 2, target: 0)], updates: [Pair(source: 2, target: 0)])
        let target = ["C", "a", "b"]
        XCTAssertEqual(changes.applied(to: ["a", "b", "c"]) { target[$0] }, target)
        XCTAssertEqual(try replay(changes, on: ["a", "b", "c"]) { target[$0] }.get(), target)
    }

    func test_applied_emptyChangesetReturnsTheSource() {
        XCTAssertEqual(Changeset.unchanged(count: 3).applied(to: [1, 2, 3]) { _ in 0 }, [1, 2, 3])
        XCTAssertEqual(Changeset.unchanged(count: 0).applied(to: [Int]()) { _ in 0 }, [])
    }

    func test_applied_asksOnlyForInsertedAndUpdatedElements() {
        let changes = Changeset(
            sourceCount: 4, targetCount: 4, deletes: [0], inserts: [3],
            moves: [Pair(source: 3, target: 0)], updates: [Pair(source: 1, target: 1)])
        var asked: [Int] = []
        _ = changes.applied(to: [10, 11, 12, 13]) { offset in
            asked.append(offset)
            return 100 + offset
        }
        XCTAssertEqual(asked.sorted(), [1, 3])
    }

    func test_applied_rethrowsTheElementClosuresError() {
        struct Refused: Error, Equatable {}
        let changes = Changeset(sourceCount: 0, targetCount: 1, inserts: [0])
        XCTAssertThrowsError(try changes.applied(to: [Int]()) { _ in throw Refused() }) { error in
            XCTAssertEqual(error as? Refused, Refused())
        }
    }

    func test_oracle_ignoresTheOrderOfParts_validationDoesNot() {
        // UIKit reads the parts of a batch in any order, and so does the test oracle; but a
        // `Changeset` documents its lists as ascending, so `validationFailure()` (and with it
        // `applied(to:element:)`) rejects a shuffled one.
        let ordered = Changeset(
            sourceCount: 5, targetCount: 5, deletes: [0, 3], inserts: [1, 4],
            moves: [Pair(source: 4, target: 0), Pair(source: 1, target: 3)],
            updates: [Pair(source: 1, target: 3), Pair(source: 2, target: 2)])
        var shuffled = ordered
        shuffled.deletes.reverse()
        shuffled.inserts.reverse()
        shuffled.moves.reverse()
        shuffled.updates.reverse()
        let source = ["a", "b", "c", "d", "e"]
        let element = { (offset: Int) in "t\(offset)" }
        XCTAssertEqual(shuffled.validationFailure(), "deletes must be ascending: 0 follows 3")
        XCTAssertEqual(
            try replay(shuffled, on: source, element: element).get(), ordered.applied(to: source, element: element))
    }

    func test_applied_agreesWithTheOracle_onRandomValidChangesets() {
        forEachSeed(0..<20_000) { seed, random in
            let changes = Changeset.randomValid(using: &random)
            if let failure = changes.validationFailure() { return "\(changes): \(failure)" }
            if let failure = orderingFailure(of: changes) { return "\(changes): \(failure)" }
            let source = (0..<changes.sourceCount).map { "s\($0)" }
            let element = { (offset: Int) in "t\(offset)" }
            switch replay(changes, on: source, element: element) {
            case .failure(let failure):
                return "\(changes): the oracle rejects it: \(failure)"
            case .success(let expected):
                return firstMismatch(changes.applied(to: source, element: element), expected).map {
                    "\(changes): \($0)"
                }
            }
        }
    }

    // MARK: - The oracle

    func test_oracle_rejectsWhatUIKitRejects() {
        let cases: [(Changeset, String)] = [
            (Changeset(sourceCount: -1, targetCount: 0), "negative count"),
            (Changeset(sourceCount: 2, targetCount: 0, deletes: [1, 1]), "source offset 1 is removed twice"),
            (
                Changeset(sourceCount: 2, targetCount: 1, deletes: [0], moves: [Pair(source: 0, target: 0)]),
                "source offset 0 is removed twice"
            ),
            (Changeset(sourceCount: 1, targetCount: 0, deletes: [1]), "source offset 1 is out of range 0..<1"),
            (Changeset(sourceCount: 1, targetCount: 3, inserts: [1, 1]), "target offset 1 is filled twice"),
            (Changeset(sourceCount: 0, targetCount: 1, inserts: [1]), "target offset 1 is out of range"),
            (Changeset(sourceCount: 0, targetCount: 2, inserts: [1]), "target offset 1 is out of range"),
            (Changeset(sourceCount: 2, targetCount: 2, deletes: [0]), "the replay has 1 rows"),
            (
                Changeset(
                    sourceCount: 2, targetCount: 2, moves: [Pair(source: 0, target: 1)],
                    updates: [Pair(source: 0, target: 0)]),
                "update 0→0 names source 0, but target 0 holds s1"
            ),
            (
                Changeset(
                    sourceCount: 1, targetCount: 1, updates: [Pair(source: 0, target: 0), Pair(source: 0, target: 0)]),
                "update 0→0 is listed twice"
            ),
            (Changeset(sourceCount: 1, targetCount: 1, updates: [Pair(source: 0, target: 1)]), "out of range"),
        ]
        for (changes, expected) in cases {
            guard let message = replayRows(of: changes).failureMessage else {
                XCTFail("the oracle accepts \(changes), expected \"\(expected)\"")
                continue
            }
            XCTAssertTrue(message.contains(expected), "\(changes): \"\(message)\" should mention \"\(expected)\"")
        }
        XCTAssertEqual(
            replay(Changeset(sourceCount: 2, targetCount: 2), on: [1]) { _ in 0 }.failureMessage,
            "the source has 1 elements, the change-set expects 2")
    }

    func test_orderingFailure_findsEachUnorderedPart() {
        let ordered = Changeset(
            sourceCount: 6, targetCount: 6, deletes: [0, 1], inserts: [0, 1],
            moves: [Pair(source: 5, target: 2), Pair(source: 4, target: 3)],
            updates: [Pair(source: 2, target: 4), Pair(source: 3, target: 5)],
            duplicates: Changeset.Duplicates(sourceOffsets: [3, 4], targetOffsets: [4, 5]))
        XCTAssertNil(orderingFailure(of: ordered))
        var changes = ordered
        changes.deletes = [1, 0]
        XCTAssertEqual(orderingFailure(of: changes)?.hasPrefix("deletes"), true)
        changes = ordered
        changes.inserts = [0, 0]
        XCTAssertEqual(orderingFailure(of: changes)?.hasPrefix("inserts"), true)
        changes = ordered
        changes.moves.reverse()
        XCTAssertEqual(orderingFailure(of: changes)?.hasPrefix("moves"), true)
        changes = ordered
        changes.updates.reverse()
        XCTAssertEqual(orderingFailure(of: changes)?.hasPrefix("updates"), true)
        changes = ordered
        changes.duplicates.sourceOffsets.reverse()
        XCTAssertEqual(orderingFailure(of: changes)?.hasPrefix("duplicate source"), true)
        changes = ordered
        changes.duplicates.targetOffsets.reverse()
        XCTAssertEqual(orderingFailure(of: changes)?.hasPrefix("duplicate target"), true)
    }

    func test_reloadSafetyFailure_followsUIKitsReloadRule() {
        // Updates with deletes and inserts only: UIKit places each reload right.
        XCTAssertNil(
            reloadSafetyFailure(
                of: Changeset(
                    sourceCount: 3, targetCount: 3, deletes: [0], inserts: [0], updates: [Pair(source: 2, target: 2)])))
        XCTAssertNil(
            reloadSafetyFailure(
                of: Changeset(
                    sourceCount: 3, targetCount: 3, deletes: [0], inserts: [2], updates: [Pair(source: 1, target: 0)])))
        // An update of a moved element (R3b, test vector V06).
        XCTAssertNotNil(
            reloadSafetyFailure(
                of: Changeset(
                    sourceCount: 3, targetCount: 3, moves: [Pair(source: 1, target: 0)],
                    updates: [Pair(source: 1, target: 0)])))
        // An update shifted by a move (R3f, test vector V25): row 2 lands at 1, UIKit reloads 2.
        XCTAssertNotNil(
            reloadSafetyFailure(
                of: Changeset(
                    sourceCount: 4, targetCount: 4, moves: [Pair(source: 0, target: 3)],
                    updates: [Pair(source: 2, target: 1)])))
        // An update next to a move that does not shift it.
        XCTAssertNil(
            reloadSafetyFailure(
                of: Changeset(
                    sourceCount: 4, targetCount: 4, moves: [Pair(source: 2, target: 1)],
                    updates: [Pair(source: 0, target: 0)])))
    }
}
