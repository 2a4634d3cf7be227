// Why this file is long: it is the only code that reaches into a node's memory (the header, a
// leaf's elements, an inner node's slots, a tail's tree), kept in one file so that every unsafe
// access, and the reason it is safe, can be read together.
//
// The tree's nodes: what each holds, how it is allocated, and the only code that reaches into its
// memory.
//
// Every node is one allocation: a `_Header`, then its entries. A leaf's entries are elements; an
// inner node's are `_Slot`s, each a child and the running count of the children up to it, so that
// copying an inner node is one allocation plus a retain of each child. A list's tail is a leaf
// after the tree, not in it. The two classes are final subclasses of `_ListNode`, which has no
// stored properties: `ManagedBufferPointer` allocates them with their tail
// (`init(bufferClass:minimumCapacity:makingHeaderWith:)`), and puts the header at the same place in
// both, so the header of a node of either class can be read before its class is known. The
// header's `kind` (`_ListNodeKind`) then says what the node is: a leaf of a tree, an inner node, or
// a tail. Code that branches on a node takes the inner node's path only on `isInner`, and the two
// downcasts that a wrong kind would make unsound check it in every build: `_asInner` (through
// which a leaf's or a tail's elements would be read as slots) and `_leafOrTail(_:)`. So a tail is
// never taken for an inner node. Only a leaf depends on the element type: the inner node, its
// slots and its handle are not generic, so freeing or copying one runs specialized code, with no
// generic metadata to look up (a generic inner node's `deinit` looked up its slot type's metadata
// each time).
//
// Memory is reached only inside closures: `_ListNode._withHeader(_:)`, `_Leaf._withPointers(_:)` and
// `_ListInner._withHandle(mutable:_:)`, each of which keeps its node alive until the closure returns
// (`ManagedBufferPointer.withUnsafeMutablePointers` ends with `_fixLifetime`). No pointer is
// returned out of one (a pointer that escaped `withUnsafeMutablePointerToHeader { $0 }` once let
// the optimizer free a root before the last read through it, in release builds only), except the
// iterator's pointer to its current leaf's elements, which `ListSnapshot+Collection.swift`
// explains. A child handed out of a closure is an `Unmanaged` reference, valid while the root it
// was reached from is held, or a strong one.
//
// A node is mutated only through a mutable handle, and only while its one reference is the place
// the mutation reached it from (the list's root, or its parent's slot, each checked with
// `isKnownUniquelyReferenced` and copied when shared: see `_ListInnerHandle.makeChildUnique(_:)`).
// `ListSnapshot._withMutableInner(_:_:)` and `_withMutableLeaf(_:_:)` take that place `inout` and
// assert its uniqueness in debug builds.
//
// Exclusivity: the fields live in the allocation's tail, read and written through pointers, so
// they are not checked at run time (a class's stored property would be: a runtime call per
// access, on the hottest path of every read). The static rules still hold, and no
// access can overlap another: a node is mutated only by the one mutating method of the one list
// value that holds its whole path uniquely (so no other code can be reading it), no method here
// calls out to user code while it mutates a node, and the visitors that call user code
// (`_forEachChunk`, the iterator) read nodes that the visiting list or iterator itself keeps
// referenced, so a mutation started from inside the visit finds them shared and copies them.

/// What a node is, stored in its header: which class it was allocated as, and whether a leaf is
/// in a tree or is a list's tail.
@usableFromInline
internal enum _ListNodeKind {
    /// A leaf of a tree: a `ListSnapshot._Leaf`, of height 0.
    case leaf

    /// An inner node of a tree: a `_ListInner`, of height 1 or more.
    case inner

    /// A list's tail: a `ListSnapshot._Leaf` after the tree, not in it, that holds the tree's
    /// root (see `_ListNodeHeader.tree`). Never a node of a tree.
    case tail
}

/// A node's fields, at the start of its one allocation.
@usableFromInline
internal struct _ListNodeHeader {
    /// What the node is; set when the node is created, by its class's `_create`, and never
    /// changed, so that it always names the node's class.
    @usableFromInline
    internal let kind: _ListNodeKind

    /// 0 for a leaf or a tail; one more than its children's for an inner node. Every leaf of a
    /// tree has the same depth. An `Int32`, so that it shares a word with `kind` and the header
    /// keeps the size it had when the height was an `Int`.
    @usableFromInline
    internal let height: Int32

    /// The number of elements in this subtree (in a leaf, its initialized elements).
    @usableFromInline
    internal var count: Int

