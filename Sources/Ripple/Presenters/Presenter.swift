/// What a view controller needs of its presenter: somewhere to forward the view's lifecycle.
///
/// ``Presenter`` conforms. A presenter that cannot inherit from it conforms directly, and the
/// UIKit and AppKit view-controller bases then drive it just the same.
@MainActor
public protocol PresenterType: AnyObject {
    /// Receives one step of the view's life, forwarded by its view controller.
    ///
    /// - Parameter event: What happened to the view.
    func receive(_ event: ViewLifecycleEvent)

    /// Makes `candidate` the view when it conforms to the presenter's view type and is not the
    /// view already; otherwise changes nothing.
    ///
    /// Ripple's view-controller bases call it from `viewDidLoad`, just before they forward
    /// ``ViewLifecycleEvent/created``, so a controller that adopts
    /// its presenter's view protocol never injects itself by hand. ``Presenter`` implements it;
    /// the default implementation, for a presenter that conforms to this protocol directly,
    /// adopts nothing and returns `false`.
    ///
    /// - Parameter candidate: A view controller, or any object that may be the view.
    /// - Returns: Whether `candidate` is the view afterwards.
    @discardableResult
    func adoptView(_ candidate: AnyObject) -> Bool
}

extension PresenterType {
    /// Adopts nothing: a presenter that conforms to ``PresenterType`` directly manages its view
    /// itself.
    ///
    /// - Parameter candidate: Ignored.
    /// - Returns: `false`.
    @discardableResult
    public func adoptView(_ candidate: AnyObject) -> Bool { false }
}

/// The base class of an MVP presenter: it keeps the state of one screen or cell, and talks to its
/// view through a protocol.
///
/// `View` is the protocol the view conforms to, usually an existential such as `any LoginView`
/// where `LoginView` refines ``Viewable``. The presenter holds its view **weakly**: a view controller
/// that owns its presenter makes no cycle, and ``view`` is `nil` once the view is gone.
///
/// <!-- swift
/// final class BookPresenter: Sendable {}
/// extension BookListPresenter {
///     func load() {}
/// }
/// final class BookListViewController: BookListView {
///     func showEmptyState(_ isEmpty: Bool) {}
/// }
/// let viewController = BookListViewController()
/// -->
/// ```swift
/// protocol BookListView: Viewable {
///     func showEmptyState(_ isEmpty: Bool)
/// }
///
/// final class BookListPresenter: Presenter<any BookListView> {   // @MainActor, as its base
///     let books = ObservableCollection<BookPresenter>()
///
///     override func viewCreated() {
///         load()
///     }
///     override func viewWillAppear() {
///         view?.showEmptyState(books.isEmpty)
///     }
/// }
///
/// let presenter = BookListPresenter()
/// presenter.injectView(viewController)
/// ```
///
/// # Who injects the view
/// - A screen built on Ripple's `ViewController<Presenter>` (UIKit or AppKit) is injected by the
///   controller itself: in `viewDidLoad`, before ``viewCreated()`` runs, when the controller
///   adopts `View` (``adoptView(_:)``). Set the controller's `presenter` before its view loads.
/// - A cell is injected by the list source each time it shows the presenter's row
///   (``attachView(_:)``).
/// - Any other view (a view controller of your own, a test's spy) is given with
///   ``injectView(_:)``, the one way to connect a view by hand, whose argument the compiler checks
///   against `View`; then forward its lifecycle with ``receive(_:)``, starting with
///   ``ViewLifecycleEvent/created``.
///
/// # Lifecycle
/// A view controller forwards its view's life through ``receive(_:)``; the presenter tracks it in
/// ``lifecycle`` and calls the matching hook (``viewCreated()``, ``viewWillAppear()`` …). An event
/// that breaks UIKit's order is not applied and is reported to ``Diagnostics``; it never traps.
/// ``lifetimeTokens`` are cancelled when the view is destroyed, ``visibilityTokens`` each time it
/// disappears.
///
/// # Thread Safety
/// A presenter lives on the main actor, like the view it drives, and so is `Sendable`: it can be
/// an element of an ``ObservableCollection`` (a cell presenter), a command's owner, and be
/// captured by the `@MainActor` handlers of `subscribe { … }`. Work that finishes elsewhere hops
/// back to the main actor before it touches the presenter; the compiler checks that it does.
@MainActor
open class Presenter<View>: PresenterType, ViewAttaching {
    private weak var viewObject: AnyObject?
    private var state = ViewLifecycleState.initial

