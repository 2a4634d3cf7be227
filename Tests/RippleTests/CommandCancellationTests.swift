import Dispatch
import Foundation
import Ripple
import RippleTestSupport
import RippleTesting
import XCTest

/// `cancel()` at every stage of a run: queued, running, finished; for Dispatch, async and sync
/// bodies. A cancelled run ends `.cancelled`, publishes no error, and the command stays executing
/// until the body has really ended.
final class CommandCancellationTests: XCTestCase {
    private let cancelledRun: [CommandEvent] = [
        .executing(false), .executing(true), .canExecute(false),
        .cancelled, .executing(false), .canExecute(true),
    ]

    // MARK: - Dispatch bodies

    func test_dispatch_cancelBeforeTheBodyStarts_theBodyNeverRuns() {
        let scheduler = TestScheduler()
        let owner = CommandTestOwner()
        let command = Command(delegate: owner, queue: scheduler) { owner, done in
            owner.log("body")
            done.succeed()
        }
        let spy = CommandSpy(command)
        command.execute()
        command.cancel()

        XCTAssertTrue(command.isExecuting, "the job is still queued; the run has not ended")
        XCTAssertEqual(scheduler.runAll(), 1)
        XCTAssertEqual(owner.log, [], "a run cancelled before it started never runs its body")
        XCTAssertFalse(command.isExecuting)
        spy.assertEvents(cancelledRun)
    }

    func test_dispatch_cancelWhileRunning_reachesTheBody_andTheRunEndsWhenTheBodyDoes() {
        let scheduler = TestScheduler()
        let owner = CommandTestOwner()
        let command = Command(delegate: owner, queue: scheduler) { owner, done in owner.keep(done) }
        let spy = CommandSpy(command)
        command.execute()
        scheduler.runAll()
        let run = try! XCTUnwrap(owner.lastRun)
        XCTAssertFalse(run.isCancelled)

        command.cancel()
        XCTAssertTrue(run.isCancelled, "the body sees the cancellation")
        XCTAssertTrue(command.isExecuting, "still executing: the body has not ended")
        XCTAssertFalse(command.canExecute())
        spy.assertEvents([.executing(false), .executing(true), .canExecute(false)])

        run.fail(CancellationError())
        XCTAssertFalse(command.isExecuting)
        spy.assertEvents(cancelledRun)
    }

    func test_dispatch_cancelWhileRunning_onARealQueue_bodyPollsIsCancelled() {
        let entered = CommandGate()
        let owner = CommandTestOwner()
        let queue = DispatchQueue(label: "CommandCancellationTests.body")
        let command = Command(delegate: owner, queue: queue) { _, done in
            entered.open()
            // A long loop that checks for cancellation; gives up after 30 s so a failure cannot hang.
            let deadline = Date(timeIntervalSinceNow: 30)
            while !done.isCancelled && Date() < deadline { usleep(100) }
            done.isCancelled ? done.fail(CancellationError()) : done.succeed()
        }
        let spy = CommandSpy(command)
        XCTAssertTrue(command.execute())
        XCTAssertTrue(entered.waitBlocking())
        XCTAssertTrue(command.isExecuting)
        command.cancel()
        spy.recorder.waitForCount(cancelledRun.count)
        spy.assertEvents(cancelledRun)
        withExtendedLifetime(owner) {}
    }

    func test_dispatch_cancelAfterTheRunEnded_hasNoEffect() {
        let scheduler = TestScheduler()
        let owner = CommandTestOwner()
        let command = Command(delegate: owner, queue: scheduler) { owner, done in
            owner.keep(done)
            done.succeed()
        }
        let spy = CommandSpy(command)
        command.execute()
        scheduler.runAll()
        command.cancel()
        XCTAssertEqual(owner.lastRun?.isCancelled, false, "a finished run is not marked cancelled")
        spy.assertEvents([
            .executing(false), .executing(true), .canExecute(false),
            .succeeded, .executing(false), .canExecute(true),
        ])
    }

    func test_cancel_thenExecuteAgain_theNewRunIsNotCancelled() {
        let scheduler = TestScheduler()
        let owner = CommandTestOwner()
        let command = Command(delegate: owner, queue: scheduler) { owner, done in owner.keep(done) }
        let spy = CommandSpy(command, streams: [.outcomes])
        command.execute()
        scheduler.runAll()
        command.cancel()
        owner.lastRun?.fail(CancellationError())
        command.execute()
        scheduler.runAll()
        XCTAssertEqual(owner.keptRuns.map(\.isCancelled), [true, false])
        owner.lastRun?.succeed()
        spy.assertEvents([.cancelled, .succeeded])
    }

    // MARK: - Async bodies

