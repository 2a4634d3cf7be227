import Dispatch

/// A command: a piece of work a view can trigger, with its enabled state, executing state, errors
/// and cancellation, taking a typed parameter.
///
/// ```swift
/// final class LoginPresenter {
///     private(set) lazy var login = CommandWithParameter<Credentials>(
///         delegate: self,
///         handler: { owner, credentials in try await owner.api.login(credentials) },
///         canExecute: { owner, credentials in credentials.isComplete })
/// }
///
/// if presenter.login.canExecute(parameter: credentials) {
///     presenter.login.execute(parameter: credentials)
/// }
/// ```
///
/// # Contract
/// - `canExecute(parameter:)` is the predicate, and not executing (unless the ``CommandPolicy``
///   allows more runs), and the owner still alive.
/// - Check-and-start is atomic: two `execute` calls racing from two threads start one run under
///   `.ignoreWhileRunning`.
/// - ``isExecuting`` becomes `true` before the body starts, and `false` only when the work has ended:
///   success, failure or cancel.
/// - Every error reaches ``errors``; when nobody subscribes to it, ``Diagnostics`` reports it. No
///   error is lost and none crashes.
/// - State changes are published through emitters whose subscribers run on the main queue unless
///   they choose another ``Delivery``.
/// - The owner (`delegate:`) is held weakly; a command whose owner has gone cannot execute.
///
/// # Bodies
/// - **Sync**: runs on the thread that calls `execute`; it may throw.
/// - **Dispatch**: runs on the queue you pass, with a ``CommandRun`` to check for cancellation and
///   to call when done.
/// - **Async**: runs in a `Task`; `cancel()` cancels the task.
///
/// # Thread Safety
/// Every method may be called from any thread. The command's state is behind a lock (an
/// unobserved sync run starts and ends with an atomic counter instead); bodies, predicates and
/// subscribers run outside it.
public final class CommandWithParameter<Parameter: Sendable>: CommandType, @unchecked Sendable {
    // @unchecked: mutable state lives in `state` (a LockedState) and `syncRuns` (atomic); the
    // stored closures are only called as documented (sync bodies on the caller's thread, Dispatch
    // bodies on their queue, async bodies in their task).

    /// How the work runs. Owners are resolved once per run and passed in; ownerless commands
    /// pass a placeholder object.
    enum Body {
        case sync((AnyObject, Parameter) throws -> Void)
        case dispatch(any WorkScheduler, (AnyObject, Parameter, CommandRun) throws -> Void)
        case async(TaskPriority?, (AnyObject, Parameter) async throws -> Void)
    }

    private let body: Body
    /// The sync body, kept apart from `body` so that the hot path does not unpack an enum (a
    /// placeholder that is never called when the body is not sync).
    private let syncBody: (AnyObject, Parameter) throws -> Void
    /// Whether the body is sync.
    private let isSync: Bool
    /// The lock-free count of sync runs, for commands whose `execute` takes the sync fast path: a
    /// sync body under a policy that neither queues nor cancels (`.ignoreWhileRunning`,
    /// `.concurrent`), so that a run has nothing to hand over. Unobserved, such a run is one
    /// compare-and-swap to start and one to end; observed, one critical section each. `nil` for
    /// other commands.
    private let syncRuns: SyncRunCounter?
    /// How many runs the policy admits at once (`Int.max` when it does not limit them).
    private let runLimit: Int
    private let predicate: (AnyObject, Parameter) -> Bool
    /// The owner, strongly, for the length of one call; `nil` once it is gone. Ownerless commands
    /// return ``OwnerlessPlaceholder/shared``.
    private let resolveOwner: () -> AnyObject?
    /// The owner passed to the bodies of an ownerless command, or `nil` when the command has an
    /// owner: `execute` passes it without resolving or retaining anything (it is
    /// ``OwnerlessPlaceholder/shared``, which lives as long as the process).
    private let placeholder: Unmanaged<OwnerlessPlaceholder>?
    private let state: LockedState<CommandState>
    /// The parameters waiting under `.enqueue`, oldest first. Guarded by `state`'s lock: read and
    /// written only inside `state.withLock`, with `CommandState.queuedCount` kept equal to its count.
    private var queued: [Parameter] = []
    private let triggers = TokenBag()

