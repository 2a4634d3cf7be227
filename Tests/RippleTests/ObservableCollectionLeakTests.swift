import Dispatch
import Foundation
import Ripple
import RippleTestSupport
import XCTest

/// Lifetimes: emitters, collections, subscribers' captured objects, tokens, sent values and async
/// streams are released on every termination path, and weak captures keep nothing alive.
final class ObservableCollectionLeakTests: XCTestCase {
    /// A presenter that observes with a weak capture and keeps its tokens in a bag.
    private final class Presenter: Sendable {
        let tokens = TokenBag()
        let seen = Locked<[Int]>([])

        init(emitter: Emitter<Int>, collection: ObservableCollection<Int>) {
            emitter.subscribe(on: .synchronous) { [weak self] value in
                self?.seen.withLock { $0.append(value) }
            }.store(in: tokens)
            collection.subscribe(on: .synchronous) { [weak self] change in
                self?.seen.withLock { $0.append(change.version) }
            }.store(in: tokens)
        }
    }

    /// An element that holds subscriptions, as a cell presenter does.
    private final class Holder: Sendable {
        let tokens = TokenBag()
    }

    // MARK: - Emitter

    func test_emitter_subscribersAndTokens_deallocateAfterCancel() {
        assertDeallocated {
            let emitter = Emitter<Int>()
            let canary = Canary()
            let token = emitter.subscribe(on: .synchronous) { _ in _ = canary }
            emitter.send(1)
            token.cancel()
            return weakReferences(emitter, token, canary)
        }
    }

    func test_emitterGoingAwayFirst_releasesTheHandlers_whileTheTokenLives() {
        var token: SubscriptionToken?
        assertDeallocated {
            let emitter = Emitter<Int>()
            let canary = Canary()
            token = emitter.subscribe(on: .synchronous) { _ in _ = canary }
            emitter.send(1)
            return weakReferences(emitter, canary)
        }
        XCTAssertEqual(token?.isCancelled, false)
        token?.cancel()
        XCTAssertEqual(token?.isCancelled, true)
    }

    func test_cancel_releasesTheHandlersCapturedObjects_evenWhileTheTokenIsKept() {
        let emitter = Emitter<Int>()
        var kept: SubscriptionToken?
        assertDeallocated {
            let canary = Canary()
            let token = emitter.subscribe(on: .synchronous) { _ in _ = canary }
            token.cancel()
            kept = token
            return WeakReference(canary)
        }
        XCTAssertNotNil(kept)
        XCTAssertEqual(emitter.subscriberCount, 0)
    }

    func test_releasingTheToken_releasesTheHandlersCapturedObjects() {
        let emitter = Emitter<Int>()
        assertDeallocated {
            let canary = Canary()
            let token = emitter.subscribe(on: .synchronous) { _ in _ = canary }
            emitter.send(1)
            _ = token
            return WeakReference(canary)
        }
        XCTAssertEqual(emitter.subscriberCount, 0)
    }

    func test_weakCapture_doesNotKeepThePresenterAlive_andItsBagEndsTheSubscriptions() {
        let emitter = Emitter<Int>()
        let collection = ObservableCollection<Int>()
        assertDeallocated {
            let presenter = Presenter(emitter: emitter, collection: collection)
            emitter.send(7)
            collection.append(1)
            XCTAssertEqual(presenter.seen.current, [7, 1])
            return weakReferences(presenter, presenter.tokens)
        }
        XCTAssertEqual(emitter.subscriberCount, 0)
        XCTAssertEqual(collection.subscriberCount, 0)
    }

    func test_sentValues_areReleasedAfterSynchronousDelivery() {
        let emitter = Emitter<Canary>()
        let token = emitter.subscribe(on: .synchronous) { _ in }
        assertDeallocated {
            let canary = Canary()
            emitter.send(canary)
            return WeakReference(canary)
        }
        token.cancel()
    }

    func test_sentValues_areReleasedAfterQueueDelivery() {
        let queue = DispatchQueue(label: "ObservableCollectionLeakTests.delivery")
        let emitter = Emitter<Canary>()
        let token = emitter.subscribe(on: .queue(queue)) { _ in }
        assertDeallocated(timeout: 10) {
            let canary = Canary()
            emitter.send(canary)
            queue.sync {}
            return WeakReference(canary)
        }
        token.cancel()
    }

