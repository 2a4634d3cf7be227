import Dispatch
import Foundation
import Ripple
import RippleTestSupport
import RippleTesting
import XCTest

/// `CommandWithResult`: each value a body returns reaches `results`; everything else is the
/// wrapped command's contract.
///
/// Main-actor commands unless a test says otherwise; `async` bodies run on the main actor, so the
/// tests wait for them with `await fulfillment(of:timeout:)`, which lets the main queue turn.
/// (`async` methods of a `@MainActor` class: see ``CommandAsyncTests``.)
@MainActor
final class CommandResultTests: XCTestCase {
    func test_syncBody_publishesEachValue_beforeTheRunEnds() async {
        let command = CommandWithResult<Int, String>(delegate: commandAnchor, perform: { _, value in "value \(value)" })
        let history = EventRecorder<String>()
        let tokens = [
            command.results.subscribe(on: .synchronous) { [weak command] value in
                history.record("\(value), executing \(command?.isExecuting ?? false)")
            },
            command.outcomes.subscribe(on: .synchronous) { history.record("outcome \(OutcomeRecord($0))") },
        ]
        XCTAssertNil(command.execute(parameter: 1).refusal)
        XCTAssertNil(command.execute(parameter: 2).refusal)
        history.assertEvents([
            "value 1, executing true", "outcome succeeded",
            "value 2, executing true", "outcome succeeded",
        ])
        tokens.forEach { $0.cancel() }
    }

    func test_ownerBodies_ofEveryKind_publishTheirValue() async {
        let scheduler = TestScheduler()
        let owner = CommandTestOwner()
        let sync = CommandWithResult<Int, Int>(delegate: owner, perform: { _, value in value * 10 })
        let dispatch = CommandWithResult<Int, Int>(
            delegate: owner, queue: scheduler,
            work: { _, value, done in
                done(.success(value * 100))
            })
        let async = CommandWithResult<Int, Int>(
            delegate: owner,
            task: { _, value in
                await Task.yield()
                return value * 1000
            })
        let values = EventRecorder<Int>()
        let tokens = [sync, dispatch, async].map { $0.results.subscribe(on: .synchronous) { values.record($0) } }
        sync.execute(parameter: 1)
        dispatch.execute(parameter: 2)
        XCTAssertTrue(dispatch.isExecuting)
        scheduler.runAll()
        XCTAssertFalse(dispatch.isExecuting)
        async.execute(parameter: 3)
        await fulfillment(of: [values.expectation(count: 3)], timeout: 10)
        values.assertEvents([10, 200, 3000])
        tokens.forEach { $0.cancel() }
    }

    func test_ownerlessBodies_ofEveryKind_publishTheirValue() async {
        let scheduler = TestScheduler()
        let dispatch = CommandWithResult<Int, Int>(
            queue: scheduler, nonisolatedWork: { value, done in done(.success(-value)) })
        let async = CommandWithResult<Int, Int>(nonisolatedTask: { value in
            await Task.yield()
            return value + 1
        })
        let values = EventRecorder<Int>()
        let tokens = [dispatch, async].map { $0.results.subscribe(on: .synchronous) { values.record($0) } }
        dispatch.execute(parameter: 5)
        scheduler.runAll()
        async.execute(parameter: 7)
        await fulfillment(of: [values.expectation(count: 2)], timeout: 10)
        values.assertEvents([-5, 8])
        tokens.forEach { $0.cancel() }
    }

    func test_failedRun_publishesNoValue_andTheErrorReachesErrors() async {
        let command = CommandWithResult<Int, Int>(
            delegate: commandAnchor,
            perform: { _, value in
                if value < 0 { throw CommandTestError(value) }
                return value
            })
        let values = EventRecorder<Int>()
        let token = command.results.subscribe(on: .synchronous) { values.record($0) }
        let spy = CommandSpy(command, parameter: 0, streams: [.errors, .outcomes])
        command.execute(parameter: -3)
        command.execute(parameter: 4)
        values.assertEvents([4])
        spy.assertEvents([.error(-3), .failed(-3), .succeeded])
        token.cancel()
    }

    func test_dispatchRun_onlyTheFirstEndCounts_andAValueAfterAThrowIsDropped() async {
        let scheduler = TestScheduler()
        let runs = CommandLock<[CommandResultRun<Int>]>([])
        let command = CommandWithResult<Int, Int>(
            delegate: commandAnchor, queue: scheduler,
            work: { _, value, done in
                runs.withLock { $0.append(done) }
                if value < 0 { throw CommandTestError(value) }
            })
        let values = EventRecorder<Int>()
        let token = command.results.subscribe(on: .synchronous) { values.record($0) }
        let spy = CommandSpy(command, parameter: 0, streams: [.errors, .outcomes])
        command.execute(parameter: 1)
        scheduler.runAll()
        runs.current[0](.success(1))
        runs.current[0](.success(2))
        runs.current[0](.failure(CommandTestError(9)))
        XCTAssertTrue(runs.current[0].isFinished)
        command.execute(parameter: -1)
        scheduler.runAll()
        runs.current[1](.success(3))
        values.assertEvents([1])
        spy.assertEvents([.succeeded, .error(-1), .failed(-1)])
        token.cancel()
    }

