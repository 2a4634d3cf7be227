import Dispatch
import Foundation
import Ripple
import RippleTestSupport
import RippleTesting
import XCTest

/// The command contract with synchronous bodies: canExecute, execute, isExecuting, errors,
/// outcomes, raiseCanExecuteChanged, typed parameters, the owner-less initialisers and useWork.
///
/// Main-actor commands (the default), executed on the main thread, where they check and run at
/// once; the class is `@MainActor` so that their bodies and predicates may touch the test's state
/// (`async` methods: see ``CommandAsyncTests``).
@MainActor
final class CommandTests: XCTestCase {
    // MARK: - execute and isExecuting

    func test_execute_syncBody_runsOnceAndPublishesTheWholeHistory() async {
        let owner = CommandTestOwner()
        let command = Command(delegate: owner, perform: { owner in owner.log("body") })
        let spy = CommandSpy(command)

        XCTAssertNil(command.execute().refusal, "execute reports that the run started")

        XCTAssertEqual(owner.log, ["body"])
        XCTAssertFalse(command.isExecuting)
        XCTAssertTrue(command.canExecute())
        spy.assertEvents([
            .executing(false),
            .executing(true), .canExecute(false),
            .succeeded,
            .executing(false), .canExecute(true),
        ])
    }

    func test_isExecuting_isTrueInsideTheBodyAndCanExecuteFalse() async {
        let seen = CommandLock<[String]>([])
        var command: Command!
        defer { command = nil }  // the body captures `command`: break the cycle when the test ends
        command = Command(
            delegate: commandAnchor,
            perform: { _, _ in
                seen.withLock { $0.append("executing=\(command.isExecuting) canExecute=\(command.canExecute())") }
            })
        let spy = CommandSpy(command, streams: [.executing])
        command.execute()
        XCTAssertEqual(seen.current, ["executing=true canExecute=false"])
        spy.assertEvents([.executing(false), .executing(true), .executing(false)])
    }

    func test_executingChanges_replaysTheCurrentStateToNewSubscribers() async {
        let scheduler = TestScheduler()
        let command = Command(delegate: commandAnchor, queue: scheduler, work: { _, _, done in done.succeed() })
        let before = CommandSpy(command, streams: [.executing])
        command.execute()
        let during = CommandSpy(command, streams: [.executing])
        scheduler.runAll()
        let after = CommandSpy(command, streams: [.executing])
        before.assertEvents([.executing(false), .executing(true), .executing(false)])
        during.assertEvents([.executing(true), .executing(false)])
        after.assertEvents([.executing(false)])
    }

    // MARK: - canExecute

    func test_canExecute_isThePredicate_andExecuteRefusesWhenItIsFalse() async {
        let owner = CommandTestOwner()
        owner.isAllowed = false
        let command = Command(
            delegate: owner,
            perform: { owner in owner.log("body") },
            canExecute: { owner in owner.isAllowed })
        let spy = CommandSpy(command)

        XCTAssertFalse(command.canExecute())
        XCTAssertNotNil(command.execute().refusal, "a disabled command does not start")
        owner.isAllowed = true
        XCTAssertTrue(command.canExecute())
        XCTAssertNil(command.execute().refusal)

        XCTAssertEqual(owner.log, ["body"])
        spy.assertEvents([
            .executing(false),
            .executing(true), .canExecute(false), .succeeded, .executing(false), .canExecute(true),
        ])
    }

    func test_canExecute_isFalseWhileExecuting_underIgnoreWhileRunning() async {
        let scheduler = TestScheduler()
        let owner = CommandTestOwner()
        let command = Command(delegate: owner, queue: scheduler, work: { owner, _, done in owner.keep(done) })
        XCTAssertTrue(command.canExecute())
        XCTAssertNil(command.execute().refusal)
        XCTAssertFalse(command.canExecute(), "executing")
        XCTAssertNotNil(command.execute().refusal, "a second execute while running is refused")
        scheduler.runAll()
        XCTAssertFalse(command.canExecute(), "still executing: the body has not called done")
        owner.lastRun?.succeed()
        XCTAssertTrue(command.canExecute())
        XCTAssertEqual(owner.keptRuns.count, 1, "one run")
    }

