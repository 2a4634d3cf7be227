import Dispatch
import Foundation
import Ripple
import RippleTestSupport
import RippleTesting
import XCTest

/// Atomic check-and-start under racing `execute` calls, `cancel()` racing the start of a run, and a
/// ThreadSanitizer stress test of every public operation from four threads.
///
/// Nonisolated commands (`nonisolatedPerform:`, `nonisolatedWork:`, `nonisolatedTask:`): the commands whose every method works from
/// any thread, with the check-and-start on the calling thread. (``CommandMainActorRaceTests``
/// races a main-actor command.)
final class CommandRaceTests: XCTestCase {
    // MARK: - Racing executes start one run

    func test_racingExecutes_startExactlyOneRun_dispatchBodyOnATestScheduler() {
        for round in 1...20 {
            let scheduler = TestScheduler()
            let owner = CommandTestOwner()
            let command = Command(queue: scheduler, nonisolatedWork: { _, done in owner.keep(done) })
            let spy = CommandSpy(command, streams: [.executing, .outcomes])
            let started = CommandLock(0)
            DispatchQueue.concurrentPerform(iterations: 1000) { _ in
                if command.execute().refusal == nil { started.withLock { $0 += 1 } }
            }
            XCTAssertEqual(started.current, 1, "round \(round): execute reported one start")
            XCTAssertEqual(scheduler.pendingCount, 1, "round \(round): one body scheduled")
            scheduler.runAll()
            XCTAssertEqual(owner.keptRuns.count, 1, "round \(round): one body ran")
            owner.lastRun?.succeed()
            spy.assertEvents([.executing(false), .executing(true), .succeeded, .executing(false)], "round \(round)")
        }
    }

    func test_racingExecutes_startExactlyOneRun_syncBodyThatBlocks() {
        for round in 1...20 {
            let release = DispatchSemaphore(value: 0)
            let bodies = CommandLock(0)
            let command = Command(nonisolatedPerform: {
                bodies.withLock { $0 += 1 }
                // Blocks until every other execute has been refused (or a safety-net timeout).
                _ = release.wait(timeout: .now() + 30)
            })
            let started = CommandLock(0)
            let refused = CommandLock(0)
            DispatchQueue.concurrentPerform(iterations: 1000) { _ in
                if command.execute().refusal == nil {
                    started.withLock { $0 += 1 }
                } else if refused.withLock({
                    $0 += 1
                    return $0
                }) == 999 {
                    release.signal()
                }
            }
            XCTAssertEqual(started.current, 1, "round \(round)")
            XCTAssertEqual(bodies.current, 1, "round \(round)")
            XCTAssertFalse(command.isExecuting)
        }
    }

    func test_racingExecutes_startExactlyOneRun_asyncBodyThatWaits() {
        for round in 1...20 {
            let gate = CommandGate()
            let bodies = CommandLock(0)
            let command = Command(nonisolatedTask: {
                bodies.withLock { $0 += 1 }
                await gate.wait()
            })
            let spy = CommandSpy(command, streams: [.outcomes])
            let started = CommandLock(0)
            DispatchQueue.concurrentPerform(iterations: 1000) { _ in
                if command.execute().refusal == nil { started.withLock { $0 += 1 } }
            }
            XCTAssertEqual(started.current, 1, "round \(round)")
            gate.open()
            spy.recorder.waitForCount(1)
            XCTAssertEqual(bodies.current, 1, "round \(round)")
        }
    }

    func test_racingExecutes_underConcurrentLimit_startExactlyTheLimit() {
        for round in 1...20 {
            let scheduler = TestScheduler()
            let command = CommandWithParameter<Int>(
                queue: scheduler, policy: .concurrent(limit: 3), nonisolatedWork: { _, done in done.succeed() })
            let started = CommandLock(0)
            DispatchQueue.concurrentPerform(iterations: 1000) { index in
                if command.execute(parameter: index).refusal == nil { started.withLock { $0 += 1 } }
            }
            XCTAssertEqual(started.current, 3, "round \(round)")
            XCTAssertEqual(scheduler.runAll(), 3, "round \(round)")
            XCTAssertFalse(command.isExecuting)
        }
    }

