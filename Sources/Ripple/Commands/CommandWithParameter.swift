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
/// Every method may be called from any thread. The command's state is behind a lock; bodies,
/// predicates and subscribers run outside it.
public final class CommandWithParameter<Parameter: Sendable>: CommandType, @unchecked Sendable {
    // @unchecked: mutable state lives in `state` (a LockedState); the stored closures are only
    // called as documented (sync bodies on the caller's thread, Dispatch bodies on their queue,
    // async bodies in their task).

    /// How the work runs. Owners are resolved once per run and passed in; ownerless commands
    /// pass a placeholder object.
    enum Body {
        case sync((AnyObject, Parameter) throws -> Void)
        case dispatch(any WorkScheduler, (AnyObject, Parameter, CommandRun) throws -> Void)
        case async(TaskPriority?, (AnyObject, Parameter) async throws -> Void)
    }

    /// Which event queues need draining after the lock is released.
    struct Drains: OptionSet {
        let rawValue: UInt8
        static var executing: Drains { Drains(rawValue: 1) }
        static var canExecute: Drains { Drains(rawValue: 2) }
        static var errors: Drains { Drains(rawValue: 4) }
        static var outcomes: Drains { Drains(rawValue: 8) }
    }

    /// What subscribers can see of the state, apart from the predicate: compared before and after
    /// every change, so that each change that shows publishes its events, and no other does.
    struct Visible: Equatable {
        var isExecuting: Bool
        var admitsAnotherRun: Bool
    }

    struct State {
        /// Dispatch and async runs, and work bound with `useWork`, by run id.
        var running: [Int: CommandRun] = [:]
        var syncRunning = 0
        var nextRunID = 0
        var queued: [Parameter] = []
        /// How many runs may go on at once before the policy stops admitting another:
        /// 1 under `.ignoreWhileRunning`, `limit` under `.concurrent`, unbounded otherwise.
        let runLimit: Int
        // The command's events are queued under the command's own lock, so that racing starts and
        // ends publish in the order they happened, and a run costs one lock to start and one to end.
        var executingEvents = EmitterCore<Bool>()
        var canExecuteEvents = EmitterCore<Void>()
        var errorEvents = EmitterCore<any Error>()
        var outcomeEvents = EmitterCore<CommandOutcome>()

        init(runLimit: Int) { self.runLimit = runLimit }

        var activeRuns: Int { running.count + syncRunning }
        var isExecuting: Bool { activeRuns > 0 || !queued.isEmpty }
        /// Whether the policy lets `execute` start (or queue) another run now.
        var admitsAnotherRun: Bool { activeRuns < runLimit }
        var visible: Visible { Visible(isExecuting: isExecuting, admitsAnotherRun: admitsAnotherRun) }

        /// Queues the events for whatever changed since `before`: `executingChanges` when the
        /// executing state flipped; `canExecuteChanges` when it or the policy's admission flipped,
        /// or when `runEnded` (a body that ran may have changed what the predicate reads).
        mutating func publishChanges(since before: Visible, runEnded: Bool = false, into drains: inout Drains) {
            let now = visible
            if now.isExecuting != before.isExecuting, executingEvents.enqueue(now.isExecuting) {
                drains.insert(.executing)
            }
            if runEnded || now != before, canExecuteEvents.enqueue(()) { drains.insert(.canExecute) }
        }
    }

    /// What `execute` (or the end of a run, under `.enqueue`) found it must do once unlocked.
    enum Admission {
        case refused
        case queued
        case sync
        case run(Int, CommandRun)
    }

    /// A sync body fused with its owner and predicate, for `execute`'s hot path: it resolves the
    /// owner once, checks the predicate, asks the command to admit the run (under its lock), then
    /// runs the body with the owner held, and again for each parameter the command hands back when
    /// the run ends (under `.enqueue`). Returns what `execute` returns.
    ///
    /// The command comes in as an argument, not as closures: closures passed through this
    /// generic-abstracted type would need reabstraction thunks, allocated on every call.
    typealias SyncInvoker = (_ command: CommandWithParameter, _ parameter: Parameter) -> Bool

