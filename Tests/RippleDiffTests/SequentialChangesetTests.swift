import RippleDiff
import RippleTestSupport
import XCTest

/// `SequentialChangeset`: the calls of a change-set for a view that reads each call in the rows as
/// the calls before it left them (`NSTableView`). The reference model applies those calls to an
/// array one at a time; the result must be the change-set's own replay.
final class SequentialChangesetTests: XCTestCase {
    /// Applies the calls the way `NSTableView` reads them between `beginUpdates()` and
    /// `endUpdates()`: removals at once, then each move, then insertions ascending; inserted and
    /// reloaded rows take their element from `element(atTarget:)`.
    private func applySequentially<Element>(
        _ steps: SequentialChangeset, to source: [Element], element: (Int) -> Element
    ) -> Result<[Element], ReplayFailure> {
        var rows = source
        for offset in steps.removals.reversed() {
            guard rows.indices.contains(offset) else {
                return .failure(ReplayFailure("removal \(offset) out of range 0..<\(rows.count)"))
            }
            rows.remove(at: offset)
        }
        for move in steps.moves {
            guard rows.indices.contains(move.source), rows.indices.contains(move.target) else {
                return .failure(ReplayFailure("move \(move) out of range 0..<\(rows.count)"))
            }
            let row = rows.remove(at: move.source)
            rows.insert(row, at: move.target)
        }
        for offset in steps.insertions {
            guard offset <= rows.count else {
                return .failure(ReplayFailure("insertion \(offset) out of range 0...\(rows.count)"))
            }
            rows.insert(element(offset), at: offset)
        }
        for offset in steps.reloads {
            guard rows.indices.contains(offset) else {
                return .failure(ReplayFailure("reload \(offset) out of range 0..<\(rows.count)"))
            }
            rows[offset] = element(offset)
        }
        return .success(rows)
    }

    func test_theDocumentationExample() {
        let changes = Changeset(from: ["a", "b", "c", "d"], to: ["d", "c", "a", "e"], identity: .value)
        let steps = SequentialChangeset(changes)
        XCTAssertEqual(steps.removals, [1])
        XCTAssertEqual(
            steps.moves, [Changeset.OffsetPair(source: 2, target: 0), Changeset.OffsetPair(source: 2, target: 1)])
        XCTAssertEqual(steps.insertions, [3])
        XCTAssertEqual(steps.reloads, [])
        let target = ["d", "c", "a", "e"]
        XCTAssertEqual(try applySequentially(steps, to: ["a", "b", "c", "d"]) { target[$0] }.get(), target)
    }

    func test_anEmptyChangeset_hasNothingToDo() {
        XCTAssertTrue(SequentialChangeset(.unchanged(count: 5)).isEmpty)
        XCTAssertTrue(SequentialChangeset(.unchanged(count: 0)).isEmpty)
    }

    func test_aReversal_movesEveryRowButOne_eachToItsPlace() {
        let source = Array(0..<50)
        let target = Array(source.reversed())
        let changes = Changeset(from: source, to: target, identity: .value)
        let steps = SequentialChangeset(changes)
        XCTAssertEqual(steps.moves.count, 49)
        XCTAssertEqual(try applySequentially(steps, to: source) { target[$0] }.get(), target)
    }

    func test_updates_reloadTheirTargetRows_afterEverythingElse() {
        // b moves to the end and is updated; c is updated in place (its offset changes by one).
        let changes = Changeset(
            sourceCount: 3, targetCount: 3, moves: [Changeset.OffsetPair(source: 1, target: 2)],
            updates: [Changeset.OffsetPair(source: 1, target: 2), Changeset.OffsetPair(source: 2, target: 1)])
        let steps = SequentialChangeset(changes)
        XCTAssertEqual(steps.reloads, [1, 2])
        XCTAssertEqual(
            try applySequentially(steps, to: ["a", "b", "c"]) { ["a", "C", "B"][$0] }.get(), ["a", "C", "B"])
    }

