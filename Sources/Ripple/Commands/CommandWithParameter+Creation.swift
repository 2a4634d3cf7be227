import Dispatch

/// Selects the initializers of a command that is not bound to the main actor.
///
/// Commands belong to the main actor by default, since presenters do: their predicate and their
/// sync and `async` bodies are `@MainActor`. Pass `isolation: .nonisolated` for a service or
/// background work: the predicate and the bodies are then `@Sendable`, a sync body runs on the
/// thread that calls `execute`, and every method works from any thread.
///
/// ```swift
/// let flush = Command(isolation: .nonisolated) { cache.flush() }   // any thread
/// ```
public enum CommandIsolation: Sendable {
    /// The predicate and the bodies are `@Sendable` and run wherever the command is used.
    case nonisolated
}

extension CommandWithParameter {
    // MARK: - Main actor, with an owner (STT's shape), held weakly

    /// Creates a main-actor command with a synchronous body, bound weakly to its owner.
    ///
    /// ```swift
    /// private(set) lazy var select = CommandWithParameter<Book>(
    ///     delegate: self, handler: { $0.open($1) }, canExecute: { $0.isEditable($1) })
    /// ```
    ///
    /// - Parameters:
    ///   - delegate: The owner, held weakly; once it is gone the command cannot execute.
    ///   - policy: What `execute` does while a run is going on.
    ///   - handler: The work, on the main actor. It may throw.
    ///   - canExecute: The predicate, on the main actor; `nil` means always.
    public convenience init<Owner: AnyObject & Sendable>(
        delegate: Owner,
        policy: CommandPolicy = .ignoreWhileRunning,
        handler: @escaping @MainActor (Owner, Parameter) throws -> Void,
        canExecute: (@MainActor (Owner, Parameter) -> Bool)? = nil
    ) {
        self.init(
            body: .mainActorSync { owner, parameter in try handler(Self.cast(owner), parameter) },
            policy: policy, predicate: .owned(canExecute), isMainActor: true, resolveOwner: Self.weakly(delegate))
    }

    /// Creates a main-actor command whose body runs on a Dispatch queue and reports its end through
    /// a ``CommandRun``, bound weakly to its owner.
    ///
    /// The body is `@Sendable`: it runs on `queue`, so it cannot touch main-actor state. Hop back
    /// with `await MainActor.run { … }` in an `async` body instead, or report through `done`.
    ///
    /// - Parameters:
    ///   - delegate: The owner, held weakly.
    ///   - queue: Where the body runs: a `DispatchQueue`, or a test scheduler.
    ///   - policy: What `execute` does while a run is going on.
    ///   - handler: The work, on `queue`. Check `done.isCancelled`; call `done(.success(()))`,
    ///     `done(.failure(error))`, `done.succeed()` or `done.fail(error)` exactly once.
    ///   - canExecute: The predicate, on the main actor; `nil` means always.
    public convenience init<Owner: AnyObject & Sendable>(
        delegate: Owner,
        queue: any WorkScheduler,
        policy: CommandPolicy = .ignoreWhileRunning,
        handler: @escaping @Sendable (Owner, Parameter, _ done: CommandRun) throws -> Void,
        canExecute: (@MainActor (Owner, Parameter) -> Bool)? = nil
    ) {
        self.init(
            body: .dispatch(queue) { owner, parameter, run in try handler(Self.cast(owner), parameter, run) },
            policy: policy, predicate: .owned(canExecute), isMainActor: true, resolveOwner: Self.weakly(delegate))
    }

