import RippleDiff

/// The items of one ``SectionData``: a list that lives in the ``SectionedCollection`` holding the
/// section, and on its own until then.
///
/// While the section is in a sectioned collection, its items are that collection's storage: every
/// mutation made here takes the collection's lock, changes the one list the collection reads, and
/// is published by the collection as item changes at the section's position at that moment, in
/// the same event sequence as every other change of the list. Reads here and reads of the
/// collection agree at every moment; there is nothing to keep in step.
///
/// Before the section is inserted, and after it is removed, the items are a plain thread-safe list
/// that publishes nothing: nothing shows them.
///
/// <!-- swift
/// struct InboxHeader: Sendable {}
/// struct Mail: Identifiable, Equatable, Sendable {
///     var id: Int
/// }
/// let mail1 = Mail(id: 1), mail2 = Mail(id: 2), mail3 = Mail(id: 3)
/// -->
/// ```swift
/// let inbox = SectionData(InboxHeader(), items: [mail1, mail2])
/// let list = SectionedCollection([inbox])
/// inbox.items.append(mail3)          // list publishes an item insert at (0 - 2)
/// inbox.items.performBatchUpdates {  // one event of the list for both
///     inbox.items.remove(at: 0)
///     inbox.items.move(from: 0, to: 1)
/// }
/// ```
///
/// To observe a section, subscribe to the sectioned collection: its events carry each section's
/// item changes.
///
/// # Thread Safety
/// Every member is safe from any thread. A mutation checks its offsets against the items as they
/// are when it runs, under the lock that every other mutation of the list takes, so reading
/// ``count`` and then removing traps only if another thread removed meanwhile.
public final class SectionItems<Item: Sendable>: Sendable {
    struct State {
        /// The items while no sectioned collection holds them; empty while one does.
        var items: ListSnapshot<Item>
        /// The collection holding the items, if any, and the link of its entry.
        var host: SectionItemsHost<Item>?
        var link = 0
        /// Counts the mutations made while no collection holds the items.
        var changes = 0
        /// The collection each open ``SectionItems/beginUpdates()`` opened a batch of, if any.
        var openBatches: [SectionItemsHost<Item>?] = []
    }

    let state: LockedState<State>

    /// Creates a list of items that no sectioned collection holds yet.
    ///
    /// - Parameter items: The items.
    public init(_ items: [Item] = []) {
        state = LockedState(State(items: ListSnapshot(items)))
    }

    /// Creates a list of items that no sectioned collection holds yet, sharing the storage of
    /// `items`.
    ///
    /// - Parameter items: The items.
    /// - Complexity: O(1).
    public init(_ items: ListSnapshot<Item>) {
        state = LockedState(State(items: items))
    }

    /// Where the items are at one moment: here (and what `here` returned, run under this lock), or
    /// in the collection `host` holds, as its entry `link`.
    enum Place<Result> {
        case here(Result)
        case held(SectionItemsHost<Item>, link: Int)
    }

    /// Runs `here` on this list's state if no collection holds the items, under this lock, or else
    /// `held` with the collection that does, after unlocking. `held` returns `nil` when the section
    /// left that collection meanwhile; then the items are looked for again.
    func withItems<Result>(
        here: (inout State) -> Result, held: (SectionItemsHost<Item>, Int) -> Result?
    ) -> Result {
        while true {
            let place = state.withLock { state -> Place<Result> in
                guard let host = state.host else { return .here(here(&state)) }
                return .held(host, link: state.link)
            }
            switch place {
            case .here(let result): return result
            case .held(let host, let link): if let result = held(host, link) { return result }
            }
        }
    }

    /// Runs `body` on the items where they live now: in the collection holding them (under its
    /// lock, which publishes the change-set `body` returns), or here.
    ///
    /// `body` returns the exact change-set of what it did (or `nil` for nothing) and what to hand
    /// back; anything it takes out of the items belongs in the result, released after unlocking.
    ///
    /// Pass `replacing: true` when `body` may put other instances where kept items were (a
    /// `replace`), so that the collection's next event says so.
    @usableFromInline
    func mutate<Result>(replacing: Bool = false, _ body: (inout ListSnapshot<Item>) -> (Changeset?, Result)) -> Result {
        withItems(
            here: { state in
                let (changes, result) = body(&state.items)
                if let changes, !changes.isEmpty { state.changes &+= 1 }
                return result
            },
            held: { host, link in host.mutateItems(link: link, replacing: replacing, body) })
    }

    /// Reads the items where they live now.
    @usableFromInline
    func read<Result>(_ body: (ListSnapshot<Item>) -> Result) -> Result {
        withItems(here: { body($0.items) }, held: { host, link in host.readItems(link: link, body) })
    }

    /// The items now.
    ///
    /// - Complexity: O(1): the snapshot shares the items' storage, and never changes.
    public var snapshot: ListSnapshot<Item> { read { $0 } }

    /// The number of items now.
    public var count: Int { read { $0.count } }

    /// Whether there are no items now.
    public var isEmpty: Bool { read { $0.isEmpty } }

