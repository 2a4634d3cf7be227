#if (canImport(UIKit) && !os(watchOS)) || (canImport(AppKit) && !targetEnvironment(macCatalyst))
import ObjectiveC
import RippleDiff

// Thin glue: the base of the UIKit and AppKit adapters. What an adapter does not implement goes to
// the app's delegate (`ListSourceBase.delegate`) when it implements it; the rule for what the
// adapters do implement is in `ListSourceBase.delegate`'s documentation.

/// The base of Ripple's view adapters: holds the list source they answer for, and forwards the
/// selectors they do not implement to the app's delegate.
///
/// The adapters are not generic: a generic class cannot declare its Objective-C conformances in an
/// extension, and declaring them with the class would make it main-actor isolated, while this
/// class's `responds(to:)` and `forwardingTarget(for:)` overrides are nonisolated, as `NSObject`'s.
/// Their conformances are `@MainActor` extensions; views call them on the main thread.
class ListViewAdapter: NSObject {
    /// The list source, held weakly: the source holds its adapter.
    weak var source: (any ListDataSource)?

    /// The app's delegate when the source adopted the view, held weakly; a new delegate makes the
    /// source adopt the view again, with a new adapter, since views read `responds(to:)` once.
    weak var appDelegate: AnyObject?

    init(source: any ListDataSource, appDelegate: AnyObject?) {
        self.source = source
        self.appDelegate = appDelegate
        super.init()
    }

    override func responds(to selector: Selector!) -> Bool {
        super.responds(to: selector) || appImplements(selector)
    }

    override func forwardingTarget(for selector: Selector!) -> Any? {
        appImplements(selector) ? appDelegate : super.forwardingTarget(for: selector)
    }

    /// Configures the cells on screen at `paths` again, in place, through the source: a
    /// reconfigure where the view has no call for it (UIKit before iOS 15, AppKit).
    ///
    /// - Parameters:
    ///   - paths: The rows' paths now.
    ///   - cell: The view's cell on screen at a path, or `nil` off screen.
    @MainActor
    func configureVisibleCells(at paths: [ElementPath], cell: (ElementPath) -> AnyObject?) {
        for path in paths {
            if let view = cell(path) { source?.configure(view, at: path) }
        }
    }

    /// Configures the header or footer `view` of `section` on screen again, in place, through the
    /// source; nothing when there is none on screen.
    ///
    /// - Parameters:
    ///   - view: The view's header or footer on screen, or `nil`.
    ///   - section: Its section now.
    @MainActor
    func configureVisibleSupplementaryView(_ view: AnyObject?, inSection section: Int) {
        if let view { source?.configureSupplementary(view, inSection: section) }
    }

    /// Whether the app's delegate implements `selector`.
    func appImplements(_ selector: Selector) -> Bool {
        (appDelegate as? NSObjectProtocol)?.responds(to: selector) ?? false
    }
}
#endif
