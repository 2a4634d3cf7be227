import Dispatch
import Foundation
import Ripple
import RippleTestSupport
import XCTest

// A presenter written the way an app team writes one in Swift 6: main-actor state, one command of
// each body kind, and subscriptions on each delivery. No `MainActor.assumeIsolated`,
// `nonisolated(unsafe)` or `@unchecked` anywhere in it. The test drives it from background threads
// and from the main thread; under ThreadSanitizer it must run without a report.

private protocol CounterView: Viewable {
    func show(count: Int)
}

private struct Refreshed: Sendable {
    let amount: Int
}

private struct CounterFailure: Error, Equatable {}

private final class CounterPresenter: Presenter<any CounterView> {
    var counter = 0
    var lastChangeCount = 0
    var executingLog: [Bool] = []
    var errorCount = 0
    var outcomeCount = 0
    var refreshedTotal = 0
    var bodyThreads: [String: Bool] = [:]
    let items = ObservableCollection<Int>()
    let bus = EventBus()

    /// Sync body and predicate: main actor. The predicate holds throughout the test: the counter
    /// ends at 1,650, and the other commands' runs add to it in any order relative to the
    /// increments (a limit of 1,000 refused the last increments whenever the exports' reports came
    /// first, which ThreadSanitizer's timing made happen).
    private(set) lazy var increment = Command(
        delegate: self,
        perform: { owner in
            owner.bodyThreads["sync"] = Thread.isMainThread
            owner.counter += 1
            owner.items.append(owner.counter)
        },
        canExecute: { owner in
            owner.counter < 1_000_000
        })

    /// Async body: main actor before and after each `await`.
    private(set) lazy var load = Command(
        delegate: self, policy: .enqueue,
        task: { owner in
            let fetched = await Task.detached { 10 }.value
            owner.bodyThreads["async"] = Thread.isMainThread
            owner.counter += fetched
        })

    /// Dispatch body: `@Sendable`, on a background queue; it reports back on the main actor.
    private(set) lazy var export = Command(
        delegate: self, queue: DispatchQueue.global(), policy: .concurrent(limit: 64),
        work: {
            owner, _, done in
            let computed = (1...10).reduce(0, +)
            DispatchQueue.main.async {
                owner.counter += computed
                owner.bodyThreads["dispatch-report"] = Thread.isMainThread
                done.succeed()
            }
        })

    /// A sync body that fails, so that `errors` and `outcomes` deliver.
    private(set) lazy var fail = Command(
        delegate: self, policy: .concurrent(limit: 64),
        perform: { _ in
            throw CounterFailure()
        })

    func bind(sideLog: EventRecorder<String>, queue: DispatchQueue) {
        // Main-actor deliveries: the handlers touch presenter and view directly.
        items.subscribe { [weak self] change in
            self?.lastChangeCount = change.snapshot.count
            self?.view?.show(count: change.snapshot.count)
        }.store(in: lifetimeTokens)
        load.executingChanges.subscribe { [weak self] executing in self?.executingLog.append(executing) }
            .store(in: lifetimeTokens)
        fail.errors.subscribe { [weak self] _ in self?.errorCount += 1 }.store(in: lifetimeTokens)
        fail.outcomes.subscribe { [weak self] _ in self?.outcomeCount += 1 }.store(in: lifetimeTokens)
        bus.observe(Refreshed.self) { [weak self] event in self?.refreshedTotal += event.amount }
            .store(in: lifetimeTokens)
        // Other deliveries: `@Sendable` handlers, which touch only what is safe anywhere.
        items.subscribe(on: .synchronous) { change in sideLog.record("sync \(change.version)") }
            .store(in: lifetimeTokens)
        items.subscribe(on: .queue(queue)) { change in sideLog.record("queue \(change.version)") }
            .store(in: lifetimeTokens)
        bus.observe(Refreshed.self, on: .queue(queue)) { event in sideLog.record("bus \(event.amount)") }
            .store(in: lifetimeTokens)
    }
}

