// Reading: the collection conformances and the chunk visitors (the iterator is in
// ListSnapshot+Iterator.swift).

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

    /// The position one past the last element: `count`.
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
    /// in order, iterate (or use `forEach(_:)` or ``forEachChunk(_:)``), which walks leaf by
    /// leaf instead. Writing copies the nodes on the element's path that another list still holds.
    ///
    /// - Parameter position: An offset in `0..<count`.
    /// - Complexity: O(log *n*) for *n* elements.
    @inlinable
    public subscript(position: Int) -> Element {
        get {
            _checkIndex(position, "subscript")
            let treeCount = _treeCount
            if position < treeCount { return Self._element(at: position, in: _root.unsafelyUnwrapped) }
            return _tail.unsafelyUnwrapped._withPointers { _, elements in elements[position &- treeCount] }
        }
        set {
            _checkIndex(position, "subscript")
            let treeCount = _treeCount
            if position >= treeCount {
                _makeTailUnique()
                _tail.unsafelyUnwrapped._replaceElement(at: position - treeCount, with: newValue)
            } else {
                _makeRootUnique()
                Self._set(newValue, at: position, in: &_root!)
            }
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
            if bounds.lowerBound < 0 || bounds.upperBound > count {
                Self._outOfRange("subscript(bounds:)", bounds, count)
            }
            return Slice(base: self, bounds: bounds)
        }
        set {
            if bounds.lowerBound < 0 || bounds.upperBound > count {
                Self._outOfRange("subscript(bounds:)", bounds, count)
            }
            precondition(
                newValue.count == bounds.count,
                "ListSnapshot.subscript(bounds:): a slice of \(newValue.count) elements cannot replace the \(bounds.count) at \(bounds); use replaceSubrange(_:with:)"
            )
            var offset = bounds.lowerBound
            for element in newValue {
                self[offset] = element
                offset += 1
            }
        }
    }

    /// Makes the root unique (copying it when another list still holds it). The tree must not be
    /// empty.
    @inlinable
    internal mutating func _makeRootUnique() {
        if !isKnownUniquelyReferenced(&_root) {
            _root = _root.unsafelyUnwrapped._copy()
        }
    }

    /// Whether the root is a leaf with no room left that holds fewer than a full leaf's elements.
    @inlinable
    internal var _rootIsAFullShortLeaf: Bool {
        guard let root = _root, root.isLeaf else { return false }
        return root.count == root.room && root.count < Self._leafCapacity
    }

    /// Makes the root unique, as `_makeRootUnique()` does, and gives a root leaf that is full but
    /// holds fewer than a full leaf's elements room for more (a short list's leaf fits its
    /// elements, as an array's buffer does, and grows by doubling). The list must not be empty.
    @inlinable
    internal mutating func _makeRootUniqueWithRoom() {
        // No local reference to the root may live across the uniqueness checks: it would make the
        // root look shared and force a copy.
        guard _rootIsAFullShortLeaf else { return _makeRootUnique() }
        let count = self.count
        let capacity = Swift.min(Self._leafCapacity, Swift.max(4, 2 * count))
        _root =
            isKnownUniquelyReferenced(&_root)
            ? Self._leaf(_root.unsafelyUnwrapped)._moved(capacity: capacity)
            : Self._leaf(_root.unsafelyUnwrapped)._copyLeaf(capacity: capacity)
    }
}

// MARK: - Iteration

extension ListSnapshot {
    /// Returns an iterator over the list's elements, in order.
    ///
    /// - Complexity: O(1); each step is O(1) amortized.
    @inlinable
    public func makeIterator() -> Iterator {
        Iterator(_root: _root, tail: _tail, from: 0)
    }

    /// The number of elements: the same as `count`.
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
        // Element by element from each leaf's buffer: borrowed, not copied out as an iterator
        // must, and in a loop that `body` is inlined into.
        try _forEachLeafBuffer { buffer in
            for element in buffer { try body(element) }
        }
    }

    /// Calls `body` with each leaf's elements, in order, from a loop rather than a recursion, so
    /// that `body` can be inlined into it.
    @inlinable
    internal func _forEachLeafBuffer(_ body: (UnsafeBufferPointer<Element>) throws -> Void) rethrows {
        // `self` holds the tail and the root, so the unretained steps stay valid through the
        // walk, even if `body` mutates the variable this list was copied from.
        defer { _fixLifetime(self) }
        if let tail = _tail, _root == nil { return try tail._withBuffer(body) }
        guard let root = _root else { return }
        try withExtendedLifetime(root) {
            let count = root.count
            var offset = 0
            var parent: Unmanaged<_Node>? = nil
            var slot = 0
            while offset < count {
                let step = Iterator._nextChunk(root: root, offset: offset, parent: parent, slot: slot)
                try body(UnsafeBufferPointer(start: step.elements, count: step.count))
                offset &+= step.count
                parent = step.parent
                slot = step.slot
            }
        }
        if let tail = _tail { try tail._withBuffer(body) }
    }

    /// Calls `body` with each leaf's elements as one contiguous buffer, in order: the fastest way
    /// to copy the list, or to scan it in bulk.
    ///
    /// Each buffer is valid only during the call that receives it. The buffers are never empty,
    /// hold one leaf each (at most 16 to 256 elements, about 4 KiB, by their size), and together
    /// hold every element once, in list order.
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
    /// - Complexity: O(*n*) for *n* elements; one call of `body` per 16 to 256 elements.
    @inlinable
    public func forEachChunk(_ body: (UnsafeBufferPointer<Element>) throws -> Void) rethrows {
        try _forEachLeafBuffer(body)
    }

    /// Calls `body` with the list's elements in one contiguous buffer when the list is one leaf
    /// (an empty list gives an empty buffer); returns `nil` otherwise, without calling it.
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
        switch (_root, _tail) {
        case (nil, nil): return try body(UnsafeBufferPointer(start: nil, count: 0))
        case (nil, let tail?): return try tail._withBuffer(body)
        case (let root?, nil) where root.isLeaf: return try Self._leaf(root)._withBuffer(body)
        default: return nil
        }
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
        guard copied > 0, var destination = buffer.baseAddress else {
            return (Iterator(_root: _root, tail: _tail, from: 0), 0)
        }
        let treeCount = _treeCount
        if let root = _root {
            Self._forEachChunk(of: root, base: 0, in: 0..<Swift.min(copied, treeCount)) { chunk in
                destination.initialize(from: chunk.baseAddress.unsafelyUnwrapped, count: chunk.count)
                destination += chunk.count
            }
        }
        if copied > treeCount, let tail = _tail {
            tail._withPointers { _, elements in destination.initialize(from: elements, count: copied - treeCount) }
        }
        return (Iterator(_root: _root, tail: _tail, from: copied), copied)
    }
}
