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
    /// - It fires once per page: not again until the page's rows arrive (or the load ends with
    ///   none, so that scrolling can retry), even when the content is shorter than the screen and
    ///   every row is displayed at once. An empty list, which displays no row, fires it as soon as
    ///   it is rendered. "Within `threshold` of the end" counts rows across sections.
    /// - It never fires while the command executes, nor after a run returned
    ///   ``PageLoad/lastPage`` while the list keeps at least the rows it had when that result
    ///   arrived. It resumes by itself once the rendered list has fewer rows than that: a pull to
    ///   refresh by another command, `replace(with:)`, deletions, any change that shrinks it. A
    ///   later run that returns ``PageLoad/morePages`` (one the app started) resumes it too. A list
    ///   that only grew stays at its last page.
    /// - A run's result reaches the source before its end, both on the main queue: a row displayed
    ///   in between cannot load a page past the last.
    /// - With `showsLoadingRow`, a row with ``loadingCellIdentifier`` is shown at the end of the
    ///   last section while the command executes, and removed when it ends, each in a batch of its
    ///   own. When a change inserts, deletes or moves sections meanwhile, the row leaves before it
    ///   and comes back at the end of the new last section after it. A list without sections shows
    ///   no loading row.
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
        startPagination(
            with: command, lastPage: command.results, threshold: threshold, showsLoadingRow: showsLoadingRow)
    }

    /// Loads pages as the user scrolls, with a command that cannot say which page is the last: an
    /// endless feed, or a command whose `canExecute` turns `false` at the end. Otherwise the same
    /// as the overload that takes a `CommandWithResult<Void, PageLoad>`.
    ///
    /// - Parameters:
    ///   - command: Loads the next page and adds it to the collection.
    ///   - threshold: How close to the end, in rows, a displayed row triggers the load.
    ///   - showsLoadingRow: Whether to show a loading row while a page loads.
    public func paginate<LoadMore: CommandType>(
        with command: LoadMore, threshold: Int = 5, showsLoadingRow: Bool = true
    )
    where LoadMore.Parameter == Void {
        startPagination(with: command, lastPage: nil, threshold: threshold, showsLoadingRow: showsLoadingRow)
    }

    /// Starts paginating with `command`, replacing any earlier pagination.
    private func startPagination<LoadMore: CommandType>(
        with command: LoadMore, lastPage: EventStream<PageLoad>?, threshold: Int, showsLoadingRow: Bool
    ) where LoadMore.Parameter == Void {
        pagination?.stop()
        let pagination = Pagination(
            following: command, lastPage: lastPage, threshold: threshold, showsLoadingRow: showsLoadingRow,
            ownerName: "\(Self.self)",
            itemCount: { [weak self] in self?.renderedItemCount ?? 0 },
            mayLoadWhenEmpty: { [weak self] in self?.listView != nil },
            showLoadingRow: { [weak self] in self?.renderer.setLoadingRow(shown: $0) })
        self.pagination = pagination
        if renderedVersion > 0 || lastReload != nil { pagination.rendered() }
    }

    /// Whether a page is loading: the pagination command is executing, or the end of a run the
    /// source started has not reached it on the main queue yet (its loading row still shows).
    /// `false` without a pagination.
    ///
    /// RippleTesting's screens wait until it is `false` when they settle.
    public var isLoadingPage: Bool { pagination?.isLoading ?? false }

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
