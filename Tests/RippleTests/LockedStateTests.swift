import Dispatch
import Foundation
import Ripple
import RippleTestSupport
import XCTest

/// `LockedState`, the lock every Ripple type is built on (`package` access).
final class LockedStateTests: XCTestCase {
    private struct Failure: Error {}

    func test_withLock_readsMutatesAndReturns() {
        let state = LockedState([1, 2])
        let count = state.withLock { values -> Int in
            values.append(3)
            return values.count
        }
        XCTAssertEqual(count, 3)
        XCTAssertEqual(state.withLock { $0 }, [1, 2, 3])
    }

    func test_copies_shareOneState() {
        let state = LockedState(0)
        let copy = state
        copy.withLock { $0 += 5 }
        XCTAssertEqual(state.withLock { $0 }, 5)
    }

    func test_withLock_rethrows_andReleasesTheLock() {
        let state = LockedState(0)
        XCTAssertThrowsError(
            try state.withLock { value in
                value = 1
                throw Failure()
            })
        XCTAssertEqual(state.withLock { $0 }, 1, "the mutation before the throw stays, and the lock is free")
    }

    func test_concurrentIncrements_areNotLost() {
        let state = LockedState(0)
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<10_000 { state.withLock { $0 += 1 } }
        }
        XCTAssertEqual(state.withLock { $0 }, 40_000)
    }

    func test_state_isReleasedWithTheLock() {
        assertDeallocated {
            let canary = Canary()
            let state = LockedState<Canary?>(canary)
            XCTAssertTrue(state.withLock { $0 } === canary)
            return WeakReference(canary)
        }
    }

    func test_subscriberState_deactivatesOnce() {
        let state = SubscriberState()
        XCTAssertTrue(state.isActive)
        state.deactivate()
        state.deactivate()
        XCTAssertFalse(state.isActive)
    }

    /// The entry point of the child process; skipped in a normal run.
    func test_childProcessEntry() throws {
        guard try childProcessCase() == "reenter" else { return }
        let state = LockedState(0)
        state.withLock { _ in state.withLock { $0 += 1 } }
        print("survived")
    }

    func test_reenteringFromTheSameThread_trapsInDebugInsteadOfHanging() throws {
        try XCTSkipUnless(isDebugBuild, "the error-checking mutex is a debug-build feature")
        #if !canImport(Glibc) && !canImport(Musl)
        try XCTSkipIf(true, "the error-checking mutex is the pthread implementation's")
        #endif
        let outcome = try runChildTests("RippleTests.LockedStateTests/test_childProcessEntry", cases: ["reenter"])[
            "reenter"]
        XCTAssertEqual(outcome?.terminatedBySignal, true)
        XCTAssertEqual(
            outcome?.standardError.contains("a lock was re-entered from the thread that holds it"), true,
            outcome?.standardError ?? "")
    }
}
