/// An element for diff tests: `id` is its identity, `content` is what its cell shows.
///
/// Two items with the same `id` are the same element; when their `content` differs the element is
/// updated. `TestItem` is `Identifiable & Hashable`, so `Changeset(from:to:)` diffs it by `id`
/// and compares contents with `==`.
public struct TestItem: Identifiable, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The identity of the element.
    public var id: Int

    /// The content of the element; a change with the same `id` is an update.
    public var content: Int

    /// Creates an item.
    ///
    /// - Parameters:
    ///   - id: The identity of the element.
    ///   - content: The content of the element.
    public init(id: Int, content: Int = 0) {
        self.id = id
        self.content = content
    }

    /// The item as `"id:content"`.
    public var description: String { "\(id):\(content)" }
}

extension Array where Element == TestItem {
    /// Items with the given identifiers, all with content `0`: `.init(ids: [1, 2, 1])`.
    ///
    /// - Parameter ids: The identifiers, in order.
    public init(ids: [Int]) {
        self = ids.map { TestItem(id: $0) }
    }
}

extension Sequence where Element == TestItem {
    /// The identifiers of the items, in order.
    public var ids: [Int] { map(\.id) }
}
