import Dispatch

/// A command whose body returns a value: each value a run produces reaches ``results``.
///
/// ```swift
/// @MainActor final class LoginPresenter: Presenter<any LoginView> {
///     private(set) lazy var login = CommandWithResult<Credentials, User>(
///         delegate: self,
///         handler: { owner, credentials in try await owner.api.login(credentials) },
///         canExecute: { _, credentials in credentials.isComplete })
///
///     func bind() {
///         login.results.subscribe { [weak self] user in self?.view?.greet(user) }   // main actor
///             .store(in: tokens)
///     }
/// }
/// ```
///
/// Everything else is the contract of ``CommandWithParameter``, which runs the bodies: the same
/// policies, executing state, errors, outcomes and cancellation. The wrapped command is
/// ``command``; bind either one to a control.
///
/// # Order
/// A run's value is published before the run ends: a `.synchronous` subscriber of ``results``
/// still sees the command executing. A run that fails or is cancelled before its body returns
/// publishes no value.
///
/// # Isolation and Thread Safety
/// As on ``CommandWithParameter``: main-actor closures by default, `@Sendable` ones with
/// `isolation: .nonisolated`, and a `@Sendable` Dispatch body in both.
public final class CommandWithResult<Parameter: Sendable, Output: Sendable>: CommandType, Sendable {
    /// The command that runs the bodies and owns the state.
    public let command: CommandWithParameter<Parameter>
    private let emitter: Emitter<Output>

    private init(emitter: Emitter<Output>, command: CommandWithParameter<Parameter>) {
        self.emitter = emitter
        self.command = command
    }

    // MARK: - Main actor, with an owner (STT's shape), held weakly

    /// Creates a main-actor command with a synchronous body that returns a value, bound weakly to
    /// its owner.
    ///
    /// - Parameters:
    ///   - delegate: The owner, held weakly; once it is gone the command cannot execute.
    ///   - policy: What `execute` does while a run is going on.
    ///   - handler: The work, on the main actor. It may throw.
    ///   - canExecute: The predicate, on the main actor; `nil` means always.
    public convenience init<Owner: AnyObject & Sendable>(
        delegate: Owner,
        policy: CommandPolicy = .ignoreWhileRunning,
        handler: @escaping @MainActor (Owner, Parameter) throws -> Output,
        canExecute: (@MainActor (Owner, Parameter) -> Bool)? = nil
    ) {
        let emitter = Emitter<Output>()
        self.init(
            emitter: emitter,
            command: CommandWithParameter(
                delegate: delegate, policy: policy,
                handler: { owner, parameter in emitter.send(try handler(owner, parameter)) },
                canExecute: canExecute))
    }

    /// Creates a main-actor command whose body runs on a Dispatch queue and ends with a value,
    /// bound weakly to its owner.
    ///
    /// - Parameters:
    ///   - delegate: The owner, held weakly.
    ///   - queue: Where the body runs: a `DispatchQueue`, or a test scheduler.
    ///   - policy: What `execute` does while a run is going on.
    ///   - handler: The work, on `queue`. Check `done.isCancelled`; call `done(.success(value))` or
    ///     `done(.failure(error))` exactly once.
    ///   - canExecute: The predicate, on the main actor; `nil` means always.
    public convenience init<Owner: AnyObject & Sendable>(
        delegate: Owner,
        queue: any WorkScheduler,
        policy: CommandPolicy = .ignoreWhileRunning,
        handler: @escaping @Sendable (Owner, Parameter, _ done: CommandResultRun<Output>) throws -> Void,
        canExecute: (@MainActor (Owner, Parameter) -> Bool)? = nil
    ) {
        let emitter = Emitter<Output>()
        self.init(
            emitter: emitter,
            command: CommandWithParameter(
                delegate: delegate, queue: queue, policy: policy,
                handler: { owner, parameter, run in
                    try handler(owner, parameter, CommandResultRun(run: run, emitter: emitter))
                },
                canExecute: canExecute))
    }

    /// Creates a main-actor command with an `async` body that returns a value, bound weakly to its
    /// owner. `cancel()` cancels the body's task.
    ///
    /// - Parameters:
    ///   - delegate: The owner, held weakly. The task holds it strongly only while the body runs.
    ///   - priority: The task's priority.
    ///   - policy: What `execute` does while a run is going on.
    ///   - handler: The work, on the main actor. Throwing `CancellationError` ends the run as
    ///     cancelled.
    ///   - canExecute: The predicate, on the main actor; `nil` means always.
    public convenience init<Owner: AnyObject & Sendable>(
        delegate: Owner,
        priority: TaskPriority? = nil,
        policy: CommandPolicy = .ignoreWhileRunning,
        handler: @escaping @MainActor (Owner, Parameter) async throws -> Output,
        canExecute: (@MainActor (Owner, Parameter) -> Bool)? = nil
    ) {
        let emitter = Emitter<Output>()
        self.init(
            emitter: emitter,
            command: CommandWithParameter(
                delegate: delegate, priority: priority, policy: policy,
                handler: { owner, parameter in emitter.send(try await handler(owner, parameter)) },
                canExecute: canExecute))
    }

