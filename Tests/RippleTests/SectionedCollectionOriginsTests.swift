import Ripple
import RippleDiff
import RippleTestSupport
import XCTest

/// `SectionedChangeset(sourceItemCounts:sectionOrigins:itemOrigins:)`, the fold behind sectioned
/// batches, on seeded random origins: the change-set is valid, replays to the target, is exact and
/// has minimal moves inside each section; plus named cases.
final class SectionedCollectionOriginsTests: XCTestCase {
    func testNamedCase() {
        // [[a, b], [c]] → [[c, a], [x]] where the second target section is new.
        let changes = SectionedChangeset(
            sourceItemCounts: [2, 1], sectionOrigins: [0, -1], itemOrigins: [[2, 0], [-1]])
        XCTAssertNil(changes.validationFailure())
        XCTAssertEqual(changes.sections.deletes, [1])
        XCTAssertEqual(changes.sections.inserts, [1])
        XCTAssertEqual(changes.itemDeletes, [ElementPath(item: 1, section: 0)])
        XCTAssertEqual(changes.itemInserts, [])
        XCTAssertEqual(
            changes.itemMoves,
            [
                SectionedChangeset.PathPair(
                    source: ElementPath(item: 0, section: 1), target: ElementPath(item: 0, section: 0))
            ])
    }

    func testUpdatesFollowTheirItemsAndDeletedOnesAreDropped() {
        let changes = SectionedChangeset(
            sourceItemCounts: [2, 2], sectionOrigins: [1, 0], itemOrigins: [[3], [1, 0]],
            updatedSourceSections: [1], updatedSourceItems: [3, 2, 0, 0])
        XCTAssertNil(changes.validationFailure())
        XCTAssertEqual(changes.sections.updates, [Changeset.OffsetPair(source: 1, target: 0)])
        XCTAssertEqual(
            changes.itemUpdates,
            [
                SectionedChangeset.PathPair(
                    source: ElementPath(item: 0, section: 0), target: ElementPath(item: 1, section: 1)),
                SectionedChangeset.PathPair(
                    source: ElementPath(item: 1, section: 1), target: ElementPath(item: 0, section: 0)),
            ])
    }

    func testRandomOrigins() {
        forEachSeed(0..<2_000) { seed, random in
            // A source of unique items, and a target built by picking survivors and new items.
            let sourceCounts = (0..<random.int(in: 0...5)).map { _ in random.int(in: 0...5) }
            let total = sourceCounts.reduce(0, +)
            var starts: [Int] = []
            var running = 0
            for count in sourceCounts {
                starts.append(running)
                running += count
            }
            let source: TestSectionedList = sourceCounts.indices.map { s in
                SectionSnapshot(
                    section: TestHeader(id: s), items: [TestItem](ids: Array(starts[s]..<(starts[s] + sourceCounts[s])))
                )
            }
            var survivingSections = sourceCounts.indices.filter { _ in !random.chance(1, in: 4) }
            random.shuffle(&survivingSections)
            var sectionOrigins = survivingSections
            for _ in 0..<random.int(in: 0...2) {
                sectionOrigins.insert(-1, at: random.int(in: 0...sectionOrigins.count))
            }
            var pool = Array(0..<total).filter { _ in !random.chance(1, in: 4) }
            random.shuffle(&pool)
            var itemOrigins = sectionOrigins.map { _ in [Int]() }
            var nextNew = 1_000
            var target: TestSectionedList = sectionOrigins.enumerated().map { offset, origin in
                SectionSnapshot(section: TestHeader(id: origin >= 0 ? origin : 100 + offset), items: [])
            }
            guard !target.isEmpty else { return nil }
            let sectionOf = sourceCounts.indices.flatMap { repeatElement($0, count: sourceCounts[$0]) }
            for flat in pool {
                // Mostly back to its own section (if it survived), sometimes anywhere.
                var t = sectionOrigins.firstIndex(of: sectionOf[flat]) ?? random.int(below: target.count)
                if random.chance(1, in: 5) { t = random.int(below: target.count) }
                let at = random.int(in: 0...itemOrigins[t].count)
                itemOrigins[t].insert(flat, at: at)
                target[t].items.insert(TestItem(id: flat), at: at)
            }
            for _ in 0..<random.int(in: 0...3) {
                let t = random.int(below: target.count)
                let at = random.int(in: 0...itemOrigins[t].count)
                itemOrigins[t].insert(-1, at: at)
                target[t].items.insert(TestItem(id: nextNew), at: at)
                nextNew += 1
            }
            let changes = SectionedChangeset(
                sourceItemCounts: sourceCounts, sectionOrigins: sectionOrigins, itemOrigins: itemOrigins)
            if let failure = changes.validationFailure() { return "invalid \(changes): \(failure)" }
            let replayed = changes.applied(
                to: source, section: { target[$0].section }, item: { target[$0.section].items[$0.item] })
            if replayed != target {
                return "\(changes) on \(source.shape) gives \(replayed.shape), not \(target.shape)"
            }
            let event = SectionedCollectionChange<TestHeader, TestItem>(
                changeset: changes, snapshot: target, version: 1)
            if let failure = sectionedExactnessFailure(event, after: source) { return failure }
            if let failure = sectionedStagingFailure(event, after: source) { return failure }
            return nil
        }
    }

