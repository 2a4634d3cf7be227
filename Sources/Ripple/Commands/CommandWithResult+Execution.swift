// The entry points, `execute` and `run(parameter:)`, and the check-and-start behind both: the
// main-actor hop, the owner and the predicate, then the policy's admission
// (`CommandMachine.admit`), after which the run starts in the file of its body's kind.

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
        let action = state.withLock { state in
            state.admit(thread: thread) {
                QueuedEntry(
                    run: QueuedRun(parameter: parameter, waiter: waiter), waiterID: waiter.map(ObjectIdentifier.init))
            } makeRun: { id in
                makeRun(id, waiter)
            }
        }
        switch action {
        case .refuse(let reason):
            return .refused(reason)
        case .trapTooDeep(let depth):
            preconditionFailure(
                "CommandWithResult.execute(parameter:): sync run \(depth) of this .cancelRunning command on this thread "
                    + "is out of range 1...\(syncRunLimit); is execute called from inside its own body? A sync body cannot be "
                    + "cancelled, so each such call nests one level deeper until the stack overflows")
        case .queue:
            break
        case .start(let run, let replaced, let drains):
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
        if case .queue = action { return .queued }
        return .started
    }
}