    // MARK: - Main actor, without an owner

    /// Creates a main-actor command with a synchronous body that returns a value.
    ///
    /// - Parameters:
    ///   - policy: What `execute` does while a run is going on.
    ///   - handler: The work, on the main actor. It may throw.
    ///   - canExecute: The predicate, on the main actor; `nil` means always.
    public convenience init(
        policy: CommandPolicy = .ignoreWhileRunning,
        handler: @escaping @MainActor (Parameter) throws -> Output,
        canExecute: (@MainActor (Parameter) -> Bool)? = nil
    ) {
        let emitter = Emitter<Output>()
        self.init(
            emitter: emitter,
            command: CommandWithParameter(
                policy: policy, handler: { parameter in emitter.send(try handler(parameter)) },
                canExecute: canExecute))
    }

    /// Creates a main-actor command whose body runs on a Dispatch queue and ends with a value.
    ///
    /// - Parameters:
    ///   - queue: Where the body runs: a `DispatchQueue`, or a test scheduler.
    ///   - policy: What `execute` does while a run is going on.
    ///   - handler: The work, on `queue`; call `done` exactly once.
    ///   - canExecute: The predicate, on the main actor; `nil` means always.
    public convenience init(
        queue: any WorkScheduler,
        policy: CommandPolicy = .ignoreWhileRunning,
        handler: @escaping @Sendable (Parameter, _ done: CommandResultRun<Output>) throws -> Void,
        canExecute: (@MainActor (Parameter) -> Bool)? = nil
    ) {
        let emitter = Emitter<Output>()
        self.init(
            emitter: emitter,
            command: CommandWithParameter(
                queue: queue, policy: policy,
                handler: { parameter, run in try handler(parameter, CommandResultRun(run: run, emitter: emitter)) },
                canExecute: canExecute))
    }

    /// Creates a main-actor command with an `async` body that returns a value. `cancel()` cancels
    /// the body's task.
    ///
    /// - Parameters:
    ///   - priority: The task's priority.
    ///   - policy: What `execute` does while a run is going on.
    ///   - handler: The work, on the main actor.
    ///   - canExecute: The predicate, on the main actor; `nil` means always.
    public convenience init(
        priority: TaskPriority? = nil,
        policy: CommandPolicy = .ignoreWhileRunning,
        handler: @escaping @MainActor (Parameter) async throws -> Output,
        canExecute: (@MainActor (Parameter) -> Bool)? = nil
    ) {
        let emitter = Emitter<Output>()
        self.init(
            emitter: emitter,
            command: CommandWithParameter(
                priority: priority, policy: policy,
                handler: { parameter in emitter.send(try await handler(parameter)) },
                canExecute: canExecute))
    }

    // MARK: - Nonisolated

    /// Creates a nonisolated command with a synchronous body that returns a value, for services
    /// and background work.
    ///
    /// - Parameters:
    ///   - isolation: `.nonisolated`.
    ///   - policy: What `execute` does while a run is going on.
    ///   - handler: The work; runs on the thread that calls `execute`. It may throw.
    ///   - canExecute: The predicate, on the thread that asks; `nil` means always.
    public convenience init(
        isolation: CommandIsolation,
        policy: CommandPolicy = .ignoreWhileRunning,
        handler: @escaping @Sendable (Parameter) throws -> Output,
        canExecute: (@Sendable (Parameter) -> Bool)? = nil
    ) {
        let emitter = Emitter<Output>()
        self.init(
            emitter: emitter,
            command: CommandWithParameter(
                isolation: isolation, policy: policy,
                handler: { parameter in emitter.send(try handler(parameter)) }, canExecute: canExecute))
    }

    /// Creates a nonisolated command whose body runs on a Dispatch queue and ends with a value.
    ///
    /// - Parameters:
    ///   - isolation: `.nonisolated`.
    ///   - queue: Where the body runs: a `DispatchQueue`, or a test scheduler.
    ///   - policy: What `execute` does while a run is going on.
    ///   - handler: The work, on `queue`; call `done` exactly once.
    ///   - canExecute: The predicate, on the thread that asks; `nil` means always.
    public convenience init(
        isolation: CommandIsolation,
        queue: any WorkScheduler,
        policy: CommandPolicy = .ignoreWhileRunning,
        handler: @escaping @Sendable (Parameter, _ done: CommandResultRun<Output>) throws -> Void,
        canExecute: (@Sendable (Parameter) -> Bool)? = nil
    ) {
        let emitter = Emitter<Output>()
        self.init(
            emitter: emitter,
            command: CommandWithParameter(
                isolation: isolation, queue: queue, policy: policy,
                handler: { parameter, run in try handler(parameter, CommandResultRun(run: run, emitter: emitter)) },
                canExecute: canExecute))
    }

