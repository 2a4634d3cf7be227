import Foundation
import Ripple
import RippleDiff
import RippleTestSupport
import XCTest

/// Reads of live collections while four threads append and remove: no read traps, and each read
/// sees a list that really existed. Runs under ThreadSanitizer in CI.
///
/// Each collection starts with `floor` elements (per section) and every mutator removes by offset
/// only as many elements as it has inserted, so there are always at least `floor` elements and
/// every offset below `floor` stays valid, whatever the other threads do. Element identifiers are
/// never reused, so a list that holds one twice was never a real state.
final class ConcurrentReadTests: XCTestCase {
    private static let floor = 2
    /// Reads per test.
    private static let reads = 60_000
    private static let seed: UInt64 = 0x5EED_0011

    // MARK: - ObservableCollection

    func test_flatReadsWhileFourThreadsAppendAndRemove_neverTrapAndSeeRealLists() {
        let floor = Self.floor
        let collection = ObservableCollection(Array(0..<floor))
        let checker = ChangeChecker<Int>(initial: collection.snapshot, light: true)
        let token = collection.subscribe(on: .synchronous, checker.handler)
        let problems = Locked<[String]>([])
        let stop = StopFlag()
        runOnThreads(5) { thread in
            guard thread < 4 else {
                defer { stop.raise() }
                let found = Self.readFlat(collection, reads: Self.reads, seed: Self.seed)
                problems.withLock { $0.append(contentsOf: found) }
                return
            }
            var mutator = FlatMutator(collection: collection, seed: Self.seed &+ UInt64(thread), thread: thread)
            while !stop.isRaised { mutator.step() }
        }
        XCTAssertEqual(problems.current.prefix(3), [], "seed \(Self.seed)")
        XCTAssertGreaterThanOrEqual(collection.count, floor)
        checker.assertConsistent(
            finalSnapshot: collection.snapshot, finalVersion: collection.version, "seed \(Self.seed)")
        token.cancel()
    }

    /// One mutator thread of the flat test: appends (also in bursts), inserts, removes by offset and
    /// in sets, moves, replaces, and batches of these.
    private struct FlatMutator {
        let collection: ObservableCollection<Int>
        let thread: Int
        var random: SplitMix64
        /// Elements inserted minus elements removed by this thread; never negative.
        var net = 0
        var serial = 0

        init(collection: ObservableCollection<Int>, seed: UInt64, thread: Int) {
            self.collection = collection
            self.thread = thread
            random = SplitMix64(seed: seed)
        }

        mutating func value() -> Int {
            serial += 1
            return (thread + 1) * 100_000_000 + serial
        }

        /// An offset that is valid whatever the other threads did: below `floor + net`.
        mutating func anyOffset() -> Int { random.int(below: ConcurrentReadTests.floor + net) }

        mutating func step(inBatch: Bool = false) {
            let floor = ConcurrentReadTests.floor
            var choice = random.int(below: inBatch ? 8 : 9)
            // Keep the list short: grow only while this thread's share is small.
            if net > 12 && choice < 3 { choice = 3 }
            switch choice {
            case 0:
                let burst = (0..<random.int(in: 1...6)).map { _ in value() }
                collection.append(contentsOf: burst)
                net += burst.count
            case 1:
                collection.append(value())
                net += 1
            case 2:
                collection.insert(value(), at: random.int(in: 0...floor))
                net += 1
            case 3 where net > 0:
                collection.remove(at: anyOffset())
                net -= 1
            case 4 where net > 1:
                let first = anyOffset()
                var second = anyOffset()
                if second == first { second = (first + 1) % (floor + net) }
                collection.remove(atOffsets: [first, second])
                net -= 2
            case 5:
                collection.move(from: anyOffset(), to: anyOffset())
            case 6:
                collection[anyOffset()] = value()
            case 7 where net > 0:
                // Shrink to nothing of this thread's share in one go.
                let offsets = (0..<net).map { _ in anyOffset() }
                let unique = Set(offsets)
                collection.remove(atOffsets: unique)
                net -= unique.count
            case 8:
                let steps = random.int(in: 1...4)
                collection.performBatchUpdates {
                    for _ in 0..<steps { step(inBatch: true) }
                }
            default:
                break
            }
        }
    }

    /// Reads `collection` `reads` times, cycling through every kind of read; returns the problems.
    private static func readFlat(_ collection: ObservableCollection<Int>, reads: Int, seed: UInt64) -> [String] {
        let floor = Self.floor
        var random = SplitMix64(seed: seed &+ 100)
        var problems: [String] = []
        func expect(_ condition: Bool, _ message: @autoclosure () -> String) {
            if !condition && problems.count < 5 { problems.append(message()) }
        }
        for read in 0..<reads {
            switch read % 16 {
            case 0: expect(collection.count >= floor, "count below the floor")
            case 1: expect(!collection.isEmpty, "isEmpty")
            case 2: expect(collection.first != nil, "first is nil")
            case 3: expect(collection.last != nil, "last is nil")
            case 4:
                var seen = 0
                for _ in collection { seen += 1 }
                expect(seen >= floor, "iteration saw \(seen) elements")
            case 5:
                let mapped = collection.map { $0 }
                expect(mapped.count >= floor, "map gave \(mapped.count) elements")
                expect(read % 64 != 5 || Set(mapped).count == mapped.count, "map saw an element twice: \(mapped)")
            case 6: expect(!collection.contains(-1), "contains an element never inserted")
            case 7: expect(collection.filter { $0 >= 0 }.count >= floor, "filter lost elements")
            case 8: expect(collection.reduce(0) { count, _ in count + 1 } >= floor, "reduce counted too few")
            case 9: _ = collection[random.int(below: floor)]
            case 10: expect(collection[0..<floor].count == floor, "slice of the floor")
            case 11:
                let array = Array(collection)
                expect(array.count >= floor, "Array(collection) has \(array.count) elements")
                expect(read % 64 != 11 || Set(array).count == array.count, "Array(collection) repeats: \(array)")
            case 12: expect(collection.indices.count >= floor, "indices below the floor")
            case 13:
                var seen = 0
                collection.forEach { _ in seen += 1 }
                expect(seen >= floor, "forEach saw \(seen) elements")
            case 14:
                expect(collection.first(where: { $0 >= 0 }) != nil, "first(where:) found nothing")
                expect(collection.last(where: { $0 >= 0 }) != nil, "last(where:) found nothing")
            default:
                let sorted = collection.sorted()
                expect(sorted.count >= floor, "sorted() has \(sorted.count) elements")
                expect(collection.firstIndex(of: -1) == nil, "firstIndex(of:) found an element never inserted")
            }
        }
        return problems
    }
}
