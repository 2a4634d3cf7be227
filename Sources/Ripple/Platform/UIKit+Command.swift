#if canImport(UIKit) && !os(watchOS)
import UIKit

// Thin glue: every decision lives in `CommandBinding`, tested on Linux. UIKit runs control
// actions on the main thread; `assumeIsolated` states it whatever isolation the SDK's
// `UIActionHandler` type declares.

extension UIControl: CommandControl {}
extension UIActivityIndicatorView: ActivityIndicating {}
extension UIRefreshControl: RefreshIndicating {}

extension CommandType {
    /// Binds `control`: enabled while the command can execute; `event` executes it.
    ///
    /// - Parameters:
    ///   - control: A button or any control.
    ///   - event: The event that executes the command.
    ///   - parameter: Returns the parameter for each check and run.
    /// - Returns: The binding; keep it as long as the control should follow the command.
    @available(iOS 14, tvOS 14, macCatalyst 14, *)
    @MainActor
    public func bind(
        to control: UIControl, for event: UIControl.Event = .primaryActionTriggered,
        parameter: @escaping () -> Parameter
    ) -> CommandBinding<Self> {
        let binding = CommandBinding(command: self, parameter: parameter).enable(control)
        control.addAction(UIAction { [weak binding] _ in MainActor.assumeIsolated { _ = binding?.trigger() } }, for: event)
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

    /// Executes the command on pull to refresh and ends the spinner when it stops (STT's
    /// `useRefresh`).
    ///
    /// - Parameters:
    ///   - refreshControl: The refresh control.
    ///   - parameter: Returns the parameter for each run.
    /// - Returns: The binding; keep it as long as the control should follow the command.
    @available(iOS 14, tvOS 14, macCatalyst 14, *)
    @MainActor
    public func useRefresh(
        _ refreshControl: UIRefreshControl, parameter: @escaping () -> Parameter
    ) -> CommandBinding<Self> {
        let binding = CommandBinding(command: self, parameter: parameter).refresh(with: refreshControl)
        refreshControl.addAction(
            UIAction { [weak binding] _ in MainActor.assumeIsolated { _ = binding?.trigger() } }, for: .valueChanged)
        return binding
    }
}

extension CommandType where Parameter == Void {
    /// Binds `control` to a command without a parameter.
    ///
    /// - Parameters:
    ///   - control: A button or any control.
    ///   - event: The event that executes the command.
    /// - Returns: The binding; keep it as long as the control should follow the command.
    @available(iOS 14, tvOS 14, macCatalyst 14, *)
    @MainActor
    public func bind(to control: UIControl, for event: UIControl.Event = .primaryActionTriggered) -> CommandBinding<Self> {
        bind(to: control, for: event, parameter: {})
    }
}
#endif
