import Dispatch
import RippleDiff

/// A thread-safe sectioned list that publishes one sectioned change-set per event: section inserts,
/// deletes, moves and updates together with item changes by path.
///
/// Each section is a ``SectionData``: a section value (its header presenter or model) and the
/// section's own ``ObservableCollection`` of items. Items change either through that collection,
/// which the sectioned collection observes, or through the path-based API here; sections change
/// through the section API or `replace(with:)`, which diffs by identity:
///
/// <!-- swift
/// struct Header: Hashable, Sendable {
///     var title: String
///     init(_ title: String) { self.title = title }
/// }
/// struct Mail: Identifiable, Hashable, Sendable {
///     var id: Int
/// }
/// let m1 = Mail(id: 1), m2 = Mail(id: 2), m3 = Mail(id: 3)
/// -->
/// ```swift
/// let inbox = SectionData(Header("Inbox"), items: [m1, m2])
/// let mail = SectionedCollection([inbox])
/// let token = mail.subscribe { change in
///     print(change.version, change.changeset)          // on the main queue
/// }
/// inbox.items.append(m3)                               // item insert at (0 - 2)
/// mail.insertSection(SectionData(Header("Archive")), at: 0)
/// mail.moveItem(from: ElementPath(item: 0, section: 1), to: ElementPath(item: 0, section: 0))
/// mail.performBatchUpdates {                           // one event for all of it
///     mail.moveSection(from: 1, to: 0)
///     inbox.items.remove(at: 0)
/// }
/// ```
///
/// # Events
/// Each event (``SectionedCollectionChange``) carries the change-set in UIKit's coordinates, the
/// sectioned snapshot after it and a version that grows by one per event. Replaying an event's
/// change-set on the previous snapshot gives the new one. A mutation through a section's own
/// `items` is published as item changes at the section's position **now**, whatever moved before.
/// A cross-section ``moveItem(from:to:)`` is published as a move.
///
/// # Batches
/// ``performBatchUpdates(_:)`` and ``beginUpdates()``/``endUpdates()`` nest and publish one event
/// when the outermost batch ends: the net effect, with minimal moves inside each section. They
/// cover the mutations made through the sections' own `items` collections too, as long as those
/// reach the sectioned collection while the batch is open (always, when they are made on the
/// batching thread).
///
/// # Thread Safety
/// Mutations are safe from any thread. The sectioned collection keeps its state under one lock and
/// publishes in the order its state changed; handlers run after the lock is released. Each
/// subscriber receives every event exactly once, in version order: on the main actor for
/// `subscribe { … }`, or on the ``Delivery`` it chose. A subscriber that mutates the collection, or one of its sections,
/// from its handler has its change published after the current event.
///
/// A section's own `items` collection publishes to its own subscribers as usual. The sectioned
/// collection follows it through a synchronous subscription that it cancels when the section is
/// removed; a removed section no longer publishes here, and nothing here keeps it alive.
///
/// While a section's `items` collection is inside a batch of its own, item mutations of that
/// section made through this collection join that batch and are published here when it ends.
///
/// # Reading
/// Reads answer from the sections' own `items` as they are now, and so do the checks of the item
/// mutations: ``numberOfItems(inSection:)``, the `subscript`, ``snapshot`` and `sections[i].items`
/// always agree, however the section was changed (by path, through its `items`, inside a batch of
/// either, on any thread). Reading a count and then removing or moving an item never traps unless
/// another thread removed from that section meanwhile. Only a path out of range at the moment of
/// the read traps, with a message naming it and the range.
///
/// Events are the published history, and may be older than the reads: a change made through a
/// section's own `items` is published here when that collection publishes it (when its batch ends,
/// or when the thread delivering its events reaches this collection).
///
/// # Performance
/// Single mutations cost what the section's `ObservableCollection` mutation costs, plus O(*s*) for
/// the event, for *s* sections. A batch folds into one change-set in O(*s* + *n* + *k* log *k*)
/// for *n* items, *k* of them moved, without hashing. `replace(with:)` costs one sectioned
/// diff, plus O(*c*) to apply its *c* changes.
public final class SectionedCollection<Section: Sendable, Item: Sendable>: Sendable {