    /// Creates a nonisolated command with an `async` body that returns a value; the body runs in a
    /// task of its own, off every actor. `cancel()` cancels the body's task.
    ///
    /// - Parameters:
    ///   - isolation: `.nonisolated`.
    ///   - priority: The task's priority.
    ///   - policy: What `execute` does while a run is going on.
    ///   - handler: The work.
    ///   - canExecute: The predicate, on the thread that asks; `nil` means always.
    public convenience init(
        isolation: CommandIsolation,
        priority: TaskPriority? = nil,
        policy: CommandPolicy = .ignoreWhileRunning,
        handler: @escaping @Sendable (Parameter) async throws -> Output,
        canExecute: (@Sendable (Parameter) -> Bool)? = nil
    ) {
        let emitter = Emitter<Output>()
        self.init(
            emitter: emitter,
            command: CommandWithParameter(
                isolation: isolation, priority: priority, policy: policy,
                handler: { parameter in emitter.send(try await handler(parameter)) }, canExecute: canExecute))
    }

    // MARK: - Results

    /// Every value a run produces, in the order the runs produced them.
    public var results: EventStream<Output> { emitter.stream }

    // MARK: - The command's state, forwarded

    /// What happens to `execute` while a run is going on.
    public var policy: CommandPolicy { command.policy }

    /// Whether a run is going on or queued.
    public var isExecuting: Bool { command.isExecuting }

    /// Whether `execute(parameter:)` would start a run now.
    ///
    /// A main-actor command with a predicate evaluates it on the main actor, so call this on the
    /// main thread; called from another thread it traps.
    ///
    /// - Parameter parameter: The value the run would get.
    public func canExecute(parameter: Parameter) -> Bool { command.canExecute(parameter: parameter) }

    /// Starts a run if the command can execute; atomically with respect to other `execute` calls.
    /// As ``CommandWithParameter/execute(parameter:)``: a main-actor command called off the main
    /// thread hands the call to the main queue.
    ///
    /// - Parameter parameter: The value the run gets.
    /// - Returns: Whether a run started, or, under `.enqueue`, was queued (or, called off the main
    ///   thread on a main-actor command, was handed to the main queue).
    @discardableResult
    public func execute(parameter: Parameter) -> Bool { command.execute(parameter: parameter) }

    /// Cancels every running and queued run.
    public func cancel() { command.cancel() }

    /// `true` when a run starts, `false` when the last one ends; replays the current state.
    public var executingChanges: EventStream<Bool> { command.executingChanges }

    /// Fires whenever `canExecute` may have changed.
    public var canExecuteChanges: EventStream<Void> { command.canExecuteChanges }

    /// Every error a run reports, in order.
    public var errors: EventStream<any Error> { command.errors }

    /// How each run ended, in order.
    public var outcomes: EventStream<CommandOutcome> { command.outcomes }

    /// Re-evaluates `canExecute`: subscribers of ``canExecuteChanges`` hear about it.
    public func raiseCanExecuteChanged() { command.raiseCanExecuteChanged() }

    /// Re-evaluates `canExecute` each time `trigger` publishes a value.
    ///
    /// - Parameter trigger: The stream to follow.
    public func raiseCanExecuteChanged<Value>(whenever trigger: EventStream<Value>) {
        command.raiseCanExecuteChanged(whenever: trigger)
    }
}

extension CommandWithResult where Parameter == Void {
    /// Whether `execute()` would start a run now; on the main thread for a main-actor command with
    /// a predicate.
    public func canExecute() -> Bool { command.canExecute(parameter: ()) }

    /// Starts a run if the command can execute.
    ///
    /// - Returns: Whether a run started, or, under `.enqueue`, was queued (or, called off the main
    ///   thread on a main-actor command, was handed to the main queue).
    @discardableResult
    public func execute() -> Bool { command.execute(parameter: ()) }
}

/// One run of a ``CommandWithResult`` with a Dispatch body: check ``isCancelled``, and call it
/// exactly once with the run's value or error.
///
/// ```swift
/// CommandWithResult<Query, [Book]>(delegate: self, queue: .global()) { owner, query, done in
///     owner.api.search(query) { result in done(result) }
/// }
/// ```
///
/// Only the first call counts; its value, if any, reaches ``CommandWithResult/results`` before the
/// run ends.
public final class CommandResultRun<Output: Sendable>: Sendable {
    private let run: CommandRun
    private let emitter: Emitter<Output>
    private let ended = LockedState(false)

    init(run: CommandRun, emitter: Emitter<Output>) {
        self.run = run
        self.emitter = emitter
    }

    /// Whether the command was cancelled while this run was going on.
    public var isCancelled: Bool { run.isCancelled }

    /// Whether the run has ended.
    public var isFinished: Bool { run.isFinished }

    /// Ends the run with `result`. Only the first call has an effect.
    ///
    /// - Parameter result: `.success(value)` or `.failure(error)`.
    public func callAsFunction(_ result: Result<Output, any Error>) {
        // A body that threw has already ended its run: a value it sends later is dropped.
        guard !run.isFinished else { return }
        let first = ended.withLock { ended -> Bool in
            defer { ended = true }
            return !ended
        }
        guard first else { return }
        switch result {
        case .success(let value):
            emitter.send(value)
            run.succeed()
        case .failure(let error):
            run.fail(error)
        }
    }
}
