import RippleDiff
import RippleTestSupport
import XCTest

/// `Changeset(sourceCount:origins:updatedSources:)`, the change-set of a list tracked by position,
/// checked against the replay oracle: replaying it must put every element back where its origin
/// says, with minimal moves.
final class ChangesetOriginsTests: XCTestCase {
    private typealias Pair = Changeset.OffsetPair

    func test_theDocumentationExample() {
        // [a, b, c] became [c, x, a].
        let changes = Changeset(sourceCount: 3, origins: [2, -1, 0])
        XCTAssertEqual(
            changes,
            Changeset(sourceCount: 3, targetCount: 3, deletes: [1], inserts: [1], moves: [Pair(source: 2, target: 0)]))
    }

    func test_updatesOfDeletedElementsAreIgnored_andRepeatsMerged() {
        let changes = Changeset(sourceCount: 3, origins: [2, 0], updatedSources: [1, 2, 0, 2])
        XCTAssertEqual(changes.deletes, [1])
        XCTAssertEqual(changes.updates, [Pair(source: 0, target: 1), Pair(source: 2, target: 0)])
    }

    func test_emptyAndUnchanged() {
        XCTAssertEqual(Changeset(sourceCount: 0, origins: []), .unchanged(count: 0))
        XCTAssertEqual(Changeset(sourceCount: 3, origins: [0, 1, 2]), .unchanged(count: 3))
        XCTAssertEqual(
            Changeset(sourceCount: 2, origins: []), Changeset(sourceCount: 2, targetCount: 0, deletes: [0, 1]))
    }

    func test_random_replaysToTheOrigins() {
        forEachSeed(0..<10_000) { _, random in
            let sourceCount = random.int(in: 0...20)
            var origins = Array(0..<sourceCount).filter { _ in !random.chance(1, in: 4) }
            random.shuffle(&origins)
            for _ in 0..<random.int(in: 0...5) {
                origins.insert(-1 - random.int(below: 3), at: random.int(below: origins.count + 1))
            }
            let updated = (0..<random.int(in: 0...6)).compactMap { _ in
                sourceCount == 0 ? nil : random.int(below: sourceCount)
            }
            let changes = Changeset(sourceCount: sourceCount, origins: origins, updatedSources: updated)
            let context = "origins \(origins), updated \(updated): \(changes)"
            if let failure = changes.validationFailure() { return "\(context): \(failure)" }
            if let failure = orderingFailure(of: changes) { return "\(context): \(failure)" }
            guard case .success(let rows) = replayRows(of: changes) else { return "\(context): the oracle rejects it" }
            let expectedRows = origins.enumerated().map { $1 < 0 ? ReplayedRow.inserted($0) : .source($1) }
            if let mismatch = firstMismatch(rows, expectedRows) { return "\(context): \(mismatch)" }
            let kept = origins.filter { $0 >= 0 }
            if changes.moves.count != kept.count - longestIncreasingSubsequenceLength(kept) {
                return "\(context): moves are not minimal"
            }
            let expectedUpdates = Set(updated).compactMap { source in
                origins.firstIndex(of: source).map { Pair(source: source, target: $0) }
            }.sorted()
            return changes.updates == expectedUpdates ? nil : "\(context): updates should be \(expectedUpdates)"
        }
    }
}
