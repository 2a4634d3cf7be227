import Dispatch

/// The delivery machinery shared by ``Emitter``, the observable collections and commands.
///
/// It lives *inside* its owner's locked state, so that an owner can change its own state and
/// enqueue the event describing the change under one lock: events are then queued in exactly the
/// order the changes happened. Delivery happens outside the lock, by one thread at a time (the
/// *drainer*): whoever finds no delivery in progress drains the queue; everyone else just enqueues.
/// A send from inside a handler is therefore queued behind the current value, never delivered
/// re-entrantly, and nothing can deadlock.
///
/// # Handoffs
/// The drainer takes one *handoff* at a time under the owner's lock (``next()``): one value for one
/// subscriber. Because the subscriber is picked under the lock, a subscriber removed by then is
/// skipped, and a synchronous delivery needs no lock of its own.
///
/// # Releases
/// ``next()`` never drops a value: the handoff for the last subscriber of a value takes the value
/// with it, and a value left with no subscriber at all goes out in a handoff with no subscriber.
/// ``remove(id:)`` returns the removed subscriber. Values and handlers (and everything they capture)
/// are therefore released by the caller after unlocking, never under the owner's lock, so a
/// `deinit` may use the same emitter or collection. A delivered value is released as soon as its
/// last handoff is done, even while the drain goes on.
@usableFromInline
internal struct EmitterCore<Value: Sendable> {
    /// One subscriber. Immutable; a handoff carries it with one retain.
    @usableFromInline
    final class Subscriber: Sendable {
        @usableFromInline let id: Int
        /// The first sequence number this subscriber receives.
        @usableFromInline let firstSequence: UInt64
        /// The handler, and where it runs.
        @usableFromInline let handler: EventHandler<Value>
        /// Whether the handler is synchronous; it is then also ``synchronousBody``, called directly,
        /// without looking into the enum.
        @usableFromInline let isSynchronous: Bool
        @usableFromInline let synchronousBody: @Sendable (Value) -> Void
        /// Checked by asynchronous deliveries right before the handler runs.
        @usableFromInline let state: SubscriberState

        @inlinable
        init(id: Int, firstSequence: UInt64, handler: EventHandler<Value>, state: SubscriberState) {
            self.id = id
            self.firstSequence = firstSequence
            self.handler = handler
            if case .synchronous(let body) = handler {
                isSynchronous = true
                synchronousBody = body
            } else {
                isSynchronous = false
                synchronousBody = { _ in }
            }
            self.state = state
        }
    }

    /// A queued value: for every subscriber whose `firstSequence <= sequence`, or, for a replay of
    /// the current value, for one new subscriber.
    @usableFromInline
    struct Pending {
        @usableFromInline let value: Value
        @usableFromInline let sequence: UInt64
        /// The subscriber a replay is for; -1 for a broadcast.
        @usableFromInline let replayTo: Int

        @inlinable
        init(value: Value, sequence: UInt64, replayTo: Int) {
            self.value = value
            self.sequence = sequence
            self.replayTo = replayTo
        }
    }

    /// One value for one subscriber, taken under the lock and delivered after unlocking.
    ///
    /// A handoff without a subscriber only carries a value out of the lock, to be released there.
    @usableFromInline
    struct Handoff {
        @usableFromInline let value: Value
        @usableFromInline let subscriber: Subscriber?

        @inlinable
        init(value: Value, subscriber: Subscriber?) {
            self.value = value
            self.subscriber = subscriber
        }
    }

    /// The subscribers, ascending by `id` and therefore by `firstSequence`.
    @usableFromInline var subscribers: [Subscriber] = []
    @usableFromInline var nextID = 0
    /// Values waiting behind ``current``. Taken slots are set to `nil` at once, so a delivered value
    /// is not kept alive until the queue empties.
    @usableFromInline var pending: [Pending?] = []
    @usableFromInline var pendingHead = 0
    /// The value being delivered, while it has subscribers left.
    @usableFromInline var current: Value?
    /// The sequence number of ``current``.
    @usableFromInline var currentSequence: UInt64 = 0
    /// The subscriber ``current`` is replayed to; -1 for a broadcast.
    @usableFromInline var currentReplayTo = -1
    /// The subscribers of ``current`` with an id below this have had it.
    @usableFromInline var cursor = 0
    /// Where the first subscriber with an id of ``cursor`` or more was last seen; checked before use,
    /// since subscribers may come and go between two handoffs.
    @usableFromInline var cursorIndex = 0
    @usableFromInline var draining = false
    @usableFromInline var sequence: UInt64 = 0

