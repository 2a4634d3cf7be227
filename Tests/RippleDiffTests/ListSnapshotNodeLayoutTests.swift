import RippleTestSupport
import XCTest

@testable import RippleDiff

/// The node layout of `ListSnapshot` (issue 38): an inner node keeps its children and their
/// running counts in its own allocation, a mutation copies only the nodes on its path, every kind
/// of mutation leaves a well-formed tree, and the tree's shape prints with `_dump()`.
final class ListSnapshotNodeLayoutTests: XCTestCase {
    private typealias List = ListSnapshot<Int>

    private static let leaf = List._leafCapacity
    private static let inner = List._innerCapacity

    // MARK: - One allocation per node

    /// Every inner node's slots are in its own allocation, with room for one more child than it
    /// keeps (the one an insertion adds before the split).
    func test_innerNode_keepsItsSlotsInItsOwnAllocation() {
        let list = List(0..<(Self.leaf * Self.inner * 3))
        let inner = list.treeNodes.filter { !$0.isLeaf }
        XCTAssertGreaterThan(inner.count, 3)
        for node in inner {
            XCTAssertGreaterThanOrEqual(node._asInner._allocatedSlots, Self.inner + 1)
            XCTAssertTrue(node is List._Inner)
            XCTAssertFalse(node is List._Leaf)
        }
        for node in list.treeNodes where node.isLeaf {
            XCTAssertTrue(node is List._Leaf)
        }
    }

    /// Copying an inner node makes one new node that refers to the very same children, with the
    /// same running counts.
    func test_innerNodeCopy_sharesEveryChild() {
        let list = List(0..<(Self.leaf * 20 + 7))
        let root = list._root!
        let copy = root._copy()
        XCTAssertFalse(copy === root)
        XCTAssertEqual(copy.height, root.height)
        XCTAssertEqual(copy.count, root.count)
        XCTAssertEqual(copy.children.count, 21)
        for (original, copied) in zip(root.children, copy.children) { XCTAssertTrue(original === copied) }
        let ends = { (node: List._Node) in node._asInner._withHandle { h in (0..<h.childCount).map(h.end) } }
        XCTAssertEqual(ends(copy), ends(root))
        XCTAssertEqual(ends(root).last, root.count)
    }

    /// A mutation of one copy leaves every node off its path shared with the other copy: exactly
    /// one node per level is new.
    func test_mutation_copiesOneNodePerLevel() {
        let original = List(0..<(Self.leaf * Self.inner * 2 + 5))
        let height = original._root!.height
        XCTAssertEqual(height, 2)
        let before = Set(original.treeNodes.map(ObjectIdentifier.init))
        for edit in 0..<4 {
            var list = original
            switch edit {
            case 0: list[Self.leaf * 40 + 3] = -1
            case 1: list.insert(-1, at: Self.leaf * Self.inner * 2 + 2)  // in the short last leaf: no split
            case 2: list.remove(at: Self.leaf * 10)
            default: list.append(-1)
            }
            let after = list.treeNodes.map(ObjectIdentifier.init)
            let new = after.filter { !before.contains($0) }
            if edit == 3 {
                XCTAssertEqual(new.count, 0, "an append goes to the tail and leaves the tree shared")
                XCTAssertEqual(list._tail?.count, 1)
            } else {
                XCTAssertEqual(new.count, height + 1, "edit \(edit): one new node per level")
            }
            list._checkInvariants()
            original._checkInvariants()
        }
    }

    // MARK: - The tail

    /// Appends to a list whose every snapshot is held copy the tail, and the tree's right edge
    /// only once per tailful; every snapshot keeps its elements.
    func test_tail_appendsWithHeldSnapshots_copyTheTreeOncePerTailful() {
        let tail = List._tailCapacity
        var list = List(0..<(Self.leaf * Self.inner + 3))
        var held: [List] = []
        var rootChanges = 0
        for value in list.count..<(list.count + 10 * tail) {
            let root = list._root
            list.append(value)
            if list._root !== root { rootChanges += 1 }
            held.append(list)
            list._checkInvariants()
        }
        XCTAssertEqual(rootChanges, 9, "the tree changes when a full tail goes into it, not on each append")
        for (offset, snapshot) in held.enumerated() {
            XCTAssertTrue(snapshot.elementsEqual(0..<(Self.leaf * Self.inner + 4 + offset)), "snapshot \(offset)")
        }
        XCTAssertEqual(list._tail?.count, tail)
        XCTAssertTrue(list._tail === held.last?._tail)
    }

