import RippleDiff
import RippleTestSupport
import XCTest

final class StagedChangesetTests: XCTestCase {
    private typealias Pair = Changeset.OffsetPair

    private func items(_ pairs: [(id: Int, content: Int)]) -> [TestItem] {
        pairs.map { TestItem(id: $0.id, content: $0.content) }
    }

    /// Stages the diff of `source` and `target`, checks it with `stagedFailure`, and returns it.
    private func stage(
        _ source: [TestItem], _ target: [TestItem], file: StaticString = #filePath, line: UInt = #line
    ) -> StagedChangeset<[TestItem]> {
        let changes = Changeset(from: source, to: target)
        let staged = StagedChangeset(from: source, to: target)
        if let failure = stagedFailure(staged, for: changes, from: source, to: target) {
            XCTFail(failure, file: file, line: line)
        }
        XCTAssertEqual(
            staged, StagedChangeset(changeset: changes, source: source, target: target), file: file, line: line)
        return staged
    }

    // MARK: - How many stages

    func test_unchangedList_hasNoStage() {
        XCTAssertTrue(stage([], []).isEmpty)
        let list = items([(1, 0), (2, 0), (3, 1)])
        let staged = stage(list, list)
        XCTAssertTrue(staged.isEmpty)
        XCTAssertEqual(staged.count, 0)
        XCTAssertEqual(staged.changeCount, 0)
    }

    func test_updatesWithoutMoves_oneStage() {
        let source = items([(1, 0), (2, 0), (3, 0)])
        let target = items([(0, 0), (1, 1), (3, 1)])  // insert 0, update 1, delete 2, update 3
        let staged = stage(source, target)
        XCTAssertEqual(staged.count, 1)
        XCTAssertEqual(
            staged[0].changeset,
            Changeset(
                sourceCount: 3, targetCount: 3, deletes: [1], inserts: [0],
                updates: [Pair(source: 0, target: 1), Pair(source: 2, target: 2)]))
        XCTAssertEqual(staged[0].data, target)
    }

    func test_movesWithoutUpdates_oneStage() {
        let source = items([(1, 0), (2, 0), (3, 0), (4, 0)])
        let target = items([(4, 0), (2, 0), (1, 0), (3, 0)])
        let staged = stage(source, target)
        XCTAssertEqual(staged.count, 1)
        XCTAssertEqual(staged[0].changeset, Changeset(from: source, to: target))
        XCTAssertEqual(staged[0].changeset.moves.count, 2)
        XCTAssertEqual(staged[0].data, target)
    }

    func test_updateBesideAMoveThatDoesNotShiftIt_oneStage() {
        // a is updated in place; b and c swap behind it, so UIKit reloads row 0 correctly.
        let source = items([(0, 0), (1, 0), (2, 0), (3, 0)])
        let target = items([(0, 1), (2, 0), (1, 0), (3, 0)])
        let staged = stage(source, target)
        XCTAssertEqual(staged.count, 1)
        XCTAssertEqual(staged[0].changeset.updates, [Pair(source: 0, target: 0)])
        XCTAssertEqual(staged[0].changeset.moves.count, 1)
    }

    func test_movedElementUpdated_twoStages_updatesFirstInPlace() {
        // c moves to the front and changes: UIKit cannot reload a moved row (R3b).
        let source = items([(0, 0), (1, 0), (2, 0)])
        let target = items([(2, 1), (0, 0), (1, 0)])
        let staged = stage(source, target)
        XCTAssertEqual(staged.count, 2)
        XCTAssertEqual(
            staged[0].changeset,
            Changeset(sourceCount: 3, targetCount: 3, updates: [Pair(source: 2, target: 2)]))
        XCTAssertEqual(staged[0].data, items([(0, 0), (1, 0), (2, 1)]), "the source with the new contents in place")
        XCTAssertEqual(
            staged[1].changeset, Changeset(sourceCount: 3, targetCount: 3, moves: [Pair(source: 2, target: 0)]))
        XCTAssertEqual(staged[1].data, target)
        XCTAssertEqual(staged.changeCount, 2)
    }

