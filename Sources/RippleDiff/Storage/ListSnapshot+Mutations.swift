// Writing: building, inserting, removing, replacing and moving. Every mutation makes each node on
// its path unique first (see `_InnerHandle.makeChildUnique(_:)`), so other copies never see it.

extension ListSnapshot: RangeReplaceableCollection {
    /// Creates a list of the elements of `elements`, in order, building the tree bottom-up.
    ///
    /// - Parameter elements: The elements.
    /// - Complexity: O(*n*) for *n* elements.
    @inlinable
    public init<S: Sequence<Element>>(_ elements: S) {
        if let list = elements as? ListSnapshot<Element> {
            self = list
            return
        }
        var builder = _Builder()
        builder.append(contentsOf: elements)
        self.init(_root: builder.finish())
        #if RIPPLE_INTERNAL_CHECKS
        _checkInvariants()
        #endif
    }

    /// Adds `element` at the end of the list.
    ///
    /// The element goes to the list's tail, a short chunk after the tree (copied first when
    /// another copy of the list holds it); a full tail goes into the tree, touching only the
    /// nodes on its right edge.
    ///
    /// - Parameter element: The element to append.
    /// - Complexity: O(1), plus O(log *n*) once per 4 to 32 appends (the tail's room) for *n*
    ///   elements.
    @inlinable
    public mutating func append(_ element: Element) {
        // No local reference to the tail: it would make the tail look shared and force a copy.
        if _tailHasRoom {
            if isKnownUniquelyReferenced(&_storage) {
                Self._asTail(_storage.unsafelyUnwrapped)._appendElement(element)
            } else {
                _copySharedTail(appending: element)
            }
        } else {
            _appendToNewTail(element)
        }
        #if RIPPLE_INTERNAL_CHECKS
        _checkInvariants()
        #endif
    }

    /// Appends the `count` elements at `source` to the tree's last leaf, moving them out of
    /// `source` or copying them, when the root and every node on the right edge are uniquely
    /// held and the leaf has room for all of them; returns `false` otherwise, having changed
    /// nothing.
    @inlinable
    internal mutating func _appendChunkInPlace(_ source: UnsafeMutablePointer<Element>, count: Int, moving: Bool)
        -> Bool
    {
        guard let leaf = _uniqueRightEdgeLeaf(), leaf._withUnsafeGuaranteedRef({ $0.count + count <= $0.room }) else {
            return false
        }
        leaf._withUnsafeGuaranteedRef { node in
            Self._leaf(node)._withPointers { header, elements in
                let end = elements + header.pointee.count
                if moving {
                    end.moveInitialize(from: source, count: count)
                } else {
                    end.initialize(from: source, count: count)
                }
                header.pointee.count += count
            }
        }
        _countOnRightEdge(count)
        return true
    }

    /// Appends `element` to the tree, after its last element.
    @inlinable
    internal mutating func _appendToTree(_ element: Element) {
        if !_appendInPlace(element) { _appendCopyingOrSplitting(element) }
    }

    /// The common append to the tree: when the root and every node on the right edge are
    /// uniquely held and the last leaf has room, appends there and counts the element on the way
    /// back down; returns `false` otherwise, having changed nothing.
    @inlinable
    internal mutating func _appendInPlace(_ element: Element) -> Bool {
        guard let leaf = _uniqueRightEdgeLeaf(), leaf._withUnsafeGuaranteedRef({ $0.count < $0.room }) else {
            return false
        }
        // The whole path is unique and the leaf has room: nothing below can fail.
        leaf._withUnsafeGuaranteedRef { Self._leaf($0)._appendElement(element) }
        _countOnRightEdge(1)
        return true
    }

    /// The tree's last leaf, unretained, when the root and every node on the right edge are
    /// uniquely held (each checked, from its parent), in one loop with no node retained; `nil`
    /// otherwise.
    @inlinable
    internal mutating func _uniqueRightEdgeLeaf() -> Unmanaged<_Node>? {
        guard _root != nil, isKnownUniquelyReferenced(&_root) else { return nil }
        // Unretained: `self` holds the root, and each node holds the next. The handle is mutable
        // because each node was just found uniquely held: the root by the check above, every
        // other node by the check of its parent's slot.
        var node = Unmanaged.passUnretained(_root.unsafelyUnwrapped)
        while node._withUnsafeGuaranteedRef({ $0.isInner }) {
            let next: Unmanaged<_Node>? = node._withUnsafeGuaranteedRef { inner in
                inner._asInner._withHandle(mutable: true) { handle in
                    let last = handle.childCount &- 1
                    return handle.isChildUnique(last) ? handle.child(last) : nil
                }
            }
            guard let next else { return nil }
            node = next
        }
        return node
    }

