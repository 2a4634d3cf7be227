// Changing a subtree in place: replacing, inserting and removing an element, splitting a full
// node and mending one that fell under half full.
//
// Each function takes the reference to its node `inout`, from the place that holds it (the list's
// root, or its parent's slot), after that place was made the node's only reference: the root by
// `ListSnapshot._makeRootUnique()`, a child by `_InnerHandle.makeChildUnique(_:)` just before the
// descent into it. So a mutation copies exactly the nodes on its path that another list or node
// still holds, and the debug assertions of `_withMutableInner` and `_withMutableLeaf` check it.

extension ListSnapshot {
    /// Replaces the element at `offset` in the subtree at `node`.
    @inlinable
    internal static func _set(_ element: Element, at offset: Int, in node: inout _Node) {
        if !node.isInner {
            _withMutableLeaf(&node) { _, elements in elements[offset] = element }
            return
        }
        _withMutableInner(&node) { handle in
            let (slot, local) = handle.childSlot(for: offset, inserting: false)
            handle.makeChildUnique(slot)
            handle.withChild(slot) { _set(element, at: local, in: &$0) }
        }
    }

    /// Appends `element` at the end of the subtree at `node`; returns the new right sibling when
    /// the node overflowed.
    @inlinable
    internal static func _append(_ element: Element, to node: inout _Node) -> _Node? {
        if !node.isInner { return _insertInLeaf(element, at: node.count, in: &node, onRightEdge: true) }
        return _withMutableInner(&node) { handle in
            handle.count += 1
            let last = handle.childCount - 1
            handle.makeChildUnique(last)
            guard let right = handle.withChild(last, { _append(element, to: &$0) }) else {
                handle.addToEnds(1, from: last)
                return nil
            }
            handle.insertChild(right, at: last + 1)
            handle.refreshEnds(from: last)
            return handle.childCount > _innerCapacity ? _split(handle, onRightEdge: true) : nil
        }
    }

    /// Inserts `element` at `offset` (in `0...count`) in the subtree at `node`; returns the new
    /// right sibling when the node overflowed.
    @inlinable
    internal static func _insert(_ element: Element, at offset: Int, in node: inout _Node, onRightEdge: Bool) -> _Node?
    {
        if !node.isInner { return _insertInLeaf(element, at: offset, in: &node, onRightEdge: onRightEdge) }
        return _withMutableInner(&node) { handle in
            handle.count += 1
            let (slot, local) = handle.childSlot(for: offset, inserting: true)
            let isLast = slot == handle.childCount - 1
            handle.makeChildUnique(slot)
            let right = handle.withChild(slot) {
                _insert(element, at: local, in: &$0, onRightEdge: onRightEdge && isLast)
            }
            guard let right else {
                handle.addToEnds(1, from: slot)
                return nil
            }
            handle.insertChild(right, at: slot + 1)
            handle.refreshEnds(from: slot)
            return handle.childCount > _innerCapacity ? _split(handle, onRightEdge: onRightEdge) : nil
        }
    }

