import RippleDiff
import RippleTestSupport
import XCTest

/// Hand-written cases for `SectionedChangeset`: the diff's output, its text, validation, the
/// identity overloads, and hashing each item identifier at most once.
final class SectionedChangesetTests: XCTestCase {
    func testEmptyListsGiveNoChanges() {
        let changes = SectionedChangeset(from: [SxSnapshot](), to: [])
        XCTAssertTrue(changes.isEmpty)
        XCTAssertEqual(changes.changeCount, 0)
        XCTAssertEqual(changes, .unchanged(itemCounts: []))
        XCTAssertEqual(changes.description, "SectionedChangeset(sections 0 → 0: no changes; items 0 → 0: no changes)")
        XCTAssertTrue(StagedSectionedChangeset(from: [SxSnapshot](), to: []).isEmpty)
    }

    func testUnchangedListGivesNoChanges() {
        let list = sxList([(1, [1, 2]), (2, []), (3, [3])])
        let changes = SectionedChangeset(from: list, to: list)
        XCTAssertEqual(changes, .unchanged(itemCounts: [2, 0, 1]))
        XCTAssertNil(sectionedCheck(list, list, uniqueIDs: true))
    }

    func testItemMovesAcrossSections() {
        // V11's shape: [2, 2] → [1, 3].
        let source = sxList([(1, [1, 2]), (2, [3, 4])])
        let target = sxList([(1, [2]), (2, [1, 3, 4])])
        let changes = SectionedChangeset(from: source, to: target)
        XCTAssertTrue(changes.sections.isEmpty)
        XCTAssertEqual(changes.itemMoves, [sxPair((0, 0), (1, 0))])
        XCTAssertEqual(changes.itemDeletes, [])
        XCTAssertEqual(changes.itemInserts, [])
        XCTAssertEqual(
            changes.description,
            "SectionedChangeset(sections 2 → 2: no changes; items 4 → 4: move [(0 - 0)→(1 - 0)])")
        XCTAssertNil(sectionedCheck(source, target, uniqueIDs: true))
    }

    func testDeletesInsertsAndUpdatesAtBothLevels() {
        var source = sxList([(1, [1, 2, 3]), (2, [4]), (3, [5])])
        var target = sxList([(1, [1, 3, 6]), (3, [5]), (4, [7])])
        source[0].items[2].content = 0
        target[0].items[1].content = 1  // item 3 updated
        target[1].section.title = 1  // section 3 updated
        let changes = SectionedChangeset(from: source, to: target)
        XCTAssertEqual(changes.sections.deletes, [1])
        XCTAssertEqual(changes.sections.inserts, [2])
        XCTAssertEqual(changes.sections.updates, [Changeset.OffsetPair(source: 2, target: 1)])
        XCTAssertEqual(changes.itemDeletes, [sxPath(0, 1)])
        XCTAssertEqual(changes.itemInserts, [sxPath(0, 2)])
        XCTAssertEqual(changes.itemUpdates, [sxPair((0, 2), (0, 1))])
        XCTAssertEqual(changes.itemMoves, [])
        XCTAssertEqual(changes.sourceItemCounts, [3, 1, 1])
        XCTAssertEqual(changes.targetItemCounts, [3, 1, 1])
        XCTAssertEqual(changes.changeCount, 6)
        XCTAssertNil(sectionedCheck(source, target, uniqueIDs: true))
    }

    func testItemsOfDeletedAndInsertedSectionsAreNotListed() {
        let source = sxList([(1, [1, 2]), (2, [3])])
        let target = sxList([(2, [3]), (3, [4, 5])])
        let changes = SectionedChangeset(from: source, to: target)
        XCTAssertEqual(changes.sections.deletes, [0])
        XCTAssertEqual(changes.sections.inserts, [1])
        XCTAssertEqual(changes.itemDeletes, [])
        XCTAssertEqual(changes.itemInserts, [])
        XCTAssertEqual(changes.changeCount, 2)
    }

