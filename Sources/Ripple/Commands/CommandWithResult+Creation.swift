// The initializers: one family per body kind (sync, Dispatch, async), each in two isolations.
// The label of the body says which: `perform:`/`work:`/`task:` with a `delegate:` make a main-actor
// command; `nonisolatedPerform:`/`nonisolatedWork:`/`nonisolatedTask:` make a nonisolated one.
// No two initializers differ only in whether their body is `async`: the labels do, so overload
// resolution never decides where or when a body runs.

extension CommandWithResult {
    // MARK: - Main actor, with an owner (STT's shape), held weakly

    /// Creates a main-actor command with a synchronous body, bound weakly to its owner.
    ///
    /// <!-- swift
    /// struct Book: Sendable { var title = "" }
    /// protocol ShelfView: Viewable {}
    /// final class Exporter: Sendable {
    ///     func export(completion: @escaping @Sendable ((any Error)?) -> Void) { completion(nil) }
    /// }
    /// final class BookAPI: Sendable {
    ///     func search(_ query: String) async throws -> [Book] { [] }
    /// }
    /// // The examples of the main-actor initializers are members of this presenter.
    /// final class ShelfPresenter: Presenter<any ShelfView> {
    ///     let exporter = Exporter()
    ///     let api = BookAPI()
    ///     func open(_ book: Book) {}
    ///     func isEditable(_ book: Book) -> Bool { true }
    /// -->
    /// ```swift
    /// private(set) lazy var select = CommandWithParameter<Book>(
    ///     delegate: self, perform: { $0.open($1) }, canExecute: { $0.isEditable($1) })
    /// ```
    ///
    /// `execute` on the main thread runs the body before it returns.
    ///
    /// - Parameters:
    ///   - delegate: The owner, held weakly; once it is gone the command cannot execute.
    ///   - policy: What `execute` does while a run is going on.
    ///   - perform: The work, on the main actor, on the thread that starts the run. It may throw;
    ///     what it returns reaches ``results``.
    ///   - canExecute: The predicate, on the main actor; `nil` means always.
    public convenience init<Owner: AnyObject & Sendable>(
        delegate: Owner,
        policy: CommandPolicy = .ignoreWhileRunning,
        perform: @escaping @MainActor (Owner, Parameter) throws -> Output,
        canExecute: (@MainActor (Owner, Parameter) -> Bool)? = nil
    ) {
        self.init(
            body: .mainActorSync { owner, parameter in try perform(Self.cast(owner), parameter) },
            policy: policy, predicate: .owned(canExecute), isMainActor: true, resolveOwner: Self.weakly(delegate))
    }

    /// Creates a main-actor command whose body runs on a Dispatch queue and reports its end through
    /// a ``CommandResultRun``, bound weakly to its owner.
    ///
    /// ```swift
    /// private(set) lazy var export = Command(delegate: self, queue: .global(), work: { owner, _, done in
    ///     owner.exporter.export { error in error.map(done.fail) ?? done.succeed() }
    /// })
    /// ```
    ///
    /// The body is `@Sendable`: it runs on `queue`, so it cannot touch main-actor state. Report
    /// through `done`, or use an `async` body that hops back with `await`.
    ///
    /// - Parameters:
    ///   - delegate: The owner, held weakly. The body holds it strongly only while it runs.
    ///   - queue: Where the body runs: a `DispatchQueue`, or a test scheduler.
    ///   - policy: What `execute` does while a run is going on.
    ///   - work: The work, on `queue`. Check `done.isCancelled`; end the run exactly once with
    ///     `done.succeed(value)` (`done.succeed()` without results), `done.fail(error)` or
    ///     `done(result)`. Throwing ends the run with that error.
    ///   - canExecute: The predicate, on the main actor; `nil` means always.
    public convenience init<Owner: AnyObject & Sendable>(
        delegate: Owner,
        queue: any WorkScheduler,
        policy: CommandPolicy = .ignoreWhileRunning,
        work: @escaping @Sendable (Owner, Parameter, _ done: CommandResultRun<Output>) throws -> Void,
        canExecute: (@MainActor (Owner, Parameter) -> Bool)? = nil
    ) {
        self.init(
            body: .dispatch(queue) { owner, parameter, run in try work(Self.cast(owner), parameter, run) },
            policy: policy, predicate: .owned(canExecute), isMainActor: true, resolveOwner: Self.weakly(delegate))
    }

    /// Creates a main-actor command with an `async` body, bound weakly to its owner. `cancel()`
    /// cancels the body's task.
    ///
    /// ```swift
    /// private(set) lazy var search = CommandWithResult<String, [Book]>(
    ///     delegate: self, policy: .cancelRunning, task: { owner, query in try await owner.api.search(query) })
    /// ```
    ///
    /// The body runs in a task on the main actor, before and after each `await`.
    ///
    /// - Parameters:
    ///   - delegate: The owner, held weakly. The task holds it strongly only while the body runs.
    ///   - priority: The task's priority.
    ///   - policy: What `execute` does while a run is going on.
    ///   - task: The work. Throwing `CancellationError` ends the run as cancelled; what it returns
    ///     reaches ``results``.
    ///   - canExecute: The predicate, on the main actor; `nil` means always.
    public convenience init<Owner: AnyObject & Sendable>(
        delegate: Owner,
        priority: TaskPriority? = nil,
        policy: CommandPolicy = .ignoreWhileRunning,
        task: @escaping @MainActor (Owner, Parameter) async throws -> Output,
        canExecute: (@MainActor (Owner, Parameter) -> Bool)? = nil
    ) {
        self.init(
            body: .mainActorAsync(priority) { owner, parameter in try await task(Self.cast(owner), parameter) },
            policy: policy, predicate: .owned(canExecute), isMainActor: true, resolveOwner: Self.weakly(delegate))
    }

