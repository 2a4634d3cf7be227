#if canImport(UIKit) && !os(watchOS)
import UIKit

// Thin glue: every decision lives in `CommandBinding` and `bind(to:)`, tested on Linux. Controls
// reach the binding through target/action (iOS 13's API; `UIAction` handlers need iOS 14): a `CommandTrigger` that
// the control keeps alive (an associated object, as a control keeps its `UIAction`s) and that
// holds the binding weakly. UIKit sends actions on the main thread, to a main-actor method.

extension UIControl: CommandControl {
    /// Calls `action` on `.primaryActionTriggered` (a `UIRefreshControl`: `.valueChanged`).
    ///
    /// - Parameter action: Executes the command.
    public func addCommandTrigger(_ action: @escaping @MainActor () -> Void) {
        #if !os(tvOS)
        let event: UIControl.Event = self is UIRefreshControl ? .valueChanged : .primaryActionTriggered
        #else
        let event = UIControl.Event.primaryActionTriggered
        #endif
        CommandTrigger.attach(to: self, for: event, action)
    }
}
extension UIActivityIndicatorView: ActivityIndicating {}
#if !os(tvOS)  // UIRefreshControl is unavailable on tvOS.
extension UIRefreshControl: RefreshIndicating {}
#endif

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
