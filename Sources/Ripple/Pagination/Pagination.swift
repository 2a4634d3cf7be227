// The one pagination model: when a row near the end is displayed, load the next page, once, until
// the last page, and resume when the list shrinks. The UIKit and AppKit list sources drive it
// with their rendered rows and `willDisplay`; SwiftUI's observed lists with their elements and
// each row's `onAppear`. It knows rows only by count and position.

/// A pagination: the command that loads a page, and the state of the current page.
///
/// The owner tells it what the user sees: ``rowDisplayed(at:isLoadingRow:)`` for each row about to
/// be displayed, ``rendered()`` after each change of the list; it reads the list's count through
/// `itemCount` and shows or hides its loading row through `showLoadingRow`.
@MainActor
final class Pagination {
    let threshold: Int
    let showsLoadingRow: Bool
    /// The command's live executing state.
    private let isExecuting: () -> Bool
    /// Executes the command; its refusal, or `nil` when it started.
    private let load: () -> CommandRefusal?
    /// The number of items the user's list has now, loading row excluded.
    private let itemCount: () -> Int
    /// Whether an empty list may load its first page now (a source whose view has gone may not).
    private let mayLoadWhenEmpty: () -> Bool
    /// Shows or hides the loading row.
    private let showLoadingRow: (Bool) -> Void
    /// Names the owner in a diagnostic.
    private let ownerName: String

    /// The number of items when the command last fired, until its run's end is delivered; `nil`
    /// when a page is due.
    private var firedAtCount: Int?
    /// The run this pagination started, as its events reach the main queue.
    private var run = Run.none
    /// The furthest position of a row near the end that was displayed while a page loaded, or
    /// `nil`.
    private var displayedWhileLoading: Int?
    /// The number of items when a run's result said ``PageLoad/lastPage``; `nil` while pages
    /// remain. A list with fewer items resumes the pagination.
    private var lastPageItemCount: Int?
    /// The subscriptions to the command.
    private var tokens: [SubscriptionToken] = []
    /// Whether a refusal for an owner that is gone was reported.
    private var reportedOwnerGone = false

    /// Where the run the pagination started is, as the main queue has heard of it.
    private enum Run {
        /// No run of its own: none started, or its end has been delivered.
        case none
        /// Started; its start has not been delivered yet.
        case fired
        /// Its start has been delivered; its result and end may still be on their way.
        case started
    }

    /// Starts following `command`. The owner keeps the pagination; the subscriptions hold it
    /// weakly.
    ///
    /// - Parameters:
    ///   - command: Loads the next page.
    ///   - lastPage: For a `CommandWithResult<Void, PageLoad>`, its results stream, which says when
    ///     the last page has arrived.
    ///   - threshold: How close to the end, in rows, a displayed row triggers the load.
    ///   - showsLoadingRow: Whether to show a loading row while a page loads.
    ///   - ownerName: Names the owner in a diagnostic.
    ///   - itemCount: The number of items the list has now.
    ///   - mayLoadWhenEmpty: Whether an empty list may load its first page now.
    ///   - showLoadingRow: Shows or hides the loading row.
    init<LoadMore: CommandType>(
        following command: LoadMore, lastPage: EventStream<PageLoad>? = nil, threshold: Int, showsLoadingRow: Bool,
        ownerName: String, itemCount: @escaping () -> Int, mayLoadWhenEmpty: @escaping () -> Bool = { true },
        showLoadingRow: @escaping (Bool) -> Void
    ) where LoadMore.Parameter == Void {
        self.threshold = max(0, threshold)
        self.showsLoadingRow = showsLoadingRow
        isExecuting = { command.isExecuting }
        load = { command.execute(parameter: ()).refusal }
        self.ownerName = ownerName
        self.itemCount = itemCount
        self.mayLoadWhenEmpty = mayLoadWhenEmpty
        self.showLoadingRow = showLoadingRow
        // Subscribed before anything can fire: a synchronous run fired at once publishes its result
        // before it returns.
        if let lastPage {
            tokens.append(
                lastPage.subscribe { [weak self] load in
                    guard let self else { return }
                    // The rows the run added reached the main queue before its result: they count.
                    self.lastPageItemCount = load == .lastPage ? self.itemCount() : nil
                })
        }
        tokens.append(command.executingChanges.subscribe { [weak self] in self?.executingChanged($0) })
    }

