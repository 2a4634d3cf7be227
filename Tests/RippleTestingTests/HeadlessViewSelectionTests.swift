import RippleDiff
import RippleTestSupport
import RippleTesting
import XCTest

/// Item `item` of section `section`.
private func path(_ item: Int, _ section: Int = 0) -> ElementPath { ElementPath(item: item, section: section) }

/// The selection kept by `HeadlessTableView` and `HeadlessCollectionView`: single and multiple
/// selection, and how batches, reloads, rejected batches and drags carry it, as UIKit does.
final class HeadlessViewSelectionTests: XCTestCase {
    func test_singleSelection_selectingARow_deselectsTheOthers() {
        let tableView = HeadlessTableView { [["a", "b", "c"]] }
        tableView.selectRow(at: path(0))
        tableView.selectRow(at: path(2))
        XCTAssertEqual(tableView.selectedPaths, [path(2)])
        tableView.deselectRow(at: path(2))
        tableView.deselectRow(at: path(1))  // not selected: nothing happens
        XCTAssertEqual(tableView.selectedPaths, [])
    }

    func test_multipleSelection_keepsEveryRow_inOrder() {
        let collectionView = HeadlessCollectionView { [["a", "b"], ["c"]] }
        collectionView.allowsMultipleSelection = true
        collectionView.selectItem(at: path(0, 1))
        collectionView.selectItem(at: path(1))
        collectionView.selectItem(at: path(0))
        XCTAssertEqual(collectionView.selectedPaths, [path(0), path(1), path(0, 1)])
        collectionView.deselectItem(at: path(1))
        XCTAssertEqual(collectionView.selectedPaths, [path(0), path(0, 1)])
    }

    /// Kept and moved rows stay selected where they go; deleted and reloaded rows leave the
    /// selection; inserted rows come unselected.
    func test_aBatch_carriesTheSelectionAsUIKitDoes() {
        var sections = [["a", "b", "c", "d"], ["x", "y"]]
        let tableView = HeadlessTableView { sections }
        tableView.allowsMultipleSelection = true
        for selected in [path(0), path(1), path(2), path(3), path(1, 1)] { tableView.selectRow(at: selected) }
        tableView.performBatchUpdates {
            sections = [["new", "a", "C"], ["d", "x", "y"]]
            tableView.deleteRows(at: [path(1)])  // b
            tableView.insertRows(at: [path(0)])  // new
            tableView.moveRow(at: path(3), to: path(0, 1))  // d
            tableView.reloadRows(at: [path(2)])  // c becomes C
        }
        XCTAssertEqual(tableView.violations, [])
        XCTAssertEqual(tableView.rows, sections)
        // a at (0, 1), d at (1, 0), y at (1, 2).
        XCTAssertEqual(tableView.selectedPaths, [path(1), path(0, 1), path(2, 1)])
    }

    func test_sectionChanges_carryTheSelection_andADeletedSectionTakesItsRows() {
        var sections = [["a"], ["b", "c"], ["d"]]
        let collectionView = HeadlessCollectionView { sections }
        collectionView.allowsMultipleSelection = true
        for selected in [path(0), path(1, 1), path(0, 2)] { collectionView.selectItem(at: selected) }
        collectionView.performBatchUpdates {
            sections = [["new"], ["d"], ["b", "c"]]
            collectionView.deleteSections([0])
            collectionView.insertSections([0])
            collectionView.moveSection(2, toSection: 1)
        }
        XCTAssertEqual(collectionView.violations, [])
        XCTAssertEqual(collectionView.items, sections)
        XCTAssertEqual(collectionView.selectedPaths, [path(0, 1), path(1, 2)])
    }

    func test_reloadData_andARejectedBatch_clearTheSelection() {
        var rows = ["a", "b"]
        let tableView = HeadlessTableView { [rows] }
        tableView.selectRow(at: path(1))
        tableView.reloadData()
        XCTAssertEqual(tableView.selectedPaths, [])

        tableView.selectRow(at: path(1))
        tableView.performBatchUpdates {
            rows.append("c")  // and no insert: UIKit rejects the batch
        }
        XCTAssertEqual(tableView.violations.count, 1)
        XCTAssertEqual(tableView.selectedPaths, [])

        let collectionView = HeadlessCollectionView { [rows] }
        collectionView.selectItem(at: path(2))
        collectionView.reloadData()
        XCTAssertEqual(collectionView.selectedPaths, [], "cleared at once, though it reads its data later")
    }

    func test_aDrag_carriesTheSelection() {
        let tableView = HeadlessTableView { [["a", "b", "c"], ["x"]] }
        tableView.allowsMultipleSelection = true
        tableView.selectRow(at: path(0))
        tableView.selectRow(at: path(2))
        tableView.dragRow(at: path(0), to: path(1, 1))  // a goes below x
        XCTAssertEqual(tableView.rows, [["b", "c"], ["x", "a"]])
        XCTAssertEqual(tableView.selectedPaths, [path(1), path(1, 1)])
    }

    /// Seeded random lists pushed through every stage of their staged change-sets: exactly the
    /// selected elements that stay and are not updated are selected afterwards, wherever they went.
    func test_seededStages_keepExactlyTheSelectedElementsThatStayUnchanged() {
        struct Cell: Hashable {
            var id: Int
            var content: Int
        }
        func cells(_ random: inout SplitMix64) -> [Cell] {
            var ids = Array(0..<12)
            random.shuffle(&ids)
            return ids.prefix(random.int(below: 9)).map { Cell(id: $0, content: random.int(below: 3) == 0 ? 1 : 0) }
        }
        let seeds: Range<UInt64> = 0..<2_000
        print("HeadlessViewSelectionTests: SplitMix64 seeds \(seeds); a failure names its seed")
        forEachSeed(seeds) { _, random in
            let source = cells(&random)
            let target = cells(&random)
            var shown = source
            let tableView = HeadlessTableView { [shown] }
            tableView.allowsMultipleSelection = true
            var selected: Set<Int> = []
            for (index, cell) in source.enumerated() where random.chance(1, in: 2) {
                tableView.selectRow(at: ElementPath(item: index, section: 0))
                selected.insert(cell.id)
            }
            for stage in StagedChangeset(from: source, to: target, identity: .key(\.id, contentEquals: ==)) {
                tableView.performBatchUpdates {
                    shown = stage.data
                    tableView.apply(BatchUpdate(stage.changeset))
                }
            }
            let stayingUnchanged = Set(source.filter { target.contains($0) }.map(\.id))
            let expected = target.indices.filter {
                selected.contains(target[$0].id) && stayingUnchanged.contains(target[$0].id)
            }
            let actual = tableView.selectedPaths.map(\.item)
            guard tableView.violations.isEmpty, tableView.rows == [target], actual == expected else {
                return "\(source) → \(target), selected \(selected.sorted()): expected \(expected), got \(actual); "
                    + "violations \(tableView.violations)"
            }
            return nil
        }
    }
}
