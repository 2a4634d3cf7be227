import Dispatch
import Foundation
import Ripple
import RippleTestSupport
import RippleTesting
import XCTest

/// What `execute` does while a run is going on: `.ignoreWhileRunning`, `.cancelRunning`,
/// `.enqueue` and `.concurrent(limit:)`.
///
/// Main-actor commands; `async` bodies run on the main actor, so the tests wait for them with
/// `await fulfillment(of:timeout:)`, which lets the main queue turn. (`async` methods of a
/// `@MainActor` class: see ``CommandAsyncTests``.)
@MainActor
final class CommandPolicyTests: XCTestCase {
    /// A command whose Dispatch body logs its parameter and keeps its run for the test to end.
    private func makeCommand(
        _ policy: CommandPolicy, on scheduler: TestScheduler, owner: CommandTestOwner
    ) -> CommandWithParameter<Int> {
        CommandWithParameter<Int>(
            delegate: owner, queue: scheduler, policy: policy,
            work: { owner, value, done in
                owner.log("run \(value)")
                owner.keep(done)
            })
    }

    // MARK: - ignoreWhileRunning

    func test_ignoreWhileRunning_refusesEveryExecuteUntilTheRunEnds() async {
        let scheduler = TestScheduler()
        let owner = CommandTestOwner()
        let command = makeCommand(.ignoreWhileRunning, on: scheduler, owner: owner)
        XCTAssertEqual(command.policy, .ignoreWhileRunning)
        XCTAssertEqual((1...3).map { command.execute(parameter: $0) }, [.started, .refused(.busy), .refused(.busy)])
        scheduler.runAll()
        XCTAssertEqual((4...5).map { command.execute(parameter: $0) }, [.refused(.busy), .refused(.busy)])
        owner.lastRun?.succeed()
        XCTAssertNil(command.execute(parameter: 6).refusal)
        scheduler.runAll()
        owner.lastRun?.succeed()
        XCTAssertEqual(owner.log, ["run 1", "run 6"])
    }

    // MARK: - cancelRunning

    func test_cancelRunning_cancelsTheRunningRun_andStartsTheNewOneAtOnce() async {
        let scheduler = TestScheduler()
        let owner = CommandTestOwner()
        let command = makeCommand(.cancelRunning, on: scheduler, owner: owner)
        let spy = CommandSpy(command, parameter: 0)

        XCTAssertNil(command.execute(parameter: 1).refusal)
        scheduler.runAll()
        let first = try! XCTUnwrap(owner.lastRun)
        XCTAssertTrue(command.canExecute(parameter: 2), "cancelRunning always admits")
        XCTAssertNil(command.execute(parameter: 2).refusal)
        XCTAssertTrue(first.isCancelled, "the old run is cancelled")
        XCTAssertEqual(scheduler.pendingCount, 1, "the new run started at once")
        scheduler.runAll()
        XCTAssertEqual(owner.log, ["run 1", "run 2"])

        first.fail(CancellationError())
        XCTAssertTrue(command.isExecuting, "the new run is still going")
        owner.lastRun?.succeed()
        XCTAssertFalse(command.isExecuting)
        spy.assertEvents(
            [
                .executing(false), .executing(true), .canExecute(true),
                .cancelled, .canExecute(true),
                .succeeded, .executing(false), .canExecute(true),
            ], "one executing period, no flicker between the runs")
    }

    func test_cancelRunning_whileTheOldRunIsStillQueued_theOldBodyNeverRuns() async {
        let scheduler = TestScheduler()
        let owner = CommandTestOwner()
        let command = makeCommand(.cancelRunning, on: scheduler, owner: owner)
        let spy = CommandSpy(command, parameter: 0, streams: [.executing, .outcomes])
        command.execute(parameter: 1)
        command.execute(parameter: 2)
        XCTAssertEqual(scheduler.runAll(), 2)
        owner.lastRun?.succeed()
        XCTAssertEqual(owner.log, ["run 2"])
        spy.assertEvents([.executing(false), .executing(true), .cancelled, .succeeded, .executing(false)])
    }

