import Dispatch
import Ripple
import RippleDiff
import RippleTestSupport
import RippleTesting
import XCTest

// A whole screen on Linux: presenter, collection of cell presenters, table source, headless table
// view (which checks every batch) and a headless cell host (which dequeues, reuses, scrolls, taps).

/// What a book cell shows.
@MainActor
private protocol BookCellView: Viewable {
    func show(title: String)
}

/// One row's presenter.
private final class BookCellPresenter: Presenter<any BookCellView>, CustomStringConvertible {
    let id: Int
    let title: String

    nonisolated init(id: Int) {
        self.id = id
        self.title = "Book \(id)"
        super.init()
    }

    override func injectView(_ view: any BookCellView) {
        super.injectView(view)
        view.show(title: title)
    }

    nonisolated var description: String { "Book(\(id))" }
}

/// A headless cell that is a book cell view.
private final class BookCell: HeadlessCell<BookCellPresenter>, BookCellView {
    var title = ""
    func show(title: String) { self.title = title }
}

/// The screen's presenter: pages of books, a load-more command, a selection command.
private final class BookListPresenter: Presenter<any Viewable> {
    let books = ObservableCollection<BookCellPresenter>()
    let pageSize: Int
    let pageCount: Int
    let scheduler: TestScheduler
    private(set) var opened: [Int] = []

    /// Loads the next page on the scheduler, and says whether it was the last.
    private(set) lazy var loadMore: CommandWithResult<Void, PageLoad> = {
        let books = books
        let pageSize = pageSize
        let total = pageSize * pageCount
        return CommandWithResult(
            delegate: commandAnchor, queue: scheduler,
            work: { _, _, done in
                let start = books.count
                books.append(contentsOf: (start..<(start + pageSize)).map(BookCellPresenter.init(id:)))
                done(.success(books.count < total ? .morePages : .lastPage))
            })
    }()

    private(set) lazy var openBook = CommandWithParameter<BookCellPresenter>(
        delegate: self,
        perform: { owner, book in owner.opened.append(book.id) })

    init(pageSize: Int, pageCount: Int, scheduler: TestScheduler) {
        self.pageSize = pageSize
        self.pageCount = pageCount
        self.scheduler = scheduler
        super.init()
    }
}

/// The screen: the presenter and what a view controller would build around it.
@MainActor
private final class BookListScreen {
    let presenter: BookListPresenter
    let tableView: HeadlessTableView<ElementPath>
    let source: TableViewSource<BookCellPresenter>
    let host: HeadlessCellHost<TableViewSource<BookCellPresenter>>

    init(pageSize: Int = 10, pageCount: Int = 10, visibleRows: Int = 8, scheduler: TestScheduler = TestScheduler()) {
        presenter = BookListPresenter(pageSize: pageSize, pageCount: pageCount, scheduler: scheduler)
        let box = Box()
        // The view shows one placeholder value per row; the cell host shows the presenters.
        tableView = HeadlessTableView<ElementPath> { [box] in
            MainActor.assumeIsolated {
                guard let source = box.source else { return [] }
                return [(0..<source.numberOfItems(inSection: 0)).map { ElementPath(item: $0, section: 0) }]
            }
        }
        source = TableViewSource(view: tableView, collection: presenter.books, selectItem: presenter.openBook)
        box.source = source
        if pageCount > 0 { source.paginate(with: presenter.loadMore, threshold: 3) }
        host = HeadlessCellHost(source: source, view: tableView, visibleRowCount: visibleRows)
        host.register(BookCell.self, forEveryRowOf: source)
        host.register(HeadlessCell<BookCellPresenter>.self, forCellReuseIdentifier: "Loading")
    }

    @MainActor
    final class Box {
        weak var source: TableViewSource<BookCellPresenter>?
    }

    /// Lets queued events render, then lays the cells out.
    func settle() {
        flushMainQueue()
        host.layout()
    }

