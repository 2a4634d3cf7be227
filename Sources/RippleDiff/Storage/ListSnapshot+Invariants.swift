// The tree's shape, checked by one function: tests call it directly, and every mutation calls it
// when the package is compiled with `-D RIPPLE_INTERNAL_CHECKS`.

extension ListSnapshot {
    /// Traps unless the tree is well formed:
    /// - every node's kind names its class: a leaf or a tail is a `_Leaf`, an inner node a
    ///   `_ListInner`;
    /// - the list's storage is a tail or the tree's root; the tail, if any, holds 1 to
    ///   `_tailCapacity` elements, in room for `_tailCapacity`, and the tree is reached through
    ///   it; no node of the tree is a tail or holds a tree;
    /// - a leaf has height 0 and no children, an inner node a height of 1 or more;
    /// - an empty tree has no root; a root is never empty, and an inner root has at least two
    ///   children;
    /// - every node's `count` is the sum of its children's (a leaf's, its element count), and
    ///   every child is one level below its parent, so all leaves have the same depth;
    /// - an inner node's running counts (one per slot, next to its child) are each the number of
    ///   elements in the children up to and including it, and every inner node has room for
    ///   `_innerCapacity + 1` slots in its own allocation (a leaf has no children);
    /// - every leaf holds 1 to `_leafCapacity` elements (a root leaf may have less room) and every
    ///   inner node 1 to 32 children, and a node off the right edge of the tree is at least half
    ///   full.
    ///
    /// Public, with an underscore (hidden from the documentation), so that tests and fuzz targets
    /// outside the module can call it without `@testable`, in any build.
    ///
    /// - Complexity: O(*n* / *c*) for *n* elements in leaves of *c*: it visits nodes, not elements.
    public func _checkInvariants() {
        if let tail = _tail {
            precondition(
                type(of: tail as _Node) == _Leaf.self && tail.height == 0,
                "ListSnapshot._checkInvariants(): the tail is not a leaf of height 0")
            precondition(
                tail.count >= 1 && tail.count <= Self._tailCapacity && tail.room == Self._tailCapacity,
                "ListSnapshot._checkInvariants(): the tail holds \(tail.count) elements in room for \(tail.room), not 1...\(Self._tailCapacity) in \(Self._tailCapacity)"
            )
        }
        guard let root = _root else { return }
        precondition(root.count > 0, "ListSnapshot._checkInvariants(): the root is empty")
        precondition(
            !root.isInner || root.width >= 2,
            "ListSnapshot._checkInvariants(): an inner root has \(root.width) child")
        var path: [Int] = []
        Self._checkNode(root, onRightEdge: true, isRoot: true, path: &path)
    }

    /// Checks one subtree; `path` (the child slots from the root) names the node in a failure.
    @usableFromInline
    internal static func _checkNode(_ node: _Node, onRightEdge: Bool, isRoot: Bool, path: inout [Int]) {
        // Only the failure messages read `place`: they are built lazily.
        func place() -> String { path.isEmpty ? "the root" : "the node at child slots \(path)" }
        precondition(
            !node.isTail && node.tree == nil,
            "ListSnapshot._checkInvariants(): \(place()) is a tail, or holds a tree, inside the tree")
        // The dynamic type, not the kind: this is the check that the kind, which every downcast
        // trusts, names the class the node was allocated as.
        let isLeafClass = type(of: node) == _Leaf.self
        let isInnerClass = type(of: node) == _Inner.self
        precondition(
            node.isLeaf ? isLeafClass && node.height == 0 : isInnerClass && node.height >= 1,
            "ListSnapshot._checkInvariants(): \(place()) is of kind \(node.kind) and height \(node.height), but a \(type(of: node))"
        )
        let width = node.width
        precondition(
            width >= 1 && width <= _maximumWidth(node),
            "ListSnapshot._checkInvariants(): \(place()) has \(width) entries, out of range 1...\(_maximumWidth(node))")
        precondition(
            onRightEdge || isRoot || width >= _minimumWidth(node),
            "ListSnapshot._checkInvariants(): \(place()) has \(width) entries, fewer than \(_minimumWidth(node)) off the right edge"
        )
        if node.isLeaf {
            precondition(
                node._withHeader({ $0.pointee.childCount }) == 0,
                "ListSnapshot._checkInvariants(): \(place()) is a leaf with children")
            precondition(
                node.count <= node.room && node.room <= _leafCapacity,
                "ListSnapshot._checkInvariants(): \(place()) holds \(node.count) elements in room for \(node.room)")
            precondition(
                isRoot || node.room == _leafCapacity,
                "ListSnapshot._checkInvariants(): \(place()) is a leaf below the root with room for \(node.room), not \(_leafCapacity)"
            )
            return
        }
        let inner = node._asInner
        precondition(
            inner._withHandle({ $0._header.pointee.capacity }) == _innerCapacity + 1,
            "ListSnapshot._checkInvariants(): \(place()) is an inner node with room for \(inner._withHandle({ $0._header.pointee.capacity })) slots, not \(_innerCapacity + 1)"
        )
        var sum = 0
        for slot in 0..<width {
            // A strong reference for the recursion, and the running count, read inside the
            // handle's closure.
            let (child, end) = inner._withHandle { ($0._slots[slot].child, $0.end(slot)) }
            precondition(
                child.height == node.height - 1,
                "ListSnapshot._checkInvariants(): child \(slot) of \(place()) has height \(child.height), expected \(node.height - 1)"
            )
            sum += child.count
            precondition(
                end == sum,
                "ListSnapshot._checkInvariants(): \(place()) has running count \(end) at child \(slot), but children 0...\(slot) hold \(sum) elements"
            )
            path.append(slot)
            _checkNode(child, onRightEdge: onRightEdge && slot == width - 1, isRoot: false, path: &path)
            path.removeLast()
        }
        precondition(
            node.count == sum,
            "ListSnapshot._checkInvariants(): \(place()) counts \(node.count) but its children hold \(sum) elements")
    }
}