    /// The sectioned list a snapshot or event carries.
    typealias Snapshot = [SectionSnapshot<Section, Item>]

    /// One attached section: its data, the items as this collection has recorded them, and the
    /// subscription that follows its `items` collection.
    struct Entry {
        var data: SectionData<Section, Item>
        /// The section's items as this collection has recorded them in its events (published, or
        /// folded into the open batch): normally those of version `innerVersion` of its `items`
        /// collection.
        ///
        /// Only events are built from it. It falls behind the live items while the section's
        /// `items` collection is inside a batch of its own or has events on the way here, so no
        /// read and no check of a mutation uses it: they all read `data.items`.
        var recorded: [Item]
        /// The version of the section's `items` collection that `recorded` reflects. Events up to
        /// it are already absorbed and are ignored when they arrive.
        var innerVersion: Int
        /// When set, the next event of the section's `items` collection replaces `recorded`
        /// wholesale.
        var needsResync = false
        /// Tells this attachment apart from others of the same section.
        let link: Int
        let subscriberID: Int
        let subscriberState: SubscriberState
    }

    struct State {
        var entries: [Entry] = []
        /// The sectioned list as of the last event.
        var published: Snapshot = []
        /// The version of the last event.
        var version = 0
        /// Grows with every change of `entries`; lets `replace(with:)` detect races.
        var mutations = 0
        /// The open batch, if any.
        var batch: SectionedBatchRecorder?
        var nextLink = 0
        var core = EmitterCore<SectionedCollectionChange<Section, Item>>()
        /// Values dropped under the lock (old arrays, removed sections), released after unlocking
        /// by ``SectionedCollection/withState(_:)``: a `deinit` they trigger may use this collection.
        var trash: [Any] = []
    }

    let state: LockedState<State>

    /// Creates a sectioned collection holding `sections`.
    ///
    /// - Parameter sections: The initial sections; no event is published for them.
    /// - Complexity: O(*s*) for *s* sections.
    public init(_ sections: [SectionData<Section, Item>] = []) {
        state = LockedState(State())
        state.withLock { state in
            for data in sections { state.entries.append(attach(data, state: &state)) }
            state.published = state.recorded
        }
    }

    /// Creates a sectioned collection with one new section per snapshot.
    ///
    /// - Parameter snapshots: The sections' values and items; no event is published for them.
    /// - Complexity: O(*s*) for *s* sections.
    @_disfavoredOverload  // `SectionedCollection([])` means no sections, not an ambiguity.
    public convenience init(_ snapshots: [SectionSnapshot<Section, Item>]) {
        self.init(snapshots.map { SectionData($0.section, items: $0.items) })
    }

    deinit {
        let entries = state.withLock { $0.entries }
        for entry in entries { Self.detach(entry) }
    }

    /// The sections and their items now: each section's `items` as that collection holds them.
    ///
    /// The list of sections is read at one moment, under this collection's lock, which every
    /// mutation made through this collection (by path, of sections, `replace`) also holds: none
    /// shows half done. Each section's items are then read under their own lock, one section after
    /// the other, so a change made directly on a section's `items` on another thread meanwhile
    /// shows in some sections' reads and not in others'. For a list that is one moment of the
    /// published history, take an event's snapshot.
    ///
    /// - Complexity: O(*s*) for *s* sections; the item arrays are shared, not copied.
    public var snapshot: [SectionSnapshot<Section, Item>] { state.withLock { $0.live } }

    /// The sections now.
    ///
    /// - Complexity: O(*s*) for *s* sections.
    public var sections: [SectionData<Section, Item>] { state.withLock { $0.entries.map(\.data) } }

