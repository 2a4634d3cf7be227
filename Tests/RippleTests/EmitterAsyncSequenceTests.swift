import Dispatch
import Foundation
import Ripple
import RippleDiff
import RippleTestSupport
import XCTest

/// `Emitter.values` and `ObservableCollection.changes`: order, buffering and termination.
final class EmitterAsyncSequenceTests: XCTestCase {
    func test_values_subscribesWhenCreated_andBuffersUntilTheLoopTakesThem() async {
        let emitter = Emitter<Int>()
        let stream = emitter.values
        XCTAssertEqual(emitter.subscriberCount, 1)
        for value in 1...5 { emitter.send(value) }
        var received: [Int] = []
        for await value in stream {
            received.append(value)
            if received.count == 5 { break }
        }
        XCTAssertEqual(received, [1, 2, 3, 4, 5])
    }

    func test_values_forAwait_receivesValuesSentFromOtherThreadsInOrder() async {
        let emitter = Emitter<Int>()
        let stream = emitter.values
        DispatchQueue.global().async {
            for value in 0..<200 { emitter.send(value) }
        }
        var received: [Int] = []
        for await value in stream {
            received.append(value)
            if value == 199 { break }
        }
        XCTAssertEqual(received, Array(0..<200))
    }

    func test_values_breakingOutOfTheLoop_cancelsTheSubscription() async {
        let emitter = Emitter<Int>()
        do {
            let stream = emitter.values
            emitter.send(1)
            for await _ in stream { break }
        }
        XCTAssertEqual(emitter.subscriberCount, 0, "the stream and its iterator are gone, so it terminated")
    }

    func test_values_droppedWithoutIterating_cancelsTheSubscription() {
        let emitter = Emitter<Int>()
        do {
            let stream = emitter.values
            XCTAssertEqual(emitter.subscriberCount, 1)
            _ = stream
        }
        XCTAssertEqual(emitter.subscriberCount, 0)
    }

    func test_values_cancellingTheTask_endsTheLoopAndTheSubscription() async {
        let emitter = Emitter<Int>()
        let stream = emitter.values
        let (started, startedContinuation) = AsyncStream<Void>.makeStream()
        let task = Task {
            var received: [Int] = []
            for await value in stream {
                received.append(value)
                startedContinuation.yield()
            }
            return received
        }
        emitter.send(1)
        for await _ in started { break }
        task.cancel()
        let received = await task.value
        XCTAssertEqual(received, [1])
        XCTAssertEqual(emitter.subscriberCount, 0, "task cancellation terminated the stream")
        emitter.send(2)
    }

    func test_values_twoStreams_eachGetEveryValue() async {
        let emitter = Emitter<Int>()
        let first = emitter.values
        let second = emitter.values
        XCTAssertEqual(emitter.subscriberCount, 2)
        for value in 1...3 { emitter.send(value) }
        var a: [Int] = []
        for await value in first {
            a.append(value)
            if a.count == 3 { break }
        }
        var b: [Int] = []
        for await value in second {
            b.append(value)
            if b.count == 3 { break }
        }
        XCTAssertEqual(a, [1, 2, 3])
        XCTAssertEqual(b, [1, 2, 3])
    }

    func test_values_ofReplayingEmitter_startsWithTheLatest() async {
        let emitter = Emitter<Int>(replayingLatest: 7)
        emitter.send(8)
        let stream = emitter.values
        emitter.send(9)
        var received: [Int] = []
        for await value in stream {
            received.append(value)
            if received.count == 2 { break }
        }
        XCTAssertEqual(received, [8, 9])
    }

    // MARK: - ObservableCollection.changes

    func test_changes_deliversEventsInVersionOrder_andEndsWithTheLoop() async {
        let collection = ObservableCollection([1, 2])
        do {
            let changes = collection.changes
            XCTAssertEqual(collection.subscriberCount, 1)
            collection.append(3)
            collection.remove(at: 0)
            collection.performBatchUpdates {
                collection.append(4)
                collection.append(5)
            }
            var received: [CollectionChange<Int>] = []
            for await change in changes {
                received.append(change)
                if received.count == 3 { break }
            }
            XCTAssertEqual(received.map(\.version), [1, 2, 3])
            XCTAssertEqual(received.map(\.snapshot), [[1, 2, 3], [2, 3], [2, 3, 4, 5]])
            XCTAssertEqual(
                received.map(\.changeset),
                [
                    Changeset(sourceCount: 2, targetCount: 3, inserts: [2]),
                    Changeset(sourceCount: 3, targetCount: 2, deletes: [0]),
                    Changeset(sourceCount: 2, targetCount: 4, inserts: [2, 3]),
                ])
        }
        XCTAssertEqual(collection.subscriberCount, 0)
    }

    func test_changes_cancellingTheTask_endsTheSubscription() async {
        let collection = ObservableCollection<Int>()
        let changes = collection.changes
        let (started, startedContinuation) = AsyncStream<Void>.makeStream()
        let task = Task {
            var versions: [Int] = []
            for await change in changes {
                versions.append(change.version)
                startedContinuation.yield()
            }
            return versions
        }
        collection.append(1)
        for await _ in started { break }
        task.cancel()
        let versions = await task.value
        XCTAssertEqual(versions, [1])
        XCTAssertEqual(collection.subscriberCount, 0)
    }
}
