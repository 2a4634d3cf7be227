import Dispatch
import Foundation
import Ripple
import RippleTestSupport
import RippleTesting
import XCTest

/// A node that can form a retain cycle.
private final class LeakNode {
    var next: LeakNode?
}

/// RippleTesting's `assertDeallocated` and `survivingObjects`.
final class AssertDeallocatedTests: XCTestCase {
    func test_objectsThatAreReleased_pass() {
        assertDeallocated {
            let first = LeakNode()
            let second = LeakNode()
            first.next = second
            return [first, second]
        }
    }

    func test_aRetainCycle_isReportedWithEachSurvivorsPositionAndType() {
        var cycle: LeakNode?
        let survivors = survivingObjects {
            let clean = LeakNode()
            let first = LeakNode()
            let second = LeakNode()
            first.next = second
            second.next = first
            cycle = first
            return [clean, first, second]
        }
        XCTAssertEqual(survivors, ["#1 LeakNode", "#2 LeakNode"])
        cycle?.next = nil  // break the cycle so that the test itself does not leak
    }

    func test_anObjectHeldByTheTest_isASurvivor() {
        var kept: [AnyObject] = []
        let survivors = survivingObjects {
            let command = Command(delegate: commandAnchor, perform: { _ in })
            kept.append(command)
            return [command]
        }
        XCTAssertEqual(survivors, ["#0 CommandWithResult<(), ()>"])
        kept.removeAll()
    }

    func test_timeout_waitsForAReleaseOnTheMainQueue_turningTheRunLoop() {
        let survivors = survivingObjects(timeout: 10) {
            let node = UncheckedBox(LeakNode())
            DispatchQueue.main.async { withExtendedLifetime(node) {} }
            return [node.value]
        }
        XCTAssertEqual(survivors, [])
    }

    func test_timeout_waitsForAReleaseOnAnotherQueue() {
        assertDeallocated(timeout: 10) {
            let node = UncheckedBox(LeakNode())
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) { withExtendedLifetime(node) {} }
            return [node.value]
        }
    }

    func test_withoutATimeout_anObjectReleasedLaterIsASurvivor() {
        let release = DispatchSemaphore(value: 0)
        let survivors = survivingObjects {
            let node = UncheckedBox(LeakNode())
            DispatchQueue.global().async {
                release.wait()
                withExtendedLifetime(node) {}
            }
            return [node.value]
        }
        release.signal()
        XCTAssertEqual(survivors, ["#0 LeakNode"])
    }

    @MainActor
    func test_async_waitsForTheMainQueueWithoutBlockingIt() async {
        // The closure does not await: the non-blocking overload is still the one chosen.
        await assertDeallocated(timeout: 10) {
            let node = LeakNode()
            DispatchQueue.main.async { withExtendedLifetime(node) {} }
            return [node]
        }
    }

    @MainActor
    func test_async_makeObjectsMayAwait() async {
        let survivors = await survivingObjects(timeout: 10) {
            let command = Command(delegate: commandAnchor, task: { _ in await Task.yield() })
            let spy = CommandSpy(command, streams: [.outcomes])
            command.execute()
            await fulfillment(of: [spy.expectation(events: 1)], timeout: 10)
            return [command, spy]
        }
        XCTAssertEqual(survivors, [])
    }

    @MainActor
    func test_async_aSynchronousClosure_waitsForTheMainQueueWithoutBlockingIt() async {
        // `await` on a closure that does not await: the non-blocking overload (with the blocking
        // one, the `await` would be a warning, and the build treats warnings as errors).
        let survivors = await survivingObjects(timeout: 10) {
            let node = LeakNode()
            DispatchQueue.main.async { withExtendedLifetime(node) {} }
            return [node]
        }
        XCTAssertEqual(survivors, [])
    }

    func test_async_aSynchronousClosure_suspendsTheCallersActor() async {
        // On an actor other than the main one, blocking would keep the actor's own job, which holds
        // the node, from running until the timeout: only a suspending wait lets it release the node.
        let survivors = await LeakWatcher().survivorsOfAnActorJob()
        XCTAssertEqual(survivors, [])
    }

    func test_errorsFromMakeObjects_areRethrown() {
        XCTAssertThrowsError(try survivingObjects { throw CommandTestError(51) }) { error in
            XCTAssertEqual(error as? CommandTestError, CommandTestError(51))
        }
        XCTAssertThrowsError(try assertDeallocated { () throws -> [AnyObject] in throw CommandTestError(52) })
    }
}

/// Watches an object that only a job on this actor releases.
private actor LeakWatcher {
    func survivorsOfAnActorJob() async -> [String] {
        await survivingObjects(timeout: 10) {
            let node = UncheckedBox(LeakNode())
            Task { self.hold(node) }  // runs on this actor, once the actor is free
            return [node.value]
        }
    }

    private func hold(_ node: UncheckedBox<LeakNode>) {
        withExtendedLifetime(node) {}
    }
}
