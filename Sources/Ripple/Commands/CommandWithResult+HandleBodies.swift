// Dispatch and async bodies, and work bound with `useWork`: each run is kept by a
// `CommandResultRun` handle, which its body (or its task) ends once; the end reaches `finish`.

extension CommandWithResult {
    /// The handle of a new Dispatch or async run (or `useWork`), whose end reaches `finish`.
    func makeRun(_ id: Int, _ waiter: CommandWaiter<Output>?) -> CommandResultRun<Output> {
        CommandResultRun(waiter: waiter) { [weak self] result in
            guard let self else {
                // Only a run nobody awaits can outlive its command: `run(parameter:)` holds the command.
                waiter?.resume(.cancelled)
                return
            }
            self.finish(id, result, waiter)
        }
    }

    /// A handle the machine keeps, as the run this command made.
    static func run(_ handle: any CommandRunHandle) -> CommandResultRun<Output> {
        // Safe: the machine keeps only the handles this command's `makeRun` made.
        unsafeDowncast(handle, to: CommandResultRun<Output>.self)
    }

    func perform(_ id: Int, _ handle: CommandResultRun<Output>, _ parameter: Parameter) {
        let resolveOwner = self.resolveOwner
        switch body {
        case .sync, .mainActorSync:
            preconditionFailure("CommandWithResult.perform: run \(id) has a sync body, which never runs as a handle")
        case .dispatch(let queue, let work):
            queue.schedule {
                if handle.isCancelled { return handle.fail(CancellationError()) }
                guard let owner = resolveOwner() else { return handle.fail(OwnerReleased()) }
                do {
                    try work(owner, parameter, handle)
                } catch {
                    handle.fail(error)
                }
            }
        case .async(let priority, let work):
            // Atomic with `cancel()` under the run's lock: a cancel that saw this run either finds
            // the task or has left the flag that cancels it here.
            handle.attach(
                Task(priority: priority) {
                    guard let owner = resolveOwner() else { return handle.fail(OwnerReleased()) }
                    do {
                        handle.succeed(try await work(owner, parameter))
                    } catch {
                        handle.fail(error)
                    }
                })
        case .mainActorAsync(let priority, let work):
            handle.attach(
                Task(priority: priority) { @MainActor in
                    guard let owner = resolveOwner() else { return handle.fail(OwnerReleased()) }
                    do {
                        handle.succeed(try await work(owner, parameter))
                    } catch {
                        handle.fail(error)
                    }
                })
        }
    }

    /// Ends a Dispatch or async run, or work bound with `useWork`; called once by its
    /// ``CommandResultRun``. Runs the parameter queued behind it, if one takes over: a main-actor
    /// sync body on the main actor.
    func finish(_ id: Int, _ result: Result<Output, any Error>, _ waiter: CommandWaiter<Output>?) {
        let action: CommandMachine.EndAction
        switch result {
        case .success(let value):
            if let outcomes = publish(value, endingRun: .run(id: id)) {
                action = endRun(.run(id: id), failure: nil, drainingOutcomes: outcomes)
                waiter?.resume(.succeeded(value))
            } else {
                // Cancelled before it returned (replaced under `.cancelRunning`, or `cancel()`):
                // its value is dropped, and it ends as cancelled.
                action = endRun(.run(id: id), failure: CancellationError(), drainingOutcomes: false)
                waiter?.resume(.cancelled)
            }
        case .failure(let error):
            action = endRun(.run(id: id), failure: error, drainingOutcomes: false)
            waiter?.resume(action.ending == .cancelled ? .cancelled : .failed(error))
        }
        guard let takeOver = action.takeOver else { return }
        let queued = Self.queuedRun(takeOver.entry)
        switch takeOver.start {
        case .sync:
            let entry = takeOver.entry
            if mainActorSyncWork != nil {
                MainThread.run { self.runQueued(entry, owner: self.resolveOwner()) }
            } else {
                runQueued(entry, owner: resolveOwner())
            }
        case .run(let nextID, let handle):
            perform(nextID, Self.run(handle), queued.parameter)
        }
        if let waiter = queued.waiter, waiter.cancelRequested { cancel(waiter) }
    }
}
