/// One run of a command, handed to Dispatch bodies: check ``isCancelled``, and call it (or
/// ``succeed()``/``fail(_:)``) exactly once when the work has ended.
///
/// ```swift
/// CommandWithParameter<Credentials>(delegate: self, queue: .global()) { owner, credentials, done in
///     owner.api.login(credentials) { result in
///         if done.isCancelled { return done(.failure(CancellationError())) }
///         done(result.map { _ in () })
///     }
/// }
/// ```
///
/// The command stays executing until the run ends. Ending a run twice does nothing the second time.
public final class CommandRun: Sendable {
    private let cancelled = LockedState(false)
    private let onFinish: LockedState<(@Sendable (Result<Void, any Error>) -> Void)?>

    /// Creates a run that calls `finish` once when it ends.
    ///
    /// - Parameter finish: Receives the run's result.
    public init(finish: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        onFinish = LockedState(finish)
    }

    /// Whether the command was cancelled while this run was going on.
    public var isCancelled: Bool { cancelled.withLock { $0 } }

    /// Whether the run has ended.
    public var isFinished: Bool { onFinish.withLock { $0 == nil } }

    /// Ends the run with `result`.
    ///
    /// - Parameter result: `.success(())` or `.failure(error)`.
    public func callAsFunction(_ result: Result<Void, any Error>) {
        let finish = onFinish.withLock { finish -> (@Sendable (Result<Void, any Error>) -> Void)? in
            defer { finish = nil }
            return finish
        }
        finish?(result)
    }

    /// Ends the run successfully.
    public func succeed() { self(.success(())) }

    /// Ends the run with an error.
    ///
    /// - Parameter error: What went wrong.
    public func fail(_ error: any Error) { self(.failure(error)) }

    /// Marks the run cancelled; the body sees it through ``isCancelled``.
    func markCancelled() {
        cancelled.withLock { $0 = true }
    }
}
