import RippleDiff

// `replace(withSections:)`: the list becomes the given `SectionData` objects themselves, as when a
// presenter rebuilds its sections; the event is still the difference found by identity.

extension SectionedCollection {
    /// Makes `sections` the collection's sections, publishing the difference found by identity,
    /// with sections and items identified and compared by their own identities.
    ///
    /// Afterwards `self.sections` holds exactly these `SectionData` objects, and this collection
    /// follows their `items` collections. The event is the sectioned diff of the list before and
    /// the list these sections show: section and item inserts, deletes, moves and updates, never a
    /// blanket reload. A section that was already here keeps its subscription; the items
    /// collections of the new objects are not changed.
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
    /// Each new section's items are read together with their collection's version; the diff runs
    /// on them, and runs again if this collection changed meanwhile.
    @usableFromInline
    func replace(
        withSections target: [SectionData<Section, Item>],
        diff: ([SectionSnapshot<Section, Item>], [SectionSnapshot<Section, Item>]) -> SectionedChangeset
    ) {
        let attempts = ObservableCollection<Item>._optimisticReplaceAttempts
        for attempt in 0...attempts {
            // Optimistic diffs outside the lock first; the last attempt reads and diffs under it
            // (this collection's lock, then each section's, the order every mutation takes), so
            // that constant writers cannot starve the call.
            let underLock = attempt == attempts
            func read() -> [(items: [Item], version: Int)] {
                target.map { data in data.items.state.withLock { ($0.published, $0.version) } }
            }
            let optimistic = underLock ? nil : state.withLock { ($0.recorded, $0.mutations) }
            let optimisticReads = underLock ? [] : read()
            let optimisticChanges = optimistic.map { current in
                diff(current.0, zip(target, optimisticReads).map { SectionSnapshot(section: $0.section, items: $1.items) })
            }
            var changes = optimisticChanges
            let outcome = withState { state -> Bool? in
                if let optimistic, state.mutations != optimistic.1 { return nil }
                let reads = underLock ? read() : optimisticReads
                let diffed = optimisticChanges ?? diff(
                    state.recorded, zip(target, reads).map { SectionSnapshot(section: $0.section, items: $1.items) })
                changes = diffed
                return apply(diffed, sections: target, reads: reads, to: &state)
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

    /// Makes `sections` the entries under the lock, keeping the subscription of every section
    /// whose items collection stays, and records the change-set.
    ///
    /// A new section whose items collection changed since it was read is shown as read, then
    /// brought up to date by a second event.
    ///
    /// - Returns: Whether the caller must drain after unlocking.
    func apply(
        _ changes: SectionedChangeset,
        sections target: [SectionData<Section, Item>],
        reads: [(items: [Item], version: Int)],
        to state: inout State
    ) -> Bool {
        let plan = plan(changes)
        var entries: [Entry] = []
        entries.reserveCapacity(target.count)
        var kept = [Bool](repeating: false, count: state.entries.count)
        var behind: [(section: Int, items: [Item])] = []
        for t in target.indices {
            let s = plan.sourceOf[t]
            if s >= 0 && state.entries[s].data.items === target[t].items {
                // Same items collection: keep following it, from the items the diff saw.
                var entry = state.entries[s]
                state.trash.append(entry.data)
                state.trash.append(entry.recorded)
                entry.data = target[t]
                entry.recorded = reads[t].items
                entry.innerVersion = reads[t].version
                entry.needsResync = false
                kept[s] = true
                entries.append(entry)
                continue
            }
            var entry = attach(target[t], state: &state)
            if entry.innerVersion != reads[t].version {
                // Changed since it was read: show the items the diff saw, then the ones attached.
                behind.append((t, entry.recorded))
                entry.recorded = reads[t].items
            }
            entries.append(entry)
        }
        for s in state.entries.indices where !kept[s] { Self.detach(state.entries[s]) }
        state.trash.append(state.entries)
        state.entries = entries
        var mustDrain = record(changes, plan, in: &state)
        for (t, attached) in behind {
            let old = state.entries[t].recorded
            state.trash.append(old)
            state.entries[t].recorded = attached
            let wholesale = Changeset(
                sourceCount: old.count, targetCount: attached.count,
                deletes: Array(old.indices), inserts: Array(attached.indices))
            if state.recordItems(wholesale, inSection: t) { mustDrain = true }
        }
        return mustDrain
    }
}
