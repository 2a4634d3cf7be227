import Observation

/// A command's state for SwiftUI, on the main actor, observable with Observation: whether it can
/// execute, whether it is executing, and the last error.
///
/// ```swift
/// @MainActor
/// final class InboxPresenter {
///     private(set) lazy var refresh = Command(delegate: self, task: { owner in try await owner.reload() })
///     lazy var refreshState = ObservedCommand(refresh)
///     func reload() async throws {}
/// }
///
/// // In a SwiftUI view:
/// // Button("Refresh") { presenter.refresh.execute() }.disabled(!presenter.refreshState.canExecute)
/// // List { … }.refreshable { await presenter.refresh.run() }
/// ```
///
/// A body that reads ``isExecuting``, ``lastError`` or ``canExecute(parameter:)`` is invalidated
/// when the command says that value may have changed (its `executingChanges`, `errors` and
/// `canExecuteChanges` streams), on the main actor.
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
@MainActor
public final class ObservedCommand<Parameter: Sendable, Output: Sendable>: Observable {
    /// The command whose state this is; execute and run it directly.
    public let command: CommandWithResult<Parameter, Output>

    private var status: CommandStatus
    private var tokens: [SubscriptionToken] = []
    private let registrar = ObservationRegistrar()

    /// Follows `command`'s state from now on.
    ///
    /// - Parameter command: The command.
    public init(_ command: CommandWithResult<Parameter, Output>) {
        self.command = command
        status = CommandStatus(isExecuting: command.isExecuting)
        let box = WeakBox<ObservedCommand>()
        tokens = CommandStatus.follow(command) { change in
            guard let observed = box.value else { return }
            for field in observed.status.fields(changedBy: change) {
                switch field {
                case .isExecuting: observed.registrar.willSet(observed, keyPath: \.isExecuting)
                case .lastError: observed.registrar.willSet(observed, keyPath: \.lastError)
                case .canExecute: observed.registrar.willSet(observed, keyPath: \.canExecuteRevision)
                }
            }
            let changed = observed.status.apply(change)
            for field in changed {
                switch field {
                case .isExecuting: observed.registrar.didSet(observed, keyPath: \.isExecuting)
                case .lastError: observed.registrar.didSet(observed, keyPath: \.lastError)
                case .canExecute: observed.registrar.didSet(observed, keyPath: \.canExecuteRevision)
                }
            }
        }
        box.value = self
    }

    /// Whether a run is going on or queued.
    public var isExecuting: Bool {
        registrar.access(self, keyPath: \.isExecuting)
        return status.isExecuting
    }

    /// The error of the last run that failed, until the next run starts.
    public var lastError: (any Error)? {
        registrar.access(self, keyPath: \.lastError)
        return status.lastError
    }

    /// Grows each time `canExecute` may have changed; read to track it.
    private var canExecuteRevision: Int { status.canExecuteRevision }

    /// Whether `execute(parameter:)` would start a run now; a body that reads it is invalidated
    /// when that may have changed.
    ///
    /// - Parameter parameter: The value the run would get.
    public func canExecute(parameter: Parameter) -> Bool {
        registrar.access(self, keyPath: \.canExecuteRevision)
        return command.canExecute(parameter: parameter)
    }
}

@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
extension ObservedCommand where Parameter == Void {
    /// Whether `execute()` would start a run now; a body that reads it is invalidated when that may
    /// have changed.
    public var canExecute: Bool { canExecute(parameter: ()) }
}
