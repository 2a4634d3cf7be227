// The lifecycle of a presenter behind a SwiftUI view. SwiftUI has no view controller to forward
// `viewDidLoad` and the four appearance steps; a view tells its presenter when it appears and
// disappears (`.onAppear { presenter.receiveOnAppear() }`, `.onDisappear { … }`), and these map
// them onto the presenter's hooks.

extension Presenter {
    /// Forwards a SwiftUI view's `onAppear`: ``ViewLifecycleEvent/created`` the first time (so
    /// ``viewCreated()`` runs once, as after `viewDidLoad`), then ``ViewLifecycleEvent/willAppear``
    /// and ``ViewLifecycleEvent/didAppear``.
    ///
    /// A view that appears again after it disappeared gets the two appearance hooks only. Nothing
    /// happens once the presenter heard ``ViewLifecycleEvent/destroyed``.
    public func receiveOnAppear() {
        guard lifecycle != .destroyed else { return }
        if lifecycle == .initial { receive(.created) }
        receive(.willAppear)
        receive(.didAppear)
    }

    /// Forwards a SwiftUI view's `onDisappear`: ``ViewLifecycleEvent/willDisappear`` then
    /// ``ViewLifecycleEvent/didDisappear``, which cancels ``visibilityTokens``.
    ///
    /// SwiftUI does not say whether the view will come back; a presenter that owns work for the
    /// view's whole life keeps it in ``lifetimeTokens``, cancelled when the presenter is released
    /// or hears ``ViewLifecycleEvent/destroyed``.
    public func receiveOnDisappear() {
        guard lifecycle == .visible || lifecycle == .appearing else { return }
        receive(.willDisappear)
        receive(.didDisappear)
    }
}
