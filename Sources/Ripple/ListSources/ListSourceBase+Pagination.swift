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
        startPagination(with: command, threshold: threshold, showsLoadingRow: showsLoadingRow) { pagination in
            command.results.subscribe { [weak self, weak pagination] load in
                guard let self, let pagination else { return }
                // The rows the run added reached the main queue before its result: they count.
                pagination.lastPageItemCount = load == .lastPage ? self.renderedItemCount : nil
            }
        }
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
        startPagination(with: command, threshold: threshold, showsLoadingRow: showsLoadingRow)
    }

    /// Starts paginating with `command`, replacing any earlier pagination.
    ///
    /// - Parameter subscribeToResults: Subscribes the pagination to the command's results, before
    ///   it can fire: a synchronous run fired at once publishes its result before it returns.
    private func startPagination<LoadMore: CommandType>(
        with command: LoadMore, threshold: Int, showsLoadingRow: Bool,
        subscribeToResults: (Pagination) -> SubscriptionToken? = { _ in nil }
    ) where LoadMore.Parameter == Void {
        pagination?.stop()
        let pagination = Pagination(
            threshold: max(0, threshold), showsLoadingRow: showsLoadingRow,
            isExecuting: { command.isExecuting }, load: { command.execute(parameter: ()).refusal })
        self.pagination = pagination
        pagination.tokens.append(
            command.executingChanges.subscribe { [weak self] executing in
                self?.executingChanged(executing)
            })
        if let results = subscribeToResults(pagination) { pagination.tokens.append(results) }
        if renderedVersion > 0 || lastReload != nil { paginateAfterRendering() }
    }

    /// Whether a page is loading: the pagination command is executing, or the end of a run the
    /// source started has not reached it on the main queue yet (its loading row still shows).
    /// `false` without a pagination.
    ///
    /// RippleTesting's screens wait until it is `false` when they settle.
    public var isLoadingPage: Bool { pagination?.isLoading ?? false }

    /// The number of rendered items, loading row excluded.
    private var renderedItemCount: Int { renderer.renderedCounts.reduce(0, +) }

    /// Fires the pagination command if `path` is within the threshold of the end and a page is due.
    func loadMoreIfNeeded(displaying path: ElementPath) {
        let counts = renderer.renderedCounts
        guard let pagination, path.section >= 0, path.section < counts.count else { return }
        let position = counts[..<path.section].reduce(0, +) + path.item
        guard position >= renderedItemCount - pagination.threshold else { return }
        // A row displayed by the batch that shrank the list (a refresh while the user is at its
        // end) comes before `didRender`: the rendered rows are already the new ones, so the last
        // page is forgotten here too, or that row would load nothing.
        resumeIfShrunk(pagination)
        if pagination.isLoading && !isLoadingRow(path) {
            // On a device, the rows a page brings are displayed as soon as their batch lands,
            // before the run's end reaches the main queue: remember the row, and look again then.
            pagination.displayedWhileLoading = max(pagination.displayedWhileLoading ?? position, position)
        }
        loadMore(pagination)
    }

    /// Called after each rendered event (and when pagination starts): resumes a pagination
    /// stopped at the last page once the list has fewer rows than it had then, and fires the
    /// command for an empty list, which displays no row to trigger it.
    func paginateAfterRendering() {
        guard let pagination else { return }
        resumeIfShrunk(pagination)
        guard renderedItemCount == 0, listView != nil else { return }
        loadMore(pagination)
    }

    /// Forgets the last page when the rendered list has fewer rows than when it was reached: a
    /// refresh, a `replace(with:)` or deletions brought it back, and the pages past its end are due
    /// again.
    private func resumeIfShrunk(_ pagination: Pagination) {
        guard let last = pagination.lastPageItemCount, renderedItemCount < last else { return }
        pagination.lastPageItemCount = nil
    }

    /// Fires the pagination command once for the current page.
    private func loadMore(_ pagination: Pagination) {
        let count = renderedItemCount
        guard pagination.firedAtCount != count, pagination.lastPageItemCount == nil, !pagination.isLoading else {
            return
        }
        pagination.firedAtCount = count
        let refusal = pagination.load()
        pagination.run = refusal == nil ? .fired : .none
        if refusal == .ownerDeallocated && !pagination.reportedOwnerGone {
            // Once: every row displayed near the end would say it again.
            pagination.reportedOwnerGone = true
            Diagnostics.report(
                Diagnostic(
                    kind: .paginationStopped, source: "\(Self.self).paginate(with:)",
                    message: "the pagination command's owner is gone; no more pages load"))
        }
    }

    /// Follows the runs this pagination started, and shows or hides the loading row as the
    /// command starts and ends.
    private func executingChanged(_ executing: Bool) {
        guard let pagination else { return }
        var grewSinceFired = false
        switch (pagination.run, executing) {
        case (.fired, true):
            // The start of the run it fired; a "not executing" before it was replayed from before.
            pagination.run = .started
        case (.started, false):
            grewSinceFired = pagination.firedAtCount.map { renderedItemCount > $0 } ?? false
            // The run's end, delivered after its result and after the rows it appended: the last
            // page is known by now, and the page it loaded is on screen (or the load brought
            // nothing). Either way the next page is due: the next row displayed near the end
            // loads it, also at a count the list had before (a refresh back to the first page).
            pagination.run = .none
            pagination.firedAtCount = nil
        default:
            break
        }
        // The event says the state changed; the command says what it is now.
        renderer.setLoadingRow(shown: pagination.isExecuting() && pagination.showsLoadingRow)
        // A row near the end was displayed while the page loaded (the page's own rows, when they
        // do not fill the screen): the next page is due now, as no row will be displayed again.
        // A page that brought nothing waits for the user to scroll, as before.
        if !pagination.isLoading, let position = pagination.displayedWhileLoading {
            pagination.displayedWhileLoading = nil
            if grewSinceFired && position >= renderedItemCount - pagination.threshold { loadMore(pagination) }
        }
    }
}

