import Dispatch
import RippleDiff

/// A thread-safe list that publishes one exact change-set for each mutation, or for each batch.
///
/// A presenter keeps its rows in an `ObservableCollection`; a list source subscribes and animates
/// each change, with no diffing for single mutations:
///
/// <!-- swift
/// struct Book: Identifiable, Equatable, Sendable {
///     var id: Int
///     var title: String
/// }
/// let fresh = [Book(id: 2, title: "Emma")]
/// let fromServer = [Book(id: 2, title: "Emma"), Book(id: 3, title: "Kim")]
/// -->
/// ```swift
/// let books = ObservableCollection<Book>()
/// let token = books.subscribe { change in
///     print(change.version, change.changeset)   // on the main actor
/// }
/// books.append(Book(id: 1, title: "Dune"))       // 1 Changeset(0 → 1: insert [0])
/// books.performBatchUpdates {
///     books.remove(at: 0)
///     books.append(contentsOf: fresh)
/// }                                               // one event for the whole batch
/// books.replace(with: fromServer)                 // diffed by identity
/// ```
///
/// # Events
/// Each event (``CollectionChange``) carries the change-set in UIKit's coordinates, the snapshot
/// after it (copy-on-write, O(1)) and a version that grows by one per event. Replaying an event's
/// change-set on the previous snapshot gives the new one. A mutation that changes nothing (for
/// example `append(contentsOf: [])`) publishes nothing.
///
/// # Batches
/// ``performBatchUpdates(_:)`` and ``beginUpdates()``/``endUpdates()`` nest, and publish one event
/// when the outermost batch ends: the net effect, with minimal moves. Inserting and then removing an
/// element inside a batch nets to nothing. A batch collects every mutation made while it is open,
/// from any thread.
///
/// # Thread Safety
/// Mutations are safe from any thread. Each mutation changes the storage and queues its event under
/// one lock, so events are published in the order the mutations happened; handlers run after the
/// lock is released. Each subscriber receives every event exactly once, in version order: on the
/// main actor for `subscribe { … }`, or on the ``Delivery`` it chose. A subscriber that mutates the collection from
/// its handler has its change published after the current event, never re-entrantly.
///
/// # Reading
/// Reads never trap because another thread changed the list. The collection is a `Sequence`:
/// iteration and every `Sequence` algorithm (`map`, `filter`, `contains`, `reduce`, `Array(…)`)
/// walk one snapshot. ``count``, ``isEmpty``, ``first``, ``last`` and ``indices`` are each one read
/// under the lock, exact at that moment and live: two of them may see different lists. For several
/// reads of one list, read ``snapshot`` once. Only an offset that is out of range at the moment of
/// the read traps (`collection[i]`, `collection[a..<b]`), with a message that names the offset and
/// the range.
///
/// It is not a `RandomAccessCollection` on purpose: the standard library's index-based algorithms
/// read the count and then the elements one call at a time, which a list changed by other threads
/// cannot support.
///
/// # Lifetimes
/// Removed and replaced elements, and cancelled handlers with everything they capture, are released
/// after the lock is unlocked, never under it: an element's `deinit` may use the collection (for
/// example, cancel its own subscription to it).
///
/// # Performance
/// The elements live in a ``ListSnapshot``, and every snapshot the collection hands out (``snapshot``,
/// each event's, a list source's rendered list) is a copy of it that shares all but the nodes
/// changed since. A single mutation costs O(log *n*) however many snapshots are held, plus two lock
/// rounds and one event (with its change-set) per subscriber delivery; see `docs/collections.md`
/// for measured figures. A batch of *k* operations on *n* elements folds into one change-set in
/// O(*n* + *k* log *k*), with no hashing. `replace(with:)` costs one diff (see
/// `Changeset(from:to:)`), plus a copy of the old list into an array for it.
public final class ObservableCollection<Element: Sendable>: Sendable {

