import RippleTestSupport
import RippleTesting
import XCTest

@testable import Ripple

/// A shape row of a heterogeneous list: classes, one with a subclass, one that no cell is typed on.
private protocol Shape: AnyObject, Sendable {
    var id: Int { get }
}

private class Circle: Shape, @unchecked Sendable {
    // @unchecked: immutable; not final, so that `Ring` can subclass it.
    let id: Int
    init(_ id: Int) { self.id = id }
}

private final class Ring: Circle, @unchecked Sendable {}

private final class Square: Shape {
    let id: Int
    init(_ id: Int) { self.id = id }
}

private final class Star: Shape {
    let id: Int
    init(_ id: Int) { self.id = id }
}

private final class CircleCell: HeadlessCell<Circle> {}
private final class EvenCircleCell: HeadlessCell<Circle> {}
private final class RingCell: HeadlessCell<Ring> {}
private final class RingAsCircleCell: HeadlessCell<Circle> {}
private final class SquareCell: HeadlessCell<Square> {}
private final class ThirdSquareCell: HeadlessCell<Square> {}
private final class ShapeCell: HeadlessCell<any Shape> {}
private final class EvenShapeCell: HeadlessCell<any Shape> {}

/// Registration (issue 43, bug 1) against a reference model: random heterogeneous lists, random
/// registrations in both forms (by the element type, by a concrete type or a subclass, with and
/// without a condition, some made twice), on a headless table and a headless collection. The model
/// is the rule in plain Swift: a row shows in the first registration for its item's dynamic type
/// whose condition it meets, else the first for the element type; a registration without a
/// condition replaces the earlier one for its type; a row none covers is uncovered (and traps at
/// its first layout: `ListSourceCellRegistrationTests` proves the trap in a child process). After
/// every settle, every visible row's cell must be the model's. Seeded; a failure names its seed.
@MainActor
final class ListSourceCellRegistrationPropertyTests: XCTestCase {
    /// One registration call the test may make, and what the model records for it.
    private struct Call {
        let name: String
        /// The type the rows are looked up by: a concrete class name, or "any Shape".
        let key: String
        let condition: ((any Shape) -> Bool)?
    }

    private static let calls: [Call] = [
        Call(name: "CircleCell", key: "Circle", condition: nil),
        Call(name: "EvenCircleCell", key: "Circle", condition: { $0.id % 2 == 0 }),
        Call(name: "RingCell", key: "Ring", condition: nil),
        Call(name: "RingAsCircleCell", key: "Ring", condition: nil),
        Call(name: "SquareCell", key: "Square", condition: nil),
        Call(name: "ThirdSquareCell", key: "Square", condition: { $0.id % 3 == 0 }),
        Call(name: "ShapeCell", key: "any Shape", condition: nil),
        Call(name: "EvenShapeCell", key: "any Shape", condition: { $0.id % 2 == 0 }),
    ]

    /// Makes call `index` of ``calls`` on `screen`, as a user writes it.
    private static func register<Source: ListSource<any Shape>>(_ index: Int, on screen: HeadlessListScreen<Source>) {
        switch index {
        case 0: screen.register(CircleCell.self, for: Circle.self)
        case 1: screen.register(EvenCircleCell.self, for: Circle.self, where: { $0.id % 2 == 0 })
        case 2: screen.register(RingCell.self, for: Ring.self)
        case 3: screen.register(RingAsCircleCell.self, for: Ring.self)  // a cell of the superclass
        case 4: screen.register(SquareCell.self, for: Square.self)
        case 5: screen.register(ThirdSquareCell.self, for: Square.self, where: { $0.id % 3 == 0 })
        case 6: screen.register(ShapeCell.self)
        default: screen.register(EvenShapeCell.self, where: { $0.id % 2 == 0 })
        }
    }

    /// The rule, in plain Swift: registrations by type key, conditional ones in the order made
    /// before the one without a condition, which the last made replaces.
    private struct Model {
        var routes: [String: [(cell: String, condition: ((any Shape) -> Bool)?)]] = [:]

        mutating func record(_ call: Call) {
            var list = routes[call.key, default: []]
            if call.condition == nil {
                list.removeAll { $0.condition == nil }
                list.append((call.name, nil))
            } else {
                list.insert((call.name, call.condition), at: list.firstIndex { $0.condition == nil } ?? list.endIndex)
            }
            routes[call.key] = list
        }

