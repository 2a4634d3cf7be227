import Dispatch
import Foundation
import Ripple
import RippleTestSupport
import XCTest

/// `SubscriptionToken` and `TokenBag`: run-once cancellation, identity, storage, thread safety.
final class SubscriptionTokenTests: XCTestCase {
    private func countingToken(_ calls: Locked<Int>) -> SubscriptionToken {
        SubscriptionToken { calls.withLock { $0 += 1 } }
    }

    // MARK: - SubscriptionToken

    func test_cancel_runsTheActionOnce() {
        let calls = Locked(0)
        let token = countingToken(calls)
        XCTAssertFalse(token.isCancelled)
        XCTAssertEqual(calls.current, 0, "creating a token does not cancel")
        token.cancel()
        token.cancel()
        XCTAssertTrue(token.isCancelled)
        XCTAssertEqual(calls.current, 1)
    }

    func test_deinit_runsTheActionOnce() {
        let calls = Locked(0)
        do {
            let token = countingToken(calls)
            XCTAssertFalse(token.isCancelled)
        }
        XCTAssertEqual(calls.current, 1)
    }

    func test_deinitAfterCancel_doesNotRunTheActionAgain() {
        let calls = Locked(0)
        do {
            let token = countingToken(calls)
            token.cancel()
        }
        XCTAssertEqual(calls.current, 1)
    }

    func test_cancelFromInsideItsOwnAction_doesNothingAndDoesNotDeadlock() {
        let calls = Locked(0)
        let slot = Locked<SubscriptionToken?>(nil)
        let token = SubscriptionToken {
            calls.withLock { $0 += 1 }
            let token = slot.withLock { $0 }
            token?.cancel()
            XCTAssertEqual(token?.isCancelled, true, "the action has already been taken")
        }
        slot.withLock { $0 = token }
        token.cancel()
        XCTAssertEqual(calls.current, 1)
        slot.withLock { $0 = nil }
    }

    func test_concurrentCancels_runTheActionExactlyOnce() {
        for _ in 0..<50 {
            let calls = Locked(0)
            let token = countingToken(calls)
            DispatchQueue.concurrentPerform(iterations: 8) { _ in token.cancel() }
            XCTAssertEqual(calls.current, 1)
        }
    }

    func test_tokens_areEqualOnlyToThemselves() {
        let first = SubscriptionToken {}
        let second = SubscriptionToken {}
        XCTAssertEqual(first, first)
        XCTAssertNotEqual(first, second)
        XCTAssertEqual(Set([first, second, first]).count, 2)
        XCTAssertEqual(first.hashValue, first.hashValue)
    }

    func test_storeInSet_keepsTheTokenUntilRemoved() {
        let calls = Locked(0)
        var set = Set<SubscriptionToken>()
        countingToken(calls).store(in: &set)
        XCTAssertEqual(set.count, 1)
        XCTAssertEqual(calls.current, 0, "the set keeps it alive")
        set.removeAll()
        XCTAssertEqual(calls.current, 1)
    }

    // MARK: - TokenBag

    func test_tokenBag_keepsTokensUntilCancelAll_thenIsEmptyAndReusable() {
        let calls = Locked(0)
        let bag = TokenBag()
        XCTAssertEqual(bag.count, 0)
        for _ in 0..<3 { countingToken(calls).store(in: bag) }
        XCTAssertEqual(bag.count, 3)
        XCTAssertEqual(calls.current, 0)
        bag.cancelAll()
        XCTAssertEqual(bag.count, 0)
        XCTAssertEqual(calls.current, 3)
        bag.cancelAll()
        XCTAssertEqual(calls.current, 3, "cancelAll on an empty bag does nothing")
        bag.insert(countingToken(calls))
        XCTAssertEqual(bag.count, 1)
        bag.cancelAll()
        XCTAssertEqual(calls.current, 4)
    }

    func test_tokenBag_deinit_cancelsEveryToken() {
        let calls = Locked(0)
        do {
            let bag = TokenBag()
            for _ in 0..<4 { countingToken(calls).store(in: bag) }
            XCTAssertEqual(calls.current, 0)
        }
        XCTAssertEqual(calls.current, 4)
    }

    func test_tokenBag_tokenCancelledElsewhere_isNotCancelledAgain() {
        let calls = Locked(0)
        let bag = TokenBag()
        let token = countingToken(calls)
        token.store(in: bag)
        token.cancel()
        bag.cancelAll()
        XCTAssertEqual(calls.current, 1)
    }

    func test_tokenBag_actionThatUsesTheBag_doesNotDeadlock() {
        let calls = Locked(0)
        let bag = TokenBag()
        SubscriptionToken { [bag] in
            calls.withLock { $0 += 1 }
            _ = bag.count
            bag.cancelAll()
            bag.insert(SubscriptionToken { calls.withLock { $0 += 100 } })
        }.store(in: bag)
        bag.cancelAll()
        XCTAssertEqual(calls.current, 1)
        XCTAssertEqual(bag.count, 1, "the token inserted by the action stays")
        bag.cancelAll()
        XCTAssertEqual(calls.current, 101)
    }

    func test_tokenBag_concurrentInsertsAndCancelAll_cancelEveryTokenOnce() {
        let calls = Locked(0)
        let bag = TokenBag()
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 0..<500 {
                SubscriptionToken { calls.withLock { $0 += 1 } }.store(in: bag)
                if thread == 0 && index % 50 == 0 { bag.cancelAll() }
            }
        }
        bag.cancelAll()
        XCTAssertEqual(bag.count, 0)
        XCTAssertEqual(calls.current, 2_000)
    }
}
