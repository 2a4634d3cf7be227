import Dispatch
import Ripple
import RippleDiff
import RippleTestSupport
import RippleTesting
import XCTest

/// Waits until the main queue has run everything queued on it before this call, running the main
/// run loop meanwhile.
func flushMainQueue(timeout: Double = 60, file: StaticString = #filePath, line: UInt = #line) {
    let result = XCTWaiter().wait(for: [mainQueueFlushed()], timeout: timeout)
    if result != .completed { XCTFail("the main queue did not drain: \(result)", file: file, line: line) }
}

/// `TableViewSource` and `CollectionViewSource` driving RippleTesting's headless views, which
/// check every batch against UIKit's rules.
///
/// Sources live on the main actor; XCTest runs tests on the main thread, so each test body runs in
/// `MainActor.assumeIsolated` and waits for the main queue to deliver the collection's events.
final class ListSourceTests: DiagnosticsTestCase {
    /// A table screen: a headless table view whose data source is the source's rendered list.
    @MainActor
    private struct TableScreen {
        let view: HeadlessTableView<TestItem>
        let source: TableViewSource<TestItem>
        /// When set, the view reads these sections instead of the source's: an app that changed
        /// the view behind the source's back.
        let override: OverrideBox

        init(_ collection: ObservableCollection<TestItem>, reloadThreshold: Int? = nil) {
            let box = SourceBox()
            let override = OverrideBox()
            view = HeadlessTableView<TestItem> { [box, override] in
                MainActor.assumeIsolated {
                    override.sections ?? [box.source.map { Array($0.renderedItems) } ?? []]
                }
            }
            source = TableViewSource(view: view, collection: collection, reloadThreshold: reloadThreshold)
            box.source = source
            self.override = override
        }
    }

    @MainActor
    private final class SourceBox {
        weak var source: TableViewSource<TestItem>?
    }

    @MainActor
    private final class OverrideBox {
        var sections: [[TestItem]]?
    }

    // MARK: - Adoption

    /// `TableViewSource(view:…)` and `CollectionViewSource(view:…)` make the source the view's data
    /// source and delegate, as a `UITableView` needs (it used to stay empty: only the
    /// `tableView:` initializers installed the UIKit adapter).
    func test_initWithView_makesTheSourceTheViewsDataSource() {
        MainActor.assumeIsolated {
            let collection = ObservableCollection([TestItem](ids: [1]))
            let table = HeadlessTableView<TestItem> { [[]] }
            let tableSource = TableViewSource(view: table, collection: collection)
            XCTAssertTrue(table.adoptedSource === tableSource)
            XCTAssertEqual(table.adoptionCount, 1)
            let grid = HeadlessCollectionView<TestItem> { [[]] }
            let gridSource = CollectionViewSource(view: grid, collection: collection)
            XCTAssertTrue(grid.adoptedSource === gridSource)
            XCTAssertEqual(grid.adoptionCount, 1)
        }
    }

    /// A new forwarding delegate makes the source adopt its view again (UIKit reads which methods
    /// a delegate implements only when it is assigned); the source holds the delegate weakly.
    func test_aNewDelegate_adoptsTheViewAgain_andIsHeldWeakly() {
        MainActor.assumeIsolated {
            final class AppDelegate {}
            let table = HeadlessTableView<TestItem> { [[]] }
            let source = TableViewSource(view: table, collection: ObservableCollection([TestItem](ids: [1])))
            var appDelegate: AppDelegate? = AppDelegate()
            source.delegate = appDelegate
            XCTAssertEqual(table.adoptionCount, 2)
            XCTAssertTrue(table.adoptedSource === source)
            source.delegate = appDelegate
            XCTAssertEqual(table.adoptionCount, 2, "the same delegate again changes nothing")
            weak var released: AppDelegate?
            released = appDelegate
            appDelegate = nil
            XCTAssertNil(released, "the source holds its delegate weakly")
            XCTAssertNil(source.delegate)
        }
    }

    // MARK: - Rendering

    func test_initialState_isShownWithOneReload() {
        MainActor.assumeIsolated {
            let collection = ObservableCollection([TestItem](ids: [1, 2, 3]))
            let screen = TableScreen(collection)
            flushMainQueue()
            XCTAssertEqual(screen.view.rows, [[TestItem](ids: [1, 2, 3])])
            XCTAssertEqual(screen.source.lastReload, .initial)
            XCTAssertEqual(screen.source.statistics, ListSourceStatistics(batches: 0, reloads: 1))
        }
    }

