// The tree's node: a leaf holds a chunk of elements, an inner node holds children and their
// running counts (`ends`), and every node keeps the element count of its subtree. A node's methods
// that mutate it may be called only on a node that the caller made unique (see
// `_uniqueChild(_:)`): every node on a mutated path is checked with `isKnownUniquelyReferenced` and
// copied when someone else still holds it.
//
// Reads (`_element(at:)`, the iterator, `forEachChunk`) pass nodes as `Unmanaged`, unretained:
// the list or iterator that reads keeps the root, and through it every node below, alive, and a
// node reachable from a root that someone holds is never mutated in place (the mutation copies
// it). That spares a retain and a release per node visited.

// Exclusivity: the four mutable properties are `@exclusivity(unchecked)`. Checked dynamically
// (the default for a class's stored property), every read of a child's count while searching a node
// cost a runtime call, and reading one element took 0.2 to 1.2 µs. The static rules still hold, and
// no access can overlap another: a node is mutated only by the one mutating method of the one list
// value that holds its whole path uniquely (so no other code can be reading it), no method here
// calls out to user code while it mutates a node, and the visitors that call user code
// (`_forEachChunk`, the iterator) read nodes that the visiting list or iterator itself keeps
// referenced, so a mutation started from inside the visit finds them shared and copies them.

extension ListSnapshot {
    @usableFromInline
    internal final class _Node {
        /// 0 for a leaf; one more than its children's for an inner node. Every leaf of a tree
        /// has the same depth.
        @usableFromInline
        internal let height: Int

        /// The number of elements in this subtree.
        @usableFromInline @exclusivity(unchecked)
        internal var count: Int

        /// A leaf's elements, in order; empty in an inner node.
        @usableFromInline @exclusivity(unchecked)
        internal var elements: [Element]

        /// An inner node's children, in order; empty in a leaf.
        @usableFromInline @exclusivity(unchecked)
        internal var children: [_Node]

        /// An inner node's running counts: `ends[i]` is the number of elements in `children[0...i]`,
        /// so `ends.last == count`; empty in a leaf. A search reads these contiguous integers, not
        /// the children (one pointer chase each).
        @usableFromInline @exclusivity(unchecked)
        internal var ends: [Int]

        /// Creates a leaf.
        @inlinable
        internal init(leaf elements: [Element]) {
            height = 0
            count = elements.count
            self.elements = elements
            children = []
            ends = []
        }

        /// Creates an inner node of the given height over `children`.
        @inlinable
        internal init(height: Int, children: [_Node]) {
            self.height = height
            var ends: [Int] = []
            ends.reserveCapacity(ListSnapshot._innerCapacity + 1)
            var count = 0
            for child in children {
                count += child.count
                ends.append(count)
            }
            self.count = count
            elements = []
            self.children = children
            self.ends = ends
        }

        /// Creates a copy of `other` that shares its children (and, until either is mutated, its
        /// arrays' buffers).
        @inlinable
        internal init(copying other: _Node) {
            height = other.height
            count = other.count
            elements = other.elements
            children = other.children
            ends = other.ends
        }

        /// Whether this node is a leaf.
        @inlinable
        internal var isLeaf: Bool { height == 0 }

        /// The number of entries: elements in a leaf, children in an inner node.
        @inlinable
        internal var width: Int { height == 0 ? elements.count : children.count }

        /// The most entries this node may hold.
        @inlinable
        internal var capacity: Int { height == 0 ? ListSnapshot._leafCapacity : ListSnapshot._innerCapacity }

        /// The fewest entries this node may hold when it is not on the right edge of the tree.
        @inlinable
        internal var minimumWidth: Int { capacity / 2 }
    }
}

// MARK: - Finding

