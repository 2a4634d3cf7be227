import Dispatch
import Foundation
import Ripple
import RippleTestSupport
import RippleTesting
import XCTest

/// Where each closure of a command runs:
/// - a main-actor command (the default) runs its predicate and its sync and `async` bodies on the
///   main actor; `execute` from another thread hands the check-and-start to the main queue and
///   returns `true`;
/// - a nonisolated command (a `nonisolated…:` body) runs its predicate and sync body on the
///   calling thread, before `execute` returns, and its `async` body off the main actor;
/// - a Dispatch body runs on its queue, whatever the command's isolation.
///
/// The tests are `async` methods of a `@MainActor` class (see ``CommandAsyncTests``). Tests that
/// must see the state before a hop runs block the main thread while a background thread calls
/// `execute` (``onBackgroundThread(_:)``): nothing queued on the main queue can run meanwhile. They
/// then let the main queue drain by awaiting an expectation that a main-queue block fulfills.
@MainActor
final class CommandIsolationTests: XCTestCase {
    /// Runs `work` on a background thread and blocks the main thread until it returns, so that
    /// nothing queued on the main queue meanwhile runs before this returns.
    private func onBackgroundThread<Result: Sendable>(
        file: StaticString = #filePath, line: UInt = #line, _ work: @escaping @Sendable () -> Result
    ) -> Result {
        let result = CommandLock<Result?>(nil)
        let returned = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            XCTAssertFalse(Thread.isMainThread, file: file, line: line)
            let value = work()
            result.withLock { $0 = value }
            returned.signal()
        }
        // A safety net against a hang, not a timing assertion.
        if returned.wait(timeout: .now() + 30) == .timedOut {
            XCTFail("the background work did not return", file: file, line: line)
        }
        return result.current!
    }

    /// Lets the main queue run everything queued on it so far.
    private func drainMainQueue() async {
        await fulfillment(of: [mainQueueFlushed()], timeout: 10)
    }

    // MARK: - Main-actor commands: sync bodies and predicates

    func test_mainActorSyncBody_executedOnTheMainThread_runsBeforeExecuteReturns() async {
        let log = CommandLock<[String]>([])
        let command = Command(
            delegate: commandAnchor,
            perform: { _ in
                MainActor.assertIsolated()
                log.withLock { $0.append("body") }
            },
            canExecute: { _ in
                log.withLock { $0.append("predicate") }
                return true
            })
        XCTAssertNil(command.execute().refusal)
        XCTAssertEqual(log.current, ["predicate", "body"], "checked and run at once, on the calling (main) thread")
    }

    func test_mainActorSyncBodyAndPredicate_executedFromABackgroundThread_runOnTheMainThread() async {
        let owner = CommandTestOwner()
        let log = CommandLock<[String]>([])
        let command = Command(
            delegate: owner,
            perform: { owner in
                MainActor.assertIsolated()
                owner.log("body")
                log.withLock { $0.append("body on main \(Thread.isMainThread)") }
            },
            canExecute: { _ in
                MainActor.assertIsolated()
                log.withLock { $0.append("predicate on main \(Thread.isMainThread)") }
                return true
            })
        let spy = CommandSpy(command, streams: [.executing, .outcomes])

        let returned = onBackgroundThread { command.execute() }

        XCTAssertEqual(
            returned, .handedToMainActor, "a call handed to the main queue says so, and promises nothing more")
        XCTAssertEqual(log.current, [], "nothing has run yet: the main queue has not drained")
        XCTAssertFalse(command.isExecuting, "the check-and-start happens on the main queue")
        spy.assertEvents([.executing(false)])

        await drainMainQueue()

        XCTAssertEqual(log.current, ["predicate on main true", "body on main true"])
        XCTAssertEqual(owner.log, ["body"])
        XCTAssertFalse(command.isExecuting)
        spy.assertEvents([.executing(false), .executing(true), .succeeded, .executing(false)])
    }

    func test_mainActorPredicateThatRefuses_aHoppedCall_startsNothing() async {
        let owner = CommandTestOwner()
        owner.isAllowed = false
        let command = Command(delegate: owner, perform: { $0.log("body") }, canExecute: { $0.isAllowed })
        let spy = CommandSpy(command, streams: [.executing, .outcomes, .errors])

        XCTAssertEqual(
            onBackgroundThread { command.execute() }, .handedToMainActor,
            "handed to the main queue, where the predicate refuses it")
        await drainMainQueue()

        XCTAssertEqual(owner.log, [])
        XCTAssertFalse(command.isExecuting)
        spy.assertEvents([.executing(false)])
    }

    func test_mainActorCommandWithoutAPredicate_canExecuteFromABackgroundThread() async {
        // Only a main-actor *predicate* ties canExecute to the main thread.
        let scheduler = TestScheduler()
        let command = Command(delegate: commandAnchor, queue: scheduler, work: { _, _, done in done.succeed() })
        XCTAssertTrue(onBackgroundThread { command.canExecute() })
        XCTAssertNil(command.execute().refusal)
        XCTAssertFalse(onBackgroundThread { command.canExecute() }, "executing")
        scheduler.runAll()
        XCTAssertTrue(onBackgroundThread { command.canExecute() })
    }

    func test_mainActorCommandWithResult_executedFromABackgroundThread_runsOnTheMainThread() async {
        let command = CommandWithResult<Int, String>(
            delegate: commandAnchor,
            perform: { _, value in
                MainActor.assertIsolated()
                return "\(value) on main \(Thread.isMainThread)"
            })
        let results = EventRecorder<String>()
        let token = command.results.subscribe(on: .synchronous) { results.record($0) }

        XCTAssertEqual(onBackgroundThread { command.execute(parameter: 4) }, .handedToMainActor)
        XCTAssertEqual(results.events, [], "not run yet")
        await drainMainQueue()

        results.assertEvents(["4 on main true"])
        XCTAssertFalse(command.isExecuting)
        token.cancel()
    }

    // MARK: - Main-actor commands: async bodies

    func test_mainActorAsyncBody_runsOnTheMainActor_beforeAndAfterEachAwait() async {
        let checks = CommandLock<[String]>([])
        let command = Command(
            delegate: commandAnchor,
            task: { _ in
                MainActor.assertIsolated()
                checks.withLock { $0.append("start: main \(Thread.isMainThread)") }
                await Task.yield()
                MainActor.assertIsolated()
                checks.withLock { $0.append("after yield: main \(Thread.isMainThread)") }
                let detachedOnMain = await Task.detached { Thread.isMainThread }.value
                MainActor.assertIsolated()
                checks.withLock {
                    $0.append("background task: main \(detachedOnMain); after it: main \(Thread.isMainThread)")
                }
            })
        let spy = CommandSpy(command, streams: [.outcomes, .errors])

        XCTAssertEqual(
            onBackgroundThread { command.execute() }, .handedToMainActor,
            "from a background thread: hops, then starts the task")
        await fulfillment(of: [spy.expectation(events: 1)], timeout: 10)

        spy.assertEvents([.succeeded])
        XCTAssertEqual(
            checks.current,
            [
                "start: main true",
                "after yield: main true",
                "background task: main false; after it: main true",
            ])
    }

    func test_mainActorAsyncBody_ownerGoneBeforeTheTaskStarts_endsCancelled_andTheStateIsIdle() async {
        var owner: CommandTestOwner? = CommandTestOwner()
        weak let weakOwner = owner
        let bodies = CommandLock(0)
        let command = Command(
            delegate: owner!,
            task: { _ in
                bodies.withLock { $0 += 1 }
                await Task.yield()
            })
        let spy = CommandSpy(command, streams: [.executing, .outcomes, .errors])

        // On the main thread: the run starts at once, and its task waits for the main queue.
        XCTAssertNil(command.execute().refusal)
        XCTAssertTrue(command.isExecuting)
        owner = nil
        XCTAssertNil(weakOwner, "the command and its pending task hold the owner weakly")
        await fulfillment(of: [spy.expectation(events: 4)], timeout: 10)

        XCTAssertEqual(bodies.current, 0, "no owner, no body")
        XCTAssertFalse(command.isExecuting)
        XCTAssertFalse(command.canExecute())
        spy.assertEvents([.executing(false), .executing(true), .cancelled, .executing(false)])
    }

    // MARK: - Owner gone before a hopped call reaches the main queue

    func test_ownerGoneBeforeAHoppedCallRuns_noRunStarts_forEveryKindOfBody() async {
        let scheduler = TestScheduler()
        let bodies = CommandLock<[String]>([])
        var owner: CommandTestOwner? = CommandTestOwner()
        weak let weakOwner = owner
        let commands: [(String, Command)] = [
            ("sync", Command(delegate: owner!, perform: { _ in bodies.withLock { $0.append("sync") } })),
            (
                "dispatch",
                Command(
                    delegate: owner!, queue: scheduler,
                    work: { _, _, done in
                        bodies.withLock { $0.append("dispatch") }
                        done.succeed()
                    })
            ),
            (
                "async",
                Command(
                    delegate: owner!,
                    task: { _ in
                        await Task.yield()
                        bodies.withLock { $0.append("async") }
                    })
            ),
        ]
        let spies = commands.map { CommandSpy($0.1) }

        for (name, command) in commands {
            XCTAssertEqual(
                onBackgroundThread { command.execute() }, .handedToMainActor, "\(name): handed to the main queue")
        }
        owner = nil
        XCTAssertNil(weakOwner)
        await drainMainQueue()
        await drainMainQueue()  // anything a hop might have queued in turn

        XCTAssertEqual(scheduler.pendingCount, 0)
        XCTAssertEqual(bodies.current, [])
        for ((name, command), spy) in zip(commands, spies) {
            XCTAssertFalse(command.isExecuting, name)
            XCTAssertFalse(command.canExecute(), name)
            spy.assertEvents([.executing(false)], "\(name): no run started")
        }
    }

    // MARK: - Dispatch bodies

    func test_dispatchBody_runsOnItsQueue_forBothIsolations() async {
        let queue = DispatchQueue(label: "CommandIsolationTests.body")
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: "body queue")
        let places = CommandLock<[String]>([])
        let body: @Sendable (String, CommandRun) -> Void = { name, done in
            places.withLock {
                $0.append("\(name): \(DispatchQueue.getSpecific(key: key) ?? "elsewhere"), main \(Thread.isMainThread)")
            }
            done.succeed()
        }
        let mainActor = CommandWithParameter<String>(
            delegate: commandAnchor, queue: queue,
            work: { _, name, done in body(name, done) },
            canExecute: { _, _ in
                MainActor.assertIsolated()
                return true
            })
        let nonisolated = CommandWithParameter<String>(queue: queue, nonisolatedWork: body)
        let mainActorSpy = CommandSpy(mainActor, parameter: "", streams: [.outcomes])
        let nonisolatedSpy = CommandSpy(nonisolated, parameter: "", streams: [.outcomes])

        XCTAssertNil(mainActor.execute(parameter: "main-actor").refusal)
        XCTAssertNil(nonisolated.execute(parameter: "nonisolated").refusal)
        await fulfillment(
            of: [mainActorSpy.expectation(events: 1), nonisolatedSpy.expectation(events: 1)], timeout: 10)

        XCTAssertEqual(
            Set(places.current),
            ["main-actor: body queue, main false", "nonisolated: body queue, main false"])
    }

    func test_dispatchBody_ofAMainActorCommand_onATestScheduler_runsWhereTheSchedulerIsStepped() async {
        // The body is @Sendable: it runs on the thread that steps the scheduler, not hopped to main.
        let scheduler = TestScheduler()
        let threads = CommandLock<[Bool]>([])
        let command = Command(
            delegate: commandAnchor, queue: scheduler,
            work: { _, _, done in
                threads.withLock { $0.append(Thread.isMainThread) }
                done.succeed()
            })
        XCTAssertNil(command.execute().refusal)
        XCTAssertEqual(onBackgroundThread { scheduler.runAll() }, 1)
        XCTAssertEqual(threads.current, [false])
        XCTAssertFalse(command.isExecuting)
    }

    // MARK: - Nonisolated commands

    func test_nonisolatedSyncBodyAndPredicate_runOnTheCallingThread_beforeExecuteReturns() async {
        let threads = CommandLock<[String]>([])
        let command = CommandWithParameter<String>(
            nonisolatedPerform: { caller in
                threads.withLock { $0.append("body on \(caller): \(Self.isCurrentThread(caller))") }
            },
            canExecute: { caller in
                threads.withLock { $0.append("predicate on \(caller): \(Self.isCurrentThread(caller))") }
                return true
            })
        let spy = CommandSpy(command, parameter: "", streams: [.executing, .outcomes])

        let (returned, seenBeforeReturn) = onBackgroundThread { () -> (CommandExecution, [String]) in
            let caller = Self.currentThreadName()
            return (command.execute(parameter: caller), threads.current)
        }

        XCTAssertEqual(returned, .started)
        XCTAssertEqual(seenBeforeReturn.count, 2, "the predicate and the body ran before execute returned")
        XCTAssertTrue(seenBeforeReturn.allSatisfy { $0.hasSuffix(": true") }, "\(seenBeforeReturn)")
        XCTAssertFalse(command.isExecuting)
        spy.assertEvents([.executing(false), .executing(true), .succeeded, .executing(false)])

        // And on the main thread, the same: it is the caller's thread.
        XCTAssertNil(command.execute(parameter: Self.currentThreadName()).refusal)
        XCTAssertEqual(threads.current.count, 4)
        XCTAssertTrue(threads.current.allSatisfy { $0.hasSuffix(": true") }, "\(threads.current)")
    }

    func test_nonisolatedCanExecute_withAPredicate_worksFromABackgroundThread() async {
        let allowed = CommandLock(true)
        let command = Command(nonisolatedPerform: {}, canExecute: { allowed.current })
        XCTAssertTrue(onBackgroundThread { command.canExecute() })
        allowed.withLock { $0 = false }
        XCTAssertFalse(onBackgroundThread { command.canExecute() })
        XCTAssertEqual(
            onBackgroundThread { command.execute() }, .refused(.cannotExecute), "refused on the calling thread: no hop")
    }

    func test_nonisolatedAsyncBody_runsOffTheMainThread() async {
        let threads = CommandLock<[Bool]>([])
        let command = Command(nonisolatedTask: {
            threads.withLock { $0.append(Thread.isMainThread) }
            await Task.yield()
            threads.withLock { $0.append(Thread.isMainThread) }
        })
        let spy = CommandSpy(command, streams: [.outcomes, .errors])
        XCTAssertNil(command.execute().refusal)  // from the main thread
        spy.recorder.waitForCount(1)  // blocking the main thread: the body does not need it
        spy.assertEvents([.succeeded])
        XCTAssertEqual(threads.current, [false, false])
    }

    // MARK: - .enqueue across threads

    func test_enqueue_mainActorSyncBody_queuedBehindUseWorkEndedOnABackgroundThread_runsOnTheMainThread() async {
        let log = CommandLock<[String]>([])
        let command = CommandWithParameter<Int>(
            delegate: commandAnchor, policy: .enqueue,
            perform: { _, value in
                MainActor.assertIsolated()
                log.withLock { $0.append("\(value) on main \(Thread.isMainThread)") }
            })
        let spy = CommandSpy(command, parameter: 0, streams: [.executing, .outcomes, .errors])
        let work = CommandLock<CommandRun?>(nil)
        command.useWork { done in work.withLock { $0 = done } }
        XCTAssertNil(command.execute(parameter: 1).refusal, "queued behind the work")
        XCTAssertNil(command.execute(parameter: 2).refusal, "queued behind the work")

        onBackgroundThread { work.current?.succeed() }

        XCTAssertEqual(log.current, [], "the queued run waits for the main queue")
        XCTAssertTrue(command.isExecuting, "the queued run has taken over: no gap")
        spy.assertEvents([.executing(false), .executing(true), .succeeded])

        await drainMainQueue()

        XCTAssertEqual(log.current, ["1 on main true", "2 on main true"])
        XCTAssertFalse(command.isExecuting)
        spy.assertEvents([.executing(false), .executing(true), .succeeded, .succeeded, .succeeded, .executing(false)])
    }

    func test_enqueue_nonisolatedSyncBody_queuedBehindUseWork_runsOnTheThreadThatEndsIt() async {
        let log = CommandLock<[String]>([])
        let command = CommandWithParameter<Int>(
            policy: .enqueue,
            nonisolatedPerform: { value in
                log.withLock { $0.append("\(value) on main \(Thread.isMainThread)") }
            })
        let work = CommandLock<CommandRun?>(nil)
        command.useWork { done in work.withLock { $0 = done } }
        XCTAssertNil(command.execute(parameter: 1).refusal)

        let seenBeforeReturn = onBackgroundThread { () -> [String] in
            work.current?.succeed()
            return log.current
        }

        XCTAssertEqual(seenBeforeReturn, ["1 on main false"], "ran on the ending thread, before `done` returned")
        XCTAssertFalse(command.isExecuting)
    }

    // MARK: - Threads

    private nonisolated static func currentThreadName() -> String {
        "\(pthread_self())"
    }

    private nonisolated static func isCurrentThread(_ name: String) -> Bool {
        currentThreadName() == name
    }
}
