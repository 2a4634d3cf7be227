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

    private var executing: Bool
    private var error: (any Error)?
    /// Grows each time `canExecute` may have changed; read to track it.
    private var canExecuteRevision = 0
    private var tokens: [SubscriptionToken] = []
    private let registrar = ObservationRegistrar()

    /// Follows `command`'s state from now on.
    ///
    /// - Parameter command: The command.
    public init(_ command: CommandWithResult<Parameter, Output>) {
        self.command = command
        executing = command.isExecuting
        let box = WeakBox<ObservedCommand>()
        tokens = [
            command.executingChanges.subscribe { isExecuting in box.value?.executingChanged(isExecuting) },
            command.errors.subscribe { error in box.value?.failed(error) },
            command.canExecuteChanges.subscribe { box.value?.canExecuteChanged() },
        ]
        box.value = self
    }

    /// Whether a run is going on or queued.
    public var isExecuting: Bool {
        registrar.access(self, keyPath: \.isExecuting)
        return executing
    }

    /// The error of the last run that failed, until the next run starts.
    public var lastError: (any Error)? {
        registrar.access(self, keyPath: \.lastError)
        return error
    }

    /// Whether `execute(parameter:)` would start a run now; a body that reads it is invalidated
    /// when that may have changed.
    ///
    /// - Parameter parameter: The value the run would get.
    public func canExecute(parameter: Parameter) -> Bool {
        registrar.access(self, keyPath: \.canExecuteRevision)
        return command.canExecute(parameter: parameter)
    }

    private func executingChanged(_ isExecuting: Bool) {
        guard isExecuting != executing else { return }
        registrar.withMutation(of: self, keyPath: \.isExecuting) { executing = isExecuting }
        if isExecuting && error != nil {
            registrar.withMutation(of: self, keyPath: \.lastError) { error = nil }
        }
    }

    private func failed(_ failure: any Error) {
        registrar.withMutation(of: self, keyPath: \.lastError) { error = failure }
    }

    private func canExecuteChanged() {
        registrar.withMutation(of: self, keyPath: \.canExecuteRevision) { canExecuteRevision &+= 1 }
    }
}

@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
extension ObservedCommand where Parameter == Void {
    /// Whether `execute()` would start a run now; a body that reads it is invalidated when that may
    /// have changed.
    public var canExecute: Bool { canExecute(parameter: ()) }
}
