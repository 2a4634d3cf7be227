import Dispatch
import Ripple
import RippleDiff
import RippleTestSupport
import XCTest

/// Issue 23: the collection's storage, its snapshots and every event's snapshot share their
/// structure, and a held snapshot never changes.
///
/// A seeded run applies random mutations and batches to a collection of a few thousand elements
/// (many leaves and inner nodes of its `ListSnapshot`) and to a plain `Array` shadow, taking the
/// collection's snapshot and the events' snapshots at random moments, each with the `Array` copy of
/// that moment. At the end, and at random checks along the way, every held snapshot still equals
/// its copy.
final class ObservableCollectionSnapshotTests: XCTestCase {
    /// A held snapshot and the `Array` copy taken at the same moment.
    private struct Held {
        var snapshot: ListSnapshot<Int>
        var copy: [Int]
        var taken: String
    }

    /// One run: `operations` random mutations on a collection of up to about 3,000 elements.
    private static func run(_ random: inout SplitMix64, operations: Int) -> String? {
        let initial = Array(0..<random.int(in: 0...2_000))
        let collection = ObservableCollection(initial)
        var shadow = initial
        var next = initial.count
        var held: [Held] = []
        let recorder = EventRecorder<CollectionChange<Int>>()
        let token = collection.subscribe(on: .synchronous, recorder.handler)
        defer { token.cancel() }
        var publishedCopies: [Int: [Int]] = [:]  // the shadow right after each version
        var seenEvents = 0
        func fresh() -> Int {
            defer { next += 1 }
            return next
        }
        func step(_ random: inout SplitMix64, nesting: Int) {
            let count = shadow.count
            switch random.int(below: 12) {
            case 0:
                let value = fresh()
                collection.append(value)
                shadow.append(value)
            case 1:
                let values = (0..<random.int(in: 0...70)).map { _ in fresh() }
                collection.append(contentsOf: values)
                shadow.append(contentsOf: values)
            case 2:
                let value = fresh()
                let at = random.int(in: 0...count)
                collection.insert(value, at: at)
                shadow.insert(value, at: at)
            case 3:
                let values = (0..<random.int(in: 0...70)).map { _ in fresh() }
                let at = random.int(in: 0...count)
                collection.insert(contentsOf: values, at: at)
                shadow.insert(contentsOf: values, at: at)
            case 4 where count > 0:
                let at = random.int(below: count)
                if collection.remove(at: at) != shadow.remove(at: at) { shadow = [-1] }
            case 5 where count > 0:
                let offsets = Set(
                    (0..<random.int(in: 1...(count > 400 ? 300 : 5))).map { _ in random.int(below: count) })
                collection.remove(atOffsets: offsets)
                shadow = shadow.indices.filter { !offsets.contains($0) }.map { shadow[$0] }
            case 6 where count > 0:
                let (from, to) = (random.int(below: count), random.int(below: count))
                collection.move(from: from, to: to)
                shadow.insert(shadow.remove(at: from), at: to)
            case 7 where count > 0:
                let at = random.int(below: count)
                let value = fresh()
                collection[at] = value
                shadow[at] = value
            case 8 where count > 0:
                let modulus = random.int(in: 7...40)
                collection.removeAll { $0 % modulus == 0 }
                shadow.removeAll { $0 % modulus == 0 }
            case 9 where count > 1 && random.chance(1, in: 4):
                var new = shadow.filter { _ in !random.chance(1, in: 10) }
                for _ in 0..<3 where new.count > 1 {
                    new.swapAt(random.int(below: new.count), random.int(below: new.count))
                }
                new.append(fresh())
                collection.replace(with: new, identity: .value)
                shadow = new
            case 10 where nesting < 2:
                collection.performBatchUpdates {
                    for _ in 0..<random.int(in: 1...5) { step(&random, nesting: nesting + 1) }
                }
            case 11 where count > 3 && random.chance(1, in: 3):
                let offsets = Set((0..<3).map { _ in random.int(below: count) })
                let destination = random.int(in: 0...count)
                collection.move(fromOffsets: offsets, toOffset: destination)
                shadow = referenceMove(shadow, offsets: offsets, to: destination)
            default:
                break
            }
            if random.chance(1, in: 6) {
                held.append(
                    Held(snapshot: collection.snapshot, copy: shadow, taken: "after a step at nesting \(nesting)"))
            }
        }
        func check(_ when: String) -> String? {
            for (index, snapshot) in held.enumerated() where !snapshot.snapshot.elementsEqual(snapshot.copy) {
                return "\(when): held snapshot \(index), taken \(snapshot.taken), changed"
            }
            for event in recorder.events.suffix(20) where !event.snapshot.elementsEqual(publishedCopies[event.version]!)
            {
                return "\(when): the snapshot of version \(event.version) changed"
            }
            return nil
        }
        /// Records the shadow as the copy of the event a top-level step published, if any.
        func recordEvent() {
            guard recorder.count > seenEvents, let event = recorder.events.last else { return }
            seenEvents = recorder.count
            publishedCopies[event.version] = shadow
        }
        for operation in 0..<operations {
            step(&random, nesting: 0)
            recordEvent()
            if shadow.count > 3_000 {
                let cut = Set(0..<(shadow.count - 2_000))
                collection.remove(atOffsets: cut)
                shadow.removeFirst(cut.count)
                recordEvent()
            }
            guard collection.count == shadow.count,
                !random.chance(1, in: 10) || collection.snapshot.elementsEqual(shadow)
            else {
                return "operation \(operation): the collection differs from the shadow"
            }
            if held.count > 30 { held.removeFirst(held.count - 30) }
            if random.chance(1, in: 100), let failure = check("operation \(operation)") { return failure }
        }
        return check("the end")
    }

