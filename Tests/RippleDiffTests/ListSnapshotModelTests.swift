import RippleTestSupport
import XCTest

@testable import RippleDiff

/// `ListSnapshot` against `Array`, the simple reference model, across every boundary of the tree:
/// seeded random operations (inserts, removals, range replacements, subscript and slice writes,
/// moves, appends, removals of a leaf's worth from the end, rebuilds at the sizes around each leaf
/// and level boundary), on elements of four sizes, one of them a class whose instances are
/// counted. Copies are held at random moments and re-checked at the end, against the array copy
/// of the same moment.
///
/// 200,000 operations in all at full scale (a `TestScale` fraction in CI's sanitizer steps), the
/// two seeds of each test on two cores. It
/// runs in every build `.ci/run` tests, release included (issue 34: a release build emptied a
/// list that debug builds kept).
final class ListSnapshotModelTests: XCTestCase {
    /// 40 bytes: 102 to a leaf.
    private struct Bytes40: Equatable {
        var value: Int
        var padding: (Int, Int, Int, Int) = (0, 0, 0, 0)
        init(_ value: Int) { self.value = value }
        static func == (lhs: Self, rhs: Self) -> Bool { lhs.value == rhs.value }
    }

    /// 320 bytes: 16 to a leaf (the floor), so that a few thousand elements make three levels and
    /// 16,385 make four.
    private struct Bytes320: Equatable {
        var value: Int
        var padding: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var more:
            (
                Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int,
                Int, Int, Int, Int, Int
            ) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        init(_ value: Int) { self.value = value }
        static func == (lhs: Self, rhs: Self) -> Bool { lhs.value == rhs.value }
    }

    func test_elementSizes_giveTheLeavesTheTestMeans() {
        XCTAssertEqual(ListSnapshot<Int>._leafCapacity, 256)
        XCTAssertEqual(ListSnapshot<Bytes40>._leafCapacity, 102)
        XCTAssertEqual(ListSnapshot<Bytes320>._leafCapacity, 16)
        XCTAssertEqual(ListSnapshot<Tracked>._leafCapacity, 256)
    }

    func test_model_int() {
        forEachSeedConcurrently(1..<3) { seed, random in
            Self.run(operations: TestScale.count(25_000, minimum: 2_500), make: { $0 }, value: { $0 }, using: &random)
        }
    }

    func test_model_bytes40() {
        forEachSeedConcurrently(3..<5) { seed, random in
            Self.run(
                operations: TestScale.count(25_000, minimum: 2_500), make: Bytes40.init, value: \.value, using: &random)
        }
    }

    func test_model_bytes320_threeAndFourLevels() {
        forEachSeedConcurrently(5..<7) { seed, random in
            Self.run(
                operations: TestScale.count(25_000, minimum: 2_500), make: Bytes320.init, value: \.value, using: &random
            )
        }
    }

    func test_model_classElements_releasedExactlyOnce() {
        forEachSeedConcurrently(7..<9) { seed, random in
            let census = Census()
            let failure = Self.run(
                operations: TestScale.count(25_000, minimum: 2_500), make: { Tracked($0, census) }, value: \.value,
                using: &random)
            if let failure { return failure }
            return census.alive == 0 ? nil : "\(census.alive) elements are still alive after the run"
        }
    }

    /// The sizes a run steers towards, in leaves of `leaf` elements: inside one leaf, around the
    /// first split, around the second level (32 leaves), and two inner nodes or more.
    private static func targets(leaf: Int) -> [Int] {
        [leaf / 2, 3 * leaf, 32 * leaf, 32 * leaf + leaf, 70 * leaf]
    }

    /// The sizes around every leaf and level boundary up to four levels that are small enough to
    /// build often: a rebuild picks one.
    private static func boundaries(leaf: Int) -> [Int] {
        var sizes: [Int] = []
        for edge in [leaf, 2 * leaf, 32 * leaf, 33 * leaf, 32 * 32 * leaf, 32 * 32 * leaf + leaf] where edge <= 20_000 {
            sizes += [edge - 1, edge, edge + 1]
        }
        return sizes
    }

