import Dispatch

/// A command without a parameter: `CommandWithParameter<Void>`.
///
/// ```swift
/// private(set) lazy var login = Command(
///     delegate: self,
///     handler: { try await $0.performLogin() },
///     canExecute: { $0.canLogin })
///
/// if presenter.login.canExecute() {
///     presenter.login.execute()
/// }
/// ```
public typealias Command = CommandWithParameter<Void>

extension CommandWithParameter where Parameter == Void {
    /// Whether `execute()` would start a run now.
    public func canExecute() -> Bool { canExecute(parameter: ()) }

    /// Starts a run if the command can execute.
    ///
    /// - Returns: Whether a run started, or, under `.enqueue`, was queued.
    @discardableResult
    public func execute() -> Bool { execute(parameter: ()) }

    /// Creates a command with a synchronous body, bound weakly to its owner.
    ///
    /// - Parameters:
    ///   - delegate: The owner, held weakly; once it is gone the command cannot execute.
    ///   - policy: What `execute` does while a run is going on.
    ///   - handler: The work; runs on the thread that calls `execute`. It may throw.
    ///   - canExecute: The predicate; `nil` means always.
    public convenience init<Owner: AnyObject>(
        delegate: Owner,
        policy: CommandPolicy = .ignoreWhileRunning,
        handler: @escaping (Owner) throws -> Void,
        canExecute: ((Owner) -> Bool)? = nil
    ) {
        // Built directly rather than through the parameterized initializer: one closure layer less
        // on the hot path of `execute()`.
        let body: (AnyObject, Void) throws -> Void = { value, _ in try handler(unsafeDowncast(value, to: Owner.self)) }
        let predicate: (AnyObject, Void) -> Bool
        if let canExecute {
            predicate = { value, _ in canExecute(unsafeDowncast(value, to: Owner.self)) }
        } else {
            predicate = { _, _ in true }
        }
        self.init(
            body: .sync(body), policy: policy, predicate: predicate, resolveOwner: { [weak delegate] in delegate })
    }

    /// The predicate of a command without a parameter, in the parameterized shape. Not built with
    /// `Optional.map`, whose generic result would wrap the closure in more reabstraction thunks.
    private static func dropParameter<Owner: AnyObject>(
        _ canExecute: ((Owner) -> Bool)?
    ) -> ((Owner, Void) -> Bool)? {
        guard let canExecute else { return nil }
        return { owner, _ in canExecute(owner) }
    }

    /// Creates a command whose body runs on a Dispatch queue, bound weakly to its owner.
    ///
    /// - Parameters:
    ///   - delegate: The owner, held weakly.
    ///   - queue: Where the body runs: a `DispatchQueue`, or a test scheduler.
    ///   - policy: What `execute` does while a run is going on.
    ///   - handler: The work; call `done` exactly once.
    ///   - canExecute: The predicate; `nil` means always.
    public convenience init<Owner: AnyObject>(
        delegate: Owner,
        queue: any WorkScheduler,
        policy: CommandPolicy = .ignoreWhileRunning,
        handler: @escaping (Owner, _ done: CommandRun) throws -> Void,
        canExecute: ((Owner) -> Bool)? = nil
    ) {
        self.init(
            delegate: delegate, queue: queue, policy: policy,
            handler: { owner, _, done in try handler(owner, done) },
            canExecute: Self.dropParameter(canExecute))
    }

    /// Creates a command with an `async` body, bound weakly to its owner.
    ///
    /// - Parameters:
    ///   - delegate: The owner, held weakly.
    ///   - priority: The task's priority.
    ///   - policy: What `execute` does while a run is going on.
    ///   - handler: The work. Throwing `CancellationError` ends the run as cancelled.
    ///   - canExecute: The predicate; `nil` means always.
    public convenience init<Owner: AnyObject>(
        delegate: Owner,
        priority: TaskPriority? = nil,
        policy: CommandPolicy = .ignoreWhileRunning,
        handler: @escaping (Owner) async throws -> Void,
        canExecute: ((Owner) -> Bool)? = nil
    ) {
        self.init(
            delegate: delegate, priority: priority, policy: policy,
            handler: { owner, _ in try await handler(owner) },
            canExecute: Self.dropParameter(canExecute))
    }
}
