import Foundation
import RippleTestSupport
import XCTest

@testable import RippleDiff

/// `ListSnapshot` against `Array`: seeded random operations with snapshots taken at random moments
/// (each must keep equalling the array copy taken with it), the tree's invariants after every
/// operation, structural sharing, the edge cases around leaf boundaries, a million appends, threads,
/// and the trap messages.
final class ListSnapshotTests: XCTestCase {
    private typealias List = ListSnapshot<Int>

    private var leafCapacity: Int { List._leafCapacity }

    // MARK: - Edge cases

    func test_empty() {
        var list = List()
        list._checkInvariants()
        XCTAssertTrue(list.isEmpty)
        XCTAssertEqual(list.count, 0)
        XCTAssertEqual(Array(list), [])
        var iterator = list.makeIterator()
        XCTAssertNil(iterator.next())
        XCTAssertEqual(list.description, "[]")
        XCTAssertEqual(list.debugDescription, "ListSnapshot([])")
        XCTAssertEqual(list, List([]))
        XCTAssertTrue(list.isIdentical(to: List()))
        XCTAssertEqual(list.withContiguousStorageIfAvailable { $0.count }, 0)
        var chunks = 0
        list.forEachChunk { _ in chunks += 1 }
        XCTAssertEqual(chunks, 0)
        list.removeAll()
        list.replaceSubrange(0..<0, with: [])
        list.append(contentsOf: [Int]())
        XCTAssertTrue(list.isEmpty)
        list._checkInvariants()
    }

    func test_oneElement() {
        var list: List = [7]
        list._checkInvariants()
        XCTAssertEqual(list.count, 1)
        XCTAssertEqual(list[0], 7)
        XCTAssertEqual(Array(list), [7])
        XCTAssertEqual(list.description, "[7]")
        list[0] = 8
        XCTAssertEqual(list.first, 8)
        XCTAssertEqual(list.remove(at: 0), 8)
        XCTAssertTrue(list.isEmpty)
        list._checkInvariants()
        list.insert(9, at: 0)
        XCTAssertEqual(Array(list), [9])
        list._checkInvariants()
    }

    func test_exactlyOneLeaf_isContiguous_andOneMoreIsNot() {
        var list = List(0..<leafCapacity)
        list._checkInvariants()
        XCTAssertEqual(list._root?.height, 0)
        XCTAssertEqual(list.withContiguousStorageIfAvailable { Array($0) }, Array(0..<leafCapacity))
        var chunks: [[Int]] = []
        list.forEachChunk { chunks.append(Array($0)) }
        XCTAssertEqual(chunks, [Array(0..<leafCapacity)])

        list.append(leafCapacity)
        list._checkInvariants()
        XCTAssertEqual(list._root?.height, 0, "an append goes to the tail")
        XCTAssertEqual(list._tail?.count, 1)
        XCTAssertNil(list.withContiguousStorageIfAvailable { $0.count })
        chunks = []
        list.forEachChunk { chunks.append(Array($0)) }
        XCTAssertEqual(chunks, [Array(0..<leafCapacity), [leafCapacity]], "the tree's leaf, then the tail")

        XCTAssertEqual(list.removeLast(), leafCapacity)
        list._checkInvariants()
        XCTAssertNil(list._tail, "a removal moves the tail into the tree first")
        XCTAssertEqual(list._root?.height, 0, "the root collapses back to one leaf")
        XCTAssertEqual(list.withContiguousStorageIfAvailable { Array($0) }, Array(0..<leafCapacity))

        var tailOnly = List()
        tailOnly.append(1)
        tailOnly.append(2)
        XCTAssertNil(tailOnly._root)
        XCTAssertEqual(tailOnly.withContiguousStorageIfAvailable { Array($0) }, [1, 2], "a tail alone is contiguous")
    }

    /// A leaf holds about 4 KiB: 256 elements of 16 bytes or less, fewer of bigger ones, and never
    /// fewer than 16.
    func test_leafCapacity_fillsAbout4KiB() {
        struct Bytes32 { var a, b, c, d: Int }
        struct Bytes256 { var bytes: (Bytes32, Bytes32, Bytes32, Bytes32, Bytes32, Bytes32, Bytes32, Bytes32) }
        struct Bytes512 { var halves: (Bytes256, Bytes256) }
        XCTAssertEqual(ListSnapshot<UInt8>._leafCapacity, 256)
        XCTAssertEqual(ListSnapshot<Int>._leafCapacity, 256)
        XCTAssertEqual(ListSnapshot<(Int, Int)>._leafCapacity, 256)
        XCTAssertEqual(ListSnapshot<Bytes32>._leafCapacity, 128)
        XCTAssertEqual(ListSnapshot<Bytes256>._leafCapacity, 16)
        XCTAssertEqual(ListSnapshot<Bytes512>._leafCapacity, 16, "never fewer than 16")
        var big = ListSnapshot((0..<100).map { Bytes32(a: $0, b: 0, c: 0, d: 0) })
        big.append(contentsOf: big)
        big._checkInvariants()
        XCTAssertEqual(big._root?.height, 1, "200 elements of 32 bytes need two leaves")
        XCTAssertEqual(big.map(\.a), Array(0..<100) + Array(0..<100))
    }