    /// Asserts what every screen must show: valid batches, rows equal to the collection, cells
    /// that show their row's presenter, and no presenter in two cells.
    func assertConsistent(_ context: String = "", file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(tableView.violations, [], context, file: file, line: line)
        XCTAssertEqual(
            source.renderedItems.map(\.id), presenter.books.snapshot.map(\.id), context, file: file, line: line)
        XCTAssertEqual(
            tableView.numberOfRows(inSection: 0), source.numberOfItems(inSection: 0), context, file: file, line: line)
        var shown = Set<ObjectIdentifier>()
        for (path, cell) in host.visibleCells {
            guard let book = cell.shownItem as? BookCellPresenter else { continue }
            XCTAssertTrue(
                shown.insert(ObjectIdentifier(book)).inserted, "\(book) shown in two cells \(context)", file: file,
                line: line)
            XCTAssertTrue(book === source.element(at: path), "\(path) shows \(book) \(context)", file: file, line: line)
            XCTAssertTrue(book.view === cell, "\(book)'s view is not its cell \(context)", file: file, line: line)
            XCTAssertEqual((cell as? BookCell)?.title, book.title, context, file: file, line: line)
        }
    }
}

final class ScreenTests: XCTestCase {
    func test_pagination_throughTenPages_firesOncePerPage_andStopsAtTheLastPage() {
        MainActor.assumeIsolated {
            let scheduler = TestScheduler()
            let screen = BookListScreen(pageSize: 10, pageCount: 10, visibleRows: 8, scheduler: scheduler)
            let runs = Locked(0)
            let token = screen.presenter.loadMore.executingChanges.subscribe(on: .synchronous) { executing in
                if executing { runs.withLock { $0 += 1 } }
            }
            // The empty screen is shorter than the screen: it fires once, not once per row.
            screen.settle()
            screen.settle()
            XCTAssertEqual(runs.current, 1)
            XCTAssertEqual(screen.source.numberOfItems(inSection: 0), 1, "the loading row")
            XCTAssertEqual(screen.host.visibleCells.map(\.cell.reuseIdentifier), ["Loading"])
            for page in 1...10 {
                XCTAssertEqual(scheduler.runAll(), 1, "page \(page)")
                screen.settle()
                screen.assertConsistent("page \(page)")
                XCTAssertEqual(screen.presenter.books.count, page * 10)
                XCTAssertFalse(
                    screen.source.isLoadingRow(ElementPath(item: page * 10, section: 0)), "loading row removed")
                // Scrolling within the page fires nothing; reaching its end fires the next one.
                screen.host.scroll(toRow: 0)
                screen.settle()
                screen.host.scrollToEnd()
                screen.settle()
                screen.host.scrollToEnd()
                screen.settle()
                XCTAssertEqual(runs.current, min(page + 1, 10), "page \(page)")
                screen.assertConsistent("page \(page) at the end")
            }
            XCTAssertEqual(scheduler.pendingCount, 0)
            XCTAssertFalse(screen.presenter.loadMore.isExecuting)
            XCTAssertEqual(screen.presenter.books.count, 100)
            XCTAssertEqual(screen.source.numberOfItems(inSection: 0), 100, "no loading row after the last page")
            XCTAssertEqual(screen.source.statistics.reloads, 1, "only the initial reload")
            token.cancel()
        }
    }

    func test_pagination_neverFiresWhileALoadRuns() {
        MainActor.assumeIsolated {
            let scheduler = TestScheduler()
            let screen = BookListScreen(pageSize: 5, pageCount: 3, visibleRows: 4, scheduler: scheduler)
            screen.settle()
            XCTAssertEqual(scheduler.pendingCount, 1)
            for _ in 0..<5 {
                screen.host.scrollToEnd()
                screen.settle()
            }
            XCTAssertEqual(scheduler.pendingCount, 1, "still one load")
        }
    }

    func test_aFailedLoad_retriesWhenTheUserScrollsAgain() {
        MainActor.assumeIsolated {
            let scheduler = TestScheduler()
            let failures = Locked(1)
            let books = ObservableCollection<BookCellPresenter>((0..<10).map(BookCellPresenter.init(id:)))
            let loadMore = CommandWithResult<Void, PageLoad>(
                delegate: commandAnchor, queue: scheduler,
                work: { _, _, done in
                    if failures.withLock({ count -> Bool in
                        defer { count -= 1 }
                        return count > 0
                    }) {
                        return done.fail(CancellationError())
                    }
                    books.append(contentsOf: (10..<20).map(BookCellPresenter.init(id:)))
                    done.succeed(.morePages)
                })
            let errors = loadMore.errors.subscribe(on: .synchronous) { _ in }
            let view = HeadlessTableView<Int> { [[]] }
            let source = TableViewSource(view: view, collection: books)
            source.paginate(with: loadMore, threshold: 2, showsLoadingRow: false)
            let host = HeadlessCellHost(source: source, visibleRowCount: 5)
            host.register(BookCell.self, forEveryRowOf: source)
            flushMainQueue()
            host.scrollToEnd()
            XCTAssertEqual(scheduler.runAll(), 1, "the first load, which fails")
            flushMainQueue()
            host.scroll(toRow: 0)
            host.scrollToEnd()
            XCTAssertEqual(scheduler.runAll(), 1, "the retry")
            flushMainQueue()
            XCTAssertEqual(source.renderedItems.count, 20)
            errors.cancel()
        }
    }

