// Reading: the collection conformances, the leaf-by-leaf iterator and the chunk visitor.

extension ListSnapshot: RandomAccessCollection, MutableCollection {
    /// The list's indices: the offsets `0..<count`.
    public typealias Index = Int

    /// The range of valid indices, `0..<count`.
    public typealias Indices = Range<Int>

    /// The position of the first element: always 0.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var startIndex: Int { 0 }

    /// The position one past the last element: ``count``.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var endIndex: Int { count }

    /// The valid indices, `0..<count`.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var indices: Range<Int> { 0..<count }

    /// The position after `index`.
    ///
    /// - Parameter index: A valid index other than `endIndex`.
    /// - Returns: `index + 1`.
    /// - Complexity: O(1).
    @inlinable
    public func index(after index: Int) -> Int { index + 1 }

    /// The position before `index`.
    ///
    /// - Parameter index: A valid index other than `startIndex`.
    /// - Returns: `index - 1`.
    /// - Complexity: O(1).
    @inlinable
    public func index(before index: Int) -> Int { index - 1 }

    /// Accesses the element at `position`.
    ///
    /// Reading or writing one element descends from the root to its leaf. To visit many elements
    /// in order, iterate (or use ``forEach(_:)`` or ``forEachChunk(_:)``), which walks leaf by
    /// leaf instead. Writing copies the nodes on the element's path that another list still holds.
    ///
    /// - Parameter position: An offset in `0..<count`.
    /// - Complexity: O(log *n*) for *n* elements.
    @inlinable
    public subscript(position: Int) -> Element {
        get {
            _checkIndex(position, "subscript")
            var node = _root.unsafelyUnwrapped
            var offset = position
            while node.height > 0 {
                let (slot, local) = node._childSlot(for: offset, inserting: false)
                node = node.children[slot]
                offset = local
            }
            return node.elements[offset]
        }
        set {
            _checkIndex(position, "subscript")
            _uniqueRoot()._set(newValue, at: position)
#if RIPPLE_INTERNAL_CHECKS
            _checkInvariants()
#endif
        }
    }

    /// Accesses the elements at `bounds` as a slice of the list.
    ///
    /// The slice shares the list's storage. Writing a slice back replaces the elements one by
    /// one, and must not change their number (use `replaceSubrange(_:with:)` for that).
    ///
    /// - Parameter bounds: A range of offsets within `0...count`.
    /// - Complexity: Reading: O(1). Writing: O(*k* log *n*) for *k* elements in `bounds` and *n*
    ///   in the list.
    @inlinable
    public subscript(bounds: Range<Int>) -> Slice<ListSnapshot<Element>> {
        get {
            if bounds.lowerBound < 0 || bounds.upperBound > count { Self._outOfRange("subscript(bounds:)", bounds, count) }
            return Slice(base: self, bounds: bounds)
        }
        set {
            if bounds.lowerBound < 0 || bounds.upperBound > count { Self._outOfRange("subscript(bounds:)", bounds, count) }
            precondition(
                newValue.count == bounds.count,
                "ListSnapshot.subscript(bounds:): a slice of \(newValue.count) elements cannot replace the \(bounds.count) at \(bounds); use replaceSubrange(_:with:)")
            var offset = bounds.lowerBound
            for element in newValue {
                self[offset] = element
                offset += 1
            }
        }
    }

    /// Makes the root unique (copying it when another list still holds it) and returns it.
    /// The list must not be empty.
    @inlinable
    internal mutating func _uniqueRoot() -> _Node {
        if !isKnownUniquelyReferenced(&_root) {
            _root = _Node(copying: _root.unsafelyUnwrapped)
        }
        return _root.unsafelyUnwrapped
    }
}

// MARK: - Iteration

extension ListSnapshot {
    /// Iterates a list's elements in order, leaf by leaf: each step reads from the current
    /// chunk, and only moving to the next chunk descends the tree.
    ///
    /// The iterator keeps the nodes it reads alive, so it sees the list as it was when the
    /// iteration started, whatever happens to the list afterwards.
    public struct Iterator: IteratorProtocol {
        @usableFromInline
        internal let _root: _Node?

        /// The elements of the current leaf.
        @usableFromInline
        internal var _chunk: [Element]

        /// The offset of the next element in `_chunk`.
        @usableFromInline
        internal var _position: Int

        /// The list offset of the first element after `_chunk`.
        @usableFromInline
        internal var _nextChunkStart: Int

        /// Creates an iterator that starts at `offset` (in `0...count`).
        @inlinable
        internal init(_root root: _Node?, from offset: Int) {
            _root = root
            _chunk = []
            _position = 0
            _nextChunkStart = offset
        }

