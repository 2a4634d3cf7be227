import RippleDiff
import RippleTestSupport
import RippleTesting
import XCTest

/// Seeded random batches over several sections.
///
/// The generator builds a valid UIKit batch together with the after state it describes, placing
/// every moved and inserted item at a chosen slot and letting the rest fill the free slots in
/// order: an independent construction of UIKit's semantics. The validator must accept the batch
/// and the headless views must end up showing that after state. Then the batch is broken at
/// random: the validator must never trap, its answer must not depend on call order (R2), and a
/// batch it accepts must apply to the data source's shape.
final class BatchUpdateValidatorRandomTests: XCTestCase {
    private struct Scenario: CustomStringConvertible {
        var before: [[Int]]
        var after: [[Int]]
        var batch: BatchUpdate
        var description: String { "\(before) → \(after) with \(batch)" }
    }

    private let seeds: Range<UInt64> = 0..<3_000

    func testConstructedBatchesAreValidAndReachTheirAfterState() {
        forEachSeed(seeds) { _, random in
            let scenario = Self.makeScenario(using: &random)
            for flavor in [BatchUpdateValidator.Flavor.tableView, .collectionView] {
                let result = BatchUpdateValidator(flavor: flavor).validate(
                    scenario.batch, before: scenario.before.map(\.count), after: scenario.after.map(\.count))
                if !result.isValid { return "\(scenario): \(flavor) rejects it: \(result)" }
                if !result.warnings.isEmpty { return "\(scenario): \(flavor) warns: \(result)" }
            }
            var data = scenario.before
            let tableView = HeadlessTableView { data }
            tableView.reloadData()
            tableView.performBatchUpdates {
                data = scenario.after
                tableView.apply(scenario.batch)
            }
            if tableView.rows != scenario.after { return "\(scenario): the table view shows \(tableView.rows)" }
            return nil
        }
    }

    func testBrokenBatchesNeverTrapAndDoNotDependOnCallOrder() {
        forEachSeed(seeds) { _, random in
            var scenario = Self.makeScenario(using: &random)
            Self.breakScenario(&scenario, using: &random)
            let before = scenario.before.map(\.count)
            let after = scenario.after.map(\.count)
            for flavor in [BatchUpdateValidator.Flavor.tableView, .collectionView] {
                for style in [BatchUpdateValidator.CountMismatchStyle.classic, .detailed] {
                    let validator = BatchUpdateValidator(flavor: flavor, countMismatchStyle: style)
                    let result = validator.validate(scenario.batch, before: before, after: after)
                    let reversed = validator.validate(
                        BatchUpdate(operations: scenario.batch.operations.reversed()), before: before, after: after)
                    if result.violation != reversed.violation {
                        return "\(scenario): call order changes \(result) into \(reversed)"
                    }
                    if result.warnings.map(\.description).sorted() != reversed.warnings.map(\.description).sorted() {
                        return "\(scenario): call order changes the warnings \(result) into \(reversed)"
                    }
                }
            }
            // Accepted or not, the views never trap, and end with the data source's shape.
            var data = scenario.before
            let collectionView = HeadlessCollectionView { data }
            collectionView.layoutIfNeeded()
            collectionView.performBatchUpdates {
                data = scenario.after
                collectionView.apply(scenario.batch)
            }
            let shown = collectionView.items
            if shown.map(\.count) != after { return "\(scenario): shows \(shown)" }
            if collectionView.lastViolation == nil && collectionView.events.count != 1 {
                return "\(scenario): expected one batch, got \(collectionView.events)"
            }
            return nil
        }
    }