    func test_tap_selectsThePresenterOfThatRow() {
        MainActor.assumeIsolated {
            let scheduler = TestScheduler()
            let screen = BookListScreen(pageSize: 10, pageCount: 1, scheduler: scheduler)
            screen.settle()
            _ = scheduler.runAll()
            screen.settle()
            screen.host.tap(ElementPath(item: 2, section: 0))
            XCTAssertEqual(screen.presenter.opened, [2])
        }
    }

    /// Rows move while their cells stay on screen, and cells are reused: a presenter keeps the
    /// view it moved to, and a reused cell never clears a presenter that lives in another cell.
    func test_reuse_neverClearsAPresenterThatMovedToAnotherCell() {
        MainActor.assumeIsolated {
            let books = ObservableCollection<BookCellPresenter>((0..<6).map(BookCellPresenter.init(id:)))
            let screen = HeadlessTableScreen(collection: books, visibleRowCount: 4)
            let (source, host) = (screen.source, screen.cells)
            screen.register(BookCell.self)
            flushMainQueue()
            host.layout()
            var random = SplitMix64(seed: 7)
            for step in 0..<200 {
                var next = Array(books.snapshot)
                random.shuffle(&next)
                if random.chance(1, in: 3) { next.append(BookCellPresenter(id: 100 + step)) }
                if next.count > 8 { next.removeFirst(next.count - 8) }
                books.replace(with: next, identity: .object)
                flushMainQueue()
                host.layout()
                if random.chance(1, in: 4) { host.scroll(toRow: random.int(below: 6)) }
                for (path, cell) in host.visibleCells {
                    guard let book = cell.shownItem as? BookCellPresenter else { continue }
                    XCTAssertTrue(book === source.element(at: path), "step \(step)")
                    XCTAssertTrue(book.view === cell, "step \(step): \(book) lost its view")
                }
            }
            XCTAssertGreaterThan(host.visibleCells.map(\.cell.reuseCount).reduce(0, +), 0, "cells were reused")
        }
    }

    func test_screenTornDown_freesPresenterSourceCellsAndSubscriptions() {
        MainActor.assumeIsolated {
            let scheduler = TestScheduler()
            weak var collection: ObservableCollection<BookCellPresenter>?
            // Events still queued on the main queue hold snapshots until they run: let them drain.
            assertDeallocated(timeout: 5) {
                let screen = BookListScreen(pageSize: 10, pageCount: 2, scheduler: scheduler)
                collection = screen.presenter.books
                screen.settle()
                _ = scheduler.runAll()
                screen.settle()
                screen.host.tap(ElementPath(item: 0, section: 0))
                // The second page's load is under way; a load in flight holds the collection until
                // it ends, so let it end.
                XCTAssertEqual(scheduler.runAll(), 1)
                screen.settle()
                let cells = screen.host.visibleCells.map { WeakReference($0.cell) }
                let books = screen.presenter.books.snapshot.map { WeakReference($0) }
                return cells + books
                    + weakReferences(screen, screen.presenter, screen.source, screen.tableView, screen.host)
                    + [WeakReference(screen.presenter.loadMore), WeakReference(screen.presenter.openBook)]
            }
            XCTAssertEqual(scheduler.pendingCount, 0)
            XCTAssertNil(collection, "the collection went with its presenter")
        }
    }
}

