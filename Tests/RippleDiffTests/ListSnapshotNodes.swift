@testable import RippleDiff

extension ListSnapshot {
    /// Every node of the list's tree, root first, depth first (the tail, which is not in the tree,
    /// aside): for the tests that look at the tree's shape.
    var treeNodes: [_Node] {
        var result: [_Node] = []
        var pending = _root.map { [$0] } ?? []
        while let node = pending.popLast() {
            result.append(node)
            pending.append(contentsOf: node.children.reversed())
        }
        return result
    }
}