    /// Inserts `element` at `offset` (in `0...count`) in the leaf at `node`, which has room for
    /// it unless it is full; a full leaf is split, and the new right sibling is returned. On the
    /// right edge the leaf keeps a full chunk (appends then leave full leaves behind); elsewhere
    /// it keeps half of its elements and the new one, so both halves are at least half full.
    @inlinable
    internal static func _insertInLeaf(
        _ element: Element, at offset: Int, in node: inout _Node, onRightEdge: Bool
    ) -> _Node? {
        _withMutableLeaf(&node) { header, elements in
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
            let right = _Leaf._create(capacity: _leafCapacity)
            right._withPointers { rightHeader, target in
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

    /// Moves the children past the node's share into a new right sibling and returns it. On the
    /// right edge the node keeps a full set (appends then leave full nodes behind); elsewhere it
    /// keeps half, so both halves are at least half full. The node's counts must be up to date.
    @inlinable
    internal static func _split(_ handle: _InnerHandle, onRightEdge: Bool) -> _Node {
        let width = handle.childCount
        let keep = onRightEdge ? _innerCapacity : (width + 1) / 2
        let kept = handle.end(keep - 1)
        let right = _Inner._create(height: handle.height)
        // New: nothing else holds it yet.
        right._withHandle(mutable: true) { target in
            _InnerHandle.moveSlots(width - keep, from: handle, at: keep, to: target, at: 0)
            target.childCount = width - keep
            target.addToEnds(-kept, from: 0)
            target.count = handle.count - kept
        }
        handle.childCount = keep
        handle.count = kept
        return right
    }

    /// Removes and returns the element at `offset` (in `0..<count`) of the subtree at `node`,
    /// then mends the child it came from: an emptied child goes, a child under half full (off the
    /// right edge) is merged with or refilled from a neighbour.
    @inlinable
    @discardableResult
    internal static func _remove(at offset: Int, from node: inout _Node, onRightEdge: Bool) -> Element {
        if !node.isInner {
            return _withMutableLeaf(&node) { header, elements in
                let count = header.pointee.count - 1
                header.pointee.count = count
                let removed = (elements + offset).move()
                (elements + offset).moveInitialize(from: elements + offset + 1, count: count - offset)
                return removed
            }
        }
        return _withMutableInner(&node) { handle in
            handle.count -= 1
            let (slot, local) = handle.childSlot(for: offset, inserting: false)
            let isLast = slot == handle.childCount - 1
            handle.makeChildUnique(slot)
            let removed = handle.withChild(slot) {
                _remove(at: local, from: &$0, onRightEdge: onRightEdge && isLast)
            }
            handle.addToEnds(-1, from: slot)
            _mendChild(handle, at: slot, onRightEdge: onRightEdge)
            return removed
        }
    }

    /// Restores the bounds of the child at `slot` after a removal from it.
    @inlinable
    internal static func _mendChild(_ handle: _InnerHandle, at slot: Int, onRightEdge: Bool) {
        if handle.end(slot) == handle.start(slot) {
            // Emptied. Its running count equals the one before it: the others stay right.
            handle.removeChild(at: slot)
            return
        }
        let isLast = slot == handle.childCount - 1
        let isWideEnough = handle.child(slot)._withUnsafeGuaranteedRef { $0.width >= _minimumWidth($0) }
        if isWideEnough || (onRightEdge && isLast) || handle.childCount == 1 { return }
        _rebalance(handle, leftSlot: isLast ? slot - 1 : slot)
    }

    /// Merges the children at `leftSlot` and `leftSlot + 1` when they fit in one node, or else
    /// shares their entries evenly between them.
    @inlinable
    internal static func _rebalance(_ handle: _InnerHandle, leftSlot: Int) {
        handle.makeChildUnique(leftSlot)
        handle.makeChildUnique(leftSlot + 1)
        let merged = handle.withChild(leftSlot) { left in
            handle.withChild(leftSlot + 1) { right in
                left.isInner ? _rebalanceInner(&left, &right) : _rebalanceLeaves(&left, &right)
            }
        }
        if merged {
            // The merged child ends where the right one did; the emptied right one goes.
            let end = handle.end(leftSlot + 1)
            handle.removeChild(at: leftSlot + 1)
            handle._slots[leftSlot].end = end
        } else {
            handle._slots[leftSlot].end =
                handle.start(leftSlot) + handle.child(leftSlot)._withUnsafeGuaranteedRef(\.count)
        }
    }

    /// Moves all of `right`'s elements into `left` when they fit (returns `true`, leaving `right`
    /// empty), or else shares them evenly.
    @inlinable
    internal static func _rebalanceLeaves(_ left: inout _Node, _ right: inout _Node) -> Bool {
        _withMutableLeaf(&left) { leftHeader, leftElements in
            _withMutableLeaf(&right) { rightHeader, rightElements in
                let leftCount = leftHeader.pointee.count
                let rightCount = rightHeader.pointee.count
                let total = leftCount + rightCount
                if total <= _leafCapacity {
                    (leftElements + leftCount).moveInitialize(from: rightElements, count: rightCount)
                    leftHeader.pointee.count = total
                    rightHeader.pointee.count = 0
                    return true
                }
                let leftWidth = (total + 1) / 2
                if leftCount < leftWidth {
                    let moving = leftWidth - leftCount
                    (leftElements + leftCount).moveInitialize(from: rightElements, count: moving)
                    rightElements.moveInitialize(from: rightElements + moving, count: rightCount - moving)
                } else {
                    let moving = leftCount - leftWidth
                    (rightElements + moving).moveInitialize(from: rightElements, count: rightCount)
                    rightElements.moveInitialize(from: leftElements + leftWidth, count: moving)
                }
                leftHeader.pointee.count = leftWidth
                rightHeader.pointee.count = total - leftWidth
                return false
            }
        }
    }

    /// Moves all of `right`'s children into `left` when they fit (returns `true`, leaving
    /// `right` empty), or else shares them evenly.
    @inlinable
    internal static func _rebalanceInner(_ left: inout _Node, _ right: inout _Node) -> Bool {
        _withMutableInner(&left) { left in
            _withMutableInner(&right) { right in
                let leftWidth = left.childCount
                let rightWidth = right.childCount
                let total = leftWidth + rightWidth
                if total <= _innerCapacity {
                    _InnerHandle.moveSlots(rightWidth, from: right, at: 0, to: left, at: leftWidth)
                    left.childCount = total
                    right.childCount = 0
                    right.count = 0
                    left.refreshEnds(from: leftWidth)
                    return true
                }
                let newLeftWidth = (total + 1) / 2
                if leftWidth < newLeftWidth {
                    let moving = newLeftWidth - leftWidth
                    _InnerHandle.moveSlots(moving, from: right, at: 0, to: left, at: leftWidth)
                    _InnerHandle.moveSlots(rightWidth - moving, from: right, at: moving, to: right, at: 0)
                } else {
                    let moving = leftWidth - newLeftWidth
                    _InnerHandle.moveSlots(rightWidth, from: right, at: 0, to: right, at: moving)
                    _InnerHandle.moveSlots(moving, from: left, at: newLeftWidth, to: right, at: 0)
                }
                left.childCount = newLeftWidth
                right.childCount = total - newLeftWidth
                left.refreshEnds(from: 0)
                right.refreshEnds(from: 0)
                return false
            }
        }
    }
}
