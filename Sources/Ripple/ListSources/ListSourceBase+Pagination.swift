import RippleDiff

// MARK: - Pagination

extension ListSourceBase {
    /// Loads pages as the user scrolls: when a row within `threshold` of the end is about to be
    /// displayed, the source executes `command`, once per page. Flat and sectioned sources alike.
    ///
    /// ```swift
    /// source.paginate(with: presenter.loadMore, threshold: 5) { presenter.hasMorePages }
    /// ```
    ///
    /// - It fires once per page: not again until the page's rows arrive (or the load ends with
    ///   none, so that scrolling can retry), even when the content is shorter than the screen and
    ///   every row is displayed at once. An empty list, which displays no row, fires it as soon as
    ///   it is rendered.
    /// - "Within `threshold` of the end" counts rows across sections.
    /// - It never fires while the command executes, nor once `hasMorePages` returns `false`.
    /// - With `showsLoadingRow`, a row with ``loadingCellIdentifier`` is shown at the end of the
    ///   last section while the command executes, and removed when it ends, each in a batch of its
    ///   own. When a change inserts, deletes or moves sections meanwhile, the row leaves before it
    ///   and comes back at the end of the new last section after it. A list without sections shows
    ///   no loading row.
    ///
    /// Calling it again replaces the earlier pagination.
    ///
    /// - Parameters:
    ///   - command: Loads the next page and adds it to the collection.
    ///   - threshold: How close to the end, in rows, a displayed row triggers the load.
    ///   - showsLoadingRow: Whether to show a loading row while a page loads.
    ///   - hasMorePages: Returns `false` once the last page has been loaded.
    public func paginate<LoadMore: CommandType>(
        with command: LoadMore, threshold: Int = 5, showsLoadingRow: Bool = true,
        hasMorePages: @escaping () -> Bool = { true }
    ) where LoadMore.Parameter == Void {
        pagination?.stop()
        let pagination = Pagination(
            threshold: max(0, threshold), showsLoadingRow: showsLoadingRow, hasMorePages: hasMorePages,
            isLoading: { command.isExecuting }, load: { command.execute(parameter: ()) })
        self.pagination = pagination
        pagination.tokens.append(
            command.executingChanges.subscribe { [weak self] executing in
                self?.loadingChanged(executing)
            })
        if renderedVersion > 0 || lastReload != nil { loadMoreIfEmpty() }
    }

    /// The number of rendered items, loading row excluded.
    private var renderedItemCount: Int { renderer.renderedCounts.reduce(0, +) }

    /// Fires the pagination command if `path` is within the threshold of the end and a page is due.
    func loadMoreIfNeeded(displaying path: ElementPath) {
        let counts = renderer.renderedCounts
        guard let pagination, path.section >= 0, path.section < counts.count else { return }
        let position = counts[..<path.section].reduce(0, +) + path.item
        guard position >= renderedItemCount - pagination.threshold else { return }
        loadMore(pagination)
    }

    /// Fires the pagination command for an empty list, which displays no row to trigger it.
    func loadMoreIfEmpty() {
        guard let pagination, renderedItemCount == 0, listView != nil else { return }
        loadMore(pagination)
    }

    /// Fires the pagination command once for the current page.
    private func loadMore(_ pagination: Pagination) {
        let count = renderedItemCount
        guard pagination.firedAtCount != count, !pagination.isLoading(), pagination.hasMorePages() else { return }
        pagination.firedAtCount = count
        _ = pagination.load()
    }

    /// Shows or hides the loading row as the pagination command starts and ends.
    private func loadingChanged(_ executing: Bool) {
        guard let pagination else { return }
        if !executing, pagination.firedAtCount == renderedItemCount {
            pagination.firedAtCount = nil  // the load brought nothing: let scrolling retry
        }
        renderer.setLoadingRow(shown: executing && pagination.showsLoadingRow)
    }
}

/// A source's pagination: the command and the state of the current page.
@MainActor
final class Pagination {
    let threshold: Int
    let showsLoadingRow: Bool
    let hasMorePages: () -> Bool
    let isLoading: () -> Bool
    let load: () -> Bool
    /// The number of rendered items when the command last fired; `nil` when a page is due.
    var firedAtCount: Int?
    /// The subscriptions to the command.
    var tokens: [SubscriptionToken] = []

    init(
        threshold: Int, showsLoadingRow: Bool, hasMorePages: @escaping () -> Bool, isLoading: @escaping () -> Bool,
        load: @escaping () -> Bool
    ) {
        self.threshold = threshold
        self.showsLoadingRow = showsLoadingRow
        self.hasMorePages = hasMorePages
        self.isLoading = isLoading
        self.load = load
    }

    /// Ends the subscriptions to the command.
    func stop() {
        for token in tokens { token.cancel() }
        tokens.removeAll()
    }
}
