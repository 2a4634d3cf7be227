import RippleDiff
import RippleTestSupport
import XCTest

final class DescriptionTests: XCTestCase {
    private typealias Pair = Changeset.OffsetPair

    func test_changeset_theDocumentationExample() {
        let changes = Changeset(
            sourceCount: 5, targetCount: 6, deletes: [1], inserts: [0, 3], moves: [Pair(source: 2, target: 4)])
        XCTAssertEqual(changes.description, "Changeset(5 → 6: delete [1], insert [0, 3], move [2→4])")
    }

    func test_longLists_areCutAfterTwentyEntries() {
        let changes = Changeset(
            sourceCount: 1_000, targetCount: 980, deletes: Array(0..<20), inserts: Array(0..<21).map { $0 * 2 },
            duplicates: Changeset.Duplicates(sourceOffsets: Array(100..<1_000)))
        XCTAssertEqual(
            changes.description,
            "Changeset(1000 → 980: delete [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19], "
                + "insert [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, … 1 more], "
                + "duplicate source [100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, "
                + "116, 117, 118, 119, … 880 more])")
        XCTAssertEqual(
            changes.duplicates.description,
            "old offsets [100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, "
                + "118, 119, … 880 more] and new offsets []")
        let paths = SectionedChangeset.ItemDuplicates(
            sourcePaths: [ElementPath(item: 2, section: 0)],
            targetPaths: (0..<25).map { ElementPath(item: $0, section: 1) })
        XCTAssertEqual(
            paths.description,
            "old paths [0 - 2] and new paths [1 - 0, 1 - 1, 1 - 2, 1 - 3, 1 - 4, 1 - 5, 1 - 6, 1 - 7, 1 - 8, 1 - 9, "
                + "1 - 10, 1 - 11, 1 - 12, 1 - 13, 1 - 14, 1 - 15, 1 - 16, 1 - 17, 1 - 18, 1 - 19, … 5 more]")
    }

    func test_changeset_withoutChanges() {
        XCTAssertEqual(Changeset.unchanged(count: 5).description, "Changeset(5 → 5: no changes)")
        XCTAssertEqual(Changeset.unchanged(count: 0).description, "Changeset(0 → 0: no changes)")
    }

    func test_changeset_listsEveryPartInOrder() {
        let changes = Changeset(
            sourceCount: 4, targetCount: 4, deletes: [0], inserts: [3],
            moves: [Pair(source: 3, target: 0), Pair(source: 1, target: 2)],
            updates: [Pair(source: 2, target: 1)],
            duplicates: Changeset.Duplicates(sourceOffsets: [2, 3], targetOffsets: [1]))
        XCTAssertEqual(
            changes.description,
            "Changeset(4 → 4: delete [0], insert [3], move [3→0, 1→2], update [2→1], "
                + "duplicate source [2, 3], duplicate target [1])")
    }

    func test_changeset_leavesOutEmptyParts() {
        XCTAssertEqual(
            Changeset(sourceCount: 1, targetCount: 1, updates: [Pair(source: 0, target: 0)]).description,
            "Changeset(1 → 1: update [0→0])")
        XCTAssertEqual(
            Changeset(sourceCount: 2, targetCount: 2, duplicates: Changeset.Duplicates(targetOffsets: [1])).description,
            "Changeset(2 → 2: duplicate target [1])")
    }

    func test_changeset_debugDescriptionIsTheDescription() {
        let changes = Changeset(sourceCount: 2, targetCount: 1, deletes: [1])
        XCTAssertEqual(changes.debugDescription, changes.description)
        XCTAssertEqual(String(reflecting: changes), "Changeset(2 → 1: delete [1])")
        XCTAssertEqual("\(changes)", "Changeset(2 → 1: delete [1])")
    }

    func test_offsetPair_readsSourceArrowTarget() {
        XCTAssertEqual(Pair(source: 2, target: 4).description, "2→4")
        XCTAssertEqual("\([Pair(source: 0, target: 1)])", "[0→1]")
    }

    func test_stagedChangeset_withoutStages() {
        XCTAssertEqual(StagedChangeset<[Int]>(stages: []).description, "StagedChangeset(no stages)")
        XCTAssertEqual(
            StagedChangeset(from: [1, 2], to: [1, 2], identity: .value).description, "StagedChangeset(no stages)")
    }

    func test_stagedChangeset_listsOneStagePerLine() {
        let source = [TestItem(id: 0), TestItem(id: 1), TestItem(id: 2)]
        let target = [TestItem(id: 2, content: 1), TestItem(id: 0), TestItem(id: 1)]
        XCTAssertEqual(
            StagedChangeset(from: source, to: target).description,
            """
            StagedChangeset(
              0: Changeset(3 → 3: update [2→2])
              1: Changeset(3 → 3: move [2→0])
            )
            """)
        XCTAssertEqual(
            StagedChangeset(from: [1, 2], to: [2], identity: .value).description,
            """
            StagedChangeset(
              0: Changeset(2 → 1: delete [0])
            )
            """)
    }

    func test_elementPath_readsLikeUIKitsIndexPath() {
        XCTAssertEqual(ElementPath(item: 3, section: 1).description, "1 - 3")
        XCTAssertEqual("\(ElementPath(item: 0, section: 0))", "0 - 0")
    }

    func test_testSupport_descriptions() {
        XCTAssertEqual(TestItem(id: 4, content: 2).description, "4:2")
        XCTAssertEqual(ReplayedRow.source(3).description, "s3")
        XCTAssertEqual(ReplayedRow.inserted(3).description, "+3")
        XCTAssertEqual(DiffInput(source: [TestItem(id: 1)], target: []).description, "[1:0] → []")
    }
}