    /// An inner node's number of children (its initialized slots); 0 in a leaf.
    @usableFromInline
    internal var childCount: Int

    /// A leaf's room for elements (`_leafCapacity`, or fewer for a root leaf that has not grown
    /// yet); an inner node's room for slots (`_listInnerCapacity + 1`: one more than it may keep,
    /// for the child that an insertion adds before the node splits).
    @usableFromInline
    internal let capacity: Int

    /// A tail's tree: the root of the tree whose elements come before the tail's (`nil` when the
    /// list is the tail alone). `nil` in every node of a tree. The list holds its tail, and the
    /// tail its tree, so that a list is one reference, and a copy of it one retain.
    @usableFromInline
    internal var tree: _ListNode?

    @inlinable
    internal init(
        kind: _ListNodeKind, height: Int, count: Int, childCount: Int, capacity: Int,
        tree: __owned _ListNode? = nil
    ) {
        self.kind = kind
        self.height = Int32(height)
        self.count = count
        self.childCount = childCount
        self.capacity = capacity
        self.tree = tree
    }
}

/// The most children an inner node keeps (see `ListSnapshot._innerCapacity`).
@inlinable
internal var _listInnerCapacity: Int { 32 }

/// An inner node's entry: a child, and the number of elements in the children up to and including
/// it (the running count), so that a search reads the ends and a descent the child next to them.
@usableFromInline
internal struct _ListSlot {
    @usableFromInline
    internal var child: _ListNode

    @usableFromInline
    internal var end: Int

    @inlinable
    internal init(child: _ListNode, end: Int) {
        self.child = child
        self.end = end
    }
}

/// A node of a `ListSnapshot`, of either class: `ListSnapshot._Leaf` (a leaf of a tree, or a tail)
/// or `_ListInner`. It has no stored properties; the header and the entries live in the
/// allocation's tail.
@usableFromInline
internal class _ListNode {
    @usableFromInline
    internal init() {
        // Never called: nodes are allocated by `ManagedBufferPointer`, with their tail.
        preconditionFailure("a ListSnapshot node is allocated by _Leaf._create or _ListInner._create")
    }

    /// A copy of this node: an inner node's shares its children (one allocation, and a retain of
    /// each child), a leaf's holds copies of its elements, with the same room.
    @usableFromInline
    internal func _copy() -> _ListNode {
        preconditionFailure("overridden by both classes of node")
    }
}

/// An inner node: its header, then room for `capacity` slots, of which the first `childCount` are
/// initialized.
@usableFromInline
internal final class _ListInner: _ListNode {
    deinit {
        _withHandle(mutable: true) { handle in
            // Slot by slot: `deinitialize(count:)` calls the runtime's array destroy, which
            // releases each child through the slot type's value witness.
            for slot in 0..<handle.childCount { _ = (handle._slots + slot).move() }
            handle._header.deinitialize(count: 1)
        }
    }

    @inlinable
    override internal func _copy() -> _ListNode { _copyInner() }
}

/// An inner node's memory: its header, then its slots.
@usableFromInline
internal typealias _ListInnerPointer = ManagedBufferPointer<_ListNodeHeader, _ListSlot>

extension ListSnapshot {
    @usableFromInline internal typealias _Header = _ListNodeHeader
    @usableFromInline internal typealias _Node = _ListNode
    @usableFromInline internal typealias _Inner = _ListInner
    @usableFromInline internal typealias _Slot = _ListSlot
    @usableFromInline internal typealias _InnerHandle = _ListInnerHandle

    /// A leaf: its header, then room for `capacity` elements, of which the first `count` are
    /// initialized.
    @usableFromInline
    internal final class _Leaf: _ListNode {
        deinit {
            // A generic class's `deinit` is never specialized: elements that need no destruction
            // (`Int`s, structs of them) skip the generic element pointer and its closure, and the
            // header (a tail's tree) is destroyed through the non-generic header access. Every
            // held snapshot's tail ends here.
            if _isPOD(Element.self) {
                _withHeader { header in _ = header.deinitialize(count: 1) }
                return
            }
            _withPointers { header, elements in
                elements.deinitialize(count: header.pointee.count)
                header.deinitialize(count: 1)
            }
        }

        @inlinable
        override internal func _copy() -> _ListNode { _copyLeaf() }
    }

    /// A leaf's memory: its header, then its elements.
    @usableFromInline
    internal typealias _LeafPointer = ManagedBufferPointer<_Header, Element>

