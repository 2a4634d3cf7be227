import Dispatch

/// A command: a piece of work a view can trigger, with its enabled state, executing state, errors,
/// results and cancellation, taking a typed parameter and producing a typed value.
///
/// This is the one implementation behind every command: ``CommandWithParameter`` is
/// `CommandWithResult<Parameter, Void>` and ``Command`` is `CommandWithResult<Void, Void>`.
///
/// <!-- swift
/// struct Book: Sendable { var title = "" }
/// protocol SearchView: Viewable {}
/// final class BookAPI: Sendable {
///     func search(_ query: String) async throws -> [Book] { [] }
/// }
/// extension SearchPresenter {
///     var api: BookAPI { BookAPI() }
/// }
/// let presenter = SearchPresenter()
/// -->
/// ```swift
/// @MainActor final class SearchPresenter: Presenter<any SearchView> {
///     private(set) lazy var search = CommandWithResult<String, [Book]>(
///         delegate: self, policy: .cancelRunning,
///         task: { owner, query in try await owner.api.search(query) },
///         canExecute: { _, query in !query.isEmpty })
/// }
///
/// presenter.search.execute(parameter: "swift")            // fire and forget: .started, .refused(…)
/// let outcome = await presenter.search.run(parameter: "swift")       // or await the run: .succeeded(books), …
/// ```
///
/// # Making one
/// One initializer family per body kind; the label says where the body runs:
///
/// | body | main actor, owner held weakly (presenters) | nonisolated, no owner (services) |
/// |---|---|---|
/// | sync | `init(delegate:policy:perform:canExecute:)` | `init(policy:nonisolatedPerform:canExecute:)` |
/// | Dispatch | `init(delegate:queue:policy:work:canExecute:)` | `init(queue:policy:nonisolatedWork:canExecute:)` |
/// | `async` | `init(delegate:priority:policy:task:canExecute:)` | `init(priority:policy:nonisolatedTask:canExecute:)` |
///
/// # Contract
/// - `canExecute(parameter:)` is the predicate, and not executing (unless the ``CommandPolicy``
///   allows more runs), and the owner still alive.
/// - Check-and-start is atomic: two `execute` calls racing from two threads start one run under
///   `.ignoreWhileRunning`.
/// - ``isExecuting`` becomes `true` before the body starts, and `false` only when the work has
///   ended: success, failure or cancel.
/// - ``execute(parameter:)`` says what it did (``CommandExecution``), and never calls a run that
///   will not happen started; ``run(parameter:)`` awaits the run and returns how it ended.
/// - Every error reaches ``errors``; when nobody subscribes to it, ``Diagnostics`` reports it. No
///   error is lost and none crashes.
/// - A run's value reaches ``results`` before the run ends.
/// - Runs that end at once (under `.concurrent`, or work bound with ``useWork(_:)``) reach
///   ``results`` and ``outcomes`` in one order, and so do ``errors`` and ``outcomes``: the k-th
///   value belongs to the k-th `.succeeded` outcome, the k-th error to the k-th `.failed` one.
/// - State changes are published through streams whose `subscribe { … }` handlers run on the main
///   actor, unless they choose a ``Delivery``.
/// - The owner (`delegate:`) is held weakly; a command whose owner has gone cannot execute.
///
/// # Isolation
/// Where each closure runs is in its type, so the compiler checks the code you write in it:
/// - **Main-actor commands** (made with `delegate:`, for presenters): the predicate, a sync body
///   and an `async` body are `@MainActor`. `execute` called on the main thread checks and runs at
///   once; called from another thread it hands the call to the main queue and returns
///   ``CommandExecution/handedToMainActor``. `canExecute` evaluates a main-actor predicate, so it
///   must be called on the main thread.
/// - **Nonisolated commands** (the `nonisolated…:` bodies, for services and background work): the
///   predicate and the bodies are `@Sendable`. A sync body runs on the thread that calls
///   `execute`, an `async` body in a task of its own, and every method works from any thread.
/// - A **Dispatch** body is `@Sendable` in both: it runs on the queue you pass, so touching
///   main-actor state from it is a compile error.
///
/// # Thread Safety
/// Every method may be called from any thread, but for `canExecute` on a main-actor command with a
/// predicate. The command's state is behind a lock; bodies, predicates and subscribers run outside
/// it.
public final class CommandWithResult<Parameter: Sendable, Output: Sendable>: CommandType, Sendable {
    /// A command's owner, as its closures receive it once erased: the `delegate:` of the
    /// initializers, or a placeholder for commands made without one.
    typealias AnyOwner = any AnyObject & Sendable

