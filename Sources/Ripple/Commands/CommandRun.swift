/// The handle of one run of a command with a Dispatch body: check ``isCancelled``, and end the
/// run exactly once, with its value (``succeed(_:)``, or ``succeed()`` when `Output` is `Void`) or
/// its error (``fail(_:)``), or with a `Result` (`done(result)`).
///
/// <!-- swift
/// struct Query: Sendable { var text = "" }
/// struct Book: Sendable { var title = "" }
/// final class BookAPI: Sendable {
///     func search(_ query: Query, completion: @escaping @Sendable (Result<[Book], any Error>) -> Void) {
///         completion(.success([]))
///     }
/// }
/// final class BookSearch: Sendable {
///     let api = BookAPI()
/// }
/// let `self` = BookSearch()
/// -->
/// ```swift
/// let search = CommandWithResult<Query, [Book]>(delegate: self, queue: .global(), work: { owner, query, done in
///     owner.api.search(query) { result in
///         if done.isCancelled { return done.fail(CancellationError()) }
///         done(result)
///     }
/// })
/// ```
///
/// The command stays executing until the run ends. Only the first end counts; a value it carries
/// reaches the command's `results` before the run ends.
///
/// # Thread Safety
/// Every method may be called from any thread. The cancellation flag, the task of an `async` run
/// and the completion live behind one lock, so a cancel that races the start of a run either finds
/// its task or leaves a flag that the start sees: a run marked cancelled always has its task
/// cancelled.
public final class CommandResultRun<Output: Sendable>: Sendable {
    // Sendable: all mutable state is in `state`, a LockedState; `waiter` is immutable and Sendable.

    struct State {
        var isCancelled = false
        /// The task of an `async` run, once attached; released when the run ends.
        var task: Task<Void, Never>?
        /// `nil` once the run has ended.
        var finish: (@Sendable (Result<Output, any Error>) -> Void)?
    }

    private let state: LockedState<State>
    /// The `run(parameter:)` call awaiting this run, if one is.
    let waiter: CommandWaiter<Output>?

    /// Creates a run that calls `finish` once when it ends. (`package`: commands make their runs;
    /// tests make some too.)
    ///
    /// - Parameters:
    ///   - waiter: The `run(parameter:)` call awaiting the run, if one is.
    ///   - finish: Receives the run's result.
    package init(waiter: CommandWaiter<Output>? = nil, finish: @escaping @Sendable (Result<Output, any Error>) -> Void)
    {
        self.waiter = waiter
        state = LockedState(State(finish: finish))
    }

    /// Whether the command, or the task awaiting this run, cancelled it while it was going on.
    public var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// Whether the run has ended.
    public var isFinished: Bool { state.withLock { $0.finish == nil } }

    /// Ends the run with `result`. Only the first call has an effect.
    ///
    /// - Parameter result: `.success(value)` or `.failure(error)`.
    public func callAsFunction(_ result: Result<Output, any Error>) {
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

    /// Ends the run with its value. Only the first end has an effect.
    ///
    /// - Parameter value: What the run produced; it reaches the command's `results`.
    public func succeed(_ value: Output) { self(.success(value)) }

    /// Ends the run with an error. Only the first end has an effect.
    ///
    /// - Parameter error: What went wrong. `CancellationError` ends the run as cancelled.
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

extension CommandResultRun where Output == Void {
    /// Ends a run that produces no value successfully. Only the first end has an effect.
    public func succeed() { self(.success(())) }
}

/// The handle of one run of a command whose runs produce no value (`Output == Void`): a
/// ``CommandResultRun`` whose ``CommandResultRun/succeed()`` takes no value.
public typealias CommandRun = CommandResultRun<Void>

extension CommandResultRun: CommandRunHandle {
    /// The identity of the `run(parameter:)` call awaiting this run, if any.
    package var waiterID: ObjectIdentifier? { waiter.map(ObjectIdentifier.init) }
}
