import RippleTestSupport
import RippleTesting
import XCTest

@testable import Ripple

/// The pagination against its model (`PaginationModel`, issue 43): seeded random steps (rows
/// displayed, runs that the pagination or the app started ending every way, the predicate
/// changing, the list growing and shrinking, a row displayed before a run's result reaches the
/// main queue) drive the real pagination three ways: directly, through a `TableViewSource` on a
/// headless table, and through an `ObservedList` on `HeadlessSwiftUIView`. After each step, once
/// the main queue has delivered everything, the loads started, whether a page is loading, the
/// loading row and whether the command runs must be the model's. A failure names its seed and step.
@MainActor
final class PaginationModelTests: XCTestCase {
    func test_directly_agreesWithTheModel() async {
        await check(.direct)
    }

    func test_throughATableViewSource_agreesWithTheModel() async {
        await check(.tableSource)
    }

    func test_throughAnObservedList_agreesWithTheModel() async {
        await check(.observedList)
    }

    /// Each way runs at least 10,000 steps in the full run (a fifth or a tenth under the
    /// sanitizers, `RIPPLE_TEST_SCALE`).
    private func check(_ way: Way) async {
        let seeds = TestScale.seeds(0..<50)
        print("PaginationModelTests \(way): seeds \(seeds), 220 steps each")
        var steps = 0
        for seed in seeds {
            guard let ran = await run(way, seed: seed, steps: 220) else { return }
            steps += ran
        }
        XCTAssertGreaterThanOrEqual(steps, TestScale.count(10_000), "steps run")
    }

    /// Runs one seed; returns the steps run, or `nil` after recording a failure.
    private func run(_ way: Way, seed: UInt64, steps: Int) async -> Int? {
        var random = SplitMix64(seed: seed)
        let threshold = random.int(in: 0...3)
        let showsLoadingRow = random.chance(3, in: 4)
        let initialCount = random.chance(1, in: 4) ? 0 : random.int(in: 1...8)
        let allowed = random.chance(5, in: 6)

        let loader = PageLoader(allowed: allowed)
        let items = ObservableCollection(Array(0..<initialCount))
        let driver = await way.makeDriver(
            items: items, command: loader.command, threshold: threshold, showsLoadingRow: showsLoadingRow)
        loader.scheduler.runAll()
        await drainMainQueue()
        loader.scheduler.runAll()
        var model = PaginationModel(
            threshold: threshold, showsLoadingRow: showsLoadingRow, itemCount: initialCount, isAllowed: allowed)
        var log: [String] = []

        func fail(_ step: Int, _ what: String) {
            XCTFail(
                "\(way), seed \(seed), step \(step) (threshold \(threshold), loading row \(showsLoadingRow)): \(what); "
                    + "model: \(model); last steps: \(log.suffix(8).joined(separator: "; "))")
        }
        if let mismatch = compare(driver, loader, model) {
            fail(0, mismatch)
            return nil
        }

        for step in 1...steps {
            let count = model.itemCount
            switch random.int(below: 20) {
            case 0..<6 where count > 0:
                let position = random.int(in: max(0, count - threshold - 2)...(count - 1))
                log.append("display \(position) of \(count)")
                driver.display(at: position)
                model.display(at: position)
            case 6..<8 where count > 0:
                let position = random.int(below: count)
                log.append("display \(position) of \(count)")
                driver.display(at: position)
                model.display(at: position)
            case 8..<12 where model.isRunning:
                let ending: PaginationModel.Ending
                switch random.int(below: 6) {
                case 0: ending = .failed(rows: random.chance(1, in: 4) ? 1 : 0)
                case 1: ending = .succeeded(rows: random.int(in: 0...3), .lastPage)
                default: ending = .succeeded(rows: random.chance(1, in: 5) ? 0 : random.int(in: 1...4), .morePages)
                }
                var early: Int?
                if case .succeeded = ending, count > 0, random.chance(1, in: 3) {
                    early = random.int(in: max(0, count - threshold - 1)...(count - 1))
                }
                log.append(
                    "\(model.runIsOwn ? "own" : "other") run ends \(ending)\(early.map { ", row \($0) first" } ?? "")")
                loader.end(ending, adding: items)
                if let early { driver.display(at: early) }
                model.endRun(ending, displayingFirst: early)
            case 12..<14:
                let started = loader.command.execute().refusal == nil
                log.append("the app executes: \(started ? "started" : "refused")")
                if started { loader.externalStarts += 1 }
                if started != model.startElsewhere() {
                    fail(step, "the app's execute \(started ? "started" : "was refused"), the model disagrees")
                    return nil
                }
            case 14..<16:
                let allowed = !model.isAllowed || random.chance(1, in: 4)
                log.append("predicate \(allowed)")
                loader.setAllowed(allowed)
                model.setAllowed(allowed)
            case 16..<19:
                let target: Int
                switch random.int(below: 3) {
                case 0: target = count + random.int(in: 1...3)
                case 1: target = max(0, count - random.int(in: 1...3))
                default: target = random.int(in: 0...min(count, 4))  // a refresh back to the first rows
                }
                log.append("the list becomes \(target) rows")
                if target > count {
                    items.append(contentsOf: count..<target)
                } else if target < count {
                    items.replace(with: Array(0..<target), identity: .value)
                }
                model.change(toItemCount: target)
            default:
                log.append("nothing")
            }
            await drainMainQueue()
            loader.scheduler.runAll()  // the bodies only keep their runs: nothing more to deliver
            if let mismatch = compare(driver, loader, model) {
                fail(step, mismatch)
                return nil
            }
        }
        driver.stop()
        return steps
    }