    /// The predicate, typed for where it runs.
    enum Predicate: Sendable {
        case always
        case mainActor(@MainActor (AnyOwner, Parameter) -> Bool)
        case nonisolated(@Sendable (AnyOwner, Parameter) -> Bool)
    }

    /// How the work runs, typed for where it runs. Owners are resolved once per run and passed in.
    enum Body: Sendable {
        /// On the main actor, on the thread that starts the run (the main thread).
        case mainActorSync(@MainActor (AnyOwner, Parameter) throws -> Output)
        /// On the thread that calls `execute`.
        case sync(@Sendable (AnyOwner, Parameter) throws -> Output)
        case dispatch(any WorkScheduler, @Sendable (AnyOwner, Parameter, CommandResultRun<Output>) throws -> Void)
        case mainActorAsync(TaskPriority?, @MainActor (AnyOwner, Parameter) async throws -> Output)
        case async(TaskPriority?, @Sendable (AnyOwner, Parameter) async throws -> Output)

        var isSync: Bool {
            switch self {
            case .mainActorSync, .sync: return true
            case .dispatch, .mainActorAsync, .async: return false
            }
        }
    }

    private let body: Body
    private let predicate: Predicate
    /// Whether the command belongs to the main actor: `execute` then checks and starts on it.
    private let isMainActor: Bool
    /// The owner, strongly, for the length of one call; `nil` once it is gone. Ownerless commands
    /// return ``OwnerlessPlaceholder/shared``.
    private let resolveOwner: @Sendable () -> AnyOwner?
    private let state: LockedState<CommandState<Parameter, Output>>
    private let triggers = TokenBag()

    /// What happens to `execute` while a run is going on.
    public let policy: CommandPolicy

    init(
        body: Body, policy: CommandPolicy, predicate: Predicate, isMainActor: Bool,
        resolveOwner: (@Sendable () -> AnyOwner?)?
    ) {
        let runLimit: Int
        switch policy {
        case .ignoreWhileRunning:
            runLimit = 1
        case .cancelRunning, .enqueue:
            runLimit = .max
        case .concurrent(let limit):
            precondition(
                limit >= 1, "CommandWithResult.init(policy:): concurrent limit \(limit) is out of range 1...")
            runLimit = limit
        }
        self.body = body
        self.policy = policy
        self.predicate = predicate
        self.isMainActor = isMainActor
        self.resolveOwner = resolveOwner ?? { OwnerlessPlaceholder.shared }
        state = LockedState(CommandState(runLimit: runLimit))
    }

    // MARK: - State

    /// Whether a run is going on or queued.
    public var isExecuting: Bool { state.withLock { $0.isExecuting } }

    /// How many runs wait under `.enqueue`. (`package`: tests wait for a run to be queued.)
    package var queuedRunCount: Int { state.withLock { $0.queued.count } }

    /// Whether changes of ``isExecuting`` are still on their way to subscribers: a thread that
    /// ended a run may still be delivering them after unlocking. (`package`: tests wait for the
    /// stream to settle before reading what it delivered.)
    package var isDeliveringExecutingChanges: Bool { state.withLock { $0.executingEvents.draining } }

    /// Whether `execute(parameter:)` would start a run now: the owner is alive, the predicate
    /// holds, and the policy allows another run.
    ///
    /// A main-actor command with a predicate evaluates it on the main actor, so call this on the
    /// main thread; called from another thread it traps.
    ///
    /// - Parameter parameter: The value the run would get.
    /// - Complexity: O(1), plus the predicate.
    public func canExecute(parameter: Parameter) -> Bool {
        guard let owner = resolveOwner() else { return false }
        switch predicate {
        case .always:
            break
        case .nonisolated(let holds):
            guard holds(owner, parameter) else { return false }
        case .mainActor(let holds):
            guard MainThread.isCurrent else {
                preconditionFailure(
                    "CommandWithResult.canExecute(parameter:): the predicate of this command is @MainActor; "
                        + "call canExecute on the main thread, or make the command with a nonisolated body")
            }
            // Safe: the guard above has just checked that this is the main thread (the main queue
            // off Darwin), where the main actor's code runs, and the predicate runs synchronously,
            // before anything else can run there. Anywhere else it has already trapped with a
            // message.
            guard MainActor.assumeIsolated({ holds(owner, parameter) }) else { return false }
        }
        return state.withLock { $0.admitsAnotherRun }
    }

