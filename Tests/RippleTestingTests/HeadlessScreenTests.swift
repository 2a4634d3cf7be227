import Dispatch
import Ripple
import RippleDiff
import RippleTestSupport
import RippleTesting
import XCTest

/// A page-loading command whose Dispatch body runs on a background queue, a little later: the
/// page arrives after the main queue has drained at least once.
private func backgroundPages(
    pageSize: Int, pages: Int, count: @escaping @Sendable () -> Int, append: @escaping @Sendable (_ ids: [Int]) -> Void
) -> CommandWithResult<Void, PageLoad> {
    CommandWithResult(
        delegate: commandAnchor, queue: DispatchQueue.global(),
        work: { _, _, done in
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(5)) {
                let start = count()
                append(Array(start..<start + pageSize))
                done(.success(start + pageSize >= pageSize * pages ? .lastPage : .morePages))
            }
        })
}

/// `HeadlessTableScreen`, `HeadlessTableScreenWithSection`, `HeadlessCollectionScreen` and
/// `HeadlessCollectionScreenWithSection`: ready-made screens, their built-in loading cell, and
/// `settle`, which waits for the commands the screen drives and says what it waited for in vain.
///
/// `@MainActor`, with `async` methods (the main queue turns while a test awaits); the tests of the
/// synchronous `settle(timeout:)` are synchronous methods.
@MainActor
final class HeadlessScreenTests: XCTestCase {
    private final class Row: HeadlessCell<TestItem> {}

    /// The failures `settle` recorded, which this class expects and keeps from failing the test.
    private let settleFailures = ObservableCollection<String>()

    #if canImport(Darwin)
    nonisolated override func record(_ issue: XCTIssue) {
        if issue.compactDescription.contains(".settle(): not settled") {
            settleFailures.append(issue.compactDescription)
        } else {
            super.record(issue)
        }
    }
    #else
    nonisolated override func recordFailure(
        withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
    ) {
        if description.contains(".settle(): not settled") {
            settleFailures.append(description)
        } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }
    #endif

    private func path(_ item: Int, _ section: Int = 0) -> ElementPath { ElementPath(item: item, section: section) }

    // MARK: - The screens

    func test_tableScreen_showsTheCollection_withValidBatches_andCells() async {
        let collection = ObservableCollection([TestItem](ids: [1, 2, 3]))
        let screen = HeadlessTableScreen(collection: collection, visibleRowCount: 2)
        screen.register(Row.self)
        await screen.settle()
        collection.append(TestItem(id: 4))
        collection.replace(with: [TestItem](ids: [4, 2, 1]))
        await screen.settle()
        XCTAssertEqual(screen.tableView.violations, [])
        XCTAssertEqual(screen.shownItems, Array(collection.snapshot))
        XCTAssertEqual(screen.cells.visibleItems, [TestItem(id: 4), TestItem(id: 2)])
        XCTAssertEqual(screen.source.statistics.reloads, 1)
        XCTAssertTrue(screen.tableView.adoptedSource === screen.source)
    }

    /// A test that steps a `TestScheduler` sees the loading row while the run waits on it:
    /// `settle(awaitingRuns: false)` does not wait for the run, and the built-in loading cell shows it.
    func test_tableScreen_showsTheLoadingRow_whileATestSchedulerHoldsTheRun() async {
        let scheduler = TestScheduler()
        let collection = ObservableCollection<TestItem>()
        let loadMore = CommandWithResult<Void, PageLoad>(
            delegate: commandAnchor, queue: scheduler,
            work: { _, _, done in
                collection.append(TestItem(id: collection.count))
                done(.success(.lastPage))
            })
        let screen = HeadlessTableScreen(collection: collection)
        screen.register(Row.self)
        screen.source.paginate(with: loadMore)
        await screen.settle(awaitingRuns: false)
        XCTAssertEqual(screen.tableView.rows, [[nil]])
        XCTAssertEqual(screen.shownItems, [])
        XCTAssertTrue(screen.cells.visibleCells.first?.cell is HeadlessLoadingCell<TestItem>)
        XCTAssertEqual(screen.cells.visibleCells.map(\.cell.reuseIdentifier), ["Loading"])
        XCTAssertFalse(screen.unsettledWork.isEmpty, "the page is loading")
        XCTAssertEqual(scheduler.runAll(), 1)
        await screen.settle()
        XCTAssertEqual(screen.tableView.rows, [[TestItem(id: 0)]])
        XCTAssertEqual(screen.tableView.violations, [])
        XCTAssertEqual(screen.unsettledWork, [])
    }

