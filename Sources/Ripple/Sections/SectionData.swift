import RippleDiff

/// One section of a sectioned live list: the section's own value (its presenter or model, shown in
/// the header) and its own live list of items.
///
/// A `SectionData` is an object, so it can be shared: a presenter keeps the section it feeds and
/// mutates `items` directly, while a ``SectionedCollection`` that holds the section publishes each
/// of those changes as item changes at the section's current position.
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
/// # Identity
/// When sections are diffed (`SectionedCollection.replace(with:)`), a section is told apart by
/// its `Section` value: `id` when `Section` is `Identifiable`, `ObjectIdentifier` when it is a class,
/// the value itself when it is `Hashable`, or a closure you pass. `SectionData` is `Identifiable`
/// through its section when `Section` is.
///
/// # Thread Safety
/// `SectionData` is immutable apart from ``items``, which is thread-safe.
public final class SectionData<Section: Sendable, Item: Sendable>: Sendable {
    /// The section's own value, such as its header presenter or model.
    public let section: Section

    /// The section's items, as a live list of their own.
    public let items: ObservableCollection<Item>

    /// Creates a section with a new list of items.
    ///
    /// - Parameters:
    ///   - section: The section's own value, such as its header presenter.
    ///   - items: The initial items.
    public init(_ section: Section, items: [Item] = []) {
        self.section = section
        self.items = ObservableCollection(items)
    }

    /// Creates a section over an existing live list of items, which it shares.
    ///
    /// - Parameters:
    ///   - section: The section's own value, such as its header presenter.
    ///   - items: The live list of items, shared with whoever else holds it.
    public init(_ section: Section, sharing items: ObservableCollection<Item>) {
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