    /// What happens to `execute` while a run is going on.
    public let policy: CommandPolicy

    init(
        body: Body, policy: CommandPolicy,
        predicate: @escaping (AnyObject, Parameter) -> Bool, resolveOwner: (() -> AnyObject?)?
    ) {
        let runLimit: Int
        switch policy {
        case .ignoreWhileRunning:
            runLimit = 1
        case .cancelRunning, .enqueue:
            runLimit = .max
        case .concurrent(let limit):
            precondition(
                limit >= 1, "CommandWithParameter.init(policy:): concurrent limit \(limit) is out of range 1...")
            runLimit = limit
        }
        self.body = body
        if case .sync(let work) = body {
            syncBody = work
            isSync = true
        } else {
            syncBody = { _, _ in preconditionFailure("CommandWithParameter: a body that is not sync ran as sync") }
            isSync = false
        }
        switch policy {
        case .ignoreWhileRunning, .concurrent: syncRuns = isSync ? SyncRunCounter.allocate() : nil
        case .cancelRunning, .enqueue: syncRuns = nil
        }
        self.runLimit = runLimit
        self.policy = policy
        self.predicate = predicate
        if let resolveOwner {
            self.resolveOwner = resolveOwner
            placeholder = nil
        } else {
            let placeholder = OwnerlessPlaceholder.shared
            self.resolveOwner = { placeholder }
            self.placeholder = Unmanaged.passUnretained(placeholder)
        }
        state = LockedState(CommandState(runLimit: runLimit, syncRuns: syncRuns))
    }

    deinit {
        syncRuns?.deallocate()
    }

    // MARK: - State

    /// Whether a run is going on or queued.
    public var isExecuting: Bool {
        if let count = syncRuns?.unlockedCount { return count > 0 }
        return state.withLock { $0.isExecuting }
    }

    /// Whether `execute(parameter:)` would start a run now: the owner is alive, the predicate
    /// holds, and the policy allows another run.
    ///
    /// - Parameter parameter: The value the run would get.
    public func canExecute(parameter: Parameter) -> Bool {
        guard let owner = resolveOwner(), predicate(owner, parameter) else { return false }
        if let count = syncRuns?.unlockedCount { return count < runLimit }
        return state.withLock { $0.admitsAnotherRun }
    }

    // MARK: - Events

    /// `true` when a run starts, `false` when the last one ends. A new subscriber first receives the
    /// current state.
    public var executingChanges: EventStream<Bool> {
        stream(\.executingEvents, .executing, locksRuns: true) { $0.isExecuting }
    }

    /// Fires whenever `canExecute` may have changed: the command started or stopped executing, the
    /// policy started or stopped admitting another run (for example at a concurrency limit), a run
    /// ended (its body may have changed what the predicate reads), ``raiseCanExecuteChanged()`` was
    /// called, or a trigger fired. Starting a run that changes none of these fires nothing.
    public var canExecuteChanges: EventStream<Void> {
        stream(\.canExecuteEvents, .canExecute, locksRuns: true, replay: nil)
    }

    /// Every error a run reports, in order.
    public var errors: EventStream<any Error> {
        stream(\.errorEvents, .errors, locksRuns: false, replay: nil)
    }

    /// How each run ended, in order.
    public var outcomes: EventStream<CommandOutcome> {
        stream(\.outcomeEvents, .outcomes, locksRuns: true, replay: nil)
    }

    /// One of the command's event streams. `locksRuns`: whether what it publishes depends on
    /// every run's start or end, so that, while it has subscribers, sync runs take the lock.
    private func stream<Value>(
        _ core: WritableKeyPath<CommandState, EmitterCore<Value>> & Sendable, _ drain: CommandDrains,
        locksRuns: Bool, replay: (@Sendable (CommandState) -> Value)?
    ) -> EventStream<Value> {
        EventStream { [self] delivery, handler in
            let subscriber = SubscriberState()
            let (id, mustDrain) = state.withLock { state in
                if locksRuns { state.lockRuns() }
                return state[keyPath: core].add(
                    delivery: delivery, handler: handler, state: subscriber, replay: replay?(state))
            }
            if mustDrain { self.drain(drain) }
            return SubscriptionToken { [weak self] in
                subscriber.deactivate()
                self?.state.withLock { state in
                    state[keyPath: core].remove(id: id)
                    state.unlockRunsIfIdle()
                }
            }
        }
    }