    func test_cancelledDispatchRun_seesTheCancellation() async {
        let scheduler = TestScheduler()
        let runs = CommandLock<[CommandResultRun<Int>]>([])
        let command = CommandWithResult<Void, Int>(
            delegate: commandAnchor, queue: scheduler, work: { _, _, done in runs.withLock { $0.append(done) } })
        let spy = CommandSpy(command, streams: [.outcomes])
        XCTAssertNil(command.execute().refusal)
        scheduler.runAll()
        command.cancel()
        XCTAssertEqual(runs.current.first?.isCancelled, true)
        runs.current.first?(.failure(CancellationError()))
        XCTAssertFalse(command.isExecuting)
        spy.assertEvents([.cancelled])
    }

    func test_sharesTheCommandsState_andWorksThroughCommandType() async {
        let owner = CommandTestOwner()
        let gate = CommandGate()
        let command = CommandWithResult<Void, Int>(
            delegate: owner,
            policy: .ignoreWhileRunning,
            task: { _, _ in
                await gate.wait()
                return 1
            },
            canExecute: { owner, _ in owner.isAllowed })
        XCTAssertEqual(command.policy, .ignoreWhileRunning)
        XCTAssertTrue(command.canExecute())
        owner.isAllowed = false
        XCTAssertFalse(command.canExecute())
        XCTAssertEqual(Self.executeThroughTheProtocol(command, ()), .refused(.cannotExecute))
        owner.isAllowed = true
        let spy = CommandSpy(command, streams: [.executing, .outcomes])
        XCTAssertEqual(Self.executeThroughTheProtocol(command, ()), .started)
        XCTAssertTrue(command.isExecuting)
        XCTAssertEqual(command.execute(), .refused(.busy), "ignored while running")
        gate.open()
        await fulfillment(of: [spy.expectation(events: 4)], timeout: 10)
        spy.assertEvents([.executing(false), .executing(true), .succeeded, .executing(false)])
    }

    func test_streams_deliverOnTheMainQueueByDefault() async {
        // A nonisolated command, so that the run, and every event, starts on a background thread.
        let command = CommandWithResult<Void, Int>(nonisolatedPerform: { _ in 7 })
        let heard = EventRecorder<String>()
        let tokens = [
            command.results.subscribe { heard.record("result \($0) on main \(Thread.isMainThread)") },
            command.executingChanges.subscribe { heard.record("executing \($0) on main \(Thread.isMainThread)") },
        ]
        DispatchQueue.global().async { command.execute() }
        await fulfillment(of: [heard.expectation(count: 4)], timeout: 10)
        XCTAssertEqual(
            Set(heard.events),
            ["executing false on main true", "executing true on main true", "result 7 on main true"])
        tokens.forEach { $0.cancel() }
    }

    func test_commandWithResult_itsOwnerAndSubscriptions_deallocate() async {
        let scheduler = TestScheduler()
        await assertDeallocated {
            let owner = CommandTestOwner()
            let command = CommandWithResult<Int, Int>(
                delegate: owner, queue: scheduler,
                work: { _, value, done in
                    done(.success(value))
                })
            let token = command.results.subscribe(on: .synchronous) { _ in }
            command.execute(parameter: 1)
            scheduler.runAll()
            return [owner, command, token]
        }
    }

    /// Two runs end at once on two threads: A succeeds first, and its value is being delivered
    /// (the subscriber holds it) when B fails. `outcomes` must list A before B, as `results` and
    /// `errors` saw them: once, A's value reached `results` in one critical section and its outcome
    /// `outcomes` in another, and B's outcome slipped in between.
    func test_runsEndingAtOnce_reachResultsAndOutcomesInOneOrder() {
        let command = CommandWithResult<Int, Int>(policy: .concurrent(limit: 2), nonisolatedPerform: { $0 })
        var handles: [CommandResultRun<Int>] = []
        command.useWork { handles.append($0) }
        command.useWork { handles.append($0) }
        let (runA, runB) = (handles[0], handles[1])
        let valueHeld = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let outcomes = EventRecorder<String>()
        let tokens = [
            command.results.subscribe(on: .synchronous) { _ in
                valueHeld.signal()
                release.wait()
            },
            command.outcomes.subscribe(on: .synchronous) { outcomes.record("\(OutcomeRecord($0))") },
            command.errors.subscribe(on: .synchronous) { _ in },
        ]
        runOnThreads(2) { thread in
            if thread == 0 {
                runA.succeed(1)
            } else {
                valueHeld.wait()
                runB.fail(CommandTestError(2))
                release.signal()
            }
        }
        outcomes.assertEvents(["succeeded", "failed(CommandTestError(2))"])
        XCTAssertFalse(command.isExecuting)
        tokens.forEach { $0.cancel() }
    }

    private static func executeThroughTheProtocol<C: CommandType>(_ command: C, _ parameter: C.Parameter)
        -> CommandExecution
    {
        command.execute(parameter: parameter)
    }
}
