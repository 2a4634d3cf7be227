import Dispatch

/// Where a `@Sendable` subscriber's handler runs, when it is not the main actor.
///
/// UI code passes no delivery at all: `subscribe { … }` delivers on the main queue to a
/// `@MainActor` handler, which may touch presenters and views directly. A `Delivery` is for the
/// other places a handler can run, and its handler is `@Sendable`, since it may run on any thread:
/// ``synchronous`` runs it on the thread that delivers, with no hop (the cheapest choice, for tests
/// and for work that is thread-safe anyway); ``queue(_:)`` and ``scheduler(_:)`` run it there.
public enum Delivery: Sendable {
    /// Runs the handler on the delivering thread, before `send` returns when no other delivery is
    /// in progress.
    case synchronous

    /// Runs the handler asynchronously on `queue`. Pass a serial queue to keep the order of values.
    case queue(DispatchQueue)

    /// Runs the handler on `scheduler`, for example RippleTesting's `TestScheduler`.
    case scheduler(any WorkScheduler)
}
