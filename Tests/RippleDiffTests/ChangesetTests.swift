import RippleDiff
import RippleTestSupport
import XCTest

final class ChangesetTests: XCTestCase {
    private typealias Pair = Changeset.OffsetPair

    // MARK: - Construction and properties

    func test_init_defaultsToNoChanges() {
        let changes = Changeset(sourceCount: 3, targetCount: 4)
        XCTAssertEqual(changes.sourceCount, 3)
        XCTAssertEqual(changes.targetCount, 4)
        XCTAssertEqual(changes.deletes, [])
        XCTAssertEqual(changes.inserts, [])
        XCTAssertEqual(changes.moves, [])
        XCTAssertEqual(changes.updates, [])
        XCTAssertTrue(changes.duplicates.isEmpty)
        XCTAssertTrue(changes.isEmpty)
        XCTAssertEqual(changes.changeCount, 0)
    }

    func test_unchanged_keepsTheCountAndChangesNothing() {
        for count in [0, 1, 7] {
            let changes = Changeset.unchanged(count: count)
            XCTAssertEqual(changes, Changeset(sourceCount: count, targetCount: count))
            XCTAssertTrue(changes.isEmpty)
            XCTAssertNil(changes.validationFailure())
        }
    }

    func test_isEmpty_isFalseForEachKindOfChange() {
        XCTAssertFalse(Changeset(sourceCount: 1, targetCount: 0, deletes: [0]).isEmpty)
        XCTAssertFalse(Changeset(sourceCount: 0, targetCount: 1, inserts: [0]).isEmpty)
        XCTAssertFalse(Changeset(sourceCount: 2, targetCount: 2, moves: [Pair(source: 0, target: 1)]).isEmpty)
        XCTAssertFalse(Changeset(sourceCount: 1, targetCount: 1, updates: [Pair(source: 0, target: 0)]).isEmpty)
    }

    func test_isEmpty_ignoresTheDuplicateReport() {
        // A report is information about the input, not a change.
        let changes = Changeset(
            sourceCount: 2, targetCount: 2, duplicates: Changeset.Duplicates(sourceOffsets: [1]))
        XCTAssertTrue(changes.isEmpty)
        XCTAssertEqual(changes.changeCount, 0)
    }

    func test_changeCount_addsEveryKindOfChange() {
        let changes = Changeset(
            sourceCount: 5, targetCount: 5,
            deletes: [0, 1], inserts: [3, 4],
            moves: [Pair(source: 4, target: 0)],
            updates: [Pair(source: 2, target: 1), Pair(source: 3, target: 2)],
            duplicates: Changeset.Duplicates(sourceOffsets: [3], targetOffsets: [2]))
        XCTAssertNil(changes.validationFailure())
        XCTAssertEqual(changes.changeCount, 7)
    }

    func test_offsetPair_ordersBySourceThenByTarget() {
        let pairs = [Pair(source: 2, target: 0), Pair(source: 1, target: 5), Pair(source: 1, target: 3)]
        XCTAssertEqual(
            pairs.sorted(), [Pair(source: 1, target: 3), Pair(source: 1, target: 5), Pair(source: 2, target: 0)])
        XCTAssertFalse(Pair(source: 1, target: 1) < Pair(source: 1, target: 1))
    }

    func test_duplicates_isEmptyOnlyWithoutOffsets() {
        XCTAssertTrue(Changeset.Duplicates().isEmpty)
        XCTAssertFalse(Changeset.Duplicates(sourceOffsets: [1]).isEmpty)
        XCTAssertFalse(Changeset.Duplicates(targetOffsets: [1]).isEmpty)
    }

    func test_equalityAndHashing_coverEveryPart() {
        let base = Changeset(sourceCount: 2, targetCount: 2)
        var variants = [base]
        var changed = base
        changed.sourceCount = 3
        variants.append(changed)
        changed = base
        changed.targetCount = 3
        variants.append(changed)
        changed = base
        changed.deletes = [0]
        variants.append(changed)
        changed = base
        changed.inserts = [0]
        variants.append(changed)
        changed = base
        changed.moves = [Pair(source: 0, target: 1)]
        variants.append(changed)
        changed = base
        changed.updates = [Pair(source: 0, target: 0)]
        variants.append(changed)
        changed = base
        changed.duplicates = Changeset.Duplicates(targetOffsets: [1])
        variants.append(changed)
        XCTAssertEqual(Set(variants).count, variants.count, "each part takes part in == and hashing")
    }

    func test_valueTypes_areSendable() {
        func requireSendable<T: Sendable>(_: T.Type) {}
        requireSendable(Changeset.self)
        requireSendable(Changeset.OffsetPair.self)
        requireSendable(Changeset.Duplicates.self)
        requireSendable(StagedChangeset<[TestItem]>.self)
        requireSendable(StagedChangeset<[TestItem]>.Stage.self)
        requireSendable(ElementPath.self)
    }

    // MARK: - validationFailure()

    func test_validationFailure_acceptsValidChangesets() {
        let valid = [
            Changeset(sourceCount: 0, targetCount: 0),
            Changeset(sourceCount: 3, targetCount: 0, deletes: [0, 1, 2]),
            Changeset(sourceCount: 0, targetCount: 2, inserts: [0, 1]),
            Changeset(sourceCount: 3, targetCount: 3, moves: [Pair(source: 2, target: 0)]),
            Changeset(
                sourceCount: 4, targetCount: 4, deletes: [1], inserts: [3],
                moves: [Pair(source: 3, target: 0)], updates: [Pair(source: 0, target: 1), Pair(source: 3, target: 0)]),
        ]
        for changes in valid {
            XCTAssertNil(changes.validationFailure(), "\(changes)")
            if case .failure(let failure) = replayRows(of: changes) { XCTFail("oracle: \(failure)") }
        }
    }

