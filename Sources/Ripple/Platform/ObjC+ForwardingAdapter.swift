#if (canImport(UIKit) && !os(watchOS)) || (canImport(AppKit) && !targetEnvironment(macCatalyst))
import ObjectiveC

// Thin glue: the base of the UIKit and AppKit adapters. What an adapter does not implement goes to
// the app's delegate (`ListSourceBase.delegate`) when it implements it; the rule for what the
// adapters do implement is in `ListSourceBase.delegate`'s documentation.

/// The base of Ripple's view adapters: forwards the selectors it does not implement to the app's
/// delegate.
class ForwardingAdapter: NSObject {
    /// The app's delegate when the source adopted the view, held weakly; a new delegate makes the
    /// source adopt the view again, with a new adapter, since views read `responds(to:)` once.
    weak var appDelegate: AnyObject?

    init(appDelegate: AnyObject?) {
        self.appDelegate = appDelegate
        super.init()
    }

    override func responds(to selector: Selector!) -> Bool {
        super.responds(to: selector) || appImplements(selector)
    }

    override func forwardingTarget(for selector: Selector!) -> Any? {
        appImplements(selector) ? appDelegate : super.forwardingTarget(for: selector)
    }

    /// Whether the app's delegate implements `selector`.
    func appImplements(_ selector: Selector) -> Bool {
        (appDelegate as? NSObjectProtocol)?.responds(to: selector) ?? false
    }
}
#endif