    func testItemsSurvivingDeletedOrInsertedSectionsAreMoves() {
        // Item 1 leaves deleted section 1 for section 2; item 3 enters new section 3.
        let source = sxList([(1, [1, 2]), (2, [3])])
        let target = sxList([(2, [1]), (3, [3])])
        let changes = SectionedChangeset(from: source, to: target)
        XCTAssertEqual(changes.sections.deletes, [0])
        XCTAssertEqual(changes.sections.inserts, [1])
        XCTAssertEqual(changes.itemMoves, [sxPair((0, 0), (0, 0)), sxPair((1, 0), (1, 0))])
        XCTAssertNil(changes.validationFailure())
    }

    func testAllSectionsReplaced() {
        let source = sxList([(1, [1, 2]), (2, [3])])
        let target = sxList([(3, [4]), (4, [])])
        let changes = SectionedChangeset(from: source, to: target)
        XCTAssertEqual(changes.sections.deletes, [0, 1])
        XCTAssertEqual(changes.sections.inserts, [0, 1])
        XCTAssertEqual(changes.changeCount, 4)
        XCTAssertNil(sectionedCheck(source, target, uniqueIDs: true))
    }

    func testMovesInsideASectionAreMinimal() {
        let source = sxList([(1, [1, 2, 3, 4, 5])])
        let target = sxList([(1, [5, 1, 2, 3, 4])])
        let changes = SectionedChangeset(from: source, to: target)
        XCTAssertEqual(changes.itemMoves, [sxPair((0, 4), (0, 0))])
    }

    func testSectionMovesAreMinimal() {
        let source = sxList([(1, [1]), (2, [2]), (3, [3]), (4, [])])
        let target = sxList([(4, []), (1, [1]), (2, [2]), (3, [3])])
        let changes = SectionedChangeset(from: source, to: target)
        XCTAssertEqual(changes.sections.moves, [Changeset.OffsetPair(source: 3, target: 0)])
        XCTAssertEqual(changes.itemMoves, [])
    }

    func testDuplicatesArePairedInOrderAndReported() {
        // Item 1 twice on each side, in two sections; section 1 twice in the source. (Repeats that
        // the trim pairs in place, as in the flat diff, are not reported.)
        let source = sxList([(3, []), (1, [5, 1, 2]), (2, [1, 6]), (1, [])])
        let target = sxList([(1, [7, 2, 1]), (2, [8, 1])])
        let changes = SectionedChangeset(from: source, to: target)
        XCTAssertEqual(changes.itemDuplicates.sourcePaths, [sxPath(2, 0)])
        XCTAssertEqual(changes.itemDuplicates.targetPaths, [sxPath(1, 1)])
        XCTAssertEqual(changes.sections.duplicates.sourceOffsets, [3])
        XCTAssertTrue(changes.hasDuplicates)
        XCTAssertEqual(changes.sections.deletes, [0, 3])
        // First with first: (1 - 1) stays in its section, (2 - 0) stays in its section.
        XCTAssertFalse(changes.itemMoves.contains { $0.source.section != $0.target.section + 1 })
        XCTAssertTrue(changes.description.contains("duplicate source [2 - 0], duplicate target [1 - 1]"))
        XCTAssertTrue(changes.description.contains("duplicate source [3]"))
        XCTAssertNil(sectionedCheck(source, target, uniqueIDs: false))
    }

