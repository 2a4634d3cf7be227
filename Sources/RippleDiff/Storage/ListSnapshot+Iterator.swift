// The iterator: leaf by leaf, with no reference counting per step.

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
    /// The iterator keeps the list's root and tail alive, so it sees the list as it was when the
    /// iteration started, whatever happens to the list afterwards.
    public struct Iterator: IteratorProtocol {
        // Only `_root` and `_tail` are counted references. The iterator reads the current leaf's storage and
        // its parent through unretained pointers: a node reachable from a root that someone else
        // (here, the iterator) also holds is never mutated or freed (a mutation copies every node
        // on its path that is not uniquely held, see `_InnerHandle.makeChildUnique(_:)`), and a leaf's
        // elements live in the leaf's own allocation. So no step retains or releases anything:
        // moving to the next leaf costs a few loads, not six atomic reference-count operations.

        @usableFromInline
        internal let _root: _Node?

        @usableFromInline
        internal let _tail: _Leaf?

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

        /// Creates an iterator over the list of `root` and `tail` that starts at `offset` (in
        /// `0...count`).
        @inlinable
        internal init(_root root: _Node?, tail: _Leaf?, from offset: Int) {
            _root = root
            _tail = tail
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
                // The search gets values and returns values: passed the iterator itself, it would
                // take its address, and a `for` loop would then keep the iterator in memory rather
                // than in registers (a store and a load per element, twice as slow).
                guard
                    let step = Self._nextStep(
                        root: _root, tail: _tail, offset: _nextChunkStart, parent: _parent, slot: _slot)
                else { return nil }
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
                    ListSnapshot._leafOrTail(node)._withPointers { header, elements in
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

        /// Finds the leaf that holds `offset`, the first element after the leaf at `slot` of
        /// `parent`, in the tree of `root` or in `tail` after it; `nil` past the last element.
        /// `root` and `tail` must stay held while the step is used.
        @inlinable @inline(__always)
        internal static func _nextStep(
            root: _Node?, tail: _Leaf?, offset: Int, parent: Unmanaged<_Node>?, slot: Int
        ) -> _Step? {
            if let root, offset < root.count {
                return _nextChunk(root: root, offset: offset, parent: parent, slot: slot)
            }
            let local = offset &- (root?.count ?? 0)
            guard let tail, local < tail.count else { return nil }
            return _Step(leaf: Unmanaged.passUnretained(tail), local: local, parent: nil, slot: 0)
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
            if !root.isInner {
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
}

@available(*, unavailable)
extension ListSnapshot.Iterator: Sendable {}
