/// The receiving side of a stream of values: subscribe to it, or iterate it with `for await`.
///
/// An `EventStream` cannot send. Types hand out streams for the events they publish, and keep the
/// sending side to themselves: an ``Emitter``'s ``Emitter/stream``, or a command's
/// `executingChanges`, which the command publishes under its own lock.
public struct EventStream<Value: Sendable>: Sendable {
    private let subscribeHandler:
        @Sendable (Delivery, @escaping @Sendable (Value) -> Void) -> SubscriptionToken

    /// Creates a stream from a subscribe function.
    ///
    /// - Parameter subscribe: Subscribes a handler with a delivery and returns its token.
    public init(
        subscribe: @escaping @Sendable (Delivery, @escaping @Sendable (Value) -> Void) -> SubscriptionToken
    ) {
        subscribeHandler = subscribe
    }

    /// Subscribes a handler to the values published from now on.
    ///
    /// - Parameters:
    ///   - delivery: Where the handler runs; the main queue unless you choose otherwise.
    ///   - handler: Called with each value, in order.
    /// - Returns: A token that keeps the subscription alive. **Discarding it cancels the subscription
    ///   at once.**
    public func subscribe(
        on delivery: Delivery = .main,
        _ handler: @escaping @Sendable (Value) -> Void
    ) -> SubscriptionToken {
        subscribeHandler(delivery, handler)
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
        EventStream { [self] delivery, handler in subscribe(on: delivery, handler) }
    }
}