    /// Whether a page is loading, or the end of the run that loaded it has not been delivered.
    var isLoading: Bool { run != .none || isExecuting() }

    /// Ends the subscriptions to the command.
    func stop() {
        for token in tokens { token.cancel() }
        tokens.removeAll()
    }

    /// A row is about to be displayed at `position` (counted across sections): loads the next
    /// page when it is within the threshold of the end and a page is due.
    ///
    /// - Parameters:
    ///   - position: The row's position in the whole list.
    ///   - isLoadingRow: Whether it is the loading row.
    func rowDisplayed(at position: Int, isLoadingRow: Bool) {
        guard position >= itemCount() - threshold else { return }
        // A row displayed by the change that shrank the list (a refresh while the user is at its
        // end) comes before `rendered()`: the list's rows are already the new ones, so the last
        // page is forgotten here too, or that row would load nothing.
        resumeIfShrunk()
        if isLoading && !isLoadingRow {
            // On a device, the rows a page brings are displayed as soon as their batch lands,
            // before the run's end reaches the main queue: remember the row, and look again then.
            displayedWhileLoading = max(displayedWhileLoading ?? position, position)
        }
        loadMore()
    }

    /// The list changed (or pagination started): resumes a pagination stopped at the last page
    /// once the list has fewer rows than it had then, and loads the first page of an empty list,
    /// which displays no row to trigger it.
    func rendered() {
        resumeIfShrunk()
        guard itemCount() == 0, mayLoadWhenEmpty() else { return }
        loadMore()
    }

    /// Forgets the last page when the list has fewer rows than when it was reached: a refresh, a
    /// `replace(with:)` or deletions brought it back, and the pages past its end are due again.
    private func resumeIfShrunk() {
        guard let last = lastPageItemCount, itemCount() < last else { return }
        lastPageItemCount = nil
    }

    /// Fires the command once for the current page.
    private func loadMore() {
        let count = itemCount()
        guard firedAtCount != count, lastPageItemCount == nil, !isLoading else { return }
        firedAtCount = count
        let refusal = load()
        run = refusal == nil ? .fired : .none
        if refusal == .ownerDeallocated && !reportedOwnerGone {
            // Once: every row displayed near the end would say it again.
            reportedOwnerGone = true
            Diagnostics.report(
                Diagnostic(
                    kind: .paginationStopped, source: "\(ownerName).paginate(with:)",
                    message: "the pagination command's owner is gone; no more pages load"))
        }
    }

    /// Follows the runs this pagination started, and shows or hides the loading row as the
    /// command starts and ends.
    private func executingChanged(_ executing: Bool) {
        var grewSinceFired = false
        switch (run, executing) {
        case (.fired, true):
            // The start of the run it fired; a "not executing" before it was replayed from before.
            run = .started
        case (.started, false):
            grewSinceFired = firedAtCount.map { itemCount() > $0 } ?? false
            // The run's end, delivered after its result and after the rows it appended: the last
            // page is known by now, and the page it loaded is shown (or the load brought nothing).
            // Either way the next page is due: the next row displayed near the end loads it, also
            // at a count the list had before (a refresh back to the first page).
            run = .none
            firedAtCount = nil
        default:
            break
        }
        // The event says the state changed; the command says what it is now.
        showLoadingRow(isExecuting() && showsLoadingRow)
        // A row near the end was displayed while the page loaded (the page's own rows, when they
        // do not fill the screen): the next page is due now, as no row will be displayed again.
        // A page that brought nothing waits for the user to scroll, as before.
        if !isLoading, let position = displayedWhileLoading {
            displayedWhileLoading = nil
            if grewSinceFired && position >= itemCount() - threshold { loadMore() }
        }
    }
}
