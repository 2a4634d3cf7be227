import RippleDiff

// MARK: - Pagination

extension ListSourceBase {
    /// Loads pages as the user scrolls, until a run returns ``PageLoad/lastPage``: when a row
    /// within `threshold` of the end is about to be displayed, the source executes `command`, once
    /// per page. Flat and sectioned sources alike.
    ///
    /// <!-- swift
    /// import RippleTesting
    ///
    /// final class FeedPresenter: Presenter<any Viewable> {
    ///     let items = ObservableCollection<String>()
    ///     private(set) lazy var loadMore = CommandWithResult<Void, PageLoad>(delegate: self) { _, _ in .lastPage }
    /// }
    /// let presenter = FeedPresenter()
    /// let source = HeadlessTableScreen(collection: presenter.items).source
    /// -->
    /// ```swift
    /// source.paginate(with: presenter.loadMore, threshold: 5)   // a CommandWithResult<Void, PageLoad>
    /// ```
    ///
    /// The command says with each run's result whether more pages follow: an endless feed
    /// returns ``PageLoad/morePages`` every time. The rules (docs/sources.md, "Pagination"):
    /// - At most one load that the pagination started is in flight, and none starts while the
    ///   command executes, or while one of its results or ends is still on its way to the main
    ///   queue.
    /// - No load after a ``PageLoad/lastPage`` result, from any run (one the app started too),
    ///   until the rendered list has fewer rows than when that result arrived: a pull to refresh,
    ///   `replace(with:)`, deletions. A later ``PageLoad/morePages`` result resumes it too.
    /// - A refused load (`canExecute` false, the command busy) is tried again at the next display
    ///   of a row near the end, or when `canExecute` turns true. A load that brought no rows
    ///   (failed, cancelled or empty) likewise. A load that brought rows loads the next page
    ///   at once when a row near the new end was displayed meanwhile (a page shorter than the
    ///   screen). "Within `threshold` of the end" counts rows across sections.
    /// - An empty list, which displays no row, loads its first page as soon as it is rendered.
    /// - With `showsLoadingRow`, a row with ``loadingCellIdentifier`` shows at the end of the last
    ///   section while a load that the pagination started runs, from the main queue's next turn
    ///   after it fired until its end reaches the main queue, each change in a batch of its own.
    ///   When a change inserts, deletes or moves sections meanwhile, the row leaves before it and
    ///   comes back at the end of the new last section after it. A list without sections shows no
    ///   loading row.
    ///
    /// Calling `paginate` again replaces the earlier pagination and starts over.
    ///
    /// - Parameters:
    ///   - command: Loads the next page, adds it to the collection, and says whether more follow.
    ///   - threshold: How close to the end, in rows, a displayed row triggers the load.
    ///   - showsLoadingRow: Whether to show a loading row while a page loads.
    public func paginate(
        with command: CommandWithResult<Void, PageLoad>, threshold: Int = 5, showsLoadingRow: Bool = true
    ) {
        pagination?.stop()
        let pagination = Pagination(
            following: command, threshold: threshold, showsLoadingRow: showsLoadingRow,
            ownerName: "\(Self.self)",
            itemCount: { [weak self] in self?.renderedItemCount ?? 0 },
            mayLoadWhenEmpty: { [weak self] in self?.listView != nil },
            showLoadingRow: { [weak self] in self?.renderer.setLoadingRow(shown: $0) })
        self.pagination = pagination
        if renderedVersion > 0 || lastReload != nil { pagination.rendered() }
    }

    /// Whether a page is loading: a run the pagination started has not ended yet, as the main
    /// queue has heard (its loading row shows). `false` without a pagination.
    ///
    /// RippleTesting's screens wait until it is `false` when they settle.
    public var isLoadingPage: Bool { pagination?.isLoading ?? false }

    /// The pagination's command, or `nil` without a pagination: what RippleTesting's screens
    /// follow while they settle.
    package var paginationCommand: (any CommandType)? { pagination?.command }

    /// The number of rendered items, loading row excluded.
    private var renderedItemCount: Int { renderer.renderedCounts.reduce(0, +) }

    /// Tells the pagination that the row at `path` is about to be displayed.
    func loadMoreIfNeeded(displaying path: ElementPath) {
        let counts = renderer.renderedCounts
        guard let pagination, path.section >= 0, path.section < counts.count else { return }
        let position = counts[..<path.section].reduce(0, +) + path.item
        pagination.rowDisplayed(at: position, isLoadingRow: isLoadingRow(path))
    }

    /// Called after each rendered event: lets the pagination look at the new list.
    func paginateAfterRendering() {
        pagination?.rendered()
    }
}