    /// Long sections with many runs of consecutive items, shuffled: the moves stay minimal whether
    /// the longest subsequence is found over a few runs or, past 256 runs, over the items.
    func testLongSectionsWithManyRunsKeepMinimalMoves() {
        forEachSeed(0..<6) { seed, random in
            let count = 3_000
            let runLength = seed < 3 ? 40 : 4  // about 75 runs, then about 750
            var runs: [[Int]] = stride(from: 0, to: count, by: runLength).map { Array($0..<min($0 + runLength, count)) }
            for _ in 0..<(seed < 3 ? 10 : 400) {
                let from = random.int(below: runs.count)
                let run = runs.remove(at: from)
                runs.insert(run, at: random.int(in: 0...runs.count))
            }
            var origins = runs.flatMap { $0 }.filter { _ in !random.chance(1, in: 50) }
            for _ in 0..<20 { origins.insert(-1, at: random.int(in: 0...origins.count)) }
            let source: TestSectionedList = [
                SectionSnapshot(section: TestHeader(id: 0), items: [TestItem](ids: Array(0..<count)))
            ]
            var nextNew = 100_000
            let target: TestSectionedList = [
                SectionSnapshot(
                    section: TestHeader(id: 0),
                    items: origins.map { origin in
                        if origin >= 0 { return TestItem(id: origin) }
                        nextNew += 1
                        return TestItem(id: nextNew)
                    })
            ]
            let changes = SectionedChangeset(sourceItemCounts: [count], sectionOrigins: [0], itemOrigins: [origins])
            if let failure = changes.validationFailure() { return "invalid: \(failure)" }
            let replayed = changes.applied(
                to: source, section: { target[$0].section }, item: { target[$0.section].items[$0.item] })
            if replayed != target { return "the change-set does not replay to the target" }
            let event = SectionedCollectionChange<TestHeader, TestItem>(
                changeset: changes, snapshot: target, version: 1)
            return sectionedExactnessFailure(event, after: source)
        }
    }

    /// A batch leaves the sections it did not touch without origins: `nil` stands for the items of
    /// the section's source, in order, and gives the same change-set as writing them out.
    func testUntouchedSectionsWithoutOriginsGiveTheSameChangeset() {
        forEachSeed(0..<500) { seed, random in
            let sourceCounts = (0..<random.int(in: 1...6)).map { _ in random.int(in: 0...6) }
            var starts = [0]
            for count in sourceCounts { starts.append(starts[starts.count - 1] + count) }
            var sectionOrigins = Array(sourceCounts.indices).filter { _ in !random.chance(1, in: 5) }
            random.shuffle(&sectionOrigins)
            if random.chance(1, in: 3) { sectionOrigins.insert(-1, at: random.int(in: 0...sectionOrigins.count)) }
            var dense: [[Int]] = sectionOrigins.map { $0 >= 0 ? Array(starts[$0]..<starts[$0 + 1]) : [-1] }
            var sparse: [[Int]?] = dense.map { $0 }
            var updated: [Int] = []
            for t in dense.indices where sectionOrigins[t] >= 0 {
                if random.chance(1, in: 2) {
                    sparse[t] = nil  // untouched
                    continue
                }
                // Touched: drop, reorder or add some items, and update one.
                dense[t] = dense[t].filter { _ in !random.chance(1, in: 4) }
                if dense[t].count > 1 { dense[t].swapAt(0, dense[t].count - 1) }
                dense[t].insert(-1, at: random.int(in: 0...dense[t].count))
                if let kept = dense[t].first(where: { $0 >= 0 }) { updated.append(kept) }
                sparse[t] = dense[t]
            }
            let expected = SectionedChangeset(
                sourceItemCounts: sourceCounts, sectionOrigins: sectionOrigins, itemOrigins: dense,
                updatedSourceItems: updated)
            let changes = SectionedChangeset(
                sourceItemCounts: sourceCounts, sectionOrigins: sectionOrigins, sparseItemOrigins: sparse,
                updatedSections: [], updatedItems: updated)
            return changes == expected ? nil : "sparse \(changes) differs from dense \(expected)"
        }
    }
}
