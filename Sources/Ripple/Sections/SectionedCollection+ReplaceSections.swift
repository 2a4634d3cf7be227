import RippleDiff

// `replace(withSections:)`: the list becomes the given `SectionData` objects themselves, as when a
// presenter rebuilds its sections; the event is still the difference found by identity.

extension SectionedCollection {
    /// Makes `sections` the collection's sections, publishing the difference found by identity,
    /// with sections and items identified and compared by their own identities.
    ///
    /// Afterwards `self.sections` holds exactly these `SectionData` objects, and their `items` live
    /// here. The event is the sectioned diff of the list before and the list these sections show:
    /// section and item inserts, deletes, moves and updates, never a blanket reload. The items of
    /// the new objects are not changed. A section may share the items of a section that is here now
    /// (``SectionData/replacingSection(with:)``), wherever the diff places it; items held by another
    /// sectioned collection make the call trap (see "Sharing" in ``SectionData``).
    ///
    /// <!-- swift
    /// struct Folder: Sendable {
    ///     var folderID: Int
    ///     var title: String
    /// }
    /// struct Message: Sendable {
    ///     var messageID: Int
    ///     var isRead: Bool
    /// }
    /// let mail = SectionedCollection([SectionData(Folder(folderID: 1, title: "Inbox"), items: [Message(messageID: 1, isRead: false)])])
    /// struct FolderPage: Sendable {
    ///     var header: Folder
    ///     var messages: [Message]
    /// }
    /// let folders = [FolderPage(header: Folder(folderID: 1, title: "Inbox"), messages: [Message(messageID: 2, isRead: false)])]
    /// -->
    /// ```swift
    /// let shelves = SectionedCollection<String, Int>()
    /// shelves.replace(withSections: [SectionData("Unread", items: [1, 2])], sectionIdentity: .value, itemIdentity: .value)
    /// ```
    ///
    /// - Parameters:
    ///   - sections: The new sections.
    ///   - sectionIdentity: How sections are identified and compared (see ``DiffIdentity``).
    ///   - itemIdentity: How items are identified and compared, globally across sections.
    /// - Complexity: One sectioned diff, expected O(*s* + *t* + *n* + *m*) for *s* and *t* sections
    ///   holding *n* and *m* items, plus O(*s* + *t* + *c*) to apply its *c* changes.
    @inlinable
    public func replace<SectionRule, ItemRule>(
        withSections sections: [SectionData<Section, Item>],
        sectionIdentity: DiffIdentity<Section, SectionRule>,
        itemIdentity: DiffIdentity<Item, ItemRule>
    ) {
        replace(withSections: sections) {
            SectionedChangeset(from: $0, to: $1, sectionIdentity: sectionIdentity, itemIdentity: itemIdentity)
        }
    }

    /// Makes `sections` the collection's sections, diffing `Identifiable`, `Equatable` sections
    /// and items: identity from `id`, content from `==` (``DiffIdentity/id`` for both).
    ///
    /// See ``replace(withSections:sectionIdentity:itemIdentity:)``.
    ///
    /// - Parameter sections: The new sections.
    /// - Complexity: One sectioned diff: expected O(*s* + *t* + *n* + *m*).
    @inlinable
    public func replace(withSections sections: [SectionData<Section, Item>])
    where Section: Identifiable & Equatable, Item: Identifiable & Equatable {
        replace(withSections: sections, sectionIdentity: .id, itemIdentity: .id)
    }

