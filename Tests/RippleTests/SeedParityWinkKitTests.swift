import Ripple
import RippleTesting
import XCTest

// WinkKit's README screens, rebuilt with Ripple on headless views, as an app's own tests would
// write them: infinite scroll with a loading row and a last page, pull to refresh, and presenters
// bound to their view controller's lifecycle.

// MARK: - Models and services

private struct Item: Sendable, Equatable {
    var id: Int
    var name: String
}

private struct ItemPage: Sendable {
    var items: [Item]
    var isLast: Bool
}

/// WinkKit's `Service`: the http calls, here `async`.
private protocol ItemService: Sendable {
    func items(after count: Int) async throws -> ItemPage
}

/// A server the test drives: it can hold requests until the test lets them through, and rename
/// items, as a backend changes between two loads.
private actor ItemServer: ItemService {
    private let total: Int
    private let pageSize: Int
    private var names: [Int: String] = [:]
    private var isHolding = false
    private var held: [CheckedContinuation<Void, Never>] = []
    private(set) var requests = 0

    init(total: Int, pageSize: Int) {
        self.total = total
        self.pageSize = pageSize
    }

    func items(after count: Int) async -> ItemPage {
        requests += 1
        if isHolding { await withCheckedContinuation { held.append($0) } }
        let end = min(count + pageSize, total)
        return ItemPage(
            items: (count..<end).map { Item(id: $0, name: names[$0] ?? "Item \($0)") }, isLast: end == total)
    }

    func hold() { isHolding = true }

    func release() {
        isHolding = false
        for request in held { request.resume() }
        held.removeAll()
    }

    func rename(_ id: Int, to name: String) { names[id] = name }
}

// MARK: - Presenters

@MainActor private protocol ItemView: Viewable {
    func show(name: String)
}

/// WinkKit's cell presenter (`WKPresenter` of an `ItemView`).
private final class ItemPresenter: Presenter<any ItemView> {
    let item: Item
    nonisolated init(item: Item) {
        self.item = item
        super.init()
    }

    override func injectView(_ view: any ItemView) {
        super.injectView(view)
        view.show(name: item.name)
    }
}

@MainActor private protocol ItemListView: Viewable {
    func showUnread(_ count: Int)
}

/// WinkKit's `WKGenericViewControllerPresenter`: bound to its view controller's lifecycle.
private final class ItemListPresenter: Presenter<any ItemListView> {
    let items = ObservableCollection<ItemPresenter>()
    let inbox: ObservableCollection<String>
    private let service: any ItemService

    init(service: any ItemService, inbox: ObservableCollection<String> = ObservableCollection()) {
        self.service = service
        self.inbox = inbox
        super.init()
    }

    /// The infinite scroll's load: the next page, and whether it was the last.
    private(set) lazy var loadMore = CommandWithResult<Void, PageLoad>(
        delegate: self,
        task: { owner, _ in
            let page = try await owner.service.items(after: owner.items.count)
            try Task.checkCancellation()  // the view went away meanwhile
            owner.items.append(contentsOf: page.items.map(ItemPresenter.init(item:)))
            return page.isLast ? .lastPage : .morePages
        })

    /// Pull to refresh: the first page again, diffed into the list by item. Unchanged items keep
    /// their presenters, which their cells show.
    private(set) lazy var refresh = Command(
        delegate: self,
        task: { owner in
            let page = try await owner.service.items(after: 0)
            var shown: [Int: ItemPresenter] = [:]
            for presenter in owner.items.snapshot { shown[presenter.item.id] = presenter }
            let fresh = page.items.map { item in
                shown[item.id].flatMap { $0.item == item ? $0 : nil } ?? ItemPresenter(item: item)
            }
            owner.items.replace(with: fresh, identity: .key({ $0.item.id }, contentEquals: { $0.item == $1.item }))
        })

    override func viewWillAppear() {
        // While the view is on screen only: cancelled when it disappears.
        inbox.subscribe(sendingCurrent: true) { [weak self] change in
            self?.view?.showUnread(change.snapshot.count)
        }.store(in: visibilityTokens)
    }

    override func viewDestroyed() {
        loadMore.cancel()
    }
}

// MARK: - Views

private final class ItemCell: HeadlessCell<ItemPresenter>, ItemView {
    private(set) var name = ""
    func show(name: String) { self.name = name }
}

/// A `UIRefreshControl` double: the user pulls, the binding ends it.
private final class RefreshControl: RefreshIndicating {
    var isEnabled = true
    private var pull: (@MainActor () -> Void)?
    func addCommandTrigger(_ action: @escaping @MainActor () -> Void) { pull = action }
    func sendPull() { pull?() }
    private(set) var isRefreshing = false
    func beginRefreshing() { isRefreshing = true }
    func endRefreshing() { isRefreshing = false }
}