    private func drain(_ drains: CommandDrains) {
        if drains.contains(.executing) { drainDeliveries { state.withLock { $0.executingEvents.next() } } }
        if drains.contains(.canExecute) { drainDeliveries { state.withLock { $0.canExecuteEvents.next() } } }
        if drains.contains(.errors) { drainDeliveries { state.withLock { $0.errorEvents.next() } } }
        if drains.contains(.outcomes) { drainDeliveries { state.withLock { $0.outcomeEvents.next() } } }
    }

    // MARK: - Execution

    /// Starts a run if the command can execute; atomically with respect to other `execute` calls.
    ///
    /// A sync body runs on the calling thread before `execute` returns. Under `.enqueue`, a
    /// parameter queued behind a run starts when that run ends: a sync body then runs on the thread
    /// that ended it.
    ///
    /// - Parameter parameter: The value the run gets.
    /// - Returns: Whether a run started, or, under `.enqueue`, was queued.
    /// - Complexity: O(1) under every policy but `.cancelRunning`, which is O(*r*) in the *r* runs
    ///   it cancels; plus the body.
    @discardableResult
    public func execute(parameter: Parameter) -> Bool {
        if let placeholder {
            return placeholder._withUnsafeGuaranteedRef { execute(owner: $0, parameter) }
        }
        guard let owner = resolveOwner() else { return false }
        return execute(owner: owner, parameter)
    }

    /// `execute(parameter:)` once the owner is resolved (and held by the caller).
    private func execute(owner: AnyObject, _ parameter: Parameter) -> Bool {
        guard predicate(owner, parameter) else { return false }
        if let syncRuns { return executeFastSync(syncRuns, owner, parameter) }
        switch admit(parameter) {
        case .refused: return false
        case .queued: return true
        case .sync: runSync(owner, parameter)
        case .run(let id, let handle): perform(id, handle, parameter)
        }
        return true
    }

    /// A sync run under `.ignoreWhileRunning` or `.concurrent`: the check-and-start, the body on
    /// this thread with the owner held, and the end. Unobserved, the start and the end are each one
    /// compare-and-swap on `syncRuns`; otherwise each is a critical section that publishes the
    /// change. A body that throws ends through ``end(_:remove:takeOver:)``, which reports the error.
    private func executeFastSync(_ syncRuns: SyncRunCounter, _ owner: AnyObject, _ parameter: Parameter) -> Bool {
        let counted: Bool
        switch syncRuns.tryStart(limit: runLimit) {
        case .started:
            counted = true
        case .refused:
            return false
        case .locked:
            guard let drains = state.withLock({ $0.startSyncRun() }) else { return false }
            if !drains.isEmpty { drain(drains) }
            counted = false
        }
        do {
            try syncBody(owner, parameter)
        } catch {
            var unused = parameter
            _ = endSync(.failure(error), counted: counted, next: &unused)
            return true
        }
        if counted, syncRuns.tryEnd() { return true }
        let ended = state.withLock { $0.endSyncRunSucceeded(counted: counted) }
        if !ended.isEmpty { drain(ended) }
        return true
    }

    /// The atomic check-and-start: applies the policy under the lock, registers the run (or queues
    /// the parameter), publishes the change, and cancels what `.cancelRunning` replaces.
    private func admit(_ parameter: Parameter) -> CommandAdmission {
        var toCancel: [CommandRun] = []
        var drains: CommandDrains = []
        let isSync = self.isSync
        let admission = state.withLock { state -> CommandAdmission in
            switch policy {
            case .ignoreWhileRunning, .concurrent:
                guard state.admitsAnotherRun else { return .refused }
            case .cancelRunning:
                if !state.running.isEmpty { toCancel = Array(state.running.values) }
            case .enqueue:
                if state.activeRuns > 0 {
                    queued.append(parameter)
                    state.queuedCount += 1
                    return .queued
                }
            }
            let before = state.visible
            let admission = state.start(sync: isSync) { makeRun($0) }
            state.publishChanges(since: before, into: &drains)
            return admission
        }
        if !drains.isEmpty { drain(drains) }
        for run in toCancel { run.cancel() }
        return admission
    }

