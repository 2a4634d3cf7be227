import Dispatch
import Foundation
import Ripple
import RippleTestSupport
import RippleTesting
import XCTest

// MARK: - Test doubles for the views

/// A control that records each change of its enabled state (what the user sees), not each set.
@MainActor
final class SpyControl: CommandControl {
    let history = EventRecorder<String>()
    var isEnabled = true {
        didSet { if isEnabled != oldValue { history.record(isEnabled ? "enabled" : "disabled") } }
    }
    /// What the binding asked to run on a tap.
    private(set) var tap: (@MainActor () -> Void)?
    func addCommandTrigger(_ action: @escaping @MainActor () -> Void) { tap = action }
}

/// A spinner that records when it starts and stops showing.
@MainActor
final class SpyIndicator: ActivityIndicating {
    let history = EventRecorder<String>()
    private(set) var isAnimating = false

    func startAnimating() {
        if !isAnimating { history.record("start") }
        isAnimating = true
    }

    func stopAnimating() {
        if isAnimating { history.record("stop") }
        isAnimating = false
    }
}

/// A refresh control that records when it starts and stops showing a refresh.
@MainActor
final class SpyRefresh: RefreshIndicating {
    let history = EventRecorder<String>()
    private(set) var isRefreshing = false
    var isEnabled = true
    /// What the binding asked to run on a pull.
    private(set) var pull: (@MainActor () -> Void)?
    func addCommandTrigger(_ action: @escaping @MainActor () -> Void) { pull = action }

    /// What the user's pull does before the control's action fires.
    func beginRefreshing() {
        if !isRefreshing { history.record("begin") }
        isRefreshing = true
    }

    func endRefreshing() {
        if isRefreshing { history.record("end") }
        isRefreshing = false
    }
}

/// `CommandBinding`: a control enabled exactly when the command can execute, a spinner while it
/// executes, a refresh control that ends with the run, on the main actor.
///
/// The class is `@MainActor`, with `async` methods (see ``CommandAsyncTests``): a `@MainActor` test
/// method in a nonisolated class crashes the Linux test runner.
@MainActor
final class CommandBindingTests: XCTestCase {
    /// Lets the main queue run everything queued on it so far: the binding's deliveries.
    private func settle() async {
        await fulfillment(of: [mainQueueFlushed()], timeout: 10)
    }

    func test_enable_followsCanExecute() async {
        let owner = CommandTestOwner()
        let command = Command(delegate: owner, perform: { _ in }, canExecute: { $0.isAllowed })
        let control = SpyControl()
        let binding = command.bind(to: control) {}
        await settle()
        XCTAssertTrue(control.isEnabled)

        owner.isAllowed = false
        command.raiseCanExecuteChanged()
        await settle()
        XCTAssertFalse(control.isEnabled)
        owner.isAllowed = true
        command.raiseCanExecuteChanged()
        await settle()
        control.history.assertEvents(["disabled", "enabled"])
        withExtendedLifetime(binding) {}
    }

    /// `bind(to:)` is the one way to bind: a control's tap and a refresh control's pull reach the
    /// command through the trigger the binding registered, and a released binding's trigger does
    /// nothing.
    func test_bind_theControlsOwnTriggerExecutes_andARefreshPullRuns() async {
        let runs = EventRecorder<String>()
        let command = CommandWithParameter<String>(delegate: commandAnchor, perform: { _, text in runs.record(text) })
        let control = SpyControl()
        let refresh = SpyRefresh()
        var bindings = [command.bind(to: control) { "tap" }, command.bind(to: refresh) { "pull" }]
        control.tap?()
        refresh.beginRefreshing()
        refresh.pull?()
        await settle()
        runs.assertEvents(["tap", "pull"])
        refresh.history.assertEvents(["begin", "end"])
        XCTAssertEqual(bindings.count, 2)

        bindings.removeAll()
        control.tap?()
        await settle()
        runs.assertEvents(["tap", "pull"])
    }

