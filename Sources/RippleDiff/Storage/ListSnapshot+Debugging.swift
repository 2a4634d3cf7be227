// The tree's shape as text, for debugging and for the tests.

extension ListSnapshot {
    /// The tree's shape, one node per line, children indented under their parent: an inner node
    /// as `inner height H, N elements, C children`, with the running count of each child, and a
    /// leaf as `leaf N/R` (its elements and its room); then the tail, if any, as `tail N/R`. An
    /// empty list is `empty`.
    ///
    /// ```swift
    /// print(ListSnapshot(0..<300)._dump(), terminator: "")
    /// // inner height 1, 300 elements, 2 children
    /// //   [0] ..256 leaf 256/256
    /// //   [1] ..300 leaf 44/256
    /// ```
    ///
    /// Public, with an underscore (hidden from the documentation), like ``_checkInvariants()``.
    ///
    /// - Parameter maximumDepth: The deepest level shown (the root is 0); a node below is left
    ///   out, and its parent's line ends with `…`.
    /// - Returns: The text, ending with a newline.
    /// - Complexity: O(*n* / *c*) for *n* elements in leaves of *c*, at full depth.
    public func _dump(maximumDepth: Int = .max) -> String {
        var result = ""
        if let root = _root { Self._dump(root, label: "", depth: 0, maximumDepth: maximumDepth, into: &result) }
        if let tail = _tail { result += "tail \(tail.count)/\(tail.room)\n" }
        return result.isEmpty ? "empty\n" : result
    }

    /// Adds the lines of one subtree to `result`.
    internal static func _dump(_ node: _Node, label: String, depth: Int, maximumDepth: Int, into result: inout String) {
        let indent = String(repeating: "  ", count: depth)
        if !node.isInner {
            result += "\(indent)\(label)leaf \(node.count)/\(node.room)\n"
            return
        }
        let width = node.width
        let more = depth >= maximumDepth ? " …" : ""
        result += "\(indent)\(label)inner height \(node.height), \(node.count) elements, \(width) children\(more)\n"
        guard depth < maximumDepth else { return }
        let inner = node._asInner
        for slot in 0..<width {
            let (child, end) = inner._withHandle { ($0._slots[slot].child, $0.end(slot)) }
            _dump(child, label: "[\(slot)] ..\(end) ", depth: depth + 1, maximumDepth: maximumDepth, into: &result)
        }
    }
}
