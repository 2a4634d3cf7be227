import RippleDiff

extension SectionedCollection {
    /// Runs one item mutation of the section at `section` under this collection's lock and the
    /// section's, and publishes after unlocking.
    ///
    /// `body` changes the section's live items and returns the exact flat change-set. When the
    /// section here is in step with its items collection, the change is applied to both at once;
    /// otherwise (the items collection is inside its own batch, or has events on the way here) it
    /// goes to the items collection alone and reaches this collection through its event.
    func mutateItems<Result>(
        _ method: String, section: Int, _ body: (inout [Item]) -> (Changeset?, Result)
    ) -> Result {
        var drains: [ObservableCollection<Item>] = []
        let (mustDrain, result) = withState { state in
            Self.mutateItems(method, section: section, in: &state, drains: &drains, body)
        }
        if mustDrain { drain() }
        for inner in drains { inner.drain() }
        return result
    }

    /// ``mutateItems(_:section:_:)`` with this collection's lock held.
    ///
    /// - Parameter drains: Gets the section's items collection when it must drain after unlocking.
    /// - Returns: Whether this collection must drain after unlocking, and `body`'s result.
    static func mutateItems<Result>(
        _ method: String, section: Int, in state: inout State, drains: inout [ObservableCollection<Item>],
        _ body: (inout [Item]) -> (Changeset?, Result)
    ) -> (Bool, Result) {
        guard section >= 0 && section < state.entries.count else {
            Self.sectionOutOfRange(method, section, state.entries.count)
        }
        let inner = state.items(section)
        var mustDrain = false
        let (innerMustDrain, result) = inner.state.withLock { innerState -> (Bool, Result) in
            let inSync = state.isInSync(section, with: innerState)
            let (changes, result) = body(&innerState.elements)
            guard let changes else { return (innerState.commit(nil), result) }
            let innerMustDrain = innerState.commitFromSections(changes)
            if inSync {
                state.follow(changes, inSection: section, elements: innerState.elements)
                state.entries[section].innerVersion = innerState.version
                if state.recordItems(changes, inSection: section) { mustDrain = true }
            }
            return (innerMustDrain, result)
        }
        if innerMustDrain { drains.append(inner) }
        return (mustDrain, result)
    }

    /// Reads or replaces the item at `path`. Replacing it publishes an update.
    ///
    /// Reads the section's `items` as they are now, as ``numberOfItems(inSection:)`` and the item
    /// mutations do. A path that is out of range at the moment of the read traps with a message
    /// naming the path and the range.
    ///
    /// - Parameter path: A path to an item: a section in `0..<numberOfSections` and an item
    ///   offset inside that section.
    /// - Complexity: O(1) to read; O(*s*) to replace, for *s* sections.
    public subscript(path: ElementPath) -> Item {
        get {
            state.withLock { state in
                guard path.section >= 0 && path.section < state.entries.count else {
                    Self.sectionOutOfRange("subscript", path.section, state.entries.count)
                }
                return state.items(path.section).state.withLock { inner in
                    guard path.item >= 0 && path.item < inner.elements.count else {
                        Self.itemOutOfRange("subscript", path, inner.elements.count)
                    }
                    return inner.elements[path.item]
                }
            }
        }
        set {
            // The replaced item is released here, after unlocking.
            let replaced = mutateItems("subscript", section: path.section) { items -> (Changeset?, Item) in
                guard path.item >= 0 && path.item < items.count else {
                    Self.itemOutOfRange("subscript", path, items.count)
                }
                let replaced = items[path.item]
                items[path.item] = newValue
                return (
                    Changeset(
                        sourceCount: items.count, targetCount: items.count,
                        updates: [Changeset.OffsetPair(source: path.item, target: path.item)]),
                    replaced
                )
            }
            withExtendedLifetime(replaced) {}
        }
    }

    /// Adds an item at the end of a section.
    ///
    /// - Parameters:
    ///   - item: The item to add.
    ///   - section: A section offset in `0..<numberOfSections`.
    /// - Complexity: Amortized O(*s*) for *s* sections.
    public func appendItem(_ item: Item, toSection section: Int) {
        mutateItems("appendItem(_:toSection:)", section: section) { items in
            let count = items.count
            items.append(item)
            return (Changeset(sourceCount: count, targetCount: count + 1, inserts: [count]), ())
        }
    }

