/// What a command does when `execute` is called while it is already running.
public enum CommandPolicy: Sendable, Hashable {
    /// Refuse the new run; `execute` returns `.refused(.busy)`. The default: two taps start one run.
    case ignoreWhileRunning

    /// Cancel the running work and start the new run at once.
    case cancelRunning

    /// Queue the new run; it starts when the current one ends. `execute` returns `.queued`.
    case enqueue

    /// Run up to `limit` runs at the same time; `execute` returns `.refused(.busy)` beyond that.
    case concurrent(limit: Int)
}

/// How one run of a command ended, as ``CommandWithResult/outcomes`` publishes it (without the
/// run's value; ``CommandWithResult/run(parameter:)`` returns a ``CommandRunOutcome`` with it).
public enum CommandOutcome: Sendable {
    /// The body finished without error, and the run was not cancelled.
    case succeeded

    /// The body threw or reported an error. The error also went to the command's `errors`.
    case failed(any Error)

    /// The run was cancelled (by `cancel()`, its awaiting task, or a newer run under
    /// ``CommandPolicy/cancelRunning``) and published no value, whatever its body returned.
    case cancelled

    /// Whether the run succeeded.
    public var isSuccess: Bool {
        if case .succeeded = self { return true }
        return false
    }
}
