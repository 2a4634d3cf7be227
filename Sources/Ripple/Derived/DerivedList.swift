import RippleDiff

/// A live list derived from another one, such as a ``FilteredList`` or a ``MappedList``: it follows
/// each event of its source with one event of its own (none when the event changes nothing here).
///
/// This class holds what every derived list does alike: its elements as of its last event, its
/// subscribers, and the one thread at a time that applies the source's events, in order. Each
/// operator is a subclass; it is not subclassed outside Ripple.
///
/// # Thread Safety
/// The source may be mutated from any thread. A derived list applies the source's events on the
/// thread that publishes them, one event at a time: an event that arrives while another thread
/// applies one waits for it, and that thread applies both, in order. The operator's closures run
/// outside every lock.
public class DerivedList<Element: Sendable>: LiveList, @unchecked Sendable {
    // @unchecked Sendable: a class that is not final cannot conform to `Sendable` otherwise. Every
    // stored property is a `let` of a `Sendable` type (the mutable state is in `LockedState`), and
    // the subclasses follow the same rule.

    /// What one step of the processor made: the change-set from the previous elements, and the
    /// elements after it.
    struct Derivation {
        var changeset: Changeset
        var elements: ListSnapshot<Element>
        /// Whether a kept row may hold another instance than before (see
        /// `CollectionChange.mayReplaceKeptElements`).
        var mayReplaceKeptElements: Bool
    }

    /// A step of the processor: a source event or a new rule to apply to the list's elements as of
    /// its last step, run outside every lock, in arrival order, one at a time.
    typealias Step = @Sendable (_ elements: ListSnapshot<Element>) -> Derivation

    struct State {
        /// The elements as of the last event.
        var elements: ListSnapshot<Element>
        /// The version of the last event.
        var version = 0
        var core = EmitterCore<CollectionChange<Element>>()
        /// Steps that arrived while a processor was busy, and the first one not yet taken. A taken
        /// step's slot is emptied, so that its last reference is the processor's, outside the lock.
        var pending: [Step?] = []
        var nextPending = 0
        /// Whether a thread is applying steps; it takes what arrives meanwhile too. The creating
        /// thread is the processor until the first elements are in.
        var processing = true
        /// The subscription to the source.
        var token: SubscriptionToken?
    }

    let state = LockedState(State(elements: ListSnapshot()))

    /// The source, kept alive as long as this list is.
    private let source: any AnyObject & Sendable

    /// A list that shows no element until ``start(_:subscription:)``; steps queued before it
    /// wait.
    init(source: any AnyObject & Sendable) {
        self.source = source
    }

    /// Shows `elements` as the list's first state (version 0, no event), keeps the source's
    /// subscription, and applies the steps that arrived since it was made.
    final func start(_ elements: ListSnapshot<Element>, subscription: SubscriptionToken) {
        state.withLock { state in
            state.elements = elements
            state.token = subscription
        }
        process()
    }

    /// The elements as of the last event.
    ///
    /// - Complexity: O(1).
    public final var snapshot: ListSnapshot<Element> { state.withLock { $0.elements } }

    /// The version of the last published event; 0 before the first.
    public final var version: Int { state.withLock { $0.version } }

    /// The number of elements now.
    public final var count: Int { state.withLock { $0.elements.count } }

    /// The element at `position` now.
    ///
    /// - Parameter position: An offset in `0..<count`; another offset traps, naming the offset and
    ///   the range.
    /// - Complexity: O(log *n*).
    public final subscript(position: Int) -> Element {
        let elements = snapshot
        precondition(
            position >= 0 && position < elements.count,
            "\(type(of: self))[\(position)]: the offset is out of range 0..<\(elements.count)")
        return elements[position]
    }

    // MARK: - Subscriptions

