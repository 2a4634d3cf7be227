import Ripple
import RippleDiff

/// The `sections-live` suite: a `SectionedCollection` of 100 sections × 1,000 items, publishing one
/// sectioned event for a batch that touches 1% of the items across sections, and for
/// `replace(with:)` with the `sections` suite's changes.
///
/// Engines, side by side on the same data:
/// - `ripple`: the sectioned collection's own work (the batch, or `replace(with:)`), with one
///   synchronous subscriber receiving the event;
/// - `diff`: `StagedSectionedChangeset(from:to:)` of the list before and after: what re-diffing
///   the whole list would cost;
/// - `floor`: one `Dictionary` pass over all item identifiers, built from the list before and
///   looked up with each item after.
enum SectionsLiveBenchmarks {
    static let suite = BenchmarkSuite(
        name: "sections-live",
        summary: "SectionedCollection batch and `replace(with:)` (`ripple`) vs the staged sectioned diff of the same "
            + "lists (`diff`) vs one `Dictionary` pass over all item identifiers (`floor`)",
        makeGroups: { mode, _ in groups(quick: mode == .quick) })

    static func groups(quick: Bool) -> [BenchmarkGroup] {
        SectionsBenchmarks.shapes(quick: quick).flatMap { shape in
            [
                batchGroup(shape),
                replaceGroup(shape, element: "int", make: { _, id in IntElement(id: id, content: 0) }, copy: { $0 }),
                replaceGroup(
                    shape, element: "uuid",
                    make: { random, _ in UUIDElement(id: uuidString(&random), content: 0) },
                    copy: { UUIDElement(id: String(decoding: Array($0.id.utf8), as: UTF8.self), content: $0.content) }),
            ]
        }
    }

    /// A mutable slot for the collection a task works on, rebuilt untimed before each run.
    final class Slot<Item: Sendable>: @unchecked Sendable {
        // @unchecked: used by one benchmark thread at a time.
        var collection = SectionedCollection<BenchmarkSection, Item>()
        var token: SubscriptionToken?

        func reset(_ list: [SectionSnapshot<BenchmarkSection, Item>]) {
            token = nil
            collection = SectionedCollection(list)
            token = collection.subscribe(on: .synchronous) { blackHole($0.version) }
        }
    }

    /// One item operation of the batch scenario, by path.
    enum Operation {
        case update(ElementPath, IntElement)
        case remove(ElementPath)
        case insert(IntElement, ElementPath)
        case move(ElementPath, ElementPath)
    }

    /// The list and 1% of its items touched by random updates, removals, inserts and moves (half
    /// of them across sections), all by path, inside one batch.
    static func batchGroup(_ shape: SectionShape) -> BenchmarkGroup {
        let (source, _) = shape.make(seed: 0x5EC7) { _, id in IntElement(id: id, content: 0) }
        let total = shape.sections * shape.itemsPerSection
        var random = BenchmarkRandom(seed: 0xBA7C)
        var after = source.map(\.items)
        var operations: [Operation] = []
        var nextID = total * 2
        for _ in 0..<(total / 100) {
            let s = Int.random(in: 0..<after.count, using: &random)
            let count = after[s].count
            let kind = count == 0 ? 2 : Int.random(in: 0..<10, using: &random)
            switch kind {
            case 0..<4:
                let path = ElementPath(item: Int.random(in: 0..<count, using: &random), section: s)
                var item = after[s][path.item]
                item.content += 1
                after[s][path.item] = item
                operations.append(.update(path, item))
            case 4, 5:
                let path = ElementPath(item: Int.random(in: 0..<count, using: &random), section: s)
                after[s].remove(at: path.item)
                operations.append(.remove(path))
            case 6, 7:
                let path = ElementPath(item: Int.random(in: 0...count, using: &random), section: s)
                let item = IntElement(id: nextID, content: 0)
                nextID += 1
                after[s].insert(item, at: path.item)
                operations.append(.insert(item, path))
            default:
                let from = ElementPath(item: Int.random(in: 0..<count, using: &random), section: s)
                let t = kind == 8 ? s : Int.random(in: 0..<after.count, using: &random)
                let item = after[s].remove(at: from.item)
                let to = ElementPath(item: Int.random(in: 0...after[t].count, using: &random), section: t)
                after[t].insert(item, at: to.item)
                operations.append(.move(from, to))
            }
        }
        let target = zip(source, after).map { SectionSnapshot(section: $0.0.section, items: $0.1) }
        let n = total
        let slot = Slot<IntElement>()
        func task(_ engine: String, prepare: (() -> Void)? = nil, _ body: @escaping () -> Int?) -> BenchmarkTask {
            BenchmarkTask(
                suite: "sections-live", scenario: "\(shape.name)-batch1%", element: "int", engine: engine, n: n,
                elements: (source + target).reduce(0) { $0 + $1.items.count }, body: body, prepare: prepare)
        }
        return BenchmarkGroup(tasks: [
            task("ripple", prepare: { slot.reset(source) }) {
                let collection = slot.collection
                collection.performBatchUpdates {
                    for operation in operations {
                        switch operation {
                        case .update(let path, let item): collection[path] = item
                        case .remove(let path): collection.removeItem(at: path)
                        case .insert(let item, let path): collection.insertItem(item, at: path)
                        case .move(let from, let to): collection.moveItem(from: from, to: to)
                        }
                    }
                }
                return nil
            },
            task("diff") {
                let staged = StagedSectionedChangeset(from: source, to: target)
                blackHole(staged)
                return staged.stages.reduce(0) { $0 + $1.changeset.itemMoves.count }
            },
            task("floor") { SectionsBenchmarks.floor(source, target) },
        ])
    }

    /// `replace(with:)` with the `sections` suite's changes.
    static func replaceGroup<Item: Identifiable & Equatable & Sendable>(
        _ shape: SectionShape,
        element: String,
        make: (inout BenchmarkRandom, Int) -> Item,
        copy: (Item) -> Item
    ) -> BenchmarkGroup {
        var (source, target) = shape.make(seed: 0x5EC7, newItem: make)
        target = target.map { SectionSnapshot(section: $0.section, items: $0.items.map(copy)) }
        let n = shape.sections * shape.itemsPerSection
        let slot = Slot<Item>()
        func task(_ engine: String, prepare: (() -> Void)? = nil, _ body: @escaping () -> Int?) -> BenchmarkTask {
            BenchmarkTask(
                suite: "sections-live", scenario: "\(shape.name)-replace", element: element, engine: engine, n: n,
                elements: (source + target).reduce(0) { $0 + $1.items.count }, body: body, prepare: prepare)
        }
        return BenchmarkGroup(tasks: [
            task("ripple", prepare: { slot.reset(source) }) {
                slot.collection.replace(with: target)
                return nil
            },
            task("diff") {
                let staged = StagedSectionedChangeset(from: source, to: target)
                blackHole(staged)
                return staged.stages.reduce(0) { $0 + $1.changeset.itemMoves.count }
            },
            task("floor") { SectionsBenchmarks.floor(source, target) },
        ])
    }
}
