/// The receiving side of a stream of values: subscribe to it, or iterate it with `for await`.
///
/// An `EventStream` cannot send. Types hand out streams for the events they publish, and keep the
/// sending side to themselves: an ``Emitter``'s ``Emitter/stream``, or a command's
/// `executingChanges`, which the command publishes under its own lock.
public struct EventStream<Value: Sendable>: Sendable {
    private let subscribeHandler: @Sendable (EventHandler<Value>) -> SubscriptionToken

    /// Creates a stream from a subscribe function. (`package`: a stream of your own comes from an
    /// ``Emitter``'s ``Emitter/stream``.)
    ///
    /// - Parameter subscribe: Subscribes a handler and returns its token.
    package init(subscribe: @escaping @Sendable (EventHandler<Value>) -> SubscriptionToken) {
        subscribeHandler = subscribe
    }

    /// Subscribes a main-actor handler to the values published from now on, delivered on the main
    /// queue.
    ///
    /// - Parameter handler: Called with each value, in order, on the main actor.
    /// - Returns: A token that keeps the subscription alive. **Discarding it cancels the subscription
    ///   at once.**
    public func subscribe(_ handler: @escaping @MainActor (Value) -> Void) -> SubscriptionToken {
        subscribeHandler(.mainActor(handler))
    }

    /// Subscribes a handler to the values published from now on, delivered where `delivery` says.
    ///
    /// - Parameters:
    ///   - delivery: Where the handler runs: synchronously, on a queue or on a scheduler.
    ///   - handler: Called with each value, in order; `@Sendable`, since it may run on any thread.
    /// - Returns: A token that keeps the subscription alive. **Discarding it cancels the subscription
    ///   at once.**
    public func subscribe(
        on delivery: Delivery, _ handler: @escaping @Sendable (Value) -> Void
    ) -> SubscriptionToken {
        subscribeHandler(.delivered(on: delivery, handler))
    }

    /// The values published from now on, as an asynchronous sequence; buffered without limit.
    public var values: AsyncStream<Value> {
        AsyncStream(Value.self, bufferingPolicy: .unbounded) { continuation in
            let token = subscribe(on: .synchronous) { continuation.yield($0) }
            continuation.onTermination = { _ in token.cancel() }
        }
    }
}

extension Emitter {
    /// The receiving side of this emitter, to hand out without the ability to send.
    public var stream: EventStream<Value> {
        EventStream { [self] handler in subscribe(handler) }
    }
}
