#if canImport(UIKit) && !os(watchOS)
import UIKit

// Thin glue: every decision lives in `CommandBinding`, tested on Linux. Controls reach the binding
// through target/action (iOS 13's API; `UIAction` handlers need iOS 14): a `CommandTrigger` that
// the control keeps alive (an associated object, as a control keeps its `UIAction`s) and that
// holds the binding weakly. UIKit sends actions on the main thread, to a main-actor method.

extension UIControl: CommandControl {}
extension UIActivityIndicatorView: ActivityIndicating {}
#if !os(tvOS)  // UIRefreshControl is unavailable on tvOS.
extension UIRefreshControl: RefreshIndicating {}
#endif

extension CommandType {
    /// Binds `control`: enabled while the command can execute; `event` executes it.
    ///
    /// - Parameters:
    ///   - control: A button or any control.
    ///   - event: The event that executes the command.
    ///   - parameter: Returns the parameter for each check and run.
    /// - Returns: The binding; keep it as long as the control should follow the command.
    @MainActor
    public func bind(
        to control: UIControl, for event: UIControl.Event = .primaryActionTriggered,
        parameter: @escaping () -> Parameter
    ) -> CommandBinding<Self> {
        let binding = CommandBinding(command: self, parameter: parameter).enable(control)
        CommandTrigger.attach(to: control, for: event) { [weak binding] in _ = binding?.trigger() }
        return binding
    }

    /// Animates `indicator` while the command executes (STT's `useIndicator`).
    ///
    /// - Parameters:
    ///   - indicator: The spinner.
    ///   - parameter: Returns the parameter for `canExecute` checks.
    /// - Returns: The binding; keep it as long as the spinner should follow the command.
    @MainActor
    public func useIndicator(
        _ indicator: UIActivityIndicatorView, parameter: @escaping () -> Parameter
    ) -> CommandBinding<Self> {
        CommandBinding(command: self, parameter: parameter).indicate(with: indicator)
    }

    #if !os(tvOS)  // UIRefreshControl is unavailable on tvOS.
    /// Executes the command on pull to refresh and ends the spinner when it stops (STT's
    /// `useRefresh`).
    ///
    /// - Parameters:
    ///   - refreshControl: The refresh control.
    ///   - parameter: Returns the parameter for each run.
    /// - Returns: The binding; keep it as long as the control should follow the command.
    @MainActor
    public func useRefresh(
        _ refreshControl: UIRefreshControl, parameter: @escaping () -> Parameter
    ) -> CommandBinding<Self> {
        let binding = CommandBinding(command: self, parameter: parameter).refresh(with: refreshControl)
        CommandTrigger.attach(to: refreshControl, for: .valueChanged) { [weak binding] in _ = binding?.trigger() }
        return binding
    }
    #endif
}

extension CommandType where Parameter == Void {
    /// Binds `control` to a command without a parameter.
    ///
    /// - Parameters:
    ///   - control: A button or any control.
    ///   - event: The event that executes the command.
    /// - Returns: The binding; keep it as long as the control should follow the command.
    @MainActor
    public func bind(to control: UIControl, for event: UIControl.Event = .primaryActionTriggered) -> CommandBinding<
        Self
    > {
        bind(to: control, for: event, parameter: {})
    }
}
/// The target of a bound control's action: runs `fire` each time the control sends it.
///
/// The control holds it strongly (an associated object keyed by the trigger itself), so it lives as
/// long as the control, like a `UIAction` would; `fire` holds the binding weakly, so a released
/// binding leaves a trigger that does nothing.
@MainActor
private final class CommandTrigger: NSObject {
    private let fire: @MainActor () -> Void

    private init(_ fire: @escaping @MainActor () -> Void) {
        self.fire = fire
    }

    @objc func rippleCommandTriggered() {
        fire()
    }

    static func attach(to control: UIControl, for event: UIControl.Event, _ fire: @escaping @MainActor () -> Void) {
        let trigger = CommandTrigger(fire)
        objc_setAssociatedObject(
            control, Unmanaged.passUnretained(trigger).toOpaque(), trigger, .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
        control.addTarget(trigger, action: #selector(rippleCommandTriggered), for: event)
    }
}
#endif