    @usableFromInline
    struct State {
        /// The live elements. Every event's snapshot is a copy of them, which shares all but
        /// the nodes the next mutation changes.
        @usableFromInline var elements: ListSnapshot<Element>
        /// The elements as of the last event, kept only while a batch is open; otherwise they are
        /// `elements`.
        @usableFromInline var publishedDuringBatch: ListSnapshot<Element>?
        /// The version of the last event.
        @usableFromInline var version = 0
        /// Whether a `replace(with:)` swapped elements since the last event: the next event may
        /// keep a row whose element is another instance than before (see
        /// ``CollectionChange/mayReplaceKeptElements``).
        @usableFromInline var replacedSinceLastEvent = false
        /// Grows with every mutation that changed the elements, published or not (inside a batch
        /// too); lets optimistic operations detect races. Mutations that change nothing, and
        /// optimistic attempts that lost their race, leave it alone.
        @usableFromInline var mutations = 0
        /// The open batch, if any.
        @usableFromInline var batch: BatchRecorder?
        /// The `edits` of the open batch already counted in `mutations`.
        @usableFromInline var countedBatchEdits = 0
        @usableFromInline var core = EmitterCore<CollectionChange<Element>>()
        /// One-element arrays for the change-sets of single mutations, reused while no event
        /// holds them any more (copy-on-write copies them otherwise): a single `append` then
        /// allocates its event, and no array.
        @usableFromInline var oneOffset: [Int] = [0]
        @usableFromInline var onePair: [Changeset.OffsetPair] = [Changeset.OffsetPair(source: 0, target: 0)]

        @inlinable
        init(elements: ListSnapshot<Element>) {
            self.elements = elements
        }

        /// The elements as of the last event.
        @inlinable
        var published: ListSnapshot<Element> { publishedDuringBatch ?? elements }
    }

    @usableFromInline let state: LockedState<State>

    /// Creates a collection holding `elements`.
    ///
    /// - Parameter elements: The initial elements; no event is published for them.
    /// - Complexity: O(*n*) for *n* elements.
    public init(_ elements: [Element] = []) {
        state = LockedState(State(elements: ListSnapshot(elements)))
    }

    /// Creates a collection holding the elements of `snapshot`, sharing its storage.
    ///
    /// - Parameter snapshot: The initial elements, for example another collection's
    ///   ``snapshot``; no event is published for them.
    /// - Complexity: O(1).
    public init(_ snapshot: ListSnapshot<Element>) {
        state = LockedState(State(elements: snapshot))
    }

    /// The elements now.
    ///
    /// The snapshot shares its storage with the collection: taking it costs O(1), and it never
    /// changes, while a later mutation of the collection still costs O(log *n*), not a copy of
    /// the list. `Array(collection.snapshot)` copies it into an array, in O(*n*).
    ///
    /// - Complexity: O(1).
    @inlinable
    public var snapshot: ListSnapshot<Element> { state.withLock { $0.elements } }

    /// The version of the last published event; 0 before the first.
    public var version: Int { state.withLock { $0.version } }

    /// Subscribes a main-actor handler to the change events published from now on, delivered on
    /// the main queue.
    ///
    /// - Parameters:
    ///   - sendingCurrent: When `true`, the handler first receives the last published state as an
    ///     event with ``CollectionChange/isInitial`` set, then every later event.
    ///   - handler: Called with each event, in version order, on the main actor.
    /// - Returns: A token that keeps the subscription alive. **Discarding it cancels the subscription
    ///   at once.**
    @inlinable
    public func subscribe(
        sendingCurrent: Bool = false, _ handler: @escaping @MainActor (CollectionChange<Element>) -> Void
    ) -> SubscriptionToken {
        subscribe(.mainActor(handler), sendingCurrent: sendingCurrent)
    }