extension ListSnapshot._Node {
    /// The child that holds `offset` and the offset within it. With `inserting`, an offset at the
    /// boundary of two children goes to the end of the left one (and `offset == count` to the
    /// last child).
    ///
    /// It reads only `ends`: the slot is the number of children before the last one that end at
    /// or before `offset` (before it, with `inserting`), found by a binary search whose steps
    /// select rather than branch (about five steps for 32 children, none mispredicted).
    @inlinable @inline(__always)
    internal func _childSlot(for offset: Int, inserting: Bool) -> (slot: Int, offset: Int) {
        ends.withUnsafeBufferPointer { ends in
            // The last child takes every offset past the others, so only ends[0..<last] count.
            var length = ends.count &- 1
            guard length > 0 else { return (0, offset) }
            let bound = inserting ? offset &- 1 : offset
            let base = ends.baseAddress.unsafelyUnwrapped
            // `low` ends as the last index in 0..<length whose end is at most `bound` (or 0).
            var low = 0
            while length > 1 {
                let half = length &>> 1
                low = base[low &+ half] <= bound ? low &+ half : low
                length &-= half
            }
            let slot = base[low] <= bound ? low &+ 1 : low
            return (slot, slot == 0 ? offset : offset &- base[slot &- 1])
        }
    }

    /// Adds `delta` to the running counts from `slot` on, after the child at `slot` gained or lost
    /// elements.
    @inlinable @inline(__always)
    internal func _addToEnds(_ delta: Int, from slot: Int) {
        ends.withUnsafeMutableBufferPointer { ends in
            var index = slot
            while index < ends.count {
                ends[index] &+= delta
                index &+= 1
            }
        }
    }

    /// Recomputes the running counts from `slot` on, and `count`, from the children's counts,
    /// after children were added, removed or reshaped.
    @inlinable
    internal func _refreshEnds(from slot: Int) {
        var total = slot == 0 ? 0 : ends[slot - 1]
        ends.removeSubrange(slot...)
        var index = slot
        while index < children.count {
            total += children[index].count
            ends.append(total)
            index += 1
        }
        count = total
    }

    /// The leaf that holds `offset` (in `0..<count`) and the offset of its first element.
    @inlinable
    internal func _leaf(containing offset: Int) -> (leaf: ListSnapshot._Node, start: Int) {
        var node = self
        var remaining = offset
        while node.height > 0 {
            let (slot, local) = node._childSlot(for: remaining, inserting: false)
            node = node.children[slot]
            remaining = local
        }
        return (node, offset - remaining)
    }

    /// The element at `offset` (in `0..<count`, not checked).
    ///
    /// The descent holds no reference of its own to the nodes it passes: the list that calls it
    /// keeps the root, and so the whole path, alive for the call, and no node on the path can
    /// change during it (a read holds no unique reference). That saves a retain and a release per
    /// level.
    @inlinable
    internal func _element(at offset: Int) -> Element {
        var node = Unmanaged.passUnretained(self)
        var offset = offset
        while true {
            let next: Unmanaged<ListSnapshot._Node>? = node._withUnsafeGuaranteedRef { current in
                guard current.height > 0 else { return nil }
                let (slot, local) = current._childSlot(for: offset, inserting: false)
                offset = local
                return current.children.withUnsafeBufferPointer { Unmanaged.passUnretained($0[slot]) }
            }
            guard let next else { break }
            node = next
        }
        return node._withUnsafeGuaranteedRef { leaf in
            leaf.elements.withUnsafeBufferPointer { $0[offset] }
        }
    }

    /// Calls `body` with each leaf's elements that fall in `range` (offsets relative to this
    /// node, starting at `base`), in order.
    @inlinable
    internal func _forEachChunk(
        base: Int, in range: Range<Int>, _ body: (UnsafeBufferPointer<Element>) throws -> Void
    ) rethrows {
        if height == 0 {
            let lower = Swift.max(range.lowerBound - base, 0)
            let upper = Swift.min(range.upperBound - base, elements.count)
            guard lower < upper else { return }
            try elements.withUnsafeBufferPointer { buffer in
                try body(UnsafeBufferPointer(rebasing: buffer[lower..<upper]))
            }
            return
        }
        var start = base
        for child in children {
            if start >= range.upperBound { return }
            let end = start + child.count
            if end > range.lowerBound { try child._forEachChunk(base: start, in: range, body) }
            start = end
        }
    }
}

// MARK: - Mutating a unique node

extension ListSnapshot._Node {
    /// Makes the child at `slot` unique (copying it when another node or list still holds it)
    /// and returns it.
    @inlinable
    internal func _uniqueChild(_ slot: Int) -> ListSnapshot._Node {
        if !isKnownUniquelyReferenced(&children[slot]) {
            children[slot] = ListSnapshot._Node(copying: children[slot])
        }
        return children[slot]
    }

