import Dispatch
import RippleDiff

/// A live list of the elements of another list that pass a predicate, in that list's order: made
/// by ``LiveList/filtered(by:)``.
///
/// <!-- swift
/// struct Book: Identifiable, Equatable, Sendable {
///     var id: Int
///     var title: String
/// }
/// -->
/// ```swift
/// let books = ObservableCollection<Book>()
/// let matching = books.filtered { $0.title.hasPrefix("D") }
/// books.append(Book(id: 1, title: "Dune"))   // matching: one insert
/// books.append(Book(id: 2, title: "Emma"))   // matching: no event
/// matching.setPredicate { $0.title.hasPrefix("E") }   // matching: delete [0], insert [0]
/// ```
///
/// # Events
/// Each event of the source that changes the filtered elements gives one event here, in the
/// source's order, whose change-set is in UIKit's form and replays onto the previous event's
/// snapshot; an event that changes none of them gives none. An inserted or updated element that
/// passes is inserted or updated here, one that stops passing is deleted, a moved one moves. Every
/// snapshot is the source's snapshot of one of its versions, filtered.
///
/// # Thread Safety
/// The source may be mutated from any thread. The predicate runs outside every lock, on the thread
/// that publishes the source's event (or that calls `setPredicate(_:)`), one event at a time: an
/// event that arrives while another thread applies one waits for it, and that thread applies both,
/// in order.
///
/// # Performance
/// A source event of *k* changes costs *k* predicate calls and O(*k* log *n*); a new predicate
/// costs *n* calls and O(*n*). The filtered elements live in a ``ListSnapshot`` that shares its
/// storage with every snapshot handed out.
public final class FilteredList<Element: Sendable>: LiveList {
    /// Work for the processor, in arrival order.
    enum Work {
        /// A source event.
        case change(CollectionChange<Element>)
        /// A new predicate.
        case predicate(@Sendable (Element) -> Bool)
    }

    struct State {
        /// The source as of the last event applied.
        var source: ListSnapshot<Element>
        /// The predicate in force.
        var isIncluded: @Sendable (Element) -> Bool
        /// What the filter keeps; out of the state while the processor works on it.
        var filter: FilterState<Element>?
        /// The filtered elements as of the last event.
        var elements: ListSnapshot<Element>
        /// The version of the last event.
        var version = 0
        var core = EmitterCore<CollectionChange<Element>>()
        /// Work that arrived while a processor was busy, and the first item not yet taken. A taken
        /// item's slot is emptied, so that its last reference is the processor's, outside the lock.
        var pending: [Work?] = []
        var nextPending = 0
        /// Whether a thread is applying work; it takes what arrives meanwhile too.
        var processing = true
        /// The subscription to the source.
        var token: SubscriptionToken?
    }

    let state: LockedState<State>

    /// The source, kept alive as long as this list is.
    private let source: any AnyObject & Sendable

    init(_ source: some LiveList<Element>, isIncluded: @escaping @Sendable (Element) -> Bool) {
        self.source = source
        state = LockedState(
            State(source: ListSnapshot(), isIncluded: isIncluded, filter: nil, elements: ListSnapshot()))
        // The creating thread is the processor until the first state is in: source events that
        // arrive meanwhile wait in `pending`.
        let (snapshot, _, token) = source._subscribe(afterReading: { [weak self] change in
            self?.enqueue(.change(change))
        })
        let filter = FilterState(filtering: snapshot, by: isIncluded)
        state.withLock { state in
            state.source = snapshot
            state.elements = filter.elements
            state.filter = filter
            state.token = token
        }
        process()
    }

    /// The filtered elements as of the last event.
    ///
    /// - Complexity: O(1).
    public var snapshot: ListSnapshot<Element> { state.withLock { $0.elements } }

    /// The version of the last published event; 0 before the first.
    public var version: Int { state.withLock { $0.version } }

    /// The number of filtered elements now.
    public var count: Int { state.withLock { $0.elements.count } }

    /// The filtered element at `position` now.
    ///
    /// - Parameter position: An offset in `0..<count`.
    /// - Complexity: O(log *n*).
    public subscript(position: Int) -> Element {
        let elements = snapshot
        precondition(
            position >= 0 && position < elements.count,
            "FilteredList[\(position)]: the offset is out of range 0..<\(elements.count)")
        return elements[position]
    }

    /// Filters the source again with `isIncluded`, and publishes the difference as one event.
    ///
    /// The new predicate applies from the source version the list shows now: source events that
    /// arrive before it is applied are filtered with the old one, and the new one re-filters their
    /// result.
    ///
    /// - Parameter isIncluded: The new predicate (see ``LiveList/filtered(by:)``).
    /// - Complexity: O(*n*) predicate calls and O(*n*).
    public func setPredicate(_ isIncluded: @escaping @Sendable (Element) -> Bool) {
        enqueue(.predicate(isIncluded))
    }

    // MARK: - Subscriptions

    /// Subscribes a main-actor handler to the events published from now on, delivered on the main
    /// queue (see ``LiveList/subscribe(sendingCurrent:_:)``).
    ///
    /// - Parameters:
    ///   - sendingCurrent: When `true`, the handler first receives the current state.
    ///   - handler: Called with each event, in version order, on the main actor.
    /// - Returns: A token that keeps the subscription alive.
    public func subscribe(
        sendingCurrent: Bool = false, _ handler: @escaping @MainActor (CollectionChange<Element>) -> Void
    ) -> SubscriptionToken {
        subscribe(.mainActor(handler), sendingCurrent: sendingCurrent)
    }

