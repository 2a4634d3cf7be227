import Dispatch
import Foundation
import Ripple
import RippleTestSupport
import RippleTesting
import XCTest

/// `cancel()` at every stage of a run: queued, running, finished; for Dispatch, async and sync
/// bodies. A cancelled run ends `.cancelled`, publishes no error, and the command stays executing
/// until the body has really ended.
///
/// Main-actor commands unless a test says otherwise: their `async` bodies run on the main actor, so
/// the tests wait with `await fulfillment(of:timeout:)`, which lets the main queue turn. (`async`
/// methods of a `@MainActor` class: see ``CommandAsyncTests``.)
@MainActor
final class CommandCancellationTests: XCTestCase {
    private let cancelledRun: [CommandEvent] = [
        .executing(false), .executing(true), .canExecute(false),
        .cancelled, .executing(false), .canExecute(true),
    ]

    // MARK: - Dispatch bodies

    func test_dispatch_cancelBeforeTheBodyStarts_theBodyNeverRuns() async {
        let scheduler = TestScheduler()
        let owner = CommandTestOwner()
        let command = Command(
            delegate: owner, queue: scheduler,
            work: { owner, _, done in
                owner.log("body")
                done.succeed()
            })
        let spy = CommandSpy(command)
        command.execute()
        command.cancel()

        XCTAssertTrue(command.isExecuting, "the job is still queued; the run has not ended")
        XCTAssertEqual(scheduler.runAll(), 1)
        XCTAssertEqual(owner.log, [], "a run cancelled before it started never runs its body")
        XCTAssertFalse(command.isExecuting)
        spy.assertEvents(cancelledRun)
    }