    func test_predicate_isCalledWithTheParameter_andWithoutTheCommandsLock() async {
        // The predicate may read the command: it runs outside the command's lock.
        var command: CommandWithParameter<Int>!
        defer { command = nil }  // the body captures `command`: break the cycle when the test ends
        let seen = CommandLock<[Int]>([])
        command = CommandWithParameter<Int>(
            delegate: commandAnchor,
            perform: { _, _ in },
            canExecute: { _, value in
                seen.withLock { $0.append(value) }
                return !command.isExecuting && value > 0
            })
        XCTAssertFalse(command.canExecute(parameter: 0))
        XCTAssertTrue(command.canExecute(parameter: 3))
        XCTAssertNotNil(command.execute(parameter: -1).refusal)
        XCTAssertNil(command.execute(parameter: 4).refusal)
        XCTAssertEqual(seen.current, [0, 3, -1, 4])
    }

    // MARK: - Typed parameters

    struct Credentials: Sendable, Equatable {
        var user: String
        var password: String
        var isComplete: Bool { !user.isEmpty && !password.isEmpty }
    }

    func test_commandWithParameter_isTypedEndToEnd_syncBody() async {
        let owner = CommandTestOwner()
        let received = CommandLock<[Credentials]>([])
        let login = CommandWithParameter<Credentials>(
            delegate: owner,
            perform: { owner, credentials in
                owner.log(credentials.user)
                received.withLock { $0.append(credentials) }
            },
            canExecute: { _, credentials in credentials.isComplete })
        let empty = Credentials(user: "", password: "")
        let full = Credentials(user: "ada", password: "lovelace")
        let spy = CommandSpy(login, parameter: full)

        XCTAssertFalse(login.canExecute(parameter: empty))
        XCTAssertTrue(login.canExecute(parameter: full))
        XCTAssertNotNil(login.execute(parameter: empty).refusal)
        XCTAssertNil(login.execute(parameter: full).refusal)

        XCTAssertEqual(received.current, [full])
        XCTAssertEqual(owner.log, ["ada"])
        spy.assertEvents([
            .executing(false),
            .executing(true), .canExecute(false), .succeeded, .executing(false), .canExecute(true),
        ])
    }

    func test_commandWithParameter_throughCommandType_genericHelpers() async {
        // UI helpers see any command through `CommandType`.
        func run<C: CommandType>(_ command: C, with parameter: C.Parameter) -> (Bool, CommandExecution) {
            (command.canExecute(parameter: parameter), command.execute(parameter: parameter))
        }
        let received = CommandLock<[String]>([])
        let command = CommandWithParameter<String>(
            delegate: commandAnchor, perform: { _, value in received.withLock { $0.append(value) } })
        let plain = Command(delegate: commandAnchor, perform: { _ in received.withLock { $0.append("void") } })
        XCTAssertTrue(run(command, with: "x") == (true, .started))
        XCTAssertTrue(run(plain, with: ()) == (true, .started))
        XCTAssertEqual(received.current, ["x", "void"])
    }

    // MARK: - Errors from sync bodies

    func test_syncBodyThatThrows_publishesTheErrorAndAFailedOutcome() async {
        let owner = CommandTestOwner()
        let command = Command(delegate: owner, perform: { _ in throw CommandTestError(1) })
        let spy = CommandSpy(command)
        XCTAssertNil(command.execute().refusal, "the run started, even though it failed")
        XCTAssertFalse(command.isExecuting)
        spy.assertEvents([
            .executing(false),
            .executing(true), .canExecute(false),
            .error(1), .failed(1),
            .executing(false), .canExecute(true),
        ])
    }

