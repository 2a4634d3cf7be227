import Dispatch
import Ripple
import RippleDiff
import RippleTestSupport
import RippleTesting
import XCTest

/// A page-loading command whose Dispatch body runs on a test scheduler and leaves its run open, so
/// a test can look at the screen after the page arrived and before the run ends, which also
/// publishes the run's ``PageLoad``.
private final class PageLoader: Sendable {
    let scheduler = TestScheduler()
    private let openRuns = Locked<[(CommandResultRun<PageLoad>, PageLoad)]>([])
    let command: CommandWithResult<Void, PageLoad>

    /// - Parameters:
    ///   - pages: The run that loads page number `pages` says ``PageLoad/lastPage``; every other
    ///     run says ``PageLoad/morePages``.
    ///   - page: Adds one page to the collection; runs on the scheduler.
    init(lastPageAt pages: Int = .max, page: @escaping @Sendable () -> Void) {
        let openRuns = openRuns
        let loaded = Locked(0)
        command = CommandWithResult(
            delegate: commandAnchor, queue: scheduler,
            work: { _, _, done in
                page()
                let count = loaded.withLock { count -> Int in
                    count += 1
                    return count
                }
                openRuns.withLock { $0.append((done, count == pages ? .lastPage : .morePages)) }
            })
    }

    /// Ends the open runs, each with its page load.
    func finishRuns() {
        for (run, load) in openRuns.withLock({ runs in
            defer { runs.removeAll() }
            return runs
        }) {
            run(.success(load))
        }
    }

    /// Runs the scheduled bodies and ends their runs.
    func completeLoads() {
        scheduler.runAll()
        finishRuns()
    }
}

/// Pagination on flat and sectioned sources: when it fires, the loading row at the end of the last
/// section, and the last page.
final class ListSourcePaginationTests: XCTestCase {
    // MARK: - Last page

    func test_aRunThatReturnsLastPage_stopsThePagination() {
        MainActor.assumeIsolated {
            let collection = ObservableCollection<TestItem>()
            let next = Locked(0)
            let loader = PageLoader(lastPageAt: 3) {
                let start = next.withLock { value -> Int in
                    defer { value += 2 }
                    return value
                }
                collection.append(contentsOf: [TestItem](ids: [start, start + 1]))
            }
            let screen = FlatTableScreen(collection)
            screen.source.paginate(with: loader.command, threshold: 1)
            flushMainQueue()
            for page in 1...3 {
                flushMainQueue()
                XCTAssertEqual(loader.scheduler.pendingCount, 1, "page \(page) loads")
                XCTAssertEqual(screen.shownIDs.last, .some(nil), "page \(page): the loading row")
                loader.completeLoads()
                flushMainQueue()
                screen.displayLastRow()
            }
            XCTAssertEqual(loader.scheduler.pendingCount, 0, "no page after the last")
            XCTAssertFalse(loader.command.isExecuting)
            XCTAssertEqual(screen.shownIDs, [0, 1, 2, 3, 4, 5])
            XCTAssertEqual(screen.view.violations, [])
        }
    }

    /// A refresh that brings the list back to a count a page was once loaded at (here 2 rows after
    /// a page took it to 4) does not stop the next page from loading at that count again.
    func test_aListBackAtACountAPageFiredAt_loadsThatPageAgain() {
        MainActor.assumeIsolated {
            let collection = ObservableCollection([TestItem](ids: [1, 2]))
            let loader = PageLoader { collection.append(contentsOf: [TestItem](ids: [3, 4])) }
            let screen = FlatTableScreen(collection)
            screen.source.paginate(with: loader.command, threshold: 1, showsLoadingRow: false)
            flushMainQueue()
            screen.displayLastRow()
            XCTAssertEqual(loader.scheduler.pendingCount, 1, "the page after row 2 loads")
            loader.completeLoads()
            flushMainQueue()
            collection.replace(with: [TestItem](ids: [1, 2]))  // a refresh: the first page again
            flushMainQueue()
            screen.displayLastRow()
            XCTAssertEqual(loader.scheduler.pendingCount, 1, "the second page loads again")
            loader.completeLoads()
            flushMainQueue()
            XCTAssertEqual(screen.shownIDs, [1, 2, 3, 4])
            XCTAssertEqual(screen.view.violations, [])
        }
    }