    func test_updateShiftedByAMove_twoStages() {
        // a moves to the end, so c lands at 1 while UIKit would reload it at 2 (R3f, vector V25).
        let source = items([(0, 0), (1, 0), (2, 0), (3, 0)])
        let target = items([(1, 0), (2, 1), (3, 0), (0, 0)])
        let changes = Changeset(from: source, to: target)
        XCTAssertEqual(changes.moves, [Pair(source: 0, target: 3)])
        XCTAssertEqual(changes.updates, [Pair(source: 2, target: 1)])
        let staged = stage(source, target)
        XCTAssertEqual(staged.count, 2)
        XCTAssertEqual(staged[0].changeset.updates, [Pair(source: 2, target: 2)])
        XCTAssertEqual(staged[0].data, items([(0, 0), (1, 0), (2, 1), (3, 0)]))
        XCTAssertEqual(staged[1].changeset.updates, [])
        XCTAssertEqual(staged[1].changeset.moves, [Pair(source: 0, target: 3)])
        XCTAssertEqual(staged[1].data, target)
    }

    func test_twoStages_keepDeletesAndInsertsInTheSecondStage() {
        let source = items([(0, 0), (1, 0), (2, 0), (3, 0)])
        let target = items([(3, 1), (9, 0), (0, 0), (2, 1)])  // delete 1, insert 9, move 3 and update it
        let staged = stage(source, target)
        XCTAssertEqual(staged.count, 2)
        XCTAssertEqual(staged[0].changeset.sourceCount, 4)
        XCTAssertEqual(staged[0].changeset.targetCount, 4)
        XCTAssertEqual(staged[0].changeset.deletes, [])
        XCTAssertEqual(staged[0].changeset.inserts, [])
        XCTAssertEqual(staged[0].changeset.moves, [])
        XCTAssertEqual(staged[1].changeset.deletes, [1])
        XCTAssertEqual(staged[1].changeset.inserts, [1])
        XCTAssertEqual(staged[1].data, target)
    }

    // MARK: - Duplicates

    func test_duplicates_areReportedInTheFirstStage() {
        // One stage.
        let oneStage = stage(items([(0, 0), (1, 0), (1, 0)]), items([(1, 0), (1, 0), (2, 0)]))
        XCTAssertEqual(oneStage.count, 1)
        XCTAssertEqual(oneStage[0].changeset.duplicates, Changeset.Duplicates(sourceOffsets: [2], targetOffsets: [1]))
        // Two stages: the report goes with the updates, the structural stage has none.
        let twoStages = stage(items([(0, 0), (1, 0), (1, 0), (2, 0)]), items([(2, 1), (1, 0), (1, 0), (0, 0)]))
        XCTAssertEqual(twoStages.count, 2)
        XCTAssertEqual(twoStages[0].changeset.duplicates, Changeset.Duplicates(sourceOffsets: [2], targetOffsets: [2]))
        XCTAssertTrue(twoStages[1].changeset.duplicates.isEmpty)
    }

    // MARK: - The collection

    func test_collection_exposesTheStagesInOrder() {
        let first = StagedChangeset<[Int]>.Stage(changeset: .unchanged(count: 1), data: [1])
        let second = StagedChangeset<[Int]>.Stage(
            changeset: Changeset(sourceCount: 1, targetCount: 0, deletes: [0]), data: [])
        var staged = StagedChangeset(stages: [first, second])
        XCTAssertEqual(staged.startIndex, 0)
        XCTAssertEqual(staged.endIndex, 2)
        XCTAssertEqual(staged[1], second)
        XCTAssertEqual(Array(staged), [first, second])
        XCTAssertEqual(staged.changeCount, 1)
        staged.stages.removeFirst()
        XCTAssertEqual(staged, StagedChangeset(stages: [second]))
        XCTAssertNotEqual(staged, StagedChangeset(stages: [first]))
    }

    func test_initFromAChangeset_stagesTheGivenChangeset() {
        let source = [TestItem(id: 0), TestItem(id: 1)]
        let target = [TestItem(id: 1, content: 5), TestItem(id: 0)]
        let changes = Changeset(from: source, to: target)
        let staged = StagedChangeset(changeset: changes, source: source, target: target)
        XCTAssertNil(stagedFailure(staged, for: changes, from: source, to: target))
        XCTAssertEqual(staged.count, 2)
        XCTAssertTrue(StagedChangeset(changeset: .unchanged(count: 2), source: source, target: source).isEmpty)
    }