        /// Returns the next element, or `nil` after the last one.
        ///
        /// - Complexity: O(1) amortized: O(log *n*) once per leaf of up to 64 elements.
        @inlinable
        public mutating func next() -> Element? {
            if _position < _chunk.count {
                defer { _position += 1 }
                return _chunk[_position]
            }
            return _nextFromNextChunk()
        }

        /// Moves to the leaf that holds `_nextChunkStart`, and returns its first element due.
        @inlinable
        internal mutating func _nextFromNextChunk() -> Element? {
            guard let root = _root, _nextChunkStart < root.count else { return nil }
            let (leaf, start) = root._leaf(containing: _nextChunkStart)
            _chunk = leaf.elements
            _position = _nextChunkStart - start + 1
            _nextChunkStart = start + leaf.count
            return _chunk[_position - 1]
        }
    }

    /// Returns an iterator over the list's elements, in order.
    ///
    /// - Complexity: O(1); each step is O(1) amortized.
    @inlinable
    public func makeIterator() -> Iterator {
        Iterator(_root: _root, from: 0)
    }

    /// The number of elements: the same as ``count``.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var underestimatedCount: Int { count }

    /// Calls `body` with each element, in order, walking the tree leaf by leaf.
    ///
    /// - Parameter body: Called with each element. An error it throws stops the walk and is
    ///   rethrown.
    /// - Complexity: O(*n*) for *n* elements.
    @inlinable
    public func forEach(_ body: (Element) throws -> Void) rethrows {
        try forEachChunk { chunk in
            for element in chunk { try body(element) }
        }
    }

    /// Calls `body` with each leaf's elements as one contiguous buffer, in order: the fastest way
    /// to copy the list, or to scan it in bulk.
    ///
    /// Each buffer is valid only during the call that receives it. The buffers are never empty,
    /// hold at most 64 elements each, and together hold every element once, in list order.
    ///
    /// ```swift
    /// let list = ListSnapshot(0..<100)
    /// var scratch: [Int] = []
    /// scratch.reserveCapacity(list.count)
    /// list.forEachChunk { scratch.append(contentsOf: $0) }
    /// print(scratch == Array(0..<100))
    /// // true
    /// ```
    ///
    /// - Parameter body: Called with each leaf's elements. An error it throws stops the walk and
    ///   is rethrown.
    /// - Complexity: O(*n*) for *n* elements; O(*n* / 64) calls of `body`.
    @inlinable
    public func forEachChunk(_ body: (UnsafeBufferPointer<Element>) throws -> Void) rethrows {
        guard let root = _root else { return }
        try root._forEachChunk(base: 0, in: 0..<root.count, body)
    }

    /// Calls `body` with the list's elements in one contiguous buffer when the list fits in one
    /// leaf (an empty list gives an empty buffer); returns `nil` otherwise, without calling it.
    ///
    /// The storage of a longer list is a tree of chunks: use ``forEachChunk(_:)`` to read it in
    /// bulk.
    ///
    /// - Parameter body: Called with the elements, when they are contiguous.
    /// - Returns: What `body` returns, or `nil` when the elements are not contiguous.
    /// - Complexity: O(1), plus `body`.
    @inlinable
    public func withContiguousStorageIfAvailable<R>(
        _ body: (UnsafeBufferPointer<Element>) throws -> R
    ) rethrows -> R? {
        guard let root = _root else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        guard root.height == 0 else { return nil }
        return try root.elements.withUnsafeBufferPointer(body)
    }

    /// Copies the list's first elements into `buffer`, chunk by chunk (the standard library calls
    /// this to build an `Array` from the list), and returns an iterator over the rest.
    ///
    /// - Parameter buffer: Uninitialized memory; its first `min(buffer.count, count)` slots are
    ///   initialized.
    /// - Returns: An iterator over the elements that did not fit, and the number copied.
    /// - Complexity: O(*m* + log *n*) for *m* copied of *n* elements.
    @inlinable
    public func _copyContents(
        initializing buffer: UnsafeMutableBufferPointer<Element>
    ) -> (Iterator, Int) {
        let copied = Swift.min(buffer.count, count)
        guard copied > 0, let root = _root, var destination = buffer.baseAddress else {
            return (Iterator(_root: _root, from: 0), 0)
        }
        root._forEachChunk(base: 0, in: 0..<copied) { chunk in
            destination.initialize(from: chunk.baseAddress.unsafelyUnwrapped, count: chunk.count)
            destination += chunk.count
        }
        return (Iterator(_root: _root, from: copied), copied)
    }
}

@available(*, unavailable)
extension ListSnapshot.Iterator: Sendable {}