    /// The run's end is live on the command before the main queue delivers its result: a row
    /// displayed in between must not load a page past the last.
    func test_aRowDisplayedBeforeTheLastPageIsDelivered_loadsNothing() {
        MainActor.assumeIsolated {
            let collection = ObservableCollection([TestItem](ids: [1, 2]))
            let loader = PageLoader(lastPageAt: 1) { collection.append(contentsOf: [TestItem](ids: [3, 4])) }
            let screen = FlatTableScreen(collection)
            screen.source.paginate(with: loader.command, threshold: 1)
            flushMainQueue()
            screen.displayLastRow()
            XCTAssertEqual(loader.scheduler.runAll(), 1)
            flushMainQueue()
            XCTAssertEqual(screen.shownIDs, [1, 2, 3, 4, nil], "the page arrived; the run goes on")
            loader.finishRuns()  // the last page: the result and the end are queued, not delivered
            XCTAssertFalse(loader.command.isExecuting)
            screen.displayLastRow()
            XCTAssertEqual(loader.scheduler.pendingCount, 0, "a load fired before the last page was known")
            flushMainQueue()
            screen.displayLastRow()
            XCTAssertEqual(loader.scheduler.pendingCount, 0)
            XCTAssertEqual(screen.shownIDs, [1, 2, 3, 4])
            XCTAssertEqual(screen.view.violations, [])
        }
    }

    /// A synchronous load, fired at once by `paginate` on a rendered empty list, publishes its
    /// result before `paginate` returns: the last page it reports still stops the pagination.
    func test_aSynchronousLoadFiredAtOnce_thatSaysLastPage_stopsThePagination() {
        MainActor.assumeIsolated {
            let collection = ObservableCollection<TestItem>()
            let runs = Locked(0)
            let loadMore = CommandWithResult<Void, PageLoad>(
                delegate: commandAnchor,
                perform: { _, _ in
                    runs.withLock { $0 += 1 }
                    collection.append(TestItem(id: 1))
                    return .lastPage
                })
            let screen = FlatTableScreen(collection)
            flushMainQueue()
            screen.source.paginate(with: loadMore, showsLoadingRow: false)
            XCTAssertEqual(runs.current, 1, "the empty list loads at once")
            flushMainQueue()
            screen.displayLastRow()
            flushMainQueue()
            XCTAssertEqual(runs.current, 1, "the first page was the last")
            XCTAssertEqual(screen.shownIDs, [1])
        }
    }

    /// `isLoadingPage` holds from the load the source fires until the main queue has delivered the
    /// run's end, not just until the command stops executing.
    func test_isLoadingPage_lastsUntilTheRunsEndIsDelivered() {
        MainActor.assumeIsolated {
            let collection = ObservableCollection([TestItem](ids: [1, 2]))
            let loader = PageLoader { collection.append(TestItem(id: 3)) }
            let screen = FlatTableScreen(collection)
            XCTAssertFalse(screen.source.isLoadingPage, "no pagination")
            screen.source.paginate(with: loader.command, threshold: 1)
            flushMainQueue()
            XCTAssertFalse(screen.source.isLoadingPage)
            screen.displayLastRow()
            XCTAssertTrue(screen.source.isLoadingPage, "fired")
            loader.completeLoads()
            XCTAssertFalse(loader.command.isExecuting)
            XCTAssertTrue(screen.source.isLoadingPage, "the run's end is not delivered yet")
            flushMainQueue()
            XCTAssertFalse(screen.source.isLoadingPage)
            XCTAssertEqual(screen.shownIDs, [1, 2, 3])
        }
    }

