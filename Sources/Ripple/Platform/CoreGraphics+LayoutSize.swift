#if (canImport(UIKit) && !os(watchOS)) || (canImport(AppKit) && !targetEnvironment(macCatalyst))
import CoreGraphics

// Thin glue: Ripple's `LayoutSize` and CoreGraphics' `CGSize`, for the UIKit and AppKit adapters.

extension LayoutSize {
    /// The Ripple size of a CoreGraphics size.
    init(_ size: CGSize) { self.init(width: Double(size.width), height: Double(size.height)) }
}

extension CGSize {
    /// The CoreGraphics size of a Ripple size.
    init(_ size: LayoutSize) { self.init(width: CGFloat(size.width), height: CGFloat(size.height)) }
}
#endif
