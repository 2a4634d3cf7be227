import RippleDiff

/// Renders a live list's events into a ``ListView``: the logic that flat and sectioned list
/// sources share.
///
/// For each event it either runs one `performBatchUpdates` per stage, setting the rendered data to
/// the stage's data inside the update closure (R14), or reloads the view and says why. It also
/// shows the pagination's loading row, at the end of the last section, in batches of its own.
@MainActor
final class ListRenderer<Data> {
    /// The view, held weakly.
    private(set) weak var view: (any ListView)?
    /// What the view shows, as of the last event rendered.
    private(set) var rendered: Data {
        didSet { renderedCounts = itemCounts(rendered) }
    }
    /// The item counts of ``rendered``, section by section, without the loading row.
    private(set) var renderedCounts: [Int]
    /// The version of the last event rendered.
    private(set) var renderedVersion = 0
    /// The largest change to animate.
    var reloadThreshold: Int?
    /// The most recent reload and its reason.
    private(set) var lastReload: ListReloadReason?
    /// What the renderer did to the view.
    private(set) var statistics = ListSourceStatistics()
    /// Whether the loading row shows, at the end of the last section. Never with no section.
    private(set) var showsLoadingRow = false
    /// The move the user made on screen, already in ``rendered``, that the collection should
    /// publish as the next version.
    private var pendingMove: (version: Int, source: ElementPath, target: ElementPath)?
    /// The item counts of some data, section by section.
    private let itemCounts: (Data) -> [Int]
    /// The owner's type name, for diagnostics.
    let sourceName: String

    init(
        view: any ListView, empty: Data, reloadThreshold: Int?, sourceName: String,
        itemCounts: @escaping (Data) -> [Int]
    ) {
        self.view = view
        self.rendered = empty
        self.renderedCounts = itemCounts(empty)
        self.reloadThreshold = reloadThreshold
        self.sourceName = sourceName
        self.itemCounts = itemCounts
    }

    /// One stage to animate: the data to show after it, whether it inserts, deletes or moves
    /// sections (which would carry the loading row off), whether it has no call for the view (a
    /// stage of updates that the source shows by reconfiguring instead), and the calls that make
    /// it.
    struct Stage {
        var data: Data
        var movesSections = false
        var isEmpty = false
        var apply: (any ListView) -> Void
    }

    // MARK: - Counts

    /// The item counts the view shows when it is in step: the rendered counts, plus the loading
    /// row at the end of the last section.
    var displayedCounts: [Int] { withLoadingRow(renderedCounts) }

    /// `counts` with the loading row added to the last section, when it shows.
    private func withLoadingRow(_ counts: [Int]) -> [Int] {
        guard showsLoadingRow, !counts.isEmpty else { return counts }
        var counts = counts
        counts[counts.count - 1] += 1
        return counts
    }

    /// The path of the loading row, or `nil` when it does not show.
    var loadingRowPath: ElementPath? {
        guard showsLoadingRow, let last = renderedCounts.last else { return nil }
        return ElementPath(item: last, section: renderedCounts.count - 1)
    }

    // MARK: - Events