    /// The handle of a new Dispatch or async run (or `useWork`), whose end reaches `finish`.
    private func makeRun(_ id: Int) -> CommandRun {
        CommandRun { [weak self] result in self?.finish(id, result) }
    }

    /// Ends a sync run (`counted`: one started without the lock). When a parameter queued under
    /// `.enqueue` takes over, stores it in `next` and returns `true`: the caller runs it, on this
    /// thread.
    private func endSync(_ result: Result<Void, any Error>, counted: Bool = false, next: inout Parameter) -> Bool {
        end(result) { state in
            state.endSyncRun(counted: counted)
            return false
        } takeOver: { _, parameter in
            next = parameter
        }
    }

    /// Runs a sync body on this thread, for a parameter that was queued behind other work: one lock
    /// to end each run. A `nil` owner (it has gone) ends each run as cancelled without running the
    /// body.
    private func runSync(_ owner: AnyObject?, _ first: Parameter) {
        guard isSync else { return }
        let work = syncBody
        var parameter = first
        while true {
            let result: Result<Void, any Error>
            if let owner {
                do {
                    try work(owner, parameter)
                    result = .success(())
                } catch {
                    result = .failure(error)
                }
            } else {
                result = .failure(OwnerReleased())
            }
            guard endSync(result, next: &parameter) else { return }
        }
    }

    private func perform(_ id: Int, _ handle: CommandRun, _ parameter: Parameter) {
        switch body {
        case .sync:
            preconditionFailure("CommandWithParameter.perform: run \(id) has a sync body, which never runs as a handle")
        case .dispatch(let queue, let work):
            let job = UncheckedSendable((work, parameter, resolveOwner))
            queue.schedule {
                let (work, parameter, resolveOwner) = job.value
                if handle.isCancelled { return handle.fail(CancellationError()) }
                guard let owner = resolveOwner() else { return handle.fail(OwnerReleased()) }
                do {
                    try work(owner, parameter, handle)
                } catch {
                    handle.fail(error)
                }
            }
        case .async(let priority, let work):
            let job = UncheckedSendable((work, parameter, resolveOwner))
            let task = Task(priority: priority) {
                let (work, parameter, resolveOwner) = job.value
                guard let owner = resolveOwner() else { return handle.fail(OwnerReleased()) }
                do {
                    try await work(owner, parameter)
                    handle.succeed()
                } catch {
                    handle.fail(error)
                }
            }
            // Atomic with `cancel()` under the run's lock: a cancel that saw this run either finds
            // the task or has left the flag that cancels it here.
            handle.attach(task)
        }
    }

    /// Ends a Dispatch or async run, or work bound with `useWork`; called once by its ``CommandRun``.
    /// Runs the parameter queued behind it, if one takes over.
    private func finish(_ id: Int, _ result: Result<Void, any Error>) {
        var next: (admission: CommandAdmission, parameter: Parameter)?
        _ = end(result) { state in
            state.running.removeValue(forKey: id)?.isCancelled ?? false
        } takeOver: { admission, parameter in
            next = (admission, parameter)
        }
        guard let next else { return }
        switch next.admission {
        case .sync: runSync(resolveOwner(), next.parameter)
        case .run(let nextID, let handle): perform(nextID, handle, next.parameter)
        case .refused, .queued: break
        }
    }