    func test_syncBodyThatThrowsCancellationError_endsCancelled_withoutAnError() async {
        let command = Command(delegate: commandAnchor, perform: { _ in throw CancellationError() })
        let spy = CommandSpy(command)
        command.execute()
        spy.assertEvents([
            .executing(false),
            .executing(true), .canExecute(false), .cancelled, .executing(false), .canExecute(true),
        ])
    }

    // MARK: - raiseCanExecuteChanged

    func test_raiseCanExecuteChanged_notifiesWithTheNewValue() async {
        let owner = CommandTestOwner()
        let command = Command(delegate: owner, perform: { _ in }, canExecute: { $0.isAllowed })
        let spy = CommandSpy(command, streams: [.canExecute])
        owner.isAllowed = false
        command.raiseCanExecuteChanged()
        owner.isAllowed = true
        command.raiseCanExecuteChanged()
        spy.assertEvents([.canExecute(false), .canExecute(true)])
    }

    func test_raiseCanExecuteChangedWhenever_followsTheTrigger_untilTheCommandIsGone() async {
        let owner = CommandTestOwner()
        let text = Emitter<String>()
        let recorder = EventRecorder<CommandEvent>()
        var token: SubscriptionToken?
        do {
            let command = Command(delegate: owner, perform: { _ in }, canExecute: { $0.isAllowed })
            command.raiseCanExecuteChanged(whenever: text.stream)
            token = command.canExecuteChanges.subscribe(on: .synchronous) { [weak command] in
                recorder.record(.canExecute(command?.canExecute() ?? false))
            }
            XCTAssertEqual(text.subscriberCount, 1)
            owner.isAllowed = false
            text.send("a")
            owner.isAllowed = true
            text.send("ab")
        }
        XCTAssertEqual(text.subscriberCount, 0, "the command's trigger subscription ended with the command")
        text.send("abc")
        recorder.assertEvents([.canExecute(false), .canExecute(true)])
        token?.cancel()
    }

    // MARK: - Initialisers without an owner (nonisolated)

    func test_ownerlessInitialisers_runEveryKindOfBody() async {
        let scheduler = TestScheduler()
        let log = CommandLock<[String]>([])
        let sync = CommandWithParameter<Int>(nonisolatedPerform: { value in
            log.withLock { $0.append("sync \(value)") }
        })
        let dispatch = CommandWithParameter<Int>(
            queue: scheduler,
            nonisolatedWork: { value, done in
                log.withLock { $0.append("dispatch \(value)") }
                done.succeed()
            })
        let gate = CommandGate()
        let async = CommandWithParameter<Int>(
            priority: .userInitiated,
            nonisolatedTask: { value in
                await Task.yield()
                log.withLock { $0.append("async \(value)") }
                gate.open()
            })
        XCTAssertNil(sync.execute(parameter: 1).refusal)
        XCTAssertNil(dispatch.execute(parameter: 2).refusal)
        scheduler.runAll()
        XCTAssertNil(async.execute(parameter: 3).refusal)
        await fulfillment(of: [gate.opened()], timeout: 30)
        XCTAssertEqual(log.current, ["sync 1", "dispatch 2", "async 3"])
    }

    func test_ownerlessInitialisers_useThePredicate() async {
        let sync = CommandWithParameter<Int>(nonisolatedPerform: { _ in }, canExecute: { $0 > 0 })
        let dispatch = CommandWithParameter<Int>(
            queue: DispatchQueue.global(), nonisolatedWork: { _, done in done.succeed() }, canExecute: { $0 > 0 })
        let async = CommandWithParameter<Int>(nonisolatedTask: { _ in await Task.yield() }, canExecute: { $0 > 0 })
        for command in [sync, dispatch, async] {
            XCTAssertFalse(command.canExecute(parameter: 0))
            XCTAssertNotNil(command.execute(parameter: 0).refusal)
            XCTAssertTrue(command.canExecute(parameter: 1))
        }
    }

    // MARK: - Re-entrancy