    /// Issue 13: batches whose indices and counts are drawn from the extremes of `Int`, mixed with
    /// small ones. The validator must answer (valid or a violation, never an overflow trap), and a
    /// headless view fed such a batch must record a violation and show its data source.
    func testExtremeIndicesAndCountsNeverTrap() {
        let extremes = [Int.min, Int.min + 1, -2, -1, 0, 1, 2, 3, Int.max - 2, Int.max - 1, Int.max]
        forEachSeed(0..<3_000) { _, random in
            func value() -> Int { extremes[random.below(extremes.count)] }
            func path() -> ElementPath {
                ElementPath(item: value(), section: random.below(3) == 0 ? value() : random.below(3))
            }
            var batch = BatchUpdate()
            for _ in 0...random.below(6) {
                switch random.below(8) {
                case 0: batch.deleteSections([value()])
                case 1: batch.insertSections([value()])
                case 2: batch.reloadSections([value()])
                case 3: batch.moveSection(value(), toSection: value())
                case 4: batch.deleteItems(at: [path()])
                case 5: batch.insertItems(at: [path()])
                case 6: batch.reloadItems(at: [path()])
                default: batch.moveItem(at: path(), to: path())
                }
            }
            let before = (0..<random.below(3)).map { _ in random.below(2) == 0 ? value() : random.below(4) }
            let after = (0..<random.below(3)).map { _ in random.below(2) == 0 ? value() : random.below(4) }
            for flavor in [BatchUpdateValidator.Flavor.tableView, .collectionView] {
                for style in [BatchUpdateValidator.CountMismatchStyle.classic, .detailed] {
                    _ = BatchUpdateValidator(flavor: flavor, countMismatchStyle: style)
                        .validate(batch, before: before, after: after)
                }
            }
            // A view has real rows, so only the indices can be extreme.
            var data = before.map { Array(0..<max(0, min($0, 4))) }
            let tableView = HeadlessTableView { data }
            tableView.reloadData()
            tableView.performBatchUpdates {
                data = after.map { Array(0..<max(0, min($0, 4))) }
                tableView.apply(batch)
            }
            if tableView.rows != data && tableView.violations.isEmpty {
                return "\(batch) for \(before) → \(after): the table view shows \(tableView.rows) without a violation"
            }
            return nil
        }
    }

    // MARK: - Generator

    /// A valid batch over up to 3 sections of up to 4 items, and the after state it describes.
    ///
    /// Before values are `section * 100 + item`; a reloaded item becomes `value + 1_000`; inserted
    /// items are `10_000` and up.
    private static func makeScenario(using random: inout SplitMix64) -> Scenario {
        var batch = BatchUpdate()
        var fresh = 10_000
        let before: [[Int]] = (0..<random.below(4)).map { section in
            (0..<random.below(5)).map { section * 100 + $0 }
        }
        // Reloads only share a batch with deletes and inserts; moves would shift them (R3).
        let reloads = random.below(3) == 0

        // Sections: deleted, moved, inserted, and the rest in order.
        var deleted = Set<Int>()
        var moved: [Int] = []
        for section in before.indices {
            switch random.below(5) {
            case 0: deleted.insert(section)
            case 1 where !reloads: moved.append(section)
            default: break
            }
        }
        let afterCount = before.count - deleted.count + random.below(2)
        var slots = Array(0..<afterCount)
        random.shuffleInPlace(&slots)
        let insertedSlots = Set(slots.prefix(afterCount - (before.count - deleted.count)))
        var sources = [Int?](repeating: nil, count: afterCount)
        var taken = insertedSlots
        for (section, slot) in zip(moved, slots.dropFirst(insertedSlots.count)) {
            sources[slot] = section
            taken.insert(slot)
            batch.moveSection(section, toSection: slot)
        }
        var nextSlot = 0
        for section in before.indices where !deleted.contains(section) && !moved.contains(section) {
            while taken.contains(nextSlot) { nextSlot += 1 }
            sources[nextSlot] = section
            nextSlot += 1
        }
        batch.deleteSections(deleted.sorted())
        batch.insertSections(insertedSlots.sorted())
        // Ignored: row deletes inside a deleted section, even out of range (V12).
        if let section = deleted.first, random.below(2) == 0 {
            batch.deleteItems(at: [ElementPath(item: random.below(6), section: section)])
        }

        // Items of the surviving sections: deleted, moved to a section that is not new, or kept.
        let existingTargets = sources.indices.filter { sources[$0] != nil }
        var kept = [[Int]](repeating: [], count: before.count)
        var movesInto = [Int: [(from: ElementPath, value: Int)]]()
        for (section, items) in before.enumerated() where !deleted.contains(section) {
            for (item, value) in items.enumerated() {
                let here = ElementPath(item: item, section: section)
                switch random.below(5) {
                case 0:
                    batch.deleteItems(at: [here])
                case 1 where !reloads:
                    let target = existingTargets[random.below(existingTargets.count)]
                    movesInto[target, default: []].append((here, value))
                case 2 where reloads:
                    batch.reloadItems(at: [here])
                    kept[section].append(value + 1_000)
                default:
                    kept[section].append(value)
                }
            }
        }

        // The after state: moved and inserted items at chosen slots, kept items in order around them.
        var after: [[Int]] = []
        for (target, source) in sources.enumerated() {
            guard let source else {
                let items = (0..<random.below(3)).map { _ in
                    fresh += 1
                    return fresh
                }
                after.append(items)
                if !items.isEmpty && random.below(2) == 0 {
                    // Ignored: row inserts inside an inserted section (V13).
                    batch.insertItems(at: [ElementPath(item: random.below(items.count), section: target)])
                }
                continue
            }
            let incoming = movesInto[target] ?? []
            let insertCount = random.below(3)
            var cells = [Int?](repeating: nil, count: kept[source].count + incoming.count + insertCount)
            var positions = Array(cells.indices)
            random.shuffleInPlace(&positions)
            for (move, position) in zip(incoming, positions) {
                cells[position] = move.value
                batch.moveItem(at: move.from, to: ElementPath(item: position, section: target))
            }
            for position in positions.dropFirst(incoming.count).prefix(insertCount) {
                fresh += 1
                cells[position] = fresh
                batch.insertItems(at: [ElementPath(item: position, section: target)])
            }
            var keptValues = kept[source].makeIterator()
            after.append(cells.map { $0 ?? keptValues.next()! })
        }
        random.shuffleInPlace(&batch.operations)
        return Scenario(before: before, after: after, batch: batch)
    }

