import Foundation
import Ripple
import RippleTesting
import XCTest

// STT Core's README screens, rebuilt with Ripple on headless views, as an app's own tests would
// write them: the book list, login with `useWork`, sections with `SectionData`, and the global
// observer (STT's "Event and Global Observer", which its README leaves "to be done").

// MARK: - Models and services

private struct Book: Sendable, Equatable {
    var title: String
    var genre: String
}

/// Where books come from: a completion on a background thread, as STT's repositories call back.
private protocol BookRepository: Sendable {
    func loadBooks(completion: @escaping @Sendable ([Book]) -> Void)
}

private struct FakeBookRepository: BookRepository {
    var books: [Book]
    /// When set, the load answers only once the test signals it: a test can look at the screen
    /// while the load runs, however slow the machine.
    var gate: DispatchSemaphore?
    func loadBooks(completion: @escaping @Sendable ([Book]) -> Void) {
        let (books, gate) = (books, gate)
        DispatchQueue.global().async {
            gate?.wait()
            completion(books)
        }
    }
}

// MARK: - The book list

@MainActor private protocol BookCellView: Viewable {
    func show(title: String, isFavorite: Bool)
}

/// The cell presenter's parent (STT's `BookTVCellDelegate`): the list, which owns the cells.
/// `Sendable`, as every main-actor type is, so that a cell built on another thread can keep it.
@MainActor private protocol BookCellDelegate: AnyObject, Sendable {
    func bookCellDidToggleFavorite(_ cell: BookCellPresenter)
}

private final class BookCellPresenter: Presenter<any BookCellView> {
    let book: Book
    /// `unowned`, as in STT: the parent owns its cells. (A `nonisolated init`, which lets a
    /// repository's thread build cells, sets only `let`s of `Sendable` types: no `weak var`.)
    private unowned let parent: any BookCellDelegate
    private(set) var isFavorite = false

    nonisolated init(book: Book, parent: any BookCellDelegate) {
        self.book = book
        self.parent = parent
        super.init()
    }

    override func injectView(_ view: any BookCellView) {
        super.injectView(view)
        view.show(title: book.title, isFavorite: isFavorite)
    }

    /// The cell's star button.
    func toggleFavorite() {
        setFavorite(!isFavorite)
        parent.bookCellDidToggleFavorite(self)
    }

    func setFavorite(_ favorite: Bool) {
        isFavorite = favorite
        view?.show(title: book.title, isFavorite: favorite)
    }
}

@MainActor private protocol BookListView: Viewable {
    func showFavoriteCount(_ count: Int)
}

private final class BookListPresenter: Presenter<any BookListView>, BookCellDelegate {
    let books = ObservableCollection<BookCellPresenter>()
    private let repository: any BookRepository
    private(set) var opened: [String] = []

    init(repository: any BookRepository) {
        self.repository = repository
        super.init()
    }

    override func viewCreated() {
        load.execute()
    }

    /// STT: `repository.loadBooks().useWork(load)`. The command executes until the books are in.
    private(set) lazy var load = Command(delegate: self, perform: { owner in owner.loadBooks() })

    private func loadBooks() {
        load.useWork { [books, repository] done in
            repository.loadBooks { [weak self] loaded in
                guard let self else { return done.succeed() }
                // On the repository's thread: one batch, one animation.
                books.performBatchUpdates {
                    books.append(BookCellPresenter(book: Book(title: "Editor's pick", genre: "Special"), parent: self))
                    books.append(contentsOf: loaded.map { BookCellPresenter(book: $0, parent: self) })
                }
                done.succeed()
            }
        }
    }

    private(set) lazy var openBook = CommandWithParameter<BookCellPresenter>(
        delegate: self,
        perform: { owner, cell in
            owner.opened.append(cell.book.title)
        })

    func bookCellDidToggleFavorite(_ cell: BookCellPresenter) {
        view?.showFavoriteCount(books.snapshot.filter { $0.isFavorite }.count)
    }
}

private final class BookCell: HeadlessCell<BookCellPresenter>, BookCellView {
    private(set) var title = ""
    private(set) var star = "☆"
    func show(title: String, isFavorite: Bool) {
        self.title = title
        star = isFavorite ? "★" : "☆"
    }
}

private final class BookListScreenView: BookListView {
    private(set) var favoriteCount = 0
    func showFavoriteCount(_ count: Int) { favoriteCount = count }
}