    /// A run the app starts itself (a refresh) that returns `morePages` resumes the pagination.
    func test_aMorePagesResultAfterTheLastPage_resumesThePagination() {
        MainActor.assumeIsolated {
            let collection = ObservableCollection([TestItem](ids: [1]))
            let loads = Locked(0)
            let loader = PageLoader(lastPageAt: 1) { loads.withLock { $0 += 1 } }
            let screen = FlatTableScreen(collection)
            screen.source.paginate(with: loader.command, threshold: 1, showsLoadingRow: false)
            flushMainQueue()
            screen.displayLastRow()
            loader.completeLoads()
            flushMainQueue()
            collection.append(TestItem(id: 2))
            flushMainQueue()
            screen.displayLastRow()
            XCTAssertEqual(loader.scheduler.pendingCount, 0, "stopped at the last page")

            XCTAssertNil(loader.command.execute().refusal)  // the app's own run, e.g. a pull to refresh
            loader.completeLoads()  // the second run says morePages
            flushMainQueue()
            XCTAssertEqual(loads.current, 2)
            collection.append(TestItem(id: 3))
            flushMainQueue()
            screen.displayLastRow()
            XCTAssertEqual(loader.scheduler.pendingCount, 1, "the pagination loads again")
        }
    }

    // MARK: - Resuming after the last page

    /// 25 stories from a server, pages of 10, on a flat table scrolled to its last page: the
    /// third run says ``PageLoad/lastPage`` with all 25 rows shown. `server` is the next story the
    /// pagination would load; a refresh sets it back.
    private struct Stories {
        let collection = ObservableCollection<TestItem>()
        let server = Locked(0)
        let loader: PageLoader
        let screen: FlatTableScreen

        @MainActor
        init() {
            let (collection, server) = (collection, server)
            loader = PageLoader(lastPageAt: 3) {
                let ids = server.withLock { next -> [Int] in
                    defer { next = min(next + 10, 25) }
                    return Array(next..<min(next + 10, 25))
                }
                collection.append(contentsOf: [TestItem](ids: ids))
            }
            screen = FlatTableScreen(collection)
            screen.source.paginate(with: loader.command, threshold: 2, showsLoadingRow: false)
            flushMainQueue()  // the empty list loads page 1
            for _ in 1...3 {
                loader.completeLoads()
                flushMainQueue()
                screen.displayLastRow()
            }
        }

        /// The rows `ids` as the screen shows them.
        func rows(_ ids: Range<Int>) -> [Int?] { ids.map { $0 } }

        /// The first page again, as a refresh loads it.
        var firstPage: [TestItem] {
            server.withLock { $0 = 10 }
            return [TestItem](ids: Array(0..<10))
        }
    }

    /// Issue 21, bug 3: a pull to refresh through a command of its own (not the pagination's)
    /// brings the list back to 10 rows, and scrolling to the end then loads page 2.
    func test_aRefreshCommandAfterTheLastPage_resumesThePagination() {
        MainActor.assumeIsolated {
            let stories = Stories()
            XCTAssertEqual(stories.loader.scheduler.pendingCount, 0, "stopped at the last page")
            XCTAssertEqual(stories.screen.shownIDs, stories.rows(0..<25))

            let refresh = Command(
                delegate: commandAnchor,
                perform: { _ in
                    let page = stories.firstPage
                    stories.collection.performBatchUpdates {
                        stories.collection.removeAll()
                        stories.collection.append(contentsOf: page)
                    }
                })
            XCTAssertNil(refresh.execute().refusal)
            flushMainQueue()
            XCTAssertEqual(stories.screen.shownIDs, stories.rows(0..<10))
            stories.screen.displayLastRow()
            XCTAssertEqual(stories.loader.scheduler.pendingCount, 1, "page 2 loads")
            stories.loader.completeLoads()
            flushMainQueue()
            XCTAssertEqual(stories.screen.shownIDs, stories.rows(0..<20))
            XCTAssertEqual(stories.screen.view.violations, [])
        }
    }

