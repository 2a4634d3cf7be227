import RippleDiff

/// What changed on a headless view's screen, for the cell host that follows it.
enum _HeadlessLayoutChange {
    /// The view read its data source anew: every cell on screen leaves (C3, C5).
    case reloaded
    /// A batch was applied, or the user dragged a row: cells travel with their rows (C1). For each
    /// row now, the path it had before, or `nil` for a row the batch inserted or reloaded; for each
    /// section now, the section it was before, or `nil` for an inserted or reloaded one.
    case carried(items: [[ElementPath?]], sections: [Int?])
    /// Items were reconfigured in place (C4).
    case reconfigured([ElementPath])
    /// The headers and footers of sections were reconfigured in place.
    case reconfiguredSupplementaryViews([Int])
}

/// A headless view whose screen changes a ``HeadlessCellHost`` follows.
protocol _HeadlessLayoutObservable: AnyObject {
    var engineLayoutObserver: ((_HeadlessLayoutChange) -> Void)? { get set }
}
