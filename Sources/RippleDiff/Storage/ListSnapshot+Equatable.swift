// Equality and hashing by elements, like `Array`'s.

extension ListSnapshot: Equatable where Element: Equatable {
    /// Whether two lists have the same elements in the same order.
    ///
    /// Identical lists (see ``isIdentical(to:)``) and lists of different counts are told apart
    /// without reading an element.
    ///
    /// - Parameters:
    ///   - lhs: A list.
    ///   - rhs: Another list.
    /// - Returns: `true` when both have equal elements in the same order.
    /// - Complexity: O(1) when the lists are identical or their counts differ; O(*n*) otherwise,
    ///   for *n* elements.
    @inlinable
    public static func == (lhs: Self, rhs: Self) -> Bool {
        if lhs.isIdentical(to: rhs) { return true }
        guard lhs.count == rhs.count else { return false }
        var other = rhs.makeIterator()
        var equal = true
        lhs.forEachChunk { chunk in
            guard equal else { return }
            for element in chunk where element != other.next().unsafelyUnwrapped {
                equal = false
                return
            }
        }
        return equal
    }
}

extension ListSnapshot: Hashable where Element: Hashable {
    /// Feeds the count and then every element into `hasher`, as `Array` does, so that equal lists
    /// hash alike.
    ///
    /// - Parameter hasher: The hasher to feed.
    /// - Complexity: O(*n*) for *n* elements.
    @inlinable
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        forEach { hasher.combine($0) }
    }
}
