/// A control a command can enable, disable and be triggered by: `UIControl` (a button…), or a
/// test double. ``CommandType/bind(to:parameter:)-(CommandControl,_)`` binds one.
@MainActor
public protocol CommandControl: AnyObject {
    /// Whether the control accepts input.
    var isEnabled: Bool { get set }

    /// Calls `action` each time the user triggers the control (a tap on a button, a pull on a
    /// refresh control), for as long as the control lives. The binding calls it once.
    ///
    /// - Parameter action: Executes the command; it holds the binding weakly.
    func addCommandTrigger(_ action: @escaping @MainActor () -> Void)
}

/// A spinner a command can start and stop while it executes: `UIActivityIndicatorView`, or a
/// test double.
@MainActor
public protocol ActivityIndicating: AnyObject {
    /// Shows and animates the spinner.
    func startAnimating()
    /// Stops and hides the spinner.
    func stopAnimating()
}

/// A pull-to-refresh control that triggers a command and shows its progress: `UIRefreshControl`,
/// or a test double.
@MainActor
public protocol RefreshIndicating: CommandControl {
    /// Whether the control shows that a refresh is going on.
    var isRefreshing: Bool { get }
    /// Shows that a refresh is going on.
    func beginRefreshing()
    /// Shows that the refresh has ended.
    func endRefreshing()
}