    /// A refresh through `replace(with:)` on the collection resumes the pagination as well.
    func test_aReplaceWithFewerRowsAfterTheLastPage_resumesThePagination() {
        MainActor.assumeIsolated {
            let stories = Stories()
            stories.collection.replace(with: stories.firstPage)
            flushMainQueue()
            stories.screen.displayLastRow()
            XCTAssertEqual(stories.loader.scheduler.pendingCount, 1, "page 2 loads")
            stories.loader.completeLoads()
            flushMainQueue()
            stories.screen.displayLastRow()
            XCTAssertEqual(stories.loader.scheduler.pendingCount, 1, "and page 3")
            stories.loader.completeLoads()  // a run that says morePages: the loader counts on
            flushMainQueue()
            XCTAssertEqual(stories.screen.shownIDs, stories.rows(0..<25))
            XCTAssertEqual(stories.screen.view.violations, [])
        }
    }

    /// A list that only grew (or changed without shrinking) after the last page stays there:
    /// scrolling to its end loads nothing.
    func test_aListThatOnlyGrewAfterTheLastPage_staysAtItsLastPage() {
        MainActor.assumeIsolated {
            let stories = Stories()
            stories.collection.insert(TestItem(id: 100), at: 0)
            flushMainQueue()
            stories.screen.displayLastRow()
            stories.collection.replace(with: [TestItem](ids: [100] + Array(0..<24) + [101]))  // 26 rows, 26 before
            flushMainQueue()
            stories.screen.displayLastRow()
            stories.collection.append(TestItem(id: 102))
            flushMainQueue()
            stories.screen.displayLastRow()
            XCTAssertEqual(stories.loader.scheduler.pendingCount, 0, "no page after the last")
            XCTAssertEqual(stories.screen.shownIDs.count, 27)
            XCTAssertEqual(stories.screen.view.violations, [])
        }
    }

    /// The executing state replayed to the pagination's new subscription arrives after the load
    /// that an empty list fires at once: it must neither hide the loading row nor let a second
    /// load start.
    func test_theReplayedStateAfterAnImmediateLoad_keepsTheLoadingRow_andStartsNoSecondLoad() {
        MainActor.assumeIsolated {
            let collection = ObservableCollection<TestItem>()
            let loader = PageLoader { collection.append(TestItem(id: 1)) }
            let screen = FlatTableScreen(collection)
            flushMainQueue()
            screen.source.paginate(with: loader.command)  // rendered and empty: loads at once
            XCTAssertEqual(loader.scheduler.pendingCount, 1)
            flushMainQueue()
            XCTAssertEqual(screen.shownIDs, [nil], "the loading row")
            screen.displayLastRow()
            XCTAssertEqual(loader.scheduler.pendingCount, 1, "one load")
            loader.completeLoads()
            flushMainQueue()
            XCTAssertEqual(screen.shownIDs, [1])
            XCTAssertEqual(screen.view.violations, [])
        }
    }

    func test_sectioned_aRunThatReturnsLastPage_stopsThePagination() {
        MainActor.assumeIsolated {
            let collection = SectionedCollection(sections([("A", [1])]))
            let next = Locked(10)
            let loader = PageLoader(lastPageAt: 2) {
                let id = next.withLock { value -> Int in
                    defer { value += 1 }
                    return value
                }
                collection.appendSection(SectionData("S\(id)", items: [TestItem(id: id)]))
            }
            let screen = SectionedGridScreen(collection)
            screen.source.paginate(with: loader.command, threshold: 1)
            flushMainQueue()
            for _ in 0..<4 {
                let last = screen.source.numberOfSections - 1
                screen.source.handle(.willDisplay, at: path(0, last))
                loader.completeLoads()
                flushMainQueue()
            }
            XCTAssertEqual(screen.shownIDs, [[1], [10], [11]])
            XCTAssertEqual(screen.view.violations, [])
        }
    }

    // MARK: - Sectioned