    /// Records the end of a run under the lock (`remove` unregisters it and says whether it was
    /// cancelled), and publishes its outcome and error. Under `.enqueue`, when it was the last run,
    /// starts the oldest queued parameter and hands it to `takeOver` (under the lock; it must only
    /// store it): the caller runs it once this returns `true`.
    private func end(
        _ result: Result<Void, any Error>, remove: (inout CommandState) -> Bool,
        takeOver: (CommandAdmission, Parameter) -> Void
    ) -> Bool {
        var drains: CommandDrains = []
        var unobserved: (any Error)?
        var tookOver = false
        let isSync = self.isSync
        state.withLock { state in
            let before = state.visible
            let cancelled = remove(&state)
            let outcome: CommandOutcome
            switch result {
            case .success:
                outcome = .succeeded
            case .failure(let error) where cancelled || error is CancellationError || error is OwnerReleased:
                outcome = .cancelled
            case .failure(let error):
                outcome = .failed(error)
                if state.errorEvents.subscribers.isEmpty { unobserved = error }
                if state.errorEvents.enqueue(error) { drains.insert(.errors) }
            }
            // Unobserved, an outcome would only be counted; skip it on the hot path.
            if !state.outcomeEvents.subscribers.isEmpty, state.outcomeEvents.enqueue(outcome) {
                drains.insert(.outcomes)
            }
            if state.queuedCount > 0, state.activeRuns == 0 {
                // The next queued run takes over: the command stays executing, with no flicker.
                let parameter = queued.removeFirst()
                state.queuedCount -= 1
                takeOver(state.start(sync: isSync) { makeRun($0) }, parameter)
                tookOver = true
            }
            state.publishChanges(since: before, runEnded: true, into: &drains)
            state.unlockRunsIfIdle()
        }
        if let unobserved {
            Diagnostics.report(
                Diagnostic(
                    kind: .unobservedError, source: "CommandWithParameter<\(Parameter.self)>",
                    message: "a run failed and nobody observes `errors`: \(unobserved)"))
        }
        if !drains.isEmpty { drain(drains) }
        return tookOver
    }

    /// Cancels every running and queued run.
    ///
    /// Dispatch bodies see ``CommandRun/isCancelled``; async bodies get task cancellation; a sync
    /// body cannot be interrupted. The command stays executing until each body has really ended;
    /// queued parameters are dropped. A command with nothing running publishes nothing, and a run
    /// that has already ended is not marked cancelled.
    ///
    /// - Complexity: O(*r* + *q*) in the *r* running and *q* queued runs.
    public func cancel() {
        var drains: CommandDrains = []
        let runs = state.withLock { state -> [CommandRun] in
            let before = state.visible
            if state.queuedCount > 0 {
                queued.removeAll()
                state.queuedCount = 0
            }
            state.publishChanges(since: before, into: &drains)
            return state.running.isEmpty ? [] : Array(state.running.values)
        }
        if !drains.isEmpty { drain(drains) }
        for run in runs { run.cancel() }
    }

    /// Binds work started elsewhere (a completion-based call) to the command's executing state,
    /// as STT's `useWork` does: the command is executing until `done` is called.
    ///
    /// ```swift
    /// login.useWork { done in
    ///     api.login(credentials) { result in done(result.map { _ in () }) }
    /// }
    /// ```
    ///
    /// The work is not subject to the predicate or the policy, since it has already started; but
    /// it counts as a run, so under `.ignoreWhileRunning` `execute` refuses while it goes on, and
    /// under `.enqueue` a parameter queued behind it starts when it ends. Its errors and outcome
    /// are published like a run's, and ``cancel()`` marks it cancelled.
    ///
    /// - Parameter work: Starts the work and calls `done` once when it ends.
    public func useWork(_ work: (_ done: CommandRun) -> Void) {
        var drains: CommandDrains = []
        let admission = state.withLock { state in
            state.lockRuns()
            let before = state.visible
            let admission = state.start(sync: false) { makeRun($0) }
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

/// Thrown into a run whose owner was deallocated before the body could start; reported as
/// `.cancelled`.
struct OwnerReleased: Error {}

/// The owner passed to the bodies of commands made without one.
final class OwnerlessPlaceholder: Sendable {
    static let shared = OwnerlessPlaceholder()
}

/// Carries a value across a `@Sendable` boundary that Ripple has checked by hand.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
