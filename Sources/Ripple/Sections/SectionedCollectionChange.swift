import RippleDiff

/// One change event of a ``SectionedCollection``: what changed, at the section and item levels, and
/// the sectioned list after it.
///
/// Replaying ``changeset`` on the previous event's ``snapshot`` (with
/// `SectionedChangeset.applied(to:section:item:)`) gives this event's ``snapshot``. Versions grow by
/// one per event, so a subscriber can check that it missed nothing.
///
/// An event is an immutable object: handing it to several subscribers and queues costs one
/// reference each.
public final class SectionedCollectionChange<Section: Sendable, Item: Sendable>: Sendable {
    /// The changes, in UIKit's before/after coordinates: sections by offset, items by path.
    public let changeset: SectionedChangeset

    /// The sectioned list after the change. Each section's items are a copy-on-write array that
    /// the event shares with the collection: carrying it costs O(*s*) for *s* sections.
    public let snapshot: [SectionSnapshot<Section, Item>]

    /// The collection's version after the change: 1 for the first change, then one more per event.
    public let version: Int

    /// Whether this is the current state handed to a new subscriber rather than a change.
    ///
    /// Its ``changeset`` inserts every section into an empty list (the items arrive with their
    /// sections), so replay still holds; a list view usually answers it with `reloadData()`.
    public let isInitial: Bool

    /// Whether a row the change keeps (neither inserted, updated nor in a reloaded section) may
    /// hold another instance than before: only a `replace` swaps items, and its identity may call
    /// two instances the same, unchanged item. A list source of objects looks for such rows only
    /// then, so that every other event costs what it changes.
    package let mayReplaceKeptElements: Bool

    /// Creates a change event.
    ///
    /// - Parameters:
    ///   - changeset: The changes.
    ///   - snapshot: The sectioned list after the changes.
    ///   - version: The version after the change.
    ///   - isInitial: Whether the event hands the current state to a new subscriber.
    public init(
        changeset: SectionedChangeset, snapshot: [SectionSnapshot<Section, Item>], version: Int,
        isInitial: Bool = false
    ) {
        self.changeset = changeset
        self.snapshot = snapshot
        self.version = version
        self.isInitial = isInitial
        mayReplaceKeptElements = true
    }

    /// Creates a change event of a ``SectionedCollection``, which knows whether the change may
    /// keep a row with another instance.
    package init(
        changeset: SectionedChangeset, snapshot: [SectionSnapshot<Section, Item>], version: Int,
        mayReplaceKeptElements: Bool
    ) {
        self.changeset = changeset
        self.snapshot = snapshot
        self.version = version
        isInitial = false
        self.mayReplaceKeptElements = mayReplaceKeptElements
    }

    /// The changes staged for UIKit batch updates, given the sectioned list the view shows now.
    ///
    /// - Parameter rendered: The list the view shows, which must be the previous event's snapshot.
    /// - Returns: The stages to apply in order, each in its own batch.
    /// - Precondition: `rendered` has the sections and item counts the change starts from; otherwise
    ///   the call traps with a message naming both (the view missed an event, or shows other data).
    /// - Complexity: O(*s* + *t* + *c* log *c*) for *s* and *t* sections and *c* changes; see
    ///   `StagedSectionedChangeset.init(changeset:source:target:)`.
    public func staged(from rendered: [SectionSnapshot<Section, Item>]) -> StagedSectionedChangeset<Section, Item> {
        let expected = changeset.sourceItemCounts
        precondition(
            rendered.count == expected.count && zip(rendered, expected).allSatisfy { $0.items.count == $1 },
            "SectionedCollectionChange.staged(from:): the rendered sections hold "
                + "\(_cappedList(rendered.map(\.items.count))) items, but the change starts from "
                + "\(_cappedList(expected)); pass the previous event's snapshot")
        return StagedSectionedChangeset(changeset: changeset, source: rendered, target: snapshot)
    }
}