    func test_racingExecutes_underCancelRunning_onlyTheLastRunSurvives() {
        let scheduler = TestScheduler()
        let bodies = CommandLock<[Int]>([])
        let command = CommandWithParameter<Int>(
            queue: scheduler, policy: .cancelRunning,
            nonisolatedWork: { value, done in
                bodies.withLock { $0.append(value) }
                done.succeed()
            })
        let spy = CommandSpy(command, parameter: 0, streams: [.outcomes, .errors])
        DispatchQueue.concurrentPerform(iterations: 200) { index in
            XCTAssertNil(command.execute(parameter: index).refusal)
        }
        XCTAssertEqual(scheduler.runAll(), 200)
        XCTAssertEqual(bodies.current.count, 1, "every run but the newest was cancelled before it started")
        XCTAssertEqual(spy.outcomes.filter { $0 == .cancelled }.count, 199)
        XCTAssertEqual(spy.outcomes.filter { $0 == .succeeded }.count, 1)
        XCTAssertFalse(command.isExecuting)
    }

    // MARK: - cancel() racing the start of an async run

    /// `cancel()` that sees a run must cancel its task, even when it races the moment the task is
    /// created. Symptom of the bug: the run is marked cancelled (its outcome is `.cancelled`), but
    /// its task never was.
    ///
    /// The body waits, without being cancellable, for a gate the test opens once both `execute` and
    /// `cancel()` have returned, then looks at its task: by then a cancel that saw the run has
    /// cancelled the task, or left the flag that cancels it as it is attached. (No sleep decides
    /// the order, so a slow thread, under ThreadSanitizer say, cannot fake the symptom.)
    func test_cancelRacingExecute_alwaysCancelsTheTaskOfARunItSaw() {
        var symptoms = 0
        var cancelledRuns = 0
        for _ in 0..<2000 {
            let gate = CommandGate()
            let taskWasCancelled = CommandLock<Bool?>(nil)
            let command = Command(nonisolatedTask: {
                await gate.wait()
                taskWasCancelled.withLock { $0 = Task.isCancelled }
                throw CommandTestError(31)
            })
            let spy = CommandSpy(command, streams: [.outcomes, .errors])
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                if thread == 0 { command.execute() } else { command.cancel() }
            }
            gate.open()
            spy.recorder.waitForCount(1)
            if spy.outcomes == [.cancelled] {
                cancelledRuns += 1
                if taskWasCancelled.current == false { symptoms += 1 }
            }
        }
        XCTAssertEqual(
            symptoms, 0,
            "cancel() racing an async run's start marked \(symptoms) of \(cancelledRuns) cancelled run(s)"
                + " cancelled without cancelling their task")
    }

    // MARK: - Sync runs while subscribers come and go

    // Subscribers that arrive or leave while a sync run goes on, under `.ignoreWhileRunning` or
    // `.concurrent`: each sees a consistent history. (These once crossed the line between the
    // lock-free sync path, taken while nobody observed the command, and the locked one; that path
    // is gone, and the behaviour they check is the contract.)

    func test_syncRun_subscriberArrivingDuringTheRun_seesItRunningAndThenEnding() {
        let box = CommandLock<CommandWithParameter<Int>?>(nil)
        let spy = CommandLock<CommandSpy<Int, Void>?>(nil)
        let checks = CommandLock<[Bool]>([])
        let command = CommandWithParameter<Int>(nonisolatedPerform: { _ in
            guard let command = box.current, spy.current == nil else { return }
            checks.withLock { $0 += [command.isExecuting, command.canExecute(parameter: 0)] }
            spy.withLock { $0 = CommandSpy(command, parameter: 0, streams: [.executing, .canExecute, .outcomes]) }
        })
        box.withLock { $0 = command }
        defer { box.withLock { $0 = nil } }  // the body's reference to its command is a cycle

        XCTAssertNil(command.execute(parameter: 0).refusal)
        XCTAssertEqual(checks.current, [true, false], "unobserved, the run shows from inside its body")
        XCTAssertNotNil(spy.current)
        spy.current?.assertEvents([.executing(true), .succeeded, .executing(false), .canExecute(true)])
        XCTAssertFalse(command.isExecuting)
        XCTAssertNil(command.execute(parameter: 0).refusal, "observed now: the subscriber sees the whole run")
        spy.current?.assertEvents([
            .executing(true), .succeeded, .executing(false), .canExecute(true),
            .executing(true), .canExecute(false), .succeeded, .executing(false), .canExecute(true),
        ])
    }

    func test_syncRun_subscriberLeavingDuringTheRun_theRunEndsUnobserved() {
        let box = CommandLock<CommandSpy<Int, Void>?>(nil)
        let command = CommandWithParameter<Int>(nonisolatedPerform: { _ in box.current?.stop() })
        let spy = CommandSpy(command, parameter: 0, streams: [.executing, .outcomes])
        box.withLock { $0 = spy }

        XCTAssertNil(command.execute(parameter: 0).refusal)
        XCTAssertFalse(command.isExecuting)
        XCTAssertTrue(command.canExecute(parameter: 0))
        XCTAssertNil(command.execute(parameter: 0).refusal, "unobserved again")
        XCTAssertFalse(command.isExecuting)
        spy.assertEvents([.executing(false), .executing(true)])
    }

    func test_syncRun_thatThrows_withOnlyAnErrorsSubscriber_reportsTheErrorAndEnds() {
        let command = CommandWithParameter<Int>(nonisolatedPerform: { code in throw CommandTestError(code) })
        let spy = CommandSpy(command, parameter: 0, streams: [.errors])  // nobody observes the executing state

        XCTAssertNil(command.execute(parameter: 1).refusal)
        XCTAssertNil(command.execute(parameter: 2).refusal)
        XCTAssertFalse(command.isExecuting)
        XCTAssertTrue(command.canExecute(parameter: 0))
        spy.assertEvents([.error(1), .error(2)])
    }

    func test_syncRun_isRefusedWhileBoundWorkGoesOn() {
        let bodies = CommandLock(0)
        let command = CommandWithParameter<Int>(nonisolatedPerform: { _ in bodies.withLock { $0 += 1 } })
        let work = CommandLock<CommandRun?>(nil)
        command.useWork { done in work.withLock { $0 = done } }

        XCTAssertTrue(command.isExecuting)
        XCTAssertFalse(command.canExecute(parameter: 0))
        XCTAssertNotNil(command.execute(parameter: 0).refusal)
        work.current?.succeed()
        XCTAssertFalse(command.isExecuting)
        XCTAssertNil(command.execute(parameter: 0).refusal)
        XCTAssertEqual(bodies.current, 1)
    }

    /// Runs under `.ignoreWhileRunning` never overlap, and each run sees what the runs before it
    /// wrote: the start of a run synchronizes with the end of the previous one. (Under
    /// ThreadSanitizer, a missing happens-before edge is reported as a race here.)
    func test_syncRuns_onTwoThreads_seeEachOthersWrites() {
        final class Tally: @unchecked Sendable {
            // @unchecked: written only inside the command's bodies, which never overlap.
            var value = 0
        }
        let tally = Tally()
        let command = CommandWithParameter<Int>(nonisolatedPerform: { _ in tally.value += 1 })
        let started = CommandLock(0)
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            var mine = 0
            for _ in 0..<20_000 where command.execute(parameter: 0).refusal == nil { mine += 1 }
            started.withLock { $0 += mine }
        }
        XCTAssertEqual(tally.value, started.current)
        XCTAssertGreaterThan(started.current, 0)
    }

    func test_stress_syncRuns_withSubscribersComingAndGoing_neverExceedTheLimit() {
        for limit in [1, 3] {
            let policy: CommandPolicy = limit == 1 ? .ignoreWhileRunning : .concurrent(limit: limit)
            let inBody = CommandLock(0)
            let mostInBody = CommandLock(0)
            let command = CommandWithParameter<Int>(
                policy: policy,
                nonisolatedPerform: { _ in
                    let now = inBody.withLock {
                        $0 += 1
                        return $0
                    }
                    mostInBody.withLock { $0 = max($0, now) }
                    inBody.withLock { $0 -= 1 }
                })
            let histories = CommandLock<[[Bool]]>([])
            DispatchQueue.concurrentPerform(iterations: 4) { thread in
                if thread < 3 {
                    for _ in 0..<3000 { command.execute(parameter: thread) }
                    return
                }
                for _ in 0..<300 {
                    let history = CommandLock<[Bool]>([])
                    let token = command.executingChanges.subscribe(on: .synchronous) { value in
                        history.withLock { $0.append(value) }
                    }
                    _ = command.canExecute(parameter: 0)
                    token.cancel()
                    histories.withLock { $0.append(history.current) }
                }
            }
            XCTAssertLessThanOrEqual(mostInBody.current, limit, "policy \(policy)")
            XCTAssertFalse(command.isExecuting, "policy \(policy)")
            XCTAssertTrue(command.canExecute(parameter: 0), "policy \(policy)")
            for history in histories.current {
                XCTAssertTrue(
                    zip(history, history.dropFirst()).allSatisfy { $0 != $1 },
                    "policy \(policy): each subscription's history alternates: \(history)")
            }
            // A subscriber now sees the runs start and end.
            let spy = CommandSpy(command, parameter: 0, streams: [.executing, .outcomes])
            XCTAssertNil(command.execute(parameter: 0).refusal)
            spy.assertEvents([.executing(false), .executing(true), .succeeded, .executing(false)], "policy \(policy)")
            spy.stop()
        }
    }

    // MARK: - Stress (run it under ThreadSanitizer)

    enum BodyKind: CaseIterable {
        case sync, dispatch, async
    }

    func test_stress_fourThreadsExecuteCancelAndRaise_everyPolicyAndBody() {
        let policies: [CommandPolicy] = [.ignoreWhileRunning, .cancelRunning, .enqueue, .concurrent(limit: 2)]
        for policy in policies {
            for kind in BodyKind.allCases {
                stress(policy: policy, kind: kind, iterations: kind == .sync ? 1500 : 400)
            }
        }
    }

    private func stress(policy: CommandPolicy, kind: BodyKind, iterations: Int) {
        let context = "\(policy), \(kind) body"
        let command: CommandWithParameter<Int>
        switch kind {
        case .sync:
            command = CommandWithParameter<Int>(policy: policy, nonisolatedPerform: { _ in }, canExecute: { $0 >= 0 })
        case .dispatch:
            command = CommandWithParameter<Int>(
                queue: DispatchQueue.global(),
                policy: policy,
                nonisolatedWork: { _, done in done.isCancelled ? done.fail(CancellationError()) : done.succeed() },
                canExecute: { $0 >= 0 })
        case .async:
            command = CommandWithParameter<Int>(
                policy: policy,
                nonisolatedTask: { _ in
                    await Task.yield()
                    try Task.checkCancellation()
                },
                canExecute: { $0 >= 0 })
        }
        let spy = CommandSpy(command, parameter: 0)
        let accepted = CommandLock(0)
        let external = CommandLock(0)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 0..<iterations {
                switch thread {
                case 0:
                    if command.execute(parameter: index).refusal == nil { accepted.withLock { $0 += 1 } }
                case 1:
                    if command.execute(parameter: index).refusal == nil { accepted.withLock { $0 += 1 } }
                    if index % 7 == 0 { command.cancel() }
                case 2:
                    command.raiseCanExecuteChanged()
                    _ = command.canExecute(parameter: index)
                    _ = command.isExecuting
                    if index % 50 == 0 {
                        command.executingChanges.subscribe(on: .synchronous) { _ in }.cancel()
                    }
                default:
                    if command.execute(parameter: -1) != .refused(.cannotExecute) {
                        XCTFail("the predicate refuses -1")
                    }
                    if command.execute(parameter: index).refusal == nil { accepted.withLock { $0 += 1 } }
                    if index % 13 == 0 { command.cancel() }
                    // External work; under .enqueue, parameters queue behind it too.
                    if index % 29 == 0 {
                        external.withLock { $0 += 1 }
                        command.useWork { done in DispatchQueue.global().async { done.succeed() } }
                    }
                }
            }
        }
        let deadline = Date(timeIntervalSinceNow: 60)
        while command.isExecuting && Date() < deadline { usleep(1_000) }
        XCTAssertFalse(command.isExecuting, "\(context): every run ended")
        let runs = accepted.current + external.current
        if case .enqueue = policy {
            // Queued parameters that cancel() dropped never produce an outcome.
            while spy.outcomes.count < external.current && Date() < deadline { usleep(1_000) }
            XCTAssertLessThanOrEqual(spy.outcomes.count, runs, context)
        } else {
            while spy.outcomes.count < runs && Date() < deadline { usleep(1_000) }
            XCTAssertEqual(spy.outcomes.count, runs, "\(context): one outcome per started run")
        }
        XCTAssertTrue(spy.outcomes.allSatisfy { $0 == .succeeded || $0 == .cancelled }, context)
        XCTAssertEqual(spy.events.filter { $0.stream == .errors }, [], context)

        // The executing history alternates, starting and ending with `false`: no value repeats.
        // Read it once every change is delivered: the thread that ended the last run may still be
        // handing over its `true` and `false` after this one saw the command idle, and an earlier
        // `false` would then look like the last (this failed once under AddressSanitizer).
        while (command.isDeliveringExecutingChanges
            || spy.events.last(where: { $0.stream == .executing }) != .executing(false)) && Date() < deadline
        {
            usleep(1_000)
        }
        var executing: [Bool] = []
        for case .executing(let value) in spy.events {
            executing.append(value)
        }
        XCTAssertEqual(executing.first, false, context)
        XCTAssertEqual(executing.last, false, context)
        XCTAssertTrue(
            zip(executing, executing.dropFirst()).allSatisfy { $0 != $1 },
            "\(context): \(executing.count) values alternate")
        XCTAssertTrue(command.canExecute(parameter: 0), context)
        spy.stop()
    }
}

