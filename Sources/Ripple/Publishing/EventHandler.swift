import Dispatch

/// A subscriber's handler together with where it runs, typed so that the compiler checks the code
/// inside it for the thread it will really run on.
///
/// - A handler delivered on the main queue is `@MainActor`: it may touch a presenter or a view
///   directly, with no `MainActor.assumeIsolated`.
/// - A handler delivered synchronously, on another queue or on a scheduler is `@Sendable`: it may
///   run on any thread, so touching main-actor state from it is a compile error.
///
/// Every `subscribe` in Ripple builds one of these: `subscribe { … }` without a delivery makes
/// ``mainActor(_:)``, `subscribe(on: delivery) { … }` makes ``delivered(on:_:)``.
///
/// `package` access: Ripple's own emitters and streams are the only ones that take it.
@usableFromInline
package enum EventHandler<Value: Sendable>: Sendable {
    /// Runs on the delivering thread, before `send` returns when no other delivery is in progress.
    case synchronous(@Sendable (Value) -> Void)
    /// Runs asynchronously on a Dispatch queue.
    case queue(DispatchQueue, @Sendable (Value) -> Void)
    /// Runs on a ``WorkScheduler``.
    case scheduler(any WorkScheduler, @Sendable (Value) -> Void)
    /// Runs asynchronously on the main queue, isolated to the main actor.
    case mainActor(@MainActor (Value) -> Void)

    /// A `@Sendable` handler on `delivery`.
    @inlinable
    package static func delivered(on delivery: Delivery, _ handler: @escaping @Sendable (Value) -> Void) -> Self {
        switch delivery {
        case .synchronous: return .synchronous(handler)
        case .queue(let queue): return .queue(queue, handler)
        case .scheduler(let scheduler): return .scheduler(scheduler, handler)
        }
    }

    /// Calls the handler where it runs; asynchronous deliveries first check that `state` is still
    /// subscribed. Called outside every lock.
    @inlinable
    func deliver(_ value: Value, state: SubscriberState) {
        switch self {
        case .synchronous(let handler):
            // Picked under the owner's lock: the subscriber was subscribed a moment ago.
            handler(value)
        case .queue(let queue, let handler):
            queue.async {
                if state.isActive { handler(value) }
            }
        case .scheduler(let scheduler, let handler):
            scheduler.schedule {
                if state.isActive { handler(value) }
            }
        case .mainActor(let handler):
            MainQueueDeliveries.post {
                if state.isActive { handler(value) }
            }
        }
    }
}