    /// A list that fits in one leaf gets a leaf that fits it, as an array's buffer does, and the
    /// leaf grows by doubling up to a full leaf; a held snapshot of it never changes.
    func test_shortList_leafFitsItsElements_andGrowsByDoubling() {
        func room(_ list: List) -> Int? { list._root.map(\.room) }
        var list: List = [1, 2, 3]
        XCTAssertEqual(room(list), 3)
        let held = list
        list.append(4)
        XCTAssertEqual(room(list), 3, "an append goes to the tail")
        XCTAssertEqual(list._tail?.count, 1)
        XCTAssertEqual(Array(held), [1, 2, 3])
        XCTAssertEqual(room(held), 3)
        list.insert(0, at: 0)
        XCTAssertEqual(room(list), 6, "a full short leaf doubles when the tail joins it")
        XCTAssertNil(list._tail)
        list.insert(9, at: 2)
        XCTAssertEqual(Array(list), [0, 1, 9, 2, 3, 4])
        list.insert(10, at: 3)
        XCTAssertEqual(room(list), 12)
        list._checkInvariants()
        var appended: List = []
        appended.append(0)
        XCTAssertNil(appended._root, "the first appends fill the tail")
        XCTAssertEqual(appended._tail?.room, List._tailCapacity)
        for value in 1...List._tailCapacity { appended.append(value) }
        XCTAssertEqual(room(appended), List._tailCapacity, "a full tail goes into the tree, whose leaf doubles from 4")
        for value in (List._tailCapacity + 1)..<leafCapacity { appended.append(value) }
        XCTAssertEqual(room(appended), leafCapacity, "the tree's leaf grows by doubling")
        XCTAssertEqual(appended._root?.height, 0)
        let more = leafCapacity + List._tailCapacity
        for value in leafCapacity...more { appended.append(value) }
        XCTAssertEqual(appended._root?.height, 1)
        appended._checkInvariants()
        XCTAssertTrue(appended.elementsEqual(0...more))

        XCTAssertEqual(room(List((0..<5).lazy.map { $0 })), 5, "a sequence that is not contiguous")
        // A rebuild whose first chunk is short, followed by more chunks.
        var rebuilt = List(0..<100)
        rebuilt.replaceSubrange(0..<90, with: [-1, -2, -3])
        XCTAssertEqual(Array(rebuilt), [-1, -2, -3] + Array(90..<100))
        XCTAssertEqual(room(rebuilt), 13)
        rebuilt._checkInvariants()
    }

    /// Every element a list took is released exactly once, whatever moved it between leaves:
    /// splits, merges, shares between neighbours, copies of shared leaves, rebuilds. Random
    /// operations on lists of counted objects (4,000 a seed; a `TestScale` fraction, at least
    /// 1,000, in CI's sanitizer steps), with snapshots held and dropped; at the end nothing is
    /// left alive (an element released twice would trap first).
    func test_everyElementIsReleasedExactlyOnce() {
        let census = Census()
        forEachSeed([11, 12, 13]) { seed, random in
            do {
                var list = ListSnapshot<Tracked>()
                var model: [Tracked] = []
                var held: [(ListSnapshot<Tracked>, [Int])] = []
                for step in 0..<TestScale.count(4_000, minimum: 1_000) {
                    let choice = random.int(below: 10)
                    if choice < 4 || model.isEmpty {
                        let element = Tracked(step, census)
                        let offset = random.int(in: 0...model.count)
                        list.insert(element, at: offset)
                        model.insert(element, at: offset)
                    } else if choice < 7 {
                        let offset = random.int(below: model.count)
                        list.remove(at: offset)
                        model.remove(at: offset)
                    } else if choice == 7 {
                        let lower = random.int(in: 0...model.count)
                        let upper = random.int(in: lower...Swift.min(model.count, lower + random.int(in: 0...300)))
                        let new = (0..<random.int(in: 0...200)).map { Tracked(-$0, census) }
                        list.replaceSubrange(lower..<upper, with: new)
                        model.replaceSubrange(lower..<upper, with: new)
                    } else if choice == 8 {
                        held.append((list, model.map(\.value)))
                        if held.count > 4 { held.removeFirst(random.int(in: 1...held.count)) }
                    } else {
                        let offset = random.int(below: model.count)
                        let element = Tracked(step, census)
                        list[offset] = element
                        model[offset] = element
                    }
                }
                list._checkInvariants()
                if !list.elementsEqual(model, by: ===) { return "the list differs from the model" }
                for (snapshot, values) in held where !snapshot.map(\.value).elementsEqual(values) {
                    return "a held snapshot changed"
                }
            }
            return census.alive == 0 ? nil : "\(census.alive) elements are still alive"
        }
    }

    /// Every insertion and removal offset, in lists built both ways (bottom-up and by appends), of
    /// the sizes around every boundary up to three leaves: where a leaf fills, and where a split or
    /// a merge leaves half a leaf. (Every size up to three leaves took two minutes in a debug
    /// build: the test is cubic in the leaf's 256 `Int`s.)
    func test_leafBoundaries_everyOffset() {
        let leaf = leafCapacity
        let boundaries = [leaf / 2, leaf, 3 * leaf / 2, 2 * leaf, 3 * leaf]
        let sizes = [0, 1, 2] + boundaries.flatMap { ($0 - 2)...($0 + 2) }
        for size in sizes {
            let model = Array(0..<size)
            var appended = List()
            for value in model { appended.append(value) }
            for base in [List(model), appended] {
                base._checkInvariants()
                XCTAssertEqual(Array(base), model, "size \(size)")
                for offset in 0...size {
                    var list = base
                    list.insert(-1, at: offset)
                    list._checkInvariants()
                    var expected = model
                    expected.insert(-1, at: offset)
                    XCTAssertEqual(Array(list), expected, "size \(size), insert at \(offset)")
                    XCTAssertEqual(Array(base), model, "size \(size): the original changed")
                }
                for offset in 0..<size {
                    var list = base
                    XCTAssertEqual(list.remove(at: offset), offset)
                    list._checkInvariants()
                    var expected = model
                    expected.remove(at: offset)
                    XCTAssertEqual(Array(list), expected, "size \(size), remove at \(offset)")
                    for index in Swift.stride(from: 0, to: expected.count, by: 7) {
                        XCTAssertEqual(list[index], expected[index])
                    }
                }
            }
        }
    }