    // MARK: - Events

    /// `true` when a run starts, `false` when the last one ends. A new subscriber first receives the
    /// current state.
    public var executingChanges: EventStream<Bool> {
        stream(\.executingEvents, .executing) { $0.isExecuting }
    }

    /// Fires whenever `canExecute` may have changed: the command started or stopped executing, the
    /// policy started or stopped admitting another run (for example at a concurrency limit), a run
    /// ended (its body may have changed what the predicate reads), ``raiseCanExecuteChanged()`` was
    /// called, or a trigger fired. Starting a run that changes none of these fires nothing.
    public var canExecuteChanges: EventStream<Void> {
        stream(\.canExecuteEvents, .canExecute, replay: nil)
    }

    /// Every error a run reports, in order.
    public var errors: EventStream<any Error> {
        stream(\.errorEvents, .errors, replay: nil)
    }

    /// How each run ended, in order.
    public var outcomes: EventStream<CommandOutcome> {
        stream(\.outcomeEvents, .outcomes, replay: nil)
    }

    /// The value of each run that succeeded, in the order the runs ended, published before the
    /// run's end: a `.synchronous` subscriber still sees the command executing. A run that fails
    /// or is cancelled publishes none. (`()` for each successful run of a command without results.)
    public var results: EventStream<Output> {
        stream(\.resultEvents, .results, replay: nil)
    }

    /// One of the command's event streams.
    private func stream<Value>(
        _ core: WritableKeyPath<CommandState<Parameter, Output>, EmitterCore<Value>> & Sendable,
        _ drain: CommandDrains, replay: (@Sendable (CommandState<Parameter, Output>) -> Value)?
    ) -> EventStream<Value> {
        EventStream { [self] handler in
            let subscriber = SubscriberState()
            let (id, mustDrain) = state.withLock { state in
                state[keyPath: core].add(handler, state: subscriber, replay: replay?(state))
            }
            if mustDrain { self.drain(drain) }
            return SubscriptionToken { [weak self] in
                subscriber.deactivate()
                // The removed subscriber, and the handler's captures, are released after unlocking.
                let removed = self?.state.withLock { $0[keyPath: core].remove(id: id) }
                withExtendedLifetime(removed) {}
            }
        }
    }

    /// Delivers what `drains` names: what a run produced (its value, error and outcome) before the
    /// change of state it caused, so that a value reaches `results` before the run's end shows.
    private func drain(_ drains: CommandDrains) {
        if drains.contains(.results) { drainDeliveries { state.withLock { $0.resultEvents.next() } } }
        if drains.contains(.errors) { drainDeliveries { state.withLock { $0.errorEvents.next() } } }
        if drains.contains(.outcomes) { drainDeliveries { state.withLock { $0.outcomeEvents.next() } } }
        if drains.contains(.executing) { drainDeliveries { state.withLock { $0.executingEvents.next() } } }
        if drains.contains(.canExecute) { drainDeliveries { state.withLock { $0.canExecuteEvents.next() } } }
    }

    // MARK: - Execution

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
    /// Cancelling the task that awaits `run` cancels the run (a queued one is dropped), and so
    /// does ``cancel()``: the call then returns ``CommandRunOutcome/cancelled`` once the body has
    /// ended, unless the body finished anyway. A task cancelled before the call starts no run and
    /// returns `.cancelled`.
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
    private func startNonisolated(_ parameter: Parameter, waiter: CommandWaiter<Output>?) -> CommandExecution {
        guard let owner = resolveOwner() else { return .refused(.ownerDeallocated) }
        if case .nonisolated(let holds) = predicate, !holds(owner, parameter) { return .refused(.cannotExecute) }
        return start(owner, parameter, waiter)
    }