    // MARK: - Nonisolated, without an owner

    /// Creates a nonisolated command with a synchronous body, for services and background work.
    ///
    /// <!-- swift
    /// }  // ShelfPresenter
    /// final class Cache: Sendable {
    ///     func flush() {}
    /// }
    /// let cache = Cache()
    /// -->
    /// ```swift
    /// let flush = Command(nonisolatedPerform: { cache.flush() })   // any thread
    /// ```
    ///
    /// - Parameters:
    ///   - policy: What `execute` does while a run is going on.
    ///   - nonisolatedPerform: The work; runs on the thread that calls `execute` (or, under
    ///     `.enqueue`, on the thread that ends the run before it). It may throw; what it returns
    ///     reaches ``results``.
    ///   - canExecute: The predicate, on the thread that asks; `nil` means always.
    public convenience init(
        policy: CommandPolicy = .ignoreWhileRunning,
        nonisolatedPerform: @escaping @Sendable (Parameter) throws -> Output,
        canExecute: (@Sendable (Parameter) -> Bool)? = nil
    ) {
        self.init(
            body: .sync { _, parameter in try nonisolatedPerform(parameter) }, policy: policy,
            predicate: .nonisolated(canExecute), isMainActor: false, resolveOwner: nil)
    }

    /// Creates a nonisolated command whose body runs on a Dispatch queue and reports its end
    /// through a ``CommandResultRun``.
    ///
    /// - Parameters:
    ///   - queue: Where the body runs: a `DispatchQueue`, or a test scheduler.
    ///   - policy: What `execute` does while a run is going on.
    ///   - nonisolatedWork: The work, on `queue`; end the run exactly once through `done`.
    ///   - canExecute: The predicate, on the thread that asks; `nil` means always.
    public convenience init(
        queue: any WorkScheduler,
        policy: CommandPolicy = .ignoreWhileRunning,
        nonisolatedWork: @escaping @Sendable (Parameter, _ done: CommandResultRun<Output>) throws -> Void,
        canExecute: (@Sendable (Parameter) -> Bool)? = nil
    ) {
        self.init(
            body: .dispatch(queue) { _, parameter, run in try nonisolatedWork(parameter, run) }, policy: policy,
            predicate: .nonisolated(canExecute), isMainActor: false, resolveOwner: nil)
    }

    /// Creates a nonisolated command with an `async` body, which runs in a task of its own, off
    /// every actor. `cancel()` cancels the body's task.
    ///
    /// - Parameters:
    ///   - priority: The task's priority.
    ///   - policy: What `execute` does while a run is going on.
    ///   - nonisolatedTask: The work. Throwing `CancellationError` ends the run as cancelled; what
    ///     it returns reaches ``results``.
    ///   - canExecute: The predicate, on the thread that asks; `nil` means always.
    public convenience init(
        priority: TaskPriority? = nil,
        policy: CommandPolicy = .ignoreWhileRunning,
        nonisolatedTask: @escaping @Sendable (Parameter) async throws -> Output,
        canExecute: (@Sendable (Parameter) -> Bool)? = nil
    ) {
        self.init(
            body: .async(priority) { _, parameter in try await nonisolatedTask(parameter) }, policy: policy,
            predicate: .nonisolated(canExecute), isMainActor: false, resolveOwner: nil)
    }

    // MARK: - Erasing the owner

    /// The owner as the command resolves it: strongly for one call, `nil` once it is gone.
    static func weakly<Owner: AnyObject & Sendable>(_ delegate: Owner) -> @Sendable () -> AnyOwner? {
        { [weak delegate] in delegate }
    }

    /// The erased owner as the type the user's closures take.
    static func cast<Owner: AnyObject>(_ owner: AnyOwner) -> Owner {
        // Safe: only the closures that an initializer with a `delegate: Owner` makes call this,
        // with `Owner` that initializer's own generic parameter, and the owners they receive come
        // from the `resolveOwner` the same initializer made (`weakly(delegate)`), which returns
        // that delegate or `nil`, never another object. Commands made without an owner pass the
        // placeholder only to closures that ignore it.
        unsafeDowncast(owner, to: Owner.self)
    }
}

extension CommandWithResult.Predicate {
    /// A main-actor predicate that takes the owner.
    static func owned<Owner: AnyObject & Sendable>(_ canExecute: (@MainActor (Owner, Parameter) -> Bool)?) -> Self {
        guard let canExecute else { return .always }
        return .mainActor { owner, parameter in canExecute(CommandWithResult.cast(owner), parameter) }
    }

    /// A nonisolated predicate of a command without an owner.
    static func nonisolated(_ canExecute: (@Sendable (Parameter) -> Bool)?) -> Self {
        guard let canExecute else { return .always }
        return .nonisolated { _, parameter in canExecute(parameter) }
    }
}
