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

    /// The mirror of `list`'s last published event, and a subscription that hands each later event
    /// to `apply` on the main actor, for as long as `box` holds its owner.
    @MainActor
    static func following<Owner: AnyObject>(
        _ list: some LiveList<Element>, for box: WeakBox<Owner>,
        apply: @escaping @MainActor (Owner, CollectionChange<Element>) -> Void
    ) -> (ListMirror, SubscriptionToken) {
        let (published, version, token) = list._subscribeOnMainActor(
            afterReading: { change in box.value.map { apply($0, change) } })
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

    /// Applies `change` by taking its snapshot, whose sections share their items with the
    /// collection: O(*s*) for *s* sections, whatever the number of items.
    ///
    /// - Returns: The sections before, to be released by the caller.
    mutating func apply(_ change: SectionedCollectionChange<Section, Item>) -> [SectionSnapshot<Section, Item>] {
        var left = change.snapshot
        swap(&left, &sections)
        version = change.version
        return left
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
