#if canImport(Combine)
import Combine

/// ``ObservedCommand`` for iOS 13 to 16 and macOS 10.15 to 13, where Observation is missing: the
/// same command state, published to SwiftUI through `ObservableObject`. The SwiftUI control
/// `CommandButton` uses it on every version.
///
/// `objectWillChange` fires before ``isExecuting`` or ``lastError`` changes, and whenever
/// `canExecute` may have changed.
@MainActor
public final class ObservedCommandObject<Parameter: Sendable, Output: Sendable>: ObservableObject {
    /// The command whose state this is; execute and run it directly.
    public let command: CommandWithResult<Parameter, Output>

    private var status: CommandStatus
    private var tokens: [SubscriptionToken] = []

    /// Follows `command`'s state from now on.
    ///
    /// - Parameter command: The command.
    public init(_ command: CommandWithResult<Parameter, Output>) {
        self.command = command
        status = CommandStatus(isExecuting: command.isExecuting)
        let box = WeakBox<ObservedCommandObject>()
        tokens = CommandStatus.follow(command) { change in
            guard let observed = box.value, !observed.status.fields(changedBy: change).isEmpty else { return }
            observed.objectWillChange.send()
            observed.status.apply(change)
        }
        box.value = self
    }

    /// Whether a run is going on or queued.
    public var isExecuting: Bool { status.isExecuting }

    /// The error of the last run that failed, until the next run starts.
    public var lastError: (any Error)? { status.lastError }

    /// Whether `execute(parameter:)` would start a run now.
    ///
    /// - Parameter parameter: The value the run would get.
    public func canExecute(parameter: Parameter) -> Bool { command.canExecute(parameter: parameter) }
}

extension ObservedCommandObject where Parameter == Void {
    /// Whether `execute()` would start a run now.
    public var canExecute: Bool { canExecute(parameter: ()) }
}
#endif