    /// Runs `operations` random operations on a list of `E` and on an `Array` of their values;
    /// returns the first failure, naming the step and the operation.
    private static func run<E>(
        operations: Int, make: (Int) -> E, value: (E) -> Int, using random: inout SplitMix64
    ) -> String? {
        let leaf = ListSnapshot<E>._leafCapacity
        var list = ListSnapshot<E>()
        var model: [Int] = []
        var held: [(list: ListSnapshot<E>, model: [Int], step: Int)] = []
        var next = 0
        var target = targets(leaf: leaf).randomElement(using: &random)!
        var levelsSeen: Set<Int> = []

        func fresh(_ count: Int) -> [Int] {
            defer { next += count }
            return Array(next..<(next + count))
        }
        func mismatch(_ list: ListSnapshot<E>, _ model: [Int]) -> String? {
            if list.count != model.count { return "count \(list.count), expected \(model.count)" }
            var offset = 0
            for element in list {
                if value(element) != model[offset] {
                    return "[\(offset)] is \(value(element)), expected \(model[offset])"
                }
                offset += 1
            }
            return offset == model.count ? nil : "iteration stopped after \(offset) of \(model.count)"
        }

        for step in 0..<operations {
            if step % 2_000 == 0 { target = targets(leaf: leaf).randomElement(using: &random)! }
            let count = model.count
            let growing = count < target
            let operation: String
            switch random.int(below: 100) {
            case 0..<(growing ? 14 : 8):
                let values = fresh(1)
                let offset = random.int(in: 0...count)
                list.insert(make(values[0]), at: offset)
                model.insert(values[0], at: offset)
                operation = "insert(at: \(offset))"
            case 14..<(growing ? 24 : 34) where count > 0:
                let offset = random.chance(1, in: 3) ? count - 1 : random.int(below: count)
                let removed = value(list.remove(at: offset))
                let expected = model.remove(at: offset)
                if removed != expected {
                    return "step \(step): remove(at: \(offset)) returned \(removed), expected \(expected)"
                }
                operation = "remove(at: \(offset))"
            case 34..<44:
                let lower = random.int(in: 0...count)
                let length = random.int(in: 0...Swift.min(count - lower, random.chance(1, in: 8) ? count : 2 * leaf))
                let values = fresh(random.int(in: 0...(random.chance(1, in: 8) ? 3 * leaf : leaf / 2)))
                list.replaceSubrange(lower..<(lower + length), with: values.map(make))
                model.replaceSubrange(lower..<(lower + length), with: values)
                operation = "replaceSubrange(\(lower)..<\(lower + length), with: \(values.count))"
            case 44..<52 where count > 0:
                let offset = random.int(below: count)
                let values = fresh(1)
                list[offset] = make(values[0])
                model[offset] = values[0]
                operation = "[\(offset)] = …"
            case 52..<56 where count > 0:
                let lower = random.int(below: count)
                let upper = random.int(in: lower...Swift.min(count, lower + 2 * leaf))
                let values = fresh(upper - lower)
                let source = ListSnapshot(values.map(make))
                list[lower..<upper] = source[0..<values.count]
                model[lower..<upper] = values[...]
                operation = "[\(lower)..<\(upper)] = a slice"
            case 56..<64 where count > 0:
                let source = random.int(below: count)
                let destination = random.int(below: count)
                list.move(fromOffset: source, toOffset: destination)
                model.insert(model.remove(at: source), at: destination)
                operation = "move(fromOffset: \(source), toOffset: \(destination))"
            case 64..<72:
                let values = fresh(random.chance(1, in: 4) ? random.int(in: 0...(2 * leaf)) : 1)
                if values.count == 1 {
                    list.append(make(values[0]))
                } else {
                    list.append(contentsOf: values.map(make))
                }
                model.append(contentsOf: values)
                operation = "append \(values.count)"
            case 72..<76 where count > 0:
                // A leaf's worth (or a little more) off the end: shrinks the tree by a level when
                // the list was just past a boundary.
                let removing = Swift.min(count, random.int(in: 1...(leaf + 2)))
                list.removeLast(removing)
                model.removeLast(removing)
                operation = "removeLast(\(removing))"
            case 76..<79:
                // A rebuild at a size around a boundary, then (sometimes) one removal across it.
                let size = boundaries(leaf: leaf).randomElement(using: &random)!
                model = fresh(size)
                list = ListSnapshot(model.map(make))
                if random.chance(1, in: 2) {
                    let offset = random.chance(1, in: 2) ? size - 1 : random.int(below: size)
                    list.remove(at: offset)
                    model.remove(at: offset)
                }
                operation = "rebuild at \(size)"
            case 79..<80:
                list.removeAll()
                model.removeAll()
                operation = "removeAll()"
            case 80..<88:
                if held.count >= 16 { held.remove(at: random.int(below: held.count)) }
                held.append((list, model, step))
                operation = "hold a copy"
            default:
                guard count > 0 else { continue }
                let offset = random.int(below: count)
                if value(list[offset]) != model[offset] {
                    return "step \(step): [\(offset)] is \(value(list[offset])), expected \(model[offset])"
                }
                operation = "read [\(offset)]"
            }
            if list.count != model.count {
                return "step \(step) (\(operation)): count \(list.count), expected \(model.count)"
            }
            levelsSeen.insert(list._root?.height ?? -1)
            if step % 500 == 0 || list.count <= leaf + 1 {
                list._checkInvariants()
                if let failure = mismatch(list, model) { return "step \(step) (\(operation)): \(failure)" }
            }
        }
        list._checkInvariants()
        if let failure = mismatch(list, model) { return "at the end: \(failure)" }
        for copy in held {
            copy.list._checkInvariants()
            if let failure = mismatch(copy.list, copy.model) {
                return "the copy held at step \(copy.step) changed: \(failure)"
            }
        }
        // Every run crosses into the second level at least; the 16-element leaves reach the third.
        let deepest = leaf == 16 ? 2 : 1
        if levelsSeen.max()! < deepest { return "the run never reached height \(deepest): \(levelsSeen.sorted())" }
        return nil
    }
}