    /// Subscribes a handler to the events published from now on, delivered where `delivery` says
    /// (see ``LiveList/subscribe(on:sendingCurrent:_:)``).
    ///
    /// - Parameters:
    ///   - delivery: Where the handler runs.
    ///   - sendingCurrent: When `true`, the handler first receives the current state.
    ///   - handler: Called with each event, in version order.
    /// - Returns: A token that keeps the subscription alive.
    public func subscribe(
        on delivery: Delivery, sendingCurrent: Bool = false,
        _ handler: @escaping @Sendable (CollectionChange<Element>) -> Void
    ) -> SubscriptionToken {
        subscribe(.delivered(on: delivery, handler), sendingCurrent: sendingCurrent)
    }

    /// Reads the filtered elements and their version, and subscribes `handler` to the events after
    /// them, under one lock (see ``LiveList/_subscribe(afterReading:)``).
    ///
    /// - Parameter handler: Called with each later event, in version order.
    /// - Returns: The elements and version read, and the subscription's token.
    public func _subscribe(
        afterReading handler: @escaping @Sendable (CollectionChange<Element>) -> Void
    ) -> (snapshot: ListSnapshot<Element>, version: Int, token: SubscriptionToken) {
        let subscriberState = SubscriberState()
        let (elements, version, id) = state.withLock { state in
            (
                state.elements, state.version,
                state.core.add(.synchronous(handler), state: subscriberState, replay: nil).id
            )
        }
        return (elements, version, token(removing: id, state: subscriberState))
    }

    private func subscribe(_ handler: EventHandler<CollectionChange<Element>>, sendingCurrent: Bool)
        -> SubscriptionToken
    {
        let subscriberState = SubscriberState()
        let (id, mustDrain) = state.withLock { state in
            let current = sendingCurrent ? CollectionChange.current(state.elements, version: state.version) : nil
            return state.core.add(handler, state: subscriberState, replay: current)
        }
        if mustDrain { drain() }
        return token(removing: id, state: subscriberState)
    }

    private func token(removing id: Int, state subscriberState: SubscriberState) -> SubscriptionToken {
        SubscriptionToken { [weak self] in
            subscriberState.deactivate()
            // The removed subscriber, and the handler's captures, are released after unlocking.
            _ = self?.state.withLock { $0.core.remove(id: id) }
        }
    }

    /// Delivers the queued events, one handoff at a time, outside the lock.
    private func drain() {
        drainDeliveries { state.withLock { $0.core.next() } }
    }

    // MARK: - Processing

    /// Queues `work`, and applies it (with whatever arrives meanwhile) unless another thread is
    /// applying work already; that thread then applies it after its own.
    private func enqueue(_ work: Work) {
        let mustProcess = state.withLock { state in
            state.pending.append(work)
            guard !state.processing else { return false }
            state.processing = true
            return true
        }
        if mustProcess { process() }
    }

    /// Applies the queued work in order, until none is left. Only the processing thread calls
    /// it; it evaluates the predicate outside the lock, then publishes under it.
    private func process() {
        // `next` is the only holder of the filter state (the state let go of it), so the state is
        // mutated in place: a copy would copy its counts, O(n / 2,048), at every event.
        while var next = takeWork() {
            var after = next.source
            var newPredicate: (@Sendable (Element) -> Bool)?
            let changeset: Changeset
            let mayReplaceKept: Bool
            switch next.work {
            case .change(let change):
                after = change.snapshot
                let flags = FilterState.Flags(of: change.changeset, in: after, next.isIncluded)
                changeset = next.filter.apply(change.changeset, after: after, flags: flags)
                mayReplaceKept = change.mayReplaceKeptElements
            case .predicate(let predicate):
                changeset = next.filter.refilter(after, by: predicate)
                newPredicate = predicate
                mayReplaceKept = false
            }
            #if RIPPLE_INTERNAL_CHECKS
            if let failure = changeset.validationFailure()
                ?? (changeset.targetCount == next.filter.elements.count
                    ? nil : "it ends at \(changeset.targetCount) elements, the list has \(next.filter.elements.count)")
            {
                preconditionFailure("FilteredList: an event would publish an invalid change-set: \(failure)")
            }
            #endif
            // What the state lets go of (the old source and elements, an old predicate) is
            // released after unlocking: an element's `deinit` may use this list.
            let (mustDrain, released) = state.withLock { state in
                let released = (state.source, state.elements, newPredicate.map { _ in state.isIncluded })
                state.source = after
                state.elements = next.filter.elements
                state.filter = next.filter
                if let newPredicate { state.isIncluded = newPredicate }
                guard !changeset.isEmpty else { return (false, released) }
                state.version += 1
                guard !state.core.subscribers.isEmpty else {
                    state.core.sequence &+= 1
                    return (false, released)
                }
                let event = CollectionChange(
                    changeset: changeset, snapshot: next.filter.elements, version: state.version,
                    mayReplaceKeptElements: mayReplaceKept)
                return (state.core.enqueue(event), released)
            }
            withExtendedLifetime(released) {}
            if mustDrain { drain() }
        }
    }

    /// The next work item, with the predicate, the source and the filter state to apply it to
    /// (taken out of the state, so that the processor mutates it in place); `nil`, and the
    /// processing ended, when no work is left.
    private func takeWork() -> (
        work: Work, isIncluded: @Sendable (Element) -> Bool, source: ListSnapshot<Element>,
        filter: FilterState<Element>
    )? {
        state.withLock { state in
            guard state.nextPending < state.pending.count, let work = state.pending[state.nextPending],
                let filter = state.filter
            else {
                state.pending.removeAll(keepingCapacity: true)
                state.nextPending = 0
                state.processing = false
                return nil
            }
            state.pending[state.nextPending] = nil
            state.nextPending += 1
            state.filter = nil
            return (work, state.isIncluded, state.source, filter)
        }
    }
}