    /// A loading cell the user registers wins over the built-in one, also under another identifier.
    func test_aRegisteredLoadingCell_winsOverTheBuiltInOne() async {
        final class Spinner: HeadlessCell<TestItem> {}
        let scheduler = TestScheduler()
        let screen = HeadlessCollectionScreen(collection: ObservableCollection<TestItem>())
        screen.register(Row.self)
        screen.cells.register(Spinner.self, forCellReuseIdentifier: "Spinner")
        screen.source.loadingCellIdentifier = "Spinner"
        screen.source.paginate(
            with: CommandWithResult<Void, PageLoad>(
                delegate: commandAnchor, queue: scheduler, work: { _, _, done in done.succeed(.morePages) }))
        await screen.settle(awaitingRuns: false)
        XCTAssertTrue(screen.cells.visibleCells.first?.cell is Spinner)
        scheduler.runAll()
        await screen.settle()
        XCTAssertEqual(screen.collectionView.items, [[]])
    }

    func test_sectionedCollectionScreen_showsTheSections() async {
        let collection = SectionedCollection<String, TestItem>([
            SectionSnapshot(section: "A", items: [TestItem](ids: [1, 2])),
            SectionSnapshot(section: "B", items: [TestItem](ids: [3])),
        ])
        let screen = HeadlessCollectionScreenWithSection(collection: collection)
        screen.register(Row.self)
        await screen.settle()
        collection.moveItem(from: path(0), to: path(1, 1))
        collection.moveSection(from: 1, to: 0)
        collection.sections[0].items.append(TestItem(id: 4))  // through the section's own list
        await screen.settle()
        XCTAssertEqual(screen.collectionView.violations, [])
        XCTAssertEqual(screen.shownItems, collection.snapshot.map { Array($0.items) })
        XCTAssertEqual(screen.shownSections, ["B", "A"])
        XCTAssertEqual(screen.shownItems.map(\.ids), [[3, 1, 4], [2]])
    }

    /// Each of the four screens pages through a feed loaded on a background queue: `settle` waits
    /// for each load, the layout between loads fills the screen as a device would, the loading
    /// row needs no registered cell, and the last page stops it.
    func test_allFourScreens_pageThroughABackgroundFeed() async {
        let pageSize = 4
        let pages = 3
        func check(
            _ name: String, settle: () async -> Void, scrollToEnd: () -> Void, shownIDs: () -> [Int],
            violations: () -> [BatchUpdateViolation], unsettled: () -> [String]
        ) async {
            await settle()
            XCTAssertEqual(shownIDs(), Array(0..<8), "\(name): two pages fill a screen of 6 rows with a threshold of 2")
            XCTAssertEqual(unsettled(), [], name)
            scrollToEnd()
            await settle()
            XCTAssertEqual(shownIDs(), Array(0..<12), "\(name): the last page")
            scrollToEnd()
            await settle()
            XCTAssertEqual(shownIDs(), Array(0..<12), "\(name): nothing after the last page")
            XCTAssertEqual(violations(), [], name)
        }

        do {
            let items = ObservableCollection<TestItem>()
            let load = backgroundPages(pageSize: pageSize, pages: pages, count: { items.count }) {
                items.append(contentsOf: [TestItem](ids: $0))
            }
            let screen = HeadlessTableScreen(collection: items, visibleRowCount: 6)
            screen.register(Row.self)
            screen.source.paginate(with: load, threshold: 2)
            await check(
                "table", settle: { await screen.settle() }, scrollToEnd: screen.cells.scrollToEnd,
                shownIDs: { screen.shownItems.ids }, violations: { screen.tableView.violations },
                unsettled: { screen.unsettledWork })
        }
        do {
            let items = ObservableCollection<TestItem>()
            let load = backgroundPages(pageSize: pageSize, pages: pages, count: { items.count }) {
                items.append(contentsOf: [TestItem](ids: $0))
            }
            let screen = HeadlessCollectionScreen(collection: items, visibleRowCount: 6)
            screen.register(Row.self)
            screen.source.paginate(with: load, threshold: 2)
            await check(
                "collection", settle: { await screen.settle() }, scrollToEnd: screen.cells.scrollToEnd,
                shownIDs: { screen.shownItems.ids }, violations: { screen.collectionView.violations },
                unsettled: { screen.unsettledWork })
        }
        do {
            let days = SectionedCollection<String, TestItem>()
            let load = backgroundPages(
                pageSize: pageSize, pages: pages, count: { days.snapshot.map(\.items.count).reduce(0, +) }
            ) {
                days.appendSection(SectionData("Page \($0[0] / pageSize)", items: [TestItem](ids: $0)))
            }
            let screen = HeadlessTableScreenWithSection(collection: days, visibleRowCount: 6)
            screen.register(Row.self)
            screen.source.paginate(with: load, threshold: 2)
            await check(
                "sectioned table", settle: { await screen.settle() }, scrollToEnd: screen.cells.scrollToEnd,
                shownIDs: { screen.shownItems.flatMap(\.ids) }, violations: { screen.tableView.violations },
                unsettled: { screen.unsettledWork })
            XCTAssertEqual(screen.shownSections, ["Page 0", "Page 1", "Page 2"])
        }
        do {
            let days = SectionedCollection<String, TestItem>([SectionData("All")])
            let load = backgroundPages(pageSize: pageSize, pages: pages, count: { days.snapshot[0].items.count }) {
                days.sections[0].items.append(contentsOf: [TestItem](ids: $0))
            }
            let screen = HeadlessCollectionScreenWithSection(collection: days, visibleRowCount: 6)
            screen.register(Row.self)
            screen.source.paginate(with: load, threshold: 2)
            await check(
                "sectioned collection", settle: { await screen.settle() }, scrollToEnd: screen.cells.scrollToEnd,
                shownIDs: { screen.shownItems.flatMap(\.ids) }, violations: { screen.collectionView.violations },
                unsettled: { screen.unsettledWork })
        }
    }

