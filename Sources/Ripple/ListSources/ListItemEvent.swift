import RippleDiff

/// Something the user did to an item of a list, forwarded by a list source with the item's
/// presenter.
public enum ListItemEvent: String, Sendable, Hashable, CaseIterable {
    /// The item was selected (tapped).
    case selected
    /// The item was deselected.
    case deselected
    /// The item was highlighted (touch down).
    case highlighted
    /// The item's highlight ended.
    case unhighlighted
    /// The item's cell is about to be displayed.
    case willDisplay
    /// The item's cell left the screen.
    case didEndDisplaying
}

/// Why a list source reloaded its view instead of animating a change.
public enum ListReloadReason: Sendable, Hashable, CustomStringConvertible {
    /// The first state, handed over when the source subscribed.
    case initial
    /// The view is not in a window; animating would be wasted, and UIKit may reject it.
    case notInWindow
    /// The change touched more items than the source's ``ListSourceBase/reloadThreshold``.
    case overThreshold(changes: Int)
    /// The view's counts disagreed with the change's before-state, for example after the app
    /// called `reloadData()` itself. Reported to ``Diagnostics``.
    case countMismatch(view: [Int], expected: [Int])
    /// An event was missing: the source saw version `received` after `rendered`. Reported to
    /// ``Diagnostics``.
    case versionGap(rendered: Int, received: Int)
    /// The user moved an item while another change was on its way, or the collection's next change
    /// was not that move: the view, which already showed the move, reloads to show the list as it
    /// is. Not reported: concurrent changes make it happen.
    case interruptedMove

    /// A short description, such as `the view shows item counts [3], the change expects [4]`. Lists of
    /// more than 20 counts show the first 20 and how many more there are.
    public var description: String {
        switch self {
        case .initial: "initial state"
        case .notInWindow: "the view is not in a window"
        case .overThreshold(let changes): "\(changes) changes are over the reload threshold"
        case .countMismatch(let view, let expected):
            "the view shows item counts \(_cappedList(view)), the change expects \(_cappedList(expected))"
        case .versionGap(let rendered, let received):
            "version \(received) arrived after version \(rendered)"
        case .interruptedMove: "the user's move was not the collection's next change"
        }
    }
}