    /// Inserts an item at `path`.
    ///
    /// - Parameters:
    ///   - item: The item to insert.
    ///   - path: A section in `0..<numberOfSections` and an item offset in `0...count` of that
    ///     section.
    /// - Complexity: O(*s* + *m*) for *s* sections and *m* items in the section.
    public func insertItem(_ item: Item, at path: ElementPath) {
        mutateItems("insertItem(_:at:)", section: path.section) { items in
            let count = items.count
            guard path.item >= 0 && path.item <= count else {
                Self.itemOutOfRange("insertItem(_:at:)", path, count, endInclusive: true)
            }
            items.insert(item, at: path.item)
            return (Changeset(sourceCount: count, targetCount: count + 1, inserts: [path.item]), ())
        }
    }

    /// Removes and returns the item at `path`.
    ///
    /// - Parameter path: A section in `0..<numberOfSections` and an item offset in `0..<count` of
    ///   that section.
    /// - Returns: The removed item.
    /// - Complexity: O(*s* + *m*) for *s* sections and *m* items in the section.
    @discardableResult
    public func removeItem(at path: ElementPath) -> Item {
        mutateItems("removeItem(at:)", section: path.section) { items in
            let count = items.count
            guard path.item >= 0 && path.item < count else {
                Self.itemOutOfRange("removeItem(at:)", path, count)
            }
            let removed = items.remove(at: path.item)
            return (Changeset(sourceCount: count, targetCount: count - 1, deletes: [path.item]), removed)
        }
    }

    /// Moves the item at `source` so that it ends at `destination`, inside a section or across
    /// sections, as `UITableView.moveRow(at:to:)` does. The event holds one move.
    ///
    /// - Parameters:
    ///   - source: The item's path now.
    ///   - destination: The item's path afterwards: inside the same section, an offset in
    ///     `0..<count`; in another section, an offset in `0...count` of that section as it is now.
    /// - Complexity: O(*s* + *m*) for *s* sections and *m* items in the sections involved.
    /// - Note: When either section's own items collection is inside a batch of its own, or has
    ///   events on their way here from another thread, the events show a delete and an insert,
    ///   each published when that section's change reaches this collection. Reads show the move at
    ///   once.
    public func moveItem(from source: ElementPath, to destination: ElementPath) {
        var drains: [ObservableCollection<Item>] = []
        let mustDrain = withState { state in
            Self.moveItem(from: source, to: destination, method: "moveItem(from:to:)", in: &state, drains: &drains)
        }
        if mustDrain { drain() }
        for inner in drains { inner.drain() }
    }

    /// Moves the item at `source` to `destination`, as ``moveItem(from:to:)`` does, only when the
    /// collection is still at `version` and shows exactly what its events have published; in one
    /// step under the lock, so that no other thread's change can fall between the check and the
    /// move.
    ///
    /// Interactive reordering uses it: the user dragged a row of the list as published at
    /// `version`, and a change made meanwhile on another thread cancels the drag rather than
    /// moving another item, or trapping on a path that no longer exists.
    ///
    /// - Parameters:
    ///   - source: The item's path now.
    ///   - destination: The item's path afterwards, as for ``moveItem(from:to:)``.
    ///   - version: The version the caller's paths refer to (an event's
    ///     ``SectionedCollectionChange/version``).
    /// - Returns: `true` when the item moved (or `source == destination`); `false`, changing
    ///   nothing, when the version is another, a batch is open (this collection's, or the
    ///   sections' own `items`'), a section's items have changes on their way here, or a path is
    ///   out of range.
    /// - Complexity: O(*s* + *m*) for *s* sections and *m* items in the sections involved.
    public func moveItem(from source: ElementPath, to destination: ElementPath, ifVersion version: Int) -> Bool {
        var drains: [ObservableCollection<Item>] = []
        let (moved, mustDrain) = withState { state -> (Bool, Bool) in
            guard state.version == version, state.batch == nil,
                Self.canMove(from: source, to: destination, in: state)
            else { return (false, false) }
            let method = "moveItem(from:to:ifVersion:)"
            return (true, Self.moveItem(from: source, to: destination, method: method, in: &state, drains: &drains))
        }
        if mustDrain { drain() }
        for inner in drains { inner.drain() }
        return moved
    }

