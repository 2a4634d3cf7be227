import Ripple
import RippleTestSupport
import RippleTesting
import XCTest

// Issue 37: a SwiftUI screen of a presenter needs no glue of its own. The presenters below are
// the ones a UIKit screen would use, unchanged; `HeadlessSwiftUIView` stands in for the SwiftUI
// view, and its calls are the ones the SwiftUI glue makes (`presenter(_:view:)` on appear and
// disappear, `row(_:of:)` on a row's appear and tap, `CommandButton`'s state).

// MARK: - The book list: pages, refresh, selection

private struct Book: Identifiable, Equatable, Sendable {
    let id: Int
    var title: String
}

@MainActor
private protocol BookListView: Viewable {
    func showCount(_ count: Int)
}

@MainActor
private protocol BookCellView: Viewable {
    func show(title: String)
}

/// A row's presenter: selectable, and it fills the view SwiftUI gives it.
private final class BookCellPresenter: Presenter<any BookCellView>, Identifiable, SelectableCellPresenter {
    let book: Book
    private(set) var selections = 0
    nonisolated var id: Int { book.id }

    init(book: Book) {
        self.book = book
        super.init()
    }

    override func injectView(_ view: any BookCellView) {
        super.injectView(view)
        view.show(title: book.title)
    }

    func didSelectCell() { selections += 1 }
}

private final class BookListPresenter: Presenter<any BookListView> {
    let books = ObservableCollection<BookCellPresenter>()
    let pageSize = 10
    let total = 25
    private(set) var opened: [Int] = []

    private(set) lazy var loadMore = CommandWithResult<Void, PageLoad>(
        delegate: self,
        task: { owner, _ in
            try await Task.sleep(nanoseconds: 100_000)
            let start = owner.books.count
            let end = min(start + owner.pageSize, owner.total)
            owner.books.append(
                contentsOf: (start..<end).map { BookCellPresenter(book: Book(id: $0, title: "Book \($0)")) })
            owner.view?.showCount(end)
            return end == owner.total ? .lastPage : .morePages
        })

    private(set) lazy var refresh = Command(
        delegate: self,
        task: { owner in
            try await Task.sleep(nanoseconds: 100_000)
            owner.books.replace(
                with: (0..<owner.pageSize).map { BookCellPresenter(book: Book(id: $0, title: "Book \($0)")) },
                identity: .object)
        })

    private(set) lazy var open = CommandWithParameter<BookCellPresenter>(
        delegate: self, perform: { owner, cell in owner.opened.append(cell.book.id) })
}

/// What the SwiftUI screen keeps in `@State` and adopts the presenter's view protocol with.
private final class BookListModel: BookListView {
    var count = 0
    func showCount(_ count: Int) { self.count = count }
}

private final class BookRowModel: BookCellView {
    var title = ""
    func show(title: String) { self.title = title }
}

// MARK: - The login: a command control

@MainActor
private protocol LoginView: Viewable {
    func showHome()
}

private final class LoginPresenter: Presenter<any LoginView> {
    var password = "" {
        didSet { login.raiseCanExecuteChanged() }
    }
    private(set) lazy var login = Command(
        delegate: self,
        task: { owner in
            try await Task.sleep(nanoseconds: 1_000_000)
            guard owner.password == "secret1" else { throw WrongPassword() }
            owner.view?.showHome()
        },
        canExecute: { owner in owner.password.count >= 6 })
}

private struct WrongPassword: Error {}

@MainActor
final class SwiftUIScreenTests: XCTestCase {
    /// Rows appearing drive the pagination to the last page; a refresh brings the list back to
    /// its first page, and rows appearing again load the rest: the UIKit sources' model.
    func test_bookList_rowsAppearing_pageToTheLastPage_andAgainAfterARefresh() async {
        let presenter = BookListPresenter()
        let model = BookListModel()
        let books = ObservedList(presenter.books)
        books.paginate(with: presenter.loadMore, threshold: 2)
        let view = HeadlessSwiftUIView { (books.rows.map(\.element.book.title), books.isLoadingPage) }
        view.appear(presenter, view: model)
        XCTAssertTrue(presenter.loadMore.isExecuting, "an empty list loads its first page at once")
        await view.settle(awaiting: presenter.loadMore)
        XCTAssertEqual(view.output.0.count, 10)
        XCTAssertFalse(view.output.1)

        for _ in 0..<4 {
            view.showRows(0..<books.elements.count, of: books)  // scrolled to the end
            await view.settle(awaiting: presenter.loadMore)
        }
        XCTAssertEqual(books.elements.count, 25)
        XCTAssertEqual(model.count, 25)
        XCTAssertEqual(presenter.loadMore.isExecuting, false)

        // At the last page, rows appearing load nothing.
        view.showRows(20..<25, of: books)
        XCTAssertFalse(presenter.loadMore.isExecuting)

        // A pull to refresh (`.refreshable { await presenter.refresh.run() }`), while at the bottom.
        guard case .succeeded = await presenter.refresh.run() else { return XCTFail("the refresh failed") }
        await view.settle()
        XCTAssertEqual(books.elements.count, 10)
        view.showRows(8..<10, of: books)
        await view.settle(awaiting: presenter.loadMore)
        XCTAssertEqual(books.elements.count, 20, "the pagination resumed after the refresh")
        view.disappear(presenter, view: model)
    }