// MARK: - Login

private struct Credentials: Sendable {
    var email: String
    var password: String
}

private struct WrongPassword: Error {}

private protocol AuthService: Sendable {
    func login(_ credentials: Credentials, completion: @escaping @Sendable (Result<Void, any Error>) -> Void)
}

private struct FakeAuthService: AuthService {
    func login(_ credentials: Credentials, completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(2)) {
            completion(credentials.password == "secret1" ? .success(()) : .failure(WrongPassword()))
        }
    }
}

@MainActor private protocol LoginView: Viewable {
    func showHome()
    func showError(_ message: String)
}

private final class LoginPresenter: Presenter<any LoginView> {
    private let auth: any AuthService
    var email = "" { didSet { login.raiseCanExecuteChanged() } }
    var password = "" { didSet { login.raiseCanExecuteChanged() } }

    init(auth: any AuthService) {
        self.auth = auth
        super.init()
        login.errors.subscribe { [weak self] _ in
            self?.view?.showError("Wrong email or password")
        }.store(in: lifetimeTokens)
    }

    /// STT's `Command(delegate:handler:handlerCanExecute:)` (Ripple's `Command(delegate:perform:canExecute:)`), whose body binds the request to
    /// the command with `useWork`: the command executes until the service calls back.
    private(set) lazy var login = Command(
        delegate: self,
        perform: { owner in
            owner.onLogin()
        },
        canExecute: { owner in
            owner.email.contains("@") && owner.password.count >= 6
        })

    private func onLogin() {
        let credentials = Credentials(email: email, password: password)
        login.useWork { [auth] done in
            auth.login(credentials) { [weak self] result in
                done(result)  // a failure reaches `errors`
                if case .success = result {
                    DispatchQueue.main.async { self?.view?.showHome() }
                }
            }
        }
    }
}

private final class LoginButton: CommandControl {
    var isEnabled = true
    private var tap: (@MainActor () -> Void)?
    func addCommandTrigger(_ action: @escaping @MainActor () -> Void) { tap = action }
    func sendTap() { tap?() }
}

private final class LoginScreenView: LoginView {
    var onShow: (String) -> Void = { _ in }
    func showHome() { onShow("home") }
    func showError(_ message: String) { onShow(message) }
}

// MARK: - Sections

@MainActor private protocol GenreHeaderView: Viewable {
    func show(name: String)
}

/// A section's presenter, shown in its header.
private final class GenrePresenter: Presenter<any GenreHeaderView> {
    let name: String
    nonisolated init(name: String) {
        self.name = name
        super.init()
    }

    override func injectView(_ view: any GenreHeaderView) {
        super.injectView(view)
        view.show(name: name)
    }
}

private final class GenreHeader: HeadlessCell<GenrePresenter>, GenreHeaderView {
    private(set) var name = ""
    func show(name: String) { self.name = name }
}

private final class ShelvesPresenter: Presenter<any Viewable>, BookCellDelegate {
    /// STT: an `ObservableCollection<SectionData<SectionPresenter, CellPresenter>>`.
    let shelves = SectionedCollection<GenrePresenter, BookCellPresenter>()

    /// Sorts books into their genre's section, making the section when it is new.
    nonisolated func shelve(_ books: [Book]) {
        for book in books {
            let cell = BookCellPresenter(book: book, parent: self)
            if let shelf = shelves.sections.first(where: { $0.section.name == book.genre }) {
                shelf.items.append(cell)  // the section's own list: an item insert in that section
            } else {
                shelves.appendSection(SectionData(GenrePresenter(name: book.genre), items: [cell]))
            }
        }
    }

    func bookCellDidToggleFavorite(_ cell: BookCellPresenter) {}
}

// MARK: - The global observer

/// Posted when a book's favorite state changes anywhere in the app.
private struct FavoriteChanged: Sendable {
    var title: String
    var isFavorite: Bool
}

/// The book's details screen, another screen that posts to the bus.
private final class BookDetailsPresenter: Presenter<any Viewable> {
    let title: String
    private let bus: EventBus
    init(title: String, bus: EventBus) {
        self.title = title
        self.bus = bus
        super.init()
    }

    func favorite() { bus.post(FavoriteChanged(title: title, isFavorite: true)) }
}

