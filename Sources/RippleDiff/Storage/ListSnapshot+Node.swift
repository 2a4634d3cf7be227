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

// Exclusivity: a node's fields live in its `ManagedBuffer` header and are read and written through
// a pointer to it (`withUnsafeMutablePointerToHeader`), so they are not checked at run time.
// Checked dynamically (the default for a class's stored property, which `ManagedBuffer.header`
// is), every read of a child's count while searching a node cost a runtime call: reading one
// element took 0.2 to 1.2 µs, and an append 300 ns. The static rules still hold, and no access can overlap another: a node is mutated
// only by the one mutating method of the one list value that holds its whole path uniquely (so no
// other code can be reading it), no method here calls out to user code while it mutates a node,
// and the visitors that call user code (`_forEachChunk`, the iterator) read nodes that the visiting
// list or iterator itself keeps referenced, so a mutation started from inside the visit finds them
// shared and copies them.

extension ListSnapshot {
    /// A node's fields, kept in the header of its one allocation.
    @usableFromInline
    internal struct _Header {
        /// 0 for a leaf; one more than its children's for an inner node. Every leaf of a tree
        /// has the same depth.
        @usableFromInline
        internal let height: Int

        /// The number of elements in this subtree (in a leaf, the initialized elements).
        @usableFromInline
        internal var count: Int

        /// A leaf's room for elements (`_leafCapacity`, or fewer for a root leaf that has not
        /// grown yet); 0 in an inner node.
        @usableFromInline
        internal let capacity: Int

        /// An inner node's children, in order; empty in a leaf.
        @usableFromInline
        internal var children: [_Node]

        /// An inner node's running counts: `ends[i]` is the number of elements in `children[0...i]`,
        /// so `ends.last == count`; empty in a leaf. A search reads these contiguous integers, not
        /// the children (one pointer chase each).
        @usableFromInline
        internal var ends: [Int]

        @inlinable
        internal init(height: Int, count: Int, capacity: Int, children: [_Node], ends: [Int]) {
            self.height = height
            self.count = count
            self.capacity = capacity
            self.children = children
            self.ends = ends
        }
    }

    /// A node of the tree, in one allocation: its header, then (in a leaf) room for `capacity`
    /// elements, of which the first `count` are initialized. A leaf's elements sit right after
    /// its header, so reading them costs one pointer chase from the parent, not two, and making
    /// or copying a leaf one allocation.
    @usableFromInline
    internal final class _Node: ManagedBuffer<_Header, Element> {
        deinit {
            withUnsafeMutablePointers { header, elements in
                if header.pointee.height == 0 { _ = elements.deinitialize(count: header.pointee.count) }
            }
        }
    }
}

extension ListSnapshot._Node {
    /// Creates an empty leaf with room for `capacity` elements.
    @inlinable
    internal static func _makeLeaf(capacity: Int) -> ListSnapshot._Node {
        let buffer = create(minimumCapacity: capacity) { _ in
            ListSnapshot._Header(height: 0, count: 0, capacity: capacity, children: [], ends: [])
        }
        // Safe: `create` is ManagedBuffer's class method, called on `_Node`: it allocates an
        // instance of `_Node` itself, typed as the base class.
        return unsafeDowncast(buffer, to: ListSnapshot._Node.self)
    }

    /// Creates a leaf holding a copy of `elements` (1 to `_leafCapacity` of them), with room for
    /// `capacity`.
    @inlinable
    internal static func _makeLeaf(
        copying elements: UnsafeBufferPointer<Element>, capacity: Int = ListSnapshot._leafCapacity
    ) -> ListSnapshot._Node {
        let leaf = _makeLeaf(capacity: capacity)
        leaf.withUnsafeMutablePointers { header, target in
            target.initialize(from: elements.baseAddress.unsafelyUnwrapped, count: elements.count)
            header.pointee.count = elements.count
        }
        return leaf
    }

