// Seeded generators of diff inputs: pairs of `TestItem` lists in the shapes that stress a diff.

/// The shape of a generated diff input.
public enum DiffInputShape: CaseIterable, Sendable, CustomStringConvertible {
    /// Unique identifiers; the target deletes, inserts, moves and updates some of them.
    case edited
    /// Unique identifiers; the target is a permutation of the source, some contents changed.
    case shuffled
    /// Identifiers drawn from a tiny range, so nearly every identifier repeats on both sides.
    case heavyDuplicates
    /// No identifier in common: everything is deleted and everything inserted.
    case allReplaced
    /// The target is the source reversed, some contents changed.
    case reversed
    /// One side or both sides are empty.
    case empty
    /// The target equals the source.
    case identical

    /// The shape's name.
    public var description: String {
        switch self {
        case .edited: "edited"
        case .shuffled: "shuffled"
        case .heavyDuplicates: "heavyDuplicates"
        case .allReplaced: "allReplaced"
        case .reversed: "reversed"
        case .empty: "empty"
        case .identical: "identical"
        }
    }
}

/// A source and a target list for one diff case.
public struct DiffInput: Sendable, CustomStringConvertible {
    /// The list before the change.
    public var source: [TestItem]

    /// The list after the change.
    public var target: [TestItem]

    /// Creates an input from its two lists.
    ///
    /// - Parameters:
    ///   - source: The list before the change.
    ///   - target: The list after the change.
    public init(source: [TestItem], target: [TestItem]) {
        self.source = source
        self.target = target
    }

    /// The two lists, as `source → target`, short enough to paste into a regression test.
    public var description: String { "\(source) → \(target)" }

    /// The same input with source and target swapped, to test the inverse diff.
    public var inverted: DiffInput { DiffInput(source: target, target: source) }

    /// Generates an input of the given shape.
    ///
    /// - Parameters:
    ///   - shape: The shape of the input.
    ///   - count: The source's length; the target's length depends on the shape.
    ///   - random: The generator to draw from.
    /// - Returns: A new input.
    /// - Complexity: O(*count*²) at worst, for the inserts of the `edited` shape.
    public static func random(
        _ shape: DiffInputShape, count: Int, using random: inout SplitMix64
    ) -> DiffInput {
        switch shape {
        case .edited:
            let source = uniqueItems(count: count, using: &random)
            return DiffInput(source: source, target: edit(source, using: &random))
        case .shuffled:
            let source = uniqueItems(count: count, using: &random)
            var target = source
            random.shuffle(&target)
            changeContents(&target, percent: random.int(in: 0...30), using: &random)
            return DiffInput(source: source, target: target)
        case .heavyDuplicates:
            let distinct = random.chance(1, in: 2) ? random.int(in: 1...3) : Swift.max(1, count / 4)
            let source = duplicatedItems(count: count, distinct: distinct, using: &random)
            let target =
                random.chance(1, in: 2)
                ? edit(source, freshIDs: 0..<distinct, using: &random)
                : duplicatedItems(count: random.int(in: 0...count + 3), distinct: distinct, using: &random)
            return DiffInput(source: source, target: target)
        case .allReplaced:
            let source = uniqueItems(count: count, using: &random)
            var target = uniqueItems(count: random.int(in: 0...count + 3), using: &random)
            for index in target.indices { target[index].id += 1_000_000 }
            return DiffInput(source: source, target: target)
        case .reversed:
            let source = uniqueItems(count: count, using: &random)
            var target = Array(source.reversed())
            changeContents(&target, percent: random.int(in: 0...20), using: &random)
            return DiffInput(source: source, target: target)
        case .empty:
            let items = uniqueItems(count: count, using: &random)
            switch random.int(below: 3) {
            case 0: return DiffInput(source: [], target: items)
            case 1: return DiffInput(source: items, target: [])
            default: return DiffInput(source: [], target: [])
            }
        case .identical:
            let source =
                random.chance(1, in: 4)
                ? duplicatedItems(count: count, distinct: Swift.max(1, count / 3), using: &random)
                : uniqueItems(count: count, using: &random)
            return DiffInput(source: source, target: source)
        }
    }

    /// `count` items with distinct identifiers in random order, contents in `0..<3`.
    ///
    /// - Parameters:
    ///   - count: The number of items.
    ///   - random: The generator to draw from.
    /// - Returns: The items; identifiers are below `4 * count`.
    public static func uniqueItems(count: Int, using random: inout SplitMix64) -> [TestItem] {
        // One identifier from each block of four, so that edits can invent fresh ones in between.
        var ids = (0..<count).map { 4 * $0 + random.int(below: 4) }
        random.shuffle(&ids)
        return ids.map { TestItem(id: $0, content: random.int(below: 3)) }
    }

    /// `count` items whose identifiers are drawn from `0..<distinct`, contents in `0..<2`.
    ///
    /// - Parameters:
    ///   - count: The number of items.
    ///   - distinct: The number of different identifiers; must be positive.
    ///   - random: The generator to draw from.
    /// - Returns: The items.
    public static func duplicatedItems(
        count: Int, distinct: Int, using random: inout SplitMix64
    ) -> [TestItem] {
        (0..<count).map { _ in TestItem(id: random.int(below: distinct), content: random.int(below: 2)) }
    }

    /// Applies random deletes, content changes, moves and inserts to `source`.
    ///
    /// Each kind of edit gets its own random rate, from none to most elements, so that small and
    /// sweeping edits both occur.
    ///
    /// - Parameters:
    ///   - source: The list to edit.
    ///   - freshIDs: Where inserted identifiers come from; `nil` picks identifiers absent from
    ///     `source`.
    ///   - random: The generator to draw from.
    /// - Returns: The edited list.
    public static func edit(
        _ source: [TestItem], freshIDs: Range<Int>? = nil, using random: inout SplitMix64
    ) -> [TestItem] {
        let rates = [0, 5, 20, 50]
        let deleteRate = rates[random.int(below: rates.count)]
        let insertRate = rates[random.int(below: rates.count)]
        let moveRate = rates[random.int(below: rates.count)]
        var target = source.filter { _ in !random.chance(deleteRate, in: 100) }
        changeContents(&target, percent: rates[random.int(below: rates.count)], using: &random)
        if !target.isEmpty {
            for _ in 0..<(target.count * moveRate / 100) {
                let element = target.remove(at: random.int(below: target.count))
                target.insert(element, at: random.int(below: target.count + 1))
            }
        }
        var nextFresh = (source.map(\.id).max() ?? -1) + 1
        for _ in 0..<(Swift.max(source.count, 2) * insertRate / 100 + random.int(below: 2)) {
            let id: Int
            if let freshIDs {
                id = freshIDs.lowerBound + random.int(below: freshIDs.count)
            } else {
                id = nextFresh
                nextFresh += 1
            }
            target.insert(TestItem(id: id, content: random.int(below: 3)), at: random.int(below: target.count + 1))
        }
        return target
    }

    /// Gives about `percent` percent of `items` a different content.
    ///
    /// - Parameters:
    ///   - items: The items to change.
    ///   - percent: The share of items to change, from 0 to 100.
    ///   - random: The generator to draw from.
    public static func changeContents(_ items: inout [TestItem], percent: Int, using random: inout SplitMix64) {
        for index in items.indices where random.chance(percent, in: 100) {
            items[index].content += 1 + random.int(below: 2)
        }
    }
}
