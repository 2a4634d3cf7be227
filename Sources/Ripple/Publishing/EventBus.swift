/// A typed, app-wide event bus: presenters post events and observe them with a token.
///
/// Each event type has its own channel, keyed by the type. Define an event as a small `Sendable`
/// value, post it from anywhere, and observe it where it matters:
///
/// ```swift
/// struct UserLoggedOut: Sendable {}
///
/// final class CartPresenter: Presenter<any Viewable> {
///     override func viewCreated() {
///         EventBus.shared.observe(UserLoggedOut.self) { [weak self] _ in self?.clear() }.store(in: lifetimeTokens)
///     }
///     func clear() { /* … */ }
/// }
///
/// // Anywhere:
/// EventBus.shared.post(UserLoggedOut())
/// ```
///
/// Delivery follows ``Emitter``: in post order, never re-entrant; on the main actor unless the
/// observer passes a ``Delivery``.
/// Tests make their own bus instead of sharing ``shared``.
public final class EventBus: Sendable {
    private let channels = LockedState<[ObjectIdentifier: any Sendable]>([:])

    /// The app-wide bus.
    public static let shared = EventBus()

    /// Creates a bus of its own, for tests or a feature's private events.
    public init() {}

    /// Posts an event to everyone observing its type.
    ///
    /// - Parameter event: The event.
    public func post<Event: Sendable>(_ event: Event) {
        channel(for: Event.self).send(event)
    }

    /// Observes every event of a type posted from now on, on the main actor.
    ///
    /// - Parameters:
    ///   - type: The event type.
    ///   - handler: Called with each event, in post order, on the main actor (delivered on the
    ///     main queue).
    /// - Returns: A token that keeps the observation alive; discarding it ends the observation.
    public func observe<Event: Sendable>(
        _ type: Event.Type, _ handler: @escaping @MainActor (Event) -> Void
    ) -> SubscriptionToken {
        channel(for: type).subscribe(handler)
    }

    /// Observes every event of a type posted from now on, delivered where `delivery` says.
    ///
    /// - Parameters:
    ///   - type: The event type.
    ///   - delivery: Where the handler runs: synchronously, on a queue or on a scheduler.
    ///   - handler: Called with each event, in post order; `@Sendable`, since it may run on any
    ///     thread.
    /// - Returns: A token that keeps the observation alive; discarding it ends the observation.
    public func observe<Event: Sendable>(
        _ type: Event.Type, on delivery: Delivery, _ handler: @escaping @Sendable (Event) -> Void
    ) -> SubscriptionToken {
        channel(for: type).subscribe(on: delivery, handler)
    }

    private func channel<Event: Sendable>(for type: Event.Type) -> Emitter<Event> {
        channels.withLock { channels in
            let key = ObjectIdentifier(type)
            if let existing = channels[key] as? Emitter<Event> { return existing }
            let created = Emitter<Event>()
            channels[key] = created
            return created
        }
    }
}
