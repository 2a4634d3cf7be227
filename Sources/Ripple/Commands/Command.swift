/// A command without a parameter and without a value: `CommandWithResult<Void, Void>`.
///
/// <!-- swift
/// protocol LoginView: Viewable {}
/// extension LoginPresenter {
///     var canLogin: Bool { true }
///     func performLogin() async throws {}
/// }
/// let presenter = LoginPresenter()
/// -->
/// ```swift
/// @MainActor final class LoginPresenter: Presenter<any LoginView> {
///     private(set) lazy var login = Command(
///         delegate: self,
///         task: { try await $0.performLogin() },
///         canExecute: { $0.canLogin })
/// }
///
/// presenter.login.execute()              // .started, or .refused(.cannotExecute), …
/// let outcome = await presenter.login.run()
/// ```
public typealias Command = CommandWithResult<Void, Void>

extension CommandWithResult where Parameter == Void {
    /// Creates a main-actor command without a parameter, with a synchronous body, bound weakly to
    /// its owner. The closures take the owner alone: `perform: { $0.save() }`.
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
        perform: @escaping @MainActor (Owner) throws -> Output,
        canExecute: (@MainActor (Owner) -> Bool)? = nil
    ) {
        self.init(
            delegate: delegate, policy: policy, perform: { owner, _ in try perform(owner) },
            canExecute: Self.dropParameter(canExecute))
    }

    /// Creates a main-actor command without a parameter, with an `async` body, bound weakly to its
    /// owner. The closures take the owner alone: `task: { try await $0.load() }`.
    ///
    /// - Parameters:
    ///   - delegate: The owner, held weakly. The task holds it strongly only while the body runs.
    ///   - priority: The task's priority.
    ///   - policy: What `execute` does while a run is going on.
    ///   - task: The work, in a task on the main actor. Throwing `CancellationError` ends the run
    ///     as cancelled; what it returns reaches ``results``.
    ///   - canExecute: The predicate, on the main actor; `nil` means always.
    public convenience init<Owner: AnyObject & Sendable>(
        delegate: Owner,
        priority: TaskPriority? = nil,
        policy: CommandPolicy = .ignoreWhileRunning,
        task: @escaping @MainActor (Owner) async throws -> Output,
        canExecute: (@MainActor (Owner) -> Bool)? = nil
    ) {
        self.init(
            delegate: delegate, priority: priority, policy: policy,
            task: { owner, _ in try await task(owner) },
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