    @inlinable
    init() {}

    /// Queues `value` for every current subscriber.
    ///
    /// - Returns: `true` when the caller must drain (no delivery was in progress).
    /// - Complexity: Amortized O(1).
    @inlinable
    mutating func enqueue(_ value: consuming Value) -> Bool {
        sequence &+= 1
        if subscribers.isEmpty { return false }
        if draining {
            pending.append(Pending(value: value, sequence: sequence, replayTo: -1))
            return false
        }
        // Nothing is being delivered, so nothing is queued either: start with this value.
        draining = true
        current = consume value
        currentSequence = sequence
        currentReplayTo = -1
        cursor = 0
        cursorIndex = 0
        return true
    }

    /// Queues `value` for every current subscriber and, when no delivery was in progress, takes its
    /// first handoff at once: ``enqueue(_:)`` then ``next()``, in one step.
    ///
    /// - Returns: The first handoff, for the caller to run after unlocking and then drain; `nil`
    ///   when there is nothing to deliver now.
    /// - Complexity: Amortized O(1).
    @inlinable
    mutating func send(_ value: consuming Value) -> Handoff? {
        if !draining && subscribers.count == 1 {
            // The common case: one subscriber, nothing in progress. The value goes straight into
            // the handoff, without passing through `current`.
            sequence &+= 1
            if subscribers[0].firstSequence > sequence { return nil }
            draining = true
            return Handoff(value: consume value, subscriber: subscribers[0])
        }
        return enqueue(value) ? next() : nil
    }

    /// Adds a subscriber that receives every value enqueued from now on, after `replay` if given.
    ///
    /// - Returns: The subscriber's id, and whether the caller must drain.
    @inlinable
    mutating func add(
        _ handler: EventHandler<Value>, state: SubscriberState, replay: Value?
    ) -> (id: Int, mustDrain: Bool) {
        let id = nextID
        nextID &+= 1
        subscribers.append(Subscriber(id: id, firstSequence: sequence &+ 1, handler: handler, state: state))
        guard let replay else { return (id, false) }
        return (id, enqueue(pending: Pending(value: replay, sequence: sequence, replayTo: id)))
    }

    /// Removes a subscriber. A handoff already taken by a drainer may still reach it once.
    ///
    /// - Returns: The removed subscriber, for the caller to release after unlocking: it holds the
    ///   handler and everything the handler captured.
    /// - Complexity: O(*s*) for *s* subscribers.
    @inlinable
    @discardableResult
    mutating func remove(id: Int) -> Subscriber? {
        let index = firstIndex(atLeast: id)
        guard index < subscribers.count, subscribers[index].id == id else { return nil }
        return subscribers.remove(at: index)
    }

    /// The index of the first subscriber whose id is `id` or more.
    ///
    /// - Complexity: O(log *s*) for *s* subscribers.
    @inlinable
    func firstIndex(atLeast id: Int) -> Int {
        if id == 0 { return 0 }
        var low = 0
        var high = subscribers.count
        while low < high {
            let middle = (low &+ high) / 2
            if subscribers[middle].id < id { low = middle &+ 1 } else { high = middle }
        }
        return low
    }

    @inlinable
    mutating func enqueue(pending item: Pending) -> Bool {
        if draining {
            pending.append(item)
            return false
        }
        // Nothing is being delivered, so nothing is queued either: start with this value.
        draining = true
        start(item)
        return true
    }

