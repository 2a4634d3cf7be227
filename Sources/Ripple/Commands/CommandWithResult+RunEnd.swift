// The end of every run, whatever its body: its value published first (unless it was cancelled),
// then the end recorded by `CommandMachine.end`, and what that returns done after unlocking.

extension CommandWithResult {
    /// The first half of a successful run's end (``CommandMachine/publish(_:value:)``): delivers
    /// the value now, while the command still executes.
    ///
    /// - Returns: Whether `outcomes` must be drained once the run has ended, or `nil` when the run
    ///   was cancelled and published nothing: end it as cancelled.
    func publish(_ value: Output, endingRun ending: CommandMachine.Ending) -> Bool? {
        switch state.withLock({ $0.publish(ending, value: value) }) {
        case .endCancelled:
            return nil
        case .deliver(let results, let outcomes):
            if results { drain(.results) }
            return outcomes
        }
    }

    /// Records the end of a run (``CommandMachine/end(_:failure:isCancellation:makeRun:)``) and
    /// does what its action says that needs no body: delivers the events, reports an unobserved
    /// error.
    ///
    /// - Returns: The action, for the caller to resume the run's `run(parameter:)` call as it
    ///   ended, and to start the queued run that takes over, already registered.
    func endRun(
        _ ending: CommandMachine.Ending, failure: (any Error)?, drainingOutcomes: Bool
    ) -> CommandMachine.EndAction {
        let isCancellation = failure.map { $0 is CancellationError || $0 is OwnerReleased } ?? false
        let action = state.withLock { state in
            state.end(ending, failure: failure, isCancellation: isCancellation) { id, entry in
                makeRun(id, Self.queuedRun(entry).waiter)
            }
        }
        var drains: CommandDrains
        let unobserved: (any Error)?
        switch action {
        case .finish(_, let queued, let failure), .finishAndTakeOver(_, let queued, let failure, _, _):
            (drains, unobserved) = (queued, failure)
        }
        if drainingOutcomes { drains.insert(.outcomes) }
        if let unobserved {
            Diagnostics.report(
                Diagnostic(
                    kind: .unobservedError, source: "CommandWithResult<\(Parameter.self), \(Output.self)>",
                    message: "a run failed and nobody observes `errors`: \(unobserved)"))
        }
        if !drains.isEmpty { drain(drains) }
        return action
    }
}