/// The book list, listening to the bus while its view lives.
private final class ObservingBookListPresenter: Presenter<any Viewable>, BookCellDelegate {
    let books = ObservableCollection<BookCellPresenter>()
    private let bus: EventBus

    init(titles: [String], bus: EventBus) {
        self.bus = bus
        super.init()
        books.append(contentsOf: titles.map { BookCellPresenter(book: Book(title: $0, genre: ""), parent: self) })
    }

    override func viewCreated() {
        bus.observe(FavoriteChanged.self) { [weak self] change in
            self?.books.snapshot.first { $0.book.title == change.title }?.setFavorite(change.isFavorite)
        }.store(in: lifetimeTokens)
    }

    func bookCellDidToggleFavorite(_ cell: BookCellPresenter) {
        bus.post(FavoriteChanged(title: cell.book.title, isFavorite: cell.isFavorite))
    }
}

// MARK: - Tests

/// STT Core's README, screen by screen. `@MainActor`, with `async` tests: `await screen.settle()`
/// lets the main queue turn.
@MainActor
final class SeedParitySTTTests: XCTestCase {
    private let library = [
        Book(title: "Dune", genre: "Science fiction"),
        Book(title: "Emma", genre: "Novel"),
        Book(title: "Solaris", genre: "Science fiction"),
        Book(title: "Ulysses", genre: "Novel"),
    ]

    /// "Congratulations, no more code needed": the repository's books, loaded on its own thread in
    /// one `performBatchUpdates`, show in one animated batch; a tap opens the book; a cell reports
    /// to its parent.
    func test_bookList_loadsInOneBatch_opensTheTappedBook_andCellsReportToTheirParent() async {
        let gate = DispatchSemaphore(value: 0)
        let presenter = BookListPresenter(repository: FakeBookRepository(books: library, gate: gate))
        let view = BookListScreenView()
        presenter.injectView(view)
        let screen = HeadlessTableScreen(
            collection: presenter.books, selectItem: presenter.openBook, visibleRowCount: 4)
        screen.register(BookCell.self)

        presenter.receive(.created)  // viewDidLoad: the load starts
        XCTAssertTrue(presenter.load.isExecuting)
        gate.signal()  // the repository answers
        await screen.settle(awaiting: presenter.load)

        XCTAssertFalse(presenter.load.isExecuting)
        XCTAssertEqual(screen.shownItems.map(\.book.title), ["Editor's pick", "Dune", "Emma", "Solaris", "Ulysses"])
        XCTAssertEqual(screen.source.statistics.batches, 1, "one batch for the whole page")
        XCTAssertEqual(screen.source.statistics.reloads, 1, "the empty first state only")
        XCTAssertEqual(
            screen.cells.visibleCells.compactMap { ($0.cell as? BookCell)?.title },
            ["Editor's pick", "Dune", "Emma", "Solaris"])

        screen.cells.tap(screen.cells.visiblePaths[2])
        await screen.settle()
        XCTAssertEqual(presenter.opened, ["Emma"])
        XCTAssertEqual(screen.tableView.selectedPaths, [screen.cells.visiblePaths[2]])

        let dune = screen.cells.visibleCells[1].cell as? BookCell
        presenter.books.snapshot[1].toggleFavorite()  // the cell's star button
        XCTAssertEqual(dune?.star, "★")
        XCTAssertEqual(view.favoriteCount, 1)
        XCTAssertEqual(screen.tableView.violations, [])
    }