    /// `node`, a leaf of the tree, as the `_Leaf` it is (checked in debug builds; that it is no
    /// inner node, in every build).
    @inlinable @inline(__always)
    internal static func _leaf(_ node: _Node) -> _Leaf {
        assert(!node.isTail, "ListSnapshot: the tail used as a leaf of the tree")
        return _leafOrTail(node)
    }

    /// `node`, a leaf of the tree or the tail, as the `_Leaf` it is. An inner node traps, in
    /// every build: it is what would make the downcast unsound.
    @inlinable @inline(__always)
    internal static func _leafOrTail(_ node: _Node) -> _Leaf {
        precondition(!node.isInner, "ListSnapshot: an inner node used as a leaf")
        // Safe: a node of kind `.leaf` or `.tail` is only ever made by `_Leaf._create(capacity:)`
        // or `_Leaf._createTail(after:)`, which allocate a `_Leaf` of this list's element type (a
        // list holds one element type), and the kind never changes.
        return unsafeDowncast(node, to: _Leaf.self)
    }

    /// The most entries `node` may keep: elements in a leaf, children in an inner node.
    @inlinable
    internal static func _maximumWidth(_ node: _Node) -> Int { node.isInner ? _innerCapacity : _leafCapacity }

    /// The fewest entries `node` may keep when it is not on the right edge of the tree.
    @inlinable
    internal static func _minimumWidth(_ node: _Node) -> Int { _maximumWidth(node) / 2 }
}

// MARK: - Any kind

extension _ListNode {
    /// Calls `body` with this node's header, valid only during the call.
    @inlinable @inline(__always)
    internal func _withHeader<R>(_ body: (UnsafeMutablePointer<_ListNodeHeader>) -> R) -> R {
        // Safe for both classes: `ManagedBufferPointer` places the header right after the object's
        // own, aligned for the header type, whatever the element type (its `_headerOffset` does not
        // depend on it), and both classes are created with a `_ListNodeHeader` there. The element
        // type named here is not used to reach the header.
        _ListInnerPointer(unsafeBufferObject: self).withUnsafeMutablePointerToHeader(body)
    }

    /// What this node is: a leaf of a tree, an inner node, or a list's tail.
    @inlinable
    internal var kind: _ListNodeKind { _withHeader { $0.pointee.kind } }

    /// 0 for a leaf or a tail; one more than its children's for an inner node.
    @inlinable
    internal var height: Int { _withHeader { Int($0.pointee.height) } }

    /// Whether this node is a leaf of a tree (not a tail).
    @inlinable
    internal var isLeaf: Bool { kind == .leaf }

    /// Whether this node is an inner node of a tree.
    @inlinable
    internal var isInner: Bool { kind == .inner }

    /// Whether this node is a list's tail rather than a node of a tree.
    @inlinable
    internal var isTail: Bool { kind == .tail }

    /// The number of elements in this subtree (in a tail, its own elements).
    @inlinable
    internal var count: Int { _withHeader { $0.pointee.count } }

    /// A tail's tree (see `_ListNodeHeader.tree`); `nil` in a node of a tree.
    @inlinable
    internal var tree: _ListNode? { _withHeader { $0.pointee.tree } }

    /// A leaf's (or a tail's) room for elements; 0 in an inner node.
    @inlinable
    internal var room: Int { _withHeader { $0.pointee.kind == .inner ? 0 : $0.pointee.capacity } }

    /// The number of entries: elements in a leaf (or a tail), children in an inner node.
    @inlinable
    internal var width: Int {
        _withHeader { $0.pointee.kind == .inner ? $0.pointee.childCount : $0.pointee.count }
    }

    /// This node as the inner node it is. A leaf or a tail traps, in every build: read as an
    /// inner node, its elements would be taken for slots.
    @inlinable @inline(__always)
    internal var _asInner: _ListInner {
        precondition(isInner, "ListSnapshot: a leaf or a tail used as an inner node")
        // Safe: a node of kind `.inner` is only ever made by `_ListInner._create(height:)`, which
        // allocates a `_ListInner`, and the kind never changes.
        return unsafeDowncast(self, to: _ListInner.self)
    }

    /// A new inner node of the given height over `children` (1 to 32 of them, each of height
    /// `height - 1`).
    @inlinable
    internal static func _makeInner(height: Int, children: some Sequence<_ListNode>) -> _ListNode {
        let node = _ListInner._create(height: height)
        // New: nothing else holds it yet.
        node._withHandle(mutable: true) { handle in
            for child in children { handle._appendChild(child) }
        }
        return node
    }

