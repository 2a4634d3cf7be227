import Dispatch
import Foundation
import Ripple
import RippleTestSupport
import XCTest

/// `Emitter`: order, delivery, replay, re-entrancy, cancellation and thread races.
final class EmitterTests: XCTestCase {
    // MARK: - Order

    func test_send_reachesEverySubscriberInSendOrder() {
        let emitter = Emitter<Int>()
        let first = EventRecorder<Int>()
        let second = EventRecorder<Int>()
        let tokens = [
            emitter.subscribe(on: .synchronous, first.handler),
            emitter.subscribe(on: .synchronous, second.handler),
        ]
        for value in 1...5 { emitter.send(value) }
        first.assertEvents([1, 2, 3, 4, 5])
        second.assertEvents([1, 2, 3, 4, 5])
        XCTAssertEqual(emitter.subscriberCount, 2)
        tokens.forEach { $0.cancel() }
    }

    func test_send_withoutSubscribers_isDropped() {
        let emitter = Emitter<Int>()
        emitter.send(1)
        let recorder = EventRecorder<Int>()
        let token = emitter.subscribe(on: .synchronous, recorder.handler)
        emitter.send(2)
        recorder.assertEvents([2])
        XCTAssertNil(emitter.latest, "an emitter that does not replay remembers nothing")
        token.cancel()
    }

    func test_subscriber_getsOnlyValuesSentAfterItSubscribed() {
        let emitter = Emitter<Int>()
        let early = EventRecorder<Int>()
        let earlyToken = emitter.subscribe(on: .synchronous, early.handler)
        emitter.send(1)
        let late = EventRecorder<Int>()
        let lateToken = emitter.subscribe(on: .synchronous, late.handler)
        emitter.send(2)
        early.assertEvents([1, 2])
        late.assertEvents([2])
        earlyToken.cancel()
        lateToken.cancel()
    }

    // MARK: - Delivery

