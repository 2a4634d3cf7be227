import Dispatch
import Foundation
import Ripple
import RippleTestSupport
import RippleTesting
import XCTest

/// The owner (`delegate:`) is held weakly: once it is gone the command cannot execute, and a run
/// whose owner went away ends without a crash.
///
/// Commands with an owner are main-actor commands (`async` methods of a `@MainActor` class: see
/// ``CommandAsyncTests``).
@MainActor
final class CommandOwnerTests: XCTestCase {
    func test_ownerGoneBeforeExecute_noKindOfCommandCanExecute() async {
        let scheduler = TestScheduler()
        var commands: [(String, Command)] = []
        let bodies = CommandLock(0)
        do {
            let owner = CommandTestOwner()
            commands = [
                ("sync", Command(delegate: owner, perform: { _ in bodies.withLock { $0 += 1 } })),
                (
                    "dispatch",
                    Command(
                        delegate: owner, queue: scheduler,
                        work: { _, _, done in
                            bodies.withLock { $0 += 1 }
                            done.succeed()
                        })
                ),
                (
                    "async",
                    Command(
                        delegate: owner,
                        task: { _ in
                            await Task.yield()
                            bodies.withLock { $0 += 1 }
                        })
                ),
            ]
            for (name, command) in commands {
                XCTAssertTrue(command.canExecute(), "\(name) can execute while its owner lives")
            }
        }
        for (name, command) in commands {
            let spy = CommandSpy(command)
            XCTAssertFalse(command.canExecute(), name)
            XCTAssertNotNil(command.execute().refusal, name)
            spy.assertEvents([.executing(false)], name)
        }
        XCTAssertEqual(scheduler.pendingCount, 0)
        XCTAssertEqual(bodies.current, 0)
    }

    func test_ownerGoneBeforeExecute_commandWithParameter_predicateIsNotCalled() async {
        let predicateCalls = CommandLock(0)
        var command: CommandWithParameter<Int>!
        do {
            let owner = CommandTestOwner()
            command = CommandWithParameter<Int>(
                delegate: owner,
                perform: { _, _ in },
                canExecute: { _, _ in
                    predicateCalls.withLock { $0 += 1 }
                    return true
                })
        }
        XCTAssertFalse(command.canExecute(parameter: 1))
        XCTAssertNotNil(command.execute(parameter: 1).refusal)
        XCTAssertEqual(predicateCalls.current, 0, "no owner to ask")
    }

    func test_ownerGoneWhileTheDispatchRunIsQueued_theRunEndsCancelled() async {
        let scheduler = TestScheduler()
        let bodies = CommandLock(0)
        var command: Command!
        var spy: CommandSpy<Void, Void>!
        do {
            let owner = CommandTestOwner()
            command = Command(
                delegate: owner, queue: scheduler,
                work: { _, _, done in
                    bodies.withLock { $0 += 1 }
                    done.succeed()
                })
            spy = CommandSpy(command)
            XCTAssertNil(command.execute().refusal)
        }
        XCTAssertTrue(command.isExecuting)
        scheduler.runAll()
        XCTAssertEqual(bodies.current, 0, "no owner, no body")
        XCTAssertFalse(command.isExecuting)
        XCTAssertNotNil(command.execute().refusal, "a command whose owner is gone cannot execute")
        spy.assertEvents([
            .executing(false), .executing(true), .canExecute(false),
            .cancelled, .executing(false), .canExecute(false),
        ])
    }

    func test_ownerGoneWhileTheDispatchBodyAwaitsItsCompletion_theRunStillEnds() async {
        let scheduler = TestScheduler()
        let pending = CommandLock<[CommandRun]>([])
        weak var weakOwner: CommandTestOwner?
        var command: Command!
        var spy: CommandSpy<Void, Void>!
        do {
            let owner = CommandTestOwner()
            weakOwner = owner
            command = Command(
                delegate: owner, queue: scheduler,
                work: { _, _, done in
                    pending.withLock { $0.append(done) }  // the completion does not capture the owner
                })
            spy = CommandSpy(command)
            command.execute()
            scheduler.runAll()
        }
        XCTAssertNil(weakOwner, "the command and its run do not keep the owner")
        XCTAssertTrue(command.isExecuting)
        pending.current.first?.succeed()
        XCTAssertFalse(command.isExecuting)
        XCTAssertNotNil(command.execute().refusal)
        spy.assertEvents([
            .executing(false), .executing(true), .canExecute(false),
            .succeeded, .executing(false), .canExecute(false),
        ])
    }

    func test_ownerGoneWithRunsQueued_theQueuedRunsEndCancelled() async {
        let scheduler = TestScheduler()
        let pending = CommandLock<[CommandRun]>([])
        let log = CommandLock<[Int]>([])
        var command: CommandWithParameter<Int>!
        var spy: CommandSpy<Int, Void>!
        do {
            let owner = CommandTestOwner()
            command = CommandWithParameter<Int>(
                delegate: owner, queue: scheduler, policy: .enqueue,
                work: { _, value, done in
                    log.withLock { $0.append(value) }
                    pending.withLock { $0.append(done) }
                })
            spy = CommandSpy(command, parameter: 0, streams: [.executing, .outcomes, .errors])
            (1...3).forEach { command.execute(parameter: $0) }
            scheduler.runAll()
        }
        pending.current.first?.succeed()
        scheduler.runAll()
        scheduler.runAll()
        XCTAssertEqual(log.current, [1])
        XCTAssertFalse(command.isExecuting)
        spy.assertEvents([.executing(false), .executing(true), .succeeded, .cancelled, .cancelled, .executing(false)])
    }

    func test_ownerGoneWhileASyncRunIsQueuedBehindUseWork_theQueuedRunEndsCancelled() async {
        let runs = CommandLock<[CommandRun]>([])
        let bodies = CommandLock(0)
        var command: CommandWithParameter<Int>!
        var spy: CommandSpy<Int, Void>!
        do {
            let owner = CommandTestOwner()
            command = CommandWithParameter<Int>(
                delegate: owner, policy: .enqueue,
                perform: { _, _ in
                    bodies.withLock { $0 += 1 }
                })
            spy = CommandSpy(command, parameter: 0, streams: [.executing, .outcomes, .errors])
            command.useWork { done in runs.withLock { $0.append(done) } }
            XCTAssertNil(command.execute(parameter: 1).refusal, "queued while the owner lives")
        }
        runs.current.first?.succeed()
        XCTAssertEqual(bodies.current, 0, "no owner to run the body with")
        XCTAssertFalse(command.isExecuting)
        spy.assertEvents([.executing(false), .executing(true), .succeeded, .cancelled, .executing(false)])
    }

    func test_ownerIsNotRetainedByTheCommand_orItsSubscriptions() async {
        let scheduler = TestScheduler()
        weak var weakOwner: CommandTestOwner?
        var command: Command!
        var spy: CommandSpy<Void, Void>!
        do {
            let owner = CommandTestOwner()
            weakOwner = owner
            command = Command(
                delegate: owner,
                queue: scheduler,
                work: { _, _, done in done.succeed() },
                canExecute: { owner, _ in owner.isAllowed })
            spy = CommandSpy(command)
            command.execute()
            scheduler.runAll()
        }
        XCTAssertNil(weakOwner)
        XCTAssertFalse(command.canExecute())
        spy.assertEvents([
            .executing(false), .executing(true), .canExecute(false),
            .succeeded, .executing(false), .canExecute(true),
        ])
    }
}