    /// What differs between the real pagination and the model, or `nil`.
    private func compare(_ driver: any PaginationDriver, _ loader: PageLoader, _ model: PaginationModel) -> String? {
        if driver.renderedCount != model.itemCount {
            return "\(driver.renderedCount) rows rendered, the model has \(model.itemCount)"
        }
        if loader.command.isExecuting != model.isRunning {
            return "the command \(loader.command.isExecuting ? "runs" : "is idle"), the model's "
                + "\(model.isRunning ? "runs" : "is idle")"
        }
        let loads = loader.bodiesRun - loader.externalStarts
        if loads != model.loads { return "\(loads) loads started by the pagination, the model started \(model.loads)" }
        if driver.isLoading != model.isLoading {
            return "isLoadingPage is \(driver.isLoading), the model's \(model.isLoading)"
        }
        if driver.showsLoadingRow != model.showsLoadingRowNow {
            return "the loading row \(driver.showsLoadingRow ? "shows" : "is hidden"), the model's "
                + "\(model.showsLoadingRowNow ? "shows" : "is hidden")"
        }
        return driver.violations
    }

    /// Lets the main queue deliver what is queued, and what that queues in turn.
    private func drainMainQueue() async {
        for _ in 0..<3 { await waitForMainQueue() }
    }
}

// MARK: - The command and the three ways

/// The page load under test: a Dispatch body on a `TestScheduler` that keeps its run for the test
/// to end, and a predicate the test switches.
@MainActor
private final class PageLoader {
    let scheduler = TestScheduler()
    private let state: CommandLock<(allowed: Bool, run: CommandResultRun<PageLoad>?, bodies: Int)>
    let command: CommandWithResult<Void, PageLoad>
    /// Runs the test started itself.
    var externalStarts = 0

    init(allowed: Bool) {
        let state = CommandLock<(allowed: Bool, run: CommandResultRun<PageLoad>?, bodies: Int)>((allowed, nil, 0))
        self.state = state
        command = CommandWithResult<Void, PageLoad>(
            queue: scheduler,
            nonisolatedWork: { _, done in
                state.withLock { state in
                    state.run = done
                    state.bodies += 1
                }
            },
            canExecute: { _ in state.withLock { $0.allowed } })
        // Failed loads are part of the test: observed, so that they are not reported.
        errors = command.errors.subscribe(on: .synchronous) { _ in }
    }

    private var errors: SubscriptionToken?

    /// The bodies that ran.
    var bodiesRun: Int { state.withLock { $0.bodies } }

    /// Changes the predicate and says so.
    func setAllowed(_ allowed: Bool) {
        state.withLock { $0.allowed = allowed }
        command.raiseCanExecuteChanged()
    }

    /// Ends the run going on as the body would: adds its rows, then reports.
    func end(_ ending: PaginationModel.Ending, adding items: ObservableCollection<Int>) {
        guard
            let run = state.withLock({ state in
                defer { state.run = nil }
                return state.run
            })
        else {
            return XCTFail("no run to end")
        }
        let rows: Int
        switch ending {
        case .succeeded(let added, _), .failed(let added): rows = added
        }
        if rows > 0 { items.append(contentsOf: items.count..<(items.count + rows)) }
        switch ending {
        case .succeeded(_, let load): run.succeed(load)
        case .failed: run.fail(PageLoadFailed())
        }
    }
}

private struct PageLoadFailed: Error {}

