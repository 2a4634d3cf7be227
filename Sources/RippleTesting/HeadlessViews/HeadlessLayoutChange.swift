import RippleDiff

/// What changed on a headless view's screen, for the cell host that follows it.
enum _HeadlessLayoutChange {
    /// The view read its data source anew: every cell on screen leaves (C3, C5).
    case reloaded
    /// A batch was applied, or the user dragged a row: cells travel with their rows (C1).
    case carried(_RowCarry)
    /// Items were reconfigured in place (C4).
    case reconfigured([ElementPath])
    /// The headers and footers of sections were reconfigured in place.
    case reconfiguredSupplementaryViews([Int])
}

/// Where a batch or a drag took the rows and sections that were on screen before it.
struct _RowCarry {
    /// For each section before, the section it is now, or `nil` for a deleted or reloaded one.
    let sectionTargets: [Int?]

    /// Where the row at a path before is now, or `nil` for a row that left (deleted, reloaded, or
    /// in a deleted section).
    let destination: (ElementPath) -> ElementPath?

    /// The section a section before is now, or `nil` when it left.
    func target(ofSection section: Int) -> Int? {
        sectionTargets.indices.contains(section) ? sectionTargets[section] : nil
    }
}

/// A headless view whose screen changes a ``HeadlessCellHost`` follows.
protocol _HeadlessLayoutObservable: AnyObject {
    var engineLayoutObserver: ((_HeadlessLayoutChange) -> Void)? { get set }

    /// Reads the data source if the view needs to, as a layout pass does: a collection view reads
    /// it lazily after `reloadData()`, at its next layout.
    func layoutIfNeeded()
}