    func test_eachMutation_isAnimatedAsValidBatches_andTheViewEndsEqualToTheCollection() {
        let diagnostics = diagnostics
        MainActor.assumeIsolated {
            let collection = ObservableCollection([TestItem](ids: [1, 2, 3, 4]))
            let screen = TableScreen(collection)
            flushMainQueue()
            applyOneMutationOfEachKind(to: collection)
            flushMainQueue()
            XCTAssertEqual(screen.view.violations, [])
            XCTAssertEqual(screen.view.rows, [Array(collection.snapshot)])
            XCTAssertEqual(screen.source.renderedItems, collection.snapshot)
            XCTAssertEqual(screen.source.renderedVersion, collection.version)
            XCTAssertEqual(screen.source.statistics.reloads, 1, "only the initial reload")
            // One batch each for the append, the removal, the move and the replace; the update is
            // a reconfigure of its row, with no (empty) batch.
            XCTAssertGreaterThanOrEqual(screen.source.statistics.batches, 4)
            XCTAssertTrue(
                screen.view.events.contains { if case .reconfigure = $0 { return true } else { return false } })
            XCTAssertEqual(diagnostics.takeAll(), [])
        }
    }

    /// A row that moves and is updated takes two stages when the update is a reload in the batch
    /// (UIKit cannot move and reload one row in one batch), each valid.
    func test_aMovedAndReloadedRow_takesTwoStages_eachValid() {
        MainActor.assumeIsolated {
            let collection = ObservableCollection([TestItem](ids: [1, 2, 3]))
            let screen = TableScreen(collection)
            screen.source.updateStyle = .reload
            flushMainQueue()
            collection.replace(with: [TestItem(id: 3, content: 1), TestItem(id: 1), TestItem(id: 2)])
            flushMainQueue()
            XCTAssertEqual(screen.source.statistics.batches, 2)
            XCTAssertEqual(screen.view.violations, [])
            XCTAssertEqual(screen.view.rows, [Array(collection.snapshot)])
        }
    }

    /// Issue 35: with the default `.reconfigure`, the update's stage holds nothing for the view
    /// once the source strips its updates (it reconfigures the row after the batches). It ran as
    /// an empty `performBatchUpdates`, which on a device still costs a layout pass and an
    /// animation transaction. One event, one batch, then the reconfigure.
    func test_aMovedAndReconfiguredRow_takesOneBatch_andNoEmptyOne() {
        MainActor.assumeIsolated {
            let collection = ObservableCollection([TestItem](ids: [1, 2, 3]))
            let screen = TableScreen(collection)
            flushMainQueue()
            let eventsBefore = screen.view.events.count
            collection.replace(with: [TestItem(id: 3, content: 1), TestItem(id: 1), TestItem(id: 2)])
            flushMainQueue()
            XCTAssertEqual(screen.source.statistics.batches, 1)
            let batches = screen.view.events.dropFirst(eventsBefore).compactMap { event -> BatchUpdate? in
                if case .batchUpdates(let batch, _) = event { return batch }
                return nil
            }
            XCTAssertEqual(batches.count, 1)
            XCTAssertFalse(batches.contains(where: \.isEmpty), "no empty batch")
            XCTAssertEqual(screen.view.violations, [])
            XCTAssertEqual(screen.view.rows, [Array(collection.snapshot)])
            XCTAssertEqual(screen.source.renderedItems, collection.snapshot)
        }
    }

    func test_theSourceRendersTheEventsSnapshot_notTheLiveCollection() {
        MainActor.assumeIsolated {
            let collection = ObservableCollection([TestItem](ids: [1]))
            let screen = TableScreen(collection)
            flushMainQueue()
            // Three events are queued before the main queue runs; the collection is already at the
            // last state when the first is rendered.
            collection.append(TestItem(id: 2))
            collection.append(TestItem(id: 3))
            collection.remove(at: 0)
            flushMainQueue()
            XCTAssertEqual(screen.source.statistics.batches, 3)
            XCTAssertEqual(screen.view.violations, [])
            XCTAssertEqual(screen.view.rows, [[TestItem](ids: [2, 3])])
        }
    }

    // MARK: - Fallbacks