    /// Creates a main-actor command with an `async` body, bound weakly to its owner. `cancel()`
    /// cancels the body's task.
    ///
    /// The body runs on the main actor, before and after each `await`.
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
        handler: @escaping @MainActor (Owner, Parameter) async throws -> Void,
        canExecute: (@MainActor (Owner, Parameter) -> Bool)? = nil
    ) {
        self.init(
            body: .mainActorAsync(priority) { owner, parameter in try await handler(Self.cast(owner), parameter) },
            policy: policy, predicate: .owned(canExecute), isMainActor: true, resolveOwner: Self.weakly(delegate))
    }

    // MARK: - Main actor, without an owner

    /// Creates a main-actor command with a synchronous body.
    ///
    /// - Parameters:
    ///   - policy: What `execute` does while a run is going on.
    ///   - handler: The work, on the main actor. It may throw.
    ///   - canExecute: The predicate, on the main actor; `nil` means always.
    public convenience init(
        policy: CommandPolicy = .ignoreWhileRunning,
        handler: @escaping @MainActor (Parameter) throws -> Void,
        canExecute: (@MainActor (Parameter) -> Bool)? = nil
    ) {
        self.init(
            body: .mainActorSync { _, parameter in try handler(parameter) }, policy: policy,
            predicate: .ownerless(canExecute), isMainActor: true, resolveOwner: nil)
    }

    /// Creates a main-actor command whose body runs on a Dispatch queue and reports its end through
    /// a ``CommandRun``.
    ///
    /// - Parameters:
    ///   - queue: Where the body runs: a `DispatchQueue`, or a test scheduler.
    ///   - policy: What `execute` does while a run is going on.
    ///   - handler: The work, on `queue`; call `done` exactly once.
    ///   - canExecute: The predicate, on the main actor; `nil` means always.
    public convenience init(
        queue: any WorkScheduler,
        policy: CommandPolicy = .ignoreWhileRunning,
        handler: @escaping @Sendable (Parameter, _ done: CommandRun) throws -> Void,
        canExecute: (@MainActor (Parameter) -> Bool)? = nil
    ) {
        self.init(
            body: .dispatch(queue) { _, parameter, run in try handler(parameter, run) }, policy: policy,
            predicate: .ownerless(canExecute), isMainActor: true, resolveOwner: nil)
    }

    /// Creates a main-actor command with an `async` body. `cancel()` cancels the body's task.
    ///
    /// - Parameters:
    ///   - priority: The task's priority.
    ///   - policy: What `execute` does while a run is going on.
    ///   - handler: The work, on the main actor.
    ///   - canExecute: The predicate, on the main actor; `nil` means always.
    public convenience init(
        priority: TaskPriority? = nil,
        policy: CommandPolicy = .ignoreWhileRunning,
        handler: @escaping @MainActor (Parameter) async throws -> Void,
        canExecute: (@MainActor (Parameter) -> Bool)? = nil
    ) {
        self.init(
            body: .mainActorAsync(priority) { _, parameter in try await handler(parameter) }, policy: policy,
            predicate: .ownerless(canExecute), isMainActor: true, resolveOwner: nil)
    }

    // MARK: - Nonisolated

    /// Creates a nonisolated command with a synchronous body, for services and background work.
    ///
    /// - Parameters:
    ///   - isolation: `.nonisolated`.
    ///   - policy: What `execute` does while a run is going on.
    ///   - handler: The work; runs on the thread that calls `execute`. It may throw.
    ///   - canExecute: The predicate, on the thread that asks; `nil` means always.
    public convenience init(
        isolation: CommandIsolation,
        policy: CommandPolicy = .ignoreWhileRunning,
        handler: @escaping @Sendable (Parameter) throws -> Void,
        canExecute: (@Sendable (Parameter) -> Bool)? = nil
    ) {
        self.init(
            body: .sync { _, parameter in try handler(parameter) }, policy: policy,
            predicate: .nonisolated(canExecute), isMainActor: false, resolveOwner: nil)
    }

    /// Creates a nonisolated command whose body runs on a Dispatch queue and reports its end
    /// through a ``CommandRun``.
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
        handler: @escaping @Sendable (Parameter, _ done: CommandRun) throws -> Void,
        canExecute: (@Sendable (Parameter) -> Bool)? = nil
    ) {
        self.init(
            body: .dispatch(queue) { _, parameter, run in try handler(parameter, run) }, policy: policy,
            predicate: .nonisolated(canExecute), isMainActor: false, resolveOwner: nil)
    }

    /// Creates a nonisolated command with an `async` body, which runs in a task of its own, off
    /// every actor. `cancel()` cancels the body's task.
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
        handler: @escaping @Sendable (Parameter) async throws -> Void,
        canExecute: (@Sendable (Parameter) -> Bool)? = nil
    ) {
        self.init(
            body: .async(priority) { _, parameter in try await handler(parameter) }, policy: policy,
            predicate: .nonisolated(canExecute), isMainActor: false, resolveOwner: nil)
    }

    // MARK: - Erasing the owner

    /// The owner as the command resolves it: strongly for one call, `nil` once it is gone.
    static func weakly<Owner: AnyObject & Sendable>(_ delegate: Owner) -> @Sendable () -> AnyOwner? {
        { [weak delegate] in delegate }
    }

    /// The erased owner as the type the user's closures take.
    static func cast<Owner: AnyObject>(_ owner: AnyOwner) -> Owner {
        unsafeDowncast(owner, to: Owner.self)
    }
}

extension CommandWithParameter.Predicate {
    /// A main-actor predicate that takes the owner.
    static func owned<Owner: AnyObject & Sendable>(_ canExecute: (@MainActor (Owner, Parameter) -> Bool)?) -> Self {
        guard let canExecute else { return .always }
        return .mainActor { owner, parameter in canExecute(CommandWithParameter.cast(owner), parameter) }
    }

    /// A main-actor predicate of a command without an owner.
    static func ownerless(_ canExecute: (@MainActor (Parameter) -> Bool)?) -> Self {
        guard let canExecute else { return .always }
        return .mainActor { _, parameter in canExecute(parameter) }
    }

    /// A nonisolated predicate of a command without an owner.
    static func nonisolated(_ canExecute: (@Sendable (Parameter) -> Bool)?) -> Self {
        guard let canExecute else { return .always }
        return .nonisolated { _, parameter in canExecute(parameter) }
    }
}
