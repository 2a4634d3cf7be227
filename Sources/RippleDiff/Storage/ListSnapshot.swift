/// A list whose copies share their structure: copying is O(1), a held copy never changes, and a
/// change to one copy costs O(log *n*) whatever other copies are alive.
///
/// `ListSnapshot` is a random-access, mutable, range-replaceable collection with `Int` indices
/// `0..<count`, like `Array`. Its elements live in a counted B-tree: the leaves are chunks of about
/// 4 KiB (16 to 256 elements, by their size), and every inner node keeps the element count of its
/// subtree and, next to each child, the running count of its children, so an offset finds its
/// leaf in O(log *n*) reading one node per level. Every node is one allocation: copying an inner
/// node allocates once and retains its children. The last few elements appended (up to an eighth
/// of a leaf) wait in a tail after the tree, which takes them into its last leaf in one step; the
/// tail holds the tree, so that a list is one reference, and copying it one retain. A
/// list that fits in one leaf takes only the room it needs, and grows by doubling, as an array
/// does. A mutation copies only the nodes on its path that another copy still holds (every node on
/// the path is checked, not only the root), so that
///
/// ```swift
/// var books: ListSnapshot = ["Dune", "Emma", "Ulysses"]
/// let rendered = books              // O(1): the two share every node
/// books.insert("Walden", at: 1)     // copies one leaf, not the list
/// print(rendered)
/// // ["Dune", "Emma", "Ulysses"]
/// print(books)
/// // ["Dune", "Walden", "Emma", "Ulysses"]
/// ```
///
/// # Performance
/// - Copying and ``isIdentical(to:)``: O(1).
/// - `count`: O(1).
/// - Reading or writing one element by index: O(log *n*): a binary search of each inner node's
///   running counts, then the leaf; most of a random read's time is cache misses down the path.
/// - Insertion, removal and ``move(fromOffset:toOffset:)``: O(log *n*), copying at most one
///   path of nodes. `append(_:)` writes into the tail, in place while no other copy shares it,
///   and touches the tree's right edge once per tailful. While another copy holds the list (as a
///   subscriber holds each snapshot), an append copies the tail, not one node per level of the
///   tree.
/// - Iteration (`for … in`, `forEach(_:)`, ``forEachChunk(_:)``): O(*n*), leaf by leaf, not
///   O(log *n*) per element. The compiler vectorizes a loop over each leaf as it does a loop over
///   an array. ``forEachChunk(_:)`` hands out each leaf's contiguous storage, so a bulk copy runs
///   at memory-copy speed.
/// - Building from a sequence (`ListSnapshot(elements)`) and `Array(snapshot)`: O(*n*). A build
///   allocates one node per leaf of about 4 KiB; `Array(snapshot)` copies leaf by leaf.
///
/// docs/performance.md keeps the measured figures of each (`ripple-bench --suite storage`, `--suite
/// publish`), with their dates.
///
/// The storage is not contiguous: `withContiguousStorageIfAvailable(_:)` answers only while the
/// list is one leaf (a tree of one leaf and no tail, or a tail alone). Code that needs one buffer
/// copies into scratch once, with
/// ``forEachChunk(_:)``.
///
/// # Thread Safety
/// `ListSnapshot` is a value type and is `Sendable` when its elements are. A node is mutated in
/// place only while exactly one list value refers to it, so a snapshot handed to another thread
/// stays unchanged while its owner keeps mutating its own copy.
public struct ListSnapshot<Element> {
    /// The list's one reference: `nil` when the list is empty; the tree's root when the list has
    /// no tail; otherwise its tail, which holds the tree's root (see `ListSnapshot+Tail.swift`).
    /// One reference, so that copying a list, as each published snapshot does, is one retain and
    /// its release one release.
    @usableFromInline
    internal var _storage: _Node?

    /// Creates a list from its tree's root, with no tail.
    @inlinable
    internal init(_root: _Node?) {
        self._storage = _root
    }

    /// Creates an empty list.
    ///
    /// - Complexity: O(1).
    @inlinable
    public init() {
        _storage = nil
    }

    /// The number of elements in the list.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var count: Int {
        guard let storage = _storage else { return 0 }
        return storage._withHeader { header in
            header.pointee.kind == .tail
                ? header.pointee.count &+ (header.pointee.tree?.count ?? 0) : header.pointee.count
        }
    }

    /// Whether the list has no elements.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var isEmpty: Bool { _storage == nil }

    /// Whether this list and `other` share their whole storage, so that they are certainly equal.
    ///
    /// A copy is identical to its original until either one is mutated. Lists that are not
    /// identical may still be equal (use `==` to compare their elements).
    ///
    /// - Parameter other: Another list.
    /// - Returns: `true` when both lists have the same nodes (or are both empty).
    /// - Complexity: O(1).
    @inlinable
    public func isIdentical(to other: Self) -> Bool {
        _storage === other._storage
    }
}

// MARK: - Literals

extension ListSnapshot: ExpressibleByArrayLiteral {
    /// Creates a list of the given elements.
    ///
    /// - Parameter elements: The elements, in order.
    /// - Complexity: O(*n*) for *n* elements.
    @inlinable
    public init(arrayLiteral elements: Element...) {
        self.init(elements)
    }
}

// MARK: - Shape

extension ListSnapshot {
    /// The most elements a leaf holds: as many as fill 4 KiB, from 16 (for elements of 256 bytes
    /// or more) to 256 (for elements of 16 bytes or less). A leaf other than the last one holds at
    /// least half as many.
    ///
    /// A leaf of about 4 KiB spreads the cost of its allocation and release over enough elements
    /// that building a list costs little more than copying an array, and a change that copies a
    /// shared leaf copies about 4 KiB, whatever the element. The bounds keep a leaf of small
    /// elements quick to shift within, and a leaf of big ones worth its allocation.
    @inlinable
    internal static var _leafCapacity: Int {
        Swift.min(256, Swift.max(16, 4096 / MemoryLayout<Element>.stride))
    }

    /// The most children an inner node has. An inner node off the right edge of the tree has at
    /// least half as many; the root has at least two.
    @inlinable
    internal static var _innerCapacity: Int { _listInnerCapacity }

    /// The most elements the tail holds: an eighth of a leaf, at least 4 (32 elements of 16
    /// bytes). A shared tail is copied by each append, and the tree's right edge once per
    /// tailful of appends: a bigger tail copies more per append, a smaller one the edge more often.
    @inlinable
    internal static var _tailCapacity: Int { Swift.max(4, _leafCapacity / 8) }
}

// MARK: - Programmer errors

extension ListSnapshot {
    /// Traps for an index outside `0..<count` (or `0...count` when `endInclusive`), naming the
    /// method, the index and the valid range.
    @usableFromInline
    internal static func _outOfRange(_ method: StaticString, _ index: Int, _ count: Int, endInclusive: Bool = false)
        -> Never
    {
        let range = endInclusive ? "0...\(count)" : "0..<\(count)"
        preconditionFailure("ListSnapshot.\(method): index \(index) is out of range \(range)")
    }

    /// Traps for a range of offsets that does not fit `0...count`, naming the method, the range and
    /// the valid range.
    @usableFromInline
    internal static func _outOfRange(_ method: StaticString, _ bounds: Range<Int>, _ count: Int) -> Never {
        preconditionFailure("ListSnapshot.\(method): range \(bounds) is out of range 0...\(count)")
    }

    /// Checks that `index` is in `0..<count`.
    @inlinable @inline(__always)
    internal func _checkIndex(_ index: Int, _ method: StaticString) {
        if index < 0 || index >= count { Self._outOfRange(method, index, count) }
    }
}
