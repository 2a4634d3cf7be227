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

    /// A Dispatch or async run in progress.
    struct Run {
        let handle: CommandRun
        var task: Task<Void, Never>?
    }

    /// Which event queues need draining after the lock is released.
    struct Drains: OptionSet {
        let rawValue: UInt8
        static var executing: Drains { Drains(rawValue: 1) }
        static var canExecute: Drains { Drains(rawValue: 2) }
        static var errors: Drains { Drains(rawValue: 4) }
        static var outcomes: Drains { Drains(rawValue: 8) }
    }

    struct State {
        var running: [Int: Run] = [:]
        var syncRunning = 0
        var nextRunID = 0
        var queued: [Parameter] = []
        // The command's events are queued under the command's own lock, so that racing starts and
        // ends publish in the order they happened, and a run costs one lock to start and one to end.
        var executingEvents = EmitterCore<Bool>()
        var canExecuteEvents = EmitterCore<Void>()
        var errorEvents = EmitterCore<any Error>()
        var outcomeEvents = EmitterCore<CommandOutcome>()

        var activeRuns: Int { running.count + syncRunning }
        var isExecuting: Bool { activeRuns > 0 || !queued.isEmpty }

        /// Queues the events of a change of executing state.
        mutating func executingChanged(_ executing: Bool, into drains: inout Drains) {
            if executingEvents.enqueue(executing) { drains.insert(.executing) }
            if canExecuteEvents.enqueue(()) { drains.insert(.canExecute) }
        }
    }

    private let body: Body
    /// The sync body, if any, kept apart from `body` so that the hot path does not unpack an enum.
    private let syncBody: ((AnyObject, Parameter) throws -> Void)?
    private let predicate: (AnyObject, Parameter) -> Bool
    /// The owner, strongly, for the length of one call; `nil` once it is gone.
    private let resolveOwner: () -> AnyObject?
    private let state = LockedState(State())
    private let triggers = TokenBag()

    /// What happens to `execute` while a run is going on.
    public let policy: CommandPolicy

    init(
        body: Body, policy: CommandPolicy,
        predicate: @escaping (AnyObject, Parameter) -> Bool, resolveOwner: @escaping () -> AnyObject?
    ) {
        if case .concurrent(let limit) = policy {
            precondition(limit >= 1, "CommandWithParameter.init: concurrent limit \(limit) is out of range 1...")
        }
        self.body = body
        if case .sync(let work) = body { syncBody = work } else { syncBody = nil }
        self.policy = policy
        self.predicate = predicate
        self.resolveOwner = resolveOwner
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
        return state.withLock { admits($0) }
    }

    private func admits(_ state: State) -> Bool {
        switch policy {
        case .ignoreWhileRunning: return state.activeRuns == 0
        case .cancelRunning, .enqueue: return true
        case .concurrent(let limit): return state.activeRuns < limit
        }
    }

    // MARK: - Events

    /// `true` when a run starts, `false` when the last one ends. A new subscriber first receives the
    /// current state.
    public var executingChanges: EventStream<Bool> {
        stream(\.executingEvents, .executing) { $0.isExecuting }
    }

    /// Fires whenever `canExecute` may have changed: a run started or ended,
    /// ``raiseCanExecuteChanged()`` was called, or a trigger fired.
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
    /// - Parameter parameter: The value the run gets.
    /// - Returns: Whether a run started, or, under `.enqueue`, was queued.
    @discardableResult
    public func execute(parameter: Parameter) -> Bool {
        guard let owner = resolveOwner(), predicate(owner, parameter) else { return false }
        var toCancel: [Run] = []
        var drains: Drains = []
        let isSync = syncBody != nil
        let started = state.withLock { state -> Admission in
            switch policy {
            case .ignoreWhileRunning:
                guard state.activeRuns == 0 else { return .refused }
            case .cancelRunning:
                toCancel = Array(state.running.values)
            case .enqueue:
                if state.activeRuns > 0 {
                    state.queued.append(parameter)
                    return .queued
                }
            case .concurrent(let limit):
                guard state.activeRuns < limit else { return .refused }
            }
            return start(in: &state, sync: isSync, announce: true, drains: &drains)
        }
        if !drains.isEmpty { drain(drains) }
        for run in toCancel { cancel(run) }
        switch started {
        case .refused: return false
        case .queued: return true
        case .sync: runSync(owner, parameter)
        case .run(let id, let handle): perform(id, handle, parameter)
        }
        return true
    }

    enum Admission {
        case refused
        case queued
        case sync
        case run(Int, CommandRun)
    }

    /// Registers a new run; called under the lock. `announce` publishes the change to executing.
    private func start(in state: inout State, sync: Bool, announce: Bool, drains: inout Drains) -> Admission {
        let wasExecuting = state.isExecuting
        let admission: Admission
        if sync {
            state.syncRunning += 1
            admission = .sync
        } else {
            let id = state.nextRunID
            state.nextRunID += 1
            let handle = CommandRun { [weak self] result in self?.finish(id, result) }
            state.running[id] = Run(handle: handle, task: nil)
            admission = .run(id, handle)
        }
        if announce && !wasExecuting { state.executingChanged(true, into: &drains) }
        return admission
    }

    /// Runs a sync body on this thread: no run object, one lock to start and one to end. Under
    /// `.enqueue`, goes on with the parameters queued meanwhile.
    private func runSync(_ owner: AnyObject, _ first: Parameter) {
        guard let work = syncBody else { return }
        var parameter = first
        while true {
            let result: Result<Void, any Error>
            do {
                try work(owner, parameter)
                result = .success(())
            } catch {
                result = .failure(error)
            }
            let next = end(result) { state in
                state.syncRunning -= 1
                return false
            }
            guard let next else { return }
            parameter = next.parameter
        }
    }

    private func perform(_ id: Int, _ handle: CommandRun, _ parameter: Parameter) {
        switch body {
        case .sync:
            guard let owner = resolveOwner() else { return handle.fail(OwnerReleased()) }
            runSync(owner, parameter)
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
            let cancelledEarly = state.withLock { state -> Bool in
                state.running[id]?.task = task
                return handle.isCancelled
            }
            if cancelledEarly { task.cancel() }
        }
    }

    /// Ends a Dispatch or async run; called once by its ``CommandRun``.
    private func finish(_ id: Int, _ result: Result<Void, any Error>) {
        let next = end(result) { state in
            state.running.removeValue(forKey: id)?.handle.isCancelled ?? false
        }
        if let next, case .run(let nextID, let handle) = next.admission {
            perform(nextID, handle, next.parameter)
        }
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
                // Still executing: the next queued run takes over without a false/true flicker.
                let parameter = state.queued.removeFirst()
                next = (start(in: &state, sync: isSync, announce: false, drains: &drains), parameter)
            } else if !state.isExecuting {
                state.executingChanged(false, into: &drains)
            } else if state.canExecuteEvents.enqueue(()) {
                drains.insert(.canExecute)
            }
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
    /// queued parameters are dropped.
    public func cancel() {
        var drains: Drains = []
        let runs = state.withLock { state -> [Run] in
            state.queued.removeAll()
            if !state.isExecuting { state.executingChanged(false, into: &drains) }
            return Array(state.running.values)
        }
        if !drains.isEmpty { drain(drains) }
        for run in runs { cancel(run) }
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
    /// The work is not subject to the predicate or the policy, since it has already started; its
    /// errors and outcome are published like a run's, and ``cancel()`` marks it cancelled.
    ///
    /// - Parameter work: Starts the work and calls `done` once when it ends.
    public func useWork(_ work: (_ done: CommandRun) -> Void) {
        var drains: Drains = []
        let admission = state.withLock { state in
            start(in: &state, sync: false, announce: true, drains: &drains)
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

    private func cancel(_ run: Run) {
        run.handle.markCancelled()
        run.task?.cancel()
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