    func test_removingDownToEmpty_thenReusing() {
        var list = List(0..<5_000)
        var model = Array(0..<5_000)
        var random = SplitMix64(seed: 23)
        while !list.isEmpty {
            let offset = random.int(below: list.count)
            XCTAssertEqual(list.remove(at: offset), model.remove(at: offset))
            if list.count % 97 == 0 { list._checkInvariants() }
        }
        list._checkInvariants()
        XCTAssertNil(list._root)
        XCTAssertEqual(list, List())
        for value in 0..<300 { list.insert(value, at: list.count / 2) }
        for value in 0..<300 { model.insert(value, at: model.count / 2) }
        list._checkInvariants()
        XCTAssertEqual(Array(list), model)

        list.removeAll()
        XCTAssertTrue(list.isEmpty)
        list.append(contentsOf: 0..<200)
        list._checkInvariants()
        XCTAssertEqual(Array(list), Array(0..<200))
    }

    /// A million appends, one at a time: the count, a few reads, the tree's shape. (With
    /// `RIPPLE_INTERNAL_CHECKS` every append checks the whole tree, so that build appends 5,000:
    /// past 2,048, so that the tree still grows a third level.)
    func test_large_aMillionAppends() {
        #if RIPPLE_INTERNAL_CHECKS
        let total = 5_000
        #else
        let total = 1_000_000
        #endif
        var list = List()
        for value in 0..<total { list.append(value) }
        list._checkInvariants()
        XCTAssertEqual(list.count, total)
        let leaf = leafCapacity
        for offset in [0, 1, leaf - 1, leaf, leaf + 1, total / 3, total / 2, total - leaf - 1, total - 1] {
            XCTAssertEqual(list[offset], offset)
        }
        XCTAssertEqual(list.first, 0)
        XCTAssertEqual(list.last, total - 1)
        var sum = 0
        for value in list { sum &+= value }
        XCTAssertEqual(sum, total * (total - 1) / 2)
        XCTAssertEqual(Array(list), Array(0..<total))
        XCTAssertEqual(list, List(0..<total))
    }

