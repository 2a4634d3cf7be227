import Dispatch
import Foundation
import Ripple
import RippleTestSupport
import RippleTesting
import XCTest

/// Commands with `async` bodies: the run is a task, the command executes until the task ends.
///
/// Main-actor commands: their bodies run on the main actor, so the tests wait with
/// `await fulfillment(of:timeout:)`, which lets the main queue turn, never by blocking the main
/// thread.
///
/// On Linux the test methods of a `@MainActor` test class must be `async`: SwiftPM's test
/// discovery lists a class whose methods are all synchronous with their `@MainActor` type, and the
/// runner crashes casting it (a synchronous `@MainActor` method in a nonisolated class crashes the
/// same way). An `async` method converts soundly. So every main-actor test class here has `async`
/// methods only, and waits with `await fulfillment`, never `wait(for:)`.
@MainActor
final class CommandAsyncTests: XCTestCase {
    func test_asyncBody_isExecutingWhileTheTaskRuns_andPublishesTheWholeHistory() async {
        let owner = CommandTestOwner()
        let gate = CommandGate()
        var command: Command!
        defer { command = nil }  // the body captures `command`: break the cycle when the test ends
        command = Command(
            delegate: owner,
            task: { owner in
                owner.log("started, executing=\(command.isExecuting)")
                await gate.wait()
                owner.log("ended")
            })
        let spy = CommandSpy(command)

        XCTAssertNil(command.execute().refusal)
        XCTAssertTrue(command.isExecuting)
        XCTAssertFalse(command.canExecute())
        XCTAssertNotNil(command.execute().refusal, "refused while the task runs")
        gate.open()
        await fulfillment(of: [spy.expectation(events: 6)], timeout: 10)

        XCTAssertEqual(owner.log, ["started, executing=true", "ended"])
        XCTAssertFalse(command.isExecuting)
        spy.assertEvents([
            .executing(false), .executing(true), .canExecute(false),
            .succeeded, .executing(false), .canExecute(true),
        ])
    }

    func test_asyncBody_thatThrows_fails() async {
        let command = Command(
            delegate: commandAnchor,
            task: { _ in
                await Task.yield()
                throw CommandTestError(5)
            })
        let spy = CommandSpy(command)
        command.execute()
        await fulfillment(of: [spy.expectation(events: 7)], timeout: 10)
        spy.assertEvents([
            .executing(false), .executing(true), .canExecute(false),
            .error(5), .failed(5), .executing(false), .canExecute(true),
        ])
    }

    func test_asyncBody_withParameter_isTypedEndToEnd() async {
        struct Page: Sendable, Equatable { var number: Int }
        let owner = CommandTestOwner()
        let load = CommandWithParameter<Page>(
            delegate: owner,
            task: { owner, page in
                await Task.yield()
                owner.log("page \(page.number)")
            },
            canExecute: { _, page in page.number > 0 })
        let spy = CommandSpy(load, parameter: Page(number: 1), streams: [.outcomes])
        XCTAssertNotNil(load.execute(parameter: Page(number: 0)).refusal)
        XCTAssertNil(load.execute(parameter: Page(number: 2)).refusal)
        await fulfillment(of: [spy.expectation(events: 1)], timeout: 10)
        XCTAssertEqual(owner.log, ["page 2"])
        spy.assertEvents([.succeeded])
    }

    func test_asyncBody_withPriority_runs() async {
        let command = Command(delegate: commandAnchor, priority: .background, task: { _ in await Task.yield() })
        let spy = CommandSpy(command, streams: [.outcomes])
        command.execute()
        await fulfillment(of: [spy.expectation(events: 1)], timeout: 10)
        spy.assertEvents([.succeeded])
    }

    func test_asyncBody_ofAMainActorPresenter_callsItsIsolatedMethods() async {
        let presenter = MainActorPresenter()
        let spy = CommandSpy(presenter.load, streams: [.executing, .outcomes])
        XCTAssertNil(presenter.load.execute().refusal)
        await fulfillment(of: [spy.expectation(events: 4)], timeout: 10)
        XCTAssertEqual(presenter.loads, 1)
        XCTAssertTrue(presenter.loadRanOnTheMainThread)
        spy.assertEvents([.executing(false), .executing(true), .succeeded, .executing(false)])
    }

    func test_asyncBody_holdsTheOwnerOnlyWhileItRuns() async {
        let entered = CommandGate()
        let gate = CommandGate()
        weak var weakOwner: CommandTestOwner?
        var command: Command!
        var spy: CommandSpy<Void, Void>!
        do {
            let owner = CommandTestOwner()
            weakOwner = owner
            command = Command(
                delegate: owner,
                task: { owner in
                    entered.open()
                    await gate.wait()
                    owner.log("ended")
                })
            spy = CommandSpy(command, streams: [.outcomes])
            command.execute()
            await fulfillment(of: [entered.opened("the body started")], timeout: 30)
        }
        XCTAssertNotNil(weakOwner, "the running body holds its owner")
        gate.open()
        await fulfillment(of: [spy.expectation(events: 1)], timeout: 10)
        spy.assertEvents([.succeeded])
        // The task releases its owner as it ends, on the main actor.
        await eventually(until: { weakOwner == nil }, "the owner is released once the body has ended")
        XCTAssertNil(weakOwner, "the owner is released once the body has ended")
        XCTAssertFalse(command.canExecute(), "the owner is gone")
        XCTAssertNotNil(command.execute().refusal)
    }
}

/// A presenter isolated to the main actor, with a command whose async body awaits its methods.
@MainActor
final class MainActorPresenter {
    private(set) var loads = 0
    private(set) var loadRanOnTheMainThread = false

    private(set) lazy var load = Command(
        delegate: self,
        task: { presenter in
            await presenter.performLoad()
        })

    func performLoad() async {
        loads += 1
        loadRanOnTheMainThread = Thread.isMainThread
    }
}
