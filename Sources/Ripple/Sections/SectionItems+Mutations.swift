import RippleDiff

extension SectionItems {
    /// Adds an item at the end.
    ///
    /// - Parameter item: The item to add.
    /// - Complexity: O(log *m*) for *m* items, plus O(*s*) for the event of a collection of *s* sections.
    @inlinable
    public func append(_ item: Item) {
        append(contentsOf: CollectionOfOne(item))
    }

    /// Adds items at the end.
    ///
    /// - Parameter items: The items to add, in order.
    /// - Complexity: O(*k* log *m*) for *k* new items and *m* items, plus O(*s*) for the event.
    @inlinable
    public func append(contentsOf items: some Collection<Item>) {
        guard !items.isEmpty else { return }
        mutate { list -> (Changeset?, Void) in
            let count = list.count
            list.append(contentsOf: items)
            return (Changeset(sourceCount: count, targetCount: list.count, inserts: Array(count..<list.count)), ())
        }
    }

    /// Inserts an item at `position`.
    ///
    /// - Parameters:
    ///   - item: The item to insert.
    ///   - position: An offset in `0...count`, checked when the call runs.
    /// - Complexity: O(log *m*) for *m* items, plus O(*s*) for the event.
    @inlinable
    public func insert(_ item: Item, at position: Int) {
        mutate { items -> (Changeset?, Void) in
            let count = items.count
            guard position >= 0 && position <= count else {
                Self.outOfRange("insert(_:at:)", position, "0...\(count)")
            }
            items.insert(item, at: position)
            return (Changeset(sourceCount: count, targetCount: count + 1, inserts: [position]), ())
        }
    }

    /// Removes and returns the item at `position`.
    ///
    /// - Parameter position: An offset in `0..<count`, checked when the call runs.
    /// - Returns: The removed item.
    /// - Complexity: O(log *m*) for *m* items, plus O(*s*) for the event.
    @discardableResult
    @inlinable
    public func remove(at position: Int) -> Item {
        mutate { items -> (Changeset?, Item) in
            let count = items.count
            guard position >= 0 && position < count else {
                Self.outOfRange("remove(at:)", position, "0..<\(count)")
            }
            let removed = items.remove(at: position)
            return (Changeset(sourceCount: count, targetCount: count - 1, deletes: [position]), removed)
        }
    }

    /// Removes every item.
    ///
    /// - Complexity: O(*m*) for *m* items, plus O(*s*) for the event.
    public func removeAll() {
        let removed = mutate { items -> (Changeset?, ListSnapshot<Item>) in
            let removed = items
            items = []
            return (Changeset(sourceCount: removed.count, targetCount: 0, deletes: Array(removed.indices)), removed)
        }
        withExtendedLifetime(removed) {}
    }

    /// Removes the items at `offsets`, in one event.
    ///
    /// - Parameter offsets: Offsets in `0..<count`, in any order; repeats count once. Checked when
    ///   the call runs.
    /// - Complexity: O(*m* + *k* log *k*) for *m* items and *k* offsets, plus O(*s*) for the event.
    @inlinable
    public func remove(atOffsets offsets: some Sequence<Int>) {
        let sorted = Array(Set(offsets)).sorted()
        guard !sorted.isEmpty else { return }
        let removed = mutate { items -> (Changeset?, [Item]) in
            let count = items.count
            for offset in sorted where offset < 0 || offset >= count {
                Self.outOfRange("remove(atOffsets:)", offset, "0..<\(count)")
            }
            let removed = items.extractSorted(sorted)
            return (Changeset(sourceCount: count, targetCount: count - sorted.count, deletes: sorted), removed)
        }
        withExtendedLifetime(removed) {}
    }

    /// Removes every item that satisfies `shouldBeRemoved`, in one event.
    ///
    /// The predicate runs on a snapshot, without any lock held; if the items change meanwhile, it
    /// runs again on the new ones.
    ///
    /// - Parameter shouldBeRemoved: Returns `true` for the items to remove.
    /// - Complexity: O(*m*) predicate calls per attempt, for *m* items.
    public func removeAll(where shouldBeRemoved: (Item) throws -> Bool) rethrows {
        while true {
            let items = snapshot
            let offsets = try items.indices.filter { try shouldBeRemoved(items[$0]) }
            guard !offsets.isEmpty else { return }
            // The snapshot shares the list's storage, so any change meanwhile gave the list a node
            // of its own: identical storage means the same items.
            let removed = mutate { list -> (Changeset?, [Item]?) in
                guard list.isIdentical(to: items) else { return (nil, nil) }
                let removed = list.extractSorted(offsets)
                return (Changeset(sourceCount: items.count, targetCount: list.count, deletes: offsets), removed)
            }
            if let removed {
                withExtendedLifetime(removed) {}
                return
            }
        }
    }

