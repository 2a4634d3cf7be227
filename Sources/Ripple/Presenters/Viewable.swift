/// The protocol every view of an MVP screen conforms to: a view controller, a cell, a custom view.
///
/// Declare what your presenter may ask of its view in a protocol that refines `Viewable`, and
/// make the presenter generic over it:
///
/// ```swift
/// protocol LoginView: Viewable {
///     func show(error: String)
/// }
///
/// final class LoginPresenter: Presenter<any LoginView> {
///     func failed(_ error: Error) { view?.show(error: "\(error)") }
/// }
/// ```
///
/// A view is always an object: ``Presenter`` holds it weakly, so a view controller that owns its
/// presenter makes no retain cycle. Views live on the main actor, as UIKit's and AppKit's do, and
/// so do the protocols that refine `Viewable`.
@MainActor
public protocol Viewable: AnyObject {}