    /// The sectioned diff pairs repeated item identifiers in order, not by place (`docs/diff.md`,
    /// "Duplicates in sections"): the first unmatched source occurrence, in section order, goes to
    /// the first target occurrence, even when a later one sits in the target's own section.
    func testRepeatedItemsPairInOrderAcrossSectionsNotByPlace() {
        let source = sxList([(1, [1, 5]), (2, [1, 6])])
        let target = sxList([(1, [7]), (2, [8, 1])])
        let changes = SectionedChangeset(from: source, to: target)
        // By place, (1 - 0) would pair with (1 - 1) in its own section; in order, (0 - 0) takes it.
        XCTAssertEqual(changes.itemMoves, [sxPair((0, 0), (1, 1))])
        XCTAssertEqual(changes.itemDeletes, [sxPath(0, 1), sxPath(1, 0), sxPath(1, 1)])
        XCTAssertEqual(changes.itemInserts, [sxPath(0, 0), sxPath(1, 0)])
        XCTAssertEqual(changes.itemDuplicates.sourcePaths, [sxPath(1, 0)])
        XCTAssertEqual(changes.itemDuplicates.targetPaths, [])
        XCTAssertNil(sectionedCheck(source, target, uniqueIDs: false))
    }

    /// One section kept in place is the flat diff with in-order pairing, item for item: the two
    /// diffs share one identifier table and one rule for repeats.
    func testOneSectionMatchesTheFlatInOrderDiff() {
        forEachSeed(0..<400) { _, random in
            let distinct = random.int(in: 1...25)
            let source = (0..<random.int(below: 40)).map { _ in random.int(below: distinct) }
            var target = source.filter { _ in !random.chance(1, in: 5) }
            for _ in 0..<random.int(below: 8) {
                target.insert(random.int(below: distinct + 3), at: random.int(in: 0...target.count))
            }
            if !target.isEmpty && random.chance(1, in: 2) {
                target.swapAt(random.int(below: target.count), random.int(below: target.count))
            }
            let flat = RippleDiff._flatDiff(from: source, to: target, keepingOrder: false)
            let sectioned = SectionedChangeset(
                from: [SectionSnapshot(section: 0, items: source)], to: [SectionSnapshot(section: 0, items: target)],
                sectionIdentity: .value, itemIdentity: .value)
            func paths(_ offsets: [Int]) -> [ElementPath] { offsets.map { sxPath(0, $0) } }
            let moves = flat.moves.map { sxPair((0, $0.source), (0, $0.target)) }
            if sectioned.itemDeletes != paths(flat.deletes) || sectioned.itemInserts != paths(flat.inserts)
                || sectioned.itemMoves != moves
                || sectioned.itemDuplicates.sourcePaths != paths(flat.duplicates.sourceOffsets)
                || sectioned.itemDuplicates.targetPaths != paths(flat.duplicates.targetOffsets)
            {
                return "\(source) → \(target): flat \(flat), sectioned \(sectioned)"
            }
            return nil
        }
    }

    func testUpdatedItemsInTrimmedEndsAreFound() {
        var source = sxList([(1, [1, 2, 3, 4, 5])])
        var target = sxList([(1, [1, 2, 9, 4, 5])])
        source[0].items[0].content = 1
        target[0].items[4].content = 2
        target[0].items[3].content = 3
        let changes = SectionedChangeset(from: source, to: target)
        XCTAssertEqual(changes.itemUpdates, [sxPair((0, 0), (0, 0)), sxPair((0, 3), (0, 3)), sxPair((0, 4), (0, 4))])
        XCTAssertEqual(changes.itemDeletes, [sxPath(0, 2)])
        XCTAssertEqual(changes.itemInserts, [sxPath(0, 2)])
    }

    func testAppliedReplaysTheTarget() {
        var source = sxList([(1, [1, 2]), (2, [3, 4]), (3, [5])])
        var target = sxList([(3, [4, 5]), (5, [2, 8]), (1, [1])])
        source[1].items[1].content = 1
        target[0].items[0].content = 2
        target[2].section.title = 4
        let changes = SectionedChangeset(from: source, to: target)
        let replayed = changes.applied(
            to: source, section: { target[$0].section }, item: { target[$0.section].items[$0.item] })
        XCTAssertEqual(replayed, target)
    }

    // MARK: Identity overloads