    /// A spinner's binding has no parameter, so triggering it is a programmer error that names the
    /// binding; its spinner follows the command.
    func test_bind_toASpinner_animatesWithoutAParameter() async {
        let scheduler = TestScheduler()
        let command = CommandWithParameter<Int>(
            delegate: commandAnchor, queue: scheduler, work: { _, _, done in done.succeed() })
        let indicator = SpyIndicator()
        let binding = command.bind(to: indicator)
        command.execute(parameter: 1)
        await settle()
        scheduler.runAll()
        await settle()
        indicator.history.assertEvents(["start", "stop"])
        binding.unbind()
    }

    func test_trigger_startsOneRun_andTheControlIsDisabledWhileItRuns() async {
        let scheduler = TestScheduler()
        let owner = CommandTestOwner()
        let command = Command(
            delegate: owner, queue: scheduler,
            work: { owner, _, done in
                owner.log("body")
                owner.keep(done)
            })
        let control = SpyControl()
        let binding = command.bind(to: control) {}

        XCTAssertNil(binding.trigger().refusal)
        XCTAssertFalse(control.isEnabled, "disabled at once, before any delivery")
        XCTAssertNotNil(binding.trigger().refusal, "a second tap while running starts nothing")
        await settle()
        scheduler.runAll()
        XCTAssertFalse(control.isEnabled)
        owner.lastRun?.succeed()
        await settle()
        XCTAssertTrue(control.isEnabled)
        XCTAssertEqual(owner.log, ["body"])
        control.history.assertEvents(["disabled", "enabled"])
    }

    func test_trigger_onADisabledControl_neverStartsARun() async {
        let owner = CommandTestOwner()
        owner.isAllowed = false
        let command = Command(delegate: owner, perform: { $0.log("body") }, canExecute: { $0.isAllowed })
        let control = SpyControl()
        let binding = command.bind(to: control) {}
        XCTAssertFalse(control.isEnabled)
        XCTAssertNotNil(binding.trigger().refusal)
        await settle()
        XCTAssertEqual(owner.log, [])
        control.history.assertEvents(["disabled"])
    }

    func test_trigger_passesTheCurrentParameter_andTheControlFollowsTheText() async {
        let text = Emitter<String>(replayingLatest: "")
        let typed = CommandLock("")
        let received = CommandLock<[String]>([])
        let search = CommandWithParameter<String>(
            delegate: commandAnchor,
            perform: { _, query in received.withLock { $0.append(query) } },
            canExecute: { !$1.isEmpty })
        search.raiseCanExecuteChanged(whenever: text.stream)
        let control = SpyControl()
        let binding = search.bind(to: control) { typed.current }

        for value in ["s", "sw", ""] {
            typed.withLock { $0 = value }
            text.send(value)
            await settle()
        }
        XCTAssertNotNil(binding.trigger().refusal, "empty text")
        typed.withLock { $0 = "swift" }
        text.send("swift")
        XCTAssertNil(binding.trigger().refusal)
        await settle()
        XCTAssertEqual(received.current, ["swift"])
        control.history.assertEvents(["disabled", "enabled", "disabled", "enabled"])
    }

    func test_indicator_animatesWhileTheCommandExecutes() async {
        let scheduler = TestScheduler()
        let owner = CommandTestOwner()
        let command = Command(delegate: owner, queue: scheduler, work: { owner, _, done in owner.keep(done) })
        let indicator = SpyIndicator()
        let binding = command.bind(to: indicator)
        await settle()
        XCTAssertFalse(indicator.isAnimating)

        XCTAssertNil(command.execute().refusal)
        await settle()
        XCTAssertTrue(indicator.isAnimating)
        scheduler.runAll()
        owner.lastRun?.succeed()
        await settle()
        XCTAssertFalse(indicator.isAnimating)
        indicator.history.assertEvents(["start", "stop"])
        binding.unbind()
    }

    func test_refresh_endsWhenTheRunItStartedEnds() async {
        let scheduler = TestScheduler()
        let owner = CommandTestOwner()
        let command = Command(delegate: owner, queue: scheduler, work: { owner, _, done in owner.keep(done) })
        let refresh = SpyRefresh()
        let binding = command.bind(to: refresh) {}
        await settle()

        refresh.beginRefreshing()  // the user pulls
        XCTAssertNil(binding.trigger().refusal)
        await settle()
        XCTAssertTrue(refresh.isRefreshing, "still refreshing while the command runs")
        scheduler.runAll()
        owner.lastRun?.succeed()
        await settle()
        XCTAssertFalse(refresh.isRefreshing)
        refresh.history.assertEvents(["begin", "end"])
    }