    func test_executeFromInsideTheBody_isRefusedWhileRunning() async {
        let results = CommandLock<[CommandExecution]>([])
        var command: Command!
        defer { command = nil }  // the body captures `command`: break the cycle when the test ends
        command = Command(delegate: commandAnchor, perform: { _ in results.withLock { $0.append(command.execute()) } })
        let spy = CommandSpy(command, streams: [.executing, .outcomes])
        XCTAssertEqual(command.execute(), .started)
        XCTAssertEqual(results.current, [.refused(.busy)])
        spy.assertEvents([.executing(false), .executing(true), .succeeded, .executing(false)])
    }

    func test_executeFromAnExecutingSubscriber_doesNotDeadlockOrReorder() async {
        // A synchronous subscriber that reacts to the end of a run by starting the next one.
        let runs = CommandLock(0)
        let command = Command(delegate: commandAnchor, perform: { _ in runs.withLock { $0 += 1 } })
        let recorder = EventRecorder<Bool>()
        let token = command.executingChanges.subscribe(on: .synchronous) { [weak command] executing in
            recorder.record(executing)
            // The first `false` is the replayed initial state; start two more runs after the first.
            if !executing && (1...2).contains(runs.current) { command?.execute() }
        }
        command.execute()
        XCTAssertEqual(runs.current, 3)
        recorder.assertEvents([false, true, false, true, false, true, false])
        XCTAssertFalse(command.isExecuting)
        token.cancel()
    }

    // MARK: - useWork

    func test_useWork_bindsExternallyStartedWorkToTheExecutingState() async {
        let owner = CommandTestOwner()
        let command = Command(delegate: owner, perform: { _ in })
        let spy = CommandSpy(command)
        command.useWork { done in owner.keep(done) }

        XCTAssertTrue(command.isExecuting)
        XCTAssertFalse(command.canExecute())
        XCTAssertNotNil(command.execute().refusal, "the external work counts as a run")
        owner.lastRun?.succeed()
        owner.lastRun?.fail(CommandTestError(9))
        XCTAssertFalse(command.isExecuting)
        XCTAssertTrue(owner.lastRun?.isFinished == true)
        spy.assertEvents(
            [
                .executing(false),
                .executing(true), .canExecute(false),
                .succeeded, .executing(false), .canExecute(true),
            ], "ending the work twice does nothing the second time")
    }

    func test_useWork_errorsAndCancellationAreReportedLikeARun() async {
        let command = Command(delegate: commandAnchor, perform: { _ in })
        let spy = CommandSpy(command, streams: [.errors, .outcomes])
        let runs = CommandLock<[CommandRun]>([])
        command.useWork { done in runs.withLock { $0.append(done) } }
        runs.current[0].fail(CommandTestError(4))
        command.useWork { done in runs.withLock { $0.append(done) } }
        command.cancel()
        XCTAssertTrue(runs.current[1].isCancelled, "cancel() reaches the external work")
        XCTAssertTrue(command.isExecuting, "executing until the work reports its end")
        runs.current[1].fail(CancellationError())
        XCTAssertFalse(command.isExecuting)
        spy.assertEvents([.error(4), .failed(4), .cancelled])
    }

    func test_useWork_withCompletionOnARealQueue() async {
        let command = Command(delegate: commandAnchor, perform: { _ in })
        let spy = CommandSpy(command, streams: [.executing, .outcomes])
        let queue = DispatchQueue(label: "CommandTests.useWork")
        command.useWork { done in queue.async { done.succeed() } }
        spy.recorder.waitForCount(4)
        spy.assertEvents([.executing(false), .executing(true), .succeeded, .executing(false)])
        XCTAssertFalse(command.isExecuting)
    }

    // MARK: - Cancel with nothing running

    func test_cancel_whenIdle_publishesNothing() async {
        let command = Command(delegate: commandAnchor, perform: { _ in })
        let spy = CommandSpy(command)
        command.cancel()
        spy.assertEvents([.executing(false)], "only the replayed state")
        command.execute()
        command.cancel()
        spy.assertEvents([
            .executing(false),
            .executing(true), .canExecute(false), .succeeded, .executing(false), .canExecute(true),
        ])
    }
}