    // MARK: - Settling

    /// `settle` waits for the `selectItem` run a tap starts, here an `async` body that suspends.
    func test_settle_waitsForTheSelectItemRunATapStarts() async {
        let opened = ObservableCollection<Int>()
        let open = CommandWithParameter<TestItem>(
            delegate: commandAnchor,
            task: { _, item in
                try await Task.sleep(nanoseconds: 5_000_000)
                opened.append(item.id)
            })
        let screen = HeadlessTableScreen(collection: ObservableCollection([TestItem](ids: [1, 2])), selectItem: open)
        screen.register(Row.self)
        await screen.settle()
        screen.cells.tap(path(1))
        XCTAssertTrue(open.isExecuting)
        await screen.settle()
        XCTAssertFalse(open.isExecuting)
        XCTAssertEqual(opened.snapshot, [2])
        XCTAssertEqual(screen.tableView.selectedPaths, [path(1)])
    }

    /// Commands the screen does not drive are waited for when the test tracks them, or awaits them
    /// for one settle.
    func test_settle_waitsForTrackedAndAwaitedCommands() async {
        let items = ObservableCollection([TestItem](ids: [1]))
        let refresh = Command(
            delegate: commandAnchor, queue: DispatchQueue.global(),
            work: { _, _, done in
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(5)) {
                    items.replace(with: [TestItem](ids: [1, 2, 3]))
                    done.succeed()
                }
            })
        let screen = HeadlessTableScreen(collection: items)
        screen.register(Row.self)
        await screen.settle()

        XCTAssertNil(refresh.execute().refusal)
        await screen.settle(awaiting: refresh)
        XCTAssertFalse(refresh.isExecuting)
        XCTAssertEqual(screen.shownItems.ids, [1, 2, 3])

