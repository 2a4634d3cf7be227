import Dispatch
import Foundation
import Ripple
import RippleTestSupport
import RippleTesting
import XCTest

/// What `execute` reports (`CommandExecution`) and what an awaited run returns
/// (`CommandRunOutcome`), for every body kind and isolation, every refusal, and both kinds of
/// cancellation: `cancel()` on the command, and cancelling the task that awaits the run.
///
/// Every method is `async`, so the class may be `@MainActor` (see ``CommandAsyncTests``).
@MainActor
final class CommandExecutionTests: XCTestCase {
    /// A run's outcome in an `Equatable` form: the error by its description.
    enum Outcome<Value: Equatable & Sendable>: Equatable, Sendable {
        case succeeded(Value)
        case failed(String)
        case cancelled
        case refused(CommandRefusal)

        init(_ outcome: CommandRunOutcome<Value>) {
            switch outcome {
            case .succeeded(let value): self = .succeeded(value)
            case .failed(let error): self = .failed(String(describing: error))
            case .cancelled: self = .cancelled
            case .refused(let reason): self = .refused(reason)
            }
        }
    }

    // MARK: - execute()

    func test_execute_reportsStarted_queued_andEachRefusalWithItsReason() async {
        let scheduler = TestScheduler()
        let owner = CommandTestOwner()
        let ignoring = CommandWithParameter<Int>(
            delegate: owner, queue: scheduler, work: { owner, _, done in owner.keep(done) },
            canExecute: { owner, value in owner.isAllowed && value >= 0 })
        XCTAssertEqual(ignoring.execute(parameter: -1), .refused(.cannotExecute))
        XCTAssertEqual(ignoring.execute(parameter: 1), .started)
        XCTAssertEqual(ignoring.execute(parameter: 2), .refused(.busy), "one run at a time")
        scheduler.runAll()
        owner.lastRun?.succeed()
        XCTAssertEqual(ignoring.execute(parameter: 3), .started)
        scheduler.runAll()
        owner.lastRun?.succeed()

        let queueing = CommandWithParameter<Int>(
            delegate: owner, queue: scheduler, policy: .enqueue, work: { owner, _, done in owner.keep(done) })
        XCTAssertEqual(queueing.execute(parameter: 1), .started)
        XCTAssertEqual(queueing.execute(parameter: 2), .queued)
        queueing.cancel()
        scheduler.runAll()
        XCTAssertFalse(queueing.isExecuting)
    }

    func test_execute_afterTheOwnerIsGone_isRefusedAsOwnerDeallocated_onAndOffTheMainThread() async {
        var owner: CommandTestOwner? = CommandTestOwner()
        let command = Command(delegate: owner!, perform: { $0.log("body") })
        owner = nil
        XCTAssertEqual(command.execute(), .refused(.ownerDeallocated))
        let offMain = EventRecorder<CommandExecution>()
        DispatchQueue.global().async { offMain.record(command.execute()) }
        await fulfillment(of: [offMain.expectation(count: 1)], timeout: 10)
        offMain.assertEvents([.refused(.ownerDeallocated)], "known at once, without a hop: no run will happen")
    }

    func test_execute_ofANonisolatedCommand_reportsTheRefusalOnTheCallingThread() async {
        let allowed = CommandLock(false)
        let command = Command(nonisolatedPerform: {}, canExecute: { allowed.current })
        let offMain = EventRecorder<CommandExecution>()
        DispatchQueue.global().async {
            offMain.record(command.execute())
            allowed.withLock { $0 = true }
            offMain.record(command.execute())
        }
        await fulfillment(of: [offMain.expectation(count: 2)], timeout: 10)
        offMain.assertEvents([.refused(.cannotExecute), .started])
    }

    // MARK: - run(_:): succeeded

    func test_run_returnsTheValue_forEveryBodyKind() async {
        let owner = CommandTestOwner()
        let sync = CommandWithResult<Int, Int>(delegate: owner, perform: { _, value in value * 10 })
        let dispatch = CommandWithResult<Int, Int>(
            delegate: owner, queue: DispatchQueue.global(), work: { _, value, done in done.succeed(value * 100) })
        let async = CommandWithResult<Int, Int>(
            delegate: owner,
            task: { _, value in
                await Task.yield()
                return value * 1000
            })
        let nonisolatedSync = CommandWithResult<Int, Int>(nonisolatedPerform: { $0 + 1 })
        let nonisolatedDispatch = CommandWithResult<Int, Int>(
            queue: DispatchQueue.global(), nonisolatedWork: { value, done in done(.success(value + 2)) })
        let nonisolatedAsync = CommandWithResult<Int, Int>(nonisolatedTask: { value in
            await Task.yield()
            return value + 3
        })
        let values = EventRecorder<Int>()
        let token = sync.results.subscribe(on: .synchronous) { values.record($0) }

        let outcomes = [
            Outcome(await sync.run(parameter: 1)), Outcome(await dispatch.run(parameter: 2)),
            Outcome(await async.run(parameter: 3)),
            Outcome(await nonisolatedSync.run(parameter: 4)), Outcome(await nonisolatedDispatch.run(parameter: 5)),
            Outcome(await nonisolatedAsync.run(parameter: 6)),
        ]

        XCTAssertEqual(
            outcomes, [.succeeded(10), .succeeded(200), .succeeded(3000), .succeeded(5), .succeeded(7), .succeeded(9)])
        values.assertEvents([10], "the value also reached results")
        for command in [sync, dispatch, async, nonisolatedSync, nonisolatedDispatch, nonisolatedAsync] {
            XCTAssertFalse(command.isExecuting, "run returns once the run has ended")
        }
        token.cancel()
    }