    /// A list is one reference, whatever its shape: the tree's root, or the tail, which holds the
    /// root. A copy of a list with a tail shares both; a write into its tree lends the root out
    /// of the tail, copying the tail (and the path) only while another copy holds it.
    func test_tail_holdsTheRoot_soThatAListIsOneReference() {
        XCTAssertEqual(MemoryLayout<List>.size, MemoryLayout<AnyObject>.size)
        var list = List(0..<(Self.leaf * 3))
        XCTAssertTrue(list._storage === list._root, "no tail: the storage is the root")
        list.append(-1)
        let root = list._root
        XCTAssertTrue(list._storage === list._tail, "with a tail: the storage is the tail")
        XCTAssertTrue(list._tail?.tree === root, "the tail holds the root")
        XCTAssertNil(list._root?.tree, "a node of the tree holds no tree")

        let held = list
        list[5] = -5
        XCTAssertEqual(held[5], 5)
        XCTAssertEqual(list[5], -5)
        XCTAssertTrue(held._root === root, "the held copy keeps its tree")
        XCTAssertFalse(list._root === root, "the written copy copied its path")
        XCTAssertFalse(list._tail === held._tail, "and its tail, which held the old root")
        XCTAssertTrue(list._tail?.tree === list._root)

        // Identifiers, not references: a reference kept here would make the nodes shared.
        let unique = ObjectIdentifier(list._root!)
        let tail = ObjectIdentifier(list._tail!)
        list[6] = -6
        XCTAssertEqual(ObjectIdentifier(list._root!), unique, "a unique tree is written in place")
        XCTAssertEqual(ObjectIdentifier(list._tail!), tail, "and keeps its tail")
        XCTAssertEqual(Array(list.prefix(7)), [0, 1, 2, 3, 4, -5, -6])
        XCTAssertEqual(list.last, -1)
        XCTAssertEqual(held.count, list.count)
        list._checkInvariants()
        held._checkInvariants()

        list.remove(at: 0)
        XCTAssertNil(list._tail, "any other change moves the tail into the tree")
        XCTAssertTrue(list._storage === list._root)
        list._checkInvariants()
    }

    /// Every kind of access sees the tail after the tree: subscript, iteration, chunks, slices,
    /// `Array(_:)`, and writes into the tail, which leave a held snapshot's tail alone.
    func test_tail_readAndWrittenLikeTheRest() {
        var list = List(0..<(Self.leaf + 10))
        for value in (Self.leaf + 10)..<(Self.leaf + 15) { list.append(value) }
        XCTAssertEqual(list._tail?.count, 5)
        let expected = Array(0..<(Self.leaf + 15))
        XCTAssertEqual(Array(list), expected)
        XCTAssertEqual(list.map { $0 }, expected)
        XCTAssertEqual((0..<list.count).map { list[$0] }, expected)
        XCTAssertEqual(Array(list[(Self.leaf + 8)..<(Self.leaf + 13)]), Array((Self.leaf + 8)..<(Self.leaf + 13)))
        var chunks: [Int] = []
        list.forEachChunk { chunks.append(contentsOf: $0) }
        XCTAssertEqual(chunks, expected)
        var iterator = list.makeIterator()
        var iterated: [Int] = []
        while let value = iterator.next() { iterated.append(value) }
        XCTAssertEqual(iterated, expected)

        let held = list
        list[list.count - 1] = -1
        XCTAssertEqual(held.last, Self.leaf + 14)
        XCTAssertEqual(list.last, -1)
        XCTAssertFalse(list._tail === held._tail)
        XCTAssertTrue(list._root === held._root, "a write into the tail leaves the tree shared")
        XCTAssertFalse(list.isIdentical(to: held))
        XCTAssertNotEqual(list, held)
        var same = held
        same.append(0)
        _ = same.popLast()
        XCTAssertEqual(same, held)
        held._checkInvariants()
        list._checkInvariants()
        XCTAssertEqual(
            list._dump(maximumDepth: 0),
            "inner height 1, \(Self.leaf + 10) elements, 2 children …\ntail 5/\(List._tailCapacity)\n")
    }

    // MARK: - Invariants after each kind of mutation

