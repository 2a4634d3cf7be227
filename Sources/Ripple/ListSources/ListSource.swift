import RippleDiff

/// The logic of a list source over a flat ``ObservableCollection``: it renders the collection's
/// events into a ``ListView`` as UIKit batch updates, and answers the view's data-source and
/// delegate questions from the list it has rendered.
///
/// Use its two faces, ``TableViewSource`` and ``CollectionViewSource``; this base holds everything
/// they share.
///
/// # Rendering
/// The source subscribes on the main queue, with the collection's current state first (which it
/// shows with `reloadData()`). For every later event it stages the change-set for UIKit
/// (``StagedChangeset``) and runs one `performBatchUpdates` per stage, swapping its own rendered
/// list to the stage's data **inside** the update closure (R14). It never reads the live
/// collection, which may already be newer than the event.
///
/// It reloads instead of animating, and reports why in ``lastReload``, when:
/// - the view is not in a window;
/// - the change is larger than ``reloadThreshold``;
/// - the view's counts disagree with the change's before-state (for example after the app called
///   `reloadData()` on its own, or changed the view behind the source's back): reported to
///   ``Diagnostics`` as ``Diagnostic/Kind/viewCountMismatch``;
/// - an event is missing (a version gap): reported too.
///
/// It never crashes on a view that is out of step.
///
/// # Thread Safety
/// A list source lives on the main actor, as its view does. Its collection may be mutated from
/// any thread.
@MainActor
public class ListSource<Element: Sendable>: ListSourceBase<Element, [Element]>, ListDataSource {
    private let loadingRow: LoadingRow
    private var pagination: Pagination?

    /// The items are the collection's elements.
    public typealias Item = Element

    /// The list the view shows, as of the last event rendered.
    public var renderedItems: [Element] { renderer.rendered }

    /// The reuse identifier of the loading row shown while
    /// ``paginate(with:threshold:showsLoadingRow:hasMorePages:)``'s command loads a page.
    public var loadingCellIdentifier = "Loading"

    /// Creates a source that renders `collection` into `view`.
    ///
    /// - Parameters:
    ///   - view: The view to drive, held weakly.
    ///   - collection: The collection to render.
    ///   - selectItem: A command executed with the element of each selected item.
    ///   - reloadThreshold: The largest change to animate; larger ones reload.
    ///   - name: The type name used in diagnostics.
    init(
        view: any ListView, collection: ObservableCollection<Element>,
        selectItem: CommandWithParameter<Element>?, reloadThreshold: Int?, name: String
    ) {
        let loadingRow = LoadingRow()
        self.loadingRow = loadingRow
        super.init(
            renderer: ListRenderer(
                view: view, empty: [], reloadThreshold: reloadThreshold, sourceName: name,
                itemCounts: { [$0.count + loadingRow.count] }),
            selectItem: selectItem)
        adoptView()
        token = collection.subscribe(sendingCurrent: true) { [weak self] change in
            self?.render(change)
        }
    }

    override func adoptView() {
        platformAdapter = listView?.adoptDataSource(self)
    }

    /// Stops rendering: the source unsubscribes from its collection and its pagination command.
    /// The view keeps what it shows.
    public override func stop() {
        super.stop()
        pagination?.token?.cancel()
        pagination = nil
    }

    /// Renders one event of the collection.
    private func render(_ change: CollectionChange<Element>) {
        let alive = renderer.render(
            version: change.version, isInitial: change.isInitial, snapshot: change.snapshot,
            beforeCounts: [change.changeset.sourceCount + loadingRow.count], changeCount: change.changeset.changeCount
        ) { rendered in
            change.staged(from: rendered).map { stage in
                ListRenderer.Stage(data: stage.data) { $0.apply(stage.changeset) }
            }
        }
        if !alive { return stop() }
        loadMoreIfEmpty()
    }

    // MARK: - Data source

    /// The number of sections to show: always 1.
    public var numberOfSections: Int { 1 }

    /// The number of rows to show in a section: the rendered items, plus the loading row while a
    /// page loads.
    ///
    /// - Parameter section: The section; only 0 exists.
    /// - Returns: The number of rows in section 0, and 0 for any other section.
    public func numberOfItems(inSection section: Int) -> Int {
        section == 0 ? renderedItems.count + loadingRow.count : 0
    }

    /// The element shown at `path`.
    ///
    /// - Parameter path: A path in section 0 with an item in `0..<renderedItems.count`.
    /// - Returns: The rendered element.
    /// - Precondition: `path` names a rendered item (not the loading row).
    public func element(at path: ElementPath) -> Element {
        guard path.section == 0, path.item >= 0, path.item < renderedItems.count else {
            preconditionFailure(
                "\(renderer.sourceName).element(at:): path \(path) is out of range: section 0, items 0..<\(renderedItems.count)")
        }
        return renderedItems[path.item]
    }

    /// Whether `path` is the loading row.
    ///
    /// - Parameter path: A path on screen.
    public func isLoadingRow(_ path: ElementPath) -> Bool {
        loadingRow.count == 1 && path.section == 0 && path.item == renderedItems.count
    }

    /// The reuse identifier of the cell for the row at `path`: ``cellIdentifier`` of its element,
    /// or ``loadingCellIdentifier`` for the loading row.
    ///
    /// - Parameter path: A row on screen.
    public func cellIdentifier(at path: ElementPath) -> String {
        isLoadingRow(path) ? loadingCellIdentifier : cellIdentifier(element(at: path))
    }

    /// Hands the row's element to a dequeued cell, or none for the loading row.
    ///
    /// - Parameters:
    ///   - cell: A cell dequeued with ``cellIdentifier(at:)``.
    ///   - path: The row it shows.
    public func configure<Cell: PresentingCell>(_ cell: Cell, at path: ElementPath) where Cell.Item == Element {
        if isLoadingRow(path) {
            cell.prepareItemForReuse()
        } else {
            cell.show(element(at: path))
        }
    }