    func test_cancelRunning_asyncBody_theOldTaskIsCancelled() async {
        let entered = CommandGate()
        let log = CommandLock<[String]>([])
        let command = CommandWithParameter<Int>(
            delegate: commandAnchor, policy: .cancelRunning,
            task: { _, value in
                log.withLock { $0.append("start \(value)") }
                if value == 1 {
                    entered.open()
                    try await Task.sleep(nanoseconds: 600 * 1_000_000_000)
                }
                log.withLock { $0.append("end \(value)") }
            })
        let spy = CommandSpy(command, parameter: 0, streams: [.executing, .outcomes, .errors])
        command.execute(parameter: 1)
        await fulfillment(of: [entered.opened()], timeout: 30)
        command.execute(parameter: 2)
        await fulfillment(of: [spy.expectation(events: 5)], timeout: 10)
        XCTAssertEqual(Set(spy.outcomes), [.cancelled, .succeeded])
        XCTAssertEqual(spy.events.first, .executing(false))
        XCTAssertEqual(
            spy.events.filter { $0.stream == .executing }, [.executing(false), .executing(true), .executing(false)])
        XCTAssertEqual(log.current.filter { $0.hasPrefix("end") }, ["end 2"], "the cancelled run never reached its end")
    }

    /// A `.cancelRunning` command whose Dispatch body keeps each run for the test to end.
    private func keptRunsCommand() -> (TestScheduler, CommandLock<[CommandResultRun<Int>]>, CommandWithResult<Int, Int>)
    {
        let scheduler = TestScheduler()
        let runs = CommandLock<[CommandResultRun<Int>]>([])
        let command = CommandWithResult<Int, Int>(
            queue: scheduler, policy: .cancelRunning,
            nonisolatedWork: { _, done in runs.withLock { $0.append(done) } })
        return (scheduler, runs, command)
    }

    /// Issue 43, bug 5: "latest wins". A replaced run whose body ignores the cancellation and
    /// returns a value anyway, after the newer run, publishes nothing and ends cancelled; its
    /// awaiting call returns `.cancelled`. (Before the fix, `results` gave `[2, 1]`.)
    func test_cancelRunning_aReplacedRunThatIgnoresTheCancellation_publishesNothing() async {
        let (scheduler, runs, command) = keptRunsCommand()
        let results = EventRecorder<Int>()
        let outcomes = EventRecorder<String>()
        let tokens = [
            command.results.subscribe(on: .synchronous) { results.record($0) },
            command.outcomes.subscribe(on: .synchronous) { outcomes.record("\($0)") },
        ]
        let first = Task { await command.run(parameter: 1) }
        await eventually(until: { command.isExecuting }, "the first run started")
        scheduler.runAll()
        XCTAssertNil(command.execute(parameter: 2).refusal)
        scheduler.runAll()
        let (old, new) = runs.withLock { ($0[0], $0[1]) }
        XCTAssertTrue(old.isCancelled)
        new.succeed(2)
        old.succeed(1)  // ignores its cancellation
        XCTAssertEqual(results.events, [2], "only the latest run's value")
        XCTAssertEqual(outcomes.events, ["succeeded", "cancelled"])
        guard case .cancelled = await first.value else { return XCTFail("the replaced run's call returns cancelled") }
        XCTAssertFalse(command.isExecuting)
        withExtendedLifetime(tokens) {}
    }

    /// The same when the old run returns first: it was replaced, so its value is dropped too.
    func test_cancelRunning_aReplacedRunReturningFirst_publishesNothing() {
        let (scheduler, runs, command) = keptRunsCommand()
        let results = EventRecorder<Int>()
        let token = command.results.subscribe(on: .synchronous) { results.record($0) }
        command.execute(parameter: 1)
        scheduler.runAll()
        command.execute(parameter: 2)
        scheduler.runAll()
        runs.current[0].succeed(1)
        XCTAssertTrue(command.isExecuting)
        runs.current[1].succeed(2)
        XCTAssertEqual(results.events, [2])
        XCTAssertFalse(command.isExecuting)
        token.cancel()
    }

    // MARK: - enqueue

    func test_enqueue_runsInOrder_andStaysExecutingAcrossTheQueue() async {
        let scheduler = TestScheduler()
        let owner = CommandTestOwner()
        let command = makeCommand(.enqueue, on: scheduler, owner: owner)
        let spy = CommandSpy(command, parameter: 0, streams: [.executing, .outcomes])

        XCTAssertEqual(
            (1...3).map { command.execute(parameter: $0) }, [.started, .queued, .queued], "queued runs report queued")
        XCTAssertTrue(command.canExecute(parameter: 4), "enqueue always admits")
        XCTAssertEqual(scheduler.pendingCount, 1, "one run at a time")
        for expected in 1...3 {
            scheduler.runAll()
            XCTAssertEqual(owner.log.last, "run \(expected)")
            XCTAssertTrue(command.isExecuting)
            owner.lastRun?.succeed()
        }
        XCTAssertFalse(command.isExecuting)
        XCTAssertEqual(owner.log, ["run 1", "run 2", "run 3"])
        spy.assertEvents([
            .executing(false), .executing(true),
            .succeeded, .succeeded, .succeeded,
            .executing(false),
        ])
    }