    func test_replayingEmitter_keepsOnlyTheLatestValue() {
        var first: Canary? = Canary("first")
        var second: Canary? = Canary("second")
        let weakFirst = WeakReference(first!)
        let weakSecond = WeakReference(second!)
        do {
            let emitter = Emitter<Canary>(replayingLatest: nil)
            emitter.send(first!)
            emitter.send(second!)
            first = nil
            second = nil
            XCTAssertNil(weakFirst.object, "a replaced latest value is released")
            XCTAssertNotNil(weakSecond.object, "the latest value is kept for replay")
            XCTAssertTrue(emitter.latest === weakSecond.object)
        }
        XCTAssertNil(weakSecond.object, "and released with the emitter")
    }

    func test_eventBus_withObservers_deallocates_andObserversCapturesAreReleased() {
        assertDeallocated {
            let bus = EventBus()
            let canary = Canary()
            let token = bus.observe(Int.self, on: .synchronous) { _ in _ = canary }
            bus.post(1)
            token.cancel()
            return weakReferences(bus, canary, token)
        }
    }

    // MARK: - ObservableCollection

    func test_collection_withSubscribersBatchesAndElements_deallocates() {
        assertDeallocated {
            let elements = [Canary("a"), Canary("b"), Canary("c")]
            let collection = ObservableCollection(elements)
            let bag = TokenBag()
            let observer = Canary("observer")
            collection.subscribe(on: .synchronous, sendingCurrent: true) { _ in _ = observer }.store(in: bag)
            collection.performBatchUpdates {
                collection.remove(at: 0)
                collection.append(Canary("d"))
            }
            collection.replace(with: Array(collection.snapshot.reversed()), identity: .object)
            return weakReferences(collection, bag, observer) + elements.map { WeakReference($0) }
        }
    }

    func test_removedElements_areReleasedOncePublished() {
        let collection = ObservableCollection<Canary>()
        let token = collection.subscribe(on: .synchronous) { _ in }
        assertDeallocated {
            let canary = Canary()
            collection.append(canary)
            collection.append(Canary("other"))
            collection.remove(at: 0)
            return WeakReference(canary)
        }
        assertDeallocated {
            let canary = Canary()
            collection.performBatchUpdates {
                collection.insert(canary, at: 0)
                collection.removeAll { $0 === canary }
            }
            collection.replace(with: [], identity: .object)
            return WeakReference(canary)
        }
        token.cancel()
    }

    func test_handlerCapturingTheCollection_cycleIsBrokenByCancel() {
        assertDeallocated {
            let collection = ObservableCollection<Int>()
            let token = collection.subscribe(on: .synchronous) { _ in _ = collection.count }
            collection.append(1)
            token.cancel()
            return weakReferences(collection, token)
        }
    }

    func test_queueDeliveredEvents_releaseTheirSnapshotsOnceDelivered() {
        let queue = DispatchQueue(label: "ObservableCollectionLeakTests.collection")
        let collection = ObservableCollection<Canary>()
        let token = collection.subscribe(on: .queue(queue)) { _ in }
        assertDeallocated(timeout: 10) {
            let canary = Canary()
            collection.append(canary)
            collection.removeAll()
            queue.sync {}
            return WeakReference(canary)
        }
        token.cancel()
    }

    // MARK: - Async streams

    func test_valuesStream_terminationReleasesTheSubscription_andTheEmitter() async {
        weak var weakEmitter: Emitter<Int>?
        do {
            let emitter = Emitter<Int>()
            weakEmitter = emitter
            do {
                let stream = emitter.values
                emitter.send(1)
                for await _ in stream { break }
            }
            XCTAssertEqual(emitter.subscriberCount, 0, "the loop ended and the stream is gone: it terminated")
        }
        XCTAssertNil(weakEmitter)
    }

    func test_valuesStream_doesNotKeepTheEmitterAlive() {
        var stream: AsyncStream<Int>?
        assertDeallocated {
            let emitter = Emitter<Int>()
            stream = emitter.values
            return WeakReference(emitter)
        }
        XCTAssertNotNil(stream)
        stream = nil
    }

    func test_changesStream_dropped_releasesTheSubscriptionAndTheCollection() {
        assertDeallocated {
            let collection = ObservableCollection([Canary()])
            do {
                let changes = collection.changes
                XCTAssertEqual(collection.subscriberCount, 1)
                collection.remove(at: 0)
                _ = changes
            }
            XCTAssertEqual(collection.subscriberCount, 0)
            return WeakReference(collection)
        }
    }

    // MARK: - Releases outside the lock

