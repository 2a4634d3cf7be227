#if canImport(AppKit) && !targetEnvironment(macCatalyst)
import AppKit

// Thin glue: the lifecycle rules live in `ViewLifecycleState` and `Presenter`, tested on Linux.

/// An `NSViewController` base that forwards every lifecycle step to its presenter.
///
/// AppKit does not say when a controller leaves for good; call ``presenterDestroyed()`` when you
/// close its window or remove it, so the presenter hears ``ViewLifecycleEvent/destroyed``.
open class ViewController<PresenterKind: PresenterType>: NSViewController {
    /// The presenter; set it before the view loads.
    public var presenter: PresenterKind!

    open override func viewDidLoad() {
        super.viewDidLoad()
        presenter?.receive(.created)
    }

    open override func viewWillAppear() {
        super.viewWillAppear()
        presenter?.receive(.willAppear)
    }

    open override func viewDidAppear() {
        super.viewDidAppear()
        presenter?.receive(.didAppear)
    }

    open override func viewWillDisappear() {
        super.viewWillDisappear()
        presenter?.receive(.willDisappear)
    }

    open override func viewDidDisappear() {
        super.viewDidDisappear()
        presenter?.receive(.didDisappear)
    }

    /// Tells the presenter that the view is gone for good.
    public func presenterDestroyed() {
        presenter?.receive(.destroyed)
    }
}
#endif
