/// What every command offers, so that UI helpers (button bindings, spinners, refresh controls) work
/// with any command, Ripple's or your own.
public protocol CommandType: AnyObject, Sendable {
    /// The value `execute` takes; `Void` for a plain ``Command``.
    associatedtype Parameter: Sendable

    /// Whether a run is going on (or queued).
    var isExecuting: Bool { get }

    /// Whether `execute(parameter:)` would start a run now.
    ///
    /// - Parameter parameter: The value the run would get.
    func canExecute(parameter: Parameter) -> Bool

    /// Starts a run if the command can execute.
    ///
    /// - Parameter parameter: The value the run gets.
    /// - Returns: What happened: the run started, was queued, was handed to the main actor, or was
    ///   refused, and why. Never `.started` for a run that will not happen.
    @discardableResult
    func execute(parameter: Parameter) -> CommandExecution

    /// Cancels every running and queued run.
    func cancel()

    /// `true` when a run starts, `false` when the last one ends. Replays the current state to new
    /// subscribers.
    var executingChanges: EventStream<Bool> { get }

    /// Fires whenever `canExecute` may have changed; query it again then.
    var canExecuteChanges: EventStream<Void> { get }

    /// Every error a run reports.
    var errors: EventStream<any Error> { get }
}
