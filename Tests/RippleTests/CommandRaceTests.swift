import Dispatch
import Foundation
import Ripple
import RippleTestSupport
import RippleTesting
import XCTest

/// Atomic check-and-start under racing `execute` calls, `cancel()` racing the start of a run, and a
/// ThreadSanitizer stress test of every public operation from four threads.
final class CommandRaceTests: XCTestCase {
    // MARK: - Racing executes start one run

    func test_racingExecutes_startExactlyOneRun_dispatchBodyOnATestScheduler() {
        for round in 1...20 {
            let scheduler = TestScheduler()
            let owner = CommandTestOwner()
            let command = Command(delegate: owner, queue: scheduler) { owner, done in owner.keep(done) }
            let spy = CommandSpy(command, streams: [.executing, .outcomes])
            let started = CommandLock(0)
            DispatchQueue.concurrentPerform(iterations: 1000) { _ in
                if command.execute() { started.withLock { $0 += 1 } }
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
            let command = Command(handler: {
                bodies.withLock { $0 += 1 }
                // Blocks until every other execute has been refused (or a safety-net timeout).
                _ = release.wait(timeout: .now() + 30)
            })
            let started = CommandLock(0)
            let refused = CommandLock(0)
            DispatchQueue.concurrentPerform(iterations: 1000) { _ in
                if command.execute() {
                    started.withLock { $0 += 1 }
                } else if refused.withLock({ $0 += 1; return $0 }) == 999 {
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
            let command = Command(handler: {
                bodies.withLock { $0 += 1 }
                await gate.wait()
            })
            let spy = CommandSpy(command, streams: [.outcomes])
            let started = CommandLock(0)
            DispatchQueue.concurrentPerform(iterations: 1000) { _ in
                if command.execute() { started.withLock { $0 += 1 } }
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
            let command = CommandWithParameter<Int>(queue: scheduler, policy: .concurrent(limit: 3)) { _, done in done.succeed() }
            let started = CommandLock(0)
            DispatchQueue.concurrentPerform(iterations: 1000) { index in
                if command.execute(parameter: index) { started.withLock { $0 += 1 } }
            }
            XCTAssertEqual(started.current, 3, "round \(round)")
            XCTAssertEqual(scheduler.runAll(), 3, "round \(round)")
            XCTAssertFalse(command.isExecuting)
        }
    }

    func test_racingExecutes_underCancelRunning_onlyTheLastRunSurvives() {
        let scheduler = TestScheduler()
        let bodies = CommandLock<[Int]>([])
        let command = CommandWithParameter<Int>(queue: scheduler, policy: .cancelRunning) { value, done in
            bodies.withLock { $0.append(value) }
            done.succeed()
        }
        let spy = CommandSpy(command, parameter: 0, streams: [.outcomes, .errors])
        DispatchQueue.concurrentPerform(iterations: 200) { index in
            XCTAssertTrue(command.execute(parameter: index))
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
    /// the task never was, and the body runs to its end.
    func test_cancelRacingExecute_alwaysCancelsTheTaskOfARunItSaw() {
        var symptoms = 0
        for _ in 0..<2000 {
            let ranToTheEnd = CommandLock(false)
            let command = Command(handler: {
                try await Task.sleep(nanoseconds: 5_000_000)
                ranToTheEnd.withLock { $0 = true }
                throw CommandTestError(31)
            })
            let spy = CommandSpy(command, streams: [.outcomes, .errors])
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                if thread == 0 { command.execute() } else { command.cancel() }
            }
            spy.recorder.waitForCount(1)
            if ranToTheEnd.current && spy.outcomes == [.cancelled] { symptoms += 1 }
        }
        XCTAssertEqual(
            symptoms, 0,
            "cancel() racing an async run's start marked \(symptoms) run(s) cancelled without cancelling"
                + " their task: the body ran to its end")
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
            command = CommandWithParameter<Int>(policy: policy, handler: { _ in }, canExecute: { $0 >= 0 })
        case .dispatch:
            command = CommandWithParameter<Int>(
                queue: DispatchQueue.global(), policy: policy,
                handler: { _, done in done.isCancelled ? done.fail(CancellationError()) : done.succeed() },
                canExecute: { $0 >= 0 })
        case .async:
            command = CommandWithParameter<Int>(
                policy: policy,
                handler: { _ in
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
                    if command.execute(parameter: index) { accepted.withLock { $0 += 1 } }
                case 1:
                    if command.execute(parameter: index) { accepted.withLock { $0 += 1 } }
                    if index % 7 == 0 { command.cancel() }
                case 2:
                    command.raiseCanExecuteChanged()
                    _ = command.canExecute(parameter: index)
                    _ = command.isExecuting
                    if index % 50 == 0 {
                        command.executingChanges.subscribe(on: .synchronous) { _ in }.cancel()
                    }
                default:
                    if command.execute(parameter: -1) { XCTFail("the predicate refuses -1") }
                    if command.execute(parameter: index) { accepted.withLock { $0 += 1 } }
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
        while spy.events.last(where: { $0.stream == .executing }) != .executing(false) && Date() < deadline {
            usleep(1_000)
        }
        var executing: [Bool] = []
        for case .executing(let value) in spy.events {
            executing.append(value)
        }
        XCTAssertEqual(executing.first, false, context)
        XCTAssertEqual(executing.last, false, context)
        XCTAssertTrue(zip(executing, executing.dropFirst()).allSatisfy { $0 != $1 }, "\(context): \(executing.count) values alternate")
        XCTAssertTrue(command.canExecute(parameter: 0), context)
        spy.stop()
    }
}