    /// Adds `added` to the counts of the inner nodes on the right edge, which must be uniquely
    /// held (`_uniqueRightEdgeLeaf()` found them so), after elements were added to the last leaf.
    @inlinable
    internal func _countOnRightEdge(_ added: Int) {
        var node = Unmanaged.passUnretained(_root.unsafelyUnwrapped)
        while node._withUnsafeGuaranteedRef({ $0.isInner }) {
            node = node._withUnsafeGuaranteedRef { inner in
                inner._asInner._withHandle(mutable: true) { handle in
                    handle.count &+= added
                    let last = handle.childCount &- 1
                    handle._slots[last].end &+= added
                    return handle.child(last)
                }
            }
        }
    }

    /// The general append: copies the shared nodes of the right edge and splits full ones.
    @inlinable
    internal mutating func _appendCopyingOrSplitting(_ element: Element) {
        if _root == nil {
            let leaf = _Leaf._create(capacity: 4)
            leaf._appendElement(element)
            _root = leaf
        } else {
            _makeRootUniqueWithRoom()
            if let right = Self._append(element, to: &_root!) { _growRoot(right) }
        }
    }

    /// Puts the root and `right`, its new right sibling, under a new root.
    @inlinable
    internal mutating func _growRoot(_ right: __owned _Node) {
        let left = _root._take().unsafelyUnwrapped
        let root = _Inner._create(height: left.height + 1)
        // New: nothing else holds it yet.
        root._withHandle(mutable: true) { handle in
            handle._appendChild(left)
            handle._appendChild(right)
        }
        _root = root
    }

    /// Adds the elements of `newElements` at the end of the list, in order.
    ///
    /// - Parameter newElements: The elements to append.
    /// - Complexity: O(*k* log *n*) for *k* new elements and *n* elements in the list; O(*k*)
    ///   when the list is empty.
    @inlinable
    public mutating func append<S: Sequence<Element>>(contentsOf newElements: S) {
        if isEmpty {
            self = ListSnapshot(newElements)
            return
        }
        for element in newElements { append(element) }
    }

    /// Inserts `element` so that it ends up at offset `index`.
    ///
    /// - Parameters:
    ///   - element: The element to insert.
    ///   - index: An offset in `0...count`; `count` appends.
    /// - Complexity: O(log *n*) for *n* elements.
    @inlinable
    public mutating func insert(_ element: Element, at index: Int) {
        let count = self.count
        if index < 0 || index > count { Self._outOfRange("insert(_:at:)", index, count, endInclusive: true) }
        if index == count {
            append(element)
            return
        }
        _flushTail()
        _makeRootUniqueWithRoom()
        if let right = Self._insert(element, at: index, in: &_root!, onRightEdge: true) { _growRoot(right) }
        #if RIPPLE_INTERNAL_CHECKS
        _checkInvariants()
        #endif
    }

    /// Removes and returns the element at `index`.
    ///
    /// - Parameter index: An offset in `0..<count`.
    /// - Returns: The removed element.
    /// - Complexity: O(log *n*) for *n* elements.
    @inlinable
    @discardableResult
    public mutating func remove(at index: Int) -> Element {
        _checkIndex(index, "remove(at:)")
        _flushTail()
        _makeRootUnique()
        let removed = Self._remove(at: index, from: &_root!, onRightEdge: true)
        _collapseRoot()
        #if RIPPLE_INTERNAL_CHECKS
        _checkInvariants()
        #endif
        return removed
    }

    /// Removes every element.
    ///
    /// - Parameter keepCapacity: Ignored: the list's storage is a tree of nodes that other copies
    ///   may share, so nothing is kept.
    /// - Complexity: O(1), plus freeing the nodes that no other copy holds.
    @inlinable
    public mutating func removeAll(keepingCapacity keepCapacity: Bool = false) {
        _storage = nil
    }

