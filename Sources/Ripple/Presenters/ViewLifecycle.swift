/// A step of a view's life that a view controller forwards to its presenter.
///
/// UIKit's and AppKit's view controllers send these in a fixed order: ``created`` once, then any
/// number of appear/disappear cycles, then ``destroyed`` once. The presenter checks that order.
public enum ViewLifecycleEvent: String, Sendable, Hashable, CaseIterable {
    /// The view was loaded (`viewDidLoad`).
    case created
    /// The view is about to appear (`viewWillAppear`).
    case willAppear
    /// The view appeared (`viewDidAppear`).
    case didAppear
    /// The view is about to disappear (`viewWillDisappear`).
    case willDisappear
    /// The view disappeared (`viewDidDisappear`).
    case didDisappear
    /// The view is gone for good: its controller was dismissed or deallocated.
    case destroyed
}

/// Where a view is in its life, as its presenter sees it.
public enum ViewLifecycleState: String, Sendable, Hashable {
    /// No view has been created yet.
    case initial
    /// The view exists and is not on screen (after ``ViewLifecycleEvent/created`` or
    /// ``ViewLifecycleEvent/didDisappear``).
    case hidden
    /// The view is appearing.
    case appearing
    /// The view is on screen.
    case visible
    /// The view is disappearing.
    case disappearing
    /// The view is gone; no further event is expected.
    case destroyed

    /// The state after `event`, or `nil` when UIKit's order does not allow `event` now.
    ///
    /// An interrupted transition is allowed, as UIKit allows it: a view may start to disappear
    /// while it appears, and appear again while it disappears. ``ViewLifecycleEvent/destroyed``
    /// is allowed from every state but ``destroyed``.
    ///
    /// - Parameter event: The event that arrived.
    /// - Returns: The next state, or `nil` for an event out of order.
    public func next(after event: ViewLifecycleEvent) -> ViewLifecycleState? {
        switch (self, event) {
        case (.initial, .created): .hidden
        case (.hidden, .willAppear), (.disappearing, .willAppear): .appearing
        case (.appearing, .didAppear): .visible
        case (.visible, .willDisappear), (.appearing, .willDisappear): .disappearing
        case (.disappearing, .didDisappear): .hidden
        case (.destroyed, _): nil
        case (_, .destroyed): .destroyed
        default: nil
        }
    }
}

extension PresenterType {
    /// Forwards a view controller's `viewDidLoad`: adopts `controller` as the view when it fits
    /// (``adoptView(_:)``), then sends ``ViewLifecycleEvent/created``, so that ``Presenter/viewCreated()``
    /// already sees its view.
    ///
    /// Ripple's UIKit and AppKit `ViewController` bases call this. (`package`: a controller of
    /// your own calls ``Presenter/injectView(_:)``, which the compiler checks, then
    /// `receive(.created)`.)
    ///
    /// - Parameter controller: The view controller whose view loaded.
    package func receiveCreation(of controller: AnyObject) {
        adoptView(controller)
        receive(.created)
    }

    /// Forwards a view's disappearance, and its destruction when it is leaving for good.
    ///
    /// View-controller bases call this from `viewDidDisappear`, with `leavingForGood` set when the
    /// controller is being popped or dismissed, so the presenter hears ``ViewLifecycleEvent/destroyed``
    /// while the controller is still alive (its `deinit` cannot call into main-actor state).
    ///
    /// - Parameter leavingForGood: Whether the view will not appear again.
    public func receiveDisappearance(leavingForGood: Bool) {
        receive(.didDisappear)
        if leavingForGood { receive(.destroyed) }
    }
}