    /// Makes `sections` the collection's sections, diffing optimistically outside the lock.
    ///
    /// The list now and the new sections' items are read together under the lock; the diff runs
    /// on them outside it, and again if this collection, or the items of a new section that no
    /// collection holds, changed meanwhile. The last attempt diffs under the lock.
    @usableFromInline
    func replace(
        withSections target: [SectionData<Section, Item>],
        diff: ([SectionSnapshot<Section, Item>], [SectionSnapshot<Section, Item>]) -> SectionedChangeset
    ) {
        let attempts = ObservableCollection<Item>._optimisticReplaceAttempts
        for attempt in 0...attempts {
            let optimistic =
                attempt == attempts
                ? nil : state.withLock { ($0.snapshot, $0.mutations, read(target, in: $0)) }
            let optimisticChanges = optimistic.map { diff($0.0, $0.2.map(\.snapshot)) }
            var changes = optimisticChanges
            let outcome = withState { state -> Bool? in
                let reads = read(target, in: state)
                if let optimistic {
                    guard state.mutations == optimistic.1, reads.map(\.stamp) == optimistic.2.map(\.stamp) else {
                        return nil
                    }
                }
                let diffed = optimisticChanges ?? diff(state.snapshot, reads.map(\.snapshot))
                changes = diffed
                return apply(diffed, sections: target, to: &state)
            }
            guard let mustDrain = outcome, let changes else { continue }
            if mustDrain { drain() }
            if changes.hasDuplicates {
                Diagnostics.report(
                    Diagnostic(
                        kind: .duplicateIdentifiers, source: "SectionedCollection.replace(withSections:)",
                        message: "repeated section identifiers at \(changes.sections.duplicates), "
                            + "repeated item identifiers at \(changes.itemDuplicates); paired in order"))
            }
            return
        }
    }

    /// One new section as `replace(withSections:)` reads it: what it shows, and the count of
    /// changes of its items when no collection holds them (`nil` when this one does: this
    /// collection's own count covers them).
    struct SectionRead {
        var snapshot: SectionSnapshot<Section, Item>
        var stamp: Int?
    }

    /// Reads what `sections` show, with the lock held: the items of a section this collection
    /// holds from its entry, the others from their own list (taking its lock inside this one, the
    /// one lock order, as `attach` does).
    func read(_ sections: [SectionData<Section, Item>], in state: State) -> [SectionRead] {
        sections.enumerated().map { position, data in
            let own = data.items.state.withLock {
                items -> (host: SectionItemsHost<Item>?, link: Int, items: ListSnapshot<Item>, stamp: Int) in
                (items.host, items.link, items.items, items.changes)
            }
            if own.host === host, let index = state.index(ofLink: own.link) {
                return SectionRead(
                    snapshot: SectionSnapshot(section: data.section, items: state.entries[index].items), stamp: nil)
            }
            guard own.host == nil else { Self.itemsHeldElsewhere("replace(withSections:)", position) }
            return SectionRead(snapshot: SectionSnapshot(section: data.section, items: own.items), stamp: own.stamp)
        }
    }

    /// Makes `target` the sections, with the lock held, and records `changes` (the diff of the list
    /// now and what `target` shows).
    ///
    /// A section whose items live here keeps its entry (its items stay; its position is the
    /// target's); the others are attached. Entries no target section keeps are detached.
    ///
    /// - Returns: Whether the caller must drain after unlocking.
    func apply(_ changes: SectionedChangeset, sections target: [SectionData<Section, Item>], to state: inout State)
        -> Bool
    {
        state.replacedSinceLastEvent = true
        let plan = plan(changes)
        var kept = [Bool](repeating: false, count: state.entries.count)
        var entries: [Entry] = []
        entries.reserveCapacity(target.count)
        for (t, data) in target.enumerated() {
            let link = data.items.state.withLock { $0.host === host ? $0.link : nil }
            if let link, let s = state.index(ofLink: link) {
                if kept[s] { Self.itemsHeldElsewhere("replace(withSections:)", t) }
                var entry = state.entries[s]
                state.released.append(entry.data)
                entry.data = data
                kept[s] = true
                entries.append(entry)
            } else {
                entries.append(attach(data, at: t, method: "replace(withSections:)", state: &state))
            }
        }
        for s in state.entries.indices where !kept[s] { Self.detach(state.entries[s]) }
        state.released.append(state.entries)
        state.entries = entries
        return record(changes, plan, in: &state)
    }
}