/// WinkKit's `WKViewController<ItemListPresenter>`: it forwards UIKit's lifecycle to its
/// presenter, and builds its table in `viewDidLoad`.
private final class ItemListViewController: ItemListView {
    let presenter: ItemListPresenter
    private(set) var screen: HeadlessTableScreen<ItemPresenter>?
    private(set) var unread: [Int] = []
    let refreshControl = RefreshControl()
    private var refreshBinding: CommandBinding<Command>?

    init(presenter: ItemListPresenter) {
        self.presenter = presenter
        presenter.injectView(self)
    }

    func viewDidLoad() {
        let screen = HeadlessTableScreen(collection: presenter.items, visibleRowCount: 8)
        screen.register(ItemCell.self)
        screen.track(presenter.refresh, as: "refresh")
        refreshBinding = presenter.refresh.bind(to: refreshControl) { () }
        self.screen = screen
        paginate()
        presenter.receive(.created)
    }

    /// The infinite scroll, from the first page on.
    private func paginate() {
        screen?.source.paginate(with: presenter.loadMore, threshold: 2)
    }

    func viewWillAppear() { presenter.receive(.willAppear) }
    func viewDidAppear() { presenter.receive(.didAppear) }
    func viewWillDisappear() { presenter.receive(.willDisappear) }
    func viewDidDisappear() { presenter.receive(.didDisappear) }
    func dismissed() { presenter.receive(.destroyed) }

    /// The user pulls the table down.
    func pullToRefresh() {
        refreshControl.beginRefreshing()
        refreshBinding?.trigger()
        // The refresh takes the list back to its first page: the pagination starts over, also
        // after it had reached the last page.
        paginate()
    }

    func showUnread(_ count: Int) { unread.append(count) }
}

// MARK: - Tests

/// WinkKit's README, screen by screen. `@MainActor`, with `async` tests.
@MainActor
final class SeedParityWinkKitTests: XCTestCase {
    private func names(_ screen: HeadlessTableScreen<ItemPresenter>) -> [String] {
        screen.cells.visibleCells.compactMap { ($0.cell as? ItemCell)?.name }
    }

    /// WinkKit's infinite data source: pages load as the user nears the end, a loading row shows
    /// while one loads (with no "Loading" cell registered), and the last page stops it.
    func test_infiniteScroll_showsALoadingRow_andStopsAtTheLastPage() async throws {
        let server = ItemServer(total: 25, pageSize: 10)
        let controller = ItemListViewController(presenter: ItemListPresenter(service: server))
        controller.viewDidLoad()
        let screen = try XCTUnwrap(controller.screen)
        await screen.settle()
        XCTAssertEqual(screen.shownItems.count, 10, "the first page fills the screen")
        XCTAssertEqual(names(screen).first, "Item 0")

        await server.hold()
        screen.cells.scrollToEnd()
        await screen.settle(awaitingRuns: false)  // the request is held: the loading row shows, below the last row
        screen.cells.scrollToEnd()
        XCTAssertEqual(screen.tableView.rows.first?.map { $0 == nil }.last, true, "the loading row is the last row")
        XCTAssertTrue(screen.cells.visibleCells.last?.cell is HeadlessLoadingCell<ItemPresenter>)
        XCTAssertEqual(screen.unsettledWork.count, 1, "\(screen.unsettledWork)")

        await server.release()
        await screen.settle()
        XCTAssertEqual(screen.shownItems.count, 20)
        XCTAssertFalse(screen.cells.visibleCells.contains { $0.cell is HeadlessLoadingCell<ItemPresenter> })

        screen.cells.scrollToEnd()
        await screen.settle()
        XCTAssertEqual(screen.shownItems.map(\.item.id), Array(0..<25), "the last page, shorter")
        screen.cells.scrollToEnd()
        await screen.settle()
        let requests = await server.requests
        XCTAssertEqual(requests, 3, "no request after the last page")
        XCTAssertEqual(screen.tableView.rows.first?.count, 25, "no loading row")
        XCTAssertEqual(screen.tableView.violations, [])
    }

    /// Issue 35, bug 1: at the last page, scrolled to the bottom, a refresh through the collection
    /// brings the list back to its first page while the user is still at its end: rows 8 and 9 are
    /// on screen, within the threshold, and page 2 loads by itself, with no scroll away and back.
    /// (The rows were displayed while the last-page marker was still set; it was cleared only
    /// after rendering, and then only an empty list loaded.)
    func test_aRefreshAtTheBottomAfterTheLastPage_loadsTheNextPageByItself() async throws {
        let server = ItemServer(total: 25, pageSize: 10)
        let controller = ItemListViewController(presenter: ItemListPresenter(service: server))
        controller.viewDidLoad()
        let screen = try XCTUnwrap(controller.screen)
        await screen.settle()
        for _ in 0..<3 {
            screen.cells.scrollToEnd()
            await screen.settle()
        }
        XCTAssertEqual(screen.shownItems.count, 25, "the last page")
        let requests = await server.requests
        XCTAssertEqual(requests, 3)

        let items = controller.presenter.items
        let firstPage = Array(items.snapshot.prefix(10))
        items.replace(with: firstPage, identity: .key({ $0.item.id }, contentEquals: { $0.item == $1.item }))
        await screen.settle()
        XCTAssertEqual(screen.shownItems.map(\.item.id), Array(0..<20), "page 2 loaded by itself")
        let after = await server.requests
        XCTAssertEqual(after, 4)
        XCTAssertEqual(screen.tableView.violations, [])
    }