    /// Reads or replaces the item at `position`. Replacing it publishes an update.
    ///
    /// - Parameter position: An offset in `0..<count`, checked when the call runs.
    /// - Complexity: O(log *m*) to read, for *m* items; O(*s* + log *m*) to replace in a
    ///   collection of *s* sections.
    @inlinable
    public subscript(position: Int) -> Item {
        get {
            read { items in
                guard position >= 0 && position < items.count else {
                    Self.outOfRange("subscript", position, "0..<\(items.count)")
                }
                return items[position]
            }
        }
        set {
            let replaced = mutate { items -> (Changeset?, Item) in
                guard position >= 0 && position < items.count else {
                    Self.outOfRange("subscript", position, "0..<\(items.count)")
                }
                let replaced = items[position]
                items[position] = newValue
                let pair = Changeset.OffsetPair(source: position, target: position)
                return (Changeset(sourceCount: items.count, targetCount: items.count, updates: [pair]), replaced)
            }
            withExtendedLifetime(replaced) {}
        }
    }

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

    /// Opens a batch of the collection holding the items now (see
    /// ``SectionedCollection/beginUpdates()``); while no collection holds them, it only counts.
    ///
    /// Prefer ``performBatchUpdates(_:)``, which cannot be left unbalanced. The matching
    /// ``endUpdates()`` closes the batch it opened, even if the section moved to another
    /// collection meanwhile.
    public func beginUpdates() {
        let host = state.withLock { state -> SectionItemsHost<Item>? in
            state.openBatches.append(state.host)
            return state.host
        }
        host?.beginUpdates()
    }

    /// Closes the batch the matching ``beginUpdates()`` opened.
    ///
    /// - Precondition: A batch opened here is open.
    public func endUpdates() {
        let host = state.withLock { state -> SectionItemsHost<Item>?? in state.openBatches.popLast() }
        guard let host else {
            preconditionFailure("SectionItems.endUpdates(): called without a matching beginUpdates()")
        }
        host?.endUpdates()
    }

    /// Runs `body` as one batch of the collection holding the items: every change made inside it,
    /// to these items or to any part of that collection, is published as one event when the
    /// outermost batch ends (see ``SectionedCollection/performBatchUpdates(_:)``).
    ///
    /// While no collection holds the items, `body` simply runs: nothing is published.
    ///
    /// - Parameter body: The mutations; runs without any lock held.
    /// - Returns: What `body` returns.
    public func performBatchUpdates<Result>(_ body: () throws -> Result) rethrows -> Result {
        let host = state.withLock { $0.host }
        guard let host else { return try body() }
        return try host.performBatchUpdates(body)
    }

    @usableFromInline
    static func outOfRange(_ method: String, _ offset: Int, _ range: String) -> Never {
        preconditionFailure("SectionItems.\(method): offset \(offset) is out of range \(range)")
    }
}

// MARK: - Reading, as ``ObservableCollection`` reads: a `Sequence` of one snapshot per iteration

extension SectionItems: Sequence {
    /// Iterates over a snapshot taken when iteration starts.
    ///
    /// - Returns: An iterator over the items as they were when it was made.
    public func makeIterator() -> ListSnapshot<Item>.Iterator {
        snapshot.makeIterator()
    }

    /// Zero: the count may change before iteration starts.
    public var underestimatedCount: Int { 0 }
}

extension SectionItems {
    /// The first item now, if any.
    public var first: Item? { read { $0.first } }

    /// The last item now, if any.
    public var last: Item? { read { $0.last } }

    /// The valid offsets now: `0..<count`.
    public var indices: Range<Int> { 0..<count }

    /// The items at `bounds` now, as a slice of one snapshot.
    ///
    /// - Parameter bounds: A range inside `0..<count`, checked when the call runs.
    public subscript(bounds: Range<Int>) -> Slice<ListSnapshot<Item>> {
        read { items in
            guard bounds.lowerBound >= 0 && bounds.upperBound <= items.count else {
                Self.outOfRange("subscript(bounds:)", bounds.upperBound, "0...\(items.count)")
            }
            return items[bounds]
        }
    }
}

extension SectionItems: CustomStringConvertible {
    /// The items, as an array prints them.
    public var description: String { "\(snapshot)" }
}

/// The side of a ``SectionedCollection`` that ``SectionItems`` talk to: the collection's type
/// without its `Section` parameter, which the items do not know.
///
/// Subclassed once, by ``SectionedCollection/Host``; the methods here are never called.
class SectionItemsHost<Item: Sendable>: @unchecked Sendable {
    // @unchecked: it has no state of its own; the subclass holds only a weak reference to a
    // `Sendable` collection.

    /// Runs `body` on the items of the entry `link` under the collection's lock and publishes its
    /// change-set; `nil` when no entry has that link any more (or the collection is gone).
    func mutateItems<Result>(
        link: Int, replacing: Bool, _ body: (inout ListSnapshot<Item>) -> (Changeset?, Result)
    ) -> Result? {
        fatalError("SectionItemsHost.mutateItems(link:replacing:_:) is abstract")
    }

    /// Reads the items of the entry `link` under the collection's lock; `nil` when it is gone.
    func readItems<Result>(link: Int, _ body: (ListSnapshot<Item>) -> Result) -> Result? {
        fatalError("SectionItemsHost.readItems(link:_:) is abstract")
    }

    /// Runs `body` as one batch of the collection.
    func performBatchUpdates<Result>(_ body: () throws -> Result) rethrows -> Result {
        fatalError("SectionItemsHost.performBatchUpdates(_:) is abstract")
    }

    /// Opens a batch of the collection.
    func beginUpdates() {
        fatalError("SectionItemsHost.beginUpdates() is abstract")
    }

    /// Closes a batch of the collection.
    func endUpdates() {
        fatalError("SectionItemsHost.endUpdates() is abstract")
    }
}
