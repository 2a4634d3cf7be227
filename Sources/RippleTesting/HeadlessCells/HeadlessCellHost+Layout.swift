import Ripple
import RippleDiff

extension HeadlessCellHost {
    /// Scrolls so that `row`, counted across sections, is the first on screen (clamped to the
    /// content), and lays out: rows that leave the screen give their cells to the reuse pool, rows
    /// that come on screen ask the source for theirs.
    ///
    /// - Parameter row: The row to show first.
    public func scroll(toRow row: Int) {
        firstVisibleRow = max(0, row)
        layout()
    }

    /// Scrolls to the end of the content, and lays out.
    public func scrollToEnd() {
        scroll(toRow: totalRowCount - visibleRowCount)
    }

    // MARK: - Layout

    /// Shows the rows on screen with their cells, and their sections' headers and footers: the
    /// first call asks the source for every cell on screen; later calls keep the cells of rows
    /// that stay on screen and ask only for the rows that come on screen (after a scroll, or when
    /// the content grew or shrank around the screen).
    public func layout() {
        // The view's layout pass comes first, as on a device: a collection view reads its data
        // source there after a `reloadData()`.
        observedView?.layoutIfNeeded()
        hasLaidOut = true
        var carried: [ElementPath: HeadlessReusableView] = [:]
        for entry in visibleCells { carried[entry.path] = entry.cell }
        var headers: [SupplementaryKey: HeadlessReusableView] = [:]
        for entry in visibleSupplementaryViews {
            headers[SupplementaryKey(kind: entry.kind, section: entry.section)] = entry.view
        }
        layOut(carrying: carried, leaving: [], supplementary: headers, leavingSupplementary: [], afterBatch: false)
    }

    /// Follows one change of the view's screen.
    func viewChanged(_ change: _HeadlessLayoutChange) {
        guard hasLaidOut else { return }
        switch change {
        case .reloaded:
            // Every cell leaves, then the rows on screen ask for cells again (C2, C3, C5).
            let leaving = visibleCells.map { Leaving(path: $0.path, cell: $0.cell) }
            let leavingViews = visibleSupplementaryViews.map(\.view)
            layOut(
                carrying: [:], leaving: leaving, supplementary: [:], leavingSupplementary: leavingViews,
                afterBatch: false)
        case .carried(let carry):
            self.carry(carry)
        case .reconfigured(let paths):
            reconfigure(paths)
        case .reconfiguredSupplementaryViews(let sections):
            let wanted = Set(sections)
            for entry in visibleSupplementaryViews where wanted.contains(entry.section) {
                source.configureSupplementary(entry.view, inSection: entry.section)
            }
        }
    }

    /// Carries the cells through a batch or a drag (C1), then lays out.
    ///
    /// - Complexity: O(*c* log *k*) for *c* cells on screen and *k* operations in the batch.
    private func carry(_ carry: _RowCarry) {
        var carried: [ElementPath: HeadlessReusableView] = [:]
        var leaving: [Leaving] = []
        for entry in visibleCells {
            if let destination = carry.destination(entry.path) {
                carried[destination] = entry.cell
            } else {
                // Deleted and reloaded rows' cells leave, at their paths before the batch.
                leaving.append(Leaving(path: entry.path, cell: entry.cell))
            }
        }
        // A section the batch neither deletes nor reloads keeps its header and footer.
        var headers: [SupplementaryKey: HeadlessReusableView] = [:]
        var leavingViews: [HeadlessReusableView] = []
        for entry in visibleSupplementaryViews {
            if let target = carry.target(ofSection: entry.section) {
                headers[SupplementaryKey(kind: entry.kind, section: target)] = entry.view
            } else {
                leavingViews.append(entry.view)
            }
        }
        layOut(
            carrying: carried, leaving: leaving, supplementary: headers, leavingSupplementary: leavingViews,
            afterBatch: true)
    }

    /// Configures the cells of the rows on screen among `paths` again, keeping them (C4).
    private func reconfigure(_ paths: [ElementPath]) {
        for path in paths {
            guard let cell = cell(at: path) else { continue }
            let identifier = source.cellIdentifier(at: path)
            precondition(
                identifier == cell.reuseIdentifier,
                "HeadlessCellHost: reconfigure of row \(path) dequeues identifier \(identifier), but its cell has \(cell.reuseIdentifier); a reconfigure must keep the cell type (reload the row instead)"
            )
            configure(cell, at: path)
        }
    }

    /// A cell that leaves the screen, and the path it tells the source it left from.
    private struct Leaving {
        var path: ElementPath
        var cell: HeadlessReusableView
    }

