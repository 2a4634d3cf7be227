// What `execute` and `run` report, and the waiter behind `run`.

/// What ``CommandType/execute(parameter:)`` did with a call: started a run, queued it, handed it to
/// the main actor, or refused it, and why.
///
/// `execute` never reports a run that will not happen as started: a main-actor command called off
/// the main thread cannot evaluate its `@MainActor` predicate there, so it reports
/// ``handedToMainActor``, which promises nothing about the run. Await
/// ``CommandWithResult/run(parameter:)`` instead to learn how a run ended.
public enum CommandExecution: Sendable, Hashable {
    /// A run started. A sync body has already run when `execute` returns; a Dispatch or `async`
    /// body has been scheduled.
    case started

    /// The run waits behind the running one (``CommandPolicy/enqueue``); it starts when that one
    /// ends, unless ``CommandWithResult/cancel()`` drops it first.
    case queued

    /// Called off the main thread on a main-actor command: the call was handed to the main queue,
    /// where the predicate and the policy decide. It may still be refused there.
    case handedToMainActor

    /// No run started, and none will.
    case refused(CommandRefusal)

    /// Why the call was refused, or `nil` when it was not (yet): ``started``, ``queued`` and
    /// ``handedToMainActor`` return `nil`.
    public var refusal: CommandRefusal? {
        if case .refused(let reason) = self { return reason }
        return nil
    }
}

/// Why a command refused a run.
public enum CommandRefusal: Sendable, Hashable {
    /// The predicate (`canExecute:`) does not hold.
    case cannotExecute

    /// The policy admits no other run now: a run goes on under
    /// ``CommandPolicy/ignoreWhileRunning``, or ``CommandPolicy/concurrent(limit:)`` is at its limit.
    case busy

    /// The owner (`delegate:`) has been deallocated.
    case ownerDeallocated
}

/// How a run awaited with ``CommandWithResult/run(parameter:)`` ended.
public enum CommandRunOutcome<Output: Sendable>: Sendable {
    /// The body finished and produced `Output` (`()` for a command without results). The value
    /// also reached ``CommandWithResult/results``.
    case succeeded(Output)

    /// The body threw or reported an error. The error also reached ``CommandWithResult/errors``.
    case failed(any Error)

    /// The run was cancelled: by ``CommandWithResult/cancel()``, by cancelling the task that
    /// awaits it, by a `CancellationError` from the body, by a newer run under
    /// ``CommandPolicy/cancelRunning``, or because its owner went away before it started.
    case cancelled

    /// No run started; the reason says why.
    case refused(CommandRefusal)

    /// The value of a run that succeeded, or `nil`.
    public var value: Output? {
        if case .succeeded(let value) = self { return value }
        return nil
    }
}

/// The `run(parameter:)` call that awaits one run: resumed exactly once with the run's outcome.
///
/// `package`: a ``CommandResultRun`` carries it, and tests make runs.
package final class CommandWaiter<Output: Sendable>: Sendable {
    // Sendable: all mutable state is in `state`, a LockedState.

    private struct State {
        var continuation: CheckedContinuation<CommandRunOutcome<Output>, Never>?
        /// The outcome, once known and before anyone awaits it.
        var outcome: CommandRunOutcome<Output>?
        var resumed = false
        /// The awaiting task was cancelled.
        var cancelRequested = false
    }

    private let state = LockedState(State())

    /// Creates a waiter that nobody has resumed yet.
    package init() {}

    /// Whether the awaiting task asked to cancel the run.
    var cancelRequested: Bool { state.withLock { $0.cancelRequested } }

    /// Records that the awaiting task was cancelled.
    func requestCancel() { state.withLock { $0.cancelRequested = true } }

    /// Delivers the outcome; only the first call counts.
    func resume(_ outcome: CommandRunOutcome<Output>) {
        let continuation = state.withLock { state -> CheckedContinuation<CommandRunOutcome<Output>, Never>? in
            guard !state.resumed else { return nil }
            state.resumed = true
            guard let continuation = state.continuation else {
                state.outcome = outcome
                return nil
            }
            state.continuation = nil
            return continuation
        }
        continuation?.resume(returning: outcome)
    }

    /// Waits for the outcome.
    func outcome() async -> CommandRunOutcome<Output> {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> CommandRunOutcome<Output>? in
                if let outcome = state.outcome {
                    state.outcome = nil
                    return outcome
                }
                state.continuation = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
