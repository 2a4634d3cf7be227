// Starting and ending runs: `execute` and `run(parameter:)`, the check-and-start, the sync,
// Dispatch and async bodies, and the end of each run, every change of state a transition of the
// command's `CommandMachine`, and every call out made after unlocking.

import Dispatch

extension CommandWithResult {
    /// Starts a run if the command can execute; atomically with respect to other `execute` and
    /// `run` calls. Returns at once: see ``run(parameter:)`` to await the run.
    ///
    /// - A nonisolated command checks and starts on the calling thread; its sync body runs there
    ///   before `execute` returns.
    /// - A main-actor command called on the main thread does the same. Called from another thread,
    ///   it cannot evaluate its predicate there: it hands the call to the main queue, where the
    ///   check-and-start happens, and returns ``CommandExecution/handedToMainActor`` (or
    ///   `.refused(.ownerDeallocated)` if the owner is already gone).
    ///
    /// Under `.enqueue`, a parameter queued behind a run starts when that run ends: a nonisolated
    /// sync body then runs on the thread that ended it, a main-actor one on the main actor.
    ///
    /// - Parameter parameter: The value the run gets.
    /// - Returns: What happened: ``CommandExecution/started``, ``CommandExecution/queued``,
    ///   ``CommandExecution/handedToMainActor``, or ``CommandExecution/refused(_:)`` with the
    ///   reason. Never `.started` for a run that will not happen.
    /// - Precondition: Under `.cancelRunning`, a sync body calls `execute` from inside itself at
    ///   most 64 levels deep. A sync body cannot be cancelled, so each such call nests one run
    ///   deeper on that thread; the 65th level traps with a message instead of overflowing the
    ///   stack. Plain calls on other threads nest nothing, however many run at once.
    /// - Complexity: O(1) under every policy but `.cancelRunning`, which is O(*r*) in the *r* runs
    ///   it cancels; plus the predicate and a sync body.
    @discardableResult
    public func execute(parameter: Parameter) -> CommandExecution {
        guard isMainActor else { return startNonisolated(parameter, waiter: nil) }
        guard MainThread.isCurrent else {
            guard resolveOwner() != nil else { return .refused(.ownerDeallocated) }
            DispatchQueue.main.async { _ = self.startOnMainActor(parameter, waiter: nil) }
            return .handedToMainActor
        }
        // Safe: the guard above has just checked that this is the main thread (the main queue off
        // Darwin), where the main actor's code runs; a call from anywhere else was handed to the
        // main queue instead. The check-and-start runs synchronously, before anything else can
        // run there.
        return MainActor.assumeIsolated { startOnMainActor(parameter, waiter: nil) }
    }