    /// Subscribes a handler to the change events published from now on, delivered where
    /// `delivery` says.
    ///
    /// - Parameters:
    ///   - delivery: Where the handler runs: synchronously, on a queue or on a scheduler.
    ///   - sendingCurrent: When `true`, the handler first receives the last published state as an
    ///     event with ``CollectionChange/isInitial`` set, then every later event.
    ///   - handler: Called with each event, in version order; `@Sendable`, since it may run on any
    ///     thread.
    /// - Returns: A token that keeps the subscription alive. **Discarding it cancels the subscription
    ///   at once.**
    @inlinable
    public func subscribe(
        on delivery: Delivery, sendingCurrent: Bool = false,
        _ handler: @escaping @Sendable (CollectionChange<Element>) -> Void
    ) -> SubscriptionToken {
        subscribe(.delivered(on: delivery, handler), sendingCurrent: sendingCurrent)
    }

    @inlinable
    func subscribe(_ handler: EventHandler<CollectionChange<Element>>, sendingCurrent: Bool) -> SubscriptionToken {
        let subscriberState = SubscriberState()
        let (id, mustDrain) = state.withLock { state in
            let current = sendingCurrent ? CollectionChange.current(state.published, version: state.version) : nil
            return state.core.add(handler, state: subscriberState, replay: current)
        }
        if mustDrain { drain() }
        return SubscriptionToken { [weak self] in
            subscriberState.deactivate()
            // The removed subscriber, and the handler's captures, are released after unlocking.
            self?.state.withLock { $0.core.remove(id: id) }
        }
    }

    /// Reads the published elements and their version, and subscribes `handler` to the events
    /// after them, under one lock: no event falls between the read and the subscription.
    ///
    /// - Returns: The elements as of the last event, its version, and the subscription's token.
    func subscribe(
        afterReading handler: EventHandler<CollectionChange<Element>>
    ) -> (published: ListSnapshot<Element>, version: Int, token: SubscriptionToken) {
        let subscriberState = SubscriberState()
        let (published, version, id) = state.withLock { state in
            (state.published, state.version, state.core.add(handler, state: subscriberState, replay: nil).id)
        }
        let token = SubscriptionToken { [weak self] in
            subscriberState.deactivate()
            self?.state.withLock { $0.core.remove(id: id) }
        }
        return (published, version, token)
    }

    /// The change events published from now on, as an asynchronous sequence.
    ///
    /// <!-- swift
    /// func render(_ books: ListSnapshot<Book>) {}
    /// -->
    /// ```swift
    /// func show(_ books: ObservableCollection<Book>) async {
    ///     for await change in books.changes { render(change.snapshot) }
    /// }
    /// ```
    public var changes: AsyncStream<CollectionChange<Element>> {
        AsyncStream(CollectionChange<Element>.self, bufferingPolicy: .unbounded) { continuation in
            let token = self.subscribe(on: .synchronous) { continuation.yield($0) }
            continuation.onTermination = { _ in token.cancel() }
        }
    }

    /// The number of current subscribers.
    public var subscriberCount: Int { state.withLock { $0.core.subscribers.count } }

    /// One event for one subscriber, taken under the lock and delivered after unlocking.
    @usableFromInline
    typealias Handoff = EmitterCore<CollectionChange<Element>>.Handoff

    /// Delivers queued events; called after the lock is released.
    @inlinable
    func drain() {
        drainDeliveries { state.withLock { $0.core.next() } }
    }

    /// Delivers `first`, taken under the same lock as the mutation that queued it, then every
    /// other queued event; called after the lock is released.
    @inlinable
    func deliver(_ first: Handoff) {
        first.run()
        drain()
    }
}

extension ObservableCollection {
    /// Traps for an index out of range, naming the method, the index and the valid range.
    @usableFromInline
    static func outOfRange(_ method: String, _ index: Int, _ count: Int, endInclusive: Bool = false) -> Never {
        let range = endInclusive ? "0...\(count)" : "0..<\(count)"
        preconditionFailure("ObservableCollection.\(method): index \(index) is out of range \(range)")
    }

    /// Traps for a range of offsets that does not fit `0...count`, naming the method, the range
    /// and the valid range.
    @usableFromInline
    static func outOfRange(_ method: String, _ bounds: Range<Int>, _ count: Int) -> Never {
        preconditionFailure("ObservableCollection.\(method): range \(bounds) is out of range 0...\(count)")
    }
}