    /// Login: the button follows `canExecute`, the request is bound to the command with
    /// `useWork`, a second tap while it runs starts nothing, and the view hears the outcome.
    func test_login_withUseWork_disablesTheButtonWhileTheRequestRuns() async {
        let presenter = LoginPresenter(auth: FakeAuthService())
        let view = LoginScreenView()
        presenter.injectView(view)
        let button = LoginButton()
        let binding = presenter.login.bind(to: button) { () }
        XCTAssertFalse(button.isEnabled, "no credentials yet")

        presenter.email = "reader@example.com"
        presenter.password = "wrong!"
        await waitForMainQueue()
        XCTAssertTrue(button.isEnabled)

        var shown: [String] = []
        var outcome = expectation(description: "the error shows")
        view.onShow = {
            shown.append($0)
            outcome.fulfill()
        }
        XCTAssertNil(binding.trigger().refusal)
        XCTAssertTrue(presenter.login.isExecuting, "the request runs")
        XCTAssertFalse(button.isEnabled)
        XCTAssertNotNil(binding.trigger().refusal, "a second tap starts nothing")
        await fulfillment(of: [outcome], timeout: 30)
        XCTAssertEqual(shown, ["Wrong email or password"])
        // The view may hear the outcome before the run's end reaches the main queue: wait for
        // it (a bounded wait, not a timing).
        for _ in 0..<5_000 where presenter.login.isExecuting || !button.isEnabled {
            try? await Task.sleep(nanoseconds: 1_000_000)
            await waitForMainQueue()
        }
        XCTAssertFalse(presenter.login.isExecuting)
        XCTAssertTrue(button.isEnabled, "enabled again once the request ended")

        presenter.password = "secret1"
        outcome = expectation(description: "home shows")
        XCTAssertNil(binding.trigger().refusal)
        await fulfillment(of: [outcome], timeout: 30)
        XCTAssertEqual(shown, ["Wrong email or password", "home"])
        binding.unbind()
    }

    /// Sections with `SectionData`: books shelved by genre from another thread, a new genre as a
    /// new section, headers that show their section presenter.
    func test_sections_withSectionData_showHeadersForTheirGenres() async {
        let presenter = ShelvesPresenter()
        let screen = HeadlessTableScreenWithSection(collection: presenter.shelves, visibleRowCount: 8)
        screen.register(header: GenreHeader.self)
        screen.register(BookCell.self)
        await screen.settle()

        let shelved = expectation(description: "shelved")
        DispatchQueue.global().async { [library] in
            presenter.shelve(library)
            shelved.fulfill()
        }
        await fulfillment(of: [shelved], timeout: 30)
        await screen.settle()
        XCTAssertEqual(screen.shownSections.map(\.name), ["Science fiction", "Novel"])
        XCTAssertEqual(screen.shownItems.map { $0.map(\.book.title) }, [["Dune", "Solaris"], ["Emma", "Ulysses"]])
        XCTAssertEqual(
            screen.cells.visibleSupplementaryViews.compactMap { ($0.view as? GenreHeader)?.name },
            ["Science fiction", "Novel"])

        presenter.shelve([Book(title: "Beowulf", genre: "Poetry"), Book(title: "Persuasion", genre: "Novel")])
        presenter.shelves.moveSection(from: 2, to: 0)
        await screen.settle()
        XCTAssertEqual(screen.shownSections.map(\.name), ["Poetry", "Science fiction", "Novel"])
        XCTAssertEqual((screen.cells.header(inSection: 0) as? GenreHeader)?.name, "Poetry")
        XCTAssertEqual(screen.shownItems[2].map(\.book.title), ["Emma", "Ulysses", "Persuasion"])
        XCTAssertEqual(screen.tableView.violations, [])
    }

    /// The global observer: another screen posts to the bus, and the list's cell shows it; once the
    /// list's view is destroyed, its observation has ended with its lifetime tokens.
    func test_globalObserver_updatesTheListFromAnotherScreen_untilTheListIsDestroyed() async {
        let bus = EventBus()
        let list = ObservingBookListPresenter(titles: ["Dune", "Emma"], bus: bus)
        let screen = HeadlessTableScreen(collection: list.books)
        screen.register(BookCell.self)
        list.receive(.created)
        await screen.settle()

        BookDetailsPresenter(title: "Emma", bus: bus).favorite()
        await screen.settle()
        XCTAssertEqual(screen.cells.visibleCells.compactMap { ($0.cell as? BookCell)?.star }, ["☆", "★"])

        list.books.snapshot[0].toggleFavorite()  // the list posts too; it hears itself, idempotently
        await screen.settle()
        XCTAssertEqual(screen.cells.visibleCells.compactMap { ($0.cell as? BookCell)?.star }, ["★", "★"])

        list.receive(.destroyed)
        BookDetailsPresenter(title: "Dune", bus: bus).favorite()
        list.books.snapshot[0].setFavorite(false)
        await screen.settle()
        XCTAssertEqual(
            screen.cells.visibleCells.compactMap { ($0.cell as? BookCell)?.star }, ["☆", "★"],
            "the destroyed list no longer listens")
        XCTAssertEqual(screen.tableView.violations, [])
    }
}