    /// The loading row shows while a page loads, and its changes invalidate the body once each.
    func test_theLoadingRow_showsWhileAPageLoads() async {
        let scheduler = TestScheduler()
        let items = ObservableCollection<Int>()
        let loadMore = CommandWithResult<Void, PageLoad>(
            delegate: commandAnchor, queue: scheduler,
            work: { _, _, done in
                items.append(contentsOf: items.count..<(items.count + 5))
                done.succeed(items.count >= 10 ? .lastPage : .morePages)
            })
        let rows = ObservedList(items)
        rows.paginate(with: loadMore, threshold: 1)
        let view = HeadlessSwiftUIView { rows.isLoadingPage }
        await view.settle()
        XCTAssertEqual(view.output, true)
        scheduler.runAll()
        await view.settle()
        XCTAssertEqual(view.output, false)
        XCTAssertEqual(view.renderCount, 3, "one render when it shows, one when it hides")
        view.showRows(3..<5, of: rows)
        await view.settle()
        XCTAssertEqual(view.output, true)
        scheduler.runAll()
        await view.settle()
        XCTAssertEqual(rows.elements.count, 10)
        view.showRows(5..<10, of: rows)
        XCTAssertFalse(loadMore.isExecuting, "the last page loads nothing more")
    }

    /// A sectioned list paginates counting rows across sections, and selects by path.
    func test_sectionedList_pagesAcrossSections_andSelectsByPath() async {
        let scheduler = TestScheduler()
        let shelves = SectionedCollection<String, Int>([
            SectionData("A", items: [0, 1, 2]), SectionData("B", items: [3]),
        ])
        let loadMore = CommandWithResult<Void, PageLoad>(
            delegate: commandAnchor, queue: scheduler,
            work: { _, _, done in
                shelves.appendSection(SectionData("C", items: [4, 5]))
                done.succeed(.lastPage)
            })
        let opened = EventRecorder<Int>()
        let list = ObservedSectionedList(shelves)
        list.selectItem = CommandWithParameter<Int>(
            delegate: commandAnchor, perform: { _, item in opened.record(item) })
        list.paginate(with: loadMore, threshold: 1)
        let view = HeadlessSwiftUIView { list.sections.map(\.section) }
        list.rowAppeared(at: ElementPath(item: 1, section: 0))  // position 1 of 4: not near the end
        XCTAssertFalse(loadMore.isExecuting)
        list.rowAppeared(at: ElementPath(item: 0, section: 1))  // position 3 of 4
        XCTAssertTrue(loadMore.isExecuting)
        scheduler.runAll()
        await view.settle()
        XCTAssertEqual(view.output, ["A", "B", "C"])
        list.select(at: ElementPath(item: 1, section: 2))
        list.select(at: ElementPath(item: 5, section: 0))
        opened.assertEvents([5])
    }

    /// Issue 43, bug 6: `showRows` counts offsets across sections, in order; past the last row
    /// it shows nothing. (Before the fix, `showRows(0..<6)` on two 3-row sections loaded nothing.)
    func test_showRows_onASectionedList_countsRowsAcrossSections() async {
        let scheduler = TestScheduler()
        let shelves = SectionedCollection<String, Int>([
            SectionData("A", items: [0, 1, 2]), SectionData("B", items: [3, 4, 5]),
        ])
        let loadMore = CommandWithResult<Void, PageLoad>(
            delegate: commandAnchor, queue: scheduler,
            work: { _, _, done in
                shelves.appendSection(SectionData("C", items: [6]))
                done.succeed(.lastPage)
            })
        let list = ObservedSectionedList(shelves)
        list.paginate(with: loadMore, threshold: 1)
        let view = HeadlessSwiftUIView { list.sections.map(\.section) }
        XCTAssertEqual(
            (0..<7).map { list.path(ofRow: $0) },
            [
                ElementPath(item: 0, section: 0), ElementPath(item: 1, section: 0), ElementPath(item: 2, section: 0),
                ElementPath(item: 0, section: 1), ElementPath(item: 1, section: 1), ElementPath(item: 2, section: 1),
                nil,
            ])
        XCTAssertNil(list.path(ofRow: -1))
        view.showRows(0..<4, of: list)
        XCTAssertFalse(loadMore.isExecuting, "row 3 of 6 is not within 1 of the end")
        view.showRows(4..<9, of: list)
        XCTAssertTrue(loadMore.isExecuting, "rows 4 and 5 are in section B")
        scheduler.runAll()
        await view.settle()
        XCTAssertEqual(view.output, ["A", "B", "C"])
    }