    /// Creates an inner node of the given height over `children`.
    @inlinable
    internal static func _makeInner(height: Int, children: [ListSnapshot._Node]) -> ListSnapshot._Node {
        var ends: [Int] = []
        ends.reserveCapacity(ListSnapshot._innerCapacity + 1)
        var count = 0
        for child in children {
            count += child.count
            ends.append(count)
        }
        let buffer = create(minimumCapacity: 0) { _ in
            ListSnapshot._Header(height: height, count: count, capacity: 0, children: children, ends: ends)
        }
        // Safe: as in `_makeLeaf(capacity:)`, `create` called on `_Node` makes a `_Node`.
        return unsafeDowncast(buffer, to: ListSnapshot._Node.self)
    }

    /// A copy of this node that shares its children (and, until either is mutated, its arrays'
    /// buffers); a leaf's copy holds copies of its elements, with room for `capacity` of them
    /// (at least `count`; by default this leaf's room).
    @inlinable
    internal func _copy(capacity: Int? = nil) -> ListSnapshot._Node {
        guard height == 0 else {
            let header = withUnsafeMutablePointerToHeader { $0.pointee }
            let buffer = Self.create(minimumCapacity: 0) { _ in header }
            // Safe: as in `_makeLeaf(capacity:)`, `create` called on `_Node` makes a `_Node`.
            return unsafeDowncast(buffer, to: ListSnapshot._Node.self)
        }
        return _withBuffer { Self._makeLeaf(copying: $0, capacity: capacity ?? room) }
    }

    /// Appends `element` to this leaf, which must be unique and have room for it.
    @inlinable @inline(__always)
    internal func _appendToLeaf(_ element: Element) {
        withUnsafeMutablePointers { header, elements in
            let count = header.pointee.count
            (elements + count).initialize(to: element)
            header.pointee.count = count &+ 1
        }
    }

    /// This leaf's elements in a bigger leaf, with room for `capacity`, moved out of this one
    /// (which must be unique, and is left empty).
    @inlinable
    internal func _movedToLeaf(capacity: Int) -> ListSnapshot._Node {
        let leaf = Self._makeLeaf(capacity: capacity)
        withUnsafeMutablePointers { header, elements in
            leaf.withUnsafeMutablePointers { target, targetElements in
                targetElements.moveInitialize(from: elements, count: header.pointee.count)
                target.pointee.count = header.pointee.count
            }
            header.pointee.count = 0
        }
        return leaf
    }

    // The node's fields are read and written through a pointer to its header, not through
    // `header`: that is a class's stored property, so every access to it would be checked for
    // exclusivity at run time (a runtime call each, several per append). The static rules still
    // hold, for the reasons the top of this file gives.
    //
    // No pointer outlives the node that lends it: the accessors below use it inside
    // `withUnsafeMutablePointerToHeader` or `withUnsafeMutablePointers`, which keep the node alive
    // until their closure returns, and the two that yield (`children`, `ends`) end with
    // `_fixLifetime(self)`, so that the node stays alive until the caller is done with what they
    // yield. A pointer that escaped its closure let the optimizer free a node before the last read
    // through it: in release builds, `_root = root.children[0]` read the child out of a root that
    // was already freed, and a list of 257 elements emptied on `remove(at: 256)`.

    /// 0 for a leaf; one more than its children's for an inner node.
    @inlinable
    internal var height: Int { withUnsafeMutablePointerToHeader { $0.pointee.height } }

    /// The number of elements in this subtree.
    @inlinable
    internal var count: Int {
        get { withUnsafeMutablePointerToHeader { $0.pointee.count } }
        set { withUnsafeMutablePointerToHeader { $0.pointee.count = newValue } }
    }

    /// A leaf's room for elements; 0 in an inner node.
    @inlinable
    internal var room: Int { withUnsafeMutablePointerToHeader { $0.pointee.capacity } }

    /// An inner node's children, in order; empty in a leaf.
    @inlinable
    internal var children: [ListSnapshot._Node] {
        _read {
            // The pointer is used only during the yield, and the node outlives it.
            defer { _fixLifetime(self) }
            yield withUnsafeMutablePointerToHeader { $0 }.pointee.children
        }
        _modify {
            defer { _fixLifetime(self) }
            yield &withUnsafeMutablePointerToHeader { $0 }.pointee.children
        }
    }

