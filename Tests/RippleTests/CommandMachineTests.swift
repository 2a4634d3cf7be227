import Foundation
import Ripple
import RippleTestSupport
import XCTest

/// A run handle the tests hold: cancelling it only sets its flag.
private final class FakeRun: CommandRunHandle, @unchecked Sendable {
    // @unchecked: the machine's tests run on one thread and start none.
    private(set) var isCancelled = false
    let waiterID: ObjectIdentifier?
    let id: Int
    init(id: Int, waiter: AnyObject? = nil) {
        self.id = id
        waiterID = waiter.map(ObjectIdentifier.init)
    }
    func cancel() { isCancelled = true }
}

/// A `run(parameter:)` call, for its identity.
private final class Waiter {}

/// `CommandMachine`, the command's state as a value: every transition, without threads, without a
/// command. Each transition returns what the command does once unlocked; the tests check it, and
/// deliver the events it queued as the command would.
final class CommandMachineTests: XCTestCase {
    private let events = EventRecorder<String>()

    private func machine(_ policy: CommandPolicy, sync: Bool = false, observed: Bool = true) -> CommandMachine {
        var machine = CommandMachine(policy: policy, bodyIsSync: sync)
        if observed {
            let events = events
            machine._subscribeAll { events.record($0) }
        }
        return machine
    }

    private func entry(_ waiter: AnyObject? = nil) -> QueuedEntry {
        QueuedEntry(run: Waiter(), waiterID: waiter.map(ObjectIdentifier.init))
    }

    @discardableResult
    private func admit(
        _ machine: inout CommandMachine, thread: UInt? = nil, waiter: AnyObject? = nil
    ) -> (admission: CommandMachine.AdmitAction, cancel: [any CommandRunHandle]) {
        let action = machine.admit(thread: thread, entry: { entry(waiter) }) { FakeRun(id: $0, waiter: waiter) }
        guard case .start(_, let cancel, let drains) = action else { return (action, []) }
        machine._deliver(drains)
        return (action, cancel)
    }

    private func end(
        _ machine: inout CommandMachine, _ ending: CommandMachine.Ending, value: Int? = nil,
        failure: (any Error)? = nil,
        isCancellation: Bool = false
    ) -> CommandMachine.EndAction {
        var outcomes = false
        if let value, case .deliver(let results, let pending) = machine.publish(ending, value: value) {
            if results { machine._deliver(.results) }
            outcomes = pending
        }
        let action = machine.end(ending, failure: failure, isCancellation: isCancellation) { id, _ in FakeRun(id: id) }
        machine._deliver(outcomes ? action.drains.union(.outcomes) : action.drains)
        return action
    }

    private func runID(_ admission: CommandMachine.AdmitAction) -> Int? {
        if case .start(.run(let id, _), _, _) = admission { return id }
        return nil
    }

    // MARK: - admit

    func test_ignoreWhileRunning_startsOne_refusesTheNext_andPublishesTheStartOnce() {
        var machine = machine(.ignoreWhileRunning)
        let first = admit(&machine)
        XCTAssertNotNil(runID(first.admission))
        XCTAssertTrue(machine.isExecuting)
        XCTAssertFalse(machine.admitsAnotherRun)
        guard case .refuse(.busy) = admit(&machine).admission else { return XCTFail("not refused") }
        events.assertEvents(["executing true", "canExecute"])
    }

    func test_concurrent_admitsUpToTheLimit_andCanExecuteFlipsAtIt() {
        var machine = machine(.concurrent(limit: 2))
        let a = runID(admit(&machine).admission)
        XCTAssertNotNil(a)
        XCTAssertNotNil(runID(admit(&machine).admission))
        guard case .refuse(.busy) = admit(&machine).admission else { return XCTFail("not refused") }
        XCTAssertEqual(machine.activeRuns, 2)
        events.assertEvents(["executing true", "canExecute", "canExecute"])
        _ = end(&machine, .run(id: a!), value: 1)
        XCTAssertTrue(machine.admitsAnotherRun)
    }