    /// Moves the item at `source` so that it ends at `destination`, as
    /// `UITableView.moveRow(at:to:)` does; the event holds one move.
    ///
    /// - Parameters:
    ///   - source: The item's offset now, in `0..<count`.
    ///   - destination: Its offset afterwards, in `0..<count`.
    /// - Complexity: O(log *m*) for *m* items, plus O(*s*) for the event.
    @inlinable
    public func move(from source: Int, to destination: Int) {
        mutate { items -> (Changeset?, Void) in
            let count = items.count
            guard source >= 0 && source < count else { Self.outOfRange("move(from:to:)", source, "0..<\(count)") }
            guard destination >= 0 && destination < count else {
                Self.outOfRange("move(from:to:)", destination, "0..<\(count)")
            }
            guard source != destination else { return (nil, ()) }
            items.insert(items.remove(at: source), at: destination)
            let pair = Changeset.OffsetPair(source: source, target: destination)
            return (Changeset(sourceCount: count, targetCount: count, moves: [pair]), ())
        }
    }

    /// Moves the items at `offsets` to before `destination`, keeping their order, as SwiftUI's
    /// `onMove` asks.
    ///
    /// - Parameters:
    ///   - offsets: Offsets in `0..<count`.
    ///   - destination: An offset in `0...count`, in the coordinates before the move.
    /// - Complexity: O(*m* + *k* log *k*) for *m* items and *k* moved ones, plus O(*s*) for the event.
    @inlinable
    public func move(fromOffsets offsets: some Sequence<Int>, toOffset destination: Int) {
        let sorted = Array(Set(offsets)).sorted()
        mutate { items -> (Changeset?, Void) in
            let count = items.count
            for offset in sorted where offset < 0 || offset >= count {
                Self.outOfRange("move(fromOffsets:toOffset:)", offset, "0..<\(count)")
            }
            guard destination >= 0 && destination <= count else {
                Self.outOfRange("move(fromOffsets:toOffset:)", destination, "0...\(count)")
            }
            let order = Array<Int>.movingOrder(count: count, moving: sorted, to: destination)
            guard !order.elementsEqual(0..<count) else { return (nil, ()) }
            items.reorder(order)
            return (Changeset(sourceCount: count, origins: order), ())
        }
    }

    /// Replaces every item with `items`, published as the difference found by `identity`.
    ///
    /// The diff runs outside the lock of the collection holding the items, against a snapshot of
    /// them, so that `identity`'s closures (and the items' `id` and `==`) may read the collection.
    /// When another mutation came first, the diff is thrown away and run again; after three such
    /// tries it runs under the lock, so that constant writers on other threads cannot starve the
    /// call (as ``ObservableCollection/replace(with:identity:)`` does).
    ///
    /// - Parameters:
    ///   - items: The new items.
    ///   - identity: How items are told apart and compared, such as `.id` or `.value`.
    /// - Complexity: One diff of the old and new items (more only under contention).
    @inlinable
    public func replace<Rule>(with items: [Item], identity: DiffIdentity<Item, Rule>) {
        let replacement = ListSnapshot(items)
        for attempt in 0...ObservableCollection<Item>._optimisticReplaceAttempts {
            let underLock = attempt == ObservableCollection<Item>._optimisticReplaceAttempts
            // The snapshot holds the items' root, so any mutation meanwhile gives the list a new
            // root: `isIdentical(to:)` then tells the diff is stale.
            let read = underLock ? nil : snapshot
            let optimistic = read.map { Changeset(from: Array($0), to: items, identity: identity) }
            let old = mutate(replacing: true) { list -> (Changeset?, ListSnapshot<Item>?) in
                if let read, !list.isIdentical(to: read) { return (nil, nil) }
                let changes = optimistic ?? Changeset(from: Array(list), to: items, identity: identity)
                let old = list
                list = replacement
                return (changes, old)
            }
            // Released after unlocking.
            if old != nil { return }
        }
    }

    /// Replaces every item with `items`, published as the difference found by `id` and `==`
    /// (``DiffIdentity/id``).
    ///
    /// - Parameter items: The new items.
    /// - Complexity: One diff of the old and new items.
    @inlinable
    public func replace(with items: [Item]) where Item: Identifiable & Equatable {
        replace(with: items, identity: .id)
    }
}