    func test_run_ofACommandWithoutResults_succeedsWithVoid_andPublishesTheOutcome() async {
        let owner = CommandTestOwner()
        let command = Command(
            delegate: owner,
            task: { owner in
                await Task.yield()
                owner.log("body")
            })
        let spy = CommandSpy(command, streams: [.executing, .outcomes])
        guard case .succeeded = await command.run() else { return XCTFail("the run succeeds") }
        XCTAssertEqual(owner.log, ["body"])
        await fulfillment(of: [spy.expectation(events: 3)], timeout: 10)
        spy.assertEvents([.executing(false), .executing(true), .succeeded, .executing(false)])
    }

    // MARK: - run(_:): failed

    func test_run_returnsTheError_whichAlsoReachesErrors() async {
        let command = CommandWithResult<Int, Int>(nonisolatedTask: { value in throw CommandTestError(value) })
        let spy = CommandSpy(command, parameter: 0, on: .synchronous, streams: [.errors, .outcomes])
        let outcome = Outcome(await command.run(parameter: 7))
        XCTAssertEqual(outcome, .failed("CommandTestError(7)"))
        spy.assertEvents([.error(7), .failed(7)])
    }

    func test_run_ofAThrowingSyncBody_returnsTheError() async {
        let owner = CommandTestOwner()
        let command = CommandWithResult<Int, Int>(
            delegate: owner, perform: { _, value in throw CommandTestError(value) })
        let token = command.errors.subscribe(on: .synchronous) { _ in }
        let outcome1 = await command.run(parameter: 3)
        XCTAssertEqual(Outcome(outcome1), .failed("CommandTestError(3)"))
        token.cancel()
    }

    // MARK: - run(_:): refused

    func test_run_isRefused_withTheReason() async {
        let scheduler = TestScheduler()
        var owner: CommandTestOwner? = CommandTestOwner()
        owner?.isAllowed = false
        let command = CommandWithResult<Int, Int>(
            delegate: owner!, queue: scheduler, work: { _, value, done in done.succeed(value) },
            canExecute: { owner, _ in owner.isAllowed })
        let outcome2 = await command.run(parameter: 1)
        XCTAssertEqual(Outcome(outcome2), .refused(.cannotExecute))

        owner?.isAllowed = true
        let first = Task { await command.run(parameter: 2) }
        await eventually(until: { command.isExecuting }, "the first run started")
        let outcome3 = await command.run(parameter: 3)
        XCTAssertEqual(Outcome(outcome3), .refused(.busy), "one run at a time")
        scheduler.runAll()
        let outcome4 = await first.value
        XCTAssertEqual(Outcome(outcome4), .succeeded(2))

        owner = nil
        let outcome5 = await command.run(parameter: 4)
        XCTAssertEqual(Outcome(outcome5), .refused(.ownerDeallocated))
        XCTAssertEqual(scheduler.pendingCount, 0, "a refused run schedules nothing")
    }

    // MARK: - run(_:): cancelled

    func test_cancelOnTheCommand_makesTheAwaitingRunReturnCancelled_asyncBody() async {
        let owner = CommandTestOwner()
        let started = CommandGate()
        let command = CommandWithResult<Void, Int>(
            delegate: owner,
            task: { _ in
                started.open()
                try await Task.sleep(nanoseconds: 600 * 1_000_000_000)
                return 1
            })
        let awaiting = Task { await command.run() }
        await fulfillment(of: [started.opened()], timeout: 10)
        command.cancel()
        let outcome6 = await awaiting.value
        XCTAssertEqual(Outcome(outcome6), .cancelled)
        XCTAssertFalse(command.isExecuting)
    }

    func test_cancelOnTheCommand_makesTheAwaitingRunReturnCancelled_dispatchBody() async {
        let scheduler = TestScheduler()
        let command = CommandWithResult<Void, Int>(
            queue: scheduler,
            nonisolatedWork: { _, done in
                done(done.isCancelled ? .failure(CancellationError()) : .success(1))
            })
        let awaiting = Task { await command.run() }
        await eventually(until: { command.isExecuting }, "the run started")
        command.cancel()
        scheduler.runAll()
        let outcome7 = await awaiting.value
        XCTAssertEqual(Outcome(outcome7), .cancelled)
        XCTAssertFalse(command.isExecuting)
    }