    func test_cancelRunning_startsAtOnce_andReturnsTheRunsItReplaces() {
        var machine = machine(.cancelRunning)
        let first = admit(&machine)
        let second = admit(&machine)
        XCTAssertNotNil(runID(second.admission))
        XCTAssertEqual(second.cancel.map { ($0 as? FakeRun)?.id }, [runID(first.admission)])
        XCTAssertEqual(machine.activeRuns, 2, "the replaced run counts until its body ends")
    }

    func test_cancelRunning_syncNesting_isCountedPerThread_andTrapsPastTheLimit() {
        var machine = machine(.cancelRunning, sync: true)
        XCTAssertTrue(machine.nestsPerThread)
        for _ in 0..<syncRunLimit {
            guard case .start(.sync, _, _) = admit(&machine, thread: 1).admission else { return XCTFail("not started") }
        }
        guard case .trapTooDeep(let depth) = admit(&machine, thread: 1).admission else { return XCTFail("no trap") }
        XCTAssertEqual(depth, syncRunLimit + 1)
        guard case .start(.sync, _, _) = admit(&machine, thread: 2).admission else {
            return XCTFail("another thread nests nothing")
        }
        XCTAssertEqual(machine.syncDepths, [1: syncRunLimit, 2: 1])
        _ = end(&machine, .sync(thread: 2), value: 0)
        XCTAssertEqual(machine.syncDepths, [1: syncRunLimit])
        XCTAssertFalse(CommandMachine(policy: .enqueue, bodyIsSync: true).nestsPerThread)
    }

    func test_enqueue_queuesWhileRunning_withoutAnEvent_andTheOldestTakesOver() {
        var machine = machine(.enqueue)
        let id = runID(admit(&machine).admission)!
        let waiter = Waiter()
        guard case .queue = admit(&machine, waiter: waiter).admission else { return XCTFail("not queued") }
        guard case .queue = admit(&machine).admission else { return XCTFail("not queued") }
        XCTAssertEqual(machine.queued.count, 2)
        events.assertEvents(["executing true", "canExecute"])

        let effects = end(&machine, .run(id: id), value: 7)
        XCTAssertEqual(effects.takeOver?.entry.waiterID, ObjectIdentifier(waiter), "the oldest first")
        XCTAssertEqual(machine.queued.count, 1)
        XCTAssertTrue(machine.isExecuting)
        events.assertEvents(["executing true", "canExecute", "result 7", "outcome succeeded", "canExecute"])
    }

    // MARK: - publish and end

    func test_success_valueThenOutcome_afterTheRunEnds_andTheEndShows() {
        var machine = machine(.ignoreWhileRunning, sync: true)
        guard case .start(.sync, _, _) = admit(&machine).admission else { return XCTFail("not started") }
        let effects = end(&machine, .sync(thread: nil), value: 3)
        XCTAssertFalse(effects.cancelled)
        XCTAssertNil(effects.unobserved)
        XCTAssertFalse(machine.isExecuting)
        events.assertEvents([
            "executing true", "canExecute", "result 3", "outcome succeeded", "executing false", "canExecute",
        ])
    }

    func test_failure_reachesErrorsAndOutcomes_andIsUnobservedWithoutAnErrorsSubscriber() {
        var observed = machine(.ignoreWhileRunning)
        let id = runID(admit(&observed).admission)!
        let effects = end(&observed, .run(id: id), failure: CommandTestError(4))
        XCTAssertNil(effects.unobserved)
        XCTAssertFalse(effects.cancelled)
        events.assertEvents([
            "executing true", "canExecute", "error CommandTestError(4)", "outcome failed(CommandTestError(4))",
            "executing false", "canExecute",
        ])

        var unobserved = machine(.ignoreWhileRunning, observed: false)
        let other = runID(admit(&unobserved).admission)!
        XCTAssertNotNil(end(&unobserved, .run(id: other), failure: CommandTestError(5)).unobserved)
    }