    /// Replaces the elements at `subrange` with the elements of `newElements`.
    ///
    /// A small replacement removes and inserts one element at a time; one that touches a large
    /// share of the list (at least a quarter) rebuilds the tree in one pass instead.
    ///
    /// - Parameters:
    ///   - subrange: A range of offsets within `0...count`.
    ///   - newElements: The elements to put in its place.
    /// - Complexity: O(*k* log *n*) for *n* elements and *k* = `subrange.count + newElements.count`.
    @inlinable
    public mutating func replaceSubrange<C: Collection<Element>>(_ subrange: Range<Int>, with newElements: C) {
        let count = self.count
        if subrange.lowerBound < 0 || subrange.upperBound > count {
            Self._outOfRange("replaceSubrange(_:with:)", subrange, count)
        }
        _flushTail()
        let inserted = newElements.count
        if (subrange.count + inserted) * 4 >= count {
            var builder = _Builder()
            if let root = _root {
                Self._forEachChunk(of: root, base: 0, in: 0..<subrange.lowerBound) { builder.append(chunk: $0) }
            }
            builder.append(contentsOf: newElements)
            if let root = _root {
                Self._forEachChunk(of: root, base: 0, in: subrange.upperBound..<count) { builder.append(chunk: $0) }
            }
            _root = builder.finish()
        } else {
            for _ in subrange {
                _makeRootUnique()
                Self._remove(at: subrange.lowerBound, from: &_root!, onRightEdge: true)
                _collapseRoot()
            }
            var offset = subrange.lowerBound
            for element in newElements {
                _insertWithoutChecks(element, at: offset)
                offset += 1
            }
        }
        #if RIPPLE_INTERNAL_CHECKS
        _checkInvariants()
        #endif
    }

    /// Moves the element at `source` so that it ends up at `destination`; the elements between
    /// shift by one place.
    ///
    /// ```swift
    /// var list: ListSnapshot = ["a", "b", "c", "d"]
    /// list.move(fromOffset: 0, toOffset: 2)
    /// print(list)
    /// // ["b", "c", "a", "d"]
    /// ```
    ///
    /// - Parameters:
    ///   - source: The element's offset, in `0..<count`.
    ///   - destination: The element's offset afterwards, in `0..<count`.
    /// - Complexity: O(log *n*) for *n* elements.
    @inlinable
    public mutating func move(fromOffset source: Int, toOffset destination: Int) {
        let count = self.count
        if source < 0 || source >= count { Self._outOfRange("move(fromOffset:toOffset:)", source, count) }
        if destination < 0 || destination >= count {
            Self._outOfRange("move(fromOffset:toOffset:)", destination, count)
        }
        guard source != destination else { return }
        _flushTail()
        _makeRootUnique()
        let element = Self._remove(at: source, from: &_root!, onRightEdge: true)
        _collapseRoot()
        _insertWithoutChecks(element, at: destination)
        #if RIPPLE_INTERNAL_CHECKS
        _checkInvariants()
        #endif
    }

    /// Inserts `element` at `index` (in `0...count`, not checked) in the tree of a list with no
    /// tail, with no invariant check.
    @inlinable
    internal mutating func _insertWithoutChecks(_ element: Element, at index: Int) {
        assert(!_hasTail, "ListSnapshot: an insertion into the tree of a list with a tail")
        // No local reference to the root may live across `_makeRootUnique()`: it would make the
        // root look shared and force a copy.
        let count = self.count
        if count == 0 {
            _appendCopyingOrSplitting(element)
            return
        }
        _makeRootUniqueWithRoom()
        let right =
            index == count
            ? Self._append(element, to: &_root!)
            : Self._insert(element, at: index, in: &_root!, onRightEdge: true)
        if let right { _growRoot(right) }
    }

    /// After a removal: drops an empty root, and replaces an inner root that has one child with
    /// that child, until the root is a leaf or has at least two children.
    @inlinable
    internal mutating func _collapseRoot() {
        while let root = _root {
            if root.count == 0 {
                _root = nil
            } else if root.isInner && root._asInner._withHandle({ $0.childCount == 1 }) {
                // A strong reference to the child, read while the root is alive (the handle's
                // closure keeps it so), before the root is released.
                _root = root._asInner._withHandle { $0._slots[0].child }
            } else {
                return
            }
        }
    }
}
