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
///
/// # Thread Safety
/// Every method may be called from any thread. The cancellation flag, the task of an `async` run and
/// the completion live behind one lock, so a cancel that races the start of a run either finds its
/// task or leaves a flag that the start sees: a run marked cancelled always has its task cancelled.
public final class CommandRun: Sendable {
    // Sendable: all mutable state is in `state`, a LockedState.

    struct State {
        var isCancelled = false
        /// The task of an `async` run, once attached; released when the run ends.
        var task: Task<Void, Never>?
        /// `nil` once the run has ended.
        var finish: (@Sendable (Result<Void, any Error>) -> Void)?
    }

    private let state: LockedState<State>

    /// Creates a run that calls `finish` once when it ends.
    ///
    /// - Parameter finish: Receives the run's result.
    public init(finish: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        state = LockedState(State(finish: finish))
    }

    /// Whether the command was cancelled while this run was going on.
    public var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// Whether the run has ended.
    public var isFinished: Bool { state.withLock { $0.finish == nil } }

    /// Ends the run with `result`. Only the first call has an effect.
    ///
    /// - Parameter result: `.success(())` or `.failure(error)`.
    public func callAsFunction(_ result: Result<Void, any Error>) {
        let (finish, task) = state.withLock { state in
            defer {
                state.finish = nil
                state.task = nil
            }
            return (state.finish, state.task)
        }
        // The task (if any) is released here, outside the lock.
        withExtendedLifetime(task) {}
        finish?(result)
    }

    /// Ends the run successfully.
    public func succeed() { self(.success(())) }

    /// Ends the run with an error.
    ///
    /// - Parameter error: What went wrong.
    public func fail(_ error: any Error) { self(.failure(error)) }

    /// Marks the run cancelled and cancels its task, if one is attached. A run that has already
    /// ended is left alone. (`package`: the command calls it; its tests do too.)
    package func cancel() {
        let task = state.withLock { state -> Task<Void, Never>? in
            guard state.finish != nil else { return nil }
            state.isCancelled = true
            return state.task
        }
        task?.cancel()
    }

    /// Attaches the task of an `async` run, cancelling it at once if the run was cancelled before.
    ///
    /// - Parameter task: The task running the body.
    package func attach(_ task: Task<Void, Never>) {
        let cancelledEarly = state.withLock { state -> Bool in
            if state.isCancelled { return true }
            // A run that has already ended keeps no task.
            if state.finish != nil { state.task = task }
            return false
        }
        if cancelledEarly { task.cancel() }
    }
}
