import Dispatch

/// Something that runs work later, in the order it was scheduled: a `DispatchQueue`, or
/// RippleTesting's `TestScheduler`, which runs work only when a test steps it.
///
/// Commands run their Dispatch bodies on a scheduler, and ``Delivery/scheduler(_:)`` delivers
/// events on one, so a test can drive both without sleeping.
public protocol WorkScheduler: Sendable {
    /// Schedules `work` to run asynchronously.
    ///
    /// - Parameter work: The work.
    func schedule(_ work: @escaping @Sendable () -> Void)
}

extension DispatchQueue: WorkScheduler {
    /// Schedules `work` with `async`.
    ///
    /// - Parameter work: The work.
    public func schedule(_ work: @escaping @Sendable () -> Void) {
        async(execute: work)
    }
}

extension WorkScheduler where Self == DispatchQueue {
    /// The main queue, so that `queue: .main` reads naturally.
    public static var main: DispatchQueue { DispatchQueue.main }

    /// A global concurrent queue, so that `queue: .global()` reads naturally.
    ///
    /// - Parameter qos: The quality of service.
    public static func global(qos: DispatchQoS.QoSClass = .default) -> DispatchQueue {
        DispatchQueue.global(qos: qos)
    }
}
