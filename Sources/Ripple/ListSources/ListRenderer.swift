import RippleDiff

/// Renders a live list's events into a ``ListView``: the logic that flat and sectioned list
/// sources share.
///
/// For each event it either runs one `performBatchUpdates` per stage, setting the rendered data to
/// the stage's data inside the update closure (R14), or reloads the view and says why.
@MainActor
final class ListRenderer<Data> {
    /// The view, held weakly.
    private(set) weak var view: (any ListView)?
    /// What the view shows, as of the last event rendered.
    private(set) var rendered: Data
    /// The version of the last event rendered.
    private(set) var renderedVersion = 0
    /// The largest change to animate.
    var reloadThreshold: Int?
    /// The most recent reload and its reason.
    private(set) var lastReload: ListReloadReason?
    /// What the renderer did to the view.
    private(set) var statistics = ListSourceStatistics()
    /// The item counts of some data, section by section.
    private let itemCounts: (Data) -> [Int]
    /// The owner's type name, for diagnostics.
    let sourceName: String

    init(view: any ListView, empty: Data, reloadThreshold: Int?, sourceName: String, itemCounts: @escaping (Data) -> [Int]) {
        self.view = view
        self.rendered = empty
        self.reloadThreshold = reloadThreshold
        self.sourceName = sourceName
        self.itemCounts = itemCounts
    }

    /// One stage to animate: the data to show after it, and the calls that make it.
    struct Stage {
        var data: Data
        var apply: (any ListView) -> Void
    }

    /// Renders one event.
    ///
    /// - Parameters:
    ///   - version: The event's version.
    ///   - isInitial: Whether the event hands over the current state.
    ///   - snapshot: The data after the event.
    ///   - beforeCounts: The item counts, section by section, that the event's change starts from.
    ///   - changeCount: How many changes the event holds.
    ///   - stages: Stages the event for the view, from the rendered data.
    /// - Returns: `false` when the view is gone and rendering should stop.
    func render(
        version: Int, isInitial: Bool, snapshot: Data, beforeCounts: [Int], changeCount: Int,
        stages: (Data) -> [Stage]
    ) -> Bool {
        guard let view else { return false }
        if let reason = reloadReason(
            version: version, isInitial: isInitial, beforeCounts: beforeCounts, changeCount: changeCount, view: view)
        {
            reload(view, with: snapshot, version: version, because: reason)
            return true
        }
        for stage in stages(rendered) {
            statistics.batches += 1
            view.performBatchUpdates({
                self.rendered = stage.data
                stage.apply(view)
            }, completion: nil)
        }
        renderedVersion = version
        return true
    }

    /// Why an event must be shown by a reload, or `nil` when it can be animated.
    private func reloadReason(
        version: Int, isInitial: Bool, beforeCounts: [Int], changeCount: Int, view: any ListView
    ) -> ListReloadReason? {
        if isInitial { return .initial }
        if version != renderedVersion + 1 {
            return .versionGap(rendered: renderedVersion, received: version)
        }
        let shown = view.displayedItemCounts
        if shown != beforeCounts || itemCounts(rendered) != beforeCounts {
            return .countMismatch(view: shown, expected: beforeCounts)
        }
        if !view.isInWindow { return .notInWindow }
        if let reloadThreshold, changeCount > reloadThreshold {
            return .overThreshold(changes: changeCount)
        }
        return nil
    }

    /// Shows `snapshot` with `reloadData()`, reporting the reasons that mean something went wrong.
    private func reload(_ view: any ListView, with snapshot: Data, version: Int, because reason: ListReloadReason) {
        switch reason {
        case .countMismatch, .versionGap:
            Diagnostics.report(
                Diagnostic(
                    kind: .viewCountMismatch, source: sourceName,
                    message: "\(reason) at version \(version); reloaded the view"))
        case .initial, .notInWindow, .overThreshold:
            break
        }
        rendered = snapshot
        renderedVersion = version
        lastReload = reason
        statistics.reloads += 1
        view.reloadData()
    }
}
