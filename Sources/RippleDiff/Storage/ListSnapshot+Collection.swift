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
            return Self._element(at: position, in: _root.unsafelyUnwrapped)
        }
        set {
            _checkIndex(position, "subscript")
            _makeRootUnique()
            Self._set(newValue, at: position, in: &_root!)
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

    /// Makes the root unique (copying it when another list still holds it). The list must not
    /// be empty.
    @inlinable
    internal mutating func _makeRootUnique() {
        if !isKnownUniquelyReferenced(&_root) {
            _root = _root.unsafelyUnwrapped._copy()
        }
    }

    /// Whether the root is a leaf with no room left that holds fewer than a full leaf's elements.
    @inlinable
    internal var _rootIsAFullShortLeaf: Bool {
        guard let root = _root, root.height == 0 else { return false }
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
    /// Iterates a list's elements in order, leaf by leaf: a step reads the current leaf, moving
    /// to the next leaf usually takes its parent's next child, and only moving to the next parent
    /// searches the tree.
    ///
    /// Each step returns the element, as `IteratorProtocol` requires. In a `for … in` loop the
    /// compiler lends it to the loop's body, as it does `Array`'s, with no retain or release of
    /// its reference-counted fields, and it sees the loop over each leaf's contiguous elements
    /// inside the loop over leaves, so it can vectorize the inner one as it does a loop over an
    /// array. `forEach(_:)` and ``ListSnapshot/forEachChunk(_:)`` run the loop over each leaf's
    /// buffer directly.
    ///
    /// The iterator keeps the list's root alive, so it sees the list as it was when the iteration
    /// started, whatever happens to the list afterwards.
    public struct Iterator: IteratorProtocol {
        // Only `_root` is a counted reference. The iterator reads the current leaf's storage and
        // its parent through unretained pointers: a node reachable from a root that someone else
        // (here, the iterator) also holds is never mutated or freed (a mutation copies every node
        // on its path that is not uniquely held, see `_InnerHandle.makeChildUnique(_:)`), and a leaf's
        // elements live in the leaf's own allocation. So no step retains or releases anything:
        // moving to the next leaf costs a few loads, not six atomic reference-count operations.

        @usableFromInline
        internal let _root: _Node?

        /// The next element of the current leaf, or `nil` before the first step.
        @usableFromInline
        internal var _current: UnsafePointer<Element>?

        /// The end of the current leaf's elements: the step to the next leaf comes when `_current`
        /// reaches it.
        @usableFromInline
        internal var _end: UnsafePointer<Element>?

        /// The list offset of the first element after the current leaf.
        @usableFromInline
        internal var _nextChunkStart: Int

        /// The node just above the current leaf (`nil` while the root is a leaf or before the
        /// first step), so that the next leaf is usually its next child, found without a search.
        @usableFromInline
        internal var _parent: Unmanaged<_Node>?

        /// The current leaf's slot in `_parent`.
        @usableFromInline
        internal var _slot: Int

        /// Creates an iterator that starts at `offset` (in `0...count`).
        @inlinable
        internal init(_root root: _Node?, from offset: Int) {
            _root = root
            _current = nil
            _end = nil
            _nextChunkStart = offset
            _parent = nil
            _slot = 0
        }

        /// Returns the next element, or `nil` after the last one.
        ///
        /// - Complexity: O(1) amortized: one read per element, one step to the next leaf per 16 to
        ///   256 elements, and one O(log *n*) search per 16 to 32 leaves.
        @inlinable
        public mutating func next() -> Element? {
            if _current == _end {
                guard let root = _root, _nextChunkStart < root.count else { return nil }
                // The search gets values and returns values: passed the iterator itself, it would
                // take its address, and a `for` loop would then keep the iterator in memory rather
                // than in registers (a store and a load per element, twice as slow).
                let step = Self._nextChunk(root: root, offset: _nextChunkStart, parent: _parent, slot: _slot)
                _current = step.elements + step.local
                _end = step.elements + step.count
                _parent = step.parent
                _slot = step.slot
                _nextChunkStart &+= step.count &- step.local
            }
            // A pointer that runs to the leaf's end, compared for equality: the optimizer then
            // sees a loop over each leaf's contiguous elements inside the loop over leaves, and
            // vectorizes the inner one as it does `Array`'s loop (an index compared with `>=`
            // kept one element per step: twice `Array`'s time for a sum of integers).
            // One read, on both paths: reading the element in two places (the current leaf, and
            // the next one after a step) made the optimizer copy it, a retain and a release per
            // element for reference-counted fields, where a single read is lent to the loop body.
            let element = _current.unsafelyUnwrapped
            _current = element + 1
            return element.pointee
        }

        /// Where the iteration goes on: the storage of the leaf that holds the offset, its count,
        /// the offset in it, its parent and its slot there. Unretained: valid while the root the
        /// search started from is held.
        @usableFromInline
        internal struct _Step {
            @usableFromInline internal var elements: UnsafePointer<Element>
            @usableFromInline internal var count: Int
            @usableFromInline internal var local: Int
            @usableFromInline internal var parent: Unmanaged<_Node>?
            @usableFromInline internal var slot: Int

            @inlinable
            internal init(leaf: Unmanaged<_Node>, local: Int, parent: Unmanaged<_Node>?, slot: Int) {
                // The one pointer that leaves its closure, by design: the leaf's storage, kept by
                // the root that the iterator (or `_forEachLeafBuffer`'s `withExtendedLifetime`)
                // holds for as long as it reads through it. A leaf's elements sit in its own
                // allocation, and a leaf reachable from a held root is never mutated or freed.
                let (elements, count) = leaf._withUnsafeGuaranteedRef { node in
                    ListSnapshot._leaf(node)._withPointers { header, elements in
                        (UnsafePointer(elements), header.pointee.count)
                    }
                }
                self.elements = elements
                self.count = count
                self.local = local
                self.parent = parent
                self.slot = slot
            }
        }

        /// The child at `slot` of `node`, unretained.
        @inlinable @inline(__always)
        internal static func _child(_ node: Unmanaged<_Node>, _ slot: Int) -> Unmanaged<_Node> {
            node._withUnsafeGuaranteedRef { node in node._asInner._withHandle { $0.child(slot) } }
        }

        /// Finds the leaf that holds `offset` (in `0..<root.count`), the first element after the
        /// leaf at `slot` of `parent`: usually that leaf's next sibling, found without a search.
        /// `root` must stay held while the step is used.
        @inlinable @inline(__always)
        internal static func _nextChunk(root: _Node, offset: Int, parent: Unmanaged<_Node>?, slot: Int) -> _Step {
            if let parent, slot &+ 1 < parent._withUnsafeGuaranteedRef({ $0._asInner._withHandle(\.childCount) }) {
                return _Step(leaf: _child(parent, slot &+ 1), local: 0, parent: parent, slot: slot &+ 1)
            }
            return _search(root: root, offset: offset)
        }

        /// The child of the inner node `node` that holds `offset`, and the offset within it.
        @inlinable @inline(__always)
        internal static func _childSlot(_ node: Unmanaged<_Node>, for offset: Int) -> (slot: Int, offset: Int) {
            node._withUnsafeGuaranteedRef { node in
                node._asInner._withHandle { $0.childSlot(for: offset, inserting: false) }
            }
        }

        /// Finds the leaf that holds `offset` (in `0..<root.count`) from the root: the step to a
        /// leaf under another parent, kept out of line.
        @inlinable @inline(never)
        internal static func _search(root: _Node, offset: Int) -> _Step {
            var node = Unmanaged.passUnretained(root)
            if root.height == 0 {
                return _Step(leaf: node, local: offset, parent: nil, slot: 0)
            }
            var local = offset
            while node._withUnsafeGuaranteedRef({ $0.height }) > 1 {
                let (slot, offset) = Self._childSlot(node, for: local)
                node = _child(node, slot)
                local = offset
            }
            let (slot, offset) = Self._childSlot(node, for: local)
            return _Step(leaf: _child(node, slot), local: offset, parent: node, slot: slot)
        }
    }

    /// Returns an iterator over the list's elements, in order.
    ///
    /// - Complexity: O(1); each step is O(1) amortized.
    @inlinable
    public func makeIterator() -> Iterator {
        Iterator(_root: _root, from: 0)
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
        guard let root = _root else { return }
        // `self` holds the root, so the unretained steps stay valid through the walk, even if
        // `body` mutates the variable this list was copied from.
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
        guard root.isLeaf else { return nil }
        return try Self._leaf(root)._withBuffer(body)
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
        Self._forEachChunk(of: root, base: 0, in: 0..<copied) { chunk in
            destination.initialize(from: chunk.baseAddress.unsafelyUnwrapped, count: chunk.count)
            destination += chunk.count
        }
        return (Iterator(_root: _root, from: copied), copied)
    }
}

@available(*, unavailable)
extension ListSnapshot.Iterator: Sendable {}
