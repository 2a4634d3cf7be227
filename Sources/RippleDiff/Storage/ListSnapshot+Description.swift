// Text forms, like `Array`'s: `[1, 2, 3]`, and `ListSnapshot([1, 2, 3])` for debugging.

extension ListSnapshot: CustomStringConvertible, CustomDebugStringConvertible {
    /// The elements as `Array` prints them: `[1, 2, 3]`, `["a", "b"]`.
    ///
    /// - Complexity: O(*n*) for *n* elements.
    public var description: String {
        _describe(prefix: "[", suffix: "]")
    }

    /// The elements with the type's name, as `ContiguousArray` prints them:
    /// `ListSnapshot([1, 2, 3])`.
    ///
    /// - Complexity: O(*n*) for *n* elements.
    public var debugDescription: String {
        _describe(prefix: "ListSnapshot([", suffix: "])")
    }

    /// Every element's debug form, comma-separated, between `prefix` and `suffix`.
    private func _describe(prefix: String, suffix: String) -> String {
        var result = prefix
        var first = true
        forEach { element in
            if first {
                first = false
            } else {
                result += ", "
            }
            debugPrint(element, terminator: "", to: &result)
        }
        return result + suffix
    }
}
