import RippleDiff

extension SectionedCollection {
    /// Runs one item mutation of the section at `section` under the lock, and publishes after
    /// unlocking.
    ///
    /// `body` changes the section's items and returns the exact flat change-set (or `nil` for
    /// nothing) and what to hand back; anything it takes out of the items belongs in the result,
    /// released after unlocking.
    @inlinable
    func mutateItems<Result>(
        _ method: String, section: Int, _ body: (inout ListSnapshot<Item>) -> (Changeset?, Result)
    ) -> Result {
        let (mustDrain, result) = withState { state in
            guard section >= 0 && section < state.entries.count else {
                Self.sectionOutOfRange(method, section, state.entries.count)
            }
            return Self.mutateItems(section: section, in: &state, body)
        }
        if mustDrain { drain() }
        return result
    }

    /// ``mutateItems(_:section:_:)`` with the lock held and the section checked.
    ///
    /// - Returns: Whether the caller must drain after unlocking, and `body`'s result.
    @inlinable
    static func mutateItems<Result>(
        section: Int, in state: inout State, _ body: (inout ListSnapshot<Item>) -> (Changeset?, Result)
    ) -> (Bool, Result) {
        let (changes, result) = body(&state.entries[section].items)
        guard let changes else { return (false, result) }
        return (state.recordItems(changes, inSection: section), result)
    }

    /// Reads or replaces the item at `path`. Replacing it publishes an update.
    ///
    /// Reads the section's `items` as they are now, as ``numberOfItems(inSection:)`` and the item
    /// mutations do. A path that is out of range at the moment of the read traps with a message
    /// naming the path and the range.
    ///
    /// - Parameter path: A path to an item: a section in `0..<numberOfSections` and an item
    ///   offset inside that section.
    /// - Complexity: O(log *m*) to read; O(*s* + log *m*) to replace, for *s* sections and *m*
    ///   items in the path's section.
    @inlinable
    public subscript(path: ElementPath) -> Item {
        get {
            state.withLock { state in
                guard path.section >= 0 && path.section < state.entries.count else {
                    Self.sectionOutOfRange("subscript", path.section, state.entries.count)
                }
                let items = state.entries[path.section].items
                guard path.item >= 0 && path.item < items.count else {
                    Self.itemOutOfRange("subscript", path, items.count)
                }
                return items[path.item]
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
    @inlinable
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
    /// - Complexity: O(*s* + log *m*) for *s* sections and *m* items in the section.
    @inlinable
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
    /// - Complexity: O(*s* + log *m*) for *s* sections and *m* items in the section.
    @discardableResult
    @inlinable
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
    /// - Complexity: O(*s* + log *m*) for *s* sections and *m* items in the sections involved.
    @inlinable
    public func moveItem(from source: ElementPath, to destination: ElementPath) {
        let mustDrain = withState { state in
            Self.moveItem(from: source, to: destination, method: "moveItem(from:to:)", in: &state)
        }
        if mustDrain { drain() }
    }

    /// Moves the item at `source` to `destination`, as ``moveItem(from:to:)`` does, only when the
    /// collection is still at `version`; in one step under the lock, so that no other thread's
    /// change can fall between the check and the move.
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
    ///   nothing, when the version is another, a batch is open, or a path is out of range.
    /// - Complexity: O(*s* + log *m*) for *s* sections and *m* items in the sections involved.
    @inlinable
    public func moveItem(from source: ElementPath, to destination: ElementPath, ifVersion version: Int) -> Bool {
        let (moved, mustDrain) = withState { state -> (Bool, Bool) in
            guard state.version == version, state.batch == nil, Self.canMove(from: source, to: destination, in: state)
            else { return (false, false) }
            let method = "moveItem(from:to:ifVersion:)"
            return (true, Self.moveItem(from: source, to: destination, method: method, in: &state))
        }
        if mustDrain { drain() }
        return moved
    }

    /// Whether both paths are in range; called with the lock held.
    @inlinable
    static func canMove(from source: ElementPath, to destination: ElementPath, in state: State) -> Bool {
        let sections = state.entries.count
        guard source.section >= 0, source.section < sections, destination.section >= 0,
            destination.section < sections
        else { return false }
        let sourceCount = state.entries[source.section].items.count
        guard source.item >= 0, source.item < sourceCount else { return false }
        if source.section == destination.section { return destination.item >= 0 && destination.item < sourceCount }
        return destination.item >= 0 && destination.item <= state.entries[destination.section].items.count
    }

    /// ``moveItem(from:to:)`` with the lock held.
    ///
    /// - Returns: Whether the caller must drain after unlocking.
    @inlinable
    static func moveItem(
        from source: ElementPath, to destination: ElementPath, method: String, in state: inout State
    ) -> Bool {
        let count = state.entries.count
        for section in [source.section, destination.section] where section < 0 || section >= count {
            Self.sectionOutOfRange(method, section, count)
        }
        if source.section == destination.section {
            return mutateItems(section: source.section, in: &state) { items in
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
        // Check both paths before changing anything.
        let sourceCount = state.entries[source.section].items.count
        guard source.item >= 0 && source.item < sourceCount else { Self.itemOutOfRange(method, source, sourceCount) }
        let targetCount = state.entries[destination.section].items.count
        guard destination.item >= 0 && destination.item <= targetCount else {
            Self.itemOutOfRange(method, destination, targetCount, endInclusive: true)
        }
        let item = state.entries[source.section].items.remove(at: source.item)
        state.entries[destination.section].items.insert(item, at: destination.item)
        return state.recordMove(from: source, to: destination)
    }
}
