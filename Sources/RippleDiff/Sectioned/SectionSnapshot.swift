/// One section of a sectioned list: the section's own value (for example its header) and its items.
///
/// A sectioned diff takes two arrays of snapshots, the list before and after a change:
///
/// <!-- swift
/// struct Folder: Identifiable, Equatable {
///     var id: String
/// }
/// struct Mail: Identifiable, Equatable {
///     var id: Int
/// }
/// let inbox = Folder(id: "Inbox"), archive = Folder(id: "Archive")
/// let a = Mail(id: 1), b = Mail(id: 2), c = Mail(id: 3)
/// -->
/// ```swift
/// let old = [SectionSnapshot(section: inbox, items: [a, b]), SectionSnapshot(section: archive, items: [c])]
/// let new = [SectionSnapshot(section: inbox, items: [b]), SectionSnapshot(section: archive, items: [c, a])]
/// let changes = SectionedChangeset(from: old, to: new)
/// // item a moves from 0 - 0 to 1 - 1
/// ```
///
/// # Thread Safety
/// `SectionSnapshot` is `Sendable` when both its section and item types are.
public struct SectionSnapshot<Section, Item> {
    /// The section's own value, such as its header; its identity and content are diffed separately
    /// from the items.
    public var section: Section

    /// The items of the section, in display order, in a ``ListSnapshot``: copying a section
    /// snapshot shares its items, and changing one item of the copy costs O(log *n*).
    public var items: ListSnapshot<Item>

    /// Creates a section snapshot.
    ///
    /// - Parameters:
    ///   - section: The section's own value, such as its header.
    ///   - items: The items of the section, in display order.
    /// - Complexity: O(*n*) for *n* items.
    @inlinable
    public init(section: Section, items: [Item]) {
        self.section = section
        self.items = ListSnapshot(items)
    }

    /// Creates a section snapshot that shares the storage of `items`.
    ///
    /// - Parameters:
    ///   - section: The section's own value, such as its header.
    ///   - items: The items of the section, in display order.
    /// - Complexity: O(1).
    @inlinable
    public init(section: Section, items: ListSnapshot<Item>) {
        self.section = section
        self.items = items
    }
}

extension SectionSnapshot: Sendable where Section: Sendable, Item: Sendable {}
extension SectionSnapshot: Equatable where Section: Equatable, Item: Equatable {}
extension SectionSnapshot: Hashable where Section: Hashable, Item: Hashable {}

extension SectionSnapshot: CustomStringConvertible {
    /// The section and its items, such as `Inbox: [a, b]`.
    public var description: String { "\(section): \(items)" }
}