    func test_aCancelledRun_orACancellationError_endsCancelled_withoutAnError() {
        var machine = machine(.cancelRunning)
        let first = admit(&machine)
        let replaced = admit(&machine).cancel
        replaced.forEach { $0.cancel() }
        let id = runID(first.admission)!
        let effects = end(&machine, .run(id: id), failure: CommandTestError(1))
        XCTAssertTrue(effects.cancelled, "the run was cancelled: its error is the cancellation's")
        let second = end(&machine, .run(id: id + 1), failure: CancellationError(), isCancellation: true)
        XCTAssertTrue(second.cancelled)
        XCTAssertFalse(events.events.contains { $0.hasPrefix("error") })
        XCTAssertEqual(events.events.filter { $0.hasPrefix("outcome") }, ["outcome cancelled", "outcome cancelled"])
    }

    /// Runs ending at once: the value and `.succeeded` are queued together, so the outcome of a
    /// run that failed between them comes after.
    func test_publish_queuesTheValueAndItsOutcomeTogether() {
        var machine = machine(.concurrent(limit: 2))
        let a = runID(admit(&machine).admission)!
        let b = runID(admit(&machine).admission)!
        XCTAssertEqual(
            machine.publish(.run(id: a), value: 1), .deliver(drainResults: true, drainOutcomesAfterEnd: true))
        // B fails before A's end: its outcome queues behind A's.
        let failed = machine.end(.run(id: b), failure: CommandTestError(2), isCancellation: false) { id, _ in
            FakeRun(id: id)
        }
        XCTAssertFalse(failed.drains.contains(.outcomes), "A's thread drains the outcomes")
        let ended = machine.end(.run(id: a), failure: nil, isCancellation: false) { id, _ in FakeRun(id: id) }
        machine._deliver(CommandDrains.results.union(failed.drains).union(ended.drains).union(.outcomes))
        XCTAssertEqual(
            events.events.filter { $0.hasPrefix("outcome") },
            ["outcome succeeded", "outcome failed(CommandTestError(2))"])
    }

    /// Issue 43, bug 5: a run replaced under `.cancelRunning` whose body ignores the cancellation
    /// and returns a value anyway publishes nothing and ends cancelled, even when its handle's
    /// flag is not set yet (the command cancels the handles only after unlocking).
    func test_publish_ofAReplacedRun_publishesNothing_andTheRunEndsCancelled() {
        var machine = machine(.cancelRunning)
        let first = runID(admit(&machine).admission)!
        let second = runID(admit(&machine).admission)!
        XCTAssertEqual(machine.publish(.run(id: first), value: 1), .endCancelled, "replaced under the lock")
        let effects = end(&machine, .run(id: first), failure: CancellationError(), isCancellation: true)
        XCTAssertTrue(effects.cancelled)
        _ = end(&machine, .run(id: second), value: 2)
        XCTAssertEqual(
            events.events.filter { $0.hasPrefix("result") || $0.hasPrefix("outcome") },
            ["outcome cancelled", "result 2", "outcome succeeded"], "latest wins: only the second run's value")
    }

    func test_publish_afterCancelAll_orCancelOfItsWaiter_publishesNothing() {
        var machine = machine(.concurrent(limit: 3))
        let waiter = Waiter()
        let a = runID(admit(&machine).admission)!
        let b = runID(admit(&machine, waiter: waiter).admission)!
        XCTAssertNotNil(machine.cancel(awaitedBy: ObjectIdentifier(waiter)).cancel)
        XCTAssertEqual(machine.publish(.run(id: b), value: 2), .endCancelled)
        XCTAssertEqual(
            machine.publish(.run(id: a), value: 1), .deliver(drainResults: true, drainOutcomesAfterEnd: true))
        _ = machine.end(.run(id: a), failure: nil, isCancellation: false) { id, _ in FakeRun(id: id) }
        let c = runID(admit(&machine).admission)!
        _ = machine.cancelAll()
        XCTAssertEqual(machine.publish(.run(id: c), value: 3), .endCancelled)
        XCTAssertEqual(machine.cancelledRuns, [b, c])
        XCTAssertTrue(end(&machine, .run(id: c), failure: CancellationError(), isCancellation: true).cancelled)
        XCTAssertEqual(machine.cancelledRuns, [b], "the end forgets the run")
    }

    // MARK: - cancel

