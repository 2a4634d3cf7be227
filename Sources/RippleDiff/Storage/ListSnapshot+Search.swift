// Finding an offset: the binary search of an inner node's running counts, the descent to one
// element, and the walk over the leaves of a range.
//
// Reads pass nodes as `Unmanaged`, unretained: the list or iterator that reads keeps the root,
// and through it every node below, alive, and a node reachable from a root that someone holds is
// never mutated in place (the mutation copies it). That spares a retain and a release per node
// visited.

extension _ListInnerHandle {
    /// The child that holds `offset` and the offset within it. With `inserting`, an offset at the
    /// boundary of two children goes to the end of the left one (and `offset == count` to the
    /// last child).
    ///
    /// It reads only the running counts: the slot is the number of children before the last one
    /// that end at or before `offset` (before it, with `inserting`), found by a binary search
    /// whose steps select rather than branch (about five steps for 32 children, none
    /// mispredicted).
    @inlinable @inline(__always)
    internal func childSlot(for offset: Int, inserting: Bool) -> (slot: Int, offset: Int) {
        // The last child takes every offset past the others, so only the first `length` count.
        var length = childCount &- 1
        guard length > 0 else { return (0, offset) }
        let bound = inserting ? offset &- 1 : offset
        let slots = _slots
        // `low` ends as the last index in 0..<length whose end is at most `bound` (or 0).
        var low = 0
        while length > 1 {
            let half = length &>> 1
            low = slots[low &+ half].end <= bound ? low &+ half : low
            length &-= half
        }
        let slot = slots[low].end <= bound ? low &+ 1 : low
        return (slot, slot == 0 ? offset : offset &- slots[slot &- 1].end)
    }
}

extension ListSnapshot {
    /// The element at `offset` (in `0..<root.count`, not checked).
    ///
    /// The descent holds no reference of its own to the nodes it passes: `root` is held until the
    /// element is copied out (`_fixLifetime(root)`, as the accessors do), and with it the whole
    /// path, and no node on the path can change during it (a read holds no unique reference).
    /// That saves a retain and a release per level.
    @inlinable
    internal static func _element(at offset: Int, in root: _Node) -> Element {
        defer { _fixLifetime(root) }
        var node = Unmanaged.passUnretained(root)
        var offset = offset
        while true {
            let next: Unmanaged<ListSnapshot._Node>? = node._withUnsafeGuaranteedRef { current in
                guard current.isInner else { return nil }
                return current._asInner._withHandle { handle in
                    let (slot, local) = handle.childSlot(for: offset, inserting: false)
                    offset = local
                    return handle.child(slot)
                }
            }
            guard let next else { break }
            node = next
        }
        return node._withUnsafeGuaranteedRef { leaf in _leaf(leaf)._withPointers { _, elements in elements[offset] } }
    }

    /// Calls `body` with each leaf's elements that fall in `range` (offsets relative to `node`,
    /// whose first element is at `base`), in order.
    @inlinable
    internal static func _forEachChunk(
        of node: _Node, base: Int, in range: Range<Int>, _ body: (UnsafeBufferPointer<Element>) throws -> Void
    ) rethrows {
        if !node.isInner {
            try _leaf(node)._withBuffer { elements in
                let lower = Swift.max(range.lowerBound - base, 0)
                let upper = Swift.min(range.upperBound - base, elements.count)
                guard lower < upper else { return }
                try body(UnsafeBufferPointer(rebasing: elements[lower..<upper]))
            }
            return
        }
        // The child and its bounds are read inside the handle's closure, `body` is called outside
        // it: this node (held through the root) keeps the child alive.
        let inner = node._asInner
        let width = inner._withHandle { $0.childCount }
        var slot = 0
        while slot < width {
            let (child, start, end) = inner._withHandle { ($0.child(slot), $0.start(slot), $0.end(slot)) }
            if base + start >= range.upperBound { return }
            if base + end > range.lowerBound {
                try child._withUnsafeGuaranteedRef { try _forEachChunk(of: $0, base: base + start, in: range, body) }
            }
            slot += 1
        }
    }
}
