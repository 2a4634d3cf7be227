import RippleTestSupport
import XCTest

@testable import RippleDiff

/// The kind each node of a `ListSnapshot` records (issue 46): a tail says it is a tail, not a leaf
/// and not an inner node; the tree's leaves and inner nodes say what they are; the kinds stay
/// where they belong through every change around the tail's boundary; and a downcast that the
/// wrong kind would make unsound traps, in every build.
final class ListSnapshotNodeKindTests: XCTestCase {
    private typealias List = ListSnapshot<Int>

    private static let leaf = List._leafCapacity
    private static let inner = List._innerCapacity
    private static let tail = List._tailCapacity

    /// Checks the kinds of every node of `list` and its invariants, and that it holds `model`.
    private func assertKinds(
        _ list: List, _ model: [Int], _ context: @autoclosure () -> String, line: UInt = #line
    ) {
        list._checkInvariants()
        XCTAssertTrue(list.elementsEqual(model), "\(context()): the elements", line: line)
        if let storage = list._storage {
            if storage.isTail {
                XCTAssertTrue(list._tail === storage, "\(context()): a tail storage is the tail", line: line)
                XCTAssertTrue(list._root === storage.tree, "\(context()): the tail holds the root", line: line)
            } else {
                XCTAssertNil(list._tail, "\(context()): no tail", line: line)
                XCTAssertTrue(list._root === storage, "\(context()): any other storage is the root", line: line)
            }
        }
        for node in list.treeNodes {
            XCTAssertFalse(node.isTail, "\(context()): a tail inside the tree", line: line)
            XCTAssertNotEqual(
                node.isLeaf, node.isInner, "\(context()): a node of the tree is a leaf or inner", line: line)
            XCTAssertEqual(node.isLeaf, node.height == 0, "\(context()): only a leaf has height 0", line: line)
            XCTAssertNil(node.tree, "\(context()): a node of the tree holds no tree", line: line)
        }
    }

    // MARK: - What each node says it is

    /// The tail is a tail: not a leaf and not an inner node, though it is a `_Leaf` of height 0;
    /// the tree's leaves are leaves and its inner nodes inner nodes, each of its own class. The
    /// kind shares a word with the height: the header is no bigger than four `Int`s and a
    /// reference.
    func test_eachNode_saysWhatItIs() throws {
        XCTAssertEqual(MemoryLayout<_ListNodeHeader>.size, 4 * MemoryLayout<Int>.size + MemoryLayout<AnyObject?>.size)

        var list = List(0..<(Self.leaf * 3))
        list.append(-1)
        let tail = try XCTUnwrap(list._storage)
        XCTAssertEqual(tail.kind, .tail)
        XCTAssertTrue(tail.isTail)
        XCTAssertFalse(tail.isLeaf, "a tail is not a leaf of the tree")
        XCTAssertFalse(tail.isInner, "nor an inner node")
        XCTAssertEqual(tail.height, 0)
        XCTAssertEqual(tail.width, 1, "a tail's entries are its elements")
        XCTAssertEqual(tail.room, Self.tail)
        XCTAssertEqual(tail.children.count, 0, "a tail has no children")
        XCTAssertTrue(type(of: tail) == List._Leaf.self)
        XCTAssertTrue(List._asTail(tail) === tail)
        XCTAssertTrue(list._tail === tail)

        let root = try XCTUnwrap(list._root)
        XCTAssertEqual(root.kind, .inner)
        XCTAssertTrue(root.isInner)
        XCTAssertFalse(root.isLeaf)
        XCTAssertFalse(root.isTail)
        XCTAssertEqual(root.height, 1)
        XCTAssertEqual(root.room, 0)
        XCTAssertTrue(type(of: root) == _ListInner.self)
        XCTAssertTrue(root._asInner === root)

        let leaves = list.treeNodes.filter(\.isLeaf)
        XCTAssertEqual(leaves.count, 3)
        for leaf in leaves {
            XCTAssertEqual(leaf.kind, .leaf)
            XCTAssertFalse(leaf.isTail)
            XCTAssertFalse(leaf.isInner)
            XCTAssertEqual(leaf.height, 0)
            XCTAssertTrue(type(of: leaf) == List._Leaf.self)
            XCTAssertTrue(List._leaf(leaf) === leaf)
        }
        assertKinds(list, Array(0..<(Self.leaf * 3)) + [-1], "a tree of three leaves and a tail")

        var tailOnly = List()
        tailOnly.append(1)
        XCTAssertEqual(tailOnly._storage?.kind, .tail, "a list of a tail alone: its storage is the tail")
        XCTAssertNil(tailOnly._root)
        XCTAssertNil(tailOnly._storage?.tree)
        assertKinds(tailOnly, [1], "a tail alone")

        let oneLeaf: List = [1, 2, 3]
        XCTAssertEqual(oneLeaf._storage?.kind, .leaf, "a list of one leaf and no tail: its storage is the leaf")
        XCTAssertNil(oneLeaf._tail)
        assertKinds(oneLeaf, [1, 2, 3], "one leaf")
    }

    // MARK: - Around the tail's boundary