    /// A tap reaches the row's presenter and the list's `selectItem`, as `didSelectRow` does.
    func test_bookList_aTapSelectsTheRow() async {
        let presenter = BookListPresenter()
        let books = ObservedList(presenter.books)
        books.selectItem = presenter.open
        presenter.books.append(contentsOf: (0..<3).map { BookCellPresenter(book: Book(id: $0, title: "B\($0)")) })
        let view = HeadlessSwiftUIView { books.rows.map(\.path) }
        await view.settle()
        view.tap(ElementPath(item: 1, section: 0), of: books)
        view.tap(ElementPath(item: 9, section: 0), of: books)  // no such row: nothing
        XCTAssertEqual(presenter.opened, [1])
        XCTAssertEqual(books.elements.map(\.selections), [0, 1, 0])
    }

    /// The screen's presenter gets its view on appear and loses it on disappear; a row's
    /// presenter gets its view the same way, and a fresh presenter from a refresh takes over.
    func test_presenters_getTheirViewWhileItShows_andAFreshRowPresenterTakesOver() async {
        let presenter = BookListPresenter()
        let model = BookListModel()
        let view = HeadlessSwiftUIView { presenter.lifecycle }
        view.appear(presenter, view: model)
        XCTAssertTrue(presenter.view === model)
        XCTAssertEqual(presenter.lifecycle, .visible)
        view.disappear(presenter, view: model)
        XCTAssertNil(presenter.view)
        XCTAssertEqual(presenter.lifecycle, .hidden)

        let first = BookCellPresenter(book: Book(id: 1, title: "Dune"))
        let row = BookRowModel()
        view.appear(first, view: row)
        XCTAssertEqual(row.title, "Dune")
        // A refresh hands the row a fresh presenter: `presenter(_:view:)` identifies the row's
        // view by its presenter, so SwiftUI disappears the old one and appears the new one.
        let fresh = BookCellPresenter(book: Book(id: 1, title: "Dune, revised"))
        view.disappear(first, view: row)
        view.appear(fresh, view: row)
        XCTAssertEqual(row.title, "Dune, revised")
        XCTAssertNil(first.view)
        XCTAssertTrue(fresh.view === row)
    }

    /// A command control: enabled exactly while the command can execute, progress while it runs,
    /// and the last error readable; each change is one render.
    func test_login_theCommandControlFollowsTheCommand() async {
        let presenter = LoginPresenter()
        let state = ObservedCommand(presenter.login)
        let button = HeadlessSwiftUIView { (enabled: state.canExecute, progress: state.isExecuting) }
        XCTAssertEqual(button.output.enabled, false)
        presenter.password = "secret"
        await button.settle()
        XCTAssertEqual(button.output.enabled, true)

        XCTAssertEqual(presenter.login.execute(), .started)  // the tap
        await button.settle()
        // The run may have ended by now; the control has shown it either way.
        await button.settle(awaiting: presenter.login)
        XCTAssertEqual(button.output.progress, false)
        XCTAssertTrue(state.lastError is WrongPassword)
        XCTAssertEqual(button.output.enabled, true)

        presenter.password = "secret1"
        let outcome = await presenter.login.run()
        guard case .succeeded = outcome else { return XCTFail("\(outcome)") }
        await button.settle()
        XCTAssertNil(state.lastError, "a run that starts clears the last error")
    }

    /// While a run is going on, the control shows progress and refuses a second tap.
    func test_login_progressWhileRunning() async {
        let presenter = LoginPresenter()
        presenter.password = "secret1"
        let state = ObservedCommand(presenter.login)
        let button = HeadlessSwiftUIView { (enabled: state.canExecute, progress: state.isExecuting) }
        let gate = CommandGate()
        let slow = Command(delegate: presenter, task: { _ in await gate.wait() })
        let slowState = ObservedCommand(slow)
        let slowButton = HeadlessSwiftUIView { (enabled: slowState.canExecute, progress: slowState.isExecuting) }
        XCTAssertEqual(slow.execute(), .started)
        await slowButton.settle()
        XCTAssertEqual(slowButton.output.progress, true)
        XCTAssertEqual(slowButton.output.enabled, false, "refused while it runs (.ignoreWhileRunning)")
        gate.open()
        await slowButton.settle(awaiting: slow)
        XCTAssertEqual(slowButton.output.progress, false)
        XCTAssertEqual(slowButton.output.enabled, true)
        XCTAssertEqual(button.output.enabled, true)
    }

    /// Nothing the SwiftUI screen holds keeps the presenter alive, nor the other way round.
    func test_theScreen_itsListsAndCommandState_deallocate() async {
        await assertDeallocated(timeout: 10) {
            let presenter = BookListPresenter()
            let model = BookListModel()
            let books = ObservedList(presenter.books)
            books.paginate(with: presenter.loadMore, threshold: 2)
            books.selectItem = presenter.open
            let state = ObservedCommand(presenter.refresh)
            let view = HeadlessSwiftUIView { (books.elements.count, state.isExecuting) }
            view.appear(presenter, view: model)
            await view.settle(awaiting: presenter.loadMore)
            view.disappear(presenter, view: model)
            presenter.receive(.destroyed)
            return [presenter, model, books, state, view]
        }
    }
}
