/// The edge of a cell that a swipe starts from.
public enum SwipeEdge: Sendable, Hashable {
    /// The leading edge: the left in a left-to-right language.
    case leading
    /// The trailing edge: the right in a left-to-right language.
    case trailing
}

/// An action shown when the user swipes a cell, described without UIKit: the glue makes a
/// `UIContextualAction` (or an `NSTableViewRowAction`) of it.
///
/// ```swift
/// import Ripple
///
/// @MainActor
/// func archiveAction(_ archive: Command) -> SwipeAction {
///     SwipeAction(title: "Archive", command: archive)
/// }
/// ```
public struct SwipeAction: Sendable {
    /// How an action looks.
    public enum Style: Sendable, Hashable {
        /// A plain action.
        case normal
        /// An action that deletes or loses something: red.
        case destructive
    }

    /// The action's title.
    public var title: String
    /// How it looks.
    public var style: Style
    /// Performs the action, on the main actor, and returns whether it was performed (UIKit
    /// closes the swipe either way).
    public var perform: @MainActor @Sendable () -> Bool

    /// Creates an action.
    ///
    /// - Parameters:
    ///   - title: The action's title.
    ///   - style: How it looks.
    ///   - perform: Performs the action, on the main actor; returns whether it was performed.
    public init(title: String, style: Style = .normal, perform: @escaping @MainActor @Sendable () -> Bool) {
        self.title = title
        self.style = style
        self.perform = perform
    }

    /// Creates an action that executes a command.
    ///
    /// - Parameters:
    ///   - title: The action's title.
    ///   - style: How it looks.
    ///   - command: Executed when the user taps the action; the action counts as performed unless
    ///     the command refused the run (a run started, was queued, or was handed to the main actor).
    public init<Action: CommandType>(title: String, style: Style = .normal, command: Action)
    where Action.Parameter == Void {
        self.init(title: title, style: style) { command.execute(parameter: ()).refusal == nil }
    }
}
