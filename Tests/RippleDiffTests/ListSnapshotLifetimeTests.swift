import RippleTestSupport
import XCTest

@testable import RippleDiff

/// Issue 34: in a release build, with no other copy of the list alive, removing across a leaf or
/// level boundary read a node that the optimizer had already freed (a pointer to a node's header
/// escaped the closure that lent it). Each case below emptied the list, stopped its iteration
/// early or crashed in release before the fix; debug builds were right all along, so `.ci/run`
/// runs this file in release too.
///
/// Each list is built in the test itself, as in the reports, so that the optimizer sees the whole
/// life of the list (a list handed over by a function it cannot see through did not show the
/// bug), and nothing else holds it. The class-element cases count their instances, so that a node
/// freed early (or never) shows as a wrong count, and as a use-after-free under AddressSanitizer.
final class ListSnapshotLifetimeTests: XCTestCase {
    private static let leaf = ListSnapshot<Int>._leafCapacity

    /// Checks the count, the elements read by iteration, by index and in chunks, and the tree.
    private func assertHolds(
        _ list: ListSnapshot<Int>, _ expected: [Int], _ what: String, line: UInt = #line
    ) {
        list._checkInvariants()
        XCTAssertEqual(list.count, expected.count, "\(what): count", line: line)
        var iterated: [Int] = []
        for value in list { iterated.append(value) }
        XCTAssertEqual(iterated, expected, "\(what): iteration", line: line)
        XCTAssertEqual(list.indices.map { list[$0] }, expected, "\(what): subscript", line: line)
        var chunked: [Int] = []
        list.forEachChunk { chunked.append(contentsOf: $0) }
        XCTAssertEqual(chunked, expected, "\(what): chunks", line: line)
    }

    // MARK: - The reported cases

    func test_removeAtTheLastOffset_ofOneLeafAndOne() {
        let count = Self.leaf + 1
        var list = ListSnapshot(Array(0..<count))
        XCTAssertEqual(list.remove(at: count - 1), count - 1)
        assertHolds(list, Array(0..<(count - 1)), "remove(at:)")
    }

    func test_everyWayToDropTheLastElement_ofOneLeafAndOne() {
        let count = Self.leaf + 1
        let expected = Array(0..<(count - 1))
        var list = ListSnapshot(Array(0..<count))
        XCTAssertEqual(list.removeLast(), count - 1)
        assertHolds(list, expected, "removeLast()")

        list = ListSnapshot(Array(0..<count))
        XCTAssertEqual(list.popLast(), count - 1)
        assertHolds(list, expected, "popLast()")

        list = ListSnapshot(Array(0..<count))
        list.removeSubrange((count - 1)..<count)
        assertHolds(list, expected, "removeSubrange(_:)")

        list = ListSnapshot(Array(0..<count))
        list.replaceSubrange((count - 1)..<count, with: [])
        assertHolds(list, expected, "replaceSubrange(_:with:)")

        list = ListSnapshot(Array(0..<count))
        list.move(fromOffset: count - 1, toOffset: 0)
        assertHolds(list, [count - 1] + expected, "move(fromOffset:toOffset:)")
    }

    func test_removeAtTheLastOffset_ofAListBuiltByAppends() {
        let count = Self.leaf + 1
        var list = ListSnapshot<Int>()
        for value in 0..<count { list.append(value) }
        XCTAssertEqual(list.remove(at: count - 1), count - 1)
        assertHolds(list, Array(0..<(count - 1)), "appends, then remove(at:)")
    }

    /// 33 leaves less one element: two levels, and removing the last leaf's worth collapses the
    /// root by a level.
    func test_removeLastLeafWorth_collapsesALevel() {
        let count = 33 * Self.leaf - 1
        var list = ListSnapshot(Array(0..<count))
        XCTAssertEqual(list._root?.height, 2)
        list.removeLast(Self.leaf)
        XCTAssertEqual(list._root?.height, 1)
        assertHolds(list, Array(0..<(count - Self.leaf)), "removeLast(_:)")
    }

    func test_insertContentsAtTheStart_thenRemoveAllWhere() {
        let count = 33 * Self.leaf - 1
        var list = ListSnapshot<Int>()
        list.insert(contentsOf: Array(0..<count), at: 0)
        list.removeAll { $0 % 33 == 17 }
        assertHolds(list, (0..<count).filter { $0 % 33 != 17 }, "insert(contentsOf:at:), removeAll(where:)")
    }

    /// Removing from the front of every leaf until the tree is one leaf, and then empty: every
    /// merge and every collapse of the root, with nothing else holding the list.
    func test_removeFromTheFront_downToEmpty() {
        let count = 2 * 32 * Self.leaf + 3
        var list = ListSnapshot(Array(0..<count))
        var expected = Array(0..<count)
        while !list.isEmpty {
            let step = Swift.min(list.count, 97)
            list.removeSubrange(0..<step)
            expected.removeSubrange(0..<step)
            if list.count < 2 * Self.leaf || list.count % 1_000 < 97 {
                assertHolds(list, expected, "count \(list.count)")
            }
        }
        XCTAssertNil(list._root)
    }

    // MARK: - Reads with nothing else holding the list

    /// An iterator is the only holder of its list, and is dropped part-way through a leaf.
    func test_iterator_isTheOnlyHolder() {
        let count = 3 * Self.leaf + 5
        var iterator = ListSnapshot(0..<count).makeIterator()
        for expected in 0..<(Self.leaf + 9) { XCTAssertEqual(iterator.next(), expected) }
        var rest = 0
        while iterator.next() != nil { rest += 1 }
        XCTAssertEqual(rest, count - Self.leaf - 9)
    }

    /// Reading one element of a list that nothing else holds.
    func test_subscript_ofATemporary() {
        let count = 40 * Self.leaf
        for offset in [0, Self.leaf, count / 2, count - 1] {
            XCTAssertEqual(ListSnapshot(0..<count)[offset], offset)
        }
    }

    // MARK: - Class elements: nothing freed early, nothing kept

    func test_classElements_areReleasedOnce_throughCollapses() {
        let census = Census()
        do {
            let leaf = ListSnapshot<Tracked>._leafCapacity
            var list = ListSnapshot((0..<(33 * leaf - 1)).map { Tracked($0, census) })
            let held = list
            list.removeLast(leaf)
            list.remove(at: 0)
            var single = ListSnapshot((0...leaf).map { Tracked($0, census) })
            single.remove(at: leaf)
            XCTAssertEqual(single.map(\.value), Array(0..<leaf))
            XCTAssertEqual(list.map(\.value), Array(1..<(32 * leaf - 1)))
            XCTAssertEqual(held.map(\.value), Array(0..<(33 * leaf - 1)))
            XCTAssertEqual(census.alive, 33 * leaf - 1 + leaf)
        }
        XCTAssertEqual(census.alive, 0, "every element is released once the lists are gone")
    }
}