        screen.track(refresh, as: "refresh")
        items.replace(with: [TestItem](ids: [1]))
        XCTAssertNil(refresh.execute().refusal)
        XCTAssertEqual(screen.unsettledWork.last, "refresh is executing")
        await screen.settle()
        XCTAssertEqual(screen.shownItems.ids, [1, 2, 3])
        XCTAssertEqual(screen.tableView.violations, [])
    }

    /// Past its timeout, `settle` fails, naming what was still going on: here a run that only the
    /// test ends, and the page load it holds up.
    func test_settle_pastItsTimeout_namesWhatIsStillExecuting() async {
        let items = ObservableCollection<TestItem>()
        let pending = ObservableCollection<CommandRun>()
        let save = Command(
            delegate: commandAnchor, queue: DispatchQueue.global(), work: { _, _, done in pending.append(done) })
        let pages = ObservableCollection<CommandResultRun<PageLoad>>()
        let loadMore = CommandWithResult<Void, PageLoad>(
            delegate: commandAnchor, queue: DispatchQueue.global(), work: { _, _, done in pages.append(done) })
        let screen = HeadlessTableScreen(collection: items)
        screen.register(Row.self)
        screen.track(save, as: "save")
        screen.source.paginate(with: loadMore)
        XCTAssertNil(save.execute().refusal)

        await screen.settle(timeout: 0.05)
        XCTAssertEqual(settleFailures.count, 1)
        let failure = settleFailures.snapshot.first ?? ""
        XCTAssertTrue(failure.contains("HeadlessTableScreen.settle(): not settled after 0.05 s"), failure)
        XCTAssertTrue(failure.contains("the pagination is loading a page"), failure)
        XCTAssertTrue(failure.contains("save is executing"), failure)

        for run in pending.snapshot { run.succeed() }
        for page in pages.snapshot { page.succeed(.lastPage) }
        await screen.settle()
        XCTAssertEqual(settleFailures.count, 1, "settled once the runs ended")
        XCTAssertEqual(screen.tableView.rows, [[]])
    }

    /// The source's renderings count too: events of the collection not rendered yet.
    func test_unsettledWork_namesEventsNotRenderedYet() async {
        let items = ObservableCollection([TestItem](ids: [1]))
        let screen = HeadlessTableScreen(collection: items)
        screen.register(Row.self)
        XCTAssertEqual(screen.unsettledWork, ["the source has not rendered its collection yet (version 0)"])
        await screen.settle()
        items.append(TestItem(id: 2))
        XCTAssertEqual(
            screen.unsettledWork, ["the source has rendered version 0 of its collection, which is at version 1"])
        await screen.settle()
        XCTAssertEqual(screen.unsettledWork, [])
    }

    // MARK: - The synchronous settle

    /// The synchronous `settle(timeout:)` waits for a background page load as the `async` one does.
    func test_synchronousSettle_waitsForABackgroundPageLoad() {
        let items = ObservableCollection<TestItem>()
        let load = backgroundPages(pageSize: 3, pages: 1, count: { items.count }) {
            items.append(contentsOf: [TestItem](ids: $0))
        }
        let screen = HeadlessTableScreen(collection: items)
        screen.register(Row.self)
        screen.source.paginate(with: load)
        screen.settle()
        XCTAssertEqual(screen.shownItems.ids, [0, 1, 2])
        XCTAssertEqual(screen.unsettledWork, [])
        XCTAssertEqual(screen.cells.visibleItems.count, 3, "laid out")
    }

    func test_synchronousSettle_pastItsTimeout_namesWhatIsStillExecuting() {
        let pending = ObservableCollection<CommandRun>()
        let open = CommandWithParameter<TestItem>(
            delegate: commandAnchor, queue: DispatchQueue.global(), work: { _, _, done in pending.append(done) })
        let screen = HeadlessCollectionScreenWithSection(
            collection: SectionedCollection([SectionSnapshot(section: "A", items: [TestItem](ids: [7]))]),
            selectItem: open)
        screen.register(Row.self)
        screen.settle()
        screen.cells.tap(path(0))
        screen.settle(timeout: 0.05)
        XCTAssertEqual(settleFailures.count, 1)
        let failure = settleFailures.snapshot.first ?? ""
        XCTAssertTrue(
            failure.contains("HeadlessCollectionScreenWithSection.settle(): not settled after 0.05 s"), failure)
        XCTAssertTrue(
            failure.contains("the source's selectItem command (CommandWithResult<TestItem, ()>) is executing"), failure)
        for run in pending.snapshot { run.succeed() }
        screen.settle()
        XCTAssertEqual(settleFailures.count, 1)
    }

    // MARK: - Memory

    func test_aScreen_goesAwayWithItsSourceViewAndCells() async {
        let items = SectionItems([TestItem](ids: [1, 2, 3]))
        weak var weakScreen: HeadlessTableScreenWithSection<String, TestItem>?
        weak var weakSource: TableViewSourceWithSection<String, TestItem>?
        weak var weakView: HeadlessTableView<TestItem?>?
        weak var weakCell: HeadlessReusableView?
        do {
            let screen = HeadlessTableScreenWithSection(
                collection: SectionedCollection([SectionData("A", sharing: items)]), visibleRowCount: 2)
            screen.register(Row.self)
            await screen.settle()
            (weakScreen, weakSource, weakView, weakCell) = (
                screen, screen.source, screen.tableView, screen.cells.visibleCells.first?.cell
            )
        }
        await waitForMainQueue()
        XCTAssertNil(weakScreen)
        XCTAssertNil(weakSource)
        XCTAssertNil(weakView)
        XCTAssertNil(weakCell)
    }
}
