import RippleDiff

/// One change event of an ``ObservableCollection``: what changed, and the list after it.
///
/// Replaying ``changeset`` on the previous event's ``snapshot`` gives this event's ``snapshot``.
/// Versions grow by one per event, so a subscriber can check that it missed nothing.
///
/// An event is an immutable object: handing it to several subscribers and queues costs one
/// reference each, not a copy of its change-set's arrays.
public final class CollectionChange<Element: Sendable>: Sendable {
    /// The changes, in UIKit's before/after coordinates.
    public let changeset: Changeset

    /// The list after the change. It shares its storage with the collection and with every other
    /// event's snapshot, all but the parts that changed in between: carrying or keeping it costs
    /// O(1), and it never changes.
    public let snapshot: ListSnapshot<Element>

    /// The collection's version after the change: 1 for the first change, then one more per event.
    public let version: Int

    /// Whether this is the current state handed to a new subscriber rather than a change.
    ///
    /// Its ``changeset`` inserts every element into an empty list, so replay still holds; a list
    /// view usually answers it with `reloadData()`.
    public let isInitial: Bool

    /// Whether a row the change keeps (neither inserted nor updated) may hold another instance
    /// than before: only `replace(with:)` swaps elements, and its identity may call two instances
    /// the same, unchanged element. A list source of objects looks for such rows only then, so
    /// that every other event costs what it changes.
    @usableFromInline
    package let mayReplaceKeptElements: Bool

    /// Creates a change event.
    ///
    /// - Parameters:
    ///   - changeset: The changes.
    ///   - snapshot: The list after the changes.
    ///   - version: The version after the change.
    ///   - isInitial: Whether the event hands the current state to a new subscriber.
    @inlinable
    public init(changeset: Changeset, snapshot: ListSnapshot<Element>, version: Int, isInitial: Bool = false) {
        self.changeset = changeset
        self.snapshot = snapshot
        self.version = version
        self.isInitial = isInitial
        mayReplaceKeptElements = true
    }

    /// Creates a change event of an ``ObservableCollection``, which knows whether the change may
    /// keep a row with another instance.
    @inlinable
    package init(changeset: Changeset, snapshot: ListSnapshot<Element>, version: Int, mayReplaceKeptElements: Bool) {
        self.changeset = changeset
        self.snapshot = snapshot
        self.version = version
        isInitial = false
        self.mayReplaceKeptElements = mayReplaceKeptElements
    }

    /// The event that hands a new subscriber the current state: every element inserted into an
    /// empty list, with ``isInitial`` set.
    ///
    /// - Parameters:
    ///   - snapshot: The list as of the last event.
    ///   - version: That event's version.
    @inlinable
    package static func current(_ snapshot: ListSnapshot<Element>, version: Int) -> CollectionChange {
        CollectionChange(
            changeset: Changeset(sourceCount: 0, targetCount: snapshot.count, inserts: Array(snapshot.indices)),
            snapshot: snapshot, version: version, isInitial: true)
    }

    /// The changes staged for UIKit batch updates, given the snapshot the view shows now.
    ///
    /// - Parameter rendered: The list the view shows, which must be the previous event's snapshot.
    /// - Returns: The stages to apply in order.
    /// - Precondition: `rendered` has as many elements as the change starts from; otherwise the call
    ///   traps with a message naming both counts (the view missed an event, or shows other data).
    /// - Complexity: O(*u* log *n*) for *u* updates and *n* elements at most (only when the
    ///   updates need a stage of their own); see ``StagedChangeset/init(changeset:source:target:)``.
    @inlinable
    public func staged(from rendered: ListSnapshot<Element>) -> StagedChangeset<ListSnapshot<Element>> {
        precondition(
            rendered.count == changeset.sourceCount,
            "CollectionChange.staged(from:): the rendered list's count is \(rendered.count), but the change "
                + "goes \(changeset.sourceCount) → \(changeset.targetCount); pass the previous event's snapshot")
        return StagedChangeset(changeset: changeset, source: rendered, target: snapshot)
    }
}
