import Dispatch
import Ripple
import RippleTestSupport
import RippleTesting
import XCTest

/// `CommandBinding.refresh(with:)` when the user pulls before the main queue has delivered the
/// command's current state: the state replayed to the binding's new subscription says "not
/// executing", but it arrives after the pull started a run, and must not end the spinner.
///
/// `@MainActor` with `async` methods: the main queue turns while a test awaits.
@MainActor
final class CommandBindingRefreshTests: XCTestCase {
    /// Lets the main queue run everything queued on it so far.
    private func drainMainQueue() async {
        let drained = XCTestExpectation(description: "main queue drained")
        DispatchQueue.main.async { drained.fulfill() }
        await fulfillment(of: [drained], timeout: 10)
    }

    func test_aPullBeforeTheMainQueueDrains_staysRefreshingUntilTheRunEnds() async {
        let scheduler = TestScheduler()
        // A Dispatch body on a test scheduler: the run stays executing until the scheduler runs it.
        let command = Command(delegate: commandAnchor, queue: scheduler, work: { _, _, done in done.succeed() })
        let refresh = SpyRefresh()  // CommandBindingTests' double
        let binding = command.bind(to: refresh) {}

        refresh.beginRefreshing()  // the user pulls; the replayed "not executing" is still queued
        XCTAssertNil(binding.trigger().refusal)
        await drainMainQueue()
        XCTAssertTrue(command.isExecuting)
        XCTAssertTrue(refresh.isRefreshing, "the replayed state ended the spinner of a run that is going on")

        XCTAssertEqual(scheduler.runAll(), 1)
        await drainMainQueue()
        XCTAssertFalse(command.isExecuting)
        XCTAssertFalse(refresh.isRefreshing, "the spinner ends with the run")
        refresh.history.assertEvents(["begin", "end"])
        binding.unbind()
    }

    func test_aPullWhoseRunEndsBeforeTheMainQueueDrains_endsWhenTheStateArrives() async {
        let command = Command(delegate: commandAnchor, perform: { _ in })
        let refresh = SpyRefresh()  // CommandBindingTests' double
        let binding = command.bind(to: refresh) {}

        refresh.beginRefreshing()
        XCTAssertNil(binding.trigger().refusal)  // a synchronous body: the run has ended already
        XCTAssertFalse(command.isExecuting)
        await drainMainQueue()
        XCTAssertFalse(refresh.isRefreshing)
        refresh.history.assertEvents(["begin", "end"])
        binding.unbind()
    }
}
