import RippleDiff

/// The `sections` suite: RippleDiff's staged sectioned diff against one `Dictionary` pass over all
/// item identifiers of both sides.
enum SectionsBenchmarks {
    static let suite = BenchmarkSuite(
        name: "sections",
        summary: "staged sectioned diff (`ripple`) vs one `Dictionary` pass over all item identifiers (`floor`)",
        makeGroups: { mode, _ in groups(quick: mode == .quick) })

    static func shapes(quick: Bool) -> [SectionShape] {
        if quick {
            return [
                SectionShape(
                    name: "10x100", sections: 10, itemsPerSection: 100,
                    deletedSections: 1, insertedSections: 1, movedSections: 1,
                    deletedItems: 100, insertedItems: 100, movedItems: 20)
            ]
        }
        return [
            SectionShape(
                name: "100x1000", sections: 100, itemsPerSection: 1_000,
                deletedSections: 5, insertedSections: 5, movedSections: 3,
                deletedItems: 10_000, insertedItems: 10_000, movedItems: 2_000)
        ]
    }

    static func groups(quick: Bool) -> [BenchmarkGroup] {
        shapes(quick: quick).flatMap { shape in
            [
                group(shape, element: "int", make: { _, id in IntElement(id: id, content: 0) }, copy: { $0 }),
                group(
                    shape, element: "uuid",
                    make: { random, _ in UUIDElement(id: uuidString(&random), content: 0) },
                    copy: { UUIDElement(id: String(decoding: Array($0.id.utf8), as: UTF8.self), content: $0.content) }),
            ]
        }
    }

    /// Builds one scenario's inputs and its engines.
    ///
    /// As in the `diff` suite, the target's items are fresh copies (fresh strings for `uuid`), as
    /// when a refresh decodes the same rows again.
    static func group<Item: Identifiable & Equatable>(
        _ shape: SectionShape,
        element: String,
        make: (inout BenchmarkRandom, Int) -> Item,
        copy: (Item) -> Item
    ) -> BenchmarkGroup {
        var (source, target) = shape.make(seed: 0x5EC7, newItem: make)
        target = target.map { SectionSnapshot(section: $0.section, items: $0.items.map(copy)) }
        let n = shape.sections * shape.itemsPerSection
        let elements = (source + target).reduce(0) { $0 + $1.items.count }
        func task(_ engine: String, _ body: @escaping () -> Int?) -> BenchmarkTask {
            BenchmarkTask(
                suite: "sections", scenario: shape.name, element: element, engine: engine, n: n, elements: elements,
                body: body)
        }
        return BenchmarkGroup(tasks: [
            task("ripple") {
                let staged = StagedSectionedChangeset(from: source, to: target)
                blackHole(staged)
                return staged.stages.reduce(0) { $0 + $1.changeset.itemMoves.count }
            },
            task("floor") { floor(source, target) },
        ])
    }

    /// One `Dictionary` pass: the identifiers of every item before, looked up with every item after.
    static func floor<Item: Identifiable>(
        _ source: [SectionSnapshot<BenchmarkSection, Item>], _ target: [SectionSnapshot<BenchmarkSection, Item>]
    ) -> Int? {
        var count = 0
        for section in source { count &+= section.items.count }
        var table = [Item.ID: Int](minimumCapacity: count)
        var offset = 0
        for section in source {
            for item in section.items {
                table[item.id] = offset
                offset &+= 1
            }
        }
        var found = 0
        for section in target {
            for item in section.items where table[item.id] != nil { found &+= 1 }
        }
        blackHole(found)
        return nil
    }
}

/// A section header in the `sections` suite: an `Int` identifier and a title.
struct BenchmarkSection: Identifiable, Equatable, Sendable {
    var id: Int
    var title: Int
}

/// The shape of a changed sectioned list.
///
/// From `sections` source sections of `itemsPerSection` items each: delete `deletedSections`
/// sections with their items; among the surviving items, delete `deletedItems`, move
/// `movedItems` (half inside their section, half into another surviving section) and insert
/// `insertedItems` new ones at random places; insert `insertedSections` new sections of
/// `itemsPerSection` new items each; finally move `movedSections` sections. Every choice comes
/// from a seeded generator.
struct SectionShape {
    var name: String
    var sections: Int
    var itemsPerSection: Int
    var deletedSections: Int
    var insertedSections: Int
    var movedSections: Int
    var deletedItems: Int
    var insertedItems: Int
    var movedItems: Int

    /// Builds the source and target lists from a factory of fresh items.
    func make<Item>(
        seed: UInt64, newItem: (inout BenchmarkRandom, Int) -> Item
    ) -> (source: [SectionSnapshot<BenchmarkSection, Item>], target: [SectionSnapshot<BenchmarkSection, Item>]) {
        var random = BenchmarkRandom(seed: seed)
        var nextItem = 0
        func items(_ count: Int, _ random: inout BenchmarkRandom) -> [Item] {
            defer { nextItem += count }
            return (0..<count).map { newItem(&random, nextItem + $0) }
        }
        let source = (0..<sections).map {
            SectionSnapshot(section: BenchmarkSection(id: $0, title: 0), items: items(itemsPerSection, &random))
        }

        // Section deletes.
        var survivors = Array(source.indices)
        survivors.shuffle(using: &random)
        survivors = Array(survivors.dropFirst(deletedSections)).sorted()
        var target = survivors.map { source[$0] }

        // Item deletes and moves: a random sample of the surviving items.
        var positions: [(section: Int, item: Int)] = []
        for (s, section) in target.enumerated() {
            for i in section.items.indices { positions.append((s, i)) }
        }
        positions.shuffle(using: &random)
        let chosen = positions.prefix(deletedItems + movedItems)
        var leaving = target.map { [Bool](repeating: false, count: $0.items.count) }
        for position in chosen { leaving[position.section][position.item] = true }
        let movers = chosen.suffix(movedItems).map { (section: $0.section, item: target[$0.section].items[$0.item]) }
        for s in target.indices {
            target[s].items = ListSnapshot(
                target[s].items.indices.filter { !leaving[s][$0] }.map { target[s].items[$0] })
        }
        for (index, mover) in movers.enumerated() {
            var s = mover.section
            if index % 2 == 1 && target.count > 1 {
                // Across sections: any surviving section but its own.
                s = (s + 1 + Int.random(in: 0..<(target.count - 1), using: &random)) % target.count
            }
            target[s].items.insert(mover.item, at: Int.random(in: 0...target[s].items.count, using: &random))
        }

        // Item inserts.
        for item in items(insertedItems, &random) where !target.isEmpty {
            let s = Int.random(in: 0..<target.count, using: &random)
            target[s].items.insert(item, at: Int.random(in: 0...target[s].items.count, using: &random))
        }

        // Section inserts, then section moves.
        for offset in 0..<insertedSections {
            let section = SectionSnapshot(
                section: BenchmarkSection(id: sections + offset, title: 0), items: items(itemsPerSection, &random))
            target.insert(section, at: Int.random(in: 0...target.count, using: &random))
        }
        for _ in 0..<movedSections where target.count > 1 {
            let from = Int.random(in: 0..<target.count, using: &random)
            let moved = target.remove(at: from)
            // Any other place: `from` itself would put it back.
            let to = (from + 1 + Int.random(in: 0..<target.count, using: &random)) % (target.count + 1)
            target.insert(moved, at: to)
        }
        return (source, target)
    }
}