    func test_refresh_aPullThatCannotRun_endsAtOnce() async {
        let owner = CommandTestOwner()
        owner.isAllowed = false
        let command = Command(delegate: owner, perform: { _ in }, canExecute: { $0.isAllowed })
        let refresh = SpyRefresh()
        let binding = command.bind(to: refresh) {}
        refresh.beginRefreshing()
        XCTAssertNotNil(binding.trigger().refusal)
        XCTAssertFalse(refresh.isRefreshing, "ended without waiting for a delivery")
        await settle()
        refresh.history.assertEvents(["begin", "end"])
    }

    func test_cancel_reachesARunStartedByTheBinding() async {
        let entered = CommandGate()
        let command = Command(
            delegate: commandAnchor,
            task: { _ in
                entered.open()
                try await Task.sleep(nanoseconds: 600 * 1_000_000_000)
            })
        let control = SpyControl()
        let indicator = SpyIndicator()
        let binding = command.bind(to: control) {}
        let spinnerBinding = command.bind(to: indicator)
        let spy = CommandSpy(command, streams: [.outcomes, .errors])

        XCTAssertNil(binding.trigger().refusal)
        await entered.wait()
        await settle()
        XCTAssertFalse(control.isEnabled)
        XCTAssertTrue(indicator.isAnimating)

        command.cancel()
        await fulfillment(of: [spy.expectation(events: 1)], timeout: 10)
        await settle()
        spy.assertEvents([.cancelled])
        control.history.assertEvents(["disabled", "enabled"])
        indicator.history.assertEvents(["start", "stop"])
        XCTAssertFalse(command.isExecuting)
        spinnerBinding.unbind()
    }

    func test_enable_underConcurrentLimit_disablesTheControlAtTheLimit_evenForRunsStartedElsewhere() async {
        let scheduler = TestScheduler()
        let owner = CommandTestOwner()
        let command = Command(
            delegate: owner, queue: scheduler, policy: .concurrent(limit: 2),
            work: { owner, _, done in
                owner.keep(done)
            })
        let control = SpyControl()
        let binding = command.bind(to: control) {}
        command.execute()  // started by the presenter, not through the binding
        await settle()
        XCTAssertTrue(control.isEnabled, "one run of two")
        command.execute()  // reaches the limit
        await settle()
        XCTAssertFalse(control.isEnabled, "at the limit, although the binding started neither run")
        XCTAssertNotNil(binding.trigger().refusal)
        scheduler.runAll()
        owner.keptRuns[0].succeed()
        await settle()
        XCTAssertTrue(control.isEnabled)
        owner.keptRuns[1].succeed()
        control.history.assertEvents(["disabled", "enabled"])
    }

    func test_unbind_stopsFollowing_theViewsKeepTheirLastState() async {
        let owner = CommandTestOwner()
        let command = Command(delegate: owner, perform: { _ in }, canExecute: { $0.isAllowed })
        let control = SpyControl()
        let binding = command.bind(to: control) {}
        await settle()
        binding.unbind()
        owner.isAllowed = false
        command.raiseCanExecuteChanged()
        await settle()
        XCTAssertTrue(control.isEnabled)
        control.history.assertEvents([])
    }

    func test_binding_endsItsSubscriptionsWhenDeallocated_andHoldsTheViewsWeakly() async {
        let owner = CommandTestOwner()
        let command = Command(delegate: owner, perform: { _ in }, canExecute: { $0.isAllowed })
        var binding: CommandBinding<Command>?
        weak var weakControl: SpyControl?
        do {
            let control = SpyControl()
            weakControl = control
            binding = command.bind(to: control)
        }
        XCTAssertNil(weakControl, "the binding holds its control weakly")
        XCTAssertNotNil(binding)
        let spy = CommandSpy(command, streams: [.canExecute])
        binding = nil
        await settle()
        owner.isAllowed = false
        command.raiseCanExecuteChanged()  // reaches the spy only: the binding's subscription is gone
        await settle()
        spy.assertEvents([.canExecute(false)])
    }
}