    /// This inner node's children, in a new array (empty for a leaf): for tests and checks, not
    /// for the paths that must not retain.
    @inlinable
    internal var children: [_ListNode] {
        guard isInner else { return [] }
        return _asInner._withHandle { handle in (0..<handle.childCount).map { handle._slots[$0].child } }
    }
}

// MARK: - Leaves

extension ListSnapshot._Leaf {
    /// Calls `body` with this leaf's header and elements, valid only during the call.
    @inlinable @inline(__always)
    internal func _withPointers<R>(
        _ body: (UnsafeMutablePointer<ListSnapshot._Header>, UnsafeMutablePointer<Element>) throws -> R
    ) rethrows -> R {
        // `rethrows`, not typed throws: the Apple SDKs' `ManagedBufferPointer` (Xcode 15) rethrows
        // untyped errors.
        try ListSnapshot._LeafPointer(unsafeBufferObject: self).withUnsafeMutablePointers(body)
    }

    /// Calls `body` with this leaf's initialized elements, valid only during the call.
    @inlinable @inline(__always)
    internal func _withBuffer<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
        try _withPointers { header, elements in
            try body(UnsafeBufferPointer(start: elements, count: header.pointee.count))
        }
    }

    /// Creates an empty leaf with room for `capacity` elements.
    @inlinable
    internal static func _create(capacity: Int) -> ListSnapshot._Leaf {
        let buffer = ListSnapshot._LeafPointer(bufferClass: self, minimumCapacity: capacity) { _, _ in
            ListSnapshot._Header(kind: .leaf, height: 0, count: 0, childCount: 0, capacity: capacity)
        }
        // Safe: the buffer was allocated as an instance of `bufferClass`, `_Leaf` itself.
        return unsafeDowncast(buffer.buffer, to: ListSnapshot._Leaf.self)
    }

    /// Creates an empty tail with room for `ListSnapshot._tailCapacity` elements, after `tree`
    /// (which it holds).
    @inlinable
    internal static func _createTail(after tree: __owned ListSnapshot._Node?) -> ListSnapshot._Leaf {
        let capacity = ListSnapshot._tailCapacity
        let buffer = ListSnapshot._LeafPointer(bufferClass: self, minimumCapacity: capacity) { _, _ in
            ListSnapshot._Header(kind: .tail, height: 0, count: 0, childCount: 0, capacity: capacity)
        }
        // New: nothing else holds it yet. The tree is moved in (taken out of a variable the
        // closure shares), not copied out of a capture: no retain and release of the root.
        var tree = tree
        buffer.withUnsafeMutablePointerToHeader { $0.pointee.tree = tree._take() }
        // Safe: the buffer was allocated as an instance of `bufferClass`, `_Leaf` itself.
        return unsafeDowncast(buffer.buffer, to: ListSnapshot._Leaf.self)
    }

    /// A copy of this tail: copies of its elements, then `appended` if given (the tail must then
    /// have room for it), after the same tree (retained, not copied).
    @inlinable
    internal func _copyTail(appending appended: Element?) -> ListSnapshot._Leaf {
        _withPointers { header, elements in
            let count = header.pointee.count
            let copy = Self._createTail(after: header.pointee.tree)
            copy._withPointers { target, targetElements in
                targetElements.initialize(from: elements, count: count)
                if let appended {
                    (targetElements + count).initialize(to: appended)
                    target.pointee.count = count &+ 1
                } else {
                    target.pointee.count = count
                }
            }
            return copy
        }
    }

    /// Moves this tail's tree out, leaving `nil`, with no retain: a tree that only this tail held
    /// is then uniquely held by the caller. The tail must be unique.
    ///
    /// Never inlined, as ``_appendElement(_:)``.
    @inlinable @inline(never)
    internal func _takeTree() -> ListSnapshot._Node? {
        _withPointers { header, _ in header.pointee.tree._take() }
    }

    /// Puts `tree` back as this tail's tree (which `_takeTree()` left `nil`). The tail must be
    /// unique.
    ///
    /// Never inlined, as ``_appendElement(_:)``.
    @inlinable @inline(never)
    internal func _putTree(_ tree: __owned ListSnapshot._Node?) {
        _withPointers { header, _ in header.pointee.tree = tree }
    }

    /// Creates a leaf holding a copy of `elements` (at most `capacity`), with room for `capacity`.
    @inlinable
    internal static func _create(
        copying elements: UnsafeBufferPointer<Element>, capacity: Int = ListSnapshot._leafCapacity
    ) -> ListSnapshot._Leaf {
        let leaf = _create(capacity: capacity)
        leaf._withPointers { header, target in
            if let source = elements.baseAddress { target.initialize(from: source, count: elements.count) }
            header.pointee.count = elements.count
        }
        return leaf
    }

    /// A copy of this leaf's elements, with room for `capacity` (at least `count`; by default
    /// this leaf's room).
    @inlinable
    internal func _copyLeaf(capacity: Int? = nil) -> ListSnapshot._Leaf {
        let room = capacity ?? _withPointers { header, _ in header.pointee.capacity }
        return _withBuffer { Self._create(copying: $0, capacity: room) }
    }

    /// Appends `element` to this leaf, which must be unique and have room for it.
    ///
    /// Never inlined: ThreadSanitizer must see this in-place write under its own name (see
    /// `.ci/tsan-suppressions.txt`), not inside whatever list operation called it.
    @inlinable @inline(never)
    internal func _appendElement(_ element: Element) {
        _withPointers { header, elements in
            let count = header.pointee.count
            (elements + count).initialize(to: element)
            header.pointee.count = count &+ 1
        }
    }

    /// Replaces the element at `offset` of this leaf, which must be unique.
    ///
    /// Never inlined, as ``_appendElement(_:)``.
    @inlinable @inline(never)
    internal func _replaceElement(at offset: Int, with element: Element) {
        _withPointers { _, elements in elements[offset] = element }
    }

    /// This leaf's elements in a new leaf with room for `capacity`, moved out of this one (which
    /// must be unique, and is left empty).
    @inlinable
    internal func _moved(capacity: Int) -> ListSnapshot._Leaf {
        let leaf = Self._create(capacity: capacity)
        _withPointers { header, elements in
            leaf._withPointers { target, targetElements in
                targetElements.moveInitialize(from: elements, count: header.pointee.count)
                target.pointee.count = header.pointee.count
            }
            header.pointee.count = 0
        }
        return leaf
    }
}