    /// Breaks a scenario at random: drops, repeats or shifts an operation, adds a stray one, or
    /// changes the data source's counts.
    private static func breakScenario(_ scenario: inout Scenario, using random: inout SplitMix64) {
        var operations = scenario.batch.operations
        func nudge(_ value: Int) -> Int { value + [-1, 1, 2][random.below(3)] }
        func nudge(_ path: ElementPath) -> ElementPath {
            random.below(2) == 0
                ? ElementPath(item: nudge(path.item), section: path.section)
                : ElementPath(item: path.item, section: nudge(path.section))
        }
        let strays: [BatchUpdate.Operation] = [
            .deleteSection(random.below(4)), .insertSection(random.below(4)),
            .moveSection(random.below(4), to: random.below(4)), .reloadSection(random.below(4)),
            .deleteItem(ElementPath(item: random.below(5), section: random.below(4))),
            .insertItem(ElementPath(item: random.below(5), section: random.below(4))),
            .moveItem(
                ElementPath(item: random.below(5), section: random.below(4)),
                to: ElementPath(item: random.below(5), section: random.below(4))),
            .reloadItem(ElementPath(item: random.below(5), section: random.below(4))),
        ]
        for _ in 0...random.below(2) {
            switch random.below(5) {
            case 0 where !operations.isEmpty:
                operations.remove(at: random.below(operations.count))
            case 1 where !operations.isEmpty:
                operations.append(operations[random.below(operations.count)])
            case 2 where !operations.isEmpty:
                let index = random.below(operations.count)
                switch operations[index] {
                case .deleteSection(let section): operations[index] = .deleteSection(nudge(section))
                case .insertSection(let section): operations[index] = .insertSection(nudge(section))
                case .reloadSection(let section): operations[index] = .reloadSection(nudge(section))
                case .moveSection(let from, let to):
                    operations[index] =
                        random.below(2) == 0 ? .moveSection(nudge(from), to: to) : .moveSection(from, to: nudge(to))
                case .deleteItem(let path): operations[index] = .deleteItem(nudge(path))
                case .insertItem(let path): operations[index] = .insertItem(nudge(path))
                case .reloadItem(let path): operations[index] = .reloadItem(nudge(path))
                case .moveItem(let from, let to):
                    operations[index] =
                        random.below(2) == 0 ? .moveItem(nudge(from), to: to) : .moveItem(from, to: nudge(to))
                }
            case 3:
                operations.append(strays[random.below(strays.count)])
            default:
                if !scenario.after.isEmpty {
                    let section = random.below(scenario.after.count)
                    if scenario.after[section].isEmpty || random.below(2) == 0 {
                        scenario.after[section].append(20_000)
                    } else {
                        scenario.after[section].removeLast()
                    }
                } else {
                    scenario.after.append([])
                }
            }
        }
        scenario.batch.operations = operations
    }
}

extension SplitMix64 {
    /// A value in `0..<bound`, from `next()` alone so a seed gives the same case on every toolchain.
    fileprivate mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }

    /// Shuffles `elements` (Fisher–Yates) from `next()` alone.
    fileprivate mutating func shuffleInPlace<Element>(_ elements: inout [Element]) {
        var index = elements.count
        while index > 1 {
            let other = below(index)
            index -= 1
            elements.swapAt(index, other)
        }
    }
}