/// A main-actor command executed from several background threads at once: each call hands its
/// check-and-start to the main queue, where the calls are serialized, so the policy sees them one
/// at a time, and the bodies run on the main thread. (`async` methods: see ``CommandAsyncTests``.)
@MainActor
final class CommandMainActorRaceTests: XCTestCase {
    /// Calls `execute` from `threads` background threads at once and waits, with the main queue
    /// turning, until every call has returned and every hop it queued has run.
    ///
    /// - Returns: What each call returned.
    private func executeFromBackgroundThreads(_ command: Command, threads: Int, round: Int) async -> [CommandExecution]
    {
        let returned = CommandLock<[CommandExecution]>([])
        let allReturned = XCTestExpectation(description: "round \(round): every execute returned")
        DispatchQueue.global().async {
            DispatchQueue.concurrentPerform(iterations: threads) { _ in
                let result = command.execute()
                returned.withLock { $0.append(result) }
            }
            allReturned.fulfill()
        }
        await fulfillment(of: [allReturned], timeout: 30)
        // Every hop was queued before this block: once it has run, each call has checked and
        // started, or been refused, on the main queue.
        await fulfillment(of: [mainQueueFlushed()], timeout: 30)
        return returned.current
    }

    func test_racingExecutesFromBackgroundThreads_startExactlyOneRun_onTheMainThread() async {
        for round in 1...20 {
            let gate = CommandGate()
            let bodies = CommandLock<[Bool]>([])
            let predicates = CommandLock<[Bool]>([])
            let command = Command(
                delegate: commandAnchor,
                task: { _ in
                    bodies.withLock { $0.append(Thread.isMainThread) }
                    await gate.wait()
                },
                canExecute: { _ in
                    predicates.withLock { $0.append(Thread.isMainThread) }
                    return true
                })
            let spy = CommandSpy(command, streams: [.executing, .outcomes])

            let returned = await executeFromBackgroundThreads(command, threads: 8, round: round)

            XCTAssertEqual(
                returned, Array(repeating: .handedToMainActor, count: 8),
                "round \(round): each call was handed to the main queue")
            XCTAssertEqual(
                predicates.current, Array(repeating: true, count: 8),
                "round \(round): every check ran on the main thread")
            XCTAssertTrue(command.isExecuting, "round \(round)")
            gate.open()
            await fulfillment(of: [spy.expectation(events: 4)], timeout: 10)
            XCTAssertEqual(
                bodies.current, [true], "round \(round): one run started, and its body ran on the main thread")
            spy.assertEvents([.executing(false), .executing(true), .succeeded, .executing(false)], "round \(round)")
            XCTAssertFalse(command.isExecuting, "round \(round)")
        }
    }

    func test_racingExecutesFromBackgroundThreads_syncBody_runsOneAfterAnotherOnTheMainThread() async {
        // A sync body ends before the next hop is taken off the main queue: each call starts a run,
        // and the runs never overlap.
        for round in 1...20 {
            let inBody = CommandLock(0)
            let runs = CommandLock<[String]>([])
            let command = Command(
                delegate: commandAnchor,
                perform: { _ in
                    let overlapping =
                        inBody.withLock {
                            $0 += 1
                            return $0
                        } > 1
                    runs.withLock { $0.append("main \(Thread.isMainThread), overlapping \(overlapping)") }
                    inBody.withLock { $0 -= 1 }
                })
            let spy = CommandSpy(command, streams: [.outcomes])

            let returned = await executeFromBackgroundThreads(command, threads: 8, round: round)

            XCTAssertEqual(returned, Array(repeating: .handedToMainActor, count: 8), "round \(round)")
            XCTAssertEqual(runs.current, Array(repeating: "main true, overlapping false", count: 8), "round \(round)")
            XCTAssertEqual(spy.outcomes, Array(repeating: .succeeded, count: 8), "round \(round)")
            XCTAssertFalse(command.isExecuting, "round \(round)")
        }
    }
}