    func test_async_cancelWhileAwaitingSleep_endsCancelled_withoutAnError() {
        let entered = CommandGate()
        let command = Command(handler: {
            entered.open()
            try await Task.sleep(nanoseconds: 600 * 1_000_000_000)
        })
        let spy = CommandSpy(command)
        command.execute()
        XCTAssertTrue(entered.waitBlocking())
        command.cancel()
        spy.recorder.waitForCount(cancelledRun.count)
        spy.assertEvents(cancelledRun)
    }

    func test_async_cancelRightAfterExecute_endsCancelled() {
        // Whether or not the task has started when cancel() runs, the body sees the cancellation.
        for _ in 0..<50 {
            let command = Command(handler: { try await Task.sleep(nanoseconds: 600 * 1_000_000_000) })
            let spy = CommandSpy(command)
            command.execute()
            command.cancel()
            spy.recorder.waitForCount(cancelledRun.count)
            spy.assertEvents(cancelledRun)
        }
    }

    func test_async_isExecutingStaysTrueUntilTheBodyReallyEnds() {
        let entered = CommandGate()
        let sawCancellation = CommandGate()
        let release = CommandGate()
        let command = Command(handler: {
            entered.open()
            do {
                try await Task.sleep(nanoseconds: 600 * 1_000_000_000)
            } catch {
                sawCancellation.open()
                await release.wait()  // clean-up that takes a while
                throw error
            }
        })
        let spy = CommandSpy(command)
        command.execute()
        XCTAssertTrue(entered.waitBlocking())
        command.cancel()
        XCTAssertTrue(sawCancellation.waitBlocking())

        XCTAssertTrue(command.isExecuting, "the body is still cleaning up")
        XCTAssertFalse(command.canExecute())
        XCTAssertFalse(command.execute(), "no second run while the cancelled one is ending")
        spy.assertEvents([.executing(false), .executing(true), .canExecute(false)])

        release.open()
        spy.recorder.waitForCount(cancelledRun.count)
        XCTAssertFalse(command.isExecuting)
        spy.assertEvents(cancelledRun)
    }

    func test_async_bodyThatChecksTaskIsCancelled_seesTheCancellation() {
        let entered = CommandGate()
        let observed = CommandLock<[Bool]>([])
        let command = CommandWithParameter<Int>(handler: { _ in
            entered.open()
            while !Task.isCancelled { await Task.yield() }
            observed.withLock { $0.append(Task.isCancelled) }
            try Task.checkCancellation()
        })
        let spy = CommandSpy(command, parameter: 0)
        command.execute(parameter: 1)
        XCTAssertTrue(entered.waitBlocking())
        command.cancel()
        spy.recorder.waitForCount(cancelledRun.count)
        XCTAssertEqual(observed.current, [true])
        spy.assertEvents(cancelledRun)
    }

    func test_async_cancelAfterTheRunEnded_hasNoEffect() {
        let command = Command(handler: { await Task.yield() })
        let spy = CommandSpy(command)
        command.execute()
        spy.recorder.waitForCount(6)
        command.cancel()
        spy.assertEvents([
            .executing(false), .executing(true), .canExecute(false),
            .succeeded, .executing(false), .canExecute(true),
        ])
    }

    func test_async_cancelReachesEveryConcurrentRun() {
        let started = CommandLock(0)
        let allStarted = CommandGate()
        let command = CommandWithParameter<Int>(policy: .concurrent(limit: 3), handler: { _ in
            if started.withLock({ $0 += 1; return $0 }) == 3 { allStarted.open() }
            try await Task.sleep(nanoseconds: 600 * 1_000_000_000)
        })
        let spy = CommandSpy(command, parameter: 0, streams: [.executing, .outcomes, .errors])
        XCTAssertEqual((1...4).map { command.execute(parameter: $0) }, [true, true, true, false])
        XCTAssertTrue(allStarted.waitBlocking())
        command.cancel()
        spy.recorder.waitForCount(6)
        spy.assertEvents([
            .executing(false), .executing(true),
            .cancelled, .cancelled, .cancelled,
            .executing(false),
        ])
    }

    // MARK: - Sync bodies

    func test_sync_cancelFromAnotherThread_cannotInterruptTheBody() {
        let entered = CommandGate()
        let release = CommandGate()
        let command = Command(handler: {
            entered.open()
            release.waitBlocking()
        })
        let spy = CommandSpy(command, streams: [.executing, .outcomes])
        let finished = expectation(description: "execute returned")
        DispatchQueue.global().async {
            command.execute()
            finished.fulfill()
        }
        XCTAssertTrue(entered.waitBlocking())
        command.cancel()
        XCTAssertTrue(command.isExecuting)
        release.open()
        wait(for: [finished], timeout: 30)
        spy.assertEvents([.executing(false), .executing(true), .succeeded, .executing(false)])
    }
}
