/// Keeps a control, spinner or refresh control in step with a command, on the main actor: what
/// ``CommandType/bind(to:parameter:)-(CommandControl,_)`` and its two siblings return.
///
/// - A bound control is enabled exactly when `canExecute(parameter:)` holds, re-checked each time
///   the command says it may have changed; the control's trigger (a tap) calls ``trigger()``.
/// - ``trigger()`` executes the command with the current parameter if it can; a disabled control's
///   tap never starts a run, and neither does a second tap while a run is going on.
/// - A spinner animates while the command executes; a refresh control's pull executes the command,
///   and its spinner ends when the command stops executing.
///
/// The binding holds the command strongly and the views weakly. Keep it for as long as the views
/// should follow the command; ``unbind()`` or deallocation ends it.
@MainActor
public final class CommandBinding<Command: CommandType> {
    /// The command the views follow.
    public let command: Command
    /// Returns the parameter for each check and run; `nil` for a spinner's binding, which
    /// neither checks nor runs.
    private let parameter: (() -> Command.Parameter)?
    private weak var control: (any CommandControl)?
    private weak var indicator: (any ActivityIndicating)?
    private weak var refresh: (any RefreshIndicating)?
    private var tokens: [SubscriptionToken] = []

    /// Creates a binding that follows `command`, with no view yet.
    init(command: Command, parameter: (() -> Command.Parameter)?) {
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

    /// Enables `control` exactly when the command can execute, and triggers on its action.
    func enable(_ control: any CommandControl) -> Self {
        self.control = control
        control.addCommandTrigger { [weak self] in _ = self?.trigger() }
        refreshState()
        return self
    }

    /// Animates `indicator` while the command executes.
    func indicate(with indicator: any ActivityIndicating) -> Self {
        self.indicator = indicator
        show(executing: command.isExecuting)
        return self
    }

    /// Triggers on `refresh`'s pull, and ends its spinner when the command stops executing.
    func refresh(with refresh: any RefreshIndicating) -> Self {
        self.refresh = refresh
        refresh.addCommandTrigger { [weak self] in _ = self?.trigger() }
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
    /// - Precondition: The binding has a control or a refresh control (a spinner's binding has no
    ///   parameter to execute with).
    @discardableResult
    public func trigger() -> CommandExecution {
        guard let parameter else {
            preconditionFailure(
                "CommandBinding.trigger(): this binding only animates a spinner, so it has no parameter to execute \(Command.self) with; trigger the binding of a control instead"
            )
        }
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
        guard let control, let parameter else { return }
        control.isEnabled = command.canExecute(parameter: parameter())
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

extension CommandType {
    /// Binds `control`: enabled exactly while the command can execute with the current parameter;
    /// its action (a tap) executes the command. On UIKit, any `UIControl`, on its
    /// `.primaryActionTriggered` event.
    ///
    /// - Parameters:
    ///   - control: A button or any control, held weakly.
    ///   - parameter: Returns the parameter for each check and run, such as a text field's text.
    /// - Returns: The binding; keep it as long as the control should follow the command.
    @MainActor
    public func bind(to control: some CommandControl, parameter: @escaping () -> Parameter) -> CommandBinding<Self> {
        CommandBinding(command: self, parameter: parameter).enable(control)
    }

    /// Binds a pull-to-refresh control: a pull executes the command, and the spinner ends when
    /// the command stops executing (STT's `useRefresh`). On UIKit, a `UIRefreshControl`.
    ///
    /// - Parameters:
    ///   - refresh: The refresh control, held weakly.
    ///   - parameter: Returns the parameter for each run.
    /// - Returns: The binding; keep it as long as the control should follow the command.
    @MainActor
    public func bind(to refresh: some RefreshIndicating, parameter: @escaping () -> Parameter) -> CommandBinding<Self> {
        CommandBinding(command: self, parameter: parameter).refresh(with: refresh)
    }
}

extension CommandType where Parameter == Void {
    /// Binds `control` to a command without a parameter, as ``bind(to:parameter:)-(CommandControl,_)``.
    ///
    /// - Parameter control: A button or any control, held weakly.
    /// - Returns: The binding; keep it as long as the control should follow the command.
    @MainActor
    public func bind(to control: some CommandControl) -> CommandBinding<Self> {
        bind(to: control, parameter: {})
    }

    /// Binds a pull-to-refresh control to a command without a parameter.
    ///
    /// - Parameter refresh: The refresh control, held weakly.
    /// - Returns: The binding; keep it as long as the control should follow the command.
    @MainActor
    public func bind(to refresh: some RefreshIndicating) -> CommandBinding<Self> {
        bind(to: refresh, parameter: {})
    }
}

extension CommandType {
    /// Animates `indicator` while the command executes (STT's `useIndicator`). On UIKit, a
    /// `UIActivityIndicatorView`.
    ///
    /// - Parameter indicator: The spinner, held weakly.
    /// - Returns: The binding; keep it as long as the spinner should follow the command.
    @MainActor
    public func bind(to indicator: some ActivityIndicating) -> CommandBinding<Self> {
        CommandBinding(command: self, parameter: nil).indicate(with: indicator)
    }
}