    /// The number of sections now.
    public var numberOfSections: Int { state.withLock { $0.entries.count } }

    /// The number of items in a section now: the count of the section's `items`, read once.
    ///
    /// It agrees with the checks of the item mutations, which read the same list: a caller that
    /// reads it and then removes or moves an item, with no other thread removing from the section,
    /// never traps, even while the section's `items` is inside a batch of its own.
    ///
    /// - Parameter section: A section offset in `0..<numberOfSections`.
    /// - Returns: The number of items in the section.
    /// - Complexity: O(1).
    public func numberOfItems(inSection section: Int) -> Int {
        state.withLock { state in
            guard section >= 0 && section < state.entries.count else {
                Self.sectionOutOfRange("numberOfItems(inSection:)", section, state.entries.count)
            }
            return state.items(section).count
        }
    }

    /// The version of the last published event; 0 before the first.
    public var version: Int { state.withLock { $0.version } }

    /// The number of current subscribers.
    public var subscriberCount: Int { state.withLock { $0.core.subscribers.count } }

    /// Subscribes a main-actor handler to the change events published from now on, delivered on
    /// the main queue.
    ///
    /// - Parameters:
    ///   - sendingCurrent: When `true`, the handler first receives the last published state as an
    ///     event with ``SectionedCollectionChange/isInitial`` set, then every later event.
    ///   - handler: Called with each event, in version order, on the main actor.
    /// - Returns: A token that keeps the subscription alive. **Discarding it cancels the
    ///   subscription at once.**
    public func subscribe(
        sendingCurrent: Bool = false,
        _ handler: @escaping @MainActor (SectionedCollectionChange<Section, Item>) -> Void
    ) -> SubscriptionToken {
        subscribe(.mainActor(handler), sendingCurrent: sendingCurrent)
    }

    /// Subscribes a handler to the change events published from now on, delivered where
    /// `delivery` says.
    ///
    /// - Parameters:
    ///   - delivery: Where the handler runs: synchronously, on a queue or on a scheduler.
    ///   - sendingCurrent: When `true`, the handler first receives the last published state as an
    ///     event with ``SectionedCollectionChange/isInitial`` set, then every later event.
    ///   - handler: Called with each event, in version order; `@Sendable`, since it may run on any
    ///     thread.
    /// - Returns: A token that keeps the subscription alive. **Discarding it cancels the
    ///   subscription at once.**
    public func subscribe(
        on delivery: Delivery, sendingCurrent: Bool = false,
        _ handler: @escaping @Sendable (SectionedCollectionChange<Section, Item>) -> Void
    ) -> SubscriptionToken {
        subscribe(.delivered(on: delivery, handler), sendingCurrent: sendingCurrent)
    }

    private func subscribe(
        _ handler: EventHandler<SectionedCollectionChange<Section, Item>>, sendingCurrent: Bool
    ) -> SubscriptionToken {
        let subscriberState = SubscriberState()
        let (id, mustDrain) = state.withLock { state in
            let current =
                sendingCurrent
                ? SectionedCollectionChange(
                    changeset: SectionedChangeset(
                        sections: Changeset(
                            sourceCount: 0, targetCount: state.published.count,
                            inserts: Array(state.published.indices)),
                        sourceItemCounts: [], targetItemCounts: state.published.map(\.items.count)),
                    snapshot: state.published, version: state.version, isInitial: true)
                : nil
            return state.core.add(handler, state: subscriberState, replay: current)
        }
        if mustDrain { drain() }
        return SubscriptionToken { [weak self] in
            subscriberState.deactivate()
            // The removed subscriber, and the handler's captures, are released after unlocking.
            let removed = self?.state.withLock { $0.core.remove(id: id) }
            withExtendedLifetime(removed) {}
        }
    }

