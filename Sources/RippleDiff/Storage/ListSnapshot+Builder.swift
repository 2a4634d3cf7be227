// Building a tree bottom-up from elements given in order.

extension ListSnapshot {
    /// Builds a tree from elements given in order, in O(*n*): full leaves, then full inner nodes;
    /// only the last node of each level may be short.
    ///
    /// Each finished node goes straight into a slot of its parent-to-be, which is being filled at
    /// its level, and a parent is finished as soon as it has 32 children: no node is retained or
    /// released on the way up (copying arrays of nodes level by level cost an atomic retain and
    /// release per node, a fifth of a build).
    @usableFromInline
    internal struct _Builder {
        /// The inner node being filled at each level, if any: `open[h - 1]` has height `h` and
        /// fewer than 32 children, after every node of `open[h]`'s.
        @usableFromInline
        internal var open: [_Node?] = []

        /// The leaf being filled, if any: never full (a full leaf goes to its parent).
        @usableFromInline
        internal var current: _Leaf?

        /// Whether a leaf has been finished yet.
        @usableFromInline
        internal var _hasLeaves = false

        @inlinable
        internal init() {}

        /// Adds a finished node of height `height` after every node added so far, and finishes
        /// the parent of every level that it fills.
        @inlinable
        internal mutating func _add(_ node: __owned _Node, height: Int) {
            var node = node
            var level = height
            while true {
                if open.count == level { open.append(nil) }
                if open[level] == nil { open[level] = _Inner._create(height: level + 1) }
                let full = _withMutableInner(&open[level]!) { parent in
                    parent._appendChild(node)
                    return parent.childCount == ListSnapshot._innerCapacity
                }
                guard full else { return }
                node = open[level]._take().unsafelyUnwrapped
                level += 1
            }
        }

        /// Adds a full leaf (or the short last one) after every node added so far.
        @inlinable
        internal mutating func _add(leaf: __owned _Leaf) {
            _hasLeaves = true
            _add(leaf, height: 0)
        }

        /// The leaf being filled, with room for at least one more element: a new one when there
        /// is none, or a bigger one when the first leaf was made to fit a short first chunk.
        @inlinable
        internal mutating func _leafWithRoom() -> _Leaf {
            guard let leaf = current else {
                let leaf = _Leaf._create(capacity: ListSnapshot._leafCapacity)
                current = leaf
                return leaf
            }
            if leaf.count == leaf.room {
                let grown = leaf._moved(capacity: ListSnapshot._leafCapacity)
                current = grown
                return grown
            }
            return leaf
        }

        /// Closes the current leaf when it is full.
        @inlinable
        internal mutating func _flushIfFull() {
            if let leaf = current, leaf.count == ListSnapshot._leafCapacity {
                current = nil
                _add(leaf: leaf)
            }
        }

        /// Adds one element at the end.
        @inlinable
        internal mutating func append(_ element: Element) {
            _leafWithRoom()._appendElement(element)
            _flushIfFull()
        }

        /// Adds a chunk of elements at the end.
        @inlinable
        internal mutating func append(chunk: UnsafeBufferPointer<Element>) {
            guard let base = chunk.baseAddress else { return }
            var start = 0
            if !_hasLeaves && current == nil && chunk.count < ListSnapshot._leafCapacity {
                // The list may be this one short chunk: a leaf that fits it, as `Array` would.
                current = _Leaf._create(capacity: chunk.count)
            }
            if current == nil {
                // Whole leaves straight from the chunk, each made full: the loop below would make
                // the same leaves, with a check of `current` and of the room per element.
                while chunk.count - start >= ListSnapshot._leafCapacity {
                    let leaf = _Leaf._create(
                        copying: UnsafeBufferPointer(start: base + start, count: ListSnapshot._leafCapacity))
                    start += ListSnapshot._leafCapacity
                    _add(leaf: leaf)
                }
            }
            while start < chunk.count {
                _leafWithRoom()._withPointers { header, elements in
                    let count = header.pointee.count
                    let moving = Swift.min(chunk.count - start, header.pointee.capacity - count)
                    (elements + count).initialize(from: base + start, count: moving)
                    header.pointee.count = count + moving
                    start += moving
                }
                _flushIfFull()
            }
        }

        /// Adds every element of `elements` at the end.
        @inlinable
        internal mutating func append<S: Sequence<Element>>(contentsOf elements: S) {
            let copied: Void? = elements.withContiguousStorageIfAvailable { append(chunk: $0) }
            if copied == nil {
                for element in elements { append(element) }
            }
        }

        /// The root of the finished tree, or `nil` when no element was added.
        @inlinable
        internal mutating func finish() -> _Node? {
            if let leaf = current, leaf.count > 0 {
                // A list of one short leaf gets a leaf that fits it.
                let fits = !_hasLeaves && leaf.count < leaf.room
                _add(leaf: fits ? leaf._moved(capacity: leaf.count) : leaf)
            }
            current = nil
            // Bottom-up, each level's short last node goes into the level above; the node left on
            // top is the root, unless it has one child, which is then the root (repeatedly).
            var carried: _Node? = nil
            for level in open.indices {
                var node = open[level]._take()
                if let child = carried {
                    if node == nil { node = _Inner._create(height: level + 1) }
                    _withMutableInner(&node!) { $0._appendChild(child) }
                }
                carried = node
            }
            open = []
            while carried != nil, carried.unsafelyUnwrapped.isInner,
                carried.unsafelyUnwrapped._asInner._withHandle({ $0.childCount == 1 })
            {
                carried = _withMutableInner(&carried!) { $0.removeChild(at: 0) }
            }
            return carried
        }
    }
}