    func testIdentityOverloadsAgree() {
        var random = SplitMix64(seed: 42)
        for _ in 0..<200 {
            let (source, target) = sectionedRandomPair(SxShape(), &random)
            let byIdentifiable = SectionedChangeset(from: source, to: target)
            let byClosures = SectionedChangeset(
                from: source, to: target,
                sectionIdentity: .key({ $0.id }, contentEquals: { $0.title == $1.title }),
                itemIdentity: .key({ $0.id }, contentEquals: { $0.content == $1.content }))
            XCTAssertEqual(byIdentifiable, byClosures)
            // `Identifiable & Equatable` without `Hashable`.
            let plainSource = source.map {
                SectionSnapshot(section: SxPlainSection($0.section), items: $0.items.map(SxPlainItem.init))
            }
            let plainTarget = target.map {
                SectionSnapshot(section: SxPlainSection($0.section), items: $0.items.map(SxPlainItem.init))
            }
            XCTAssertEqual(SectionedChangeset(from: plainSource, to: plainTarget), byIdentifiable)
            XCTAssertEqual(
                StagedSectionedChangeset(from: plainSource, to: plainTarget).map(\.changeset),
                StagedSectionedChangeset(from: source, to: target).map(\.changeset))
            let stagedByClosures = StagedSectionedChangeset(
                from: source, to: target,
                sectionIdentity: .key({ $0.id }, contentEquals: { $0.title == $1.title }),
                itemIdentity: .key({ $0.id }, contentEquals: { $0.content == $1.content }))
            XCTAssertEqual(stagedByClosures, StagedSectionedChangeset(from: source, to: target))
        }
    }

    func testHashableValuesAreTheirOwnIdentity() {
        let source = [SectionSnapshot(section: "A", items: [1, 2, 3]), SectionSnapshot(section: "B", items: [4])]
        let target = [SectionSnapshot(section: "B", items: [4, 2]), SectionSnapshot(section: "C", items: [3, 5])]
        let changes = SectionedChangeset(from: source, to: target, sectionIdentity: .value, itemIdentity: .value)
        XCTAssertEqual(changes.sections.deletes, [0])
        XCTAssertEqual(changes.sections.inserts, [1])
        XCTAssertEqual(changes.itemMoves, [sxPair((0, 1), (0, 1)), sxPair((0, 2), (1, 0))])
        XCTAssertEqual(changes.itemUpdates, [])
        let replayed = changes.applied(
            to: source, section: { target[$0].section }, item: { target[$0.section].items[$0.item] })
        XCTAssertEqual(replayed, target)
        let staged = StagedSectionedChangeset(from: source, to: target, sectionIdentity: .value, itemIdentity: .value)
        XCTAssertEqual(staged.count, 1)
        XCTAssertEqual(staged[0].changeset.itemInserts, [sxPath(0, 1)])
        XCTAssertEqual(staged[0].changeset.itemMoves, [])
        XCTAssertEqual(staged[0].data, target)
    }

    func testObjectsThroughTheClosureForm() {
        final class Presenter {
            let name: String
            init(_ name: String) { self.name = name }
        }
        let a = Presenter("a")
        let b = Presenter("b")
        let c = Presenter("c")
        let source = [SectionSnapshot(section: 1, items: [a, b]), SectionSnapshot(section: 2, items: [c])]
        let target = [SectionSnapshot(section: 2, items: [c, a]), SectionSnapshot(section: 1, items: [b])]
        let changes = SectionedChangeset(
            from: source, to: target,
            sectionIdentity: .key({ $0 }, contentEquals: { _, _ in true }),
            itemIdentity: .key({ ObjectIdentifier($0) }, contentEquals: { _, _ in true }))
        XCTAssertEqual(changes.sections.moves.count, 1)
        XCTAssertEqual(changes.itemMoves, [sxPair((0, 0), (0, 1))])
    }

    // MARK: Hashing