    func test_synchronousDelivery_runsOnTheSendingThreadBeforeSendReturns() {
        let emitter = Emitter<Int>()
        let threads = EventRecorder<Bool>()
        let token = emitter.subscribe(on: .synchronous) { _ in threads.record(Thread.isMainThread) }
        emitter.send(1)
        XCTAssertEqual(threads.count, 1, "delivered before send returned")
        let sent = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            emitter.send(2)
            XCTAssertEqual(threads.count, 2, "delivered on this thread before send returned")
            sent.signal()
        }
        sent.wait()
        threads.assertEvents([true, false])
        token.cancel()
    }

    func test_defaultDelivery_isTheMainQueue() {
        let emitter = Emitter<Int>()
        let recorder = EventRecorder<[Int]>()
        let token = emitter.subscribe { value in recorder.record([value, Thread.isMainThread ? 1 : 0]) }
        DispatchQueue.global().async {
            for value in 1...3 { emitter.send(value) }
        }
        wait(for: [recorder.expectation(count: 3)], timeout: 10)
        recorder.assertEvents([[1, 1], [2, 1], [3, 1]])
        token.cancel()
    }

    func test_queueDelivery_runsAsynchronouslyOnThatQueueInOrder() {
        let queue = DispatchQueue(label: "EmitterTests.serial")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 7)
        let emitter = Emitter<Int>()
        let recorder = EventRecorder<[Int]>()
        let token = emitter.subscribe(on: .queue(queue)) { value in
            recorder.record([value, DispatchQueue.getSpecific(key: key) ?? 0])
        }
        queue.suspend()
        for value in 1...4 { emitter.send(value) }
        XCTAssertEqual(recorder.count, 0, "nothing runs while the queue is suspended: send only queued the values")
        queue.resume()
        recorder.waitForCount(4)
        recorder.assertEvents([[1, 7], [2, 7], [3, 7], [4, 7]])
        token.cancel()
    }

    func test_queueDelivery_cancelBeforeTheQueueRuns_dropsTheQueuedValues() {
        let queue = DispatchQueue(label: "EmitterTests.suspended")
        let emitter = Emitter<Int>()
        let recorder = EventRecorder<Int>()
        let token = emitter.subscribe(on: .queue(queue), recorder.handler)
        queue.suspend()
        emitter.send(1)
        emitter.send(2)
        token.cancel()
        queue.resume()
        queue.sync {}
        recorder.assertEvents([], "the subscription re-checks its state before each delivery")
    }

    func test_queueDelivery_mixedWithSynchronousSubscriber_eachGetsEveryValue() {
        let queue = DispatchQueue(label: "EmitterTests.mixed")
        let emitter = Emitter<Int>()
        let queued = EventRecorder<Int>()
        let direct = EventRecorder<Int>()
        let tokens = [
            emitter.subscribe(on: .queue(queue), queued.handler),
            emitter.subscribe(on: .synchronous, direct.handler),
        ]
        for value in 0..<100 { emitter.send(value) }
        queue.sync {}
        queued.assertEvents(Array(0..<100))
        direct.assertEvents(Array(0..<100))
        tokens.forEach { $0.cancel() }
    }

    /// A scheduler that keeps work until the test runs it.
    private final class ManualScheduler: WorkScheduler, @unchecked Sendable {
        // @unchecked: `work` is guarded by `lock`.
        private let lock = NSLock()
        private var work: [@Sendable () -> Void] = []

        func schedule(_ work: @escaping @Sendable () -> Void) {
            lock.lock()
            self.work.append(work)
            lock.unlock()
        }

        /// Runs the work scheduled so far, in order; returns how many items ran.
        @discardableResult
        func runAll() -> Int {
            lock.lock()
            let taken = work
            work = []
            lock.unlock()
            taken.forEach { $0() }
            return taken.count
        }
    }

    func test_schedulerDelivery_runsOnlyWhenTheSchedulerRuns_inOrder_andSkipsCancelled() {
        let scheduler = ManualScheduler()
        let emitter = Emitter<Int>()
        let kept = EventRecorder<Int>()
        let cancelled = EventRecorder<Int>()
        let keptToken = emitter.subscribe(on: .scheduler(scheduler), kept.handler)
        let cancelledToken = emitter.subscribe(on: .scheduler(scheduler), cancelled.handler)
        emitter.send(1)
        emitter.send(2)
        XCTAssertEqual(kept.count, 0, "nothing runs until the scheduler does")
        cancelledToken.cancel()
        XCTAssertEqual(scheduler.runAll(), 4)
        kept.assertEvents([1, 2])
        cancelled.assertEvents([], "scheduled work re-checks the subscription before delivering")
        keptToken.cancel()
    }

    // MARK: - Replay

    func test_replay_withoutInitialValue_newSubscriberGetsNothingUntilASend() {
        let emitter = Emitter<Int>(replayingLatest: nil)
        XCTAssertNil(emitter.latest)
        let recorder = EventRecorder<Int>()
        let token = emitter.subscribe(on: .synchronous, recorder.handler)
        recorder.assertEvents([])
        emitter.send(5)
        recorder.assertEvents([5])
        XCTAssertEqual(emitter.latest, 5)
        token.cancel()
    }

    func test_replay_newSubscriberGetsTheLatestFirstThenLaterValues_neverEarlierOnes() {
        let emitter = Emitter<Int>(replayingLatest: 0)
        XCTAssertEqual(emitter.latest, 0)
        let first = EventRecorder<Int>()
        let firstToken = emitter.subscribe(on: .synchronous, first.handler)
        first.assertEvents([0], "the initial value is replayed")
        emitter.send(1)
        emitter.send(2)
        let second = EventRecorder<Int>()
        let secondToken = emitter.subscribe(on: .synchronous, second.handler)
        second.assertEvents([2], "only the latest, never 0 or 1")
        emitter.send(3)
        first.assertEvents([0, 1, 2, 3])
        second.assertEvents([2, 3])
        XCTAssertEqual(emitter.latest, 3)
        firstToken.cancel()
        secondToken.cancel()
    }

    func test_replay_onQueue_arrivesBeforeLaterValues() {
        let queue = DispatchQueue(label: "EmitterTests.replay")
        let emitter = Emitter<Int>(replayingLatest: 10)
        let recorder = EventRecorder<Int>()
        queue.suspend()
        let token = emitter.subscribe(on: .queue(queue), recorder.handler)
        emitter.send(11)
        emitter.send(12)
        queue.resume()
        recorder.waitForCount(3)
        recorder.assertEvents([10, 11, 12])
        token.cancel()
    }

    func test_replay_subscriberDoesNotReceiveTheReplayedValueTwice() {
        let emitter = Emitter<Int>(replayingLatest: nil)
        emitter.send(1)
        let recorder = EventRecorder<Int>()
        let token = emitter.subscribe(on: .synchronous, recorder.handler)
        recorder.assertEvents([1])
        token.cancel()
        emitter.send(2)
        recorder.assertEvents([1], "nothing after cancel")
    }

    // MARK: - Re-entrancy

    func test_sendFromHandler_isDeliveredAfterTheCurrentValueReachedEverySubscriber() {
        let emitter = Emitter<Int>()
        let log = EventRecorder<String>()
        let tokens = [
            emitter.subscribe(on: .synchronous) { value in
                log.record("A\(value)")
                if value == 1 {
                    emitter.send(2)
                    log.record("A sent 2")
                    emitter.send(3)
                }
            },
            emitter.subscribe(on: .synchronous) { value in log.record("B\(value)") },
        ]
        emitter.send(1)
        log.assertEvents(["A1", "A sent 2", "B1", "A2", "B2", "A3", "B3"])
        tokens.forEach { $0.cancel() }
    }

    func test_sendFromHandler_chainOfSends_keepsOrderAndDoesNotRecurse() {
        let emitter = Emitter<Int>()
        let depth = Locked(0)
        let maxDepth = Locked(0)
        let recorder = EventRecorder<Int>()
        let token = emitter.subscribe(on: .synchronous) { value in
            let now = depth.withLock { depth -> Int in
                depth += 1
                return depth
            }
            maxDepth.withLock { $0 = max($0, now) }
            recorder.record(value)
            if value < 100 { emitter.send(value + 1) }
            depth.withLock { $0 -= 1 }
        }
        emitter.send(0)
        recorder.assertEvents(Array(0...100))
        XCTAssertEqual(maxDepth.current, 1, "handlers never nest")
        token.cancel()
    }

    func test_subscribeFromHandler_newSubscriberGetsOnlyLaterValues() {
        let emitter = Emitter<Int>()
        let late = EventRecorder<Int>()
        let lateTokens = TokenBag()
        let early = EventRecorder<Int>()
        let token = emitter.subscribe(on: .synchronous) { value in
            early.record(value)
            if value == 1 {
                emitter.subscribe(on: .synchronous, late.handler).store(in: lateTokens)
                emitter.send(2)
            }
        }
        emitter.send(1)
        emitter.send(3)
        early.assertEvents([1, 2, 3])
        late.assertEvents([2, 3], "not the value being delivered when it subscribed")
        token.cancel()
        lateTokens.cancelAll()
    }

    func test_subscribeFromHandler_toReplayingEmitter_getsTheLatestAfterTheCurrentDelivery() {
        let emitter = Emitter<Int>(replayingLatest: nil)
        let log = EventRecorder<String>()
        let lateTokens = TokenBag()
        let tokens = [
            emitter.subscribe(on: .synchronous) { value in
                log.record("A\(value)")
                if value == 1 {
                    emitter.subscribe(on: .synchronous) { log.record("C\($0)") }.store(in: lateTokens)
                }
            },
            emitter.subscribe(on: .synchronous) { value in log.record("B\(value)") },
        ]
        emitter.send(1)
        emitter.send(2)
        log.assertEvents(["A1", "B1", "C1", "A2", "B2", "C2"])
        tokens.forEach { $0.cancel() }
        lateTokens.cancelAll()
    }

    func test_cancelOwnTokenFromHandler_stopsLaterDeliveries() {
        let emitter = Emitter<Int>()
        let recorder = EventRecorder<Int>()
        let other = EventRecorder<Int>()
        let own = Locked<SubscriptionToken?>(nil)
        own.withLock { slot in
            slot = emitter.subscribe(on: .synchronous) { value in
                recorder.record(value)
                own.withLock { $0 }?.cancel()
                emitter.send(value + 10)
            }
        }
        let otherToken = emitter.subscribe(on: .synchronous, other.handler)
        emitter.send(1)
        emitter.send(2)
        recorder.assertEvents([1])
        other.assertEvents([1, 11, 2])
        XCTAssertEqual(emitter.subscriberCount, 1)
        otherToken.cancel()
    }

    func test_cancelAnotherSubscriberFromHandler_stopsItsDeliveryOfTheCurrentValue() {
        let emitter = Emitter<Int>()
        let second = EventRecorder<Int>()
        let secondToken = Locked<SubscriptionToken?>(nil)
        let firstToken = emitter.subscribe(on: .synchronous) { value in
            if value == 2 { secondToken.withLock { $0 }?.cancel() }
        }
        secondToken.withLock { $0 = emitter.subscribe(on: .synchronous, second.handler) }
        emitter.send(1)
        emitter.send(2)
        emitter.send(3)
        second.assertEvents([1], "cancelled from a handler: no later delivery, not even of the current value")
        firstToken.cancel()
    }

    func test_handlerWaitingForASendFromAnotherThread_doesNotDeadlock() {
        let emitter = Emitter<Int>()
        let recorder = EventRecorder<Int>()
        let finished = Locked(false)
        let token = emitter.subscribe(on: .synchronous) { value in
            recorder.record(value)
            guard value == 1 else { return }
            let sent = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                emitter.send(2)
                sent.signal()
            }
            finished.withLock { $0 = sent.wait(timeout: .now() + 10) == .success }
        }
        emitter.send(1)
        XCTAssertTrue(finished.current, "the other thread's send returned while this handler was running")
        recorder.assertEvents([1, 2], "and its value was delivered after the current one, by this drain")
        token.cancel()
    }

    // MARK: - Cancellation

    func test_cancel_isIdempotentAndStopsDeliveries() {
        let emitter = Emitter<Int>()
        let recorder = EventRecorder<Int>()
        let token = emitter.subscribe(on: .synchronous, recorder.handler)
        emitter.send(1)
        XCTAssertFalse(token.isCancelled)
        token.cancel()
        XCTAssertTrue(token.isCancelled)
        XCTAssertEqual(emitter.subscriberCount, 0)
        token.cancel()
        XCTAssertTrue(token.isCancelled)
        emitter.send(2)
        recorder.assertEvents([1])
    }

    func test_releasingTheToken_cancels() {
        let emitter = Emitter<Int>()
        let recorder = EventRecorder<Int>()
        var token: SubscriptionToken? = emitter.subscribe(on: .synchronous, recorder.handler)
        emitter.send(1)
        XCTAssertNotNil(token)
        token = nil
        XCTAssertEqual(emitter.subscriberCount, 0)
        emitter.send(2)
        recorder.assertEvents([1])
    }

    func test_discardedToken_cancelsAtOnce() {
        let emitter = Emitter<Int>()
        let recorder = EventRecorder<Int>()
        _ = emitter.subscribe(on: .synchronous, recorder.handler)
        XCTAssertEqual(emitter.subscriberCount, 0)
        emitter.send(1)
        recorder.assertEvents([])
    }

    func test_discardedToken_ofReplayingEmitter_stillGetsNoLaterValues() {
        let emitter = Emitter<Int>(replayingLatest: 1)
        let recorder = EventRecorder<Int>()
        _ = emitter.subscribe(on: .synchronous, recorder.handler)
        emitter.send(2)
        recorder.assertEvents([1], "the replay ran inside subscribe, before the token was discarded")
        XCTAssertEqual(emitter.subscriberCount, 0)
    }

    func test_tokenBag_and_set_keepSubscriptionsUntilEmptied() {
        let emitter = Emitter<Int>()
        let inBag = EventRecorder<Int>()
        let inSet = EventRecorder<Int>()
        let bag = TokenBag()
        var set = Set<SubscriptionToken>()
        emitter.subscribe(on: .synchronous, inBag.handler).store(in: bag)
        emitter.subscribe(on: .synchronous, inSet.handler).store(in: &set)
        XCTAssertEqual(emitter.subscriberCount, 2)
        emitter.send(1)
        bag.cancelAll()
        emitter.send(2)
        set.removeAll()
        emitter.send(3)
        inBag.assertEvents([1])
        inSet.assertEvents([1, 2])
        XCTAssertEqual(emitter.subscriberCount, 0)
    }

    func test_cancelAfterTheEmitterIsGone_doesNothing() {
        var emitter: Emitter<Int>? = Emitter<Int>()
        let token = emitter!.subscribe(on: .synchronous) { _ in }
        emitter = nil
        token.cancel()
        XCTAssertTrue(token.isCancelled)
    }

    // MARK: - Random re-entrancy

    /// A seeded script of subscribes, cancels and sends, many of them from inside handlers, checked
    /// against what the contract implies: a subscriber gets exactly the values sent from its
    /// subscription on, in order, until it is cancelled, and nothing after.
    private final class ReentrancyScript: @unchecked Sendable {
        // @unchecked: every delivery is synchronous and every call comes from the test's thread.
        let emitter = Emitter<Int>()
        var random: SplitMix64
        var tokens: [SubscriptionToken?] = []
        var firstValue: [Int] = []
        var received: [[Int]] = []
        var cancelled: [Bool] = []
        var sent = 0
        var failure: String?
        var log: [String] = []

        init(random: SplitMix64) {
            self.random = random
        }

        func fail(_ message: String) {
            if failure == nil { failure = "\(message)\n  after: \(log.suffix(10).joined(separator: "; "))" }
        }

        func subscribe() {
            let index = tokens.count
            log.append("subscribe \(index)")
            firstValue.append(sent)
            received.append([])
            cancelled.append(false)
            tokens.append(nil)
            tokens[index] = emitter.subscribe(on: .synchronous) { [unowned self] value in
                self.receive(value, by: index)
            }
        }

        func cancelOne() {
            let active = cancelled.indices.filter { !cancelled[$0] }
            guard !active.isEmpty else { return }
            let index = active[random.int(below: active.count)]
            log.append("cancel \(index)")
            cancelled[index] = true
            tokens[index]?.cancel()
        }

        func send() {
            let value = sent
            sent += 1
            log.append("send \(value)")
            emitter.send(value)
        }

        func receive(_ value: Int, by index: Int) {
            log.append("\(index) got \(value)")
            if cancelled[index] { fail("subscriber \(index) got \(value) after it was cancelled") }
            received[index].append(value)
            switch random.int(below: 8) {
            case 0...1 where sent < 80: send()
            case 2: cancelOne()
            case 3 where tokens.count < 40: subscribe()
            default: break
            }
        }

        func run() {
            for _ in 0..<random.int(in: 1...5) { subscribe() }
            while sent < 40 && failure == nil {
                switch random.int(below: 6) {
                case 0 where tokens.count < 40: subscribe()
                case 1: cancelOne()
                default: send()
                }
            }
            for index in received.indices {
                let expected = Array(firstValue[index]..<sent)
                let got = received[index]
                if cancelled[index] {
                    if Array(expected.prefix(got.count)) != got {
                        fail("cancelled subscriber \(index) got \(got), not a prefix of \(expected)")
                    }
                } else if got != expected {
                    fail("subscriber \(index) got \(got), expected \(expected)")
                }
            }
            tokens.forEach { $0?.cancel() }
            if emitter.subscriberCount != 0 { fail("\(emitter.subscriberCount) subscribers left") }
        }
    }

    func test_randomReentrantSubscribesCancelsAndSends_deliverExactlyTheContract() {
        forEachSeed(0..<1_000) { _, random in
            let script = ReentrancyScript(random: random)
            script.run()
            return script.failure
        }
    }

    // MARK: - Thread races

    func test_concurrentSenders_everySubscriberSeesEveryValueOnce_inOneGlobalOrder() {
        let threads = 4
        let perThread = 2_500
        let emitter = Emitter<[Int]>()
        let first = EventRecorder<[Int]>()
        let second = EventRecorder<[Int]>()
        let queue = DispatchQueue(label: "EmitterTests.race")
        let queued = EventRecorder<[Int]>()
        let tokens = [
            emitter.subscribe(on: .synchronous, first.handler),
            emitter.subscribe(on: .synchronous, second.handler),
            emitter.subscribe(on: .queue(queue), queued.handler),
        ]
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for number in 0..<perThread { emitter.send([thread, number]) }
        }
        // Every send has returned; a send returns only once a drainer has taken its value.
        XCTAssertEqual(first.count, threads * perThread)
        queued.waitForCount(threads * perThread)
        for (name, recorder) in [("first", first), ("second", second), ("queued", queued)] {
            var next = [Int](repeating: 0, count: threads)
            var problems: [String] = []
            for value in recorder.events {
                let (thread, number) = (value[0], value[1])
                if number != next[thread] {
                    problems.append("thread \(thread): got \(number), expected \(next[thread])")
                }
                next[thread] = number + 1
            }
            XCTAssertEqual(problems.prefix(3), [], "\(name): each thread's values arrive in order, once each")
            XCTAssertEqual(next, [Int](repeating: perThread, count: threads), "\(name): nothing lost")
        }
        XCTAssertTrue(first.events == second.events, "synchronous subscribers see one global order")
        XCTAssertTrue(first.events == queued.events, "a serial-queue subscriber sees the same order")
        tokens.forEach { $0.cancel() }
    }

    func test_concurrentSubscribeCancelAndSend_isSafe_andEverySubscriberSeesAnIncreasingRun() {
        let emitter = Emitter<Int>(replayingLatest: -1)
        let problems = Locked<[String]>([])
        let counter = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            if thread < 2 {
                for _ in 0..<2_000 {
                    // Values are sent under a lock so that they grow strictly in delivery order.
                    counter.withLock { value in
                        value += 1
                        emitter.send(value)
                    }
                }
            } else {
                for _ in 0..<300 {
                    let seen = Locked<[Int]>([])
                    let token = emitter.subscribe(on: .synchronous) { value in seen.withLock { $0.append(value) } }
                    token.cancel()
                    // The replay may still be queued behind another thread's drain when `subscribe`
                    // returns, so a run may be empty; whatever arrived must be increasing.
                    let values = seen.current
                    if zip(values, values.dropFirst()).contains(where: { $0 >= $1 }) {
                        problems.withLock { $0.append("out of order: \(values)") }
                    }
                }
            }
        }
        XCTAssertEqual(problems.current.prefix(3), [])
        XCTAssertEqual(emitter.subscriberCount, 0)
        XCTAssertEqual(emitter.latest, 4_000)
    }
}