    /// Each kind of mutation, at the front, in the middle and at the end, on a list whose
    /// snapshot is held (so that every path is copied) and on a unique one, against an `Array`.
    func test_everyKindOfMutation_keepsTheTreeWellFormed() {
        var random = SplitMix64(seed: 38)
        for held in [false, true] {
            var list = List(0..<(Self.leaf * Self.inner + 300))
            var model = Array(0..<(Self.leaf * Self.inner + 300))
            var snapshots: [(List, [Int])] = []
            for step in 0..<TestScale.count(1_500, minimum: 400) {
                let count = model.count
                let at = count == 0 ? 0 : [0, count / 2, count - 1, random.int(below: count)][step % 4]
                switch random.int(below: 9) {
                case 0:
                    list.append(step)
                    model.append(step)
                case 1:
                    list.insert(step, at: at)
                    model.insert(step, at: at)
                case 2 where count > 0:
                    XCTAssertEqual(list.remove(at: at), model.remove(at: at))
                case 3 where count > 0:
                    list[at] = -step
                    model[at] = -step
                case 4 where count > 1:
                    let to = random.int(below: count)
                    list.move(fromOffset: at, toOffset: to)
                    model.insert(model.remove(at: at), at: to)
                case 5:
                    let end = Swift.min(count, at + random.int(below: 40))
                    let new = Array(repeating: step, count: random.int(below: 40))
                    list.replaceSubrange(at..<end, with: new)
                    model.replaceSubrange(at..<end, with: new)
                case 6:
                    let run = Array(0..<random.int(below: 3 * Self.leaf))
                    list.append(contentsOf: run)
                    model.append(contentsOf: run)
                case 7 where count > Self.leaf:
                    let removed = random.int(below: Self.leaf)
                    list.removeSubrange(at < count - removed ? at..<(at + removed) : (count - removed)..<count)
                    model.removeSubrange(at < count - removed ? at..<(at + removed) : (count - removed)..<count)
                default:
                    let removed = Swift.min(count, random.int(below: 5))
                    list.removeLast(removed)
                    model.removeLast(removed)
                }
                list._checkInvariants()
                XCTAssertEqual(list.count, model.count, "step \(step)")
                if held && step % 5 == 0 { snapshots.append((list, model)) }
                if snapshots.count > 8 { snapshots.removeFirst() }
            }
            XCTAssertTrue(list.elementsEqual(model))
            for (snapshot, copy) in snapshots {
                snapshot._checkInvariants()
                XCTAssertTrue(snapshot.elementsEqual(copy), "a held snapshot changed")
            }
        }
    }

    // MARK: - Copy-on-write independence

    /// Two lists that share nodes, each mutated in turn: the other one never changes.
    func test_sharedNodes_mutatingOneLeavesTheOtherUnchanged() {
        var random = SplitMix64(seed: 3_838)
        let base = Array(0..<(Self.leaf * Self.inner + Self.leaf * 3 + 11))
        var left = List(base)
        var right = left
        var leftModel = base
        var rightModel = base
        func mutate(_ list: inout List, _ model: inout [Int], step: Int) {
            let at = random.int(below: model.count)
            switch step % 5 {
            case 0:
                list.insert(step, at: at)
                model.insert(step, at: at)
            case 1:
                list.remove(at: at)
                model.remove(at: at)
            case 2:
                list[at] = -step
                model[at] = -step
            case 3:
                list.move(fromOffset: at, toOffset: model.count - 1)
                model.append(model.remove(at: at))
            default:
                list.append(step)
                model.append(step)
            }
        }
        for step in 0..<TestScale.count(600, minimum: 100) {
            // Every few steps the two share their whole tree again.
            if step % 7 == 0 {
                right = left
                rightModel = leftModel
            }
            if step % 2 == 0 {
                mutate(&left, &leftModel, step: step)
            } else {
                mutate(&right, &rightModel, step: step)
            }
            XCTAssertTrue(left.elementsEqual(leftModel), "step \(step): the left list")
            XCTAssertTrue(right.elementsEqual(rightModel), "step \(step): the right list")
        }
        left._checkInvariants()
        right._checkInvariants()
    }

    // MARK: - The dump

    func test_dump_showsTheShape() {
        XCTAssertEqual(List()._dump(), "empty\n")
        XCTAssertEqual(List([1, 2, 3])._dump(), "leaf 3/3\n")
        let list = List(0..<300)
        XCTAssertEqual(
            list._dump(),
            """
            inner height 1, 300 elements, 2 children
              [0] ..256 leaf 256/256
              [1] ..300 leaf 44/256

            """)
        XCTAssertEqual(list._dump(maximumDepth: 0), "inner height 1, 300 elements, 2 children …\n")
    }

    func test_dump_ofThreeLevels_listsEveryNodeOnce() {
        let count = Self.leaf * Self.inner + 1
        let dump = List(0..<count)._dump()
        let lines = dump.split(separator: "\n")
        XCTAssertEqual(lines.first, "inner height 2, \(count) elements, 2 children")
        XCTAssertEqual(lines.filter { $0.contains("leaf ") }.count, Self.inner + 1)
        XCTAssertEqual(lines.filter { $0.contains("inner height 1") }.count, 2)
        XCTAssertEqual(lines.last, "    [0] ..1 leaf 1/256")
    }
}