    /// Reads the published sections and their version, and subscribes `handler` to the events
    /// after them, under one lock: no event falls between the read and the subscription.
    ///
    /// - Returns: The sections as of the last event, its version, and the subscription's token.
    func subscribe(
        afterReading handler: EventHandler<SectionedCollectionChange<Section, Item>>
    ) -> (published: [SectionSnapshot<Section, Item>], version: Int, token: SubscriptionToken) {
        let subscriberState = SubscriberState()
        let (published, version, id) = state.withLock { state in
            (state.published, state.version, state.core.add(handler, state: subscriberState, replay: nil).id)
        }
        let token = SubscriptionToken { [weak self] in
            subscriberState.deactivate()
            let removed = self?.state.withLock { $0.core.remove(id: id) }
            withExtendedLifetime(removed) {}
        }
        return (published, version, token)
    }

    /// The change events published from now on, as an asynchronous sequence.
    public var changes: AsyncStream<SectionedCollectionChange<Section, Item>> {
        AsyncStream(SectionedCollectionChange<Section, Item>.self, bufferingPolicy: .unbounded) { continuation in
            let token = self.subscribe(on: .synchronous) { continuation.yield($0) }
            continuation.onTermination = { _ in token.cancel() }
        }
    }

    /// Runs `body` under the lock, then releases what it dropped (`State.trash`) after unlocking.
    func withState<Result>(_ body: (inout State) -> Result) -> Result {
        let (result, trash) = state.withLock { state -> (Result, [Any]) in
            let result = body(&state)
            guard !state.trash.isEmpty else { return (result, []) }
            let trash = state.trash
            state.trash = []
            return (result, trash)
        }
        withExtendedLifetime(trash) {}
        return result
    }

    /// Delivers queued events; called after the lock is released.
    func drain() {
        drainDeliveries { state.withLock { $0.core.next() } }
    }
}

// MARK: - Following the sections' own collections

extension SectionedCollection {
    /// Starts following `data.items`: subscribes synchronously, under its lock, so that no event
    /// falls between the items read here and the first event received.
    ///
    /// Called under this collection's lock; takes the section's lock inside it (the only lock order
    /// between the two).
    func attach(_ data: SectionData<Section, Item>, state: inout State) -> Entry {
        let link = state.nextLink
        state.nextLink &+= 1
        let subscriberState = SubscriberState()
        let handler: @Sendable (CollectionChange<Item>) -> Void = { [weak self] change in
            self?.absorb(change, link: link)
        }
        let (items, version, id) = data.items.state.withLock { inner in
            let (id, _) = inner.core.add(.synchronous(handler), state: subscriberState, replay: nil)
            return (inner.published, inner.version, id)
        }
        return Entry(
            data: data, recorded: items, innerVersion: version, link: link, subscriberID: id,
            subscriberState: subscriberState)
    }

    /// Stops following a section's items.
    static func detach(_ entry: Entry) {
        entry.subscriberState.deactivate()
        // The removed subscriber holds the handler; it is released here, after unlocking.
        let removed = entry.data.items.state.withLock { $0.core.remove(id: entry.subscriberID) }
        withExtendedLifetime(removed) {}
    }

    /// Receives an event of an attached section's items collection.
    func absorb(_ change: CollectionChange<Item>, link: Int) {
        let mustDrain = withState { state -> Bool in
            guard let index = state.index(ofLink: link) else { return false }
            return state.absorb(change, at: index, resyncing: true)
        }
        if mustDrain { drain() }
    }
}

extension SectionedCollection.State {
    /// The sectioned list as recorded in this collection's events: what the next event starts
    /// from.
    ///
    /// - Complexity: O(*s*) for *s* sections; entries are read in place and item arrays shared.
    var recorded: [SectionSnapshot<Section, Item>] {
        entries.withUnsafeBufferPointer { entries in
            var snapshot: [SectionSnapshot<Section, Item>] = []
            snapshot.reserveCapacity(entries.count)
            for index in entries.indices {
                snapshot.append(SectionSnapshot(section: entries[index].data.section, items: entries[index].recorded))
            }
            return snapshot
        }
    }

