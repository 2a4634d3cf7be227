import RippleDiff
import RippleTestSupport
import RippleTesting
import XCTest

/// Every stage of every `StagedChangeset` RippleDiff produces for a flat list must pass UIKit's
/// rules, in a table view and in a collection view, and leave the view showing the target.
final class FlatStagingPropertyTests: XCTestCase {
    /// A list element: `id` is its identity, `content` what its cell shows (a change is an update).
    private struct Cell: Hashable, CustomStringConvertible {
        var id: Int
        var content: Int
        var description: String { "\(id):\(content)" }
    }

    /// The number of seeds per test. Keep the whole target under a minute in debug.
    /// 20,000 in a full run; fewer under the sanitizers (`RIPPLE_TEST_SCALE`).
    private let seedCount = UInt64(TestScale.count(20_000, minimum: 500))

    func testStagesOfUniqueIdentifiersPassBothViews() {
        forEachSeed(0..<seedCount) { _, random in
            // Up to 8 elements drawn from 12 identifiers: deletes, inserts, moves and updates.
            let source = Self.uniqueCells(count: random.below(9), pool: 12, using: &random)
            let target = Self.uniqueCells(count: random.below(9), pool: 12, using: &random)
            return Self.pushStages(from: source, to: target)
        }
    }

    func testStagesWithDuplicateIdentifiersPassBothViews() {
        forEachSeed(0..<seedCount) { _, random in
            // Up to 8 elements drawn with repetition from 4 identifiers.
            let source = Self.repeatedCells(count: random.below(9), pool: 4, using: &random)
            let target = Self.repeatedCells(count: random.below(9), pool: 4, using: &random)
            return Self.pushStages(from: source, to: target)
        }
    }

    /// A regression case worth naming: an update shifted by a move needs its own stage.
    func testUpdateShiftedByAMoveIsStagedSeparately() {
        let source = [
            Cell(id: 0, content: 0), Cell(id: 1, content: 0), Cell(id: 2, content: 0), Cell(id: 3, content: 0),
        ]
        let target = [
            Cell(id: 1, content: 0), Cell(id: 2, content: 1), Cell(id: 3, content: 0), Cell(id: 0, content: 0),
        ]
        XCTAssertNil(Self.pushStages(from: source, to: target))
        let staged = StagedChangeset(from: source, to: target, identity: .key(\.id, contentEquals: ==))
        XCTAssertEqual(staged.count, 2, "\(staged)")
    }

    // MARK: - Helpers

    /// Applies every stage in a `HeadlessTableView` and a `HeadlessCollectionView`, setting the
    /// data source inside each batch, and returns a failure description or `nil`.
    private static func pushStages(from source: [Cell], to target: [Cell]) -> String? {
        let staged = StagedChangeset(from: source, to: target, identity: .key(\.id, contentEquals: ==))

        var tableData = source
        let tableView = HeadlessTableView { [tableData] }
        tableView.reloadData()
        var collectionData = source
        let collectionView = HeadlessCollectionView { [collectionData] }
        collectionView.reloadData()

        for (index, stage) in staged.enumerated() {
            let batch = BatchUpdate(stage.changeset)
            tableView.performBatchUpdates {
                tableData = stage.data
                tableView.apply(batch)
            }
            collectionView.performBatchUpdates {
                collectionData = stage.data
                collectionView.apply(batch)
            }
            for (name, shown, violations, warnings) in [
                ("table view", tableView.rows, tableView.violations, tableView.warnings),
                ("collection view", collectionView.items, collectionView.violations, collectionView.warnings),
            ] {
                // Built only on failure: describing every case would dominate the run time.
                var context: String { "\(source) → \(target), stage \(index) of \(staged), in the \(name)" }
                if let violation = violations.first { return "\(context): \(violation)" }
                if let warning = warnings.first { return "\(context): warning \(warning)" }
                if shown != [stage.data] { return "\(context): shows \(shown), expected \([stage.data])" }
            }
        }
        if tableView.rows != [target] { return "\(source) → \(target): table view ends at \(tableView.rows)" }
        if collectionView.items != [target] {
            return "\(source) → \(target): collection view ends at \(collectionView.items)"
        }
        return nil
    }

    private static func uniqueCells(count: Int, pool: Int, using random: inout SplitMix64) -> [Cell] {
        var ids = Array(0..<pool)
        // Partial Fisher–Yates: the first `count` identifiers are a random sample in random order.
        for index in 0..<count { ids.swapAt(index, index + random.below(pool - index)) }
        return ids.prefix(count).map { Cell(id: $0, content: random.below(2)) }
    }

    private static func repeatedCells(count: Int, pool: Int, using random: inout SplitMix64) -> [Cell] {
        (0..<count).map { _ in Cell(id: random.below(pool), content: random.below(2)) }
    }
}

extension SplitMix64 {
    /// A value in `0..<bound`, from `next()` alone so a seed gives the same case on every toolchain.
    fileprivate mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }
}