    private let body: Body
    /// The sync body, if any, kept apart from `body` so that the hot path does not unpack an enum.
    private let syncBody: ((AnyObject, Parameter) throws -> Void)?
    /// Whether `execute` takes the fused sync path (`syncInvoker`); kept apart from the closure so
    /// that the hot path reads a `let` closure without copying it out of an optional.
    private let hasSyncInvoker: Bool
    private let syncInvoker: SyncInvoker
    private let predicate: (AnyObject, Parameter) -> Bool
    /// The owner, strongly, for the length of one call; `nil` once it is gone.
    private let resolveOwner: () -> AnyObject?
    private let state: LockedState<State>
    private let triggers = TokenBag()

    /// What happens to `execute` while a run is going on.
    public let policy: CommandPolicy

    init(
        body: Body, policy: CommandPolicy,
        predicate: @escaping (AnyObject, Parameter) -> Bool, resolveOwner: @escaping () -> AnyObject?,
        syncInvoker: SyncInvoker? = nil
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
        if case .sync(let work) = body { syncBody = work } else { syncBody = nil }
        hasSyncInvoker = syncInvoker != nil
        self.syncInvoker = syncInvoker ?? { _, _ in false }
        self.policy = policy
        self.predicate = predicate
        self.resolveOwner = resolveOwner
        state = LockedState(State(runLimit: runLimit))
    }

    // MARK: - State

    /// Whether a run is going on or queued.
    public var isExecuting: Bool {
        state.withLock { $0.isExecuting }
    }