    /// ≥ 100,000 operations at the default scale, in runs of 2,000, on every core.
    func test_heldSnapshots_andEventSnapshots_neverChange() {
        forEachSeedConcurrently(TestScale.seeds(0..<50, minimum: 3)) { _, random in
            Self.run(&random, operations: 2_000)
        }
    }

    /// Four threads mutate one collection while four others take snapshots, hold them and iterate
    /// them: every snapshot stays what it was when taken (its sum and count do not change between
    /// two walks), and nothing races (run under ThreadSanitizer in CI).
    func test_fourMutatingThreads_whileOtherThreadsHoldAndIterateSnapshots() {
        let collection = ObservableCollection(Array(0..<5_000))
        let rounds = TestScale.count(2_000, minimum: 200)
        let failures = LockedFailures()
        let group = DispatchGroup()
        for thread in 0..<8 {
            DispatchQueue.global().async(group: group) {
                var random = SplitMix64(seed: UInt64(thread))
                if thread < 4 {
                    for step in 0..<rounds {
                        // Only these threads remove, one element per step: the count read here is
                        // at most 3 too high by the time the mutation runs, and stays above 100.
                        let count = collection.count
                        switch random.int(below: 5) {
                        case 0: collection.append(step)
                        case 1: collection.insert(step, at: count / 2)
                        case 2 where count > 100: collection.remove(atOffsets: [count / 3])
                        case 3:
                            collection.performBatchUpdates {
                                collection.append(contentsOf: 0..<10)
                                collection.remove(atOffsets: [0, 1, 2])
                            }
                        default: if count > 100 { collection.move(from: 0, to: count / 2) }
                        }
                    }
                } else {
                    for _ in 0..<(rounds / 20) {
                        let snapshot = collection.snapshot
                        let (count, sum) = (snapshot.count, snapshot.reduce(0, &+))
                        var walked = 0
                        var total = 0
                        for value in snapshot {
                            walked += 1
                            total &+= value
                        }
                        if walked != count || total != sum {
                            failures.record("a held snapshot changed while it was iterated")
                        }
                    }
                }
            }
        }
        group.wait()
        XCTAssertEqual(failures.all, [])
        XCTAssertEqual(Array(collection.snapshot).count, collection.count)
    }
}

/// Issue 34: in a release build, removing across a leaf boundary of a collection's storage, with
/// no other copy alive, emptied the collection or crashed, and a delivered sectioned event's
/// snapshot changed after delivery. `.ci/run` runs these in release.
final class CollectionStorageLifetimeTests: XCTestCase {
    /// The `Int`s in a leaf of `ListSnapshot` (4 KiB).
    private static let leaf = 256

    func test_observableCollection_removeAtTheLastOffset_ofOneLeafAndOne() {
        let count = Self.leaf + 1
        let rows = ObservableCollection(Array(0..<count))
        XCTAssertEqual(rows.remove(at: count - 1), count - 1)
        XCTAssertEqual(rows.count, count - 1)
        XCTAssertEqual(Array(rows), Array(0..<(count - 1)))
        rows.remove(atOffsets: 1..<rows.count)
        XCTAssertEqual(Array(rows), [0])
    }

    func test_observableCollection_eventSnapshots_surviveRemovalsAcrossLevels() {
        let count = 33 * Self.leaf - 1
        let rows = ObservableCollection(Array(0..<count))
        let recorder = EventRecorder<CollectionChange<Int>>()
        let token = rows.subscribe(on: .synchronous, recorder.handler)
        defer { token.cancel() }
        var expected = Array(0..<count)
        var copies: [[Int]] = []
        for _ in 0..<(Self.leaf + 3) {
            rows.remove(at: rows.count - 1)
            expected.removeLast()
            copies.append(expected)
        }
        rows.removeAll { $0 % 33 == 17 }
        expected.removeAll { $0 % 33 == 17 }
        copies.append(expected)
        XCTAssertEqual(Array(rows), expected)
        let events = recorder.events.filter { !$0.isInitial }
        XCTAssertEqual(events.count, copies.count)
        for (event, copy) in zip(events, copies) {
            XCTAssertTrue(event.snapshot.elementsEqual(copy), "the snapshot of version \(event.version) changed")
        }
    }

    func test_sectionedCollection_deliveredSnapshots_neverChange() {
        let count = Self.leaf + 1
        let collection = SectionedCollection<String, Int>([SectionData("A", items: Array(0..<count))])
        let recorder = EventRecorder<SectionedCollectionChange<String, Int>>()
        let token = collection.subscribe(on: .synchronous, recorder.handler)
        defer { token.cancel() }
        var expected = Array(0..<count)
        var copies: [[Int]] = []
        for _ in 0..<4 {
            collection.removeItem(at: ElementPath(item: expected.count - 1, section: 0))
            expected.removeLast()
            copies.append(expected)
        }
        collection.appendItem(-1, toSection: 0)
        expected.append(-1)
        copies.append(expected)
        XCTAssertEqual(Array(collection.snapshot[0].items), expected)
        let events = recorder.events.filter { !$0.isInitial }
        XCTAssertEqual(events.count, copies.count)
        for (event, copy) in zip(events, copies) {
            XCTAssertTrue(event.snapshot[0].items.elementsEqual(copy), "a delivered snapshot changed")
        }
    }
}

/// Failures recorded from several threads.
private final class LockedFailures: @unchecked Sendable {
    // Safe: every access to `failures` holds `lock`.
    private let lock = DispatchSemaphore(value: 1)
    private var failures: [String] = []

    func record(_ failure: String) {
        lock.wait()
        failures.append(failure)
        lock.signal()
    }

    var all: [String] {
        lock.wait()
        defer { lock.signal() }
        return failures
    }
}