    /// Subscribes a main-actor handler to the events published from now on, delivered on the main
    /// queue (see ``LiveList/subscribe(sendingCurrent:_:)``).
    ///
    /// - Parameters:
    ///   - sendingCurrent: When `true`, the handler first receives the current state.
    ///   - handler: Called with each event, in version order, on the main actor.
    /// - Returns: A token that keeps the subscription alive.
    public final func subscribe(
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
    public final func subscribe(
        on delivery: Delivery, sendingCurrent: Bool = false,
        _ handler: @escaping @Sendable (CollectionChange<Element>) -> Void
    ) -> SubscriptionToken {
        subscribe(.delivered(on: delivery, handler), sendingCurrent: sendingCurrent)
    }

    /// Reads the elements and their version, and subscribes `handler` to the events after them,
    /// under one lock (see ``LiveList/_subscribe(afterReading:)``).
    ///
    /// - Parameter handler: Called with each later event, in version order.
    /// - Returns: The elements and version read, and the subscription's token.
    public final func _subscribe(
        afterReading handler: @escaping @Sendable (CollectionChange<Element>) -> Void
    ) -> (snapshot: ListSnapshot<Element>, version: Int, token: SubscriptionToken) {
        subscribe(afterReading: .synchronous(handler))
    }

    /// Reads the elements and their version, and subscribes a main-actor `handler` to the events
    /// after them, under one lock (see ``LiveList/_subscribeOnMainActor(afterReading:)``).
    ///
    /// - Parameter handler: Called with each later event, in version order, on the main actor.
    /// - Returns: The elements and version read, and the subscription's token.
    public final func _subscribeOnMainActor(
        afterReading handler: @escaping @MainActor (CollectionChange<Element>) -> Void
    ) -> (snapshot: ListSnapshot<Element>, version: Int, token: SubscriptionToken) {
        subscribe(afterReading: .mainActor(handler))
    }

    private func subscribe(afterReading handler: EventHandler<CollectionChange<Element>>)
        -> (snapshot: ListSnapshot<Element>, version: Int, token: SubscriptionToken)
    {
        let subscriberState = SubscriberState()
        let (elements, version, id) = state.withLock { state in
            (state.elements, state.version, state.core.add(handler, state: subscriberState, replay: nil).id)
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

    /// Queues `step`, and applies it (with whatever arrives meanwhile) unless another thread is
    /// applying steps already; that thread then applies it after its own.
    final func enqueue(_ step: @escaping Step) {
        let mustProcess = state.withLock { state in
            state.pending.append(step)
            guard !state.processing else { return false }
            state.processing = true
            return true
        }
        if mustProcess { process() }
    }

    /// Applies the queued steps in order, until none is left: each outside the lock, then its
    /// event published under it. Only the processing thread calls it.
    private func process() {
        while let (step, elements) = takeStep() {
            let derivation = step(elements)
            #if RIPPLE_INTERNAL_CHECKS
            let changeset = derivation.changeset
            if let failure = changeset.validationFailure()
                ?? (changeset.targetCount == derivation.elements.count
                    ? nil
                    : "it ends at \(changeset.targetCount) elements, the list has \(derivation.elements.count)")
            {
                preconditionFailure("\(type(of: self)): an event would publish an invalid change-set: \(failure)")
            }
            #endif
            // The elements the state lets go of are released after unlocking: an element's
            // `deinit` may use this list.
            let (mustDrain, released) = state.withLock { state in
                let released = state.elements
                state.elements = derivation.elements
                guard !derivation.changeset.isEmpty else { return (false, released) }
                state.version += 1
                guard !state.core.subscribers.isEmpty else {
                    state.core.sequence &+= 1
                    return (false, released)
                }
                let event = CollectionChange(
                    changeset: derivation.changeset, snapshot: derivation.elements, version: state.version,
                    mayReplaceKeptElements: derivation.mayReplaceKeptElements)
                return (state.core.enqueue(event), released)
            }
            withExtendedLifetime(released) {}
            if mustDrain { drain() }
        }
    }

    /// The next step, taken out of the queue, with the elements to apply it to (the last step's);
    /// `nil`, and the processing ended, when none is left.
    private func takeStep() -> (Step, ListSnapshot<Element>)? {
        state.withLock { state in
            guard state.nextPending < state.pending.count, let step = state.pending[state.nextPending] else {
                state.pending.removeAll(keepingCapacity: true)
                state.nextPending = 0
                state.processing = false
                return nil
            }
            state.pending[state.nextPending] = nil
            state.nextPending += 1
            return (step, state.elements)
        }
    }
}

extension LockedState {
    /// Takes an operator's state out of the lock, leaving `nil`, so that the processing thread
    /// mutates it in place (a copy would copy its buffers) outside the lock; it puts the state back
    /// with ``restore(_:)``.
    func takeOperatorState<Value>() -> Value where State == Value? {
        withLock { state in
            guard let value = state else {
                preconditionFailure("DerivedList: the operator's state was taken by another step")
            }
            state = nil
            return value
        }
    }

    /// Puts back the state ``takeOperatorState()`` took.
    func restore<Value>(_ value: Value) where State == Value? {
        withLock { $0 = value }
    }
}