    /// Each item identifier is hashed at most once, whatever the input; an unchanged list is not
    /// hashed at all.
    func testEachItemIdentifierIsHashedAtMostOnce() {
        forEachSeed(0..<300) { seed, random in
            let counter = CallCounter()
            let shape = SxShape(
                maxSections: 8, maxItems: 20, sectionChurn: 25, itemChurn: 20, duplicates: seed % 3 == 0)
            let (plainSource, plainTarget) = sectionedRandomPair(shape, &random)
            let source = plainSource.map { $0.counted(counter) }
            let target = plainTarget.map { $0.counted(counter) }
            let total = source.reduce(0) { $0 + $1.items.count } + target.reduce(0) { $0 + $1.items.count }
            counter.reset()
            let staged = StagedSectionedChangeset(from: source, to: target)
            if counter.hashes > total { return "\(counter.hashes) hashes for \(total) items" }
            counter.reset()
            _ = SectionedChangeset(from: source, to: source)
            if counter.hashes != 0 { return "an unchanged list hashed \(counter.hashes) identifiers" }
            return staged.last.map { $0.data == target ? nil : "staged data is not the target" } ?? nil
        }
    }

    func testLargeInputIsHashedOncePerItem() {
        // 100 sections × 100 items; 10% deleted, 10% inserted, 2% moved (half across sections),
        // 5 sections deleted, 5 inserted, 3 moved: the benchmark's shape, scaled down.
        let counter = CallCounter()
        var random = SplitMix64(seed: 7)
        var nextItem = 0
        var source: [SectionSnapshot<SxSection, SxCountedItem>] = []
        for s in 0..<100 {
            var items: [SxCountedItem] = []
            for _ in 0..<100 {
                items.append(SxCountedItem(id: CountingID(nextItem, counter)))
                nextItem += 1
            }
            source.append(SectionSnapshot(section: SxSection(id: s), items: items))
        }
        var target = source
        for s in target.indices {
            target[s].items.removeAll { _ in Int.random(in: 0..<10, using: &random) == 0 }
            for _ in 0..<10 {
                let item = SxCountedItem(id: CountingID(nextItem, counter))
                nextItem += 1
                target[s].items.insert(item, at: Int.random(in: 0...target[s].items.count, using: &random))
            }
            for _ in 0..<2 {
                let from = Int.random(in: 0..<target[s].items.count, using: &random)
                let moved = target[s].items.remove(at: from)
                let to = Int.random(in: 0..<target.count, using: &random)
                let destination = Int.random(in: 0...100, using: &random) < 50 ? s : to
                target[destination].items.insert(
                    moved, at: Int.random(in: 0...target[destination].items.count, using: &random))
            }
        }
        target.removeSubrange(10..<15)
        for s in 0..<5 {
            target.insert(SectionSnapshot(section: SxSection(id: 1_000 + s), items: []), at: 20 * s)
        }
        let moved = target.remove(at: 50)
        target.insert(moved, at: 3)
        target.swapAt(70, 90)
        let total = source.reduce(0) { $0 + $1.items.count } + target.reduce(0) { $0 + $1.items.count }
        counter.reset()
        let staged = StagedSectionedChangeset(from: source, to: target)
        XCTAssertLessThanOrEqual(counter.hashes, total)
        XCTAssertEqual(staged.last?.data, target)
        XCTAssertLessThanOrEqual(staged.count, 2)
    }

    // MARK: Validation