    func test_cancellingTheAwaitingTask_cancelsTheRun() async {
        let owner = CommandTestOwner()
        let started = CommandGate()
        let command = CommandWithResult<Void, Int>(
            delegate: owner,
            task: { _ in
                started.open()
                try await Task.sleep(nanoseconds: 600 * 1_000_000_000)
                return 1
            })
        let spy = CommandSpy(command, streams: [.executing, .outcomes])
        let awaiting = Task { await command.run() }
        await fulfillment(of: [started.opened()], timeout: 10)
        awaiting.cancel()
        let outcome8 = await awaiting.value
        XCTAssertEqual(Outcome(outcome8), .cancelled)
        XCTAssertFalse(command.isExecuting, "executing until the body has really ended, and no longer")
        await fulfillment(of: [spy.expectation(events: 3)], timeout: 10)
        spy.assertEvents([.executing(false), .executing(true), .cancelled, .executing(false)])
    }

    func test_cancellingTheAwaitingTask_ofAQueuedRun_dropsIt_andLeavesTheRunningOne() async {
        let scheduler = TestScheduler()
        let command = CommandWithResult<Int, Int>(
            queue: scheduler, policy: .enqueue, nonisolatedWork: { value, done in done.succeed(value) })
        let spy = CommandSpy(command, parameter: 0, streams: [.outcomes])
        let first = Task { await command.run(parameter: 1) }
        await eventually(until: { command.isExecuting }, "the first run started")
        let queued = Task { await command.run(parameter: 2) }
        let third = Task { await command.run(parameter: 3) }
        // Both later runs wait behind the first (nothing has stepped the scheduler).
        await eventually(until: { command.queuedRunCount == 2 }, "both later runs are queued")
        queued.cancel()
        let outcome9 = await queued.value
        XCTAssertEqual(Outcome(outcome9), .cancelled, "a queued run is dropped at once")
        scheduler.runAll()
        let outcome10 = await first.value
        XCTAssertEqual(Outcome(outcome10), .succeeded(1))
        let outcome11 = await third.value
        XCTAssertEqual(Outcome(outcome11), .succeeded(3), "the next queued run still runs")
        XCTAssertFalse(command.isExecuting)
        spy.assertEvents([.succeeded, .succeeded], "the dropped run published no outcome")
    }

    func test_cancelOnTheCommand_dropsAQueuedRun_whoseAwaitReturnsCancelled() async {
        let scheduler = TestScheduler()
        let command = CommandWithResult<Int, Int>(
            queue: scheduler, policy: .enqueue,
            nonisolatedWork: { value, done in
                done(done.isCancelled ? .failure(CancellationError()) : .success(value))
            })
        let first = Task { await command.run(parameter: 1) }
        await eventually(until: { command.isExecuting }, "the first run started")
        let queued = Task { await command.run(parameter: 2) }
        await eventually(until: { command.queuedRunCount == 1 }, "the second run is queued")
        command.cancel()
        scheduler.runAll()
        let outcome12 = await first.value
        XCTAssertEqual(Outcome(outcome12), .cancelled)
        let outcome13 = await queued.value
        XCTAssertEqual(Outcome(outcome13), .cancelled)
        XCTAssertFalse(command.isExecuting)
    }

    func test_aTaskCancelledBeforeTheCall_startsNoRun() async {
        let runs = CommandLock(0)
        let command = Command(nonisolatedPerform: { runs.withLock { $0 += 1 } })
        let awaiting = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await command.run()
        }
        guard case .cancelled = await awaiting.value else { return XCTFail("cancelled before it started") }
        XCTAssertEqual(runs.current, 0)
    }

    func test_cancelRunning_cancelsTheEarlierAwaitedRun() async {
        let owner = CommandTestOwner()
        let command = CommandWithResult<Int, Int>(
            delegate: owner, policy: .cancelRunning,
            task: { _, value in
                try await Task.sleep(nanoseconds: value == 1 ? 600 * 1_000_000_000 : 1_000_000)
                return value
            })
        let first = Task { await command.run(parameter: 1) }
        await eventually(until: { command.isExecuting }, "the first run started")
        let second = await command.run(parameter: 2)
        XCTAssertEqual(Outcome(second), .succeeded(2))
        let outcome14 = await first.value
        XCTAssertEqual(Outcome(outcome14), .cancelled, "replaced by the newer run")
    }

    // MARK: - Memory

    func test_anAwaitedRun_leavesNothingBehind() async {
        await assertDeallocated(timeout: 10) {
            let owner = CommandTestOwner()
            let command = CommandWithResult<Int, Int>(
                delegate: owner,
                task: { _, value in
                    await Task.yield()
                    return value
                })
            _ = await command.run(parameter: 1)
            let cancelled = Task { await command.run(parameter: 2) }
            cancelled.cancel()
            _ = await cancelled.value
            return [owner, command]
        }
    }
}
