import Dispatch

/// Where a subscriber's handler runs.
///
/// UI code should use ``main`` (the default of every `subscribe` in Ripple): events then arrive on
/// the main queue whichever thread caused them. ``synchronous`` runs the handler on the thread that
/// delivers, with no hop: the cheapest choice, for tests and for work that is thread-safe anyway.
public enum Delivery: Sendable {
    /// Runs the handler on the delivering thread, before `send` returns when no other delivery is
    /// in progress.
    case synchronous

    /// Runs the handler asynchronously on `queue`. Pass a serial queue to keep the order of values.
    case queue(DispatchQueue)

    /// Runs the handler on `scheduler`, for example RippleTesting's `TestScheduler`.
    case scheduler(any WorkScheduler)

    /// Runs the handler asynchronously on the main queue.
    public static var main: Delivery { .queue(.main) }
}
