import Dispatch
import RippleDiff

/// A thread-safe sectioned list that publishes one sectioned change-set per event: section inserts,
/// deletes, moves and updates together with item changes by path.
///
/// Each section is a ``SectionData``: a section value (its header presenter or model) and the
/// section's ``SectionItems``. Items change either through a section's `items` or through the
/// path-based API here; sections change through the section API or `replace(with:)`, which diffs
/// by identity:
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
/// change-set on the previous snapshot gives the new one. A mutation through a section's `items`
/// is published as item changes at the section's position at that moment. A cross-section
/// ``moveItem(from:to:)`` is published as a move.
///
/// # Batches
/// ``performBatchUpdates(_:)`` and ``beginUpdates()``/``endUpdates()`` nest and publish one event
/// when the outermost batch ends: the net effect, with minimal moves inside each section. They
/// cover the mutations made through the sections' `items` too, from any thread, and a section's
/// `items.performBatchUpdates { }` is a batch of this collection.
///
/// # Thread Safety
/// Mutations are safe from any thread. The collection is one lock domain: the sections, every
/// section's items (whether changed by path or through `items`), the version and the queued events
/// live under one lock, and each mutation changes that one storage and queues its event under it.
/// Handlers run after the lock is released. Each subscriber receives every event exactly once, in
/// version order: on the main actor for `subscribe { … }`, or on the ``Delivery`` it chose. A
/// subscriber that mutates the collection, or one of its sections, from its handler has its change
/// published after the current event.
///
/// # Reading
/// Reads answer from that one storage: ``numberOfItems(inSection:)``, the `subscript`,
/// ``snapshot`` and `sections[i].items` always agree, and the events replay to it (outside a
/// batch, the last event's snapshot is what the reads show). Reading a count and then removing or
/// moving an item never traps unless another thread removed from that section meanwhile. Only a
/// path out of range at the moment of the read traps, with a message naming it and the range.
///
/// # Performance
/// A single item mutation costs O(log *m*) in its section's items (a ``ListSnapshot`` of *m*
/// items), plus O(*s*) for the event, for *s* sections. A batch folds into one change-set in O(*s* + *n* + *k* log *k*) for *n* items, *k*
/// of them moved, without hashing. `replace(with:)` costs one sectioned diff, plus O(*c*) to
/// apply its *c* changes.
public final class SectionedCollection<Section: Sendable, Item: Sendable>: Sendable {

    /// The sectioned list a snapshot or event carries.
    typealias Snapshot = [SectionSnapshot<Section, Item>]

    /// One section in the collection: its data and its items, which live here while the section
    /// does (its ``SectionItems`` route every call here).
    @usableFromInline
    struct Entry {
        var data: SectionData<Section, Item>
        @usableFromInline var items: ListSnapshot<Item>
        /// Tells this entry apart from every other entry the collection ever had: the items'
        /// route to it.
        let link: Int
    }

    @usableFromInline
    struct State {
        @usableFromInline var entries: [Entry] = []
        /// The sectioned list as of the last event.
        var published: Snapshot = []
        /// The version of the last event.
        @usableFromInline var version = 0
        /// Whether a `replace` swapped items since the last event: the next event may keep a row
        /// whose item is another instance than before (see
        /// ``SectionedCollectionChange/mayReplaceKeptElements``).
        @usableFromInline var replacedSinceLastEvent = false
        /// Grows with every change of `entries`; lets `replace(with:)` detect races.
        @usableFromInline var mutations = 0
        /// The open batch, if any.
        @usableFromInline var batch: SectionedBatchRecorder?
        var nextLink = 0
        var core = EmitterCore<SectionedCollectionChange<Section, Item>>()
        /// Values dropped under the lock (old snapshots, removed items), released after unlocking
        /// by ``SectionedCollection/withState(_:)``: a `deinit` they trigger may use this collection.
        @usableFromInline var released: [Any] = []
    }

    @usableFromInline let state: LockedState<State>

    /// The route the sections' ``SectionItems`` take to this collection.
    let host: Host

    /// Creates a sectioned collection holding `sections`.
    ///
    /// - Parameter sections: The initial sections; no event is published for them.
    /// - Complexity: O(*s*) for *s* sections.
    public init(_ sections: [SectionData<Section, Item>] = []) {
        state = LockedState(State())
        host = Host()
        host.collection = self
        state.withLock { state in
            for (position, data) in sections.enumerated() {
                state.entries.append(attach(data, at: position, method: "init(_:)", state: &state))
            }
            state.published = state.snapshot
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
        // The items go back to their sections, which outlive this collection.
        let entries = state.withLock { $0.entries }
        for entry in entries { Self.detach(entry) }
    }

    /// The sections and their items now, read at one moment under the lock that every mutation
    /// holds: none shows half done.
    ///
    /// - Complexity: O(*s*) for *s* sections; the items are shared, not copied.
    public var snapshot: [SectionSnapshot<Section, Item>] { state.withLock { $0.snapshot } }

    /// The sections now.
    ///
    /// - Complexity: O(*s*) for *s* sections.
    public var sections: [SectionData<Section, Item>] { state.withLock { $0.entries.map(\.data) } }

    /// The number of sections now.
    public var numberOfSections: Int { state.withLock { $0.entries.count } }

    /// The number of items in a section now.
    ///
    /// It agrees with the checks of the item mutations, which read the same list: a caller that
    /// reads it and then removes or moves an item, with no other thread removing from the section,
    /// never traps.
    ///
    /// - Parameter section: A section offset in `0..<numberOfSections`.
    /// - Returns: The number of items in the section.
    /// - Complexity: O(1).
    public func numberOfItems(inSection section: Int) -> Int {
        state.withLock { state in
            guard section >= 0 && section < state.entries.count else {
                Self.sectionOutOfRange("numberOfItems(inSection:)", section, state.entries.count)
            }
            return state.entries[section].items.count
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

    /// Runs `body` under the lock, then releases what it dropped (`State.released`) after
    /// unlocking.
    @inlinable
    func withState<Result>(_ body: (inout State) -> Result) -> Result {
        let (result, released) = state.withLock { state -> (Result, [Any]) in
            let result = body(&state)
            guard !state.released.isEmpty else { return (result, []) }
            let released = state.released
            state.released = []
            return (result, released)
        }
        withExtendedLifetime(released) {}
        return result
    }

    /// Delivers queued events; called after the lock is released.
    @usableFromInline
    func drain() {
        drainDeliveries { state.withLock { $0.core.next() } }
    }
}

extension SectionedCollection {
    /// Traps for a section offset out of range, naming the method, the offset and the valid range.
    @usableFromInline
    static func sectionOutOfRange(_ method: String, _ section: Int, _ count: Int, endInclusive: Bool = false) -> Never {
        let range = endInclusive ? "0...\(count)" : "0..<\(count)"
        preconditionFailure("SectionedCollection.\(method): section \(section) is out of range \(range)")
    }

    /// Traps for an item path out of range, naming the method, the path and the valid range.
    @usableFromInline
    static func itemOutOfRange(
        _ method: String, _ path: ElementPath, _ count: Int, endInclusive: Bool = false
    ) -> Never {
        let range = endInclusive ? "0...\(count)" : "0..<\(count)"
        preconditionFailure(
            "SectionedCollection.\(method): item path (\(path)) is out of range: section \(path.section) "
                + "takes items \(range)")
    }
}