    /// Subscriptions that live as long as the view: cancelled when it is destroyed.
    public let lifetimeTokens = TokenBag()

    /// Subscriptions that live while the view is on screen: cancelled each time it disappears.
    public let visibilityTokens = TokenBag()

    /// Creates a presenter with no view.
    nonisolated public init() {}

    /// The view, or `nil` when none was injected or it has gone.
    public var view: View? {
        viewObject as? View
    }

    /// Whether a view is attached and still alive.
    public var hasView: Bool { viewObject != nil }

    /// Attaches the view, holding it weakly. A later call replaces it.
    ///
    /// - Parameter view: The view. It must be an object (a class, or a protocol that refines
    ///   ``Viewable``); a value would be released at once.
    /// - Precondition: `view` is an instance of a class.
    open func injectView(_ view: View) {
        guard Swift.type(of: view as Any) is AnyClass else {
            preconditionFailure(
                "Presenter.injectView(_:): the view must be an object, got a value of type \(Swift.type(of: view as Any))"
            )
        }
        viewObject = view as AnyObject
    }

    /// Detaches the view, if any.
    public func removeView() {
        viewObject = nil
    }

    /// Makes `object` the view when it conforms to `View`; a cell uses this on dequeue.
    ///
    /// - Parameter object: A cell or view.
    /// - Returns: Whether `object` is now the view.
    @discardableResult
    public func attachView(_ object: AnyObject) -> Bool {
        guard let view = object as? View else { return false }
        injectView(view)
        return true
    }

    /// Makes `candidate` the view when it conforms to `View` and is not the view already.
    ///
    /// The view-controller bases call it from `viewDidLoad`; a `candidate` that is the view already
    /// is not injected again, and one that does not conform leaves the view as it is.
    ///
    /// - Parameter candidate: A view controller, or any object that may be the view.
    /// - Returns: Whether `candidate` is the view afterwards.
    @discardableResult
    public func adoptView(_ candidate: AnyObject) -> Bool {
        if viewObject === candidate { return true }
        return attachView(candidate)
    }

    /// Detaches the view if it is `object`; a reused cell uses this, so that a presenter that has
    /// moved to another cell keeps that cell as its view.
    ///
    /// - Parameter object: A cell or view that is being reused.
    public func detachView(ifShownIn object: AnyObject) {
        if viewObject === object { viewObject = nil }
    }

    /// Where the view is in its life.
    public var lifecycle: ViewLifecycleState { state }

    /// Whether the view is on screen.
    public var isViewVisible: Bool { lifecycle == .visible }

    /// Applies one lifecycle event and calls its hook.
    ///
    /// View controllers call this; see ``ViewLifecycleState/next(after:)`` for the order allowed.
    /// An event out of order is reported to ``Diagnostics`` and ignored.
    ///
    /// - Parameter event: What happened to the view.
    public final func receive(_ event: ViewLifecycleEvent) {
        guard let next = state.next(after: event) else {
            Diagnostics.report(
                Diagnostic(
                    kind: .lifecycleOutOfOrder, source: "\(Swift.type(of: self)).receive(_:)",
                    message: "\(event) arrived while the view is \(state); ignored"))
            return
        }
        state = next
        switch event {
        case .created: viewCreated()
        case .willAppear: viewWillAppear()
        case .didAppear: viewDidAppear()
        case .willDisappear: viewWillDisappear()
        case .didDisappear:
            visibilityTokens.cancelAll()
            viewDidDisappear()
        case .destroyed:
            visibilityTokens.cancelAll()
            lifetimeTokens.cancelAll()
            viewDestroyed()
        }
    }

    /// Called once, when the view has loaded. Start loading data here.
    open func viewCreated() {}

    /// Called when the view is about to appear.
    open func viewWillAppear() {}

    /// Called when the view appeared.
    open func viewDidAppear() {}

    /// Called when the view is about to disappear.
    open func viewWillDisappear() {}

    /// Called when the view disappeared, after ``visibilityTokens`` were cancelled.
    open func viewDidDisappear() {}

    /// Called once, when the view is gone for good, after every token was cancelled. Cancel
    /// running work here.
    open func viewDestroyed() {}
}
