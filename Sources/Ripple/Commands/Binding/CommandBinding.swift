/// Keeps a control, spinner or refresh control in step with a command, on the main actor.
///
/// This is the platform-independent logic behind the UIKit helpers (`bind(to:)`, `useIndicator`,
/// `useRefresh`); tests drive it on Linux through ``CommandControl``, ``ActivityIndicating`` and
/// ``RefreshIndicating`` doubles.
///
/// - A bound control is enabled exactly when `canExecute(parameter:)` holds, re-checked each time
///   the command says it may have changed.
/// - ``trigger()`` executes the command with the current parameter if it can; a disabled control's
///   tap never starts a run, and neither does a second tap while a run is going on.
/// - A spinner animates while the command executes; a refresh control shows the run it started and
///   ends when the command stops executing.
///
/// The binding holds the command strongly and the views weakly. Keep it for as long as the views
/// should follow the command; ``unbind()`` or deallocation ends it.
@MainActor
public final class CommandBinding<Command: CommandType> {
    /// The command the views follow.
    public let command: Command
    private let parameter: () -> Command.Parameter
    private weak var control: (any CommandControl)?
    private weak var indicator: (any ActivityIndicating)?
    private weak var refresh: (any RefreshIndicating)?
    private var tokens: [SubscriptionToken] = []

    /// Creates a binding.
    ///
    /// - Parameters:
    ///   - command: The command.
    ///   - parameter: Returns the parameter for each check and run, e.g. a text field's text.
    public init(command: Command, parameter: @escaping () -> Command.Parameter) {
        self.command = command
        self.parameter = parameter
        tokens.append(
            command.canExecuteChanges.subscribe { [weak self] _ in
                self?.refreshState()
            })
        tokens.append(
            // The event says the state changed; the command says what it is now. An event can be
            // stale: the current state replayed to this subscription arrives on the main queue
            // after a run that a pull started in the meantime.
            command.executingChanges.subscribe { [weak self] _ in
                guard let self else { return }
                self.show(executing: self.command.isExecuting)
            })
    }

    /// Enables `control` exactly when the command can execute.
    ///
    /// - Parameter control: The control, held weakly.
    /// - Returns: The binding, for chaining.
    @discardableResult
    public func enable(_ control: any CommandControl) -> Self {
        self.control = control
        refreshState()
        return self
    }

    /// Animates `indicator` while the command executes.
    ///
    /// - Parameter indicator: The spinner, held weakly.
    /// - Returns: The binding, for chaining.
    @discardableResult
    public func indicate(with indicator: any ActivityIndicating) -> Self {
        self.indicator = indicator
        show(executing: command.isExecuting)
        return self
    }

    /// Ends `refresh`'s spinner when the command stops executing. Call ``trigger()`` from the
    /// refresh control's action.
    ///
    /// - Parameter refresh: The refresh control, held weakly.
    /// - Returns: The binding, for chaining.
    @discardableResult
    public func refresh(with refresh: any RefreshIndicating) -> Self {
        self.refresh = refresh
        show(executing: command.isExecuting)
        return self
    }

    /// Executes the command with the current parameter, if it can execute: the command's own
    /// atomic check-and-start decides, so a tap on a control that is about to be disabled, or a
    /// second tap during a run, starts nothing.
    ///
    /// A refused run ends a refresh control's spinner at once.
    ///
    /// - Returns: What ``CommandType/execute(parameter:)`` did: started, queued, or refused and why.
    @discardableResult
    public func trigger() -> CommandExecution {
        let execution = command.execute(parameter: parameter())
        if execution.refusal != nil { refresh?.endRefreshing() }
        refreshState()
        return execution
    }

    /// Stops following the command. The views keep their last state.
    public func unbind() {
        for token in tokens { token.cancel() }
        tokens.removeAll()
    }

    private func refreshState() {
        control?.isEnabled = command.canExecute(parameter: parameter())
    }

    private func show(executing: Bool) {
        if executing {
            indicator?.startAnimating()
        } else {
            indicator?.stopAnimating()
            if refresh?.isRefreshing == true { refresh?.endRefreshing() }
        }
        refreshState()
    }
}