    /// The sectioned list now: each section's live items, read under that collection's lock, one
    /// section after the other (the caller holds this collection's lock).
    ///
    /// - Complexity: O(*s*) for *s* sections; item arrays are shared.
    var live: [SectionSnapshot<Section, Item>] {
        var snapshot: [SectionSnapshot<Section, Item>] = []
        snapshot.reserveCapacity(entries.count)
        for index in entries.indices {
            let data = withEntry(index) { $0.data }
            snapshot.append(SectionSnapshot(section: data.section, items: data.items.snapshot))
        }
        return snapshot
    }

    /// The live items collection of the section at `index`: where every read and every check of
    /// an item mutation goes.
    func items(_ index: Int) -> ObservableCollection<Item> {
        withEntry(index) { $0.data.items }
    }

    /// The position of the section attached as `link`, or `nil` once it has been removed.
    ///
    /// Reads each entry in place: copying entries to compare them would retain and release three
    /// references per section.
    ///
    /// - Complexity: O(*s*) for *s* sections.
    func index(ofLink link: Int) -> Int? {
        entries.withUnsafeBufferPointer { entries in
            for index in entries.indices where entries[index].link == link { return index }
            return nil
        }
    }

    /// Reads the entry at `index` in place, without copying it.
    func withEntry<Result>(_ index: Int, _ read: (borrowing SectionedCollection.Entry) -> Result) -> Result {
        entries.withUnsafeBufferPointer { read($0[index]) }
    }

    /// The number of items in each section as recorded.
    var recordedItemCounts: [Int] {
        entries.withUnsafeBufferPointer { entries in entries.indices.map { entries[$0].recorded.count } }
    }

    /// Applies an event of the items collection of the section at `index`, and records it.
    ///
    /// Events already absorbed are ignored. The next event is applied as it is; after a gap (or
    /// when a resync is due) the section's items are replaced wholesale, which is always valid.
    ///
    /// - Parameter resyncing: Whether a gap may be closed wholesale; when `false`, an event after a
    ///   gap is left for later.
    /// - Returns: Whether the caller must drain after unlocking.
    mutating func absorb(_ change: CollectionChange<Item>, at index: Int, resyncing: Bool) -> Bool {
        let (innerVersion, needsResync, old) = withEntry(index) { ($0.innerVersion, $0.needsResync, $0.recorded) }
        guard !change.isInitial, change.version > innerVersion else { return false }
        let next = change.version == innerVersion + 1 && !needsResync
            && change.changeset.sourceCount == old.count
        guard next || resyncing else { return false }
        trash.append(old)
        entries[index].recorded = change.snapshot
        entries[index].innerVersion = change.version
        if next { return recordItems(change.changeset, inSection: index) }
        entries[index].needsResync = false
        let wholesale = Changeset(
            sourceCount: old.count, targetCount: change.snapshot.count,
            deletes: Array(old.indices), inserts: Array(change.snapshot.indices))
        return recordItems(wholesale, inSection: index)
    }

    /// Whether the section at `index` shows exactly what its items collection holds, so that an
    /// item mutation can be applied to both at once.
    func isInSync(_ index: Int, with inner: ObservableCollection<Item>.State) -> Bool {
        inner.batch == nil && withEntry(index) { !$0.needsResync && $0.innerVersion == inner.version }
    }