    func test_cancelAll_returnsTheRunsAndDropsTheQueue() {
        var machine = machine(.enqueue)
        let id = runID(admit(&machine).admission)!
        admit(&machine)
        let (cancel, dropped, drains) = machine.cancelAll().parts
        machine._deliver(drains)
        XCTAssertEqual(cancel.map { ($0 as? FakeRun)?.id }, [id])
        XCTAssertEqual(dropped.count, 1)
        XCTAssertTrue(machine.isExecuting, "executing until the body ends")
        XCTAssertTrue(machine.queued.isEmpty)

        var idle = self.machine(.ignoreWhileRunning, observed: false)
        let nothing = idle.cancelAll().parts
        XCTAssertTrue(nothing.cancel.isEmpty && nothing.dropped.isEmpty && nothing.drains.isEmpty)
    }

    func test_cancelAwaitedBy_dropsItsQueuedRun_orReturnsItsRunningOne() {
        var machine = machine(.enqueue)
        let running = Waiter()
        let queued = Waiter()
        admit(&machine, waiter: running)
        admit(&machine, waiter: queued)
        let drop = machine.cancel(awaitedBy: ObjectIdentifier(queued))
        XCTAssertNil(drop.cancel)
        XCTAssertEqual(drop.dropped?.waiterID, ObjectIdentifier(queued))
        let stop = machine.cancel(awaitedBy: ObjectIdentifier(running))
        XCTAssertEqual(stop.cancel?.waiterID, ObjectIdentifier(running))
        XCTAssertNil(stop.dropped)
        XCTAssertNil(machine.cancel(awaitedBy: ObjectIdentifier(Waiter())).cancel)
    }

    // MARK: - bindWork

    func test_bindWork_registersARunOutsideThePolicy() {
        var machine = machine(.ignoreWhileRunning, sync: true)
        guard case .bind(let handle, let drains) = machine.bindWork(makeRun: { FakeRun(id: $0) }) else { return }
        machine._deliver(drains)
        XCTAssertEqual(machine.running.count, 1)
        XCTAssertEqual(machine.syncRunning, 0, "bound work is a run, not a sync body")
        guard case .refuse(.busy) = admit(&machine).admission else { return XCTFail("not refused") }
        _ = end(&machine, .run(id: (handle as! FakeRun).id), value: 9)
        XCTAssertFalse(machine.isExecuting)
        events.assertEvents([
            "executing true", "canExecute", "result 9", "outcome succeeded", "executing false", "canExecute",
        ])
    }

    /// With nobody subscribed to the executing and canExecute streams, a start queues nothing.
    func test_unobservedStateChanges_queueNothing() {
        var machine = machine(.ignoreWhileRunning, observed: false)
        let action = machine.admit(thread: nil, entry: { entry() }) { FakeRun(id: $0) }
        XCTAssertNotNil(runID(action))
        guard case .start(_, let cancelling, let drains) = action else { return XCTFail("not started") }
        XCTAssertTrue(drains.isEmpty && cancelling.isEmpty)
    }
}

// MARK: - Each action's parts, by name

extension CommandMachine.EndAction {
    fileprivate var cancelled: Bool { ending == .cancelled }
    fileprivate var drains: CommandDrains {
        switch self {
        case .finish(_, let drains, _), .finishAndTakeOver(_, let drains, _, _, _): drains
        }
    }
    fileprivate var unobserved: (any Error)? {
        switch self {
        case .finish(_, _, let unobserved), .finishAndTakeOver(_, _, let unobserved, _, _): unobserved
        }
    }
}

extension CommandMachine.CancelAllAction {
    fileprivate var parts: (cancel: [any CommandRunHandle], dropped: [QueuedEntry], drains: CommandDrains) {
        switch self {
        case .cancel(let runs, let dropped, let drains): (runs, dropped, drains)
        }
    }
}

extension CommandMachine.CancelRunAction {
    fileprivate var cancel: (any CommandRunHandle)? {
        if case .cancel(let run) = self { return run }
        return nil
    }
    fileprivate var dropped: QueuedEntry? {
        if case .drop(let entry, _) = self { return entry }
        return nil
    }
}
