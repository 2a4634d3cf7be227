#if canImport(UIKit) && !os(watchOS)
import UIKit

// Thin glue: the lifecycle rules live in `ViewLifecycleState` and `Presenter`, tested on Linux.

/// A view controller that owns a presenter and forwards its view's lifecycle to it.
@MainActor
public protocol ViewControllerType: AnyObject {
    /// The presenter's type.
    associatedtype PresenterKind: PresenterType
    /// The presenter that keeps this screen's state; set it before the view loads.
    var presenter: PresenterKind! { get }
}

/// A `UIViewController` base that forwards every lifecycle step to its presenter.
///
/// Set ``presenter`` before the view loads. In `viewDidLoad` the controller injects itself as the
/// presenter's view when it adopts the presenter's view protocol (and is not its view already),
/// then forwards ``ViewLifecycleEvent/created``, so ``Presenter/viewCreated()`` sees its view:
///
/// <!-- swift
/// protocol LoginView: Viewable {}
/// struct API: Sendable {}
/// final class LoginPresenter: Presenter<any LoginView> {
///     let api: API
///     init(api: API) { self.api = api; super.init() }
/// }
/// let api = API()
/// -->
/// ```swift uikit
/// final class LoginViewController: ViewController<LoginPresenter>, LoginView {}
///
/// let controller = LoginViewController()
/// controller.presenter = LoginPresenter(api: api)   // no injectView: viewDidLoad does it
/// ```
open class ViewController<PresenterKind: PresenterType>: UIViewController, ViewControllerType {
    /// The presenter; set it before the view loads.
    public var presenter: PresenterKind!

    /// Injects the controller into its presenter when it fits, then forwards
    /// ``ViewLifecycleEvent/created``. Call `super` first when you override it.
    open override func viewDidLoad() {
        super.viewDidLoad()
        presenter?.receiveCreation(of: self)
    }

    open override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        presenter?.receive(.willAppear)
    }

    open override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        presenter?.receive(.didAppear)
    }

    open override func viewWillDisappear(_ animated: Bool) {
        super.viewWillDisappear(animated)
        presenter?.receive(.willDisappear)
    }

    open override func viewDidDisappear(_ animated: Bool) {
        super.viewDidDisappear(animated)
        let leaving = isMovingFromParent || isBeingDismissed || (parent?.isBeingDismissed ?? false)
        presenter?.receiveDisappearance(leavingForGood: leaving)
    }
}
#endif
