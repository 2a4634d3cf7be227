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

    let body: Body
    /// The sync body, taken out of ``Body`` once: the hot path reads a stored closure, not a
    /// generic enum, whose every copy would look up its metadata.
    let syncWork: (@Sendable (AnyOwner, Parameter) throws -> Output)?
    let mainActorSyncWork: (@MainActor (AnyOwner, Parameter) throws -> Output)?
    /// The predicate, taken out of ``Predicate`` once: `nil` for none.
    let nonisolatedPredicate: (@Sendable (AnyOwner, Parameter) -> Bool)?
    let mainActorPredicate: (@MainActor (AnyOwner, Parameter) -> Bool)?
    /// Whether the command belongs to the main actor: `execute` then checks and starts on it.
    let isMainActor: Bool
    /// The owner, strongly, for the length of one call; `nil` once it is gone. Ownerless commands
    /// return ``OwnerlessPlaceholder/shared``.
    let resolveOwner: @Sendable () -> AnyOwner?
    /// The state machine: every change of state is one of its transitions, under this lock.
    let state: LockedState<CommandMachine>
    /// Whether the sync runs' nesting is counted per thread (see ``CommandMachine/nestsPerThread``).
    let nestsPerThread: Bool
    let triggers = TokenBag()

    /// What happens to `execute` while a run is going on.
    public let policy: CommandPolicy

    init(
        body: Body, policy: CommandPolicy, predicate: Predicate, isMainActor: Bool,
        resolveOwner: (@Sendable () -> AnyOwner?)?
    ) {
        self.body = body
        switch body {
        case .sync(let work): (syncWork, mainActorSyncWork) = (work, nil)
        case .mainActorSync(let work): (syncWork, mainActorSyncWork) = (nil, work)
        case .dispatch, .mainActorAsync, .async: (syncWork, mainActorSyncWork) = (nil, nil)
        }
        switch predicate {
        case .always: (nonisolatedPredicate, mainActorPredicate) = (nil, nil)
        case .nonisolated(let holds): (nonisolatedPredicate, mainActorPredicate) = (holds, nil)
        case .mainActor(let holds): (nonisolatedPredicate, mainActorPredicate) = (nil, holds)
        }
        self.policy = policy
        self.isMainActor = isMainActor
        self.resolveOwner = resolveOwner ?? { OwnerlessPlaceholder.shared }
        let machine = CommandMachine(policy: policy, bodyIsSync: body.isSync)
        nestsPerThread = machine.nestsPerThread
        state = LockedState(machine)
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
        if let holds = nonisolatedPredicate {
            guard holds(owner, parameter) else { return false }
        } else if let holds = mainActorPredicate {
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
        stream(\.resultEvents, .results, replay: nil, handler: Self.erased)
    }

    /// One of the command's event streams.
    func stream<Value>(
        _ core: WritableKeyPath<CommandMachine, EmitterCore<Value>> & Sendable,
        _ drain: CommandDrains, replay: (@Sendable (CommandMachine) -> Value)?
    ) -> EventStream<Value> {
        stream(core, drain, replay: replay) { $0 }
    }

    /// One of the command's event streams, whose values the machine stores as `Stored`.
    func stream<Value, Stored>(
        _ core: WritableKeyPath<CommandMachine, EmitterCore<Stored>> & Sendable,
        _ drain: CommandDrains, replay: (@Sendable (CommandMachine) -> Stored)?,
        handler adapt: @escaping @Sendable (EventHandler<Value>) -> EventHandler<Stored>
    ) -> EventStream<Value> {
        EventStream { [self] handler in
            let subscriber = SubscriberState()
            let stored = adapt(handler)
            let (id, mustDrain) = state.withLock { state in
                state[keyPath: core].add(stored, state: subscriber, replay: replay?(state))
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

    /// A `results` handler as one of the values the machine stores: it casts each back to `Output`.
    static func erased(_ handler: EventHandler<Output>) -> EventHandler<any Sendable> {
        // Safe casts: the machine's `resultEvents` only ever holds this command's `Output` values
        // (`publish(_:value:)` is called with them alone).
        switch handler {
        case .synchronous(let deliver): return .synchronous { deliver($0 as! Output) }
        case .queue(let queue, let deliver): return .queue(queue) { deliver($0 as! Output) }
        case .scheduler(let scheduler, let deliver): return .scheduler(scheduler) { deliver($0 as! Output) }
        case .mainActor(let deliver): return .mainActor { deliver($0 as! Output) }
        }
    }

    /// Delivers what `drains` names: what a run produced (its value, error and outcome) before the
    /// change of state it caused, so that a value reaches `results` before the run's end shows.
    func drain(_ drains: CommandDrains) {
        if drains.contains(.results) { drainDeliveries { state.withLock { $0.resultEvents.next() } } }
        if drains.contains(.errors) { drainDeliveries { state.withLock { $0.errorEvents.next() } } }
        if drains.contains(.outcomes) { drainDeliveries { state.withLock { $0.outcomeEvents.next() } } }
        if drains.contains(.executing) { drainDeliveries { state.withLock { $0.executingEvents.next() } } }
        if drains.contains(.canExecute) { drainDeliveries { state.withLock { $0.canExecuteEvents.next() } } }
    }
}
