// Controlling a command from outside its runs: cancelling, binding work started elsewhere, and
// telling subscribers that `canExecute` may have changed.

extension CommandWithResult {
    /// Cancels every running and queued run.
    ///
    /// Dispatch bodies see ``CommandResultRun/isCancelled``; async bodies get task cancellation; a
    /// sync body cannot be interrupted. The command stays executing until each body has really
    /// ended; queued parameters are dropped (a `run(parameter:)` awaiting one returns `.cancelled` at
    /// once). A command with nothing running publishes nothing, and a run that has already ended is
    /// not marked cancelled.
    ///
    /// - Complexity: O(*r* + *q*) in the *r* running and *q* queued runs.
    public func cancel() {
        // The dropped parameters are released after unlocking.
        switch state.withLock({ $0.cancelAll() }) {
        case .cancel(let runs, let dropped, let drains):
            if !drains.isEmpty { drain(drains) }
            for entry in dropped { Self.queuedRun(entry).waiter?.resume(.cancelled) }
            for run in runs { run.cancel() }
        }
    }

    /// Cancels the one run `waiter` awaits, when the task awaiting it is cancelled: drops it from
    /// the queue, or cancels it if it runs. A run not registered yet is cancelled by `start` once
    /// it is, since the flag is set first.
    func cancel(_ waiter: CommandWaiter<Output>) {
        waiter.requestCancel()
        switch state.withLock({ $0.cancel(awaitedBy: ObjectIdentifier(waiter)) }) {
        case .drop(let dropped, let drains):
            if !drains.isEmpty { drain(drains) }
            Self.queuedRun(dropped).waiter?.resume(.cancelled)
        case .cancel(let run):
            run.cancel()
        case .none:
            break
        }
    }

    /// Binds work started elsewhere (a completion-based call) to the command's executing state,
    /// as STT's `useWork` does: the command is executing until `done` is called.
    ///
    /// <!-- swift
    /// struct Credentials: Sendable {}
    /// struct Session: Sendable {}
    /// final class AuthAPI: Sendable {
    ///     func login(
    ///         _ credentials: Credentials, completion: @escaping @Sendable (Result<Session, any Error>) -> Void
    ///     ) {
    ///         completion(.success(Session()))
    ///     }
    /// }
    /// let api = AuthAPI()
    /// let credentials = Credentials()
    /// let login = Command(nonisolatedPerform: {})
    /// -->
    /// ```swift
    /// login.useWork { done in
    ///     api.login(credentials) { result in done(result.map { _ in () }) }
    /// }
    /// ```
    ///
    /// The work is not subject to the predicate or the policy, since it has already started; but
    /// it counts as a run, so under `.ignoreWhileRunning` `execute` refuses while it goes on, and
    /// under `.enqueue` a parameter queued behind it starts when it ends. Its value, errors and
    /// outcome are published like a run's, and ``cancel()`` marks it cancelled.
    ///
    /// - Parameter work: Starts the work, on the calling thread, and calls `done` once when it
    ///   ends, from any thread.
    public func useWork(_ work: (_ done: CommandResultRun<Output>) -> Void) {
        switch state.withLock({ state in state.bindWork { makeRun($0, nil) } }) {
        case .bind(let handle, let drains):
            if !drains.isEmpty { drain(drains) }
            work(Self.run(handle))
        }
    }

    /// Re-evaluates `canExecute`: subscribers of ``canExecuteChanges`` hear about it.
    public func raiseCanExecuteChanged() {
        let mustDrain = state.withLock { $0.canExecuteEvents.enqueue(()) }
        if mustDrain { drain(.canExecute) }
    }

    /// Re-evaluates `canExecute` each time `trigger` publishes a value, for as long as the command
    /// lives; for example when a text field's value changes.
    ///
    /// - Parameter trigger: The stream to follow.
    public func raiseCanExecuteChanged<Value>(whenever trigger: EventStream<Value>) {
        trigger.subscribe(on: .synchronous) { [weak self] _ in self?.raiseCanExecuteChanged() }
            .store(in: triggers)
    }
}

extension CommandWithResult where Parameter == Void {
    /// Whether `execute()` would start a run now.
    ///
    /// A main-actor command with a predicate evaluates it on the main actor, so call this on the
    /// main thread.
    ///
    /// - Complexity: O(1), plus the predicate.
    public func canExecute() -> Bool { canExecute(parameter: ()) }

    /// Starts a run if the command can execute, as ``execute(parameter:)``.
    ///
    /// - Returns: What happened: started, queued, handed to the main actor, or refused and why.
    @discardableResult
    public func execute() -> CommandExecution { execute(parameter: ()) }

    /// Starts a run and waits until it has ended, as ``run(parameter:)``.
    ///
    /// - Returns: `.succeeded(value)`, `.failed(error)`, `.cancelled`, or `.refused(reason)`.
    @discardableResult
    public func run() async -> CommandRunOutcome<Output> { await run(parameter: ()) }
}

/// Thrown into a run whose owner was deallocated before the body could start; reported as
/// `.cancelled`.
struct OwnerReleased: Error {}

/// The owner passed to the bodies of commands made without one.
final class OwnerlessPlaceholder: Sendable {
    static let shared = OwnerlessPlaceholder()
}
