import RippleDiff

extension SectionedCollection.State {
    /// The sectioned list now.
    ///
    /// - Complexity: O(*s*) for *s* sections; entries are read in place and their items shared.
    var snapshot: [SectionSnapshot<Section, Item>] {
        entries.withUnsafeBufferPointer { entries in
            var snapshot: [SectionSnapshot<Section, Item>] = []
            snapshot.reserveCapacity(entries.count)
            for index in entries.indices {
                snapshot.append(SectionSnapshot(section: entries[index].data.section, items: entries[index].items))
            }
            return snapshot
        }
    }

    /// The position of the entry `link`, or `nil` once it has been removed.
    ///
    /// Reads each entry in place: copying entries to compare them would retain and release
    /// references per section.
    ///
    /// - Complexity: O(*s*) for *s* sections.
    func index(ofLink link: Int) -> Int? {
        entries.withUnsafeBufferPointer { entries in
            for index in entries.indices where entries[index].link == link { return index }
            return nil
        }
    }

    /// The number of items in each section now.
    @usableFromInline
    var itemCounts: [Int] {
        entries.withUnsafeBufferPointer { entries in entries.indices.map { entries[$0].items.count } }
    }

    /// Records that the items of section `section` changed by `changes` (the entry already holds
    /// the new items): folds it into the open batch, or publishes it.
    ///
    /// - Returns: Whether the caller must drain after unlocking.
    @inlinable
    mutating func recordItems(_ changes: Changeset, inSection section: Int) -> Bool {
        guard !changes.isEmpty else { return false }
        mutations &+= 1
        if batch != nil {
            batch!.fold(changes, inSection: section)
            return false
        }
        var sourceCounts = itemCounts
        sourceCounts[section] = changes.sourceCount
        let path = { (item: Int) in ElementPath(item: item, section: section) }
        let pair = { (pair: Changeset.OffsetPair) in
            SectionedChangeset.PathPair(source: path(pair.source), target: path(pair.target))
        }
        return publish(
            SectionedChangeset(
                sections: .unchanged(count: entries.count), sourceItemCounts: sourceCounts,
                targetItemCounts: itemCounts, itemDeletes: changes.deletes.map(path),
                itemInserts: changes.inserts.map(path), itemMoves: changes.moves.map(pair),
                itemUpdates: changes.updates.map(pair)))
    }

    /// Records that an item moved from `source` to `target` across sections (the entries already
    /// hold the new items).
    ///
    /// - Returns: Whether the caller must drain after unlocking.
    @inlinable
    mutating func recordMove(from source: ElementPath, to target: ElementPath) -> Bool {
        mutations &+= 1
        if batch != nil {
            batch!.touch(source.section)
            batch!.touch(target.section)
            let origin = batch!.itemOrigins[source.section]!.remove(at: source.item)
            batch!.itemOrigins[target.section]!.insert(origin, at: target.item)
            return false
        }
        var sourceCounts = itemCounts
        sourceCounts[source.section] += 1
        sourceCounts[target.section] -= 1
        return publish(
            SectionedChangeset(
                sections: .unchanged(count: entries.count), sourceItemCounts: sourceCounts,
                targetItemCounts: itemCounts,
                itemMoves: [SectionedChangeset.PathPair(source: source, target: target)]))
    }

    /// Publishes `changeset` as a new version, unless it is empty or a batch is open.
    ///
    /// - Returns: Whether the caller must drain after unlocking.
    @usableFromInline
    mutating func publish(_ changeset: SectionedChangeset) -> Bool {
        guard batch == nil, !changeset.isEmpty else { return false }
        #if RIPPLE_INTERNAL_CHECKS
        let shapes = (published.map(\.items.count), itemCounts)
        if let failure = changeset.validationFailure()
            ?? (changeset.sourceItemCounts == shapes.0 && changeset.targetItemCounts == shapes.1
                ? nil
                : "it goes \(changeset.sourceItemCounts) → \(changeset.targetItemCounts), the collection \(shapes.0) → \(shapes.1)")
        {
            preconditionFailure(
                "SectionedCollection: version \(version + 1) would publish an invalid change-set: \(failure)")
        }
        #endif
        version &+= 1
        let snapshot = snapshot
        released.append(published)
        published = snapshot
        let mayReplaceKept = replacedSinceLastEvent
        replacedSinceLastEvent = false
        return core.enqueue(
            SectionedCollectionChange(
                changeset: changeset, snapshot: snapshot, version: version, mayReplaceKeptElements: mayReplaceKept))
    }
}