    /// Pull to refresh: the spinner runs until the refresh ends, the first page replaces the list
    /// with a renamed item reloaded in place, and the infinite scroll carries on after it.
    func test_pullToRefresh_endsTheSpinnerWhenTheRefreshEnds_andDiffsTheFirstPage() async throws {
        let server = ItemServer(total: 40, pageSize: 10)
        let controller = ItemListViewController(presenter: ItemListPresenter(service: server))
        controller.viewDidLoad()
        let screen = try XCTUnwrap(controller.screen)
        await screen.settle()
        screen.cells.scrollToEnd()
        await screen.settle()
        XCTAssertEqual(screen.shownItems.count, 20)

        await server.rename(3, to: "Item 3, renamed")
        screen.cells.scroll(toRow: 0)
        controller.pullToRefresh()
        XCTAssertTrue(controller.refreshControl.isRefreshing)
        XCTAssertTrue(controller.presenter.refresh.isExecuting)
        await screen.settle()  // the screen tracks the refresh
        XCTAssertFalse(controller.refreshControl.isRefreshing, "the spinner ended with the refresh")
        XCTAssertEqual(screen.shownItems.map(\.item.id), Array(0..<10))
        XCTAssertEqual(names(screen)[3], "Item 3, renamed")
        XCTAssertEqual(screen.source.lastReload, .initial, "animated, not reloaded")

        screen.cells.scrollToEnd()
        await screen.settle()
        XCTAssertEqual(screen.shownItems.map(\.item.id), Array(0..<20), "the next page after the refresh")
        XCTAssertEqual(screen.tableView.violations, [])
    }

    /// Presenters bound to the lifecycle: the first page loads when the view loads, the unread
    /// badge follows the inbox only while the view is on screen, an event out of UIKit's order is
    /// reported and ignored, and a load in flight is cancelled when the controller goes away.
    func test_presenterBoundToTheLifecycle_followsTheView_andCancelsItsWorkWhenDestroyed() async throws {
        let reported = ObservableCollection<Diagnostic>()
        Diagnostics.setHandler { reported.append($0) }
        defer { Diagnostics.setHandler(nil) }
        let server = ItemServer(total: 30, pageSize: 10)
        let inbox = ObservableCollection(["Welcome"])
        let presenter = ItemListPresenter(service: server, inbox: inbox)
        let controller = ItemListViewController(presenter: presenter)

        controller.viewDidLoad()
        let screen = try XCTUnwrap(controller.screen)
        XCTAssertEqual(presenter.lifecycle, .hidden)
        controller.viewWillAppear()
        controller.viewDidAppear()
        await screen.settle()
        XCTAssertTrue(presenter.isViewVisible)
        XCTAssertEqual(screen.shownItems.count, 10, "loaded when the view loaded")
        inbox.append("Your order shipped")
        await screen.settle()
        XCTAssertEqual(controller.unread, [1, 2])

        controller.viewWillDisappear()
        controller.viewDidDisappear()
        XCTAssertEqual(inbox.subscriberCount, 0, "the visibility tokens went with the view")
        inbox.append("Sale")
        controller.viewDidAppear()  // out of order: no willAppear
        await screen.settle()
        XCTAssertEqual(controller.unread, [1, 2], "not on screen")
        XCTAssertEqual(presenter.lifecycle, .hidden)
        XCTAssertEqual(reported.snapshot.map(\.kind), [.lifecycleOutOfOrder])

        controller.viewWillAppear()
        controller.viewDidAppear()
        await screen.settle()
        XCTAssertEqual(controller.unread, [1, 2, 3])

        await server.hold()
        screen.cells.scrollToEnd()
        await screen.settle(awaitingRuns: false)
        XCTAssertTrue(presenter.loadMore.isExecuting)
        controller.viewWillDisappear()
        controller.viewDidDisappear()
        controller.dismissed()  // popped: the presenter cancels its load
        XCTAssertEqual(presenter.lifecycle, .destroyed)
        await server.release()
        await screen.settle()
        XCTAssertFalse(presenter.loadMore.isExecuting)
        XCTAssertEqual(screen.tableView.rows.first?.count, 10, "the loading row left with the cancelled load")
        XCTAssertEqual(screen.tableView.violations, [])
    }
}
