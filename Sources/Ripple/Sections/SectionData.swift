import RippleDiff

/// One section of a sectioned live list: the section's own value (its presenter or model, shown in
/// the header) and its own live list of items.
///
/// A `SectionData` is an object, so it can be shared: a presenter keeps the section it feeds and
/// mutates `items` directly. While a ``SectionedCollection`` holds the section, the items live in
/// that collection (see ``SectionItems``): each change made through them is a change of the list,
/// published as item changes at the section's position at that moment.
///
/// <!-- swift
/// struct InboxHeader: Sendable {}
/// struct Mail: Sendable {
///     var id: Int
/// }
/// let mail1 = Mail(id: 1), mail2 = Mail(id: 2), mail3 = Mail(id: 3)
/// -->
/// ```swift
/// let inbox = SectionData(InboxHeader(), items: [mail1, mail2])
/// let list = SectionedCollection([inbox])
/// inbox.items.append(mail3)   // list publishes an item insert at (0 - 2)
/// ```
///
/// The section value is immutable: to show a new header, put a new `SectionData` that shares the
/// same items in place (``replacingSection(with:)`` and
/// ``SectionedCollection/replaceSection(at:with:)``); the list publishes a section update (a reload)
/// and keeps the items as they are.
///
/// # Sharing
/// ``replacingSection(with:)`` and ``init(_:sharing:)`` make another `SectionData` over the same
/// ``SectionItems``: the same items, under another section value. A list of items is in at most
/// one place of one sectioned collection at a time. ``SectionedCollection/replaceSection(at:with:)``
/// swaps such a section in place, keeping its items; inserting a section whose items are already
/// in a collection is a programming error, and traps with a message naming the position. To show
/// the same items twice, copy them: `SectionData(header, items: other.items.snapshot)`.
///
/// # Identity
/// When sections are diffed (`SectionedCollection.replace(with:)`), a section is told apart by
/// its `Section` value: `id` when `Section` is `Identifiable`, `ObjectIdentifier` when it is a class,
/// the value itself when it is `Hashable`, or a closure you pass. `SectionData` is `Identifiable`
/// through its section when `Section` is.
///
/// # Thread Safety
/// `SectionData` is immutable apart from ``items``, which are thread-safe.
public final class SectionData<Section: Sendable, Item: Sendable>: Sendable {
    /// The section's own value, such as its header presenter or model.
    public let section: Section

    /// The section's items: a list of its own until a sectioned collection holds the section, then
    /// that collection's storage for the section.
    public let items: SectionItems<Item>

    /// Creates a section with a new list of items.
    ///
    /// - Parameters:
    ///   - section: The section's own value, such as its header presenter.
    ///   - items: The initial items.
    public init(_ section: Section, items: [Item] = []) {
        self.section = section
        self.items = SectionItems(items)
    }

    /// Creates a section with a new list of items that shares the storage of `items`.
    ///
    /// - Parameters:
    ///   - section: The section's own value, such as its header presenter.
    ///   - items: The initial items, for example another section's `items.snapshot`.
    /// - Complexity: O(1).
    public init(_ section: Section, items: ListSnapshot<Item>) {
        self.section = section
        self.items = SectionItems(items)
    }

    /// Creates a section over the items of another section, which it shares.
    ///
    /// The two `SectionData` are two values over one list of items, which can be in at most one
    /// place of one sectioned collection at a time (see "Sharing" above).
    ///
    /// - Parameters:
    ///   - section: The section's own value, such as its header presenter.
    ///   - items: The items, shared with the sections that already hold them.
    public init(_ section: Section, sharing items: SectionItems<Item>) {
        self.section = section
        self.items = items
    }

    /// A section with another value over the same live list of items.
    ///
    /// - Parameter section: The new value, such as an updated header.
    /// - Returns: A new `SectionData` sharing ``items`` with this one.
    public func replacingSection(with section: Section) -> SectionData {
        SectionData(section, sharing: items)
    }

    /// The section's value and its items now.
    ///
    /// - Complexity: O(1).
    public var snapshot: SectionSnapshot<Section, Item> {
        SectionSnapshot(section: section, items: items.snapshot)
    }
}

extension SectionData: Identifiable where Section: Identifiable {
    /// The section's identifier.
    public var id: Section.ID { section.id }
}

extension SectionData: CustomStringConvertible {
    /// The section and its items, such as `Inbox: [a, b]`.
    public var description: String { "\(section): \(items.snapshot)" }
}