    func test_descriptions_areArrays() {
        let words: ListSnapshot = ["a", "b"]
        XCTAssertEqual(words.description, ["a", "b"].description)
        XCTAssertEqual(words.debugDescription, #"ListSnapshot(["a", "b"])"#)
        let numbers = ListSnapshot(0..<200)
        XCTAssertEqual(numbers.description, Array(0..<200).description)
    }

    func test_equalityAndHashing_byElements() {
        let built = List(0..<1_000)
        var appended = List()
        for value in 0..<1_000 { appended.append(value) }
        XCTAssertFalse(built.isIdentical(to: appended))
        XCTAssertEqual(built, appended)
        XCTAssertEqual(built.hashValue, appended.hashValue)
        XCTAssertEqual(built.hashValue, Array(0..<1_000).hashValue, "hashes like an Array")
        var changed = appended
        changed[999] = 0
        XCTAssertNotEqual(built, changed)
        XCTAssertNotEqual(built, List(0..<999))
        XCTAssertEqual(Set([built, appended, changed]).count, 2)
    }

    /// A list built in one pass, from an array (whole leaves copied from its buffer) or element by
    /// element (a range has no contiguous storage), at the sizes where a level fills or starts:
    /// every node is full but the last of its level, and the tree is as shallow as it can be.
    func test_build_fillsEveryNodeButTheLastOfEachLevel() {
        let inner = List._innerCapacity
        let leaf = leafCapacity
        let sizes = [
            0, 1, 5, leaf - 1, leaf, leaf + 1, 2 * leaf, leaf * inner - 1, leaf * inner, leaf * inner + 1,
            leaf * inner + leaf, leaf * inner * inner - 1, leaf * inner * inner, leaf * inner * inner + 1,
        ]
        for size in sizes {
            for (source, list) in [("array", List(Array(0..<size))), ("range", List(0..<size))] {
                list._checkInvariants()
                XCTAssertTrue(list.elementsEqual(0..<size), "\(source) of \(size)")
                guard let root = list._root else {
                    XCTAssertEqual(size, 0)
                    continue
                }
                var expectedHeight = 0
                var capacity = leaf
                while capacity < size {
                    capacity *= inner
                    expectedHeight += 1
                }
                XCTAssertEqual(root.height, expectedHeight, "\(source) of \(size): the height")
                // Level by level, left to right: all full but the last.
                var level = [root]
                while let first = level.first, first.height > 0 {
                    for node in level.dropLast() where node.children.count != inner {
                        XCTFail(
                            "\(source) of \(size): a node at height \(node.height) has \(node.children.count) children")
                    }
                    level = level.flatMap(\.children)
                }
                for node in level.dropLast() where node.count != leaf {
                    XCTFail("\(source) of \(size): a leaf holds \(node.count)")
                }
                XCTAssertEqual(level.count, (size + leaf - 1) / leaf, "\(source) of \(size): the leaves")
            }
        }
    }

    func test_bulkCopies_chunksCopyContentsAndSlices() {
        let list = List(0..<10_000)
        var chunks = 0
        var copied: [Int] = []
        list.forEachChunk { chunk in
            XCTAssertFalse(chunk.isEmpty)
            XCTAssertLessThanOrEqual(chunk.count, leafCapacity)
            copied.append(contentsOf: chunk)
            chunks += 1
        }
        XCTAssertEqual(copied, Array(0..<10_000))
        XCTAssertEqual(chunks, (10_000 + leafCapacity - 1) / leafCapacity)

        let buffer = UnsafeMutableBufferPointer<Int>.allocate(capacity: 150)
        defer { buffer.deallocate() }
        let (iterator, count) = list._copyContents(initializing: buffer)
        var rest = iterator
        XCTAssertEqual(count, 150)
        XCTAssertEqual(Array(buffer), Array(0..<150))
        XCTAssertEqual(rest.next(), 150, "the iterator continues after the copied elements")
        XCTAssertEqual(Array(IteratorSequence(rest)).count, 10_000 - 151)

        XCTAssertEqual(Array(list[100..<300]), Array(100..<300))
        var sliced = list
        sliced[100..<103] = List([7, 8, 9])[...]
        XCTAssertEqual(Array(sliced[99..<104]), [99, 7, 8, 9, 103])
        XCTAssertEqual(list[100], 100)
        XCTAssertEqual(list.reduce(0, +), 10_000 * 9_999 / 2)
        var visited = 0
        list.forEach { visited += $0 }
        XCTAssertEqual(visited, 10_000 * 9_999 / 2)
    }

    /// An iteration sees the list as it was when it started, whatever the loop does to the list.
    func test_iteration_seesTheListAsItWas() {
        var list = List(0..<1_000)
        var seen: [Int] = []
        for value in list {
            if value == 10 { list.removeAll() }
            if value == 500 { list.append(-1) }
            seen.append(value)
        }
        XCTAssertEqual(seen, Array(0..<1_000))
        XCTAssertEqual(Array(list), [-1])
        var iterator = List(0..<300).makeIterator()
        for expected in 0..<300 { XCTAssertEqual(iterator.next(), expected) }
        XCTAssertNil(iterator.next())
        XCTAssertNil(iterator.next(), "stays finished")
    }

    /// Iteration hands out elements from leaves it does not retain one by one: elements that are
    /// reference counted (long strings) must stay valid and unchanged while the loop drops,
    /// replaces and mutates the list it iterates, and `forEach` must see the same.
    func test_iteration_ofReferenceCountedElements_survivesTheListChanging() {
        func word(_ value: Int) -> String { "a string long enough to live on the heap #\(value)" }
        let expected = (0..<5_000).map(word)
        var list = ListSnapshot(expected)
        var seen: [String] = []
        for value in list {
            if seen.count == 10 { list.removeAll() }
            if seen.count == 100 { list = ListSnapshot((0..<3).map(word)) }
            if seen.count == 2_000 { list.append(word(-1)) }
            if seen.count == 3_000 { list[0] = word(-2) }
            seen.append(value)
        }
        XCTAssertEqual(seen, expected)
        XCTAssertEqual(Array(list), [word(-2), word(1), word(2), word(-1)])
        var copy = ListSnapshot(expected)
        var visited: [String] = []
        copy.forEach { visited.append($0) }
        XCTAssertEqual(visited, expected)
        // An iterator that outlives every list value that held its root.
        var iterator = copy.makeIterator()
        copy = []
        for index in 0..<expected.count { XCTAssertEqual(iterator.next(), expected[index]) }
        XCTAssertNil(iterator.next())
    }

    /// Every element read by index, on trees of one to three inner levels, whole and after edits
    /// that leave nodes of every width: the search through the running counts finds each leaf.
    func test_subscript_readsEveryOffset() {
        let leaf = leafCapacity
        let inner = List._innerCapacity
        for count in [1, leaf - 1, leaf, leaf + 1, leaf * inner, leaf * inner + 1, leaf * inner * inner + 5 * leaf] {
            var list = List(0..<count)
            var model = Array(0..<count)
            for (index, value) in model.enumerated() where list[index] != value {
                XCTFail("count \(count): [\(index)] is \(list[index]), expected \(value)")
                break
            }
            // Uneven children: removals and insertions scattered over the list.
            var random = SplitMix64(seed: UInt64(count))
            // Fewer under the sanitizers, where each edit checks the whole tree.
            for step in 0..<Swift.min(count, TestScale.count(2_000, minimum: 300)) {
                if step % 3 == 0 || model.isEmpty {
                    let offset = random.int(in: 0...model.count)
                    list.insert(-step, at: offset)
                    model.insert(-step, at: offset)
                } else {
                    let offset = random.int(below: model.count)
                    list.remove(at: offset)
                    model.remove(at: offset)
                }
            }
            list._checkInvariants()
            for (index, value) in model.enumerated() where list[index] != value {
                XCTFail("count \(count) after edits: [\(index)] is \(list[index]), expected \(value)")
                break
            }
        }
    }

    /// The search for a child against a scan of the children's counts, for every offset of
    /// nodes of every width, reading and inserting.
    func test_childSlot_matchesAScanOfTheChildren() {
        var random = SplitMix64(seed: 7)
        for width in 1...List._innerCapacity {
            let children = (0..<width).map { _ in
                Array(0..<random.int(in: 1...List._leafCapacity)).withUnsafeBufferPointer {
                    List._Leaf._create(copying: $0)
                }
            }
            let node = List._Node._makeInner(height: 1, children: children)
            for offset in 0...node.count {
                for inserting in [false, true] where inserting || offset < node.count {
                    var slot = 0
                    var remaining = offset
                    while slot < width - 1 {
                        let childCount = children[slot].count
                        if remaining < childCount || (inserting && remaining == childCount) { break }
                        remaining -= childCount
                        slot += 1
                    }
                    let found = node._asInner._withHandle { $0.childSlot(for: offset, inserting: inserting) }
                    if found.slot != slot || found.offset != remaining {
                        XCTFail(
                            "width \(width), offset \(offset), inserting \(inserting): \(found), expected \((slot, remaining))"
                        )
                        return
                    }
                }
            }
        }
    }

    /// The inner nodes' running counts after each kind of mutation, on a three-level tree whose
    /// snapshot is held (so that every path is copied) and on its unique copy: the invariants
    /// check every node's running counts against its children.
    func test_runningCounts_afterEveryKindOfMutation() {
        let base = List(0..<70_000)
        // Fewer repetitions under the sanitizers (each mutation checks the whole tree there), still
        // past a leaf's worth, so that leaves split and merge.
        let some = TestScale.count(200, minimum: 2 * List._leafCapacity)
        let many = TestScale.count(3_000, minimum: 8 * List._leafCapacity)
        // Each mutation on the list, and the same on an array.
        let mutations: [(String, (inout List) -> Void, (inout [Int]) -> Void)] = [
            ("append", { $0.append(-1) }, { $0.append(-1) }),
            (
                "append a leaf's worth", { for value in 0..<some { $0.append(-value) } },
                { for value in 0..<some { $0.append(-value) } }
            ),
            ("insert at the front", { $0.insert(-1, at: 0) }, { $0.insert(-1, at: 0) }),
            (
                "insert in the middle", { for value in 0..<some { $0.insert(-value, at: 35_000) } },
                { for value in 0..<some { $0.insert(-value, at: 35_000) } }
            ),
            (
                "remove at the front", { for _ in 0..<some { $0.remove(at: 0) } },
                { for _ in 0..<some { $0.remove(at: 0) } }
            ),
            (
                "remove in the middle", { for _ in 0..<many { $0.remove(at: 30_000) } },
                { for _ in 0..<many { $0.remove(at: 30_000) } }
            ),
            ("remove the last", { for _ in 0..<many { $0.removeLast() } }, { for _ in 0..<many { $0.removeLast() } }),
            ("set", { $0[12_345] = -1 }, { $0[12_345] = -1 }),
            ("move", { $0.move(fromOffset: 10, toOffset: 60_000) }, { $0.insert($0.remove(at: 10), at: 60_000) }),
            (
                "replace a small range", { $0.replaceSubrange(1_000..<1_010, with: [-1, -2]) },
                { $0.replaceSubrange(1_000..<1_010, with: [-1, -2]) }
            ),
            (
                "replace a large range", { $0.replaceSubrange(1_000..<30_000, with: [-1, -2]) },
                { $0.replaceSubrange(1_000..<30_000, with: [-1, -2]) }
            ),
            ("remove down to a leaf", { $0.removeSubrange(10..<$0.count) }, { $0.removeSubrange(10..<$0.count) }),
        ]
        for (name, mutate, mutateModel) in mutations {
            var model = Array(0..<70_000)
            mutateModel(&model)
            for shared in [true, false] {
                var list = shared ? base : List(0..<70_000)
                mutate(&list)
                list._checkInvariants()
                base._checkInvariants()
                XCTAssertTrue(list.elementsEqual(model), "\(name), shared: \(shared)")
                XCTAssertTrue(base.elementsEqual(0..<70_000), "\(name) changed the held snapshot")
                XCTAssertEqual(list[list.count / 2], model[model.count / 2], name)
            }
        }
    }

    /// Appends take the in-place path only when every node on the right edge is unique: a list
    /// whose root is its own but whose right edge another list shares (an insertion at the front
    /// copied only the left path) must copy that edge, leaving the other list as it was.
    func test_append_copiesASharedRightEdgeUnderAUniqueRoot() {
        let original = List(0..<70_000)
        var list = original
        list.insert(-1, at: 0)
        XCTAssertTrue(list._root!.children.last! === original._root!.children.last!, "the right edge is shared")
        for value in 0..<1_000 {
            list.append(70_000 + value)
            if value % 97 == 0 { list._checkInvariants() }
        }
        list._checkInvariants()
        original._checkInvariants()
        XCTAssertTrue(original.elementsEqual(0..<70_000))
        XCTAssertTrue(list.elementsEqual([-1] + Array(0..<71_000)))
        // A snapshot taken between appends keeps its count and its last leaf.
        let held = list
        list.append(-2)
        XCTAssertEqual(held.count, 71_001)
        XCTAssertEqual(held.last, 70_999)
        XCTAssertEqual(list.last, -2)
        list._checkInvariants()
        held._checkInvariants()
    }

    func test_replaceSubrange_smallAndLarge() {
        var list = List(0..<3_000)
        var model = Array(0..<3_000)
        list.replaceSubrange(10..<20, with: [-1, -2])
        model.replaceSubrange(10..<20, with: [-1, -2])
        list._checkInvariants()
        XCTAssertEqual(Array(list), model)
        list.replaceSubrange(100..<2_000, with: repeatElement(5, count: 10))
        model.replaceSubrange(100..<2_000, with: repeatElement(5, count: 10))
        list._checkInvariants()
        XCTAssertEqual(Array(list), model)
        list.replaceSubrange(0..<list.count, with: [])
        XCTAssertTrue(list.isEmpty)
        list._checkInvariants()
    }

    func test_move_bothDirections() {
        var list: ListSnapshot = ["a", "b", "c", "d"]
        list.move(fromOffset: 0, toOffset: 2)
        XCTAssertEqual(Array(list), ["b", "c", "a", "d"])
        list.move(fromOffset: 3, toOffset: 0)
        XCTAssertEqual(Array(list), ["d", "b", "c", "a"])
        list.move(fromOffset: 1, toOffset: 1)
        XCTAssertEqual(Array(list), ["d", "b", "c", "a"])
    }

    // MARK: - Structural sharing

    /// A mutation of a list that nobody else holds happens in place: the root stays the same node.
    func test_uniqueList_mutatesInPlace() {
        var list = List(0..<10_000)
        let root = ObjectIdentifier(list._root!)
        list[5_000] = -1
        list.append(1)
        list.insert(2, at: 3_000)
        list.remove(at: 7_000)
        XCTAssertEqual(ObjectIdentifier(list._root!), root)
    }

    /// A copy shares every node; a change copies one path (one node per level), and a later
    /// change behind the now unique root still copies the shared leaf it reaches.
    func test_copy_sharesAllButOnePath() {
        let leaf = leafCapacity
        let inner = List._innerCapacity
        // Two children under the root: `first` is in the first one, `second` in the second.
        let total = leaf * inner * inner + 50 * leaf
        let first = leaf * inner * inner / 2
        let second = leaf * inner * inner + 10 * leaf
        var list = List(0..<total)
        let height = list._root!.height
        XCTAssertEqual(height, 3, "1,074 leaves, 34 nodes above them, 2 above those, the root")
        let snapshot = list
        XCTAssertTrue(list.isIdentical(to: snapshot))
        list[first] = -1
        XCTAssertFalse(list.isIdentical(to: snapshot))
        XCTAssertEqual(nodes(of: list).subtracting(nodes(of: snapshot)).count, height + 1)
        XCTAssertEqual(snapshot[first], first)

        // The root is unique now, but the path to `second` (below the root, another one than
        // `first`'s) is still the snapshot's.
        list[second] = -2
        XCTAssertEqual(snapshot[second], second)
        XCTAssertEqual(nodes(of: list).subtracting(nodes(of: snapshot)).count, 2 * height + 1)
        list.append(-3)
        list.insert(-4, at: first / 3)
        list.remove(at: second + leaf)
        list.move(fromOffset: 10, toOffset: total - 100)
        XCTAssertEqual(Array(snapshot), Array(0..<total))
        XCTAssertLessThanOrEqual(
            nodes(of: list).subtracting(nodes(of: snapshot)).count, 6 * (height + 1) + 2,
            "each change copies at most a path and a neighbour")
        list._checkInvariants()
        snapshot._checkInvariants()
    }

    /// The identities of every node of `list`.
    private func nodes(of list: List) -> Set<ObjectIdentifier> {
        var result: Set<ObjectIdentifier> = []
        var pending = list._root.map { [$0] } ?? []
        while let node = pending.popLast() {
            result.insert(ObjectIdentifier(node))
            pending.append(contentsOf: node.children)
        }
        return result
    }

    // MARK: - Seeded property test against Array

    /// 120,000 random operations over six seeds (in CI's sanitizer steps a `TestScale` fraction,
    /// at least 4,000 a seed), each with its own size regime (small lists that stay in one or two
    /// leaves, and lists of tens of thousands, two levels deep). Snapshots (copies) are taken at
    /// random moments with the array copy of the same moment; every one must still equal
    /// its array periodically and at the end. Invariants are checked after every operation.
    func test_random_againstArray_withHeldSnapshots() {
        // Targets in leaves: under one, a few, about half an inner node, and one to three inner
        // nodes (256 `Int`s to a leaf).
        let leaf = leafCapacity
        let regimes: [(seed: UInt64, target: Int)] = [
            (1, leaf * 5 / 8), (2, leaf * 7 / 3), (3, leaf * 16), (4, leaf * 47), (5, leaf * 94), (6, leaf * 6),
        ]
        forEachSeed(regimes.map(\.seed)) { seed, random in
            let target = regimes.first { $0.seed == seed }!.target
            return Self.randomRun(operations: TestScale.count(20_000, minimum: 4_000), target: target, using: &random)
        }
    }

    /// A bigger tree (three levels) under fewer operations.
    func test_random_againstArray_threeLevels() {
        forEachSeed([101]) { _, random in
            let three = List._leafCapacity * List._innerCapacity * List._innerCapacity + 17 * List._leafCapacity
            return Self.randomRun(operations: 3_000, target: three, initial: three, checkEvery: 50, using: &random)
        }
    }

    /// Runs `operations` random operations; returns the first failure, naming the operation.
    private static func randomRun(
        operations: Int, target: Int, initial: Int = 0, checkEvery: Int = 1, using random: inout SplitMix64
    ) -> String? {
        var list = ListSnapshot(0..<initial)
        var model = Array(0..<initial)
        var held: [(list: ListSnapshot<Int>, model: [Int], step: Int)] = []
        var next = initial

        func fresh() -> Int {
            next += 1
            return next
        }
        func verifyHeld(_ step: Int) -> String? {
            for snapshot in held {
                snapshot.list._checkInvariants()
                if let mismatch = firstMismatch(snapshot.list, snapshot.model, by: ==) {
                    return "step \(step): the snapshot taken at step \(snapshot.step) changed: \(mismatch)"
                }
            }
            return nil
        }

        for step in 0..<operations {
            let grow = list.count < target ? 6 : 4
            let operation: String
            switch random.int(below: 100) {
            case 0..<(grow * 3):
                let value = fresh()
                list.append(value)
                model.append(value)
                operation = "append(\(value))"
            case 20..<(20 + grow * 3):
                let offset = random.int(in: 0...list.count)
                let value = fresh()
                list.insert(value, at: offset)
                model.insert(value, at: offset)
                operation = "insert(\(value), at: \(offset))"
            case 40..<56 where !list.isEmpty:
                let offset = random.int(below: list.count)
                let removed = list.remove(at: offset)
                let expected = model.remove(at: offset)
                if removed != expected {
                    return "step \(step): remove(at: \(offset)) returned \(removed), expected \(expected)"
                }
                operation = "remove(at: \(offset))"
            case 56..<64 where !list.isEmpty:
                let source = random.int(below: list.count)
                let destination = random.int(below: list.count)
                list.move(fromOffset: source, toOffset: destination)
                model.insert(model.remove(at: source), at: destination)
                operation = "move(fromOffset: \(source), toOffset: \(destination))"
            case 64..<72 where !list.isEmpty:
                let offset = random.int(below: list.count)
                let value = fresh()
                list[offset] = value
                model[offset] = value
                operation = "[\(offset)] = \(value)"
            case 72..<80:
                let lower = random.int(in: 0...list.count)
                let length =
                    random.chance(1, in: 10)
                    ? random.int(in: 0...(list.count - lower)) : random.int(in: 0...Swift.min(8, list.count - lower))
                let inserted = (0..<random.int(in: 0...(random.chance(1, in: 10) ? 300 : 8))).map { _ in fresh() }
                list.replaceSubrange(lower..<(lower + length), with: inserted)
                model.replaceSubrange(lower..<(lower + length), with: inserted)
                operation = "replaceSubrange(\(lower)..<\(lower + length), with: \(inserted.count) elements)"
            case 80..<84:
                // A batch: a run of edits at neighbouring offsets, as a batch update makes.
                var offset = random.int(in: 0...list.count)
                let edits = random.int(in: 1...100)
                for _ in 0..<edits {
                    if random.chance(1, in: 3), offset < list.count {
                        list.remove(at: offset)
                        model.remove(at: offset)
                    } else {
                        let value = fresh()
                        list.insert(value, at: offset)
                        model.insert(value, at: offset)
                        offset += 1
                    }
                    offset = Swift.min(offset, list.count)
                }
                operation = "a batch of \(edits) edits"
            case 84..<86:
                let values = (0..<random.int(in: 0...200)).map { _ in fresh() }
                list.append(contentsOf: values)
                model.append(contentsOf: values)
                operation = "append(contentsOf: \(values.count) elements)"
            case 86:
                if random.chance(1, in: 4) {
                    list.removeAll()
                    model.removeAll()
                    operation = "removeAll()"
                } else {
                    list = ListSnapshot(model)
                    operation = "ListSnapshot(model)"
                }
            case 87..<95:
                if held.count >= 40 { held.remove(at: random.int(below: held.count)) }
                held.append((list, model, step))
                operation = "snapshot"
            default:
                guard !list.isEmpty else { continue }
                let offset = random.int(below: list.count)
                if list[offset] != model[offset] {
                    return "step \(step): [\(offset)] is \(list[offset]), expected \(model[offset])"
                }
                operation = "read [\(offset)]"
            }
            if list.count != model.count {
                return "step \(step) (\(operation)): count \(list.count), expected \(model.count)"
            }
            if step % checkEvery == 0 { list._checkInvariants() }
            if step % 1_000 == 999 || list.count < 20 {
                if let mismatch = firstMismatch(list, model, by: ==) {
                    return "step \(step) (\(operation)): \(mismatch)"
                }
            }
            if step % 2_000 == 1_999, let failure = verifyHeld(step) { return failure }
        }
        list._checkInvariants()
        if let mismatch = firstMismatch(list, model, by: ==) { return "at the end: \(mismatch)" }
        if Array(list) != model { return "at the end: Array(list) differs" }
        return verifyHeld(operations)
    }

    // MARK: - Threads

    /// Four threads each mutate their own copy of one shared list, while two others iterate the
    /// shared list and the snapshots the mutators publish. Every snapshot must stay what it was
    /// when published (its sum and count are published with it). Run it under ThreadSanitizer.
    func test_threads_mutateOwnCopies_whileOthersReadSnapshots() {
        let shared = ListSnapshot(0..<20_000)
        let expectedSum = 20_000 * 19_999 / 2
        let board = SnapshotBoard()
        let stop = StopFlag()
        let failures = FailureLog()
        // Each writer publishes its copy every 200 steps; the readers stop once all have.
        let steps = TestScale.count(4_000, minimum: 1_000)
        let publications = 4 * ((steps + 199) / 200)
        runOnThreads(6) { thread in
            if thread < 4 {
                var random = SplitMix64(seed: UInt64(thread) &+ 500)
                var mine = shared
                var model = Array(0..<20_000)
                for step in 0..<steps {
                    let offset = random.int(below: mine.count)
                    switch random.int(below: 4) {
                    case 0:
                        mine.insert(step, at: offset)
                        model.insert(step, at: offset)
                    case 1:
                        mine.remove(at: offset)
                        model.remove(at: offset)
                    case 2:
                        mine[offset] = -step
                        model[offset] = -step
                    default:
                        mine.append(step)
                        model.append(step)
                    }
                    if step % 200 == 0 {
                        board.publish(mine, sum: model.reduce(0, &+))
                    }
                }
                if Array(mine) != model { failures.record("thread \(thread): its copy differs from its array") }
                mine._checkInvariants()
            } else {
                var held: [(ListSnapshot<Int>, Int)] = []
                while !stop.isRaised || held.count < 3 {
                    var sum = 0
                    for value in shared { sum &+= value }
                    if sum != expectedSum { failures.record("thread \(thread): the shared list's sum changed") }
                    if let (snapshot, expected) = board.latest() {
                        var total = 0
                        snapshot.forEach { total &+= $0 }
                        if total != expected { failures.record("thread \(thread): a published snapshot changed") }
                        held.append((snapshot, expected))
                    }
                    if board.count >= publications { stop.raise() }
                }
                for (snapshot, expected) in held where snapshot.reduce(0, &+) != expected {
                    failures.record("thread \(thread): a held snapshot changed")
                }
            }
        }
        XCTAssertEqual(failures.all, [])
        XCTAssertEqual(Array(shared), Array(0..<20_000))
        shared._checkInvariants()
    }

    /// One owner mutates its list, in place whenever no snapshot shares the path it changes, and
    /// hands snapshots to three readers, which iterate each one and drop it. So the owner's
    /// nodes go from shared to unique again and again: a mutation that skipped a uniqueness check
    /// would write a node a reader is reading, which the readers' sums catch, and
    /// ThreadSanitizer too: `.ci/run` runs this test under it, in release, with no suppression
    /// for `ListSnapshot`.
    ///
    /// ThreadSanitizer does not see the Swift runtime's reference counts, so it cannot tell that a
    /// reader's release came before the owner's uniqueness check, and reports every legitimate
    /// in-place write as a race with the last read of the node (the other tests run with
    /// suppressions for that). Here the test makes that order visible: each reader checks in at
    /// the board's lock after it dropped its snapshot, and the owner passes the same lock before
    /// each mutation. An in-place write after a proper uniqueness check then follows every read
    /// of the node, as ThreadSanitizer sees it; one without the check does not.
    func test_threads_snapshotsReadElsewhere_whileTheOwnerMutatesInPlace() {
        let board = SnapshotBoard()
        let failures = FailureLog()
        let stop = StopFlag()
        let steps = TestScale.count(20_000, minimum: 4_000)
        runOnThreads(4) { thread in
            if thread == 0 {
                var random = SplitMix64(seed: 700)
                var list = ListSnapshot(0..<3_000)
                var sum = 3_000 * 2_999 / 2
                for step in 0..<steps {
                    board.checkIn()
                    let offset = random.int(below: list.count)
                    switch random.int(below: 4) {
                    case 0:
                        list.append(step)
                        sum &+= step
                    case 1:
                        list.insert(step, at: offset)
                        sum &+= step
                    case 2:
                        sum &-= list.remove(at: offset)
                    default:
                        sum &+= step &- list[offset]
                        list[offset] = step
                    }
                    if step % 50 == 0 { board.publish(list, sum: sum) }
                }
                var total = 0
                for value in list { total &+= value }
                if total != sum { failures.record("the owner's list lost its sum") }
                list._checkInvariants()
                stop.raise()
            } else {
                while !stop.isRaised {
                    do {
                        guard let (snapshot, expected) = board.latest() else { continue }
                        var total = 0
                        for value in snapshot { total &+= value }
                        if total != expected {
                            failures.record("reader \(thread): a snapshot changed while it was read")
                        }
                    }
                    // The snapshot is dropped: what the reader read comes before the owner's next
                    // mutation, for ThreadSanitizer too.
                    board.checkIn()
                }
            }
        }
        XCTAssertEqual(failures.all, [])
        XCTAssertGreaterThan(board.count, 0)
    }

    // MARK: - Traps

    func test_childProcessEntry() throws {
        let name = try childProcessCase()
        var list = ListSnapshot(0..<10)
        switch name {
        case "subscriptGet": _ = list[10]
        case "subscriptSet": list[-1] = 0
        case "subscriptBounds": _ = list[5..<11]
        case "insert": list.insert(0, at: 11)
        case "removeAt": list.remove(at: 12)
        case "removeAtEmpty":
            var empty = ListSnapshot<Int>()
            empty.remove(at: 0)
        case "replaceSubrange": list.replaceSubrange(-1..<2, with: [])
        case "moveSource": list.move(fromOffset: 10, toOffset: 0)
        case "moveDestination": list.move(fromOffset: 0, toOffset: 10)
        default: return
        }
        print("the case did not trap")
    }

    func test_outOfRange_trapsWithAMessageNamingTheMethodTheIndexAndTheRange() throws {
        let expected: [String: String] = [
            "subscriptGet": "ListSnapshot.subscript: index 10 is out of range 0..<10",
            "subscriptSet": "ListSnapshot.subscript: index -1 is out of range 0..<10",
            "subscriptBounds": "ListSnapshot.subscript(bounds:): range 5..<11 is out of range 0...10",
            "insert": "ListSnapshot.insert(_:at:): index 11 is out of range 0...10",
            "removeAt": "ListSnapshot.remove(at:): index 12 is out of range 0..<10",
            "removeAtEmpty": "ListSnapshot.remove(at:): index 0 is out of range 0..<0",
            "replaceSubrange": "ListSnapshot.replaceSubrange(_:with:): range -1..<2 is out of range 0...10",
            "moveSource": "ListSnapshot.move(fromOffset:toOffset:): index 10 is out of range 0..<10",
            "moveDestination": "ListSnapshot.move(fromOffset:toOffset:): index 10 is out of range 0..<10",
        ]
        try assertChildCasesTrap("RippleDiffTests.ListSnapshotTests/test_childProcessEntry", expected: expected)
    }
}

/// The latest snapshot a mutator thread published, with the sum it had then.
private final class SnapshotBoard: @unchecked Sendable {
    // @unchecked: `snapshot` and `published` are only touched with `lock` held.
    private let lock = NSLock()
    private var snapshot: (ListSnapshot<Int>, Int)?
    private var published = 0

    func publish(_ list: ListSnapshot<Int>, sum: Int) {
        lock.lock()
        snapshot = (list, sum)
        published += 1
        lock.unlock()
    }

    func latest() -> (ListSnapshot<Int>, Int)? {
        lock.lock()
        defer { lock.unlock() }
        return snapshot
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return published
    }

    /// Passes the lock: a thread that checks in after dropping its snapshot, and one that checks
    /// in before it mutates, are ordered for ThreadSanitizer.
    func checkIn() {
        lock.lock()
        lock.unlock()
    }
}

/// Failures recorded by any thread, read after they all finished.
private final class FailureLog: @unchecked Sendable {
    // @unchecked: `failures` is only touched with `lock` held.
    private let lock = NSLock()
    private var failures: [String] = []

    func record(_ failure: String) {
        lock.lock()
        if failures.count < 20 { failures.append(failure) }
        lock.unlock()
    }

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return failures
    }
}