    /// The check-and-start of a main-actor command, on the main actor.
    @MainActor
    private func startOnMainActor(_ parameter: Parameter, waiter: CommandWaiter<Output>?) -> CommandExecution {
        guard let owner = resolveOwner() else { return .refused(.ownerDeallocated) }
        if case .mainActor(let holds) = predicate, !holds(owner, parameter) { return .refused(.cannotExecute) }
        return start(owner, parameter, waiter)
    }

    /// The check-and-start of the policy, then the run, once the owner is resolved (and held by the
    /// caller) and the predicate holds. On the main actor for a main-actor command.
    private func start(_ owner: AnyOwner, _ parameter: Parameter, _ waiter: CommandWaiter<Output>?) -> CommandExecution
    {
        let admission = admit(parameter, waiter)
        switch admission {
        case .refused(let reason): return .refused(reason)
        case .queued: break
        case .sync: runSync(owner, parameter, waiter)
        case .run(let id, let handle): perform(id, handle, parameter)
        }
        // A task that was cancelled while its run was being registered: cancel the run now that
        // it can be found (a sync run has already ended).
        if let waiter, waiter.cancelRequested { cancel(waiter) }
        if case .queued = admission { return .queued }
        return .started
    }

    /// The atomic check-and-start: applies the policy under the lock, registers the run (or queues
    /// the parameter), publishes the change, and cancels what `.cancelRunning` replaces.
    private func admit(_ parameter: Parameter, _ waiter: CommandWaiter<Output>?) -> CommandAdmission<Output> {
        var toCancel: [CommandResultRun<Output>] = []
        var drains: CommandDrains = []
        var tooDeep = 0
        let isSync = body.isSync
        let thread = nestingThread
        let admission = state.withLock { state -> CommandAdmission<Output> in
            switch policy {
            case .ignoreWhileRunning, .concurrent:
                guard state.admitsAnotherRun else { return .refused(.busy) }
            case .cancelRunning:
                // A sync body cannot be cancelled, so `execute` from inside it nests one run deeper
                // each time, without bound: stop before the stack overflows without a message.
                // Counted per thread: runs of plain calls on other threads nest nothing, however
                // many there are.
                let depth = thread.map { state.syncDepths[$0, default: 0] } ?? 0
                if isSync && depth >= syncRunLimit {
                    tooDeep = depth + 1
                    return .refused(.busy)
                }
                if !state.running.isEmpty { toCancel = Array(state.running.values) }
            case .enqueue:
                if state.activeRuns > 0 {
                    // Already executing, and `.enqueue` admits any number: nothing shows.
                    state.queued.append(QueuedRun(parameter: parameter, waiter: waiter))
                    return .queued
                }
            }
            let before = state.visible
            let admission = state.start(sync: isSync, depthOn: thread) { makeRun($0, waiter) }
            state.publishChanges(since: before, into: &drains)
            return admission
        }
        if tooDeep > 0 {
            preconditionFailure(
                "CommandWithResult.execute(parameter:): sync run \(tooDeep) of this .cancelRunning command on this thread "
                    + "is out of range 1...\(syncRunLimit); is execute called from inside its own body? A sync body cannot be "
                    + "cancelled, so each such call nests one level deeper until the stack overflows")
        }
        if !drains.isEmpty { drain(drains) }
        for run in toCancel { run.cancel() }
        return admission
    }

    /// The calling thread, when this command counts its sync runs' nesting per thread (a sync
    /// `.cancelRunning` command, the only one whose body can call `execute` from inside without
    /// being refused or queued); `nil` otherwise.
    private var nestingThread: UInt? {
        guard body.isSync, case .cancelRunning = policy else { return nil }
        return CurrentThread.id
    }

    /// The handle of a new Dispatch or async run (or `useWork`), whose end reaches `finish`.
    private func makeRun(_ id: Int, _ waiter: CommandWaiter<Output>?) -> CommandResultRun<Output> {
        CommandResultRun(waiter: waiter) { [weak self] result in
            guard let self else {
                // Only a run nobody awaits can outlive its command: `run(parameter:)` holds the command.
                waiter?.resume(.cancelled)
                return
            }
            self.finish(id, result, waiter)
        }
    }