    /// An inner node's running counts (see `_Header.ends`).
    @inlinable
    internal var ends: [Int] {
        _read {
            // The pointer is used only during the yield, and the node outlives it.
            defer { _fixLifetime(self) }
            yield withUnsafeMutablePointerToHeader { $0 }.pointee.ends
        }
        _modify {
            defer { _fixLifetime(self) }
            yield &withUnsafeMutablePointerToHeader { $0 }.pointee.ends
        }
    }

    /// Calls `body` with a leaf's initialized elements, valid only during the call.
    @inlinable @inline(__always)
    internal func _withBuffer<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
        try withUnsafeMutablePointers { header, elements in
            try body(UnsafeBufferPointer(start: elements, count: header.pointee.count))
        }
    }

    /// Whether this node is a leaf.
    @inlinable
    internal var isLeaf: Bool { height == 0 }

    /// The number of entries: elements in a leaf, children in an inner node.
    @inlinable
    internal var width: Int { height == 0 ? count : children.count }

    /// The most entries this node may hold.
    @inlinable
    internal var maximumWidth: Int { height == 0 ? ListSnapshot._leafCapacity : ListSnapshot._innerCapacity }

    /// The fewest entries this node may hold when it is not on the right edge of the tree.
    @inlinable
    internal var minimumWidth: Int { maximumWidth / 2 }
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
    /// The descent holds no reference of its own to the nodes it passes: this node, the root, is
    /// held until the element is copied out (`_fixLifetime(self)`, as in the accessors above),
    /// and with it the whole path, and no node on the path can change during it (a read holds no
    /// unique reference). That saves a retain and a release per level.
    @inlinable
    internal func _element(at offset: Int) -> Element {
        defer { _fixLifetime(self) }
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
        return node._withUnsafeGuaranteedRef { leaf in leaf.withUnsafeMutablePointerToElements { $0[offset] } }
    }

    /// Calls `body` with each leaf's elements that fall in `range` (offsets relative to this
    /// node, starting at `base`), in order.
    @inlinable
    internal func _forEachChunk(
        base: Int, in range: Range<Int>, _ body: (UnsafeBufferPointer<Element>) throws -> Void
    ) rethrows {
        if height == 0 {
            try _withBuffer { elements in
                let lower = Swift.max(range.lowerBound - base, 0)
                let upper = Swift.min(range.upperBound - base, elements.count)
                guard lower < upper else { return }
                try body(UnsafeBufferPointer(rebasing: elements[lower..<upper]))
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
            children[slot] = children[slot]._copy()
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
            withUnsafeMutablePointerToElements { $0[offset] = element }
            return
        }
        let (slot, local) = _childSlot(for: offset, inserting: false)
        _uniqueChild(slot)._set(element, at: local)
    }

    /// Appends `element` at the end of this subtree; returns the new right sibling when this
    /// node overflowed.
    @inlinable
    internal func _append(_ element: Element) -> ListSnapshot._Node? {
        if height == 0 { return _insertInLeaf(element, at: count, onRightEdge: true) }
        count += 1
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
        if height == 0 { return _insertInLeaf(element, at: offset, onRightEdge: onRightEdge) }
        count += 1
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

    /// Inserts `element` at `offset` (in `0...count`) in this leaf, which has room for it unless
    /// it is full; a full leaf is split, and the new right sibling is returned. On the right edge
    /// the leaf keeps a full chunk (appends then leave full leaves behind); elsewhere it keeps half
    /// of its elements and the new one, so both halves are at least half full.
    @inlinable
    internal func _insertInLeaf(_ element: Element, at offset: Int, onRightEdge: Bool) -> ListSnapshot._Node? {
        withUnsafeMutablePointers { header, elements in
            let count = header.pointee.count
            if count < header.pointee.capacity {
                (elements + offset + 1).moveInitialize(from: elements + offset, count: count - offset)
                (elements + offset).initialize(to: element)
                header.pointee.count = count + 1
                return nil
            }
            // Full (a leaf with less room than `_leafCapacity` is a root leaf, which the list grows
            // before inserting).
            let keep = onRightEdge ? count : (count + 2) / 2
            let right = Self._makeLeaf(capacity: ListSnapshot._leafCapacity)
            right.withUnsafeMutablePointers { rightHeader, target in
                if offset >= keep {
                    // The new element goes right: the elements from `keep` on, with it in their midst.
                    let before = offset - keep
                    target.moveInitialize(from: elements + keep, count: before)
                    (target + before).initialize(to: element)
                    (target + before + 1).moveInitialize(from: elements + offset, count: count - offset)
                } else {
                    // The new element stays left: one more element than `count - keep` moves right.
                    target.moveInitialize(from: elements + keep - 1, count: count - keep + 1)
                    (elements + offset + 1).moveInitialize(from: elements + offset, count: keep - 1 - offset)
                    (elements + offset).initialize(to: element)
                }
                rightHeader.pointee.count = count + 1 - keep
            }
            header.pointee.count = keep
            return right
        }
    }

    /// Moves the children past this inner node's share into a new right sibling and returns it.
    /// On the right edge the node keeps a full set (appends then leave full nodes behind);
    /// elsewhere it keeps half, so both halves are at least half full.
    @inlinable
    internal func _split(onRightEdge: Bool) -> ListSnapshot._Node {
        let width = children.count
        let keep = onRightEdge ? ListSnapshot._innerCapacity : (width + 1) / 2
        let moved = Array(children[keep...])
        children.removeSubrange(keep...)
        ends.removeSubrange(keep...)
        let right = Self._makeInner(height: height, children: moved)
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
        if height == 0 {
            return withUnsafeMutablePointers { header, elements in
                let removed = (elements + offset).move()
                (elements + offset).moveInitialize(from: elements + offset + 1, count: header.pointee.count - offset)
                return removed
            }
        }
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
        if total <= left.maximumWidth {
            if left.height == 0 {
                Self._moveElements(right.count, from: right, at: 0, to: left, at: left.count)
                left.count += right.count
                right.count = 0
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
            let leftCount = left.count
            let rightCount = right.count
            if leftCount < leftWidth {
                let moving = leftWidth - leftCount
                Self._moveElements(moving, from: right, at: 0, to: left, at: leftCount)
                Self._moveElements(rightCount - moving, from: right, at: moving, to: right, at: 0)
            } else {
                let moving = leftCount - leftWidth
                Self._moveElements(rightCount, from: right, at: 0, to: right, at: moving)
                Self._moveElements(moving, from: left, at: leftWidth, to: right, at: 0)
            }
            left.count = leftWidth
            right.count = total - leftWidth
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

    /// Moves `count` elements of the leaf `source`, from `sourceOffset` on, to the uninitialized
    /// slots of the leaf `target` from `targetOffset` on (the two may be the same leaf, and the
    /// ranges may overlap). Counts are left to the caller.
    @inlinable
    internal static func _moveElements(
        _ count: Int, from source: ListSnapshot._Node, at sourceOffset: Int,
        to target: ListSnapshot._Node, at targetOffset: Int
    ) {
        source.withUnsafeMutablePointerToElements { from in
            target.withUnsafeMutablePointerToElements { to in
                (to + targetOffset).moveInitialize(from: from + sourceOffset, count: count)
            }
        }
    }
}

// MARK: - Building bottom-up

extension ListSnapshot {
    /// Builds a tree from elements given in order, in O(*n*): full leaves, then full inner nodes;
    /// only the last node of each level may be short.
    ///
    /// Each finished node goes straight into the children of its parent-to-be, and a parent is
    /// made as soon as it has 32 children, taking their array as it is: no node is retained or
    /// released on the way up (copying arrays of nodes level by level cost an atomic retain and
    /// release per node, a fifth of a build).
    @usableFromInline
    internal struct _Builder {
        /// The full leaves that have no parent yet: fewer than 32.
        @usableFromInline
        internal var leaves: [_Node] = []

        /// The finished inner nodes that have no parent yet, by height: `upper[h - 1]` holds
        /// fewer than 32 nodes of height `h`, in order, after every node of `upper[h]`.
        @usableFromInline
        internal var upper: [[_Node]] = []

        /// The leaf being filled, if any: never full (a full leaf goes to `leaves`).
        @usableFromInline
        internal var current: _Node?

        @inlinable
        internal init() {}

        /// Whether no node is finished yet.
        @inlinable
        internal var _isEmpty: Bool { leaves.isEmpty && upper.isEmpty }

        /// Adds a full leaf (or the short last one) after every node added so far; makes its
        /// parent when it is the 32nd.
        @inlinable
        internal mutating func _add(leaf: consuming _Node) {
            leaves.append(leaf)
            if leaves.count == ListSnapshot._innerCapacity {
                _add(Self._parent(of: &leaves, height: 1), height: 1)
            }
        }

        /// Adds a finished inner node of height `height` after every node added so far, and makes
        /// the parent of every level that it fills.
        @inlinable
        internal mutating func _add(_ node: consuming _Node, height: Int) {
            var node = node
            var level = height - 1
            while true {
                if upper.count == level {
                    upper.append([])
                    upper[level].reserveCapacity(ListSnapshot._innerCapacity)
                }
                upper[level].append(node)
                guard upper[level].count == ListSnapshot._innerCapacity else { return }
                node = Self._parent(of: &upper[level], height: level + 2)
                level += 1
            }
        }

        /// The node of height `height` over `children`, which it takes, leaving an empty array
        /// with room for 32.
        @inlinable
        internal static func _parent(of children: inout [_Node], height: Int) -> _Node {
            var taken: [_Node] = []
            taken.reserveCapacity(ListSnapshot._innerCapacity)
            swap(&taken, &children)
            return _Node._makeInner(height: height, children: taken)
        }

        /// The leaf being filled, with room for at least one more element: a new one when there
        /// is none, or a bigger one when the first leaf was made to fit a short first chunk.
        @inlinable
        internal mutating func _leafWithRoom() -> _Node {
            guard let leaf = current else {
                let leaf = _Node._makeLeaf(capacity: ListSnapshot._leafCapacity)
                current = leaf
                return leaf
            }
            if leaf.count == leaf.room {
                let grown = leaf._movedToLeaf(capacity: ListSnapshot._leafCapacity)
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
            _leafWithRoom()._appendToLeaf(element)
            _flushIfFull()
        }

        /// Adds a chunk of elements at the end.
        @inlinable
        internal mutating func append(chunk: UnsafeBufferPointer<Element>) {
            guard let base = chunk.baseAddress else { return }
            var start = 0
            if _isEmpty && current == nil && chunk.count < ListSnapshot._leafCapacity {
                // The list may be this one short chunk: a leaf that fits it, as `Array` would.
                current = _Node._makeLeaf(capacity: chunk.count)
            }
            if current == nil {
                // Whole leaves straight from the chunk, each made full: the loop below would make
                // the same leaves, with a check of `current` and of the room per leaf (about 8% of
                // a build's instructions).
                while chunk.count - start >= ListSnapshot._leafCapacity {
                    let leaf = _Node._makeLeaf(
                        copying: UnsafeBufferPointer(start: base + start, count: ListSnapshot._leafCapacity))
                    start += ListSnapshot._leafCapacity
                    _add(leaf: leaf)
                }
            }
            while start < chunk.count {
                let leaf = _leafWithRoom()
                leaf.withUnsafeMutablePointers { header, elements in
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
                let fits = _isEmpty && leaf.count < leaf.room
                _add(leaf: fits ? leaf._movedToLeaf(capacity: leaf.count) : leaf)
            }
            current = nil
            // Bottom-up, each level's short last node; the one node left on top is the root.
            if upper.isEmpty {
                guard leaves.count > 1 else { return leaves.popLast() }
                return Self._parent(of: &leaves, height: 1)
            }
            if !leaves.isEmpty { _add(Self._parent(of: &leaves, height: 1), height: 1) }
            var level = 0
            while level < upper.count {
                if level == upper.count - 1 && upper[level].count == 1 { return upper[level].removeLast() }
                if !upper[level].isEmpty { _add(Self._parent(of: &upper[level], height: level + 2), height: level + 2) }
                level += 1
            }
            return nil
        }
    }
}