    /// The entry point of the child processes; skipped in a normal run.
    func test_childProcessEntry() throws {
        let name = try childProcessCase()
        switch name {
        case "emitterCancel":
            // The handler holds the last reference to an object that holds another token of the
            // same emitter. Cancelling releases the handler inside the emitter's lock; the object's
            // deinit cancels its token, which takes the same lock again.
            let emitter = Emitter<Int>()
            var holder: Holder? = Holder()
            let token = emitter.subscribe(on: .synchronous) { [holder] _ in _ = holder }
            emitter.subscribe(on: .synchronous) { _ in }.store(in: holder!.tokens)
            holder = nil
            token.cancel()
        case "emitterReplace":
            // Sending to a replaying emitter releases the previous latest value inside the lock.
            let emitter = Emitter<Holder>(replayingLatest: nil)
            var holder: Holder? = Holder()
            emitter.send(holder!)
            emitter.subscribe(on: .synchronous) { _ in }.store(in: holder!.tokens)
            holder = nil
            emitter.send(Holder())
        case "collectionRemove":
            // A collection of presenters that observe the collection; removing one releases it
            // inside the collection's lock.
            let collection = ObservableCollection<Holder>()
            var holder: Holder? = Holder()
            collection.subscribe(on: .synchronous) { _ in }.store(in: holder!.tokens)
            collection.append(holder!)
            holder = nil
            collection.removeAll()
        case "collectionRemoveAt", "collectionRemoveAtOffsets", "collectionRemoveAllWhere", "collectionSubscriptSet",
            "collectionReplace", "collectionBatch":
            // The same, through every other way an element leaves the collection.
            let collection = ObservableCollection<Holder>()
            var holder: Holder? = Holder()
            collection.subscribe(on: .synchronous) { _ in }.store(in: holder!.tokens)
            collection.append(contentsOf: [Holder(), holder!])
            holder = nil
            switch name {
            case "collectionRemoveAt": collection.remove(at: 1)
            case "collectionRemoveAtOffsets": collection.remove(atOffsets: [1])
            case "collectionRemoveAllWhere":
                let keep = collection[0]
                collection.removeAll { $0 !== keep }
            case "collectionSubscriptSet": collection[1] = Holder()
            case "collectionReplace": collection.replace(with: [collection[0]], identity: .object)
            default:
                // Removed inside a batch: the batch's published elements hold it until the end.
                collection.performBatchUpdates {
                    collection.remove(at: 1)
                    collection.append(Holder())
                }
            }
        case "emitterDrain":
            // A value sent from a handler holds the last reference to an object that holds a token
            // of the same emitter: it is released once delivered, while the drain is still going.
            let emitter = Emitter<Holder>()
            let token = emitter.subscribe(on: .synchronous) { holder in
                guard holder.tokens.count == 0 else { return }
                let next = Holder()
                emitter.subscribe(on: .synchronous) { _ in }.store(in: next.tokens)
                emitter.send(next)
            }
            emitter.send(Holder())
            token.cancel()
        default:
            return
        }
        print("survived")
    }

    func test_objectReleasedByRipple_mayUseTheSameEmitterOrCollectionInItsDeinit() throws {
        let cases = [
            "emitterCancel", "emitterReplace", "emitterDrain", "collectionRemove", "collectionRemoveAt",
            "collectionRemoveAtOffsets", "collectionRemoveAllWhere", "collectionSubscriptSet", "collectionReplace",
            "collectionBatch",
        ]
        let outcomes = try runChildTests(
            "RippleTests.ObservableCollectionLeakTests/test_childProcessEntry", cases: cases)
        for name in cases {
            let outcome = outcomes[name]
            XCTAssertEqual(outcome?.status, 0, "\(name) crashed:\n\(outcome?.standardError.prefix(600) ?? "")")
            XCTAssertEqual(outcome?.terminatedBySignal, false, name)
        }
    }

    func test_deliveredValues_areReleasedWhileTheDrainContinues() {
        let emitter = Emitter<Canary>()
        let second = Locked<WeakReference?>(nil)
        let secondAliveDuringThird = Locked<Bool?>(nil)
        let token = emitter.subscribe(on: .synchronous) { canary in
            switch canary.name {
            case "1":
                let next = Canary("2")
                second.withLock { $0 = WeakReference(next) }
                emitter.send(next)
            case "2":
                emitter.send(Canary("3"))
            default:
                secondAliveDuringThird.withLock { $0 = second.current?.object != nil }
            }
        }
        emitter.send(Canary("1"))
        XCTAssertEqual(secondAliveDuringThird.current, false, "value 2 was delivered; nothing should keep it")
        token.cancel()
    }
}