    func testValidationNamesTheFirstProblem() {
        let valid = SectionedChangeset(
            sections: Changeset(sourceCount: 2, targetCount: 2),
            sourceItemCounts: [2, 1], targetItemCounts: [1, 2],
            itemMoves: [sxPair((0, 0), (1, 0))])
        XCTAssertNil(valid.validationFailure())

        var wrongCounts = valid
        wrongCounts.targetItemCounts = [1, 1]
        XCTAssertEqual(
            wrongCounts.validationFailure(),
            "section 1 → 1: 1 items, minus 0 deleted or moved out, plus 1 inserted or moved in, gives 2, not 1")

        var missingCounts = valid
        missingCounts.sourceItemCounts = [2]
        XCTAssertEqual(missingCounts.validationFailure(), "sourceItemCounts has 1 entries for 2 source sections")

        var deleteInDeletedSection = SectionedChangeset(
            sections: Changeset(sourceCount: 2, targetCount: 1, deletes: [0]),
            sourceItemCounts: [2, 1], targetItemCounts: [1],
            itemDeletes: [sxPath(0, 1)])
        XCTAssertEqual(
            deleteInDeletedSection.validationFailure(),
            "item delete (0 - 1) is inside deleted section 0; its items leave with it")
        deleteInDeletedSection.itemDeletes = []
        XCTAssertNil(deleteInDeletedSection.validationFailure())

        var movedTwice = valid
        movedTwice.itemMoves.append(sxPair((0, 0), (1, 1)))
        XCTAssertEqual(movedTwice.validationFailure(), "source path (0 - 0) is both moved and deleted, or moved twice")

        var outOfRange = valid
        outOfRange.itemInserts = [sxPath(1, 2)]
        XCTAssertEqual(outOfRange.validationFailure(), "item insert (1 - 2) is out of range")

        var strayUpdate = valid
        strayUpdate.itemUpdates = [sxPair((0, 1), (1, 0))]
        XCTAssertEqual(
            strayUpdate.validationFailure(), "item update (0 - 1)→(1 - 0) does not follow the item: it lands at (0 - 0)"
        )

        var badSectionUpdate = valid
        badSectionUpdate.sections.updates = [Changeset.OffsetPair(source: 0, target: 1)]
        XCTAssertEqual(
            badSectionUpdate.validationFailure(),
            "sections: update 0→1 does not follow the element: it lands at 0")

        let badSections = SectionedChangeset(
            sections: Changeset(sourceCount: 1, targetCount: 1, deletes: [0]),
            sourceItemCounts: [0], targetItemCounts: [0])
        XCTAssertEqual(
            badSections.validationFailure(), "sections: counts disagree: 1 - 1 deleted must equal 1 - 0 inserted")
    }

    func testTypesAreSendableAndHashable() {
        func requireSendable<T: Sendable>(_: T.Type) {}
        requireSendable(SectionedChangeset.self)
        requireSendable(SectionSnapshot<SxSection, SxItem>.self)
        requireSendable(StagedSectionedChangeset<SxSection, SxItem>.self)
        requireSendable(StagedSectionedChangeset<SxSection, SxItem>.Stage.self)
        let snapshot = SectionSnapshot(section: SxSection(id: 1), items: [SxItem(id: 2)])
        XCTAssertEqual(Set([snapshot, snapshot]).count, 1)
        XCTAssertEqual(snapshot.description, "S1: [2]")
        XCTAssertEqual(sxPair((0, 1), (2, 3)).description, "(0 - 1)→(2 - 3)")
        XCTAssertLessThan(sxPair((0, 1), (2, 3)), sxPair((0, 2), (0, 0)))
    }
}

// MARK: - Helpers

/// `Identifiable & Equatable`, not `Hashable`: picks the `Identifiable & Equatable` overloads.
struct SxPlainSection: Identifiable, Equatable {
    var id: Int
    var title: Int
    init(_ section: SxSection) {
        id = section.id
        title = section.title
    }
}

struct SxPlainItem: Identifiable, Equatable {
    var id: Int
    var content: Int
    init(_ item: SxItem) {
        id = item.id
        content = item.content
    }
}

struct SxCountedItem: Identifiable, Equatable {
    var id: CountingID
    var content = 0
}

extension SectionSnapshot where Section == SxSection, Item == SxItem {
    func counted(_ counter: CallCounter) -> SectionSnapshot<SxSection, SxCountedItem> {
        SectionSnapshot<SxSection, SxCountedItem>(
            section: section,
            items: items.map { SxCountedItem(id: CountingID($0.id, counter), content: $0.content) })
    }
}
