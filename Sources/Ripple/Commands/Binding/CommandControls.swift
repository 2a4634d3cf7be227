/// A control a command can enable and disable: `UIControl`, `NSControl`, or a test double.
@MainActor
public protocol CommandControl: AnyObject {
    /// Whether the control accepts input.
    var isEnabled: Bool { get set }
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
public protocol RefreshIndicating: AnyObject {
    /// Whether the control shows that a refresh is going on.
    var isRefreshing: Bool { get }
    /// Shows that a refresh is going on.
    func beginRefreshing()
    /// Shows that the refresh has ended.
    func endRefreshing()
}