    /// Records that the items of section `section` changed by `changes` (the entry already holds
    /// the new items): folds it into the open batch, or publishes it.
    ///
    /// - Returns: Whether the caller must drain after unlocking.
    mutating func recordItems(_ changes: Changeset, inSection section: Int) -> Bool {
        mutations &+= 1
        if batch != nil {
            batch!.fold(changes, inSection: section)
            return false
        }
        guard !changes.isEmpty else { return false }
        var sourceCounts = recordedItemCounts
        sourceCounts[section] = changes.sourceCount
        let path = { (item: Int) in ElementPath(item: item, section: section) }
        let pair = { (pair: Changeset.OffsetPair) in
            SectionedChangeset.PathPair(source: path(pair.source), target: path(pair.target))
        }
        return publish(
            SectionedChangeset(
                sections: .unchanged(count: entries.count), sourceItemCounts: sourceCounts,
                targetItemCounts: recordedItemCounts, itemDeletes: changes.deletes.map(path),
                itemInserts: changes.inserts.map(path), itemMoves: changes.moves.map(pair),
                itemUpdates: changes.updates.map(pair)))
    }

    /// Records that an item moved from `source` to `target` across sections (the entries already
    /// hold the new items).
    ///
    /// - Returns: Whether the caller must drain after unlocking.
    mutating func recordMove(from source: ElementPath, to target: ElementPath) -> Bool {
        mutations &+= 1
        if batch != nil {
            let origin = batch!.itemOrigins[source.section].remove(at: source.item)
            batch!.itemOrigins[target.section].insert(origin, at: target.item)
            return false
        }
        var sourceCounts = recordedItemCounts
        sourceCounts[source.section] += 1
        sourceCounts[target.section] -= 1
        return publish(
            SectionedChangeset(
                sections: .unchanged(count: entries.count), sourceItemCounts: sourceCounts,
                targetItemCounts: recordedItemCounts,
                itemMoves: [SectionedChangeset.PathPair(source: source, target: target)]))
    }

    /// Publishes `changeset` as a new version, unless it is empty or a batch is open.
    ///
    /// - Returns: Whether the caller must drain after unlocking.
    mutating func publish(_ changeset: SectionedChangeset) -> Bool {
        guard batch == nil, !changeset.isEmpty else { return false }
        #if RIPPLE_INTERNAL_CHECKS
        let shapes = (published.map(\.items.count), recorded.map(\.items.count))
        if let failure = changeset.validationFailure()
            ?? (changeset.sourceItemCounts == shapes.0 && changeset.targetItemCounts == shapes.1
                ? nil : "it goes \(changeset.sourceItemCounts) → \(changeset.targetItemCounts), the collection \(shapes.0) → \(shapes.1)")
        {
            preconditionFailure("SectionedCollection: version \(version + 1) would publish an invalid change-set: \(failure)")
        }
        #endif
        version &+= 1
        let snapshot = recorded
        trash.append(published)
        published = snapshot
        return core.enqueue(SectionedCollectionChange(changeset: changeset, snapshot: snapshot, version: version))
    }
}

extension ObservableCollection.State {
    /// Records a change that a sectioned collection made to `elements`: folds it into the open
    /// batch, or publishes it.
    ///
    /// - Returns: Whether the caller must drain after unlocking.
    mutating func commitFromSections(_ changes: Changeset) -> Bool {
        guard var open = batch else { return commit(changes) }
        open.origins = SectionedBatchRecorder.fold(changes, into: open.origins, updated: &open.updated)
        batch = open
        return commit(nil)
    }
}

extension SectionedCollection {
    /// Traps for a section offset out of range, naming the method, the offset and the valid range.
    static func sectionOutOfRange(_ method: String, _ section: Int, _ count: Int, endInclusive: Bool = false) -> Never {
        let range = endInclusive ? "0...\(count)" : "0..<\(count)"
        preconditionFailure("SectionedCollection.\(method): section \(section) is out of range \(range)")
    }

    /// Traps for an item path out of range, naming the method, the path and the valid range.
    static func itemOutOfRange(
        _ method: String, _ path: ElementPath, _ count: Int, endInclusive: Bool = false
    ) -> Never {
        let range = endInclusive ? "0...\(count)" : "0..<\(count)"
        preconditionFailure(
            "SectionedCollection.\(method): item path (\(path)) is out of range: section \(path.section) "
                + "takes items \(range)")
    }
}
