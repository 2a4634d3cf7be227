import Dispatch

/// A command without a parameter: `CommandWithParameter<Void>`.
///
/// ```swift
/// @MainActor final class LoginPresenter: Presenter<any LoginView> {
///     private(set) lazy var login = Command(
///         delegate: self,
///         handler: { try await $0.performLogin() },
///         canExecute: { $0.canLogin })
/// }
///
/// if presenter.login.canExecute() {
///     presenter.login.execute()
/// }
/// ```
public typealias Command = CommandWithParameter<Void>

extension CommandWithParameter where Parameter == Void {
    /// Whether `execute()` would start a run now.
    ///
    /// A main-actor command with a predicate evaluates it on the main actor, so call this on the
    /// main thread.
    public func canExecute() -> Bool { canExecute(parameter: ()) }

    /// Starts a run if the command can execute.
    ///
    /// - Returns: Whether a run started, or, under `.enqueue`, was queued (or, called off the main
    ///   thread on a main-actor command, was handed to the main queue).
    @discardableResult
    public func execute() -> Bool { execute(parameter: ()) }

    /// Creates a main-actor command with a synchronous body, bound weakly to its owner.
    ///
    /// - Parameters:
    ///   - delegate: The owner, held weakly; once it is gone the command cannot execute.
    ///   - policy: What `execute` does while a run is going on.
    ///   - handler: The work, on the main actor. It may throw.
    ///   - canExecute: The predicate, on the main actor; `nil` means always.
    public convenience init<Owner: AnyObject & Sendable>(
        delegate: Owner,
        policy: CommandPolicy = .ignoreWhileRunning,
        handler: @escaping @MainActor (Owner) throws -> Void,
        canExecute: (@MainActor (Owner) -> Bool)? = nil
    ) {
        self.init(
            delegate: delegate, policy: policy, handler: { owner, _ in try handler(owner) },
            canExecute: Self.dropParameter(canExecute))
    }

    /// Creates a main-actor command whose body runs on a Dispatch queue, bound weakly to its owner.
    ///
    /// - Parameters:
    ///   - delegate: The owner, held weakly.
    ///   - queue: Where the body runs: a `DispatchQueue`, or a test scheduler.
    ///   - policy: What `execute` does while a run is going on.
    ///   - handler: The work, on `queue`; call `done` exactly once. It is `@Sendable`, so it cannot
    ///     touch main-actor state.
    ///   - canExecute: The predicate, on the main actor; `nil` means always.
    public convenience init<Owner: AnyObject & Sendable>(
        delegate: Owner,
        queue: any WorkScheduler,
        policy: CommandPolicy = .ignoreWhileRunning,
        handler: @escaping @Sendable (Owner, _ done: CommandRun) throws -> Void,
        canExecute: (@MainActor (Owner) -> Bool)? = nil
    ) {
        self.init(
            delegate: delegate, queue: queue, policy: policy,
            handler: { owner, _, done in try handler(owner, done) },
            canExecute: Self.dropParameter(canExecute))
    }

    /// Creates a main-actor command with an `async` body, bound weakly to its owner.
    ///
    /// - Parameters:
    ///   - delegate: The owner, held weakly.
    ///   - priority: The task's priority.
    ///   - policy: What `execute` does while a run is going on.
    ///   - handler: The work, on the main actor before and after each `await`. Throwing
    ///     `CancellationError` ends the run as cancelled.
    ///   - canExecute: The predicate, on the main actor; `nil` means always.
    public convenience init<Owner: AnyObject & Sendable>(
        delegate: Owner,
        priority: TaskPriority? = nil,
        policy: CommandPolicy = .ignoreWhileRunning,
        handler: @escaping @MainActor (Owner) async throws -> Void,
        canExecute: (@MainActor (Owner) -> Bool)? = nil
    ) {
        self.init(
            delegate: delegate, priority: priority, policy: policy,
            handler: { owner, _ in try await handler(owner) },
            canExecute: Self.dropParameter(canExecute))
    }

    /// The predicate of a command without a parameter, in the parameterized shape.
    private static func dropParameter<Owner: AnyObject>(
        _ canExecute: (@MainActor (Owner) -> Bool)?
    ) -> (@MainActor (Owner, Void) -> Bool)? {
        guard let canExecute else { return nil }
        return { owner, _ in canExecute(owner) }
    }
}