    func test_validationFailure_namesTheFirstProblem() {
        let cases: [(Changeset, String)] = [
            (Changeset(sourceCount: -1, targetCount: 0), "negative count"),
            (Changeset(sourceCount: 2, targetCount: 1, deletes: [2]), "delete 2 is out of range 0..<2"),
            (Changeset(sourceCount: 2, targetCount: 1, deletes: [-1]), "out of range"),
            (Changeset(sourceCount: 2, targetCount: 0, deletes: [1, 1]), "deleted twice"),
            (Changeset(sourceCount: 0, targetCount: 1, inserts: [1]), "insert 1 is out of range 0..<1"),
            (Changeset(sourceCount: 0, targetCount: 2, inserts: [0, 0]), "inserted twice"),
            (Changeset(sourceCount: 1, targetCount: 1, moves: [Pair(source: 1, target: 0)]), "source out of range"),
            (Changeset(sourceCount: 1, targetCount: 1, moves: [Pair(source: 0, target: 1)]), "target out of range"),
            (
                Changeset(sourceCount: 2, targetCount: 1, deletes: [0], moves: [Pair(source: 0, target: 0)]),
                "both moved and deleted"
            ),
            (
                Changeset(
                    sourceCount: 2, targetCount: 2, moves: [Pair(source: 0, target: 0), Pair(source: 0, target: 1)]),
                "moved twice"
            ),
            (
                Changeset(sourceCount: 1, targetCount: 2, inserts: [1], moves: [Pair(source: 0, target: 1)]),
                "both moved to and inserted"
            ),
            (Changeset(sourceCount: 2, targetCount: 2, deletes: [0]), "counts disagree"),
            (Changeset(sourceCount: 1, targetCount: 1, updates: [Pair(source: 0, target: 1)]), "out of range"),
            (
                Changeset(
                    sourceCount: 2, targetCount: 2, deletes: [0], inserts: [0], updates: [Pair(source: 0, target: 1)]),
                "names a deleted element"
            ),
            (
                Changeset(
                    sourceCount: 2, targetCount: 2, deletes: [0], inserts: [0], updates: [Pair(source: 1, target: 0)]),
                "names an inserted element"
            ),
        ]
        for (changes, expected) in cases {
            guard let failure = changes.validationFailure() else {
                XCTFail("\(changes) should be invalid (\(expected))")
                continue
            }
            XCTAssertTrue(failure.contains(expected), "\(changes): \"\(failure)\" should mention \"\(expected)\"")
            // The independent oracle rejects every one of them too.
            if case .success = replayRows(of: changes) { XCTFail("the oracle accepts \(changes)") }
        }
    }

    func test_validationFailure_rejectsPartsOutOfTheirDocumentedOrder() {
        // UIKit reads a batch in any order (uikit-batch-rules.md, R2), but `Changeset` documents
        // its lists as ascending, and readers such as `SequentialChangeset` rely on it: issue 13's
        // `deletes: [2, 0]` became `removals: [2, 0]`.
        let cases: [(Changeset, String)] = [
            (
                Changeset(sourceCount: 3, targetCount: 3, deletes: [2, 0], inserts: [2, 0]),
                "deletes must be ascending: 0 follows 2"
            ),
            (
                Changeset(sourceCount: 3, targetCount: 3, deletes: [0, 2], inserts: [2, 0]),
                "inserts must be ascending: 0 follows 2"
            ),
            (
                Changeset(
                    sourceCount: 4, targetCount: 4, moves: [Pair(source: 3, target: 2), Pair(source: 1, target: 0)]),
                "moves must be ascending by target: 0 follows 2"
            ),
            (
                Changeset(
                    sourceCount: 3, targetCount: 3, updates: [Pair(source: 2, target: 2), Pair(source: 0, target: 0)]),
                "updates must be ascending by source: 0 follows 2"
            ),
            (
                Changeset(
                    sourceCount: 3, targetCount: 3, updates: [Pair(source: 1, target: 1), Pair(source: 1, target: 1)]),
                "source offset 1 is updated twice"
            ),
        ]
        for (changes, expected) in cases {
            XCTAssertEqual(changes.validationFailure(), expected, "\(changes)")
            XCTAssertNotNil(orderingFailure(of: changes), "\(changes)")
        }
    }

    func test_validationFailure_rejectsAnUpdateThatNamesTwoDifferentElements() {
        // Source [a, b, c]: delete a, insert at 2, so b lands at target 0 and c at target 1.
        // "Update 1→1" pairs b with the slot c lands in: it names no matched element.
        let changes = Changeset(
            sourceCount: 3, targetCount: 3, deletes: [0], inserts: [2], updates: [Pair(source: 1, target: 1)])
        XCTAssertEqual(
            replayRows(of: changes).failureMessage,
            "update 1→1 names source 1, but target 1 holds s2")
        // Meant as "b became B", `applied(to:element:)` would refresh target 1 instead and leave b
        // stale, so validation must refuse it.
        XCTAssertEqual(
            changes.validationFailure(),
            "update 1→1 does not follow the element: it lands at 0")
        // The same batch with the update that does name b is valid.
        var fixed = changes
        fixed.updates = [Pair(source: 1, target: 0)]
        XCTAssertNil(fixed.validationFailure())
        XCTAssertEqual(fixed.applied(to: ["a", "b", "c"]) { ["B", "c", "new"][$0] }, ["B", "c", "new"])
    }
}

extension Result where Failure == ReplayFailure {
    /// The failure's message, or `nil` on success.
    var failureMessage: String? {
        if case .failure(let failure) = self { return failure.message }
        return nil
    }
}