/// A source's pagination: the command and the state of the current page.
@MainActor
final class Pagination {
    let threshold: Int
    let showsLoadingRow: Bool
    /// The command's live executing state.
    let isExecuting: () -> Bool
    /// Executes the command; its refusal, or `nil` when it started.
    let load: () -> CommandRefusal?
    /// The number of rendered items when the command last fired, until its run's end is delivered;
    /// `nil` when a page is due.
    var firedAtCount: Int?
    /// The run this pagination started, as its events reach the main queue.
    var run = Run.none
    /// The furthest position, counted across sections, of a row near the end that was displayed
    /// while a page loaded, or `nil`.
    var displayedWhileLoading: Int?
    /// The number of rendered items when a run's result said ``PageLoad/lastPage``; `nil` while
    /// pages remain. A list rendered with fewer items resumes the pagination.
    var lastPageItemCount: Int?
    /// The subscriptions to the command.
    var tokens: [SubscriptionToken] = []

    /// Whether a refusal for an owner that is gone was reported.
    var reportedOwnerGone = false

    init(
        threshold: Int, showsLoadingRow: Bool, isExecuting: @escaping () -> Bool,
        load: @escaping () -> CommandRefusal?
    ) {
        self.threshold = threshold
        self.showsLoadingRow = showsLoadingRow
        self.isExecuting = isExecuting
        self.load = load
    }

    /// Where the run the pagination started is, as the main queue has heard of it.
    enum Run {
        /// No run of its own: none started, or its end has been delivered.
        case none
        /// Started; its start has not been delivered yet.
        case fired
        /// Its start has been delivered; its result and end may still be on their way.
        case started
    }

    /// Whether a page is loading, or the end of the run that loaded it has not been delivered.
    var isLoading: Bool { run != .none || isExecuting() }

    /// Ends the subscriptions to the command.
    func stop() {
        for token in tokens { token.cancel() }
        tokens.removeAll()
    }
}
