import RippleDiff

extension SectionedCollection {
    /// Replaces every section and item with `sections`, publishing the difference found by
    /// identity, with sections and items identified and compared by their own identities.
    ///
    /// The event holds section and item inserts, deletes, moves (also across sections) and
    /// updates, never a blanket reload. A section that is still there keeps its ``SectionData``
    /// and its `items` collection, which publishes the section's own item changes to its own
    /// subscribers; a section whose value changed gets a new `SectionData` sharing the same items.
    /// New sections get new `SectionData`.
    ///
    /// The diff runs on a snapshot without any lock held; if the collection changes meanwhile, it
    /// runs again, and after a few such races it runs under the lock. Repeated identifiers are
    /// paired in order and reported to ``Diagnostics``.
    ///
    /// ```swift
    /// struct Message: Identifiable, Equatable, Sendable { let id: Int; var isRead: Bool }
    /// let mail = SectionedCollection<String, Message>()
    /// mail.replace(
    ///     with: [SectionSnapshot(section: "Inbox", items: [Message(id: 1, isRead: false)])],
    ///     sectionIdentity: .value, itemIdentity: .id)
    /// ```
    ///
    /// - Parameters:
    ///   - sections: The new sections and their items.
    ///   - sectionIdentity: How sections are identified and compared (see ``DiffIdentity``).
    ///   - itemIdentity: How items are identified and compared, globally across sections: an item
    ///     found in another section has moved there.
    /// - Complexity: One sectioned diff, expected O(*s* + *t* + *n* + *m*) for *s* and *t* sections
    ///   holding *n* and *m* items, plus O(*s* + *t* + *c*) to apply its *c* changes.
    @inlinable
    public func replace<SectionRule, ItemRule>(
        with sections: [SectionSnapshot<Section, Item>],
        sectionIdentity: DiffIdentity<Section, SectionRule>,
        itemIdentity: DiffIdentity<Item, ItemRule>
    ) {
        replace(with: sections) {
            SectionedChangeset(from: $0, to: $1, sectionIdentity: sectionIdentity, itemIdentity: itemIdentity)
        }
    }

    /// Replaces every section and item with `sections`, diffing `Identifiable`, `Equatable`
    /// sections and items: identity from `id`, content from `==` (``DiffIdentity/id`` for both).
    ///
    /// See ``replace(with:sectionIdentity:itemIdentity:)`` for the event and the threading.
    ///
    /// - Parameter sections: The new sections and their items.
    /// - Complexity: One sectioned diff: expected O(*s* + *t* + *n* + *m*).
    @inlinable
    public func replace(with sections: [SectionSnapshot<Section, Item>])
    where Section: Identifiable & Equatable, Item: Identifiable & Equatable {
        replace(with: sections, sectionIdentity: .id, itemIdentity: .id)
    }

    /// Replaces the sections, diffing optimistically outside the lock, and under it once the
    /// optimistic attempts have lost their races (see `ObservableCollection`'s `replace`).
    ///
    /// The public forms are inlinable so that `diff` is specialized for the caller's types; this
    /// part, which touches no item, is not.
    @usableFromInline
    func replace(
        with target: [SectionSnapshot<Section, Item>],
        diff: ([SectionSnapshot<Section, Item>], [SectionSnapshot<Section, Item>]) -> SectionedChangeset
    ) {
        let attempts = ObservableCollection<Item>._optimisticReplaceAttempts
        for attempt in 0...attempts {
            // Optimistic diffs outside the lock first; the last attempt diffs under it, so that
            // constant writers cannot starve the call.
            let read = attempt == attempts ? nil : state.withLock { ($0.snapshot, $0.mutations) }
            let optimistic = read.map { diff($0.0, target) }
            var changes = optimistic
            let outcome = withState { state -> Bool? in
                if let read, state.mutations != read.1 { return nil }
                let diffed = optimistic ?? diff(state.snapshot, target)
                changes = diffed
                return apply(diffed, target: target, to: &state)
            }
            guard let mustDrain = outcome, let changes else { continue }
            if mustDrain { drain() }
            if changes.hasDuplicates {
                Diagnostics.report(
                    Diagnostic(
                        kind: .duplicateIdentifiers, source: "SectionedCollection.replace(with:)",
                        message: "repeated section identifiers at \(changes.sections.duplicates), "
                            + "repeated item identifiers at \(changes.itemDuplicates); paired in order"))
            }
            return
        }
    }

    /// A sectioned change-set split for applying: which section goes where, one flat change-set per
    /// kept section, and the moves between sections.
    struct ReplacePlan {
        var sourceOf: [Int]
        var targetOf: [Int]
        /// For each target section, the flat change of its items, or `nil` for an inserted section.
        var flats: [Changeset?]
        var crossMoves: [SectionedChangeset.PathPair]
        var updatedSections: Set<Int>
    }