    /// Starts a run as ``execute(parameter:)`` does, and waits until it has ended.
    ///
    /// <!-- swift
    /// struct Book: Sendable { var title = "" }
    /// protocol SearchView: Viewable {}
    /// final class SearchPresenter: Presenter<any SearchView> {
    ///     private(set) lazy var search = CommandWithResult<String, [Book]>(
    ///         delegate: self, task: { _, _ in [] })
    /// }
    /// let presenter = SearchPresenter()
    /// func show(_ books: [Book]) {}
    /// func show(_ error: any Error) {}
    /// -->
    /// ```swift
    /// switch await presenter.search.run(parameter: "swift") {
    /// case .succeeded(let books): show(books)
    /// case .failed(let error): show(error)
    /// case .cancelled, .refused: break
    /// }
    /// ```
    ///
    /// The run is an ordinary run: the predicate and the policy decide whether it starts (under
    /// `.enqueue` it may wait in the queue first), it is published on every stream, and its error
    /// reaches ``errors``. A main-actor command checks and starts on the main actor (the call hops
    /// there if needed); a nonisolated command checks and starts on the calling task, whose thread
    /// also runs a nonisolated sync body.
    ///
    /// Cancelling the task that awaits `run` cancels the run (a queued one is dropped), and so do
    /// ``cancel()`` and, under `.cancelRunning`, a newer run: the call then returns
    /// ``CommandRunOutcome/cancelled`` once the body has ended, even when the body returned a
    /// value anyway (a cancelled run publishes none). A task cancelled before the call starts no
    /// run and returns `.cancelled`.
    ///
    /// - Parameter parameter: The value the run gets.
    /// - Returns: `.succeeded(value)`, `.failed(error)`, `.cancelled`, or `.refused(reason)` when
    ///   no run started.
    /// - Complexity: O(1) to start, as ``execute(parameter:)``; O(*r* + *q*) in the running and
    ///   queued runs when the awaiting task is cancelled.
    @discardableResult
    public func run(parameter: Parameter) async -> CommandRunOutcome<Output> {
        if Task.isCancelled { return .cancelled }
        let waiter = CommandWaiter<Output>()
        return await withTaskCancellationHandler {
            let execution: CommandExecution
            if isMainActor {
                execution = await MainActor.run { self.startOnMainActor(parameter, waiter: waiter) }
            } else {
                execution = startNonisolated(parameter, waiter: waiter)
            }
            if let refusal = execution.refusal { return .refused(refusal) }
            return await waiter.outcome()
        } onCancel: {
            self.cancel(waiter)
        }
    }

    /// The check-and-start of a nonisolated command, on the calling thread.
    func startNonisolated(_ parameter: Parameter, waiter: CommandWaiter<Output>?) -> CommandExecution {
        guard let owner = resolveOwner() else { return .refused(.ownerDeallocated) }
        if let holds = nonisolatedPredicate, !holds(owner, parameter) { return .refused(.cannotExecute) }
        return start(owner, parameter, waiter)
    }

    /// The check-and-start of a main-actor command, on the main actor.
    @MainActor
    func startOnMainActor(_ parameter: Parameter, waiter: CommandWaiter<Output>?) -> CommandExecution {
        guard let owner = resolveOwner() else { return .refused(.ownerDeallocated) }
        if let holds = mainActorPredicate, !holds(owner, parameter) { return .refused(.cannotExecute) }
        return start(owner, parameter, waiter)
    }

    /// The check-and-start of the policy (``CommandMachine/admit(thread:entry:makeRun:)``), then
    /// the run, once the owner is resolved (and held by the caller) and the predicate holds. On the
    /// main actor for a main-actor command.
    func start(_ owner: AnyOwner, _ parameter: Parameter, _ waiter: CommandWaiter<Output>?) -> CommandExecution {
        let thread = nestsPerThread ? CurrentThread.id : nil
        let (admission, replaced, drains) = state.withLock { state in
            state.admit(thread: thread) {
                QueuedEntry(
                    run: QueuedRun(parameter: parameter, waiter: waiter), waiterID: waiter.map(ObjectIdentifier.init))
            } makeRun: { id in
                makeRun(id, waiter)
            }
        }
        switch admission {
        case .refused(let reason):
            return .refused(reason)
        case .tooDeep(let depth):
            preconditionFailure(
                "CommandWithResult.execute(parameter:): sync run \(depth) of this .cancelRunning command on this thread "
                    + "is out of range 1...\(syncRunLimit); is execute called from inside its own body? A sync body cannot be "
                    + "cancelled, so each such call nests one level deeper until the stack overflows")
        case .queued:
            break
        case .started(let run):
            if !drains.isEmpty { drain(drains) }
            for old in replaced { old.cancel() }
            switch run {
            case .sync: runSync(owner, parameter, waiter, thread: thread)
            case .run(let id, let handle): perform(id, Self.run(handle), parameter)
            }
        }
        // A task that was cancelled while its run was being registered: cancel the run now that
        // it can be found (a sync run has already ended).
        if let waiter, waiter.cancelRequested { cancel(waiter) }
        if case .queued = admission { return .queued }
        return .started
    }

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

