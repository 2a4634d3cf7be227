import Dispatch
import Foundation
import Ripple
import RippleTestSupport
import RippleTesting
import XCTest

/// A presenter that owns its commands, STT-style: `lazy var` commands with `delegate: self`. On the
/// main actor, as presenters are (which also makes it `Sendable`, as a command's owner must be).
@MainActor
final class LeakTestPresenter {
    let scheduler: TestScheduler

    init(scheduler: TestScheduler) {
        self.scheduler = scheduler
    }

    private(set) lazy var save = Command(delegate: self, perform: { presenter in presenter.didSave() })

    private(set) lazy var upload = CommandWithParameter<Int>(
        delegate: self, queue: scheduler,
        work: { _, _, done in
            done.succeed()
        })

    private(set) lazy var refresh = Command(delegate: self, task: { presenter in await presenter.reload() })

    func didSave() {}
    func reload() async {}
}

/// Commands, their owners, bindings and subscriptions create no retain cycles.
///
/// Main-actor commands (`async` methods of a `@MainActor` class: see ``CommandAsyncTests``).
@MainActor
final class CommandLeakTests: XCTestCase {
    func test_presenterAndItsCommands_deallocate_afterSyncAndDispatchRuns() async {
        let scheduler = TestScheduler()
        await assertDeallocated {
            let presenter = LeakTestPresenter(scheduler: scheduler)
            presenter.save.execute()
            presenter.upload.execute(parameter: 1)
            scheduler.runAll()
            return [presenter, presenter.save, presenter.upload]
        }
    }

    func test_presenterAndItsCommands_deallocate_afterAnAsyncRun() async {
        await assertDeallocated(timeout: 10) {
            let presenter = LeakTestPresenter(scheduler: TestScheduler())
            let spy = CommandSpy(presenter.refresh, streams: [.outcomes])
            presenter.refresh.execute()
            await fulfillment(of: [spy.expectation(events: 1)], timeout: 10)
            return [presenter, presenter.refresh, spy]
        }
    }

    func test_commandWithARunStillQueued_deallocates_andTheQueuedJobIsHarmless() async {
        let scheduler = TestScheduler()
        await assertDeallocated {
            let presenter = LeakTestPresenter(scheduler: scheduler)
            presenter.upload.execute(parameter: 1)
            return [presenter, presenter.upload]
        }
        XCTAssertEqual(scheduler.pendingCount, 1)
        XCTAssertEqual(scheduler.runAll(), 1, "the orphaned job runs without a crash")
    }

    func test_commandWithExternalWorkNeverEnded_deallocates() async {
        let runs = CommandLock<[CommandRun]>([])
        await assertDeallocated {
            let command = Command(delegate: commandAnchor, perform: { _ in })
            command.useWork { done in runs.withLock { $0.append(done) } }
            return [command]
        }
        runs.current.first?.succeed()  // ending it after the command is gone does nothing
    }

    func test_subscriptionsToEveryStream_doNotRetainTheCommand() async {
        var tokens: [SubscriptionToken] = []
        await assertDeallocated {
            let command = Command(delegate: commandAnchor, perform: { _ in throw CommandTestError(41) })
            tokens = [
                command.executingChanges.subscribe(on: .synchronous) { _ in },
                command.canExecuteChanges.subscribe(on: .synchronous) {},
                command.errors.subscribe(on: .synchronous) { _ in },
                command.outcomes.subscribe(on: .synchronous) { _ in },
            ]
            command.execute()
            return [command]
        }
        tokens.forEach { $0.cancel() }  // cancelling after the command is gone is harmless
    }

    func test_tokensAndSpies_deallocateWithTheCommand() async {
        await assertDeallocated {
            let command = Command(delegate: commandAnchor, perform: { _ in })
            let spy = CommandSpy(command)
            let token = command.errors.subscribe(on: .synchronous) { _ in }
            command.execute()
            return [command, spy, token]
        }
    }

    func test_raiseCanExecuteChangedWhenever_doesNotRetainTheCommand() async {
        let trigger = Emitter<Int>()
        await assertDeallocated {
            let command = Command(delegate: commandAnchor, perform: { _ in })
            command.raiseCanExecuteChanged(whenever: trigger.stream)
            trigger.send(1)
            return [command]
        }
        XCTAssertEqual(trigger.subscriberCount, 0, "the trigger subscription ended with the command")
    }

    func test_commandsFollowingEachOther_doNotRetainEachOther() async {
        await assertDeallocated {
            let first = Command(delegate: commandAnchor, perform: { _ in })
            let second = Command(delegate: commandAnchor, perform: { _ in })
            first.raiseCanExecuteChanged(whenever: second.executingChanges)
            second.raiseCanExecuteChanged(whenever: first.executingChanges)
            first.execute()
            second.execute()
            return [first, second]
        }
    }

    func test_binding_itsViews_andTheCommand_deallocate() async {
        await assertDeallocated(timeout: 10) {
            let presenter = LeakTestPresenter(scheduler: TestScheduler())
            let control = SpyControl()
            let indicator = SpyIndicator()
            let refresh = SpyRefresh()
            let bindings = [
                presenter.save.bind(to: control), presenter.save.bind(to: indicator), presenter.save.bind(to: refresh),
            ]
            control.tap?()
            await fulfillment(of: [mainQueueFlushed()], timeout: 10)
            return [presenter, presenter.save, control, indicator, refresh] + bindings
        }
    }

    func test_bindingWithDeliveriesStillQueued_deallocatesOnceTheyHaveRun() async {
        // Main-queue deliveries hold the binding weakly; whatever is still queued is released
        // when the main queue gets to it.
        await assertDeallocated(timeout: 10) {
            let command = Command(delegate: commandAnchor, perform: { _ in })
            let binding = command.bind(to: SpyControl()) {}
            command.execute()
            command.raiseCanExecuteChanged()
            return [command, binding]
        }
    }
}