    /// Splits `changes` for applying.
    ///
    /// - Complexity: O(*s* + *t* + *c*) for *s* and *t* sections and *c* item changes, plus the
    ///   sorting of the deletes and inserts of sections that items moved out of or into.
    func plan(_ changes: SectionedChangeset) -> ReplacePlan {
        let sourceCount = changes.sections.sourceCount
        let targetCount = changes.sections.targetCount
        let mapping = _SectionMapping(changes.sections)
        let (sourceOf, targetOf) = (mapping.sourceOf, mapping.targetOf)
        var deletes = [[Int]](repeating: [], count: sourceCount)
        var inserts = [[Int]](repeating: [], count: targetCount)
        var moves = [[Changeset.OffsetPair]](repeating: [], count: targetCount)
        var updates = [[Changeset.OffsetPair]](repeating: [], count: targetCount)
        var crossMoves: [SectionedChangeset.PathPair] = []
        var unsortedDeletes = [Bool](repeating: false, count: sourceCount)
        var unsortedInserts = [Bool](repeating: false, count: targetCount)
        for path in changes.itemDeletes { deletes[path.section].append(path.item) }
        for path in changes.itemInserts { inserts[path.section].append(path.item) }
        for move in changes.itemMoves {
            let from = move.source.section
            let to = move.target.section
            if sourceOf[to] == from {
                moves[to].append(Changeset.OffsetPair(source: move.source.item, target: move.target.item))
                continue
            }
            crossMoves.append(move)
            if targetOf[from] >= 0 {
                deletes[from].append(move.source.item)
                unsortedDeletes[from] = true
            }
            if sourceOf[to] >= 0 {
                inserts[to].append(move.target.item)
                unsortedInserts[to] = true
            }
        }
        for update in changes.itemUpdates where sourceOf[update.target.section] == update.source.section {
            updates[update.target.section].append(
                Changeset.OffsetPair(source: update.source.item, target: update.target.item))
        }
        var flats = [Changeset?](repeating: nil, count: targetCount)
        for t in 0..<targetCount where sourceOf[t] >= 0 {
            let s = sourceOf[t]
            if unsortedDeletes[s] { deletes[s].sort() }
            if unsortedInserts[t] { inserts[t].sort() }
            flats[t] = Changeset(
                sourceCount: changes.sourceItemCounts[s], targetCount: changes.targetItemCounts[t],
                deletes: deletes[s], inserts: inserts[t], moves: moves[t], updates: updates[t])
        }
        return ReplacePlan(
            sourceOf: sourceOf, targetOf: targetOf, flats: flats, crossMoves: crossMoves,
            updatedSections: Set(changes.sections.updates.map(\.source)))
    }

    /// Applies a diff of the whole list under the lock: keeps, updates, attaches and detaches
    /// sections, gives each kept section its new items, and records the change-set.
    ///
    /// - Returns: Whether the caller must drain after unlocking.
    func apply(
        _ changes: SectionedChangeset,
        target: [SectionSnapshot<Section, Item>],
        to state: inout State
    ) -> Bool {
        state.replacedSinceLastEvent = true
        let plan = plan(changes)
        var entries: [Entry] = []
        entries.reserveCapacity(target.count)
        for t in target.indices {
            let s = plan.sourceOf[t]
            guard s >= 0, let flat = plan.flats[t] else {
                let data = SectionData(target[t].section, items: target[t].items)
                entries.append(attach(data, at: t, method: "replace(with:)", state: &state))
                continue
            }
            var entry = state.entries[s]
            if plan.updatedSections.contains(s) {
                state.released.append(entry.data)
                entry.data = entry.data.replacingSection(with: target[t].section)
            }
            if !flat.isEmpty {
                // A section whose items did not change keeps the ones its last event published.
                state.released.append(entry.items)
                entry.items = target[t].items
            }
            entries.append(entry)
        }
        for s in plan.targetOf.indices where plan.targetOf[s] < 0 { Self.detach(state.entries[s]) }
        state.released.append(state.entries)
        state.entries = entries
        return record(changes, plan, in: &state)
    }

    func record(_ changes: SectionedChangeset, _ plan: ReplacePlan, in state: inout State) -> Bool {
        state.mutations &+= 1
        guard var batch = state.batch else { return state.publish(changes) }
        batch.touchAll()  // A replace is O(n) already.
        let oldSections = batch.sectionOrigins
        let oldItems = batch.itemOrigins.map { $0! }
        batch.sectionOrigins = plan.sourceOf.map { $0 >= 0 ? oldSections[$0] : -1 }
        for update in changes.sections.updates where oldSections[update.source] >= 0 {
            batch.updatedSections.append(oldSections[update.source])
        }
        batch.itemOrigins = plan.flats.indices.map { t -> [Int]? in
            guard let flat = plan.flats[t] else {
                return [Int](repeating: -1, count: changes.targetItemCounts[t])
            }
            return SectionedBatchRecorder.fold(flat, into: oldItems[plan.sourceOf[t]], updated: &batch.updatedItems)
        }
        for move in plan.crossMoves {
            batch.itemOrigins[move.target.section]![move.target.item] = oldItems[move.source.section][move.source.item]
        }
        for update in changes.itemUpdates where plan.sourceOf[update.target.section] != update.source.section {
            let origin = oldItems[update.source.section][update.source.item]
            if origin >= 0 { batch.updatedItems.append(origin) }
        }
        state.batch = batch
        return false
    }
}
