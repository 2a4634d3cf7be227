import RippleDiff

/// A list as of a collection's last event: the storage behind ``ObservedList`` and its
/// `ObservableObject` twin. It keeps each event's snapshot, which shares its storage with the
/// collection, so following an event costs O(1) whatever the list's length.
struct ListMirror<Element: Sendable> {
    /// The elements as of ``version``.
    private(set) var elements: ListSnapshot<Element>
    /// The version of the last event applied.
    private(set) var version: Int

    init(elements: ListSnapshot<Element>, version: Int) {
        self.elements = elements
        self.version = version
    }

    /// The mirror of `collection`'s last published event, and a subscription that hands each later
    /// event to `apply` on the main actor, for as long as `box` holds its owner.
    @MainActor
    static func following<Owner: AnyObject>(
        _ collection: ObservableCollection<Element>, for box: WeakBox<Owner>,
        apply: @escaping @MainActor (Owner, CollectionChange<Element>) -> Void
    ) -> (ListMirror, SubscriptionToken) {
        let (published, version, token) = collection.subscribe(
            afterReading: .mainActor { change in box.value.map { apply($0, change) } })
        return (ListMirror(elements: published, version: version), token)
    }

    /// Whether `change` is an event this mirror has not applied yet.
    func isNew(_ change: CollectionChange<Element>) -> Bool { change.version > version }

    /// Applies `change` by taking its snapshot: O(1).
    ///
    /// - Returns: The list before, to be released by the caller (it may hold the last reference to
    ///   removed elements).
    mutating func apply(_ change: CollectionChange<Element>) -> ListSnapshot<Element> {
        var left = change.snapshot
        swap(&left, &elements)
        version = change.version
        return left
    }
}

/// The sectioned twin of ``ListMirror``: the storage behind ``ObservedSectionedList``.
struct SectionedListMirror<Section: Sendable, Item: Sendable> {
    /// The sections as of ``version``.
    private(set) var sections: [SectionSnapshot<Section, Item>]
    /// The version of the last event applied.
    private(set) var version: Int

    init(sections: [SectionSnapshot<Section, Item>], version: Int) {
        self.sections = sections
        self.version = version
    }

    /// The mirror of `collection`'s last published event, and a subscription that hands each later
    /// event to `apply` on the main actor, for as long as `box` holds its owner.
    @MainActor
    static func following<Owner: AnyObject>(
        _ collection: SectionedCollection<Section, Item>, for box: WeakBox<Owner>,
        apply: @escaping @MainActor (Owner, SectionedCollectionChange<Section, Item>) -> Void
    ) -> (SectionedListMirror, SubscriptionToken) {
        let (published, version, token) = collection.subscribe(
            afterReading: .mainActor { change in box.value.map { apply($0, change) } })
        return (SectionedListMirror(sections: published, version: version), token)
    }

    /// Whether `change` is an event this mirror has not applied yet.
    func isNew(_ change: SectionedCollectionChange<Section, Item>) -> Bool { change.version > version }

    /// Applies `change`: item changes inside one section in place (an item appended costs O(1)
    /// and copies nothing); any other event by taking its snapshot, whose item arrays it shares.
    ///
    /// - Returns: What left the list, to be released by the caller.
    mutating func apply(_ change: SectionedCollectionChange<Section, Item>) -> Any {
        defer { version = change.version }
        if change.version == version + 1, let (section, items) = Self.itemChanges(of: change.changeset),
            section < sections.count, items.sourceCount == sections[section].items.count
        {
            return sections[section].items.follow(items, to: change.snapshot[section].items)
        }
        let left = sections
        sections = change.snapshot
        return left
    }

    /// The section and the flat change-set of a change-set that changes the items of one section
    /// only (no section changes, no item moving between sections); `nil` for any other.
    static func itemChanges(of changes: SectionedChangeset) -> (Int, Changeset)? {
        guard changes.sections.isEmpty else { return nil }
        let paths = changes.itemDeletes + changes.itemInserts + changes.itemMoves.flatMap { [$0.source, $0.target] }
            + changes.itemUpdates.flatMap { [$0.source, $0.target] }
        guard let section = paths.first?.section, paths.allSatisfy({ $0.section == section }) else { return nil }
        let pair = { (pair: SectionedChangeset.PathPair) in Changeset.OffsetPair(source: pair.source.item, target: pair.target.item) }
        return (
            section,
            Changeset(
                sourceCount: changes.sourceItemCounts[section], targetCount: changes.targetItemCounts[section],
                deletes: changes.itemDeletes.map(\.item), inserts: changes.itemInserts.map(\.item),
                moves: changes.itemMoves.map(pair), updates: changes.itemUpdates.map(pair))
        )
    }
}

/// Runs `update` once, inside `transaction` when there is one (an animation), and releases what it
/// returns afterwards.
@MainActor
func applyOnce<Left>(in transaction: (@MainActor (_ change: () -> Void) -> Void)?, _ update: () -> Left) {
    var left: Left?
    if let transaction { transaction { left = update() } } else { left = update() }
    withExtendedLifetime(left) {}
}