    func test_enqueue_syncBody_runsRunsQueuedFromInsideTheBodyInOrder() async {
        let log = CommandLock<[Int]>([])
        var command: CommandWithParameter<Int>!
        defer { command = nil }  // the body captures `command`: break the cycle when the test ends
        command = CommandWithParameter<Int>(
            delegate: commandAnchor, policy: .enqueue,
            perform: { _, value in
                log.withLock { $0.append(value) }
                if value == 1 {
                    XCTAssertNil(command.execute(parameter: 2).refusal)
                    XCTAssertNil(command.execute(parameter: 3).refusal)
                }
            })
        let spy = CommandSpy(command, parameter: 0, streams: [.executing, .outcomes])
        XCTAssertNil(command.execute(parameter: 1).refusal)
        XCTAssertEqual(log.current, [1, 2, 3])
        spy.assertEvents([
            .executing(false), .executing(true),
            .succeeded, .succeeded, .succeeded,
            .executing(false),
        ])
    }

    func test_enqueue_cancel_dropsTheQueue_andCancelsTheRunningRun() async {
        let scheduler = TestScheduler()
        let owner = CommandTestOwner()
        let command = makeCommand(.enqueue, on: scheduler, owner: owner)
        let spy = CommandSpy(command, parameter: 0, streams: [.executing, .outcomes])
        (1...3).forEach { command.execute(parameter: $0) }
        scheduler.runAll()
        command.cancel()
        XCTAssertEqual(owner.lastRun?.isCancelled, true)
        XCTAssertTrue(command.isExecuting, "until the running body ends")
        owner.lastRun?.fail(CancellationError())
        XCTAssertEqual(scheduler.runAll(), 0, "the queued runs were dropped")
        XCTAssertFalse(command.isExecuting)
        XCTAssertEqual(owner.log, ["run 1"])
        spy.assertEvents([.executing(false), .executing(true), .cancelled, .executing(false)])
    }

    func test_enqueue_syncBody_queuedBehindUseWork_runsWhenTheWorkEnds() async {
        let log = CommandLock<[Int]>([])
        let command = CommandWithParameter<Int>(
            delegate: commandAnchor, policy: .enqueue, perform: { _, value in log.withLock { $0.append(value) } })
        let spy = CommandSpy(command, parameter: 0, streams: [.executing, .outcomes])
        let runs = CommandLock<[CommandRun]>([])
        command.useWork { done in runs.withLock { $0.append(done) } }
        XCTAssertNil(command.execute(parameter: 1).refusal, "queued behind the external work")
        runs.current.first?.succeed()
        XCTAssertEqual(log.current, [1])
        XCTAssertFalse(command.isExecuting)
        spy.assertEvents([.executing(false), .executing(true), .succeeded, .succeeded, .executing(false)])
    }

    func test_enqueue_asyncBody_queuedBehindUseWork_runsWhenTheWorkEnds() async {
        let log = CommandLock<[Int]>([])
        let command = CommandWithParameter<Int>(
            delegate: commandAnchor, policy: .enqueue,
            task: { _, value in
                await Task.yield()
                log.withLock { $0.append(value) }
            })
        let spy = CommandSpy(command, parameter: 0, streams: [.executing, .outcomes])
        let runs = CommandLock<[CommandRun]>([])
        command.useWork { done in runs.withLock { $0.append(done) } }
        XCTAssertNil(command.execute(parameter: 1).refusal)
        XCTAssertNil(command.execute(parameter: 2).refusal)
        runs.current.first?.succeed()
        await fulfillment(of: [spy.expectation(events: 6)], timeout: 10)
        XCTAssertEqual(log.current, [1, 2])
        XCTAssertFalse(command.isExecuting)
        spy.assertEvents([.executing(false), .executing(true), .succeeded, .succeeded, .succeeded, .executing(false)])
    }

    func test_ignoreWhileRunning_refusesWhileUseWorkGoesOn() async {
        let command = Command(delegate: commandAnchor, perform: { _ in })
        let runs = CommandLock<[CommandRun]>([])
        command.useWork { done in runs.withLock { $0.append(done) } }
        XCTAssertFalse(command.canExecute())
        XCTAssertNotNil(command.execute().refusal)
        runs.current.first?.succeed()
        XCTAssertTrue(command.canExecute())
        XCTAssertNil(command.execute().refusal)
    }

