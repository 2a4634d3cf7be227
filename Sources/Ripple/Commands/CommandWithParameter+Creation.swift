import Dispatch

extension CommandWithParameter {
    // MARK: - With an owner (STT's shape), held weakly

    /// Creates a command with a synchronous body, bound weakly to its owner.
    ///
    /// ```swift
    /// private(set) lazy var select = CommandWithParameter<Book>(
    ///     delegate: self, handler: { $0.open($1) }, canExecute: { $0.isEditable($1) })
    /// ```
    ///
    /// - Parameters:
    ///   - delegate: The owner, held weakly; once it is gone the command cannot execute.
    ///   - policy: What `execute` does while a run is going on.
    ///   - handler: The work; runs on the thread that calls `execute`. It may throw.
    ///   - canExecute: The predicate; `nil` means always.
    public convenience init<Owner: AnyObject>(
        delegate: Owner,
        policy: CommandPolicy = .ignoreWhileRunning,
        handler: @escaping (Owner, Parameter) throws -> Void,
        canExecute: ((Owner, Parameter) -> Bool)? = nil
    ) {
        let body: (AnyObject, Parameter) throws -> Void = { value, parameter in
            try handler(unsafeDowncast(value, to: Owner.self), parameter)
        }
        let predicate = Self.erasingOwner(canExecute)
        self.init(
            body: .sync(body), policy: policy, predicate: predicate, resolveOwner: { [weak delegate] in delegate })
    }

    /// Creates a command whose body runs on a Dispatch queue and reports its end through a
    /// ``CommandRun``, bound weakly to its owner.
    ///
    /// - Parameters:
    ///   - delegate: The owner, held weakly.
    ///   - queue: Where the body runs: a `DispatchQueue`, or a test scheduler.
    ///   - policy: What `execute` does while a run is going on.
    ///   - handler: The work. Check `done.isCancelled`; call `done(.success(()))`,
    ///     `done(.failure(error))`, `done.succeed()` or `done.fail(error)` exactly once.
    ///   - canExecute: The predicate; `nil` means always.
    public convenience init<Owner: AnyObject>(
        delegate: Owner,
        queue: any WorkScheduler,
        policy: CommandPolicy = .ignoreWhileRunning,
        handler: @escaping (Owner, Parameter, _ done: CommandRun) throws -> Void,
        canExecute: ((Owner, Parameter) -> Bool)? = nil
    ) {
        self.init(
            body: .dispatch(queue) { value, parameter, run in
                try handler(unsafeDowncast(value, to: Owner.self), parameter, run)
            },
            policy: policy,
            predicate: Self.erasingOwner(canExecute),
            resolveOwner: { [weak delegate] in delegate })
    }

    /// Creates a command with an `async` body, bound weakly to its owner. `cancel()` cancels the
    /// body's task.
    ///
    /// - Parameters:
    ///   - delegate: The owner, held weakly. The task holds it strongly only while the body runs.
    ///   - priority: The task's priority.
    ///   - policy: What `execute` does while a run is going on.
    ///   - handler: The work. Throwing `CancellationError` ends the run as cancelled.
    ///   - canExecute: The predicate; `nil` means always.
    public convenience init<Owner: AnyObject>(
        delegate: Owner,
        priority: TaskPriority? = nil,
        policy: CommandPolicy = .ignoreWhileRunning,
        handler: @escaping (Owner, Parameter) async throws -> Void,
        canExecute: ((Owner, Parameter) -> Bool)? = nil
    ) {
        self.init(
            body: .async(priority) { value, parameter in
                try await handler(unsafeDowncast(value, to: Owner.self), parameter)
            },
            policy: policy,
            predicate: Self.erasingOwner(canExecute),
            resolveOwner: { [weak delegate] in delegate })
    }

    /// A predicate in the shape the command stores, with the owner passed as `AnyObject`.
    private static func erasingOwner<Owner: AnyObject>(
        _ canExecute: ((Owner, Parameter) -> Bool)?
    ) -> (AnyObject, Parameter) -> Bool {
        guard let canExecute else { return { _, _ in true } }
        return { value, parameter in canExecute(unsafeDowncast(value, to: Owner.self), parameter) }
    }

    private static func ownerless(_ canExecute: ((Parameter) -> Bool)?) -> (AnyObject, Parameter) -> Bool {
        guard let canExecute else { return { _, _ in true } }
        return { _, parameter in canExecute(parameter) }
    }

    // MARK: - Without an owner

    /// Creates a command with a synchronous body.
    ///
    /// - Parameters:
    ///   - policy: What `execute` does while a run is going on.
    ///   - handler: The work; runs on the thread that calls `execute`. It may throw.
    ///   - canExecute: The predicate; `nil` means always.
    public convenience init(
        policy: CommandPolicy = .ignoreWhileRunning,
        handler: @escaping (Parameter) throws -> Void,
        canExecute: ((Parameter) -> Bool)? = nil
    ) {
        let body: (AnyObject, Parameter) throws -> Void = { _, parameter in try handler(parameter) }
        let predicate = Self.ownerless(canExecute)
        self.init(
            body: .sync(body), policy: policy, predicate: predicate, resolveOwner: nil)
    }

    /// Creates a command whose body runs on a Dispatch queue and reports its end through a
    /// ``CommandRun``.
    ///
    /// - Parameters:
    ///   - queue: Where the body runs: a `DispatchQueue`, or a test scheduler.
    ///   - policy: What `execute` does while a run is going on.
    ///   - handler: The work; call `done` exactly once.
    ///   - canExecute: The predicate; `nil` means always.
    public convenience init(
        queue: any WorkScheduler,
        policy: CommandPolicy = .ignoreWhileRunning,
        handler: @escaping (Parameter, _ done: CommandRun) throws -> Void,
        canExecute: ((Parameter) -> Bool)? = nil
    ) {
        self.init(
            body: .dispatch(queue) { _, parameter, run in try handler(parameter, run) }, policy: policy,
            predicate: Self.ownerless(canExecute), resolveOwner: nil)
    }

    /// Creates a command with an `async` body. `cancel()` cancels the body's task.
    ///
    /// - Parameters:
    ///   - priority: The task's priority.
    ///   - policy: What `execute` does while a run is going on.
    ///   - handler: The work.
    ///   - canExecute: The predicate; `nil` means always.
    public convenience init(
        priority: TaskPriority? = nil,
        policy: CommandPolicy = .ignoreWhileRunning,
        handler: @escaping (Parameter) async throws -> Void,
        canExecute: ((Parameter) -> Bool)? = nil
    ) {
        self.init(
            body: .async(priority) { _, parameter in try await handler(parameter) }, policy: policy,
            predicate: Self.ownerless(canExecute), resolveOwner: nil)
    }
}