    /// The last child, unretained, when this node's `children` holds the only reference to it
    /// (checked as `_uniqueChild(_:)` does, which may give this node a `children` buffer of its
    /// own); `nil` when another node or list shares it.
    @inlinable
    internal func _uniqueLastChild() -> Unmanaged<ListSnapshot._Node>? {
        let last = children.count &- 1
        guard isKnownUniquelyReferenced(&children[last]) else { return nil }
        return children.withUnsafeBufferPointer { Unmanaged.passUnretained($0[last]) }
    }

    /// Replaces the element at `offset`.
    @inlinable
    internal func _set(_ element: Element, at offset: Int) {
        if height == 0 {
            elements[offset] = element
            return
        }
        let (slot, local) = _childSlot(for: offset, inserting: false)
        _uniqueChild(slot)._set(element, at: local)
    }

    /// Appends `element` at the end of this subtree; returns the new right sibling when this
    /// node overflowed.
    @inlinable
    internal func _append(_ element: Element) -> ListSnapshot._Node? {
        count += 1
        if height == 0 {
            elements.append(element)
            return elements.count > ListSnapshot._leafCapacity ? _split(onRightEdge: true) : nil
        }
        let last = children.count - 1
        guard let right = _uniqueChild(last)._append(element) else {
            ends[last] &+= 1
            return nil
        }
        children.append(right)
        _refreshEnds(from: last)
        return children.count > ListSnapshot._innerCapacity ? _split(onRightEdge: true) : nil
    }

    /// Inserts `element` at `offset` (in `0...count`); returns the new right sibling when this
    /// node overflowed.
    @inlinable
    internal func _insert(_ element: Element, at offset: Int, onRightEdge: Bool) -> ListSnapshot._Node? {
        count += 1
        if height == 0 {
            elements.insert(element, at: offset)
            return elements.count > ListSnapshot._leafCapacity ? _split(onRightEdge: onRightEdge) : nil
        }
        let (slot, local) = _childSlot(for: offset, inserting: true)
        let isLast = slot == children.count - 1
        guard let right = _uniqueChild(slot)._insert(element, at: local, onRightEdge: onRightEdge && isLast) else {
            _addToEnds(1, from: slot)
            return nil
        }
        children.insert(right, at: slot + 1)
        _refreshEnds(from: slot)
        return children.count > ListSnapshot._innerCapacity ? _split(onRightEdge: onRightEdge) : nil
    }

    /// Moves the entries past this node's share into a new right sibling and returns it. On the
    /// right edge the node keeps a full chunk (appends then leave full nodes behind); elsewhere
    /// it keeps half, so both halves are at least half full.
    @inlinable
    internal func _split(onRightEdge: Bool) -> ListSnapshot._Node {
        let width = self.width
        let keep = onRightEdge ? capacity : (width + 1) / 2
        if height == 0 {
            var moved: [Element] = []
            moved.reserveCapacity(ListSnapshot._leafCapacity)
            moved.append(contentsOf: elements[keep...])
            elements.removeSubrange(keep...)
            count = keep
            return ListSnapshot._Node(leaf: moved)
        }
        let moved = Array(children[keep...])
        children.removeSubrange(keep...)
        ends.removeSubrange(keep...)
        let right = ListSnapshot._Node(height: height, children: moved)
        count -= right.count
        return right
    }

    /// Removes and returns the element at `offset` (in `0..<count`), then mends the child it came
    /// from: an emptied child goes, a child under half full (off the right edge) is merged with
    /// or refilled from a neighbour.
    @inlinable
    @discardableResult
    internal func _remove(at offset: Int, onRightEdge: Bool) -> Element {
        count -= 1
        if height == 0 { return elements.remove(at: offset) }
        let (slot, local) = _childSlot(for: offset, inserting: false)
        let isLast = slot == children.count - 1
        let removed = _uniqueChild(slot)._remove(at: local, onRightEdge: onRightEdge && isLast)
        _addToEnds(-1, from: slot)
        _mendChild(at: slot, onRightEdge: onRightEdge)
        return removed
    }

