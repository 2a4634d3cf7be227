import Dispatch
import Foundation
import Ripple
import RippleTestSupport
import RippleTesting
import XCTest

/// State events arrive on the main queue by default (the `subscribe { … }` overload, whose handler
/// is `@MainActor`), or on the `Delivery` the subscriber picks. (`async` methods of a `@MainActor`
/// class: see ``CommandAsyncTests``.)
@MainActor
final class CommandDeliveryTests: XCTestCase {
    /// A failed run, as an asynchronous subscriber hears it.
    private let failedRun: [CommandEvent] = [
        CommandEvent.executing(false), .executing(true), .canExecute(false),
        .error(21), .failed(21), .executing(false), .canExecute(true),
    ].map(\.heardAsynchronously)

    func test_defaultDelivery_isTheMainQueue_forEveryStream() async {
        // A nonisolated command, so that the run, and every event, starts on a background thread.
        let command = Command(nonisolatedPerform: { throw CommandTestError(21) })
        let threads = EventRecorder<String>()
        let spy = CommandSpy(command, on: .main)
        let tokens = [
            command.executingChanges.subscribe { _ in threads.record(Thread.isMainThread ? "main" : "other") },
            command.canExecuteChanges.subscribe { threads.record(Thread.isMainThread ? "main" : "other") },
            command.errors.subscribe { _ in threads.record(Thread.isMainThread ? "main" : "other") },
            command.outcomes.subscribe { _ in threads.record(Thread.isMainThread ? "main" : "other") },
        ]
        let ranOffMain = EventRecorder<Bool>()
        DispatchQueue.global().async { ranOffMain.record(command.execute().refusal == nil && !Thread.isMainThread) }
        await fulfillment(
            of: [spy.expectation(events: failedRun.count), threads.expectation(count: failedRun.count)], timeout: 10)
        spy.assertEvents(failedRun)
        threads.assertEvents(Array(repeating: "main", count: failedRun.count))
        await fulfillment(of: [ranOffMain.expectation(count: 1)], timeout: 10)
        ranOffMain.assertEvents([true], "the run started off the main thread")
        tokens.forEach { $0.cancel() }
    }

    func test_queueDelivery_runsOnThatQueue() async {
        let queue = DispatchQueue(label: "CommandDeliveryTests.delivery")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 1)
        let command = Command(delegate: commandAnchor, perform: { _ in throw CommandTestError(21) })
        let onQueue = EventRecorder<Bool>()
        let token = command.outcomes.subscribe(on: .queue(queue)) { _ in
            onQueue.record(DispatchQueue.getSpecific(key: key) == 1)
        }
        let spy = CommandSpy(command, on: .queue(queue))
        command.execute()
        spy.recorder.waitForCount(failedRun.count)
        onQueue.waitForCount(1)
        spy.assertEvents(failedRun)
        onQueue.assertEvents([true])
        token.cancel()
    }

    func test_schedulerDelivery_deliversOnlyWhenTheSchedulerRuns() async {
        let delivery = TestScheduler()
        let command = Command(delegate: commandAnchor, perform: { _ in throw CommandTestError(21) })
        let spy = CommandSpy(command, on: .scheduler(delivery))
        XCTAssertEqual(spy.events, [], "even the replay waits for the scheduler")
        command.execute()
        XCTAssertEqual(spy.events, [])
        XCTAssertEqual(delivery.pendingCount, failedRun.count)
        XCTAssertEqual(delivery.runAll(), failedRun.count)
        spy.assertEvents(failedRun)
    }

    func test_mixedDeliveries_eachSubscriberGetsEveryEventOnce() async {
        let delivery = TestScheduler()
        let command = Command(delegate: commandAnchor, perform: { _ in throw CommandTestError(21) })
        let synchronous = CommandSpy(command)
        let stepped = CommandSpy(command, on: .scheduler(delivery))
        let main = CommandSpy(command, on: .main)
        command.execute()
        delivery.runAll()
        await fulfillment(of: [main.expectation(events: failedRun.count)], timeout: 10)
        synchronous.assertEvents([
            .executing(false), .executing(true), .canExecute(false),
            .error(21), .failed(21), .executing(false), .canExecute(true),
        ])
        stepped.assertEvents(failedRun)
        main.assertEvents(failedRun)
    }
}