    /// Runs a sync body, then each parameter queued behind it that takes over, on this thread: the
    /// main thread for a main-actor body. A `nil` owner (it has gone) ends each run as cancelled
    /// without running the body.
    private func runSync(_ owner: AnyOwner?, _ first: Parameter, _ firstWaiter: CommandWaiter<Output>?) {
        var next = QueuedRun(parameter: first, waiter: firstWaiter)
        while true {
            let result: Result<Output, any Error>
            if let owner {
                do {
                    result = .success(try callSync(owner, next.parameter))
                } catch {
                    result = .failure(error)
                }
            } else {
                result = .failure(OwnerReleased())
            }
            guard endSync(result, next: &next) else { return }
        }
    }

    /// Calls the sync body. A main-actor body is only ever started on the main thread (by
    /// `startOnMainActor`, or by a run that ends there, see `finish`), which the assumption checks.
    private func callSync(_ owner: AnyOwner, _ parameter: Parameter) throws -> Output {
        switch body {
        case .sync(let work):
            return try work(owner, parameter)
        case .mainActorSync(let work):
            // Safe: a `.mainActorSync` body belongs to a main-actor command, whose sync runs start
            // only in `startOnMainActor` (isolated to the main actor) or, for a run queued under
            // `.enqueue`, in `finish` through `MainThread.run`, which runs it on the main actor; the
            // runs that take over in `runSync` stay on that thread. Were it ever called elsewhere,
            // assumeIsolated would trap rather than let the body race.
            return try MainActor.assumeIsolated { try work(owner, parameter) }
        case .dispatch, .mainActorAsync, .async:
            preconditionFailure("CommandWithResult.runSync: a body that is not sync ran as sync")
        }
    }

    /// Ends the sync run `current`. When a parameter queued under `.enqueue` takes over, stores it
    /// in `current` and returns `true`: the caller runs it, on this thread.
    private func endSync(_ result: Result<Output, any Error>, next current: inout QueuedRun<Parameter, Output>) -> Bool
    {
        let thread = nestingThread
        return end(result, waiter: current.waiter) { state in
            state.endSync(depthOn: thread)
            return false
        } takeOver: { _, queued in
            current = queued
        }
    }

