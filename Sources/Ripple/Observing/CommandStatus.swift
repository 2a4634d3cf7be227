// What SwiftUI shows of a command: whether it executes, its last error, and when `canExecute` may
// have changed. One state, behind `ObservedCommand` (Observation) and `ObservedCommandObject`
// (`ObservableObject`), which differ only in how they announce a change.

/// A command's state as a SwiftUI view shows it, and how each of the command's events changes it.
struct CommandStatus {
    /// Whether a run is going on or queued.
    private(set) var isExecuting: Bool
    /// The error of the last run that failed, until the next run starts.
    private(set) var lastError: (any Error)?
    /// Grows each time `canExecute` may have changed.
    private(set) var canExecuteRevision = 0

    init(isExecuting: Bool) {
        self.isExecuting = isExecuting
    }

    /// One event of the command.
    enum Change {
        case executing(Bool)
        case failed(any Error)
        case canExecute
    }

    /// A field a change may change.
    enum Field {
        case isExecuting, lastError, canExecute
    }

    /// The fields `change` would change, in the order ``apply(_:)`` changes them.
    func fields(changedBy change: Change) -> [Field] {
        switch change {
        case .executing(let now):
            guard now != isExecuting else { return [] }
            return now && lastError != nil ? [.isExecuting, .lastError] : [.isExecuting]
        case .failed: return [.lastError]
        case .canExecute: return [.canExecute]
        }
    }

    /// Applies `change`: a run that starts clears the last error.
    ///
    /// - Returns: The fields it changed.
    @discardableResult
    mutating func apply(_ change: Change) -> [Field] {
        let fields = fields(changedBy: change)
        switch change {
        case .executing(let now):
            isExecuting = now
            if fields.contains(.lastError) { lastError = nil }
        case .failed(let error): lastError = error
        case .canExecute: canExecuteRevision &+= 1
        }
        return fields
    }

    /// Subscribes `handle` to `command`'s events, on the main actor.
    @MainActor
    static func follow<Parameter, Output>(
        _ command: CommandWithResult<Parameter, Output>, _ handle: @escaping @MainActor (Change) -> Void
    ) -> [SubscriptionToken] {
        [
            command.executingChanges.subscribe { handle(.executing($0)) },
            command.errors.subscribe { handle(.failed($0)) },
            command.canExecuteChanges.subscribe { handle(.canExecute) },
        ]
    }
}
