import Dispatch
import Foundation
import Ripple
import RippleTestSupport
import RippleTesting
import XCTest

/// Commands whose body runs on a `WorkScheduler` and reports its end through a `CommandRun`:
/// stepped deterministically with a `TestScheduler`, and on a real `DispatchQueue`.
///
/// Main-actor commands (their predicates are `@MainActor`) with `@Sendable` Dispatch bodies.
/// (`async` methods of a `@MainActor` class: see ``CommandAsyncTests``.)
@MainActor
final class CommandDispatchTests: XCTestCase {
    func test_dispatchBody_isExecutingBeforeItStarts_andUntilDoneIsCalled() async {
        let scheduler = TestScheduler()
        let owner = CommandTestOwner()
        let command = Command(
            delegate: owner, queue: scheduler,
            work: { owner, _, done in
                owner.log("body")
                owner.keep(done)
            })
        let spy = CommandSpy(command)

        XCTAssertNil(command.execute().refusal)
        XCTAssertTrue(command.isExecuting, "executing before the body has started")
        XCTAssertEqual(scheduler.pendingCount, 1)
        XCTAssertEqual(owner.log, [])
        spy.assertEvents([.executing(false), .executing(true), .canExecute(false)])

        XCTAssertTrue(scheduler.runNext())
        XCTAssertEqual(owner.log, ["body"])
        XCTAssertTrue(command.isExecuting, "the body returned, but has not called done")
        XCTAssertEqual(owner.lastRun?.isFinished, false)

        owner.lastRun?.succeed()
        XCTAssertFalse(command.isExecuting)
        XCTAssertEqual(owner.lastRun?.isFinished, true)
        spy.assertEvents([
            .executing(false), .executing(true), .canExecute(false),
            .succeeded, .executing(false), .canExecute(true),
        ])
    }

    func test_dispatchBody_callingDoneInsideTheBody() async {
        let scheduler = TestScheduler()
        let command = Command(delegate: commandAnchor, queue: scheduler, work: { _, _, done in done(.success(())) })
        let spy = CommandSpy(command, streams: [.executing, .outcomes])
        command.execute()
        scheduler.runAll()
        command.execute()
        scheduler.runAll()
        spy.assertEvents([
            .executing(false),
            .executing(true), .succeeded, .executing(false),
            .executing(true), .succeeded, .executing(false),
        ])
    }

    func test_dispatchBody_thatThrows_fails() async {
        let scheduler = TestScheduler()
        let command = Command(delegate: commandAnchor, queue: scheduler, work: { _, _, _ in throw CommandTestError(2) })
        let spy = CommandSpy(command)
        command.execute()
        scheduler.runAll()
        spy.assertEvents([
            .executing(false), .executing(true), .canExecute(false),
            .error(2), .failed(2), .executing(false), .canExecute(true),
        ])
    }

    func test_dispatchBody_thatReportsAFailureThroughDone_fails_andLaterEndsAreIgnored() async {
        let scheduler = TestScheduler()
        let owner = CommandTestOwner()
        let command = Command(delegate: owner, queue: scheduler, work: { owner, _, done in owner.keep(done) })
        let spy = CommandSpy(command, streams: [.errors, .outcomes])
        command.execute()
        scheduler.runAll()
        owner.lastRun?(.failure(CommandTestError(3)))
        owner.lastRun?.succeed()
        owner.lastRun?.fail(CommandTestError(4))
        spy.assertEvents([.error(3), .failed(3)])
    }

    func test_dispatchBody_withParameter_isTypedEndToEnd() async {
        let scheduler = TestScheduler()
        let owner = CommandTestOwner()
        let select = CommandWithParameter<Int>(
            delegate: owner,
            queue: scheduler,
            work: { owner, row, done in
                owner.log("row \(row)")
                done.succeed()
            },
            canExecute: { _, row in row >= 0 })
        XCTAssertNotNil(select.execute(parameter: -1).refusal)
        XCTAssertNil(select.execute(parameter: 7).refusal)
        XCTAssertNotNil(select.execute(parameter: 8).refusal, "ignored while the first is queued")
        scheduler.runAll()
        XCTAssertNil(select.execute(parameter: 9).refusal)
        scheduler.runAll()
        XCTAssertEqual(owner.log, ["row 7", "row 9"])
    }

    func test_dispatchBody_onARealSerialQueue_runsThere_andEndsAfterTheCompletion() async {
        let queue = DispatchQueue(label: "CommandDispatchTests.serial")
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: "body queue")
        let owner = CommandTestOwner()
        let command = Command(
            delegate: owner, queue: queue,
            work: { owner, _, done in
                owner.log(DispatchQueue.getSpecific(key: key) ?? "elsewhere")
                // A completion-based API calling back later on another queue.
                DispatchQueue.global().async {
                    owner.log("completion")
                    done.succeed()
                }
            })
        let spy = CommandSpy(command)
        XCTAssertNil(command.execute().refusal)
        spy.recorder.waitForCount(6)
        spy.assertEvents([
            .executing(false), .executing(true), .canExecute(false),
            .succeeded, .executing(false), .canExecute(true),
        ])
        XCTAssertEqual(owner.log, ["body queue", "completion"])
        XCTAssertFalse(command.isExecuting)
    }

    func test_dispatchBody_onARealConcurrentQueue_manyRunsInSequence() async {
        let command = CommandWithParameter<Int>(
            delegate: commandAnchor, queue: DispatchQueue.global(),
            work: { _, value, done in
                value.isMultiple(of: 3) ? done.fail(CommandTestError(value)) : done.succeed()
            })
        let spy = CommandSpy(command, parameter: 0, streams: [.outcomes, .errors])
        for value in 1...6 {
            XCTAssertNil(command.execute(parameter: value).refusal)
            // Wait for this run to end before starting the next: ignoreWhileRunning.
            let expected = value + value / 3
            spy.recorder.waitForCount(expected)
            XCTAssertFalse(command.isExecuting, "idle before the outcome is published")
        }
        spy.assertEvents([
            .succeeded, .succeeded, .error(3), .failed(3),
            .succeeded, .succeeded, .error(6), .failed(6),
        ])
    }
}
