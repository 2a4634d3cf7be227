// The lifecycle of a presenter behind a SwiftUI view. SwiftUI has no view controller to forward
// `viewDidLoad` and the four appearance steps; the SwiftUI modifier `presenter(_:view:)` tells the
// presenter when its view appears and disappears, and these map them onto the presenter's hooks,
// giving it its view (the object that adopts its view protocol) for as long as it shows.

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

    /// Forwards a SwiftUI view's `onAppear` and gives the presenter its view: injects `view`
    /// (``injectView(_:)``), then forwards the appearance as ``receiveOnAppear()``. The SwiftUI
    /// modifier `presenter(_:view:)` calls it; `view` is the object that adopts the presenter's
    /// view protocol (an `@Observable` model the SwiftUI view reads, say), held weakly as always.
    ///
    /// - Parameter view: The view, for as long as the SwiftUI view shows.
    public func receiveOnAppear(of view: View) {
        guard lifecycle != .destroyed else { return }
        injectView(view)
        receiveOnAppear()
    }

    /// Forwards a SwiftUI view's `onDisappear` as ``receiveOnDisappear()``, then lets go of
    /// `view` if it is still the presenter's view (a row's fresh presenter may have taken it).
    ///
    /// - Parameter view: The view given by ``receiveOnAppear(of:)``.
    public func receiveOnDisappear(of view: View) {
        receiveOnDisappear()
        detachView(ifShownIn: view as AnyObject)
    }
}
