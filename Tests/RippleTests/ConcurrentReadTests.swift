import Foundation
import Ripple
import RippleDiff
import RippleTestSupport
import XCTest

/// Reads of live collections while four threads append and remove: no read traps, and each read
/// sees a list that really existed. Runs under ThreadSanitizer in CI.
///
/// Each collection starts with a floor of elements (per section) and every mutator removes by
/// offset only as many elements as it has inserted, so there are always at least that many
/// elements and every offset below the floor stays valid, whatever the other threads do. Element
/// identifiers are never reused, so a list that holds one twice was never a real state.
final class ConcurrentReadTests: XCTestCase {
    /// Reads of the flat test and of the sectioned one: 100,000 together. A flat read costs more
    /// (its list is longer), and both tests also run under ThreadSanitizer (there, a `TestScale`
    /// fraction of the reads).
    private static let (flatReads, sectionedReads) = (
        TestScale.count(40_000, minimum: 2_000), TestScale.count(60_000, minimum: 3_000)
    )
    private static let seed: UInt64 = 0x5EED_0011

    /// Runs `read` on one thread while four others each run the step that `mutator` makes for them,
    /// over and over, until `read` returns; returns what it returned.
    private static func read(
        _ read: @escaping @Sendable () -> [String],
        whileFourThreadsRun mutator: @escaping @Sendable (_ thread: Int) -> () -> Void
    ) -> [String] {
        let problems = Locked<[String]>([])
        let stop = StopFlag()
        runOnThreads(5) { thread in
            guard thread < 4 else {
                defer { stop.raise() }
                let found = read()
                problems.withLock { $0 = found }
                return
            }
            let step = mutator(thread)
            while !stop.isRaised { step() }
        }
        return problems.current
    }

    // MARK: - ObservableCollection

    func test_flatReadsWhileFourThreadsAppendAndRemove_neverTrapAndSeeRealLists() {
        // Rounds of a fresh collection: `FlatMutator` is made for runs of about ten thousand
        // mutations, and its list slowly grows over longer ones.
        let rounds = 10
        for round in 0..<rounds {
            let seed = Self.seed &+ UInt64(round)
            let collection = ObservableCollection(Array(0..<FlatMutator.floor))
            let checker = ChangeChecker<Int>(initial: Array(collection.snapshot), light: true)
            let token = collection.subscribe(on: .synchronous, checker.handler)
            let problems = Self.read({ Self.readFlat(collection, reads: Self.flatReads / rounds, seed: seed) }) {
                thread in
                var mutator = FlatMutator(collection: collection, thread: Int(seed % 1_000) * 4 + thread)
                return { mutator.step(inBatch: false) }
            }
            XCTAssertEqual(problems.prefix(3), [], "seed \(seed)")
            checker.assertConsistent(
                finalSnapshot: Array(collection.snapshot), finalVersion: collection.version, "seed \(seed)")
            token.cancel()
        }
    }