// MARK: - Inner nodes

extension _ListInner {
    /// Creates an inner node of the given height with no children yet.
    @inlinable
    internal static func _create(height: Int) -> _ListInner {
        let capacity = _listInnerCapacity + 1
        let buffer = _ListInnerPointer(bufferClass: self, minimumCapacity: capacity) { _, _ in
            _ListNodeHeader(kind: .inner, height: height, count: 0, childCount: 0, capacity: capacity)
        }
        // Safe: the buffer was allocated as an instance of `bufferClass`, `_ListInner` itself.
        return unsafeDowncast(buffer.buffer, to: _ListInner.self)
    }

    /// Calls `body` with a handle on this node's header and slots, valid only during the call.
    /// With `mutable`, the handle may change the node: the caller vouches that nothing else holds
    /// it (prefer `ListSnapshot._withMutableInner(_:_:)`, which checks that in debug builds).
    @inlinable @inline(__always)
    internal func _withHandle<R>(mutable: Bool = false, _ body: (_ListInnerHandle) -> R) -> R {
        _ListInnerPointer(unsafeBufferObject: self).withUnsafeMutablePointers { header, slots in
            body(_ListInnerHandle(header: header, slots: slots, isMutable: mutable))
        }
    }

    /// A copy of this node that shares its children: one allocation, and a retain of each child.
    @inlinable
    internal func _copyInner() -> _ListInner {
        _withHandle { source in
            let copy = Self._create(height: source.height)
            // New: nothing else holds it yet.
            copy._withHandle(mutable: true) { target in
                // Slot by slot, for the reason `deinit` gives: a retain of each child, inline.
                for slot in 0..<source.childCount { (target._slots + slot).initialize(to: source._slots[slot]) }
                target.childCount = source.childCount
                target.count = source.count
            }
            return copy
        }
    }

    /// The number of slots this node's allocation has room for (from the allocator): for the
    /// tests, which check that the slots live in the node's own allocation.
    @inlinable
    internal var _allocatedSlots: Int { _ListInnerPointer(unsafeBufferObject: self).capacity }
}

extension Optional {
    /// The value, leaving `nil` behind, with no retain and no release: `Optional.take()`, which the
    /// Apple SDKs' standard library (Xcode 15) lacks. A reference taken this way is still unique
    /// when it was.
    @inlinable @inline(__always)
    internal mutating func _take() -> Wrapped? {
        var taken: Wrapped? = nil
        swap(&taken, &self)
        return taken
    }
}