    func test_movesThatWouldLeaveTheirRowInPlace_areLeftOut() {
        // Swapping the last two of three: one sequential move does it.
        let changes = Changeset(from: [1, 2, 3], to: [1, 3, 2], identity: .value)
        XCTAssertEqual(changes.moves.count, 1)
        XCTAssertEqual(SequentialChangeset(changes).moves.count, 1)
        // Moving both rows of a swap is a valid change-set; the second move is then a no-op.
        let both = Changeset(
            sourceCount: 2, targetCount: 2,
            moves: [Changeset.OffsetPair(source: 1, target: 0), Changeset.OffsetPair(source: 0, target: 1)])
        let steps = SequentialChangeset(both)
        XCTAssertEqual(steps.moves, [Changeset.OffsetPair(source: 1, target: 0)])
        XCTAssertEqual(try applySequentially(steps, to: ["a", "b"]) { _ in "?" }.get(), ["b", "a"])
    }

    /// The property: on random valid change-sets, applying the calls one after another gives the
    /// change-set's own replay, and every call is in range at the moment it is made.
    func test_agreesWithTheReplay_onRandomValidChangesets() {
        forEachSeed(0..<20_000) { seed, random in
            let large = seed % 10 == 0
            let changes = Changeset.randomValid(
                maximumSourceCount: large ? 120 : 12, maximumInsertCount: large ? 40 : 6, using: &random)
            let source = (0..<changes.sourceCount).map { "s\($0)" }
            let element = { (offset: Int) in "t\(offset)" }
            guard case .success(let expected) = replay(changes, on: source, element: element) else {
                return "\(changes): the oracle rejects it"
            }
            let steps = SequentialChangeset(changes)
            switch applySequentially(steps, to: source, element: element) {
            case .failure(let failure):
                return "\(changes) → \(steps): \(failure)"
            case .success(let actual):
                if let mismatch = firstMismatch(actual, expected) { return "\(changes) → \(steps): \(mismatch)" }
            }
            if steps.removals != changes.deletes || steps.insertions != changes.inserts {
                return "\(changes) → \(steps): removals and insertions must be the deletes and inserts"
            }
            if steps.moves.count > changes.moves.count {
                return "\(changes) → \(steps): more moves than the change-set has"
            }
            return nil
        }
    }

    /// Each stage of a staged diff of random lists, applied one after another.
    func test_stagesOfRandomDiffs_applySequentially() {
        forEachSeed(0..<2_000) { seed, random in
            let source = (0..<random.int(in: 0...60)).map { _ in random.int(below: 80) }
            let uniqueSource = Array(Set(source)).sorted()
            var target = uniqueSource.filter { _ in !random.chance(20, in: 100) } + (80..<(80 + random.int(in: 0...10)))
            random.shuffle(&target)
            var rows = uniqueSource
            for stage in StagedChangeset(from: uniqueSource, to: target, identity: .value) {
                guard case .success(let expected) = replay(stage.changeset, on: rows, element: { stage.data[$0] })
                else {
                    return "a stage the oracle rejects: \(stage.changeset)"
                }
                let steps = SequentialChangeset(stage.changeset)
                guard case .success(let actual) = applySequentially(steps, to: rows, element: { stage.data[$0] }) else {
                    return "\(stage.changeset) → \(steps): a call out of range"
                }
                if let mismatch = firstMismatch(actual, expected) {
                    return "\(stage.changeset) → \(steps): \(mismatch)"
                }
                rows = actual
            }
            return firstMismatch(rows, target)
        }
    }

    // MARK: - Bad input (issue 13), in child processes

    /// The entry point of the child processes; skipped in a normal run.
    func test_childProcessEntry() throws {
        guard try childProcessCase() == "unsortedDeletes" else { return }
        // Used to give `removals: [2, 0]`, which a sequential view reads as two different rows.
        _ = SequentialChangeset(Changeset(sourceCount: 3, targetCount: 3, deletes: [2, 0], inserts: [2, 0]))
        print("the case did not trap")
    }

    func test_anUnsortedChangeset_trapsWithTheValidationMessage() throws {
        try assertChildCasesTrap(
            "RippleDiffTests.SequentialChangesetTests/test_childProcessEntry",
            expected: [
                "unsortedDeletes":
                    "SequentialChangeset.init(_:): the change-set is not valid: deletes must be ascending: 0 follows 2"
            ])
    }
}