    func test_viewOutOfStep_fallsBackToReloadData_andReportsIt() {
        let diagnostics = diagnostics
        MainActor.assumeIsolated {
            let collection = ObservableCollection([TestItem](ids: [1, 2, 3]))
            let screen = TableScreen(collection)
            flushMainQueue()
            // The app reloads the view from other data.
            screen.override.sections = [[TestItem](ids: [7])]
            screen.view.reloadData()
            screen.override.sections = nil
            collection.append(TestItem(id: 4))
            flushMainQueue()
            XCTAssertEqual(screen.view.violations, [], "the source must not send a batch the view rejects")
            XCTAssertEqual(screen.view.rows, [Array(collection.snapshot)])
            XCTAssertEqual(screen.source.lastReload, .countMismatch(view: [1], expected: [3]))
            let reports = diagnostics.takeAll()
            XCTAssertEqual(reports.map(\.kind), [.viewCountMismatch])
            XCTAssertEqual(
                reports.first?.message,
                "the view shows item counts [1], the change expects [3] at version 1; reloaded the view")
            // Back in step: the next change animates again.
            collection.append(TestItem(id: 5))
            flushMainQueue()
            XCTAssertEqual(screen.source.statistics.batches, 1)
            XCTAssertEqual(screen.view.rows, [Array(collection.snapshot)])
        }
    }

    func test_countMismatchOfManySections_isDescribedOnOneShortLine() {
        // Issue 13: diagnostics cap their lists, whatever the number of sections.
        let reason = ListReloadReason.countMismatch(
            view: [Int](repeating: 1, count: 1_000), expected: [Int](repeating: 2, count: 1_001))
        XCTAssertEqual(
            reason.description,
            "the view shows item counts [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, … 980 more], "
                + "the change expects [2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, … 981 more]")
    }

    func test_viewNotInAWindow_reloads_withoutReporting() {
        let diagnostics = diagnostics
        MainActor.assumeIsolated {
            let collection = ObservableCollection([TestItem](ids: [1]))
            let screen = TableScreen(collection)
            flushMainQueue()
            screen.view.isInWindow = false
            collection.append(TestItem(id: 2))
            flushMainQueue()
            XCTAssertEqual(screen.source.lastReload, .notInWindow)
            XCTAssertEqual(screen.source.statistics.batches, 0)
            XCTAssertEqual(screen.view.rows, [Array(collection.snapshot)])
            XCTAssertEqual(diagnostics.takeAll(), [])
        }
    }

    func test_changeOverTheThreshold_reloads() {
        MainActor.assumeIsolated {
            let collection = ObservableCollection([TestItem](ids: [1]))
            let screen = TableScreen(collection, reloadThreshold: 2)
            flushMainQueue()
            collection.append(contentsOf: [TestItem](ids: [2, 3]))
            collection.append(contentsOf: [TestItem](ids: [4, 5, 6]))
            flushMainQueue()
            XCTAssertEqual(screen.source.statistics, ListSourceStatistics(batches: 1, reloads: 2))
            XCTAssertEqual(screen.source.lastReload, .overThreshold(changes: 3))
            XCTAssertEqual(screen.view.rows, [Array(collection.snapshot)])
        }
    }

    // MARK: - Data source and events

    func test_dataSource_answersFromTheRenderedList() {
        MainActor.assumeIsolated {
            let collection = ObservableCollection([TestItem](ids: [1, 2]))
            let screen = TableScreen(collection)
            flushMainQueue()
            XCTAssertEqual(screen.source.numberOfSections, 1)
            XCTAssertEqual(screen.source.numberOfItems(inSection: 0), 2)
            XCTAssertEqual(screen.source.numberOfItems(inSection: 1), 0)
            XCTAssertEqual(screen.source.element(at: ElementPath(item: 1, section: 0)), TestItem(id: 2))
            collection.append(TestItem(id: 3))
            XCTAssertEqual(screen.source.numberOfItems(inSection: 0), 2, "not rendered yet")
        }
    }

    func test_selection_executesTheCommandWithTheItem_andEventsAreForwarded() {
        MainActor.assumeIsolated {
            let collection = ObservableCollection([TestItem](ids: [1, 2]))
            let screen = TableScreen(collection)
            let selected = EventRecorder<TestItem>()
            let events = EventRecorder<String>()
            screen.source.selectItem = CommandWithParameter(
                delegate: commandAnchor, perform: { _, item in selected.record(item) })
            screen.source.onItemEvent = { event, item, path in events.record("\(event) \(item) \(path)") }
            flushMainQueue()
            screen.source.handle(.highlighted, at: ElementPath(item: 1, section: 0))
            screen.source.handle(.selected, at: ElementPath(item: 1, section: 0))
            screen.source.handle(.selected, at: ElementPath(item: 5, section: 0))
            XCTAssertEqual(selected.takeAll(), [TestItem(id: 2)])
            XCTAssertEqual(events.takeAll(), ["highlighted 2:0 0 - 1", "selected 2:0 0 - 1"])
        }
    }

    // MARK: - Lifetime