        /// The cell of a row, or `nil` when none covers it.
        func cell(for shape: any Shape) -> String? {
            func first(_ key: String) -> String? {
                routes[key]?.first { $0.condition?(shape) ?? true }?.cell
            }
            return first(String(describing: type(of: shape))) ?? first("any Shape")
        }
    }

    func test_everyVisibleRow_showsTheCellTheModelNames_onATableAndACollection() async {
        let seeds = TestScale.seeds(0..<400)
        print("ListSourceCellRegistrationPropertyTests: seeds \(seeds)")
        var checked = (rows: 0, uncoveredLists: 0)
        for seed in seeds {
            var random = SplitMix64(seed: seed)
            let rows = ObservableCollection<any Shape>()
            let visible = random.int(in: 3...10)
            let passed: Bool
            if random.chance(1, in: 2) {
                let screen = HeadlessTableScreen(collection: rows, visibleRowCount: visible)
                passed = await check(screen, rows, seed: seed, random: &random, checked: &checked)
            } else {
                let screen = HeadlessCollectionScreen(collection: rows, visibleRowCount: visible)
                passed = await check(screen, rows, seed: seed, random: &random, checked: &checked)
            }
            if !passed { return }
        }
        print(
            "ListSourceCellRegistrationPropertyTests: \(checked.rows) visible rows checked, "
                + "\(checked.uncoveredLists) lists with an uncovered row")
        XCTAssertGreaterThan(checked.rows, TestScale.count(2_000))
    }

    /// One seed on one screen; returns whether it passed.
    private func check<Source: ListSource<any Shape>>(
        _ screen: HeadlessListScreen<Source>, _ rows: ObservableCollection<any Shape>, seed: UInt64,
        random: inout SplitMix64, checked: inout (rows: Int, uncoveredLists: Int)
    ) async -> Bool {
        var nextID = 0
        func shape() -> any Shape {
            nextID += 1
            switch random.int(below: 4) {
            case 0: return Circle(nextID)
            case 1: return Ring(nextID)
            case 2: return Square(nextID)
            default: return Star(nextID)
            }
        }
        rows.append(contentsOf: (0..<random.int(in: 0...24)).map { _ in shape() })
        var model = Model()
        var made: [String] = []
        for _ in 0..<random.int(in: 0...8) {
            let index = random.int(below: Self.calls.count)
            Self.register(index, on: screen)
            model.record(Self.calls[index])
            made.append(Self.calls[index].name)
        }
        let context = "seed \(seed), \(type(of: screen)), registered \(made)"

        // A list with a row none covers traps at its first layout: the source finds no cell for
        // exactly the rows the model finds none for, and the test lays nothing out.
        for row in rows.snapshot
        where (screen.source.registeredCellIdentifier(of: row) == nil) != (model.cell(for: row) == nil) {
            XCTFail("\(context): row \(row.id) (\(type(of: row))) is covered for only one of the source and the model")
            return false
        }
        if rows.snapshot.contains(where: { model.cell(for: $0) == nil }) {
            checked.uncoveredLists += 1
            return true
        }
        for step in 0..<6 {
            if step > 0 {
                // More rows of the kinds the registrations cover, fewer rows, or a shuffle.
                switch random.int(below: 3) {
                case 0:
                    let added = (0..<random.int(in: 1...4)).map { _ in shape() }.filter { model.cell(for: $0) != nil }
                    rows.insert(contentsOf: added, at: random.int(in: 0...rows.count))
                case 1 where rows.count > 0:
                    rows.remove(at: random.int(below: rows.count))
                default:
                    var shuffled = Array(rows.snapshot)
                    random.shuffle(&shuffled)
                    rows.replace(with: shuffled, identity: .object)
                }
                if random.chance(1, in: 2) { screen.cells.scroll(toRow: random.int(in: 0...max(0, rows.count - 1))) }
            }
            await screen.settle()
            for (path, cell) in screen.cells.visibleCells {
                let row = rows.snapshot[path.item]
                let name = String(describing: type(of: cell))
                guard name == model.cell(for: row) else {
                    XCTFail(
                        "\(context), step \(step): row \(path.item) (\(type(of: row)) \(row.id)) shows a \(name), "
                            + "the model says \(model.cell(for: row) ?? "none")")
                    return false
                }
                checked.rows += 1
            }
        }
        return true
    }
}
