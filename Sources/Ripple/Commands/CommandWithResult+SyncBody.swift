// A sync body: it runs on the calling thread (the main thread for a main-actor body), before
// `execute` returns, and ends there, with no handle, no box and no generic value on the way, so
// that a plain `execute` reads no generic metadata.

extension CommandWithResult {
    /// Runs a sync body on this thread (the main thread for a main-actor body), with its owner held
    /// by the caller, then each parameter queued behind it that takes over.
    ///
    /// The run goes without a box, a `Result`, an `Optional` of the owner or any other generic
    /// value, so that a plain `execute` reads no generic metadata and retains its owner once.
    func runSync(_ owner: AnyOwner, _ parameter: Parameter, _ waiter: CommandWaiter<Output>?, thread: UInt?) {
        let taken: QueuedEntry?
        do {
            taken = endSync(succeeding: try callSync(owner, parameter), waiter, thread: thread)
        } catch {
            taken = endSync(failing: error, waiter, thread: thread)
        }
        if let taken { runQueued(taken, owner: owner) }
    }

    /// Calls the sync body. A main-actor body is only ever started on the main thread (by
    /// `startOnMainActor`, or by a run that ends there, see `finish`), which the assumption checks.
    func callSync(_ owner: AnyOwner, _ parameter: Parameter) throws -> Output {
        if let work = syncWork { return try work(owner, parameter) }
        guard let work = mainActorSyncWork else {
            preconditionFailure("CommandWithResult.runSync: a body that is not sync ran as sync")
        }
        // Safe: a main-actor sync body belongs to a main-actor command, whose sync runs start only
        // in `startOnMainActor` (isolated to the main actor) or, for a run queued under `.enqueue`,
        // in `finish` through `MainThread.run`, which runs it on the main actor; the runs that take
        // over in `runSync` stay on that thread. Were it ever called elsewhere, assumeIsolated
        // would trap rather than let the body race.
        return try MainActor.assumeIsolated { try work(owner, parameter) }
    }

    /// Ends a sync run that returned `value`; returns the queued run that takes over, if any.
    func endSync(succeeding value: Output, _ waiter: CommandWaiter<Output>?, thread: UInt?) -> QueuedEntry? {
        // A sync run cannot be cancelled: it always publishes.
        let outcomes = publish(value, endingRun: .sync(thread: thread)) ?? false
        let action = endRun(.sync(thread: thread), failure: nil, drainingOutcomes: outcomes)
        if let waiter { waiter.resume(.succeeded(value)) }
        return action.takeOver?.entry
    }

    /// Ends a sync run that threw `error`; returns the queued run that takes over, if any.
    func endSync(failing error: any Error, _ waiter: CommandWaiter<Output>?, thread: UInt?) -> QueuedEntry? {
        let action = endRun(.sync(thread: thread), failure: error, drainingOutcomes: false)
        if let waiter { waiter.resume(action.ending == .cancelled ? .cancelled : .failed(error)) }
        return action.takeOver?.entry
    }
}