    /// The changes around the tail's boundary that `test_kinds_stayInPlace_aroundTheTailBoundary`
    /// makes, each to `list` and `model` alike; `boundary` is the offset of the tail's first
    /// element.
    private func change(_ change: Int, _ list: inout List, _ model: inout [Int], boundary: Int) -> String {
        switch change {
        case 0:
            for value in 0...(2 * Self.tail) {
                list.append(value)
                model.append(value)
            }
            return "fill and flush the tail, twice"
        case 1:
            list.insert(7, at: boundary)
            model.insert(7, at: boundary)
            return "insert at the boundary"
        case 2:
            list.insert(7, at: list.count)
            model.append(7)
            return "insert at the end"
        case 3:
            list.insert(7, at: Swift.max(boundary - 1, 0))
            model.insert(7, at: Swift.max(boundary - 1, 0))
            return "insert before the tree's last"
        case 4:
            XCTAssertEqual(list.remove(at: boundary), model.remove(at: boundary))
            return "remove the tail's first"
        case 5:
            XCTAssertEqual(list.removeLast(), model.removeLast())
            return "remove the last"
        case 6:
            if boundary > 0 { XCTAssertEqual(list.remove(at: boundary - 1), model.remove(at: boundary - 1)) }
            return "remove the tree's last"
        case 7:
            let range = Swift.max(boundary - 2, 0)..<Swift.min(boundary + 2, model.count)
            list.removeSubrange(range)
            model.removeSubrange(range)
            return "remove across the boundary"
        case 8:
            list[list.count - 1] = 9
            model[model.count - 1] = 9
            return "write the tail's last"
        case 9:
            if boundary > 0 {
                list[boundary - 1] = 9
                model[boundary - 1] = 9
            }
            return "write the tree's last"
        case 10:
            list.move(fromOffset: list.count - 1, toOffset: 0)
            model.insert(model.removeLast(), at: 0)
            return "move the last to the front"
        default:
            list.removeLast(list.count - 1)
            model.removeLast(model.count - 1)
            list.append(5)
            model.append(5)
            return "remove all but the first, then append"
        }
    }

    /// Appends that fill the tail, flush it into the tree and start the next one; insertions,
    /// removals and writes at the last element of the tree, the first and last of the tail, and
    /// the end; with and without a held snapshot (which makes every change copy): after each one
    /// the storage is the tail or the root, no tail is inside the tree, and every node's kind
    /// matches its class and height.
    func test_kinds_stayInPlace_aroundTheTailBoundary() {
        let sizes = [0, 1, Self.tail - 1, Self.leaf - 1, Self.leaf, Self.leaf + 1, Self.leaf * Self.inner]
        for held in [false, true] {
            for size in sizes {
                for tailCount in [1, Self.tail / 2, Self.tail] {
                    for index in 0...11 {
                        // `size` elements in the tree, then `tailCount` appended to the tail.
                        var list = List(0..<size)
                        var model = Array(0..<size)
                        for value in 0..<tailCount {
                            list.append(-value)
                            model.append(-value)
                        }
                        let start = "held \(held), \(size) in the tree, \(tailCount) in the tail"
                        XCTAssertEqual(list._tail?.count, tailCount, start)
                        assertKinds(list, model, start)
                        let snapshot = held ? list : List()
                        let snapshotModel = held ? model : []
                        let name = change(index, &list, &model, boundary: size)
                        assertKinds(list, model, "\(start): \(name)")
                        assertKinds(snapshot, snapshotModel, "\(start): \(name), the held snapshot")
                    }
                }
            }
        }
    }

    // MARK: - Traps

    func test_childProcessEntry() throws {
        let name = try childProcessCase()
        var withTail = List(0..<(Self.leaf * 2))
        withTail.append(-1)
        let tail = withTail._storage!
        let inner = withTail._root!
        switch name {
        case "tailAsInner": print(tail._asInner._allocatedSlots)
        case "leafAsInner": print(List([1, 2, 3])._storage!._asInner._allocatedSlots)
        case "innerAsLeaf": print(List._leafOrTail(inner).room)
        case "innerAsTail": print(List._asTail(inner).room)
        case "tailInsideTheTree":
            // A tail whose tree is another tail: the second one would be read as the root.
            let nested = List._Leaf._createTail(after: tail)
            nested._appendElement(1)
            var list = List()
            list._storage = nested
            list._checkInvariants()
        default: return
        }
        print("the case did not trap")
    }

    /// A node downcast to a kind it is not traps, in every build where the downcast would be
    /// unsound (a tail, or a leaf, read as an inner node would have its elements taken for slots;
    /// an inner node read as a leaf its slots taken for elements), and the invariant check finds a
    /// tail inside the tree. `_asTail` checks only in debug builds: its callers have just read the
    /// kind. The messages are checked in debug builds, which print them.
    func test_wrongKind_trapsInEveryBuild() throws {
        var expected: [String: String] = [
            "tailAsInner": "ListSnapshot: a leaf or a tail used as an inner node",
            "leafAsInner": "ListSnapshot: a leaf or a tail used as an inner node",
            "innerAsLeaf": "ListSnapshot: an inner node used as a leaf",
            "tailInsideTheTree": "the root is a tail, or holds a tree, inside the tree",
        ]
        if isDebugBuild { expected["innerAsTail"] = "ListSnapshot: a node of the tree used as the tail" }
        let outcomes = try runChildTests(
            "RippleDiffTests.ListSnapshotNodeKindTests/test_childProcessEntry", cases: Array(expected.keys))
        for (name, message) in expected.sorted(by: { $0.key < $1.key }) {
            guard let outcome = outcomes[name] else {
                XCTFail("\(name): no outcome")
                continue
            }
            XCTAssertTrue(outcome.terminatedBySignal, "\(name): expected a trap, got exit status \(outcome.status)")
            if isDebugBuild {
                XCTAssertTrue(
                    outcome.standardError.contains(message),
                    "\(name): expected \"\(message)\" in:\n\(outcome.standardError.prefix(600))")
            }
        }
    }
}