private final class CounterScreen: CounterView {
    var shown: [Int] = []
    func show(count: Int) { shown.append(count) }
}

// Linux's test discovery casts each test method to a nonisolated function type: a `@MainActor`
// test class needs at least one `async` test, or the cast of its list of tests fails.
@MainActor
final class PresenterIsolationTests: XCTestCase {
    func test_everyCommandKindAndDelivery_fromBackgroundAndMainThreads() {
        let presenter = CounterPresenter()
        let screen = CounterScreen()
        presenter.injectView(screen)
        let sideLog = EventRecorder<String>()
        let queue = DispatchQueue(label: "PresenterIsolationTests.delivery")
        presenter.bind(sideLog: sideLog, queue: queue)

        let threads = 4
        let perThread = 5
        let increment = presenter.increment
        let load = presenter.load
        let export = presenter.export
        let fail = presenter.fail
        let bus = presenter.bus
        let background = expectation(description: "background callers are done")
        DispatchQueue.global().async {
            DispatchQueue.concurrentPerform(iterations: threads) { _ in
                for _ in 0..<perThread {
                    increment.execute()
                    load.execute()
                    export.execute()
                    fail.execute()
                    bus.post(Refreshed(amount: 1))
                }
            }
            background.fulfill()
        }
        // The main thread uses the same commands at the same time.
        for _ in 0..<perThread {
            XCTAssertTrue(increment.canExecute())
            increment.execute()
            load.execute()
            export.execute()
            fail.execute()
            bus.post(Refreshed(amount: 1))
        }
        wait(for: [background], timeout: 30)

        let calls = (threads + 1) * perThread
        waitUntil("every run has ended and every event arrived") {
            // `executingChanges` reaches the presenter on the main queue after `isExecuting` reads
            // `false`: wait for its last event too.
            !load.isExecuting && !export.isExecuting && presenter.refreshedTotal == calls
                && presenter.outcomeCount == calls && presenter.lastChangeCount == calls
                && presenter.executingLog.last == false
        }

        // Sync runs: `.ignoreWhileRunning` never refuses a run that ends before the next execute on
        // the same (main) actor, so every call ran: `calls` increments, each appended one item.
        XCTAssertEqual(presenter.items.count, calls)
        // Async runs are queued (`.enqueue`) and all ran; Dispatch runs report 55 each.
        XCTAssertEqual(presenter.counter, calls + calls * 10 + calls * 55)
        XCTAssertEqual(presenter.errorCount, calls)
        XCTAssertEqual(presenter.bodyThreads, ["sync": true, "async": true, "dispatch-report": true])
        XCTAssertEqual(presenter.executingLog.first, false)
        XCTAssertEqual(presenter.executingLog.last, false)
        XCTAssertEqual(screen.shown.last, calls)

        queue.sync {}
        let side = sideLog.events
        XCTAssertEqual(side.filter { $0.hasPrefix("sync ") }.count, calls)
        XCTAssertEqual(side.filter { $0.hasPrefix("queue ") }.count, calls)
        XCTAssertEqual(side.filter { $0.hasPrefix("bus ") }.count, calls)
    }

    func test_asyncBody_touchesPresenterStateOnTheMainActorAfterAwait() async {
        let presenter = CounterPresenter()
        let outcomes = EventRecorder<String>()
        let token = presenter.load.outcomes.subscribe(on: .synchronous) { outcomes.record("\($0.isSuccess)") }
        for _ in 0..<3 { presenter.load.execute() }
        while presenter.load.isExecuting { await Task.yield() }
        XCTAssertEqual(presenter.counter, 30)
        XCTAssertEqual(presenter.bodyThreads["async"], true)
        XCTAssertEqual(outcomes.events, ["true", "true", "true"])
        token.cancel()
    }

    /// Spins the main run loop until `condition` holds, failing after a timeout.
    private func waitUntil(_ what: String, timeout: TimeInterval = 30, _ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            guard Date() < deadline else { return XCTFail("timed out waiting until \(what)") }
            RunLoop.main.run(until: Date().addingTimeInterval(0.005))
        }
    }
}
