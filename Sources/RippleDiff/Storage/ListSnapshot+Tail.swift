// The tail, and the list's one reference.
//
// A list is one reference, `_storage`: nothing, the tree's root, or a tail that holds the root in
// its header (`_ListNodeHeader.tree`). So copying a list (each published snapshot is a copy) is
// one retain, and dropping it one release, whether or not it has a tail. The tail is a `_Leaf` of
// kind `.tail` (never `.leaf`: it is not in the tree) with room for `_tailCapacity` elements, after
// the tree's.
//
// Appends fill the tail in place while the list holds it alone. While another list shares it,
// an append copies the tail, which retains the tree, and leaves the tree alone. A full tail goes
// into the tree in one step, and so does the tail before any change other than an append or a
// write to one element: every other mutation works on a list whose storage is its root.
//
// `_root` reads the tree through the tail; written (`_root = …`, `&_root!`), it makes the tail
// unique first, then lends the root out of it, so that the root's own uniqueness shows to
// `isKnownUniquelyReferenced`, and puts it back.

extension ListSnapshot {
    /// Whether the list has a tail.
    @inlinable
    internal var _hasTail: Bool {
        guard let storage = _storage else { return false }
        return storage.isTail
    }

    /// Whether the list has a tail with room for one more element.
    @inlinable
    internal var _tailHasRoom: Bool {
        guard let storage = _storage else { return false }
        return storage._withHeader { $0.pointee.kind == .tail && $0.pointee.count < Self._tailCapacity }
    }

    /// `node`, which must be a tail, as the `_Leaf` it is (checked in debug builds).
    ///
    /// Not checked in release builds, unlike `_leafOrTail(_:)` and `_ListNode._asInner`: every
    /// caller has just found from the list's storage that it is a tail (`_hasTail`,
    /// `_tailHasRoom`, `_treeCount`, or the tail it made), and a second read of the kind would be
    /// on every append's path.
    @inlinable @inline(__always)
    internal static func _asTail(_ node: _Node) -> _Leaf {
        assert(node.isTail, "ListSnapshot: a node of the tree used as the tail")
        // Safe: a node of kind `.tail` is only ever made by `_Leaf._createTail(after:)`, which
        // allocates a `_Leaf` of this list's element type, and the kind never changes.
        return unsafeDowncast(node, to: _Leaf.self)
    }

    /// The list's tail: its last elements, after the tree's, in a short leaf of its own (1 to
    /// `_tailCapacity` elements), or `nil`.
    @inlinable
    internal var _tail: _Leaf? {
        guard let storage = _storage, storage.isTail else { return nil }
        return Self._asTail(storage)
    }

    /// The tree's root: `nil` when the tree is empty, a leaf while it fits in one chunk. The tree
    /// holds the list's first elements, all of them but the tail's.
    @inlinable
    internal var _root: _Node? {
        get {
            guard let storage = _storage else { return nil }
            return storage.isTail ? storage.tree : storage
        }
        _modify {
            if _hasTail {
                _makeTailUnique()
                // Lent out of the tail, which is now unique: while the caller has it, this is its
                // only reference when no other list holds the tree.
                var root = Self._asTail(_storage.unsafelyUnwrapped)._takeTree()
                defer { Self._asTail(_storage.unsafelyUnwrapped)._putTree(root) }
                yield &root
            } else {
                yield &_storage
            }
        }
    }

    /// The number of elements in the tree, the tail aside.
    @inlinable
    internal var _treeCount: Int {
        guard let storage = _storage else { return 0 }
        return storage._withHeader { header in
            header.pointee.kind == .tail ? header.pointee.tree?.count ?? 0 : header.pointee.count
        }
    }

    /// Makes the tail unique (copying it when another list still holds it; the copy shares the
    /// tree). The list must have a tail.
    @inlinable
    internal mutating func _makeTailUnique() {
        if !isKnownUniquelyReferenced(&_storage) { _copySharedTail(appending: nil) }
    }

    /// Replaces the tail, which another list shares (a held snapshot makes every append come
    /// here), with a copy that shares the tree, and has `appended` after the tail's elements when
    /// given (the tail must then have room for it).
    @inlinable
    internal mutating func _copySharedTail(appending appended: Element?) {
        // Taken out, not read: the shared tail is released once, at the end, with no retain of a
        // temporary copy.
        let shared = Self._asTail(_storage._take().unsafelyUnwrapped)
        _storage = shared._copyTail(appending: appended)
    }

    /// The append that finds no tail or a full one: moves the full one into the tree, then
    /// starts a tail with `element`.
    @inlinable
    internal mutating func _appendToNewTail(_ element: Element) {
        _flushTail()
        _storage = _Leaf._createTail(after: _storage._take())
        Self._asTail(_storage.unsafelyUnwrapped)._appendElement(element)
    }

    /// Moves the tail's elements into the tree, after its own, and drops the tail, leaving the
    /// root as the list's storage: before any change other than an append, and when the tail is
    /// full.
    @inlinable
    internal mutating func _flushTail() {
        guard _hasTail else { return }
        // Taken out of the list: the elements (and the tree) move out of the tail when no other
        // list holds it, and are copied (retained) otherwise.
        var tail = Self._asTail(_storage._take().unsafelyUnwrapped)
        let moving = isKnownUniquelyReferenced(&tail)
        _storage = moving ? tail._takeTree() : tail.tree
        tail._withPointers { header, elements in
            let count = header.pointee.count
            var offset = 0
            while offset < count {
                // Usually the whole tail in one step, into the last leaf; else one element (which
                // copies the shared nodes of the right edge, or splits the last leaf), and the
                // rest in one step again.
                if _appendChunkInPlace(elements + offset, count: count - offset, moving: moving) { break }
                _appendToTree(moving ? (elements + offset).move() : elements[offset])
                offset += 1
            }
            if moving { header.pointee.count = 0 }
        }
    }
}