extension ScreenTests {
    /// The book list under seeded random mutations from four background threads and from inside a
    /// subscriber, with cells scrolled and reused between rounds: every batch valid, rows equal to
    /// the collection, every visible cell showing its row's presenter as that presenter's view.
    func test_bookList_randomMutationsFromFourThreads_cellsStayConsistent() {
        for seed: UInt64 in 1...3 {
            MainActor.assumeIsolated {
                let screen = BookListScreen(pageSize: 0, pageCount: 0, visibleRows: 6)
                let books = screen.presenter.books
                books.append(contentsOf: (0..<12).map(BookCellPresenter.init(id:)))
                screen.settle()
                let nextID = Locked(1_000)
                let fresh: @Sendable () -> Int = {
                    nextID.withLock { id -> Int in
                        id += 1
                        return id
                    }
                }
                let reentrant = books.subscribe(on: .synchronous) { change in
                    if change.version % 13 == 0 { books.append(BookCellPresenter(id: -change.version)) }
                }
                var random = SplitMix64(seed: seed)
                for round in 0..<10 {
                    let roundSeed = random.next()
                    DispatchQueue.concurrentPerform(iterations: 4) { thread in
                        var random = SplitMix64(seed: roundSeed &+ UInt64(thread))
                        for _ in 0..<40 {
                            switch random.int(below: 4) {
                            case 0: books.append(BookCellPresenter(id: fresh()))
                            case 1: books.insert(BookCellPresenter(id: fresh()), at: 0)
                            case 2:
                                let remainder = random.int(below: 5)
                                books.removeAll { $0.id % 5 == remainder }
                            default:
                                var next = Array(books.snapshot)
                                random.shuffle(&next)
                                books.replace(with: Array(next.prefix(20)), identity: .object)
                            }
                        }
                    }
                    screen.settle()
                    screen.host.scroll(toRow: random.int(below: 12))
                    screen.assertConsistent("seed \(seed) round \(round)")
                }
                reentrant.cancel()
                XCTAssertEqual(screen.source.statistics.reloads, 1, "seed \(seed): only the initial reload")
            }
        }
    }

    /// A sectioned contacts screen on a collection view with headers: random section and item
    /// changes; headers show their section's presenter.
    func test_contacts_sectionHeadersShowTheirSections() {
        MainActor.assumeIsolated {
            let letters = ["A", "B", "C", "D"].map { LetterPresenter($0) }
            let contacts = SectionedCollection<LetterPresenter, BookCellPresenter>(
                letters.enumerated().map { index, letter in
                    SectionData(letter, items: (0..<3).map { BookCellPresenter(id: index * 10 + $0) })
                })
            let box = ContactsBox()
            let view = HeadlessCollectionView<Int> { [box] in
                MainActor.assumeIsolated { box.source?.renderedSections.map { $0.items.map(\.id) } ?? [] }
            }
            let source = CollectionViewSourceWithSection(view: view, collection: contacts)
            box.source = source
            source.route(.header, ofSectionsOf: LetterPresenter.self, where: nil, toViewsWith: "Header")
            flushMainQueue()
            contacts.moveSection(from: 0, to: 3)
            contacts.removeSection(at: 1)
            contacts.insertSection(SectionData(LetterPresenter("E"), items: [BookCellPresenter(id: 99)]), at: 0)
            contacts.moveItem(from: ElementPath(item: 0, section: 1), to: ElementPath(item: 0, section: 0))
            flushMainQueue()
            XCTAssertEqual(view.violations, [])
            XCTAssertEqual(view.items, contacts.snapshot.map { $0.items.map(\.id) })
            for section in 0..<source.numberOfSections {
                XCTAssertEqual(source.supplementaryIdentifier(.header, inSection: section), "Header")
                XCTAssertNil(source.supplementaryIdentifier(.footer, inSection: section))
                let header = HeadlessCell<LetterPresenter>(reuseIdentifier: "Header")
                source.configureSupplementary(header, inSection: section)
                XCTAssertTrue(header.item === contacts.snapshot[section].section)
            }
            XCTAssertEqual(source.renderedSections.map(\.section.letter), ["E", "B", "D", "A"])
        }
    }
}

/// A section header's presenter in the contacts screen.
private final class LetterPresenter: Presenter<any Viewable>, CustomStringConvertible {
    let letter: String
    nonisolated init(_ letter: String) {
        self.letter = letter
        super.init()
    }
    nonisolated var description: String { letter }
}

@MainActor
private final class ContactsBox {
    weak var source: CollectionViewSourceWithSection<LetterPresenter, BookCellPresenter>?
}