/// A way to drive the pagination: what the test does to it and reads of it.
@MainActor
private protocol PaginationDriver: AnyObject {
    var renderedCount: Int { get }
    var isLoading: Bool { get }
    var showsLoadingRow: Bool { get }
    /// A batch the view refused, or `nil`.
    var violations: String? { get }
    func display(at position: Int)
    func stop()
}

private enum Way: CustomStringConvertible {
    case direct, tableSource, observedList

    var description: String {
        switch self {
        case .direct: "Pagination"
        case .tableSource: "TableViewSource on HeadlessTableScreen"
        case .observedList: "ObservedList on HeadlessSwiftUIView"
        }
    }

    @MainActor
    func makeDriver(
        items: ObservableCollection<Int>, command: CommandWithResult<Void, PageLoad>, threshold: Int,
        showsLoadingRow: Bool
    ) async -> any PaginationDriver {
        switch self {
        case .direct:
            return DirectDriver(items: items, command: command, threshold: threshold, showsLoadingRow: showsLoadingRow)
        case .tableSource:
            // Not laid out: rows display only when the test says so (a laid-out host would display
            // the rows a batch brings on screen by itself, which the model does not follow).
            let screen = HeadlessTableScreen(collection: items, visibleRowCount: 4)
            screen.register(HeadlessCell<Int>.self)
            for _ in 0..<3 { await waitForMainQueue() }
            screen.source.paginate(with: command, threshold: threshold, showsLoadingRow: showsLoadingRow)
            return SourceDriver(screen: screen)
        case .observedList:
            let list = ObservedList(items)
            let view = HeadlessSwiftUIView { list.isLoadingPage }
            list.paginate(with: command, threshold: threshold, showsLoadingRow: showsLoadingRow)
            return ObservedListDriver(list: list, view: view)
        }
    }
}

/// The pagination itself, fed with a collection's events as a list source feeds it.
@MainActor
private final class DirectDriver: PaginationDriver {
    private(set) var renderedCount: Int
    private(set) var showsLoadingRow = false
    private var pagination: Pagination?
    private var token: SubscriptionToken?

    init(
        items: ObservableCollection<Int>, command: CommandWithResult<Void, PageLoad>, threshold: Int,
        showsLoadingRow: Bool
    ) {
        renderedCount = items.count
        let pagination = Pagination(
            following: command, threshold: threshold, showsLoadingRow: showsLoadingRow, ownerName: "DirectDriver",
            itemCount: { [weak self] in self?.renderedCount ?? 0 },
            showLoadingRow: { [weak self] in self?.showsLoadingRow = $0 })
        self.pagination = pagination
        token = items.subscribe { [weak self] change in
            self?.renderedCount = change.snapshot.count
            self?.pagination?.rendered()
        }
        pagination.rendered()
    }

    var isLoading: Bool { pagination?.isLoading ?? false }
    var violations: String? { nil }
    func display(at position: Int) { pagination?.rowDisplayed(at: position, isLoadingRow: false) }
    func stop() {
        pagination?.stop()
        token = nil
    }
}

/// A `TableViewSource` on a headless table: rows displayed through `willDisplay`.
@MainActor
private final class SourceDriver: PaginationDriver {
    let screen: HeadlessTableScreen<Int>

    init(screen: HeadlessTableScreen<Int>) { self.screen = screen }

    var renderedCount: Int { screen.source.renderedItems.count }
    var isLoading: Bool { screen.source.isLoadingPage }
    var showsLoadingRow: Bool { screen.source.numberOfItems(inSection: 0) > renderedCount }
    var violations: String? {
        screen.tableView.violations.isEmpty ? nil : "the table refused a batch: \(screen.tableView.violations)"
    }
    func display(at position: Int) { screen.source.handle(.willDisplay, at: ElementPath(item: position, section: 0)) }
    func stop() { screen.source.stop() }
}

/// An `ObservedList` whose rows appear in a headless SwiftUI view.
@MainActor
private final class ObservedListDriver: PaginationDriver {
    let list: ObservedList<Int>
    let view: HeadlessSwiftUIView<Bool>

    init(list: ObservedList<Int>, view: HeadlessSwiftUIView<Bool>) {
        self.list = list
        self.view = view
    }

    var renderedCount: Int { list.elements.count }
    var isLoading: Bool { list.isPaginating }
    var showsLoadingRow: Bool {
        if view.isInvalidated { view.render() }
        return view.output
    }
    var violations: String? { nil }
    func display(at position: Int) { list.rowAppeared(at: ElementPath(item: position, section: 0)) }
    func stop() {}
}