    func test_sectioned_aRowNearTheEnd_loadsAPage_withTheLoadingRowAtTheEndOfTheLastSection() {
        MainActor.assumeIsolated {
            let collection = SectionedCollection(sections([("A", [1, 2, 3]), ("B", [4, 5])]))
            let loader = PageLoader { collection.sections[1].items.append(contentsOf: [TestItem](ids: [6, 7])) }
            let screen = SectionedGridScreen(collection)
            screen.source.paginate(with: loader.command, threshold: 2)
            flushMainQueue()
            screen.source.handle(.willDisplay, at: path(2, 0))
            XCTAssertEqual(loader.scheduler.pendingCount, 0, "row 3 of 5 is not within 2 of the end")
            screen.source.handle(.willDisplay, at: path(0, 1))
            XCTAssertEqual(loader.scheduler.pendingCount, 1, "row 4 of 5 is")
            flushMainQueue()
            XCTAssertEqual(screen.shownIDs, [[1, 2, 3], [4, 5, nil]])
            XCTAssertTrue(screen.source.isLoadingRow(path(2, 1)))
            XCTAssertEqual(screen.source.cellIdentifier(at: path(2, 1)), "Loading")

            XCTAssertEqual(loader.scheduler.runAll(), 1)
            flushMainQueue()
            XCTAssertEqual(screen.shownIDs, [[1, 2, 3], [4, 5, 6, 7, nil]], "the page arrived; the run goes on")
            loader.finishRuns()
            flushMainQueue()
            XCTAssertEqual(screen.shownIDs, [[1, 2, 3], [4, 5, 6, 7]])
            XCTAssertEqual(screen.view.violations, [])
            XCTAssertEqual(screen.source.statistics.reloads, 1, "only the initial reload")
        }
    }

    func test_sectioned_aPageOfNewSections_takesTheLoadingRowToTheNewLastSection() {
        MainActor.assumeIsolated {
            let collection = SectionedCollection(sections([("A", [1, 2])]))
            let loader = PageLoader {
                collection.performBatchUpdates {
                    collection.appendSection(SectionData("B", items: [TestItem](ids: [3, 4])))
                    collection.appendSection(SectionData("C", items: [TestItem](ids: [5])))
                }
            }
            let screen = SectionedGridScreen(collection)
            screen.source.paginate(with: loader.command, threshold: 1)
            flushMainQueue()
            screen.source.handle(.willDisplay, at: path(1, 0))
            flushMainQueue()
            XCTAssertEqual(screen.shownIDs, [[1, 2, nil]])
            loader.scheduler.runAll()
            flushMainQueue()
            XCTAssertEqual(screen.view.violations, [])
            XCTAssertEqual(screen.shownIDs, [[1, 2], [3, 4], [5, nil]])
            loader.finishRuns()
            flushMainQueue()
            XCTAssertEqual(screen.shownIDs, [[1, 2], [3, 4], [5]])
            XCTAssertEqual(screen.view.violations, [])
            XCTAssertEqual(screen.source.statistics.reloads, 1, "only the initial reload")
        }
    }

    func test_sectioned_theLastSectionRemoved_whileTheLoadingRowShows_leavesItAtTheEndOfTheNewLast() {
        MainActor.assumeIsolated {
            let collection = SectionedCollection(sections([("A", [1]), ("B", [2])]))
            let loader = PageLoader {}
            let screen = SectionedGridScreen(collection)
            screen.source.paginate(with: loader.command, threshold: 1)
            flushMainQueue()
            screen.source.handle(.willDisplay, at: path(0, 1))
            flushMainQueue()
            XCTAssertEqual(screen.shownIDs, [[1], [2, nil]])
            _ = collection.removeSection(at: 1)
            flushMainQueue()
            XCTAssertEqual(screen.shownIDs, [[1, nil]])
            _ = collection.removeSection(at: 0)
            flushMainQueue()
            XCTAssertEqual(screen.shownIDs, [], "no section, no loading row")
            loader.completeLoads()
            flushMainQueue()
            XCTAssertEqual(screen.shownIDs, [])
            XCTAssertEqual(screen.view.violations, [])
        }
    }

