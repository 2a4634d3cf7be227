import Dispatch

/// The delivery machinery shared by ``Emitter`` and the observable collections.
///
/// It lives *inside* its owner's locked state, so that an owner can change its own state and
/// enqueue the event describing the change under one lock: events are then queued in exactly the
/// order the changes happened. Delivery happens outside the lock, by one thread at a time (the
/// *drainer*): whoever finds no delivery in progress drains the queue; everyone else just enqueues.
/// A send from inside a handler is therefore queued behind the current value, never delivered
/// re-entrantly, and nothing can deadlock.
@usableFromInline
internal struct EmitterCore<Value: Sendable> {
    /// One subscriber. Immutable once added; the list of subscribers is copy-on-write, so a
    /// drainer takes it with a retain, not a copy.
    @usableFromInline
    struct Subscriber: Sendable {
        @usableFromInline let id: Int
        /// The first sequence number this subscriber receives.
        @usableFromInline let firstSequence: UInt64
        @usableFromInline let delivery: Delivery
        @usableFromInline let handler: @Sendable (Value) -> Void
        @usableFromInline let state: SubscriberState

        @inlinable
        init(
            id: Int, firstSequence: UInt64, delivery: Delivery,
            handler: @escaping @Sendable (Value) -> Void, state: SubscriberState
        ) {
            self.id = id
            self.firstSequence = firstSequence
            self.delivery = delivery
            self.handler = handler
            self.state = state
        }
    }

    @usableFromInline
    enum Pending {
        /// A value for every subscriber whose `firstSequence <= sequence`.
        case broadcast(Value, sequence: UInt64)
        /// The current value, replayed to one new subscriber.
        case replay(Value, subscriberID: Int)
    }

    /// What a drainer delivers next, taken under the lock and delivered after unlocking.
    @usableFromInline
    struct Handoff {
        @usableFromInline let pending: Pending
        @usableFromInline let subscribers: [Subscriber]

        @inlinable
        init(pending: Pending, subscribers: [Subscriber]) {
            self.pending = pending
            self.subscribers = subscribers
        }
    }

    @usableFromInline var subscribers: [Subscriber] = []
    @usableFromInline var nextID = 0
    @usableFromInline var pending: [Pending] = []
    @usableFromInline var pendingHead = 0
    @usableFromInline var draining = false
    @usableFromInline var sequence: UInt64 = 0

    @inlinable
    init() {}

    /// Queues `value` for every current subscriber.
    ///
    /// - Returns: `true` when the caller must drain (no delivery was in progress).
    @inlinable
    mutating func enqueue(_ value: Value) -> Bool {
        sequence &+= 1
        if subscribers.isEmpty { return false }
        pending.append(.broadcast(value, sequence: sequence))
        return claimDrain()
    }

    /// Adds a subscriber that receives every value enqueued from now on, after `replay` if given.
    ///
    /// - Returns: The subscriber's id, and whether the caller must drain.
    @inlinable
    mutating func add(
        delivery: Delivery, handler: @escaping @Sendable (Value) -> Void, state: SubscriberState, replay: Value?
    ) -> (id: Int, mustDrain: Bool) {
        let id = nextID
        nextID &+= 1
        subscribers.append(
            Subscriber(id: id, firstSequence: sequence &+ 1, delivery: delivery, handler: handler, state: state))
        guard let replay else { return (id, false) }
        pending.append(.replay(replay, subscriberID: id))
        return (id, claimDrain())
    }

    /// Removes a subscriber. Values already taken by a drainer may still reach it once.
    @inlinable
    mutating func remove(id: Int) {
        if let index = subscribers.firstIndex(where: { $0.id == id }) {
            subscribers.remove(at: index)
        }
    }

    @inlinable
    mutating func claimDrain() -> Bool {
        if draining { return false }
        draining = true
        return true
    }

    /// Takes the next pending value, or ends the drain when there is none.
    @inlinable
    mutating func next() -> Handoff? {
        if pendingHead == pending.count {
            pending.removeAll(keepingCapacity: pending.count <= 64)
            pendingHead = 0
            draining = false
            return nil
        }
        let item = pending[pendingHead]
        pendingHead &+= 1
        return Handoff(pending: item, subscribers: subscribers)
    }
}

extension EmitterCore.Handoff {
    /// Calls the handlers, outside every lock.
    @inlinable
    func run() {
        switch pending {
        case .broadcast(let value, let sequence):
            for subscriber in subscribers where subscriber.firstSequence <= sequence {
                subscriber.deliver(value)
            }
        case .replay(let value, let id):
            for subscriber in subscribers where subscriber.id == id {
                subscriber.deliver(value)
            }
        }
    }
}

extension EmitterCore.Subscriber {
    @inlinable
    func deliver(_ value: Value) {
        switch delivery {
        case .synchronous:
            if state.isActive { handler(value) }
        case .queue(let queue):
            let handler = handler
            let state = state
            queue.async {
                if state.isActive { handler(value) }
            }
        case .scheduler(let scheduler):
            let handler = handler
            let state = state
            scheduler.schedule {
                if state.isActive { handler(value) }
            }
        }
    }
}

/// Whether a subscriber is still subscribed; checked right before each handler call.
@usableFromInline
internal final class SubscriberState: Sendable {
    @usableFromInline let active = LockedState(true)

    @inlinable
    init() {}

    @inlinable
    var isActive: Bool { active.withLock { $0 } }

    @inlinable
    func deactivate() { active.withLock { $0 = false } }
}

/// Drains an emitter core that lives inside some locked state.
///
/// - Parameter next: Takes the next delivery under the owner's lock (see ``EmitterCore/next()``).
@inlinable
internal func drainDeliveries<Value>(_ next: () -> EmitterCore<Value>.Handoff?) {
    while let handoff = next() {
        handoff.run()
    }
}
