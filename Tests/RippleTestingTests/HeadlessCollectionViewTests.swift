import RippleDiff
import RippleTesting
import XCTest

/// The path of item `item` in `section`.
private func path(_ section: Int, _ item: Int) -> ElementPath { BatchTestKit.path(section, item) }

/// `HeadlessCollectionView`: the collection-view wording, the lazy reload that makes early
/// data-source changes fail (R14), nesting, and the accessors.
final class HeadlessCollectionViewTests: XCTestCase {
    /// A data source whose sections a test changes at will.
    private final class Model: HeadlessViewDataSource {
        var sections: [[Int]]
        init(_ sections: [[Int]]) { self.sections = sections }
        func sectionsForHeadlessView() -> [[Int]] { sections }
    }

    func testItemsAreAppliedWithUIKitSemantics() {
        let model = Model([[1, 2, 3], [4]])
        let collectionView = HeadlessCollectionView(dataSource: model)
        collectionView.performBatchUpdates {
            model.sections = [[3, 10], [1, 4], [20]]
            collectionView.deleteItems(at: [path(0, 1)])
            collectionView.moveItem(at: path(0, 0), to: path(1, 0))
            collectionView.insertItems(at: [path(0, 1)])
            collectionView.insertSections([2])
        }
        XCTAssertEqual(collectionView.violations, [])
        XCTAssertEqual(collectionView.items, model.sections)
        XCTAssertEqual(collectionView.numberOfSections, 3)
        XCTAssertEqual(collectionView.numberOfItems(inSection: 1), 2)
        XCTAssertEqual(collectionView.item(at: path(2, 0)), 20)
    }

    func testReloadedItemsTakeTheNewValue() {
        let model = Model([[1, 2, 3]])
        let collectionView = HeadlessCollectionView(dataSource: model)
        collectionView.layoutIfNeeded()
        collectionView.performBatchUpdates {
            model.sections = [[1, 20, 3]]
            collectionView.reloadItems(at: [path(0, 1)])
        }
        XCTAssertEqual(collectionView.items, [[1, 20, 3]])
        XCTAssertEqual(collectionView.warnings, [])
    }

    func testMessagesUseCollectionViewWording() {
        let model = Model([[1, 2], [3]])
        let collectionView = HeadlessCollectionView(dataSource: model)
        collectionView.layoutIfNeeded()
        collectionView.performBatchUpdates {
            model.sections = [[1, 2, 3]]
            collectionView.deleteSections([1])
            collectionView.moveItem(at: path(1, 0), to: path(0, 2))
        }
        XCTAssertEqual(
            collectionView.lastViolation,
            BatchUpdateViolation(
                rule: .crossLifecycleMoves, messageID: .moveFromDeletedSection,
                message: "cannot move an item from a deleted section (1)"))
        XCTAssertEqual(collectionView.items, [[1, 2, 3]])
    }

    // MARK: - Lazy reload (R14)

    func testChangingTheDataSourceBeforeTheFirstLayoutMakesBeforeEqualAfter() {
        // deltachat-ios #1901: the view still needs layout, so it reads the data source when the
        // batch starts, after the model already changed.
        let model = Model([[1]])
        let collectionView = HeadlessCollectionView(dataSource: model, countMismatchStyle: .detailed)
        collectionView.reloadData()
        model.sections = [[0, 1]]
        collectionView.performBatchUpdates { collectionView.insertItems(at: [path(0, 0)]) }
        XCTAssertEqual(
            collectionView.lastViolation?.message,
            """
            Invalid batch updates detected: the number of sections and/or items returned by the data source before and/or after performing the batch updates are inconsistent with the updates.
            Data source before updates = { 1 section with item counts: [2] }
            Data source after updates = { 1 section with item counts: [2] }
            Updates = [
            \tInsert item (0 - 0)
            ]
            Collection view: <UICollectionView: 0x0000000000000000>
            """)
    }

    func testLaidOutViewKeepsItsCacheUntilTheBatch() {
        let model = Model([[1]])
        let collectionView = HeadlessCollectionView(dataSource: model)
        collectionView.reloadData()
        collectionView.layoutIfNeeded()
        model.sections = [[0, 1]]
        collectionView.performBatchUpdates { collectionView.insertItems(at: [path(0, 0)]) }
        XCTAssertEqual(collectionView.violations, [])
        XCTAssertEqual(collectionView.items, [[0, 1]])
    }