    /// Whether both paths are in range and both sections show what their items collections hold
    /// (no batch of their own, no event on its way); called with this collection's lock held.
    static func canMove(from source: ElementPath, to destination: ElementPath, in state: State) -> Bool {
        let sections = state.entries.count
        guard source.section >= 0, source.section < sections, destination.section >= 0,
            destination.section < sections
        else { return false }
        let (from, to) = (state.items(source.section), state.items(destination.section))
        let sourceCount = from.state.withLock { state.isInSync(source.section, with: $0) ? $0.elements.count : -1 }
        guard source.item >= 0, source.item < sourceCount else { return false }
        if source.section == destination.section { return destination.item >= 0 && destination.item < sourceCount }
        let targetCount = to.state.withLock { state.isInSync(destination.section, with: $0) ? $0.elements.count : -1 }
        return destination.item >= 0 && destination.item <= targetCount
    }

    /// ``moveItem(from:to:)`` with this collection's lock held.
    ///
    /// - Returns: Whether this collection must drain after unlocking.
    static func moveItem(
        from source: ElementPath, to destination: ElementPath, method: String, in state: inout State,
        drains: inout [ObservableCollection<Item>]
    ) -> Bool {
        if source.section == destination.section {
            return mutateItems(method, section: source.section, in: &state, drains: &drains) { items in
                let count = items.count
                guard source.item >= 0 && source.item < count else { Self.itemOutOfRange(method, source, count) }
                guard destination.item >= 0 && destination.item < count else {
                    Self.itemOutOfRange(method, destination, count)
                }
                guard source.item != destination.item else { return (nil, ()) }
                items.insert(items.remove(at: source.item), at: destination.item)
                return (
                    Changeset(
                        sourceCount: count, targetCount: count,
                        moves: [Changeset.OffsetPair(source: source.item, target: destination.item)]),
                    ()
                )
            }.0
        }
        let count = state.entries.count
        for section in [source.section, destination.section] where section < 0 || section >= count {
            Self.sectionOutOfRange(method, section, count)
        }
        let from = state.items(source.section)
        let to = state.items(destination.section)
        var mustDrain = false
        // Check both paths before changing anything.
        to.state.withLock { inner in
            guard destination.item >= 0 && destination.item <= inner.elements.count else {
                Self.itemOutOfRange(method, destination, inner.elements.count, endInclusive: true)
            }
        }
        let (item, fromInSync) = from.state.withLock { inner -> (Item, Bool) in
            let count = inner.elements.count
            guard source.item >= 0 && source.item < count else { Self.itemOutOfRange(method, source, count) }
            let inSync = state.isInSync(source.section, with: inner)
            let item = inner.elements.remove(at: source.item)
            if inner.commitFromSections(
                Changeset(sourceCount: count, targetCount: count - 1, deletes: [source.item]))
            {
                drains.append(from)
            }
            if inSync {
                state.entries[source.section].recorded.remove(at: source.item)
                state.entries[source.section].innerVersion = inner.version
            }
            return (item, inSync)
        }
        let (target, toInSync) = to.state.withLock { inner -> (Int, Bool) in
            let count = inner.elements.count
            let target = min(destination.item, count)
            let inSync = state.isInSync(destination.section, with: inner)
            inner.elements.insert(item, at: target)
            if inner.commitFromSections(Changeset(sourceCount: count, targetCount: count + 1, inserts: [target])) {
                drains.append(to)
            }
            if inSync {
                state.entries[destination.section].recorded.insert(item, at: target)
                state.entries[destination.section].innerVersion = inner.version
            }
            return (target, inSync)
        }
        let landed = ElementPath(item: target, section: destination.section)
        switch (fromInSync, toInSync) {
        case (true, true):
            if state.recordMove(from: source, to: landed) { mustDrain = true }
        case (true, false):
            let count = state.entries[source.section].recorded.count
            if state.recordItems(
                Changeset(sourceCount: count + 1, targetCount: count, deletes: [source.item]),
                inSection: source.section)
            {
                mustDrain = true
            }
        case (false, true):
            let count = state.entries[destination.section].recorded.count
            if state.recordItems(
                Changeset(sourceCount: count - 1, targetCount: count, inserts: [target]),
                inSection: destination.section)
            {
                mustDrain = true
            }
        case (false, false):
            break
        }
        return mustDrain
    }
}

extension SectionedCollection.State {
    /// Brings the items of section `section` from where they were to `elements` (its items
    /// collection's new elements), which `changes` describes.
    ///
    /// A single insert, delete, move or update is repeated on this collection's own array rather
    /// than sharing the section collection's array: sharing it would make that collection's next
    /// mutation copy the whole section. What leaves the array is released after unlocking.
    mutating func follow(_ changes: Changeset, inSection section: Int, elements: [Item]) {
        let left = entries[section].recorded.follow(changes, to: elements)
        if !left.isEmpty { trash.append(left) }
    }
}