    func test_sourceViewAndCollection_deallocate_andTheSubscriptionEnds() {
        let collection = ObservableCollection([TestItem](ids: [1]))
        MainActor.assumeIsolated {
            assertDeallocated {
                let screen = TableScreen(collection)
                flushMainQueue()
                collection.append(TestItem(id: 2))
                flushMainQueue()
                return weakReferences(screen.view, screen.source)
            }
        }
        XCTAssertEqual(collection.subscriberCount, 0)
    }

    func test_viewGone_stopsTheSource() {
        MainActor.assumeIsolated {
            let collection = ObservableCollection([TestItem](ids: [1]))
            var view: HeadlessCollectionView<TestItem>? = HeadlessCollectionView { [[]] }
            let source = CollectionViewSource(view: view!, collection: collection)
            flushMainQueue()
            view = nil
            collection.append(TestItem(id: 2))
            flushMainQueue()
            XCTAssertNil(source.listView)
            XCTAssertEqual(collection.subscriberCount, 0)
        }
    }

    // MARK: - End to end

    /// Seeded random mutations from four background threads and from inside a subscriber; every
    /// batch the source makes must be valid, and the view must end equal to the collection.
    func test_randomMutationsFromFourThreads_allBatchesValid_viewEndsEqualToTheCollection() {
        for seed: UInt64 in 1...5 {
            runScreen(seed: seed, operationsPerThread: 250)
        }
    }

    /// The soak run: 100,000 operations, zero invalid batches and zero mismatched rows. (A
    /// `TestScale` fraction of them in CI's sanitizer steps.)
    func test_soak_100kOperations() {
        runScreen(seed: 42, operationsPerThread: TestScale.count(25_000, minimum: 1_000))
    }

    /// - Parameter operationsPerThread: Each of the four threads' operations; the main queue is
    ///   given up to 240 s per 25,000 of them to render their events (ThreadSanitizer's pace).
    private func runScreen(seed: UInt64, operationsPerThread: Int) {
        do {
            MainActor.assumeIsolated {
                let collection = ObservableCollection([TestItem](ids: Array(0..<20)))
                let screen = TableScreen(collection)
                flushMainQueue()
                // A subscriber that mutates from its callback now and then.
                let reentrant = collection.subscribe(on: .synchronous) { change in
                    if change.version % 17 == 0 {
                        collection.append(TestItem(id: -change.version))
                    }
                }
                let nextID = Locked(1_000)
                DispatchQueue.concurrentPerform(iterations: 4) { thread in
                    var random = SplitMix64(seed: seed &* 31 &+ UInt64(thread))
                    for _ in 0..<operationsPerThread {
                        ListSourceTests.randomMutation(of: collection, random: &random, nextID: nextID)
                    }
                }
                // A timeout, not a timing: under ThreadSanitizer the soak's 100,000 events took
                // 90 s to render here (20 s without it).
                flushMainQueue(timeout: 240 * Double(max(1, operationsPerThread / 25_000)))
                reentrant.cancel()
                XCTAssertEqual(screen.view.violations, [], "seed \(seed)")
                XCTAssertEqual(screen.view.rows, [Array(collection.snapshot)], "seed \(seed)")
                XCTAssertEqual(
                    Set(collection.snapshot.map(\.id)).count, collection.count, "seed \(seed): an item shown twice")
                XCTAssertEqual(screen.source.statistics.reloads, 1, "seed \(seed): only the initial reload")
            }
        }
    }

    private static func randomMutation(
        of collection: ObservableCollection<TestItem>, random: inout SplitMix64, nextID: Locked<Int>
    ) {
        let fresh = {
            nextID.withLock { id -> Int in
                id += 1
                return id
            }
        }
        // Only operations that stay valid whatever other threads do meanwhile: no index read first.
        switch random.int(below: 6) {
        case 0: collection.append(TestItem(id: fresh()))
        case 1: collection.insert(TestItem(id: fresh()), at: 0)
        case 2:
            collection.performBatchUpdates {
                collection.append(TestItem(id: fresh()))
                collection.insert(TestItem(id: fresh()), at: 0)
                collection.removeAll { $0.id % 5 == 0 }
            }
        case 3:
            let remainder = random.int(below: 7)
            collection.removeAll { $0.id % 7 == remainder }
        case 4:
            var items = Array(collection.snapshot)
            random.shuffle(&items)
            if let first = items.first { items[0] = TestItem(id: first.id, content: first.content + 1) }
            collection.replace(with: Array(items.dropLast()) + [TestItem(id: fresh())])
        default:
            var items = Array(collection.snapshot)
            if items.count > 2 { items.swapAt(0, items.count - 1) }
            collection.replace(with: items)
        }
    }
}