    func test_dispatch_cancelWhileRunning_reachesTheBody_andTheRunEndsWhenTheBodyDoes() async {
        let scheduler = TestScheduler()
        let owner = CommandTestOwner()
        let command = Command(delegate: owner, queue: scheduler, work: { owner, _, done in owner.keep(done) })
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

    func test_dispatch_cancelWhileRunning_onARealQueue_bodyPollsIsCancelled() async {
        let entered = CommandGate()
        let owner = CommandTestOwner()
        let queue = DispatchQueue(label: "CommandCancellationTests.body")
        let command = Command(
            delegate: owner, queue: queue,
            work: { _, _, done in
                entered.open()
                // A long loop that checks for cancellation; gives up after 30 s so a failure cannot hang.
                let deadline = Date(timeIntervalSinceNow: 30)
                while !done.isCancelled && Date() < deadline { usleep(100) }
                done.isCancelled ? done.fail(CancellationError()) : done.succeed()
            })
        let spy = CommandSpy(command)
        XCTAssertNil(command.execute().refusal)
        XCTAssertTrue(entered.waitBlocking())
        XCTAssertTrue(command.isExecuting)
        command.cancel()
        spy.recorder.waitForCount(cancelledRun.count)
        spy.assertEvents(cancelledRun)
        withExtendedLifetime(owner) {}
    }

    func test_dispatch_cancelAfterTheRunEnded_hasNoEffect() async {
        let scheduler = TestScheduler()
        let owner = CommandTestOwner()
        let command = Command(
            delegate: owner, queue: scheduler,
            work: { owner, _, done in
                owner.keep(done)
                done.succeed()
            })
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

    func test_cancel_thenExecuteAgain_theNewRunIsNotCancelled() async {
        let scheduler = TestScheduler()
        let owner = CommandTestOwner()
        let command = Command(delegate: owner, queue: scheduler, work: { owner, _, done in owner.keep(done) })
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

    func test_async_cancelWhileAwaitingSleep_endsCancelled_withoutAnError() async {
        let entered = CommandGate()
        let command = Command(
            delegate: commandAnchor,
            task: { _ in
                entered.open()
                try await Task.sleep(nanoseconds: 600 * 1_000_000_000)
            })
        let spy = CommandSpy(command)
        command.execute()
        await fulfillment(of: [entered.opened()], timeout: 30)
        command.cancel()
        await fulfillment(of: [spy.expectation(events: cancelledRun.count)], timeout: 10)
        spy.assertEvents(cancelledRun)
    }

    func test_async_cancelRightAfterExecute_endsCancelled() async {
        // Whether or not the task has started when cancel() runs, the body sees the cancellation.
        for _ in 0..<50 {
            let command = Command(
                delegate: commandAnchor, task: { _ in try await Task.sleep(nanoseconds: 600 * 1_000_000_000) })
            let spy = CommandSpy(command)
            command.execute()
            command.cancel()
            await fulfillment(of: [spy.expectation(events: cancelledRun.count)], timeout: 10)
            spy.assertEvents(cancelledRun)
        }
    }

    func test_async_nonisolated_cancelRightAfterExecute_endsCancelled() async {
        // The same from a nonisolated command, whose task starts off the main actor at once.
        for _ in 0..<50 {
            let command = Command(nonisolatedTask: {
                try await Task.sleep(nanoseconds: 600 * 1_000_000_000)
            })
            let spy = CommandSpy(command)
            command.execute()
            command.cancel()
            spy.recorder.waitForCount(cancelledRun.count)
            spy.assertEvents(cancelledRun)
        }
    }

    func test_async_isExecutingStaysTrueUntilTheBodyReallyEnds() async {
        let entered = CommandGate()
        let sawCancellation = CommandGate()
        let release = CommandGate()
        let command = Command(
            delegate: commandAnchor,
            task: { _ in
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
        await fulfillment(of: [entered.opened()], timeout: 30)
        command.cancel()
        await fulfillment(of: [sawCancellation.opened()], timeout: 30)

        XCTAssertTrue(command.isExecuting, "the body is still cleaning up")
        XCTAssertFalse(command.canExecute())
        XCTAssertNotNil(command.execute().refusal, "no second run while the cancelled one is ending")
        spy.assertEvents([.executing(false), .executing(true), .canExecute(false)])

        release.open()
        await fulfillment(of: [spy.expectation(events: cancelledRun.count)], timeout: 10)
        XCTAssertFalse(command.isExecuting)
        spy.assertEvents(cancelledRun)
    }

    func test_async_nonisolated_isExecutingStaysTrueUntilTheBodyReallyEnds() async {
        // The same from a nonisolated command, whose body runs off the main actor: the test may
        // block the main thread while it waits.
        let entered = CommandGate()
        let sawCancellation = CommandGate()
        let release = CommandGate()
        let command = Command(nonisolatedTask: {
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
        XCTAssertNotNil(command.execute().refusal, "no second run while the cancelled one is ending")
        spy.assertEvents([.executing(false), .executing(true), .canExecute(false)])

        release.open()
        spy.recorder.waitForCount(cancelledRun.count)
        XCTAssertFalse(command.isExecuting)
        spy.assertEvents(cancelledRun)
    }

    func test_async_bodyThatChecksTaskIsCancelled_seesTheCancellation() async {
        let entered = CommandGate()
        let observed = CommandLock<[Bool]>([])
        let command = CommandWithParameter<Int>(
            delegate: commandAnchor,
            task: { _, _ in
                entered.open()
                while !Task.isCancelled { await Task.yield() }
                observed.withLock { $0.append(Task.isCancelled) }
                try Task.checkCancellation()
            })
        let spy = CommandSpy(command, parameter: 0)
        command.execute(parameter: 1)
        await fulfillment(of: [entered.opened()], timeout: 30)
        command.cancel()
        await fulfillment(of: [spy.expectation(events: cancelledRun.count)], timeout: 10)
        XCTAssertEqual(observed.current, [true])
        spy.assertEvents(cancelledRun)
    }

    func test_async_cancelAfterTheRunEnded_hasNoEffect() async {
        let command = Command(delegate: commandAnchor, task: { _ in await Task.yield() })
        let spy = CommandSpy(command)
        command.execute()
        await fulfillment(of: [spy.expectation(events: 6)], timeout: 10)
        command.cancel()
        spy.assertEvents([
            .executing(false), .executing(true), .canExecute(false),
            .succeeded, .executing(false), .canExecute(true),
        ])
    }

    func test_async_cancelReachesEveryConcurrentRun() async {
        let started = CommandLock(0)
        let allStarted = CommandGate()
        let command = CommandWithParameter<Int>(
            delegate: commandAnchor, policy: .concurrent(limit: 3),
            task: { _, _ in
                if started.withLock({
                    $0 += 1
                    return $0
                }) == 3 {
                    allStarted.open()
                }
                try await Task.sleep(nanoseconds: 600 * 1_000_000_000)
            })
        let spy = CommandSpy(command, parameter: 0, streams: [.executing, .outcomes, .errors])
        XCTAssertEqual((1...4).map { command.execute(parameter: $0) }, [.started, .started, .started, .refused(.busy)])
        await fulfillment(of: [allStarted.opened()], timeout: 30)
        command.cancel()
        await fulfillment(of: [spy.expectation(events: 6)], timeout: 10)
        spy.assertEvents([
            .executing(false), .executing(true),
            .cancelled, .cancelled, .cancelled,
            .executing(false),
        ])
    }

    // MARK: - Sync bodies

    func test_sync_cancelFromAnotherThread_cannotInterruptTheBody() async {
        // A nonisolated command, whose sync body runs on the thread that calls `execute`.
        let entered = CommandGate()
        let release = CommandGate()
        let command = Command(nonisolatedPerform: {
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
        await fulfillment(of: [finished], timeout: 30)
        spy.assertEvents([.executing(false), .executing(true), .succeeded, .executing(false)])
    }
}
