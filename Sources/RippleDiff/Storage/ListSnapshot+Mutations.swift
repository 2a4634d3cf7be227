// Writing: building, inserting, removing, replacing and moving. Every mutation makes each node on
// its path unique first (see `_Node._uniqueChild(_:)`), so other copies never see it.

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
    /// Only the nodes on the right edge of the tree are touched: the last leaf takes the element,
    /// and a full last leaf leaves a full leaf behind and starts a new one.
    ///
    /// - Parameter element: The element to append.
    /// - Complexity: O(log *n*) for *n* elements; amortized O(1) node copies when no other copy
    ///   holds the right edge.
    @inlinable
    public mutating func append(_ element: Element) {
        if !_appendInPlace(element) { _appendCopyingOrSplitting(element) }
        #if RIPPLE_INTERNAL_CHECKS
        _checkInvariants()
        #endif
    }

    /// The common append, in one loop with no node retained: when the root and every node on the
    /// right edge are uniquely held (each checked, from its parent) and the last leaf has room,
    /// appends there and counts the element on the way back down; returns `false` otherwise,
    /// having changed nothing but, at most, given a checked node a `children` buffer of its own.
    @inlinable
    internal mutating func _appendInPlace(_ element: Element) -> Bool {
        guard _root != nil, isKnownUniquelyReferenced(&_root) else { return false }
        // Unretained: `self` holds the root, and each node holds the next.
        let root = Unmanaged.passUnretained(_root.unsafelyUnwrapped)
        var node = root
        while node._withUnsafeGuaranteedRef({ $0.height }) > 0 {
            guard let child = node._withUnsafeGuaranteedRef({ $0._uniqueLastChild() }) else { return false }
            node = child
        }
        guard node._withUnsafeGuaranteedRef({ $0.count < $0.room }) else { return false }
        // The whole path is unique and the leaf has room: nothing below can fail.
        node._withUnsafeGuaranteedRef { $0._appendToLeaf(element) }
        node = root
        while node._withUnsafeGuaranteedRef({ $0.height }) > 0 {
            node = node._withUnsafeGuaranteedRef { inner in
                inner.count &+= 1
                let last = inner.ends.count &- 1
                inner.ends[last] &+= 1
                return inner.children.withUnsafeBufferPointer { Unmanaged.passUnretained($0[last]) }
            }
        }
        return true
    }

    /// The general append: copies the shared nodes of the right edge and splits full ones.
    @inlinable
    internal mutating func _appendCopyingOrSplitting(_ element: Element) {
        if _root == nil {
            let leaf = _Node._makeLeaf(capacity: 4)
            leaf._appendToLeaf(element)
            _root = leaf
        } else {
            let root = _uniqueRootWithRoom()
            if let right = root._append(element) {
                _root = _Node._makeInner(height: root.height + 1, children: [root, right])
            }
        }
    }

    /// Adds the elements of `newElements` at the end of the list, in order.
    ///
    /// - Parameter newElements: The elements to append.
    /// - Complexity: O(*k* log *n*) for *k* new elements and *n* elements in the list; O(*k*)
    ///   when the list is empty.
    @inlinable
    public mutating func append<S: Sequence<Element>>(contentsOf newElements: S) {
        if _root == nil {
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
        let root = _uniqueRootWithRoom()
        if let right = root._insert(element, at: index, onRightEdge: true) {
            _root = _Node._makeInner(height: root.height + 1, children: [root, right])
        }
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
        let removed = _uniqueRoot()._remove(at: index, onRightEdge: true)
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
        _root = nil
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
        let inserted = newElements.count
        if (subrange.count + inserted) * 4 >= count {
            var builder = _Builder()
            if let root = _root {
                root._forEachChunk(base: 0, in: 0..<subrange.lowerBound) { builder.append(chunk: $0) }
            }
            builder.append(contentsOf: newElements)
            if let root = _root {
                root._forEachChunk(base: 0, in: subrange.upperBound..<count) { builder.append(chunk: $0) }
            }
            _root = builder.finish()
        } else {
            for _ in subrange {
                _uniqueRoot()._remove(at: subrange.lowerBound, onRightEdge: true)
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
        let element = _uniqueRoot()._remove(at: source, onRightEdge: true)
        _collapseRoot()
        _insertWithoutChecks(element, at: destination)
        #if RIPPLE_INTERNAL_CHECKS
        _checkInvariants()
        #endif
    }

    /// Inserts `element` at `index` (in `0...count`, not checked), with no invariant check.
    @inlinable
    internal mutating func _insertWithoutChecks(_ element: Element, at index: Int) {
        // No local reference to the root may live across `_uniqueRoot()`: it would make the root
        // look shared and force a copy.
        let count = self.count
        if count == 0 {
            _appendCopyingOrSplitting(element)
            return
        }
        let root = _uniqueRootWithRoom()
        let right = index == count ? root._append(element) : root._insert(element, at: index, onRightEdge: true)
        if let right {
            _root = _Node._makeInner(height: root.height + 1, children: [root, right])
        }
    }

    /// After a removal: drops an empty root, and replaces an inner root that has one child with
    /// that child, until the root is a leaf or has at least two children.
    @inlinable
    internal mutating func _collapseRoot() {
        while let root = _root {
            if root.count == 0 {
                _root = nil
            } else if root.height > 0 && root.children.count == 1 {
                _root = root.children[0]
            } else {
                return
            }
        }
    }
}