    func test_enqueue_asyncBodies_runOneAfterAnother() async {
        let log = CommandLock<[String]>([])
        let gate = CommandGate()
        let command = CommandWithParameter<Int>(
            delegate: commandAnchor, policy: .enqueue,
            task: { _, value in
                log.withLock { $0.append("start \(value)") }
                if value == 1 { await gate.wait() }  // keeps the first run going while the others queue
                await Task.yield()
                log.withLock { $0.append("end \(value)") }
            })
        let spy = CommandSpy(command, parameter: 0, streams: [.executing, .outcomes])
        (1...3).forEach { XCTAssertNil(command.execute(parameter: $0).refusal) }
        gate.open()
        await fulfillment(of: [spy.expectation(events: 6)], timeout: 10)
        XCTAssertEqual(log.current, ["start 1", "end 1", "start 2", "end 2", "start 3", "end 3"])
        spy.assertEvents([
            .executing(false), .executing(true),
            .succeeded, .succeeded, .succeeded,
            .executing(false),
        ])
    }

    // MARK: - concurrent(limit:)

    func test_concurrent_admitsUpToTheLimit() async {
        let scheduler = TestScheduler()
        let owner = CommandTestOwner()
        let command = makeCommand(.concurrent(limit: 2), on: scheduler, owner: owner)
        let spy = CommandSpy(command, parameter: 0, streams: [.executing, .outcomes])

        XCTAssertEqual((1...3).map { command.execute(parameter: $0) }, [.started, .started, .refused(.busy)])
        XCTAssertFalse(command.canExecute(parameter: 4), "at the limit")
        XCTAssertEqual(scheduler.runAll(), 2)
        XCTAssertEqual(owner.log, ["run 1", "run 2"])

        owner.keptRuns[0].succeed()
        XCTAssertTrue(command.canExecute(parameter: 4), "below the limit again")
        XCTAssertNil(command.execute(parameter: 4).refusal)
        scheduler.runAll()
        owner.keptRuns[1].succeed()
        XCTAssertTrue(command.isExecuting)
        owner.keptRuns[2].succeed()
        XCTAssertFalse(command.isExecuting)
        XCTAssertEqual(owner.log, ["run 1", "run 2", "run 4"])
        spy.assertEvents([
            .executing(false), .executing(true),
            .succeeded, .succeeded, .succeeded,
            .executing(false),
        ])
    }

    func test_concurrent_canExecuteChangesFiresWhenTheLimitIsReachedAndLeft() async {
        let scheduler = TestScheduler()
        let owner = CommandTestOwner()
        let command = makeCommand(.concurrent(limit: 2), on: scheduler, owner: owner)
        let spy = CommandSpy(command, parameter: 0, streams: [.canExecute])
        command.execute(parameter: 1)
        command.execute(parameter: 2)  // reaches the limit: canExecute turns false
        scheduler.runAll()
        owner.keptRuns[0].succeed()  // leaves it: true again
        command.execute(parameter: 3)  // reaches it again
        scheduler.runAll()
        owner.keptRuns[1].succeed()
        owner.keptRuns[2].succeed()
        spy.assertEvents([
            .canExecute(true), .canExecute(false),
            .canExecute(true), .canExecute(false),
            .canExecute(true), .canExecute(true),
        ])
    }

    func test_concurrent_onARealQueue_runsTwoBodiesAtTheSameTime() async {
        let inside = CommandLock(0)
        let bothInside = CommandGate()
        let command = CommandWithParameter<Int>(
            delegate: commandAnchor, queue: DispatchQueue.global(), policy: .concurrent(limit: 2),
            work: { _, _, done in
                if inside.withLock({
                    $0 += 1
                    return $0
                }) == 2 {
                    bothInside.open()
                }
                // Each body waits for the other: only concurrent runs get past this.
                bothInside.waitBlocking() ? done.succeed() : done.fail(CommandTestError(99))
            })
        let spy = CommandSpy(command, parameter: 0, streams: [.outcomes, .errors])
        XCTAssertNil(command.execute(parameter: 1).refusal)
        XCTAssertNil(command.execute(parameter: 2).refusal)
        spy.recorder.waitForCount(2)
        spy.assertEvents([.succeeded, .succeeded])
    }
}