    /// Makes `item` the value being delivered.
    @inlinable
    mutating func start(_ item: Pending) {
        current = item.value
        currentSequence = item.sequence
        currentReplayTo = item.replayTo
        cursor = 0
        cursorIndex = 0
    }

    /// The index of the first subscriber whose id is ``cursor`` or more: the remembered one when it
    /// is still right, otherwise found by binary search.
    @inlinable
    func cursorPosition() -> Int {
        let index = cursorIndex
        if index <= subscribers.count && (index == subscribers.count || subscribers[index].id >= cursor)
            && (index == 0 || subscribers[index &- 1].id < cursor)
        {
            return index
        }
        return firstIndex(atLeast: cursor)
    }

    /// Moves the value being delivered out, so that it is released by whoever takes it.
    @inlinable
    mutating func takeCurrent() -> Value {
        var taken: Value? = nil
        swap(&taken, &current)
        return taken.unsafelyUnwrapped
    }

    /// Takes the next delivery, or ends the drain when there is none.
    ///
    /// - Complexity: Amortized O(1); O(log *s*) for *s* subscribers when subscribers came or went
    ///   since the previous handoff.
    @inlinable
    mutating func next() -> Handoff? {
        if current != nil && currentReplayTo < 0 && cursor == 0 && subscribers.count == 1
            && subscribers[0].firstSequence <= currentSequence
        {
            // The common case: a value for a single subscriber, which is also the last one.
            let subscriber = subscribers[0]
            cursor = subscriber.id &+ 1
            cursorIndex = 1
            return Handoff(value: takeCurrent(), subscriber: subscriber)
        }
        while true {
            if current != nil {
                if currentReplayTo >= 0 {
                    let index = firstIndex(atLeast: currentReplayTo)
                    let found = index < subscribers.count && subscribers[index].id == currentReplayTo
                    return Handoff(value: takeCurrent(), subscriber: found ? subscribers[index] : nil)
                }
                let index = cursorPosition()
                guard index < subscribers.count, subscribers[index].firstSequence <= currentSequence else {
                    // Nobody left (the last ones cancelled meanwhile): carry the value out.
                    return Handoff(value: takeCurrent(), subscriber: nil)
                }
                let subscriber = subscribers[index]
                cursor = subscriber.id &+ 1
                let following = index &+ 1
                cursorIndex = following
                if following == subscribers.count || subscribers[following].firstSequence > currentSequence {
                    return Handoff(value: takeCurrent(), subscriber: subscriber)  // the last one
                }
                return Handoff(value: current.unsafelyUnwrapped, subscriber: subscriber)
            }
            guard pendingHead < pending.count else {
                if !pending.isEmpty {
                    pending.removeAll(keepingCapacity: pending.capacity <= 64)
                    pendingHead = 0
                }
                draining = false
                return nil
            }
            var item: Pending? = nil
            swap(&item, &pending[pendingHead])
            pendingHead &+= 1
            start(item.unsafelyUnwrapped)
            if pendingHead >= 32 && pendingHead &* 2 >= pending.count {
                // Every slot before the head is empty: drop them, amortized O(1) per value.
                pending.removeSubrange(0..<pendingHead)
                pendingHead = 0
            }
        }
    }
}

extension EmitterCore.Handoff {
    /// Calls the handler, outside every lock.
    @inlinable
    func run() {
        subscriber?.deliver(value)
    }
}

extension EmitterCore.Subscriber {
    @inlinable
    func deliver(_ value: Value) {
        if isSynchronous {
            // Picked under the owner's lock: the subscriber was subscribed a moment ago.
            synchronousBody(value)
        } else {
            handler.deliver(value, state: state)
        }
    }
}

/// Whether a subscriber is still subscribed; checked right before each asynchronous handler call.
///
/// `package` access: Ripple's tests reach it without `@testable`, so they also run in release builds.
@usableFromInline
package final class SubscriberState: Sendable {
    @usableFromInline let active = LockedState(true)

    @inlinable
    package init() {}

    @inlinable
    package var isActive: Bool { active.withLock { $0 } }

    @inlinable
    package func deactivate() { active.withLock { $0 = false } }
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