    /// Shows the rows on screen: each keeps the cell `carrying` gives it, the others get one from
    /// the source; cells of rows off screen leave, with those in `leaving`.
    ///
    /// After a scroll or a reload, the leaving cells enter the reuse pool first, so the new rows
    /// reuse them; after a batch, they enter it once the new rows have their cells, as they
    /// animate out on a device.
    private func layOut(
        carrying carried: [ElementPath: HeadlessReusableView], leaving: [Leaving],
        supplementary carriedViews: [SupplementaryKey: HeadlessReusableView],
        leavingSupplementary: [HeadlessReusableView],
        afterBatch: Bool
    ) {
        let total = totalRowCount
        firstVisibleRow = max(0, min(firstVisibleRow, total - visibleRowCount))
        let paths = self.paths(from: firstVisibleRow, count: min(visibleRowCount, total))
        var carried = carried
        var next: [VisibleCell] = []
        var pending: [Int] = []
        for path in paths {
            if let cell = carried.removeValue(forKey: path) {
                next.append((path, cell))
            } else {
                pending.append(next.count)
                next.append((path, placeholder))
            }
        }
        // Cells of rows now off screen leave too, at their paths now; all leave in the order of
        // their rows before the change.
        var pushedOff = carried.map { Leaving(path: $0.key, cell: $0.value) }
        pushedOff.sort { $0.path < $1.path }
        let before = Dictionary(
            visibleCells.map { (ObjectIdentifier($0.cell), $0.path) }, uniquingKeysWith: { first, _ in first })
        var allLeaving = leaving + pushedOff
        allLeaving.sort {
            (before[ObjectIdentifier($0.cell)] ?? $0.path) < (before[ObjectIdentifier($1.cell)] ?? $1.path)
        }
        if !afterBatch { release(allLeaving) }
        for index in pending {
            let cell = dequeueCell(source.cellIdentifier(at: next[index].path))
            configure(cell, at: next[index].path)
            next[index].cell = cell
        }
        if afterBatch { release(allLeaving) }
        visibleCells = next
        for index in pending { source.handle(.willDisplay, at: next[index].path) }
        layOutSupplementaryViews(
            inSections: sectionsOnScreen(showing: paths), carrying: carriedViews, leaving: leavingSupplementary,
            afterBatch: afterBatch)
        showSelection()
    }

    /// Tells the source that cells left the screen, and puts them in the reuse pool.
    private func release(_ leaving: [Leaving]) {
        for entry in leaving {
            source.handle(.didEndDisplaying, at: entry.path)
            cellQueue.enqueue(entry.cell)
        }
    }

    private func layOutSupplementaryViews(
        inSections sections: Range<Int>, carrying carried: [SupplementaryKey: HeadlessReusableView],
        leaving: [HeadlessReusableView], afterBatch: Bool
    ) {
        var carried = carried
        var next: [VisibleSupplementaryView] = []
        var pending: [(index: Int, identifier: String)] = []
        for section in sections {
            for kind in [SupplementaryKind.header, .footer] {
                guard let identifier = source.supplementaryIdentifier(kind, inSection: section) else { continue }
                if let view = carried.removeValue(forKey: SupplementaryKey(kind: kind, section: section)) {
                    next.append((kind, section, view))
                } else {
                    pending.append((next.count, identifier))
                    next.append((kind, section, placeholder))
                }
            }
        }
        let allLeaving =
            leaving
            + carried.sorted {
                ($0.key.section, $0.key.kind == .footer ? 1 : 0) < ($1.key.section, $1.key.kind == .footer ? 1 : 0)
            }.map(\.value)
        if !afterBatch { for view in allLeaving { supplementaryQueue.enqueue(view) } }
        for (index, identifier) in pending {
            let view = dequeueSupplementaryView(identifier)
            source.configureSupplementary(view, inSection: next[index].section)
            next[index].view = view
        }
        if afterBatch { for view in allLeaving { supplementaryQueue.enqueue(view) } }
        visibleSupplementaryViews = next
    }

    // MARK: - Internals

    private var totalRowCount: Int {
        (0..<source.numberOfSections).reduce(0) { $0 + source.numberOfItems(inSection: $1) }
    }

    private func configure(_ cell: HeadlessReusableView, at path: ElementPath) {
        cell.configureCount += 1
        source.configure(cell, at: path)
    }

    /// `count` paths from the flat row `first` on.
    ///
    /// - Complexity: O(*s* + `count`) for *s* sections, whatever the number of rows.
    private func paths(from first: Int, count: Int) -> [ElementPath] {
        var result: [ElementPath] = []
        var skipped = 0
        for section in 0..<source.numberOfSections where result.count < count {
            let rows = source.numberOfItems(inSection: section)
            if skipped + rows > first {
                let start = max(0, first - skipped)
                for item in start..<min(rows, start + count - result.count) {
                    result.append(ElementPath(item: item, section: section))
                }
            }
            skipped += rows
        }
        return result
    }

    /// The sections on screen: those of the rows on screen, the empty ones above them at the top
    /// of the content, and the empty ones below them when the rows do not fill the screen.
    private func sectionsOnScreen(showing paths: [ElementPath]) -> Range<Int> {
        let count = source.numberOfSections
        guard let first = paths.first, let last = paths.last else { return 0..<count }
        let lower = firstVisibleRow == 0 ? 0 : first.section
        let upper = paths.count < visibleRowCount ? count : last.section + 1
        return lower..<upper
    }

    private func dequeueSupplementaryView(_ identifier: String) -> HeadlessReusableView {
        if let view = supplementaryQueue.dequeue(identifier) { return view }
        guard let viewClass = supplementaryQueue.registry[identifier] else {
            preconditionFailure(
                "HeadlessCellHost: unable to dequeue a header or footer view with identifier \(identifier) - "
                    + "must register a class for the identifier; registered: \(supplementaryQueue.registry.keys.sorted())"
            )
        }
        return supplementaryQueue.make(viewClass, identifier: identifier)
    }

    private func dequeueCell(_ identifier: String) -> HeadlessReusableView {
        if let cell = cellQueue.dequeue(identifier) { return cell }
        guard let cellClass = cellQueue.registry[identifier] ?? fallbackCellClass?(identifier) else {
            preconditionFailure(
                "HeadlessCellHost: unable to dequeue a cell with identifier \(identifier) - "
                    + "must register a class for the identifier; registered: \(cellQueue.registry.keys.sorted())")
        }
        createdCellCount += 1
        return cellQueue.make(cellClass, identifier: identifier)
    }
}
/// A header or footer on screen, by its kind and its section.
private struct SupplementaryKey: Hashable {
    var kind: SupplementaryKind
    var section: Int
}