    /// Reads `collection` `reads` times, cycling through every kind of read; returns the problems.
    private static func readFlat(_ collection: ObservableCollection<Int>, reads: Int, seed: UInt64) -> [String] {
        let floor = FlatMutator.floor
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
                expect(read % 64 != 5 || Set(mapped).count == mapped.count, "map saw an element twice")
            case 6: expect(!collection.contains(-1), "contains an element never inserted")
            case 7: expect(collection.filter { _ in true }.count >= floor, "filter lost elements")
            case 8: expect(collection.reduce(0) { count, _ in count + 1 } >= floor, "reduce counted too few")
            case 9: _ = collection[random.int(below: floor)]
            case 10: expect(collection[0..<floor].count == floor, "slice of the floor")
            case 11:
                let array = Array(collection)
                expect(array.count >= floor, "Array(collection) has \(array.count) elements")
                expect(read % 64 != 11 || Set(array).count == array.count, "Array(collection) saw an element twice")
            case 12: expect(collection.indices.count >= floor, "indices below the floor")
            case 13:
                var seen = 0
                collection.forEach { _ in seen += 1 }
                expect(seen >= floor, "forEach saw \(seen) elements")
            case 14:
                expect(collection.first(where: { _ in true }) != nil, "first(where:) found nothing")
                expect(collection.last(where: { _ in true }) != nil, "last(where:) found nothing")
            default:
                let sorted = collection.sorted()
                expect(sorted.count >= floor, "sorted() has \(sorted.count) elements")
                expect(collection.firstIndex(of: -1) == nil, "firstIndex(of:) found an element never inserted")
            }
        }
        return problems
    }

    // MARK: - SectionedCollection and SectionData

    func test_sectionedReadsWhileFourThreadsAppendAndRemove_neverTrapAndSeeRealLists() {
        let floor = SectionedMutator.floor
        let sectionCount = 3
        let collection = TestSections(
            makeSectionedList((0..<sectionCount).map { section in (section, (0..<floor).map { section * 10 + $0 }) }))
        let checker = SectionedChangeChecker(initial: collection.snapshot, light: true)
        let token = collection.subscribe(on: .synchronous, checker.handler)
        let problems = Self.read({
            Self.readSectioned(collection, sections: sectionCount, reads: Self.sectionedReads, seed: Self.seed)
        }) { thread in
            var mutator = SectionedMutator(
                collection: collection, seed: Self.seed &+ 10 &+ UInt64(thread), thread: thread)
            return { mutator.step() }
        }
        XCTAssertEqual(problems.prefix(3), [], "seed \(Self.seed)")
        let final = Array(collection.snapshot)
        XCTAssertEqual(final.map(\.items), collection.sections.map { $0.items.snapshot })
        checker.assertConsistent(finalSnapshot: final, "seed \(Self.seed)")
        XCTAssertEqual(checker.eventCount, collection.version)
        token.cancel()
    }

    /// One mutator thread of the sectioned test: appends, inserts, removes and moves items, by path
    /// and through the sections' own collections, across sections, and in batches of either.
    private struct SectionedMutator {
        /// Items every section holds from the start; see the class's comment.
        static let floor = 2

        let collection: TestSections
        let sections: [TestSection]
        let thread: Int
        var random: SplitMix64
        /// Per section, items inserted into it minus items removed from it by this thread.
        var net: [Int]
        var serial = 0

        init(collection: TestSections, seed: UInt64, thread: Int) {
            self.collection = collection
            sections = collection.sections
            self.thread = thread
            random = SplitMix64(seed: seed)
            net = [Int](repeating: 0, count: sections.count)
        }

        mutating func item() -> TestItem {
            serial += 1
            return TestItem(id: (thread + 1) * 100_000_000 + serial)
        }

        /// An item offset of `section` that is valid whatever the other threads did.
        mutating func anyOffset(in section: Int) -> Int { random.int(below: Self.floor + net[section]) }

        mutating func step(inBatch: Bool = false) {
            let floor = Self.floor
            let section = random.int(below: sections.count)
            let items = sections[section].items
            var choice = random.int(below: inBatch ? 8 : 10)
            if net[section] > 8 && choice < 3 { choice = 3 + random.int(below: 3) }
            switch choice {
            case 0:
                items.append(item())
                net[section] += 1
            case 1:
                collection.appendItem(item(), toSection: section)
                net[section] += 1
            case 2:
                if random.chance(1, in: 2) {
                    collection.insertItem(item(), at: ElementPath(item: random.int(in: 0...floor), section: section))
                } else {
                    items.insert(item(), at: random.int(in: 0...floor))
                }
                net[section] += 1
            case 3 where net[section] > 0:
                items.remove(at: anyOffset(in: section))
                net[section] -= 1
            case 4 where net[section] > 0:
                collection.removeItem(at: ElementPath(item: anyOffset(in: section), section: section))
                net[section] -= 1
            case 5 where net[section] > 0:
                let target = random.int(below: sections.count)
                let to = target == section ? anyOffset(in: target) : random.int(in: 0...floor)
                collection.moveItem(
                    from: ElementPath(item: anyOffset(in: section), section: section),
                    to: ElementPath(item: to, section: target))
                net[section] -= 1
                net[target] += 1
            case 6:
                items.move(from: anyOffset(in: section), to: anyOffset(in: section))
            case 7:
                collection[ElementPath(item: anyOffset(in: section), section: section)] = item()
            case 8:
                let steps = random.int(in: 1...4)
                collection.performBatchUpdates {
                    for _ in 0..<steps { step(inBatch: true) }
                }
            case 9:
                let steps = random.int(in: 1...3)
                items.performBatchUpdates {
                    for _ in 0..<steps {
                        if random.chance(1, in: 2) || net[section] == 0 {
                            collection.appendItem(item(), toSection: section)
                            net[section] += 1
                        } else {
                            items.remove(at: anyOffset(in: section))
                            net[section] -= 1
                        }
                    }
                }
            default:
                break
            }
        }
    }

    /// Reads `collection` and its sections `reads` times, cycling through every kind of read;
    /// returns the problems.
    private static func readSectioned(
        _ collection: TestSections, sections sectionCount: Int, reads: Int, seed: UInt64
    ) -> [String] {
        let floor = SectionedMutator.floor
        var random = SplitMix64(seed: seed &+ 200)
        var problems: [String] = []
        func expect(_ condition: Bool, _ message: @autoclosure () -> String) {
            if !condition && problems.count < 5 { problems.append(message()) }
        }
        let sections = collection.sections
        for read in 0..<reads {
            let section = read % sectionCount
            let items = sections[section].items
            switch read % 14 {
            case 0: expect(collection.numberOfSections == sectionCount, "numberOfSections")
            case 1:
                let count = collection.numberOfItems(inSection: section)
                expect(count >= floor, "numberOfItems(inSection: \(section)) is \(count)")
            case 2: _ = collection[ElementPath(item: random.int(below: floor), section: section)]
            case 3:
                let snapshot = collection.snapshot
                expect(snapshot.allSatisfy { $0.items.count >= floor }, "a section of the snapshot is below the floor")
                if read % 56 == 3 {
                    let ids = snapshot.flatMap(\.items.ids)
                    let repeated = Dictionary(grouping: ids, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
                    expect(repeated.isEmpty, "snapshot holds items \(repeated) twice")
                }
            case 4: expect(collection.sections.count == sectionCount, "sections")
            case 5: expect(items.count >= floor, "items.count below the floor")
            case 6: expect(!items.isEmpty, "items.isEmpty")
            case 7: expect(items.first != nil && items.last != nil, "items.first or items.last is nil")
            case 8:
                var seen = 0
                for _ in items { seen += 1 }
                expect(seen >= floor, "iterating items saw \(seen)")
            case 9: expect(items.map(\.id).count >= floor, "items.map below the floor")
            case 10: expect(!items.contains(TestItem(id: -1)), "items contains an item never inserted")
            case 11: expect(sections[section].snapshot.items.count >= floor, "SectionData.snapshot below the floor")
            case 12: _ = items[random.int(below: floor)]
            default: expect(items[0..<floor].count == floor, "items slice of the floor")
            }
        }
        return problems
    }
}
