import Observation
import Ripple
import RippleTestSupport
import RippleTesting
import XCTest

private struct Offline: Error, Equatable {}

/// A presenter whose commands a SwiftUI view uses: a refresh that `.refreshable` awaits, and a
/// save that can fail.
@MainActor
private final class InboxPresenter: Presenter<any Viewable> {
    let messages = ObservableCollection<String>()
    var failNext = false
    var isEditing = false
    private(set) var created = 0

    private(set) lazy var refresh = Command(
        delegate: self,
        task: { owner in
            try await Task.sleep(nanoseconds: 50_000_000)
            owner.messages.append("new \(owner.messages.count)")
        })

    private(set) lazy var save = Command(
        delegate: self,
        task: { owner in
            await Task.yield()
            if owner.failNext { throw Offline() }
        },
        canExecute: { owner in owner.isEditing })

    lazy var shown = ObservedList(messages)
    lazy var refreshState = ObservedCommand(refresh)
    lazy var saveState = ObservedCommand(save)

    override func viewCreated() { created += 1 }
}

/// `ObservedCommand` and the awaitable run behind SwiftUI's `.refreshable` and `.task`, through
/// `HeadlessSwiftUIView`, RippleTesting's stand-in for a SwiftUI view body.
@MainActor
final class ObservedCommandTests: XCTestCase {

    func test_aButtonsState_followsCanExecute_executing_andTheLastError() async {
        let presenter = InboxPresenter()
        let view = HeadlessSwiftUIView {
            (presenter.saveState.canExecute, presenter.saveState.isExecuting, presenter.saveState.lastError as? Offline)
        }
        XCTAssertFalse(view.output.0, "not editing: disabled")
        presenter.isEditing = true
        presenter.save.raiseCanExecuteChanged()
        await view.settle()
        XCTAssertTrue(view.output.0, "enabled once canExecute may have changed")

        presenter.failNext = true
        XCTAssertEqual(presenter.save.execute(), .started)
        XCTAssertTrue(presenter.saveState.isExecuting || view.output.1 == false)
        // The run is an async task on the cooperative pool: `settle()` lets the main queue deliver,
        // but cannot know when the task ends (under ThreadSanitizer it once ended after two quiet
        // turns). Wait for the command's own state first, then for its delivery.
        for _ in 0..<10_000 where presenter.save.isExecuting { try? await Task.sleep(nanoseconds: 1_000_000) }
        XCTAssertFalse(presenter.save.isExecuting, "the run ended within 10 s")
        await view.settle()
        XCTAssertEqual(view.output.1, false, "the run ended")
        XCTAssertEqual(view.output.2, Offline(), "its error shows")

        presenter.failNext = false
        let outcome = await presenter.save.run()
        guard case .succeeded = outcome else { return XCTFail("\(outcome)") }
        await view.settle()
        XCTAssertNil(view.output.2, "a new run clears the last error")
    }

    /// Issue 35: each change of a command's state is exactly one invalidation of a body that
    /// reads it (counted with a counter that registers again inside each report, so that two
    /// would count two).
    func test_eachStateChange_isExactlyOneInvalidation() async {
        let presenter = InboxPresenter()
        let state = presenter.saveState
        let view = HeadlessSwiftUIView { (state.isExecuting, state.lastError != nil) }
        let executing = InvalidationCounter { _ = state.isExecuting }
        let lastError = InvalidationCounter { _ = state.lastError }
        presenter.isEditing = true
        presenter.failNext = true
        _ = await presenter.save.run()
        await view.settle()
        XCTAssertEqual(executing.invalidations, 2, "started, ended")
        XCTAssertEqual(lastError.invalidations, 1, "the run's error")

        presenter.failNext = false
        _ = await presenter.save.run()
        await view.settle()
        XCTAssertEqual(executing.invalidations, 4, "started, ended")
        XCTAssertEqual(lastError.invalidations, 2, "the new run cleared the error")
        XCTAssertEqual(view.output.0, false)
        XCTAssertEqual(view.output.1, false)
    }

    func test_refreshable_awaitsTheRun_andEndsWhenItEnds() async {
        let presenter = InboxPresenter()
        let view = HeadlessSwiftUIView { presenter.shown.elements }
        // `.refreshable { await presenter.refresh.run() }`: the spinner stays until the run ends.
        let outcome = await presenter.refresh.run()
        guard case .succeeded = outcome else { return XCTFail("\(outcome)") }
        XCTAssertFalse(presenter.refresh.isExecuting)
        await view.settle()
        XCTAssertEqual(view.output, ["new 0"])
        XCTAssertEqual(view.renderCount, 2, "one render for the event")
    }

    func test_aCancelledSwiftUITask_cancelsTheRun() async {
        let presenter = InboxPresenter()
        // `.task { await presenter.refresh.run() }`, and the view goes away: SwiftUI cancels it.
        let task = Task { await presenter.refresh.run() }
        await Task.yield()
        task.cancel()
        let outcome = await task.value
        guard case .cancelled = outcome else { return XCTFail("\(outcome)") }
        XCTAssertFalse(presenter.refresh.isExecuting)
        XCTAssertEqual(presenter.messages.snapshot, [], "the body stopped at its cancelled sleep")
    }

    func test_aPresenterBehindASwiftUIView_getsItsHooks() async {
        let presenter = InboxPresenter()
        let view = HeadlessSwiftUIView { presenter.shown.elements.count }
        let token = presenter.messages.subscribe { _ in }
        presenter.visibilityTokens.insert(token)
        view.appear(presenter)
        XCTAssertEqual(presenter.lifecycle, .visible)
        XCTAssertEqual(presenter.created, 1)
        view.disappear(presenter)
        XCTAssertEqual(presenter.lifecycle, .hidden)
        XCTAssertEqual(
            presenter.messages.subscriberCount, 1, "the visibility subscription ended; the list's own remains")
        view.appear(presenter)
        XCTAssertEqual(presenter.created, 1, "viewCreated runs once")
        XCTAssertEqual(presenter.lifecycle, .visible)
        view.disappear(presenter)
        view.disappear(presenter)
        XCTAssertEqual(presenter.lifecycle, .hidden, "a second onDisappear changes nothing")
    }

    func test_observedStates_deallocate_andLeaveNoSubscription() async {
        let collection = ObservableCollection([1])
        let command = Command(delegate: commandAnchor, perform: { _ in })
        assertDeallocated {
            let list = ObservedList(collection)
            let state = ObservedCommand(command)
            return weakReferences(list, state)
        }
        XCTAssertEqual(collection.subscriberCount, 0)
    }
}
