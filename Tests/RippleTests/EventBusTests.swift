import Dispatch
import Foundation
import Ripple
import RippleTestSupport
import XCTest

/// `EventBus`: typed channels on a private bus.
final class EventBusTests: XCTestCase {
    private struct LoggedOut: Sendable, Equatable {
        var user: String
    }

    private struct Refreshed: Sendable, Equatable {
        var page: Int
    }

    private struct Tagged<Tag>: Sendable, Equatable {
        var value: Int
    }

    func test_post_reachesObserversOfItsTypeInPostOrder() {
        let bus = EventBus()
        let first = EventRecorder<LoggedOut>()
        let second = EventRecorder<LoggedOut>()
        let tokens = [
            bus.observe(LoggedOut.self, on: .synchronous, first.handler),
            bus.observe(LoggedOut.self, on: .synchronous, second.handler),
        ]
        bus.post(LoggedOut(user: "a"))
        bus.post(LoggedOut(user: "b"))
        first.assertEvents([LoggedOut(user: "a"), LoggedOut(user: "b")])
        second.assertEvents([LoggedOut(user: "a"), LoggedOut(user: "b")])
        tokens.forEach { $0.cancel() }
    }

    func test_differentTypes_doNotCross() {
        let bus = EventBus()
        let loggedOut = EventRecorder<LoggedOut>()
        let refreshed = EventRecorder<Refreshed>()
        let ints = EventRecorder<Int>()
        let tokens = [
            bus.observe(LoggedOut.self, on: .synchronous, loggedOut.handler),
            bus.observe(Refreshed.self, on: .synchronous, refreshed.handler),
            bus.observe(Int.self, on: .synchronous, ints.handler),
        ]
        bus.post(Refreshed(page: 1))
        bus.post(7)
        bus.post("not observed")
        bus.post(LoggedOut(user: "a"))
        bus.post(Refreshed(page: 2))
        loggedOut.assertEvents([LoggedOut(user: "a")])
        refreshed.assertEvents([Refreshed(page: 1), Refreshed(page: 2)])
        ints.assertEvents([7])
        tokens.forEach { $0.cancel() }
    }

    func test_genericSpecializations_areDifferentChannels() {
        let bus = EventBus()
        let intTagged = EventRecorder<Tagged<Int>>()
        let stringTagged = EventRecorder<Tagged<String>>()
        let tokens = [
            bus.observe(Tagged<Int>.self, on: .synchronous, intTagged.handler),
            bus.observe(Tagged<String>.self, on: .synchronous, stringTagged.handler),
        ]
        bus.post(Tagged<Int>(value: 1))
        bus.post(Tagged<String>(value: 2))
        intTagged.assertEvents([Tagged(value: 1)])
        stringTagged.assertEvents([Tagged(value: 2)])
        tokens.forEach { $0.cancel() }
    }

    func test_separateBuses_doNotCross() {
        let bus = EventBus()
        let other = EventBus()
        let recorder = EventRecorder<Int>()
        let token = bus.observe(Int.self, on: .synchronous, recorder.handler)
        other.post(1)
        bus.post(2)
        recorder.assertEvents([2])
        token.cancel()
    }

    func test_observer_getsOnlyEventsPostedAfterItObserved() {
        let bus = EventBus()
        bus.post(Refreshed(page: 0))
        let recorder = EventRecorder<Refreshed>()
        let token = bus.observe(Refreshed.self, on: .synchronous, recorder.handler)
        bus.post(Refreshed(page: 1))
        recorder.assertEvents([Refreshed(page: 1)])
        token.cancel()
    }

    func test_token_endsObservation() {
        let bus = EventBus()
        let kept = EventRecorder<Int>()
        let ended = EventRecorder<Int>()
        let keptToken = bus.observe(Int.self, on: .synchronous, kept.handler)
        var endedToken: SubscriptionToken? = bus.observe(Int.self, on: .synchronous, ended.handler)
        bus.post(1)
        endedToken?.cancel()
        bus.post(2)
        endedToken = nil
        _ = bus.observe(Int.self, on: .synchronous, ended.handler)
        bus.post(3)
        kept.assertEvents([1, 2, 3])
        ended.assertEvents([1], "a cancelled or discarded token observes nothing")
        keptToken.cancel()
    }

    func test_defaultDelivery_isTheMainQueue() {
        let bus = EventBus()
        let recorder = EventRecorder<[Int]>()
        let token = bus.observe(Refreshed.self) { event in recorder.record([event.page, Thread.isMainThread ? 1 : 0]) }
        DispatchQueue.global().async {
            bus.post(Refreshed(page: 1))
            bus.post(Refreshed(page: 2))
        }
        wait(for: [recorder.expectation(count: 2)], timeout: 10)
        recorder.assertEvents([[1, 1], [2, 1]])
        token.cancel()
    }

    func test_postFromObserver_isDeliveredAfterTheCurrentEvent() {
        let bus = EventBus()
        let log = EventRecorder<String>()
        let tokens = [
            bus.observe(Int.self, on: .synchronous) { value in
                log.record("A\(value)")
                if value == 1 { bus.post(2) }
            },
            bus.observe(Int.self, on: .synchronous) { value in log.record("B\(value)") },
        ]
        bus.post(1)
        log.assertEvents(["A1", "B1", "A2", "B2"])
        tokens.forEach { $0.cancel() }
    }

    func test_concurrentObserveAndPostOnManyTypes_deliversEveryEventOnce() {
        let bus = EventBus()
        let ints = EventRecorder<Int>()
        let pages = EventRecorder<Refreshed>()
        let tokens = Locked<[SubscriptionToken]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            // Every thread races to create the channels first.
            let token =
                thread % 2 == 0
                ? bus.observe(Int.self, on: .synchronous, ints.handler)
                : bus.observe(Refreshed.self, on: .synchronous, pages.handler)
            tokens.withLock { $0.append(token) }
        }
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 0..<250 {
                if thread % 2 == 0 { bus.post(index) } else { bus.post(Refreshed(page: index)) }
            }
        }
        XCTAssertEqual(ints.count, 2 * 2 * 250, "two observers, two posting threads")
        XCTAssertEqual(pages.count, 2 * 2 * 250)
        tokens.withLock { $0.forEach { $0.cancel() } }
    }
}