    private func perform(_ id: Int, _ handle: CommandResultRun<Output>, _ parameter: Parameter) {
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
    private func finish(_ id: Int, _ result: Result<Output, any Error>, _ waiter: CommandWaiter<Output>?) {
        var next: (admission: CommandAdmission<Output>, queued: QueuedRun<Parameter, Output>)?
        _ = end(result, waiter: waiter) { state in
            state.running.removeValue(forKey: id)?.isCancelled ?? false
        } takeOver: { admission, queued in
            next = (admission, queued)
        }
        guard let next else { return }
        let queued = next.queued
        switch next.admission {
        case .sync:
            if case .mainActorSync = body {
                MainThread.run { self.runSync(self.resolveOwner(), queued.parameter, queued.waiter) }
            } else {
                runSync(resolveOwner(), queued.parameter, queued.waiter)
            }
        case .run(let nextID, let handle):
            perform(nextID, handle, queued.parameter)
        case .refused, .queued:
            break
        }
        if let waiter = queued.waiter, waiter.cancelRequested { cancel(waiter) }
    }

    /// Records the end of a run under the lock (`remove` unregisters it and says whether it was
    /// cancelled), and publishes its value, outcome and error; then resumes the `run(parameter:)` call
    /// awaiting it, if any. Under `.enqueue`, when it was the last run, starts the oldest queued
    /// parameter and hands it to `takeOver` (under the lock; it must only store it): the caller
    /// runs it once this returns `true`.
    private func end(
        _ result: Result<Output, any Error>, waiter: CommandWaiter<Output>?,
        remove: (inout CommandState<Parameter, Output>) -> Bool,
        takeOver: (CommandAdmission<Output>, QueuedRun<Parameter, Output>) -> Void
    ) -> Bool {
        var drains: CommandDrains = []
        if case .success(let value) = result {
            // A value is published before the run ends, so that its subscribers still see the
            // command executing. Its outcome is queued in the same critical section, so that runs
            // ending at once on several threads (`.concurrent`, `useWork`) reach `results` and
            // `outcomes` in one order; it is delivered only after the run has ended, below. (The
            // queue stays ours to drain until then: a run ending meanwhile only appends to it.)
            let queued = state.withLock { state in
                (state.resultEvents.enqueue(value), state.outcomeEvents.enqueue(.succeeded))
            }
            if queued.0 { drain(.results) }
            if queued.1 { drains.insert(.outcomes) }
        }
        var unobserved: (any Error)?
        var tookOver = false
        var runOutcome: CommandRunOutcome<Output> = .cancelled
        let isSync = body.isSync
        state.withLock { state in
            let before = state.visible
            let cancelled = remove(&state)
            // A failure's error and outcome are queued in this one critical section.
            switch result {
            case .success(let value):
                runOutcome = .succeeded(value)
            case .failure(let error) where cancelled || error is CancellationError || error is OwnerReleased:
                if state.outcomeEvents.enqueue(.cancelled) { drains.insert(.outcomes) }
            case .failure(let error):
                runOutcome = .failed(error)
                if state.errorEvents.subscribers.isEmpty { unobserved = error }
                if state.errorEvents.enqueue(error) { drains.insert(.errors) }
                if state.outcomeEvents.enqueue(.failed(error)) { drains.insert(.outcomes) }
            }
            if !state.queued.isEmpty, state.activeRuns == 0 {
                // The next queued run takes over: the command stays executing, with no flicker.
                let queued = state.queued.removeFirst()
                takeOver(state.start(sync: isSync) { makeRun($0, queued.waiter) }, queued)
                tookOver = true
            }
            state.publishChanges(since: before, runEnded: true, into: &drains)
        }
        if let unobserved {
            Diagnostics.report(
                Diagnostic(
                    kind: .unobservedError, source: "CommandWithResult<\(Parameter.self), \(Output.self)>",
                    message: "a run failed and nobody observes `errors`: \(unobserved)"))
        }
        if !drains.isEmpty { drain(drains) }
        waiter?.resume(runOutcome)
        return tookOver
    }

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
        var drains: CommandDrains = []
        // The dropped parameters are released after unlocking.
        let (runs, dropped) = state.withLock { state -> ([CommandResultRun<Output>], [QueuedRun<Parameter, Output>]) in
            let before = state.visible
            let dropped = state.queued
            state.queued = []
            state.publishChanges(since: before, into: &drains)
            return (state.running.isEmpty ? [] : Array(state.running.values), dropped)
        }
        if !drains.isEmpty { drain(drains) }
        for queued in dropped { queued.waiter?.resume(.cancelled) }
        for run in runs { run.cancel() }
    }

    /// Cancels the one run `waiter` awaits, when the task awaiting it is cancelled: drops it from
    /// the queue, or cancels it if it runs. A run not registered yet is cancelled by `start` once
    /// it is, since the flag is set first.
    private func cancel(_ waiter: CommandWaiter<Output>) {
        waiter.requestCancel()
        var drains: CommandDrains = []
        let (run, dropped) = state.withLock { state -> (CommandResultRun<Output>?, QueuedRun<Parameter, Output>?) in
            if let index = state.queued.firstIndex(where: { $0.waiter === waiter }) {
                let before = state.visible
                let dropped = state.queued.remove(at: index)
                state.publishChanges(since: before, into: &drains)
                return (nil, dropped)
            }
            return (state.running.values.first { $0.waiter === waiter }, nil)
        }
        if !drains.isEmpty { drain(drains) }
        dropped?.waiter?.resume(.cancelled)
        run?.cancel()
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
        var drains: CommandDrains = []
        let admission = state.withLock { state in
            let before = state.visible
            let admission = state.start(sync: false) { makeRun($0, nil) }
            state.publishChanges(since: before, into: &drains)
            return admission
        }
        if !drains.isEmpty { drain(drains) }
        if case .run(_, let handle) = admission { work(handle) }
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

/// How deep the sync bodies of one `.cancelRunning` command may nest on one thread: the depth at
/// which `execute`, called from inside its own sync body, traps instead of overflowing the stack.
/// Counted per thread (runs on other threads do not nest), so the limit is far above any real
/// nesting, and far below the depth that would exhaust a 512 KiB secondary thread's stack.
let syncRunLimit = 64

/// Thrown into a run whose owner was deallocated before the body could start; reported as
/// `.cancelled`.
struct OwnerReleased: Error {}

/// The owner passed to the bodies of commands made without one.
final class OwnerlessPlaceholder: Sendable {
    static let shared = OwnerlessPlaceholder()
}