    /// A queued entry, as the box this command made.
    static func queuedRun(_ entry: QueuedEntry) -> QueuedRun<Parameter, Output> {
        // Safe: the machine queues only the boxes this command's `start` made.
        unsafeDowncast(entry.run, to: QueuedRun<Parameter, Output>.self)
    }

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

    /// Runs the queued parameter `first`, already registered as a sync run, then each one that
    /// takes over after it, on this thread (they nest nothing). A `nil` owner (it has gone) ends
    /// each as cancelled without running the body.
    func runQueued(_ first: QueuedEntry, owner: AnyOwner?) {
        var taken: QueuedEntry? = first
        while let entry = taken {
            let run = Self.queuedRun(entry)
            guard let owner else {
                taken = endSync(failing: OwnerReleased(), run.waiter, thread: nil)
                continue
            }
            do {
                taken = endSync(succeeding: try callSync(owner, run.parameter), run.waiter, thread: nil)
            } catch {
                taken = endSync(failing: error, run.waiter, thread: nil)
            }
        }
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
        let takeOver = endRun(.sync(thread: thread), failure: nil, drainingOutcomes: outcomes)
        if let waiter { waiter.resume(.succeeded(value)) }
        guard let takeOver else { return nil }
        return takeOver.entry
    }

    /// Ends a sync run that threw `error`; returns the queued run that takes over, if any.
    func endSync(failing error: any Error, _ waiter: CommandWaiter<Output>?, thread: UInt?) -> QueuedEntry? {
        var cancelled = false
        let takeOver = endRun(.sync(thread: thread), failure: error, drainingOutcomes: false) { cancelled = $0 }
        if let waiter { waiter.resume(cancelled ? .cancelled : .failed(error)) }
        guard let takeOver else { return nil }
        return takeOver.entry
    }

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
    /// does what it returns: delivers the events, reports an unobserved error.
    ///
    /// - Returns: The queued run that takes over, already registered, for the caller to start.
    func endRun(
        _ ending: CommandMachine.Ending, failure: (any Error)?, drainingOutcomes: Bool,
        cancelled: (Bool) -> Void = { _ in }
    ) -> (entry: QueuedEntry, start: CommandMachine.Start)? {
        let isCancellation = failure.map { $0 is CancellationError || $0 is OwnerReleased } ?? false
        var effects = state.withLock { state in
            state.end(ending, failure: failure, isCancellation: isCancellation) { id, entry in
                makeRun(id, Self.queuedRun(entry).waiter)
            }
        }
        if drainingOutcomes { effects.drains.insert(.outcomes) }
        cancelled(effects.cancelled)
        if let unobserved = effects.unobserved {
            Diagnostics.report(
                Diagnostic(
                    kind: .unobservedError, source: "CommandWithResult<\(Parameter.self), \(Output.self)>",
                    message: "a run failed and nobody observes `errors`: \(unobserved)"))
        }
        if !effects.drains.isEmpty { drain(effects.drains) }
        return effects.takeOver
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
        let takeOver: (entry: QueuedEntry, start: CommandMachine.Start)?
        switch result {
        case .success(let value):
            if let outcomes = publish(value, endingRun: .run(id: id)) {
                takeOver = endRun(.run(id: id), failure: nil, drainingOutcomes: outcomes)
                waiter?.resume(.succeeded(value))
            } else {
                // Cancelled before it returned (replaced under `.cancelRunning`, or `cancel()`):
                // its value is dropped, and it ends as cancelled.
                takeOver = endRun(.run(id: id), failure: CancellationError(), drainingOutcomes: false)
                waiter?.resume(.cancelled)
            }
        case .failure(let error):
            var cancelled = false
            takeOver = endRun(.run(id: id), failure: error, drainingOutcomes: false) { cancelled = $0 }
            waiter?.resume(cancelled ? .cancelled : .failed(error))
        }
        guard let takeOver else { return }
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