    // MARK: - Random

    func test_random_everyStageReplaysInSequence() {
        // Shapes rich in moves and updates, so that both one and two stages occur often.
        var stageCounts = [0, 0, 0]
        forEachSeed(0..<5_000) { seed, random in
            let shape: DiffInputShape = [.edited, .shuffled, .reversed, .heavyDuplicates][Int(seed % 4)]
            let input = DiffInput.random(shape, count: random.int(in: 0...16), using: &random)
            let changes = Changeset(from: input.source, to: input.target)
            let staged = StagedChangeset(from: input.source, to: input.target)
            stageCounts[min(staged.count, 2)] += 1
            return stagedFailure(staged, for: changes, from: input.source, to: input.target)
                .map { "\(shape) \(input): \($0)" }
        }
        XCTAssertGreaterThan(stageCounts[0], 100)
        XCTAssertGreaterThan(stageCounts[1], 1_000)
        XCTAssertGreaterThan(stageCounts[2], 500)
    }

    func test_random_handMadeChangesets() {
        // Staging does not assume a diff made the change-set: any valid one is staged correctly.
        forEachSeed(0..<5_000) { _, random in
            let changes = Changeset.randomValid(using: &random)
            let source = (0..<changes.sourceCount).map { TestItem(id: $0, content: 0) }
            var target: [TestItem]
            switch replayRows(of: changes) {
            case .failure(let failure): return "\(changes): \(failure)"
            case .success(let rows):
                target = rows.map { row in
                    switch row {
                    case .source(let offset): source[offset]
                    case .inserted(let offset): TestItem(id: 1_000 + offset, content: 0)
                    }
                }
            }
            for update in changes.updates { target[update.target].content = 1 }
            let staged = StagedChangeset(changeset: changes, source: source, target: target)
            return stagedFailure(staged, for: changes, from: source, to: target).map { "\(changes): \($0)" }
        }
    }

    // MARK: - Bad input (issue 13), in child processes

    /// The entry point of the child processes; skipped in a normal run.
    func test_childProcessEntry() throws {
        let name = try childProcessCase()
        // 3 → 2 elements: 0 is deleted, 2 moves before 1 and changes, so two stages.
        let source = [TestItem(id: 0), TestItem(id: 1), TestItem(id: 2)]
        let target = [TestItem(id: 2, content: 1), TestItem(id: 1)]
        let changes = Changeset(from: source, to: target)
        switch name {
        case "otherListsWithUpdates":
            // Used to trap with `Index out of range` inside the standard library.
            _ = StagedChangeset(changeset: changes, source: [TestItem(id: 7)], target: target)
        case "otherListsWithoutUpdates":
            // Used to return a stage whose data did not fit its change-set.
            let plain = Changeset(from: source.map(\.id), to: target.map(\.id), identity: .value)
            _ = StagedChangeset(changeset: plain, source: [7], target: [2, 1])
        case "updateOutOfRange":
            let broken = Changeset(
                sourceCount: 3, targetCount: 2, deletes: [0], moves: [Pair(source: 2, target: 0)],
                updates: [Pair(source: 9, target: 0)])
            _ = StagedChangeset(changeset: broken, source: source, target: target)
        case "landingOffsets":
            _ = Changeset(sourceCount: 3, targetCount: 3, deletes: [2, 0], inserts: [2, 0]).landingOffsets()
        default: return
        }
        print("the case did not trap")
    }

    func test_changesetAndListsThatDoNotBelongTogether_trapWithAMessage() throws {
        try assertChildCasesTrap(
            "RippleDiffTests.StagedChangesetTests/test_childProcessEntry",
            expected: [
                "otherListsWithUpdates":
                    "StagedChangeset(changeset:source:target:): the lists have 1 → 2 elements, but the change-set goes 3 → 2",
                "otherListsWithoutUpdates":
                    "StagedChangeset(changeset:source:target:): the lists have 1 → 2 elements, but the change-set goes 3 → 2",
                "updateOutOfRange":
                    "StagedChangeset(changeset:source:target:): update 9→0 is out of range 0..<3 → 0..<2",
                "landingOffsets":
                    "Changeset.landingOffsets(): invalid change-set: deletes must be ascending: 0 follows 2",
            ])
    }
}