    /// Whether `execute(parameter:)` would start a run now: the owner is alive, the predicate
    /// holds, and the policy allows another run.
    ///
    /// - Parameter parameter: The value the run would get.
    public func canExecute(parameter: Parameter) -> Bool {
        guard let owner = resolveOwner(), predicate(owner, parameter) else { return false }
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

    private func stream<Value>(
        _ core: WritableKeyPath<State, EmitterCore<Value>> & Sendable, _ drain: Drains,
        replay: (@Sendable (State) -> Value)?
    ) -> EventStream<Value> {
        EventStream { [self] delivery, handler in
            let subscriber = SubscriberState()
            let (id, mustDrain) = state.withLock { state in
                state[keyPath: core].add(
                    delivery: delivery, handler: handler, state: subscriber, replay: replay?(state))
            }
            if mustDrain { self.drain(drain) }
            return SubscriptionToken { [weak self] in
                subscriber.deactivate()
                self?.state.withLock { $0[keyPath: core].remove(id: id) }
            }
        }
    }

    private func drain(_ drains: Drains) {
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
    @discardableResult
    public func execute(parameter: Parameter) -> Bool {
        if hasSyncInvoker {
            return syncInvoker(self, parameter)
        }
        guard let owner = resolveOwner(), predicate(owner, parameter) else { return false }
        switch admit(parameter) {
        case .refused: return false
        case .queued: return true
        case .sync: runSync(owner, parameter)
        case .run(let id, let handle): perform(id, handle, parameter)
        }
        return true
    }

    /// The atomic check-and-start: applies the policy under the lock, registers the run (or queues
    /// the parameter), publishes the change, and cancels what `.cancelRunning` replaces.
    fileprivate func admit(_ parameter: Parameter) -> Admission {
        var toCancel: [CommandRun] = []
        var drains: Drains = []
        let isSync = syncBody != nil
        let admission = state.withLock { state -> Admission in
            switch policy {
            case .ignoreWhileRunning, .concurrent:
                guard state.admitsAnotherRun else { return .refused }
            case .cancelRunning:
                if !state.running.isEmpty { toCancel = Array(state.running.values) }
            case .enqueue:
                if state.activeRuns > 0 {
                    state.queued.append(parameter)
                    return .queued
                }
            }
            let before = state.visible
            let admission = start(in: &state, sync: isSync)
            state.publishChanges(since: before, into: &drains)
            return admission
        }
        if !drains.isEmpty { drain(drains) }
        for run in toCancel { run.cancel() }
        return admission
    }

    /// Ends a sync run; returns the next queued parameter, which the caller runs on this thread.
    fileprivate func endSync(_ result: Result<Void, any Error>) -> Parameter? {
        end(result) { state in
            state.syncRunning -= 1
            return false
        }?.parameter
    }

    /// Registers a new run; called under the lock. The caller publishes the change.
    private func start(in state: inout State, sync: Bool) -> Admission {
        if sync {
            state.syncRunning += 1
            return .sync
        }
        let id = state.nextRunID
        state.nextRunID += 1
        let handle = CommandRun { [weak self] result in self?.finish(id, result) }
        state.running[id] = handle
        return .run(id, handle)
    }

    /// Runs a run that was admitted under the lock: the one `execute` started, or the next queued
    /// one when a run ended.
    private func launch(_ admission: Admission, _ parameter: Parameter, owner: AnyObject?) {
        switch admission {
        case .refused, .queued: return
        case .sync: runSync(owner, parameter)
        case .run(let id, let handle): perform(id, handle, parameter)
        }
    }

    /// Runs a sync body on this thread: no run object, one lock to start and one to end. Under
    /// `.enqueue`, goes on with the parameters queued meanwhile. A `nil` owner (it has gone) ends
    /// each run as cancelled without running the body.
    private func runSync(_ owner: AnyObject?, _ first: Parameter) {
        guard let work = syncBody else { return }
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
            guard let next = endSync(result) else { return }
            parameter = next
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
    private func finish(_ id: Int, _ result: Result<Void, any Error>) {
        let next = end(result) { state in
            state.running.removeValue(forKey: id)?.isCancelled ?? false
        }
        if let next { launch(next.admission, next.parameter, owner: syncBody == nil ? nil : resolveOwner()) }
    }

    /// Records the end of a run under the lock (`remove` unregisters it and says whether it was
    /// cancelled), publishes its outcome and error, and under `.enqueue` starts the next queued
    /// parameter, which the caller must run.
    private func end(
        _ result: Result<Void, any Error>, remove: (inout State) -> Bool
    ) -> (admission: Admission, parameter: Parameter)? {
        var drains: Drains = []
        var unobserved: (any Error)?
        var next: (admission: Admission, parameter: Parameter)?
        let isSync = syncBody != nil
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
            if state.outcomeEvents.enqueue(outcome) { drains.insert(.outcomes) }
            if case .enqueue = policy, state.activeRuns == 0, !state.queued.isEmpty {
                // The next queued run takes over: the command stays executing, with no flicker.
                let parameter = state.queued.removeFirst()
                next = (start(in: &state, sync: isSync), parameter)
            }
            state.publishChanges(since: before, runEnded: true, into: &drains)
        }
        if let unobserved {
            Diagnostics.report(
                Diagnostic(
                    kind: .unobservedError, source: "CommandWithParameter<\(Parameter.self)>",
                    message: "a run failed and nobody observes `errors`: \(unobserved)"))
        }
        if !drains.isEmpty { drain(drains) }
        return next
    }

    /// Cancels every running and queued run.
    ///
    /// Dispatch bodies see ``CommandRun/isCancelled``; async bodies get task cancellation; a sync
    /// body cannot be interrupted. The command stays executing until each body has really ended;
    /// queued parameters are dropped. A command with nothing running publishes nothing, and a run
    /// that has already ended is not marked cancelled.
    public func cancel() {
        var drains: Drains = []
        let runs = state.withLock { state -> [CommandRun] in
            let before = state.visible
            state.queued.removeAll()
            state.publishChanges(since: before, into: &drains)
            return Array(state.running.values)
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
        var drains: Drains = []
        let admission = state.withLock { state in
            let before = state.visible
            let admission = start(in: &state, sync: false)
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

extension CommandWithParameter {
    /// Builds the ``SyncInvoker`` of a sync body.
    ///
    /// Not generic over the owner's type: the closure it returns is then compiled for the
    /// parameter's type only, with no generic metadata to look up on each call. The owner comes in
    /// as `AnyObject`, and the closures passed in cast it back with `unsafeDowncast`.
    ///
    /// - Parameters:
    ///   - resolve: Returns the owner, strongly, or `nil` once it has gone.
    ///   - predicate: The predicate.
    ///   - body: The sync body.
    static func syncInvoker(
        resolve: @escaping () -> AnyObject?, predicate: @escaping (AnyObject, Parameter) -> Bool,
        body: @escaping (AnyObject, Parameter) throws -> Void
    ) -> SyncInvoker {
        { command, first in
            guard let owner = resolve(), predicate(owner, first) else { return false }
            switch command.admit(first) {
            case .refused: return false
            case .queued: return true
            case .sync, .run: break
            }
            var parameter = first
            while true {
                let result: Result<Void, any Error>
                do {
                    try body(owner, parameter)
                    result = .success(())
                } catch {
                    result = .failure(error)
                }
                guard let next = command.endSync(result) else { return true }
                parameter = next
            }
        }
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