    func testReloadDataIsLazy() {
        var reads = 0
        var data = [[1]]
        let collectionView = HeadlessCollectionView {
            reads += 1
            return data
        }
        collectionView.layoutIfNeeded()
        XCTAssertEqual(reads, 1)
        data = [[1, 2]]
        collectionView.reloadData()
        XCTAssertEqual(reads, 1)
        XCTAssertEqual(collectionView.events, [.reloadData])
        XCTAssertEqual(collectionView.numberOfItems(inSection: 0), 2)
        XCTAssertEqual(reads, 2)
        collectionView.layoutIfNeeded()
        XCTAssertEqual(reads, 2)
    }

    // MARK: - Nesting (R2)

    func testNestedPerformBatchUpdatesMergeIntoTheOutermost() {
        let model = Model([[1, 2]])
        let collectionView = HeadlessCollectionView(dataSource: model)
        var finished: [Bool] = []
        collectionView.performBatchUpdates(
            {
                collectionView.deleteItems(at: [path(0, 0)])
                collectionView.performBatchUpdates(
                    {
                        collectionView.insertItems(at: [path(0, 1)])
                        XCTAssertTrue(collectionView.hasUncommittedUpdates)
                    }, completion: { finished.append($0) })
                XCTAssertTrue(collectionView.hasUncommittedUpdates)
                XCTAssertEqual(finished, [])
                model.sections = [[2, 3]]
            }, completion: { finished.append($0) })
        XCTAssertFalse(collectionView.hasUncommittedUpdates)
        XCTAssertEqual(finished, [true, true])
        XCTAssertEqual(collectionView.events.count, 1)
        XCTAssertEqual(collectionView.items, [[2, 3]])
    }

    func testBeginAndEndUpdatesNestToo() {
        let model = Model([[1]])
        let collectionView = HeadlessCollectionView(dataSource: model)
        collectionView.beginUpdates()
        collectionView.beginUpdates()
        collectionView.insertItems(at: [path(0, 1)])
        collectionView.endUpdates()
        XCTAssertEqual(collectionView.events, [])
        model.sections = [[1, 2]]
        collectionView.endUpdates()
        XCTAssertEqual(collectionView.violations, [])
        XCTAssertEqual(collectionView.items, [[1, 2]])
    }

    // MARK: - Misuse, recovery, data source

    func testReloadDataInsideABatchIsAMisuse() {
        let model = Model([[1]])
        let collectionView = HeadlessCollectionView(dataSource: model)
        var handled: [BatchUpdateRule] = []
        collectionView.violationHandler = { handled.append($0.rule) }
        collectionView.performBatchUpdates {
            model.sections = [[1, 2]]
            collectionView.reloadData()
        }
        XCTAssertEqual(handled, [.reloadDataOutsideBatches])
        XCTAssertEqual(collectionView.items, [[1, 2]])
        collectionView.endUpdates()
        XCTAssertEqual(handled, [.reloadDataOutsideBatches, .orderAndNesting])
    }

    func testDataSourceIsHeldWeakly() {
        var model: Model? = Model([[1]])
        let collectionView = HeadlessCollectionView(dataSource: model!)
        collectionView.layoutIfNeeded()
        model = nil
        collectionView.reloadData()
        XCTAssertEqual(collectionView.items, [])
    }

    func testClearDiagnostics() {
        let collectionView = HeadlessCollectionView { [[1]] }
        collectionView.deleteSections([4])
        XCTAssertEqual(collectionView.lastViolation?.messageID, .deleteSectionOutOfBounds)
        XCTAssertEqual(collectionView.countMismatchStyle, .classic)
        collectionView.clearDiagnostics()
        XCTAssertEqual(collectionView.events, [])
        XCTAssertEqual(collectionView.violations, [])
        XCTAssertEqual(collectionView.warnings, [])
    }

    func testApplyOutsideABatchIsOneBatch() {
        let model = Model([[1, 2, 3]])
        let collectionView = HeadlessCollectionView(dataSource: model)
        collectionView.layoutIfNeeded()
        model.sections = [[3, 1]]
        collectionView.apply(BatchUpdate(Changeset(from: [1, 2, 3], to: [3, 1], identity: .value)))
        XCTAssertEqual(collectionView.events.count, 1)
        XCTAssertEqual(collectionView.violations, [])
        XCTAssertEqual(collectionView.items, [[3, 1]])
    }
}