    // MARK: - Delegate

    /// Forwards an item event with the item's element; a selection also executes ``selectItem``.
    ///
    /// A path that no longer names a rendered item (a late callback) is ignored.
    ///
    /// - Parameters:
    ///   - event: What happened.
    ///   - path: The item's path in the rendered list.
    public func handle(_ event: ListItemEvent, at path: ElementPath) {
        if event == .willDisplay { loadMoreIfNeeded(displaying: path) }
        guard path.section == 0, path.item >= 0, path.item < renderedItems.count else { return }
        forward(event, item: renderedItems[path.item], at: path)
    }
}

// MARK: - Pagination

extension ListSource {
    /// Loads pages as the user scrolls: when a row within `threshold` of the end is about to be
    /// displayed, the source executes `command`, once per page.
    ///
    /// ```swift
    /// source.paginate(with: presenter.loadMore, threshold: 5) { presenter.hasMorePages }
    /// ```
    ///
    /// - It fires once per page: not again until the page's rows arrive (or the load ends with
    ///   none, so that scrolling can retry), even when the content is shorter than the screen and
    ///   every row is displayed at once. An empty list, which displays no row, fires it as soon as
    ///   it is rendered.
    /// - It never fires while the command executes, nor once `hasMorePages` returns `false`.
    /// - With `showsLoadingRow`, a row with ``loadingCellIdentifier`` is shown at the end while the
    ///   command executes, and removed when it ends, each in a batch of its own.
    ///
    /// - Parameters:
    ///   - command: Loads the next page and appends it to the collection.
    ///   - threshold: How close to the end, in rows, a displayed row triggers the load.
    ///   - hasMorePages: Returns `false` once the last page has been loaded.
    ///   - showsLoadingRow: Whether to show a loading row while a page loads.
    public func paginate<LoadMore: CommandType>(
        with command: LoadMore, threshold: Int = 5, showsLoadingRow: Bool = true,
        hasMorePages: @escaping () -> Bool = { true }
    ) where LoadMore.Parameter == Void {
        pagination?.token?.cancel()
        let pagination = Pagination(
            threshold: max(0, threshold), hasMorePages: hasMorePages,
            isLoading: { command.isExecuting }, load: { command.execute(parameter: ()) })
        self.pagination = pagination
        pagination.token = command.executingChanges.subscribe { [weak self] executing in
            self?.loadingChanged(executing, showsLoadingRow: showsLoadingRow)
        }
        if renderedVersion > 0 || lastReload != nil { loadMoreIfEmpty() }
    }

    /// Fires the pagination command if `path` is near the end and a page is due.
    private func loadMoreIfNeeded(displaying path: ElementPath) {
        guard let pagination, path.section == 0, path.item >= renderedItems.count - pagination.threshold else { return }
        loadMore(pagination)
    }

    /// Fires the pagination command for an empty list, which displays no row to trigger it.
    private func loadMoreIfEmpty() {
        guard let pagination, renderedItems.isEmpty, listView != nil else { return }
        loadMore(pagination)
    }

    /// Fires the pagination command once for the current page.
    private func loadMore(_ pagination: Pagination) {
        let count = renderedItems.count
        guard pagination.firedAtCount != count, !pagination.isLoading(), pagination.hasMorePages() else { return }
        pagination.firedAtCount = count
        _ = pagination.load()
    }

    /// Shows or hides the loading row as the pagination command starts and ends.
    private func loadingChanged(_ executing: Bool, showsLoadingRow: Bool) {
        guard let pagination else { return }
        if !executing, pagination.firedAtCount == renderedItems.count {
            pagination.firedAtCount = nil  // the load brought nothing: let scrolling retry
        }
        let wanted = executing && showsLoadingRow ? 1 : 0
        guard wanted != loadingRow.count, let view = listView else { return }
        let index = renderedItems.count
        guard view.displayedItemCounts == [renderedItems.count + loadingRow.count], view.isInWindow else {
            loadingRow.count = wanted
            view.reloadData()
            return
        }
        view.performBatchUpdates({
            self.loadingRow.count = wanted
            if wanted == 1 {
                view.insertItems(at: [ElementPath(item: index, section: 0)])
            } else {
                view.deleteItems(at: [ElementPath(item: index, section: 0)])
            }
        }, completion: nil)
    }
}

/// Whether the loading row is shown: 0 or 1 rows. A box, so the renderer can count it.
@MainActor
private final class LoadingRow {
    var count = 0
}

/// A source's pagination: the command and the state of the current page.
@MainActor
private final class Pagination {
    let threshold: Int
    let hasMorePages: () -> Bool
    let isLoading: () -> Bool
    let load: () -> Bool
    /// The number of rendered items when the command last fired; `nil` when a page is due.
    var firedAtCount: Int?
    var token: SubscriptionToken?

    init(threshold: Int, hasMorePages: @escaping () -> Bool, isLoading: @escaping () -> Bool, load: @escaping () -> Bool) {
        self.threshold = threshold
        self.hasMorePages = hasMorePages
        self.isLoading = isLoading
        self.load = load
    }
}

/// Counters of what a list source did to its view.
public struct ListSourceStatistics: Sendable, Hashable {
    /// `performBatchUpdates` calls, one per stage.
    public var batches = 0
    /// `reloadData` calls.
    public var reloads = 0

    /// Creates counters.
    ///
    /// - Parameters:
    ///   - batches: `performBatchUpdates` calls.
    ///   - reloads: `reloadData` calls.
    public init(batches: Int = 0, reloads: Int = 0) {
        self.batches = batches
        self.reloads = reloads
    }
}