    /// Restores the bounds of the child at `slot` after a removal from it.
    @inlinable
    internal func _mendChild(at slot: Int, onRightEdge: Bool) {
        // Reads only: a reference to the child kept in a local would make it look shared to
        // `_rebalance`'s uniqueness check and force a copy.
        if children[slot].count == 0 {
            // Its running count equals the one before it: the others stay right.
            children.remove(at: slot)
            ends.remove(at: slot)
            return
        }
        let isLast = slot == children.count - 1
        let isWideEnough = children[slot].width >= children[slot].minimumWidth
        if isWideEnough || (onRightEdge && isLast) || children.count == 1 { return }
        _rebalance(leftSlot: isLast ? slot - 1 : slot)
    }

    /// Merges the children at `leftSlot` and `leftSlot + 1` when they fit in one node, or else
    /// shares their entries evenly between them.
    @inlinable
    internal func _rebalance(leftSlot: Int) {
        let left = _uniqueChild(leftSlot)
        let right = _uniqueChild(leftSlot + 1)
        let total = left.width + right.width
        if total <= left.capacity {
            if left.height == 0 {
                left.elements.append(contentsOf: right.elements)
                left.count += right.count
            } else {
                let leftWidth = left.children.count
                left.children.append(contentsOf: right.children)
                left._refreshEnds(from: leftWidth)
            }
            children.remove(at: leftSlot + 1)
            // The merged child ends where the right one did.
            ends.remove(at: leftSlot)
            return
        }
        let leftWidth = (total + 1) / 2
        if left.height == 0 {
            if left.elements.count < leftWidth {
                let moving = leftWidth - left.elements.count
                left.elements.append(contentsOf: right.elements[..<moving])
                right.elements.removeSubrange(..<moving)
            } else {
                right.elements.insert(contentsOf: left.elements[leftWidth...], at: 0)
                left.elements.removeSubrange(leftWidth...)
            }
            left.count = left.elements.count
            right.count = right.elements.count
        } else {
            if left.children.count < leftWidth {
                let moving = leftWidth - left.children.count
                left.children.append(contentsOf: right.children[..<moving])
                right.children.removeSubrange(..<moving)
            } else {
                right.children.insert(contentsOf: left.children[leftWidth...], at: 0)
                left.children.removeSubrange(leftWidth...)
            }
            left._refreshEnds(from: 0)
            right._refreshEnds(from: 0)
        }
        ends[leftSlot] = (leftSlot == 0 ? 0 : ends[leftSlot - 1]) + left.count
    }
}

// MARK: - Building bottom-up

extension ListSnapshot {
    /// Builds a tree from elements given in order, in O(*n*): full leaves, then full inner nodes
    /// level by level; only the last node of each level may be short.
    @usableFromInline
    internal struct _Builder {
        @usableFromInline
        internal var leaves: [_Node] = []

        @usableFromInline
        internal var current: [Element] = []

        @inlinable
        internal init() {}

        /// Closes the current leaf when it is full.
        @inlinable
        internal mutating func _flushIfFull() {
            if current.count == ListSnapshot._leafCapacity {
                leaves.append(_Node(leaf: current))
                current = []
            }
        }

        /// Adds one element at the end.
        @inlinable
        internal mutating func append(_ element: Element) {
            if current.isEmpty { current.reserveCapacity(ListSnapshot._leafCapacity) }
            current.append(element)
            _flushIfFull()
        }

        /// Adds a chunk of elements at the end.
        @inlinable
        internal mutating func append(chunk: UnsafeBufferPointer<Element>) {
            var start = 0
            while start < chunk.count {
                if current.isEmpty { current.reserveCapacity(ListSnapshot._leafCapacity) }
                let end = Swift.min(chunk.count, start + ListSnapshot._leafCapacity - current.count)
                current.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[start..<end]))
                start = end
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
            if !current.isEmpty {
                leaves.append(_Node(leaf: current))
                current = []
            }
            var level = leaves
            leaves = []
            var height = 0
            while level.count > 1 {
                height += 1
                var next: [_Node] = []
                next.reserveCapacity((level.count + ListSnapshot._innerCapacity - 1) / ListSnapshot._innerCapacity)
                var start = 0
                while start < level.count {
                    let end = Swift.min(level.count, start + ListSnapshot._innerCapacity)
                    next.append(_Node(height: height, children: Array(level[start..<end])))
                    start = end
                }
                level = next
            }
            return level.first
        }
    }
}
