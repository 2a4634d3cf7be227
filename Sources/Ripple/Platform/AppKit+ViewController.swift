#if canImport(AppKit) && !targetEnvironment(macCatalyst)
import AppKit

// Thin glue: the lifecycle rules live in `ViewLifecycleState` and `Presenter`, tested on Linux.

/// An `NSViewController` base that forwards every lifecycle step to its presenter.
///
/// Set ``presenter`` before the view loads. In `viewDidLoad` the controller injects itself as the
/// presenter's view when it adopts the presenter's view protocol (and is not its view already),
/// then forwards ``ViewLifecycleEvent/created``, so ``Presenter/viewCreated()`` sees its view.
///
/// AppKit does not say when a controller leaves for good; call ``presenterDestroyed()`` when you
/// close its window or remove it, so the presenter hears ``ViewLifecycleEvent/destroyed``.
open class ViewController<PresenterKind: PresenterType>: NSViewController {
    /// The presenter; set it before the view loads.
    public var presenter: PresenterKind!

    /// Injects the controller into its presenter when it fits, then forwards
    /// ``ViewLifecycleEvent/created``. Call `super` first when you override it.
    open override func viewDidLoad() {
        super.viewDidLoad()
        presenter?.receiveCreation(of: self)
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