    /// Seeded random section and item changes while loads start and end: every batch valid, the
    /// loading row always at the end of the last section, the view equal to the collection.
    func test_sectioned_seededRandomChanges_whileLoadsComeAndGo_allBatchesValid() {
        for seed: UInt64 in 1...25 {
            MainActor.assumeIsolated {
                var random = SplitMix64(seed: seed)
                let collection = SectionedCollection(sections([("A", [1, 2]), ("B", [3])]))
                let loader = PageLoader {}
                let screen = SectionedGridScreen(collection)
                screen.source.paginate(with: loader.command, threshold: 1_000)  // any row displayed loads
                flushMainQueue()
                var nextID = 100
                for _ in 0..<60 {
                    let live = collection.snapshot
                    nextID += 1
                    switch random.int(below: 8) {
                    case 0:
                        if let first = screen.view.items.indices.first(where: { !screen.view.items[$0].isEmpty }) {
                            screen.source.handle(.willDisplay, at: path(0, first))
                        }
                    case 1: loader.completeLoads()
                    case 2: collection.appendSection(SectionData("S\(nextID)", items: [TestItem(id: nextID)]))
                    case 3: collection.insertSection(SectionData("S\(nextID)", items: []), at: 0)
                    case 4: if !live.isEmpty { _ = collection.removeSection(at: random.int(below: live.count)) }
                    case 5:
                        if live.count > 1 {
                            collection.moveSection(
                                from: random.int(below: live.count), to: random.int(below: live.count))
                        }
                    case 6:
                        if !live.isEmpty {
                            collection.sections[random.int(below: live.count)].items.append(TestItem(id: nextID))
                        }
                    default:
                        if let from = live.indices.first(where: { !live[$0].items.isEmpty }) {
                            let to = random.int(below: live.count)
                            collection.moveItem(
                                from: path(0, from),
                                to: path(from == to ? live[to].items.count - 1 : live[to].items.count, to))
                        }
                    }
                    if random.chance(1, in: 3) { flushMainQueue() }
                }
                loader.completeLoads()
                flushMainQueue()
                XCTAssertEqual(screen.view.violations, [], "seed \(seed)")
                XCTAssertEqual(screen.shownIDs, collection.snapshot.map { $0.items.map(\.id) }, "seed \(seed)")
                XCTAssertEqual(screen.source.statistics.reloads, 1, "seed \(seed): only the initial reload")
            }
        }
    }

    func test_sectioned_anEmptyCollection_loadsItsFirstPageAtOnce() {
        MainActor.assumeIsolated {
            let collection = SectionedCollection<String, TestItem>()
            let loader = PageLoader { collection.appendSection(SectionData("A", items: [TestItem](ids: [1]))) }
            let screen = SectionedGridScreen(collection)
            screen.source.paginate(with: loader.command)
            flushMainQueue()
            XCTAssertEqual(loader.scheduler.pendingCount, 1, "an empty list displays no row to trigger the load")
            flushMainQueue()
            XCTAssertEqual(screen.shownIDs, [], "no section to show a loading row in")
            loader.completeLoads()
            flushMainQueue()
            XCTAssertEqual(screen.shownIDs, [[1]])
            XCTAssertEqual(screen.view.violations, [])
        }
    }
}

/// What a pagination reports.
final class ListSourcePaginationDiagnosticsTests: DiagnosticsTestCase {
    private final class Owner: Sendable {}

    /// Issue 35: a pagination whose command's owner is gone stopped silently. It reports a
    /// `paginationStopped` diagnostic, once, and loads nothing.
    func test_aPaginationWhoseOwnerIsGone_reportsThatItStopped_once() {
        let diagnostics = diagnostics
        MainActor.assumeIsolated {
            let collection = ObservableCollection<TestItem>([TestItem](ids: Array(0..<10)))
            let screen = FlatTableScreen(collection)
            var owner: Owner? = Owner()
            let loadMore = CommandWithResult<Void, PageLoad>(delegate: owner!, perform: { _, _ in .morePages })
            screen.source.paginate(with: loadMore, threshold: 2, showsLoadingRow: false)
            flushMainQueue()
            owner = nil
            screen.displayLastRow()
            screen.displayLastRow()
            collection.append(TestItem(id: 10))
            flushMainQueue()
            screen.displayLastRow()
            let reports = diagnostics.takeAll()
            XCTAssertEqual(reports.map(\.kind), [.paginationStopped])
            XCTAssertEqual(reports.first?.message, "the pagination command's owner is gone; no more pages load")
            XCTAssertEqual(screen.shownIDs.count, 11)
        }
    }
}
