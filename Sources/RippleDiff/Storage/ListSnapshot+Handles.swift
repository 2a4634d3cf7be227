// Access to a node's memory for changing it: from the place that holds the node's only reference,
// and, for an inner node, through a closure-scoped handle on its header and slots.

// MARK: - Mutable access from the reference's place

extension ListSnapshot {
    /// Calls `body` with a mutable handle on the inner node referenced from `node`, the one
    /// reference to it (checked in debug builds).
    @inlinable @inline(__always)
    internal static func _withMutableInner<R>(_ node: inout _Node, _ body: (_InnerHandle) -> R) -> R {
        assert(isKnownUniquelyReferenced(&node), "ListSnapshot: mutating an inner node that is shared")
        return node._asInner._withHandle(mutable: true, body)
    }

    /// Calls `body` with the header and elements of the leaf referenced from `node`, the one
    /// reference to it (checked in debug builds).
    @inlinable @inline(__always)
    internal static func _withMutableLeaf<R>(
        _ node: inout _Node, _ body: (UnsafeMutablePointer<_Header>, UnsafeMutablePointer<Element>) -> R
    ) -> R {
        assert(isKnownUniquelyReferenced(&node), "ListSnapshot: mutating a leaf that is shared")
        return _leaf(node)._withPointers(body)
    }
}

// MARK: - The inner node handle

/// An inner node's header and slots, lent to a closure by `_ListInner._withHandle(mutable:_:)`:
/// valid only during that call, never stored or returned.
@usableFromInline
internal struct _ListInnerHandle {
    @usableFromInline
    internal let _header: UnsafeMutablePointer<_ListNodeHeader>

    @usableFromInline
    internal let _slots: UnsafeMutablePointer<_ListSlot>

    /// Whether the lender vouched that nothing else holds the node. Read only by assertions.
    @usableFromInline
    internal let _isMutable: Bool

    @inlinable @inline(__always)
    internal init(
        header: UnsafeMutablePointer<_ListNodeHeader>, slots: UnsafeMutablePointer<_ListSlot>, isMutable: Bool
    ) {
        self._header = header
        self._slots = slots
        self._isMutable = isMutable
    }

    @inlinable @inline(__always)
    internal func _assertMutable() {
        assert(_isMutable, "ListSnapshot: a read-only handle used to change a node")
    }

    /// The node's height (at least 1).
    @inlinable
    internal var height: Int { Int(_header.pointee.height) }

    /// The number of elements under the node.
    @inlinable
    internal var count: Int {
        get { _header.pointee.count }
        nonmutating set {
            _assertMutable()
            _header.pointee.count = newValue
        }
    }

    /// The number of children.
    @inlinable
    internal var childCount: Int {
        get { _header.pointee.childCount }
        nonmutating set {
            _assertMutable()
            _header.pointee.childCount = newValue
        }
    }

    /// The running count at `slot`: the elements in the children up to and including it.
    @inlinable @inline(__always)
    internal func end(_ slot: Int) -> Int { _slots[slot].end }

    /// The elements in the children before `slot`.
    @inlinable @inline(__always)
    internal func start(_ slot: Int) -> Int { slot == 0 ? 0 : _slots[slot &- 1].end }

    /// The child at `slot`, unretained: valid while the node is held.
    @inlinable @inline(__always)
    internal func child(_ slot: Int) -> Unmanaged<_ListNode> { Unmanaged.passUnretained(_slots[slot].child) }

    /// Calls `body` with the reference to the child at `slot`, in place, to mutate it.
    @inlinable @inline(__always)
    internal func withChild<R>(_ slot: Int, _ body: (inout _ListNode) -> R) -> R {
        _assertMutable()
        return body(&_slots[slot].child)
    }

    /// Whether this node's slot holds the only reference to the child at `slot`.
    @inlinable @inline(__always)
    internal func isChildUnique(_ slot: Int) -> Bool {
        _assertMutable()
        return isKnownUniquelyReferenced(&_slots[slot].child)
    }

    /// Makes the child at `slot` unique: copies it when another node or list still holds it.
    @inlinable
    internal func makeChildUnique(_ slot: Int) {
        if !isChildUnique(slot) { _slots[slot].child = _slots[slot].child._copy() }
    }

    /// Adds `delta` to the running counts from `slot` on, after the child at `slot` gained
    /// or lost elements.
    @inlinable @inline(__always)
    internal func addToEnds(_ delta: Int, from slot: Int) {
        _assertMutable()
        var index = slot
        let width = childCount
        while index < width {
            _slots[index].end &+= delta
            index &+= 1
        }
    }

    /// Recomputes the running counts from `slot` on, and `count`, from the children's own
    /// counts, after children were added, removed or reshaped.
    @inlinable
    internal func refreshEnds(from slot: Int) {
        _assertMutable()
        var total = start(slot)
        var index = slot
        while index < childCount {
            total += child(index)._withUnsafeGuaranteedRef { $0.count }
            _slots[index].end = total
            index += 1
        }
        count = total
    }

    /// Adds `child` after the last child (room permitting), counting its elements.
    @inlinable
    internal func _appendChild(_ child: __owned _ListNode) {
        _assertMutable()
        let width = childCount
        let end = start(width) + child.count
        (_slots + width).initialize(to: _ListSlot(child: child, end: end))
        childCount = width + 1
        count = end
    }

    /// Inserts `child` at `slot`, moving the later ones right (room permitting). The running
    /// counts from `slot` on are left to the caller (`refreshEnds(from:)`).
    @inlinable
    internal func insertChild(_ child: __owned _ListNode, at slot: Int) {
        _assertMutable()
        let width = childCount
        (_slots + slot + 1).moveInitialize(from: _slots + slot, count: width - slot)
        (_slots + slot).initialize(to: _ListSlot(child: child, end: start(slot)))
        childCount = width + 1
    }

    /// Removes the child at `slot` and returns it, moving the later ones left. The running
    /// counts are left as they are.
    @inlinable
    @discardableResult
    internal func removeChild(at slot: Int) -> _ListNode {
        _assertMutable()
        let removed = (_slots + slot).move()
        let width = childCount
        (_slots + slot).moveInitialize(from: _slots + slot + 1, count: width - slot - 1)
        childCount = width - 1
        return removed.child
    }

    /// Moves `count` slots of `source`, from `sourceSlot` on, to the uninitialized slots of
    /// `target` from `targetSlot` on (the two may be the same node, and the ranges may overlap).
    /// Child counts and running counts are left to the caller.
    @inlinable
    internal static func moveSlots(
        _ count: Int, from source: Self, at sourceSlot: Int, to target: Self, at targetSlot: Int
    ) {
        source._assertMutable()
        target._assertMutable()
        (target._slots + targetSlot).moveInitialize(from: source._slots + sourceSlot, count: count)
    }
}