    /// Renders one event.
    ///
    /// - Parameters:
    ///   - version: The event's version.
    ///   - isInitial: Whether the event hands over the current state.
    ///   - snapshot: The data after the event.
    ///   - beforeCounts: The item counts, section by section, that the event's change starts from.
    ///   - changeCount: How many changes the event holds.
    ///   - isMove: Whether the event's change is exactly one move of an item from a path to a path.
    ///   - stages: Stages the event for the view, from the rendered data.
    /// - Returns: `false` when the view is gone and rendering should stop.
    func render(
        version: Int, isInitial: Bool, snapshot: Data, beforeCounts: [Int], changeCount: Int,
        isMove: (_ source: ElementPath, _ target: ElementPath) -> Bool, stages: (Data) -> [Stage]
    ) -> Bool {
        guard let view else { return false }
        if let move = pendingMove, !isInitial {
            pendingMove = nil
            // The view shows the move already: its event is adopted without a batch.
            guard version == move.version, isMove(move.source, move.target),
                view.displayedItemCounts == withLoadingRow(itemCounts(snapshot))
            else {
                reload(view, with: snapshot, version: version, because: .interruptedMove)
                return true
            }
            rendered = snapshot
            renderedVersion = version
            statistics.userMoves += 1
            return true
        }
        if let reason = reloadReason(
            version: version, isInitial: isInitial, beforeCounts: beforeCounts, changeCount: changeCount, view: view)
        {
            reload(view, with: snapshot, version: version, because: reason)
            return true
        }
        var loadingRowSetAside = false
        for stage in stages(rendered) {
            if stage.isEmpty {
                // No batch: an empty `performBatchUpdates` still costs the view a layout pass and
                // an animation transaction. The data changes without a count changing.
                rendered = stage.data
                continue
            }
            if stage.movesSections && showsLoadingRow {
                // The loading row belongs to the last section: it leaves before sections move.
                setLoadingRow(shown: false, in: view)
                loadingRowSetAside = true
            }
            statistics.batches += 1
            view.performBatchUpdates(
                {
                    self.rendered = stage.data
                    stage.apply(view)
                }, completion: nil)
        }
        renderedVersion = version
        if loadingRowSetAside { setLoadingRow(shown: true, in: view) }
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
        let expected = withLoadingRow(beforeCounts)
        if shown != expected || renderedCounts != beforeCounts {
            return .countMismatch(view: shown, expected: expected)
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
        case .initial, .notInWindow, .overThreshold, .interruptedMove:
            break
        }
        rendered = snapshot
        if renderedCounts.isEmpty { showsLoadingRow = false }
        renderedVersion = version
        lastReload = reason
        statistics.reloads += 1
        view.reloadData()
    }

    // MARK: - Rebinding

    /// Rebinds cells after an animated event's batches (C7): reloads `reload` in a batch of its own
    /// (rows whose element needs another cell type), then reconfigures `reconfigure` in place, both
    /// by the rows' paths after the event.
    func rebind(reconfigure: [ElementPath], reload: [ElementPath]) {
        guard let view else { return }
        if !reload.isEmpty {
            statistics.batches += 1
            view.performBatchUpdates({ view.reloadItems(at: reload) }, completion: nil)
        }
        if !reconfigure.isEmpty { view.reconfigureItems(at: reconfigure) }
    }

    /// Rebinds the headers and footers of `sections` (final indices) after an animated event's
    /// batches: kept sections whose value is another object.
    func rebindSupplementaryViews(inSections sections: [Int]) {
        guard let view, !sections.isEmpty else { return }
        view.reconfigureSupplementaryViews(inSections: sections)
    }

    // MARK: - The user's moves

    /// Takes a move the view already shows: `data` becomes the rendered data, and the collection's
    /// next event, when it is exactly that move, is adopted without a batch.
    ///
    /// - Parameters:
    ///   - source: The item's path before the move.
    ///   - target: Its path after the move.
    ///   - data: The rendered data with the move made.
    func acceptUserMove(from source: ElementPath, to target: ElementPath, showing data: Data) {
        rendered = data
        pendingMove = (renderedVersion + 1, source, target)
    }

    /// Reloads the view from the rendered data, which it no longer shows (a move the collection
    /// did not take).
    ///
    /// - Parameter reason: Why.
    func reloadRendered(because reason: ListReloadReason) {
        guard let view else { return }
        lastReload = reason
        statistics.reloads += 1
        view.reloadData()
    }

    // MARK: - Loading row

    /// Shows or hides the loading row at the end of the last section, in a batch of its own, or
    /// with a reload when the view is out of step or off screen. A list without sections shows
    /// none.
    ///
    /// - Parameter shown: Whether the row should show.
    func setLoadingRow(shown: Bool) {
        guard let view else { return }
        setLoadingRow(shown: shown, in: view)
    }

    private func setLoadingRow(shown: Bool, in view: any ListView) {
        guard shown != showsLoadingRow, let last = renderedCounts.last else { return }
        guard view.displayedItemCounts == displayedCounts, view.isInWindow else {
            showsLoadingRow = shown
            view.reloadData()
            return
        }
        let path = ElementPath(item: last, section: renderedCounts.count - 1)
        view.performBatchUpdates(
            {
                self.showsLoadingRow = shown
                if shown {
                    view.insertItems(at: [path])
                } else {
                    view.deleteItems(at: [path])
                }
            }, completion: nil)
    }
}
