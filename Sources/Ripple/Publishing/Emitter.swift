/// A lightweight, thread-safe publisher of values: send on one side, subscribe with a closure on
/// the other.
///
/// <!-- swift
/// struct User: Sendable {
///     var name: String
/// }
/// let user = User(name: "Ada")
/// -->
/// ```swift
/// let loggedIn = Emitter<User>()
/// let token = loggedIn.subscribe { user in print("hello, \(user.name)") }   // on the main actor
/// loggedIn.send(user)
/// ```
///
/// # Delivery
/// - Every subscriber receives every value sent after it subscribed, exactly once, in send order.
/// - Handlers run where each subscriber chose: `subscribe { … }` on the main queue, with a
///   `@MainActor` handler; `subscribe(on:_:)` on a ``Delivery``, with a `@Sendable` handler.
/// - No handler runs while Ripple holds a lock.
/// - A value sent from inside a handler is delivered after the current value has reached every
///   subscriber, never re-entrantly; nothing deadlocks.
///
/// # Replay
/// An emitter made with ``init(replayingLatest:)`` remembers the latest value and hands it to each
/// new subscriber first, like a current-value subject.
///
/// # Names
/// Ripple avoids Combine's names (`Publisher`, `Subject`, `Cancellable`, `AnyCancellable`), so both
/// modules can be imported in one file.
///
/// # Lifetimes
/// The previous latest value, delivered values and cancelled handlers (with everything they
/// capture) are released after Ripple's lock is unlocked, so a `deinit` may use the same emitter.
/// A delivered value is released once every subscriber has had it.
///
/// # Thread Safety
/// `send` and `subscribe` may be called from any thread.
public final class Emitter<Value: Sendable>: Sendable {
    @usableFromInline
    struct State {
        @usableFromInline var core = EmitterCore<Value>()
        @usableFromInline var latest: Value?
        @usableFromInline let replaysLatest: Bool

        @inlinable
        init(latest: Value?, replaysLatest: Bool) {
            self.latest = latest
            self.replaysLatest = replaysLatest
        }
    }

    @usableFromInline let state: LockedState<State>

    /// Creates an emitter that does not remember values.
    @inlinable
    public init() {
        state = LockedState(State(latest: nil, replaysLatest: false))
    }

    /// Creates an emitter that remembers its latest value and replays it to each new subscriber.
    ///
    /// - Parameter initial: The value new subscribers receive until the first `send`, or `nil` for
    ///   none.
    @inlinable
    public init(replayingLatest initial: Value?) {
        state = LockedState(State(latest: initial, replaysLatest: true))
    }

    /// The latest value sent, for an emitter that replays; otherwise `nil`.
    public var latest: Value? { state.withLock { $0.latest } }

    /// Sends `value` to every subscriber.
    ///
    /// Returns once the value is queued. If no other delivery is in progress, the calling thread
    /// delivers it, and synchronous subscribers have run before `send` returns.
    ///
    /// - Parameter value: The value to send.
    /// - Complexity: O(*s*) for *s* subscribers.
    @inlinable
    public func send(_ value: Value) {
        let (handoff, _) = state.withLock { state in
            let previous = state.remember(value)
            return (state.core.send(value), previous)
        }
        // The previous latest value is released here, after unlocking.
        if let handoff { deliver(handoff) }
    }

    /// Subscribes a main-actor handler to the values sent from now on, delivered on the main queue.
    ///
    /// - Parameter handler: Called with each value, in send order, on the main actor.
    /// - Returns: A token that keeps the subscription alive. **Discarding it cancels the subscription
    ///   at once.**
    @inlinable
    public func subscribe(_ handler: @escaping @MainActor (Value) -> Void) -> SubscriptionToken {
        subscribe(.mainActor(handler))
    }

    /// Subscribes a handler to the values sent from now on, delivered where `delivery` says.
    ///
    /// - Parameters:
    ///   - delivery: Where the handler runs: synchronously, on a queue or on a scheduler.
    ///   - handler: Called with each value, in send order; `@Sendable`, since it may run on any
    ///     thread.
    /// - Returns: A token that keeps the subscription alive. **Discarding it cancels the subscription
    ///   at once.**
    @inlinable
    public func subscribe(
        on delivery: Delivery, _ handler: @escaping @Sendable (Value) -> Void
    ) -> SubscriptionToken {
        subscribe(.delivered(on: delivery, handler))
    }

    /// Subscribes `handler`, replaying the latest value first when the emitter replays.
    @inlinable
    package func subscribe(_ handler: EventHandler<Value>) -> SubscriptionToken {
        let subscriberState = SubscriberState()
        let (id, mustDrain) = state.withLock { state in
            state.core.add(handler, state: subscriberState, replay: state.replaysLatest ? state.latest : nil)
        }
        if mustDrain { drain() }
        return SubscriptionToken { [weak self] in
            subscriberState.deactivate()
            // The removed subscriber, and the handler's captures, are released after unlocking.
            self?.state.withLock { $0.core.remove(id: id) }
        }
    }

    /// The number of current subscribers.
    public var subscriberCount: Int { state.withLock { $0.core.subscribers.count } }

    /// Delivers `first`, taken together with the enqueue, then whatever else is queued.
    @inlinable
    func deliver(_ first: EmitterCore<Value>.Handoff) {
        first.run()
        drain()
    }

    @inlinable
    func drain() {
        drainDeliveries { state.withLock { $0.core.next() } }
    }
}

extension Emitter.State {
    /// Makes `value` the latest one when the emitter replays.
    ///
    /// - Returns: The previous latest value, for the caller to release after unlocking.
    @inlinable
    mutating func remember(_ value: Value) -> Value? {
        guard replaysLatest else { return nil }
        var previous: Value? = value
        swap(&previous, &latest)
        return previous
    }
}
