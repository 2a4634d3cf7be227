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
            let command = Command(handler: {})
            kept.append(command)
            return [command]
        }
        XCTAssertEqual(survivors, ["#0 CommandWithParameter<()>"])
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
            let command = Command(handler: { await Task.yield() })
            let spy = CommandSpy(command, streams: [.outcomes])
            command.execute()
            await fulfillment(of: [spy.expectation(events: 1)], timeout: 10)
            return [command, spy]
        }
        XCTAssertEqual(survivors, [])
    }

    func test_errorsFromMakeObjects_areRethrown() {
        XCTAssertThrowsError(try survivingObjects { throw CommandTestError(51) }) { error in
            XCTAssertEqual(error as? CommandTestError, CommandTestError(51))
        }
        XCTAssertThrowsError(try assertDeallocated { () throws -> [AnyObject] in throw CommandTestError(52) })
    }
}
