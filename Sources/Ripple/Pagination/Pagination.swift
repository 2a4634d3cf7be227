// The one pagination model: when a row near the end is displayed, load the next page, once, until
// the last page, and resume when the list shrinks. The UIKit and AppKit list sources drive it
// with their rendered rows and `willDisplay`; SwiftUI's observed lists with their elements and
// each row's `onAppear`. It knows rows only by count and position. Its rules, which
// `PaginationModel` in the tests restates in plain Swift, are listed in docs/sources.md.

/// A pagination: the command that loads a page, and the state of the current page.
///
/// The owner tells it what the user sees: ``rowDisplayed(at:isLoadingRow:)`` for each row about to
/// be displayed, ``rendered()`` after each change of the list; it reads the list's count through
/// `itemCount` and shows or hides its loading row through `showLoadingRow`.
///
/// It hears the command's results and executing changes through synchronous subscriptions that
/// hop to the main queue themselves (``PaginationMail``): so it knows, on the main actor, whether
/// a run's result has been published and not yet handled, and which `false` of the executing
/// state ends the load it started.
@MainActor
final class Pagination {
    let threshold: Int
    let showsLoadingRow: Bool
    /// The command that loads a page.
    let command: CommandWithResult<Void, PageLoad>
    /// The number of items the user's list has now, loading row excluded.
    private let itemCount: () -> Int
    /// Whether an empty list may load its first page now (a source whose view has gone may not).
    private let mayLoadWhenEmpty: () -> Bool
    /// Shows or hides the loading row.
    private let showLoadingRow: (Bool) -> Void
    /// Names the owner in a diagnostic.
    private let ownerName: String
    /// The command's events on their way to the main queue.
    private let mail = PaginationMail()

    /// The load this pagination started, until its end is handled: the executing events published
    /// before it (a later `false` ends it), the item count and the row that fired it.
    private var ownLoad: (eventsBefore: Int, itemCount: Int, position: Int)?
    /// The furthest row near the end that the user saw and no load has served yet (0 for an
    /// empty list): what a load is for. Kept after a refusal, so that the next display or a
    /// `canExecute` that turns true tries again.
    private var wanted: Int?
    /// The number of items when a run's result said ``PageLoad/lastPage``; `nil` while pages
    /// remain. A list with fewer items resumes the pagination.
    private var lastPageItemCount: Int?
    /// `canExecute` as last seen: a change to `true` from `false` retries a wanted load.
    private var couldExecute: Bool
    /// Whether the loading row shows.
    private var showsRow = false
    /// The subscriptions to the command.
    private var tokens: [SubscriptionToken] = []
    /// Whether a refusal for an owner that is gone was reported.
    private var reportedOwnerGone = false

    /// Starts following `command`. The owner keeps the pagination; the subscriptions hold it
    /// weakly.
    ///
    /// - Parameters:
    ///   - command: Loads the next page and says whether more follow.
    ///   - threshold: How close to the end, in rows, a displayed row triggers the load.
    ///   - showsLoadingRow: Whether to show a loading row while a page loads.
    ///   - ownerName: Names the owner in a diagnostic.
    ///   - itemCount: The number of items the list has now.
    ///   - mayLoadWhenEmpty: Whether an empty list may load its first page now.
    ///   - showLoadingRow: Shows or hides the loading row.
    init(
        following command: CommandWithResult<Void, PageLoad>, threshold: Int, showsLoadingRow: Bool,
        ownerName: String, itemCount: @escaping () -> Int, mayLoadWhenEmpty: @escaping () -> Bool = { true },
        showLoadingRow: @escaping (Bool) -> Void
    ) {
        self.threshold = max(0, threshold)
        self.showsLoadingRow = showsLoadingRow
        self.command = command
        self.ownerName = ownerName
        self.itemCount = itemCount
        self.mayLoadWhenEmpty = mayLoadWhenEmpty
        self.showLoadingRow = showLoadingRow
        couldExecute = command.canExecute(parameter: ())
        // Subscribed before anything can fire: a synchronous run fired at once publishes its result
        // before it returns. Each event is counted where it is published and handled in order on
        // the main queue, after the rows the run added (their events were queued there first).
        let mail = mail
        tokens = [
            command.results.subscribe(on: .synchronous) { [weak self] load in
                mail.post { self?.resultArrived(load) }
            },
            command.executingChanges.subscribe(on: .synchronous) { [weak self] executing in
                // The first is the replay of the state at subscription: no news.
                guard let index = mail.countExecutingEvent() else { return }
                MainQueueDeliveries.post { self?.executingChanged(executing, index: index) }
            },
            command.canExecuteChanges.subscribe { [weak self] in self?.canExecuteChanged() },
        ]
    }

    /// Whether the load this pagination started has not ended yet, as the main queue has heard.
    var isLoading: Bool { ownLoad != nil }

    /// Whether a run of the command may be going on as far as the main queue knows: it executes,
    /// or one of its results has not been handled here yet (a run publishes its result before it
    /// ends, so a last page is never missed in between).
    private var commandIsBusy: Bool { ownLoad != nil || mail.hasResultsInTransit || command.isExecuting }

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
    ///   - isLoadingRow: Whether it is the loading row, which asks for nothing.
    func rowDisplayed(at position: Int, isLoadingRow: Bool) {
        guard !isLoadingRow, position >= itemCount() - threshold else { return }
        // A row displayed by the change that shrank the list (a refresh while the user is at its
        // end) comes before `rendered()`: the list's rows are already the new ones.
        resumeIfShrunk()
        wanted = max(wanted ?? position, position)
        loadIfDue()
    }

    /// The list changed (or pagination started): resumes a pagination stopped at the last page
    /// once the list has fewer rows than it had then, and loads the first page of an empty list,
    /// which displays no row to trigger it.
    func rendered() {
        resumeIfShrunk()
        guard itemCount() == 0, mayLoadWhenEmpty() else { return }
        wanted = max(wanted ?? 0, 0)
        loadIfDue()
    }

    /// Forgets the last page when the list has fewer rows than when it was reached: a refresh, a
    /// `replace(with:)` or deletions brought it back, and the pages past its end are due again.
    private func resumeIfShrunk() {
        guard let last = lastPageItemCount, itemCount() < last else { return }
        lastPageItemCount = nil
    }

    /// Fires the command when a row near the end is wanted, no run is going on, and pages remain.
    private func loadIfDue() {
        let count = itemCount()
        guard let position = wanted, position >= count - threshold, lastPageItemCount == nil, !commandIsBusy
        else { return }
        let eventsBefore = mail.executingEventCount
        switch command.execute(parameter: ()) {
        case .started, .queued, .handedToMainActor:
            ownLoad = (eventsBefore, count, position)
            wanted = nil
            // The row shows from the next turn of the main queue, not inside the display callback
            // that fired the load; a run whose end is handled first never shows it.
            MainQueueDeliveries.post { [weak self] in self?.updateLoadingRow() }
        case .refused(let refusal):
            // Tried again at the next display, or when `canExecute` turns true.
            couldExecute = false
            if refusal == .ownerDeallocated && !reportedOwnerGone {
                // Once: every row displayed near the end would say it again.
                reportedOwnerGone = true
                Diagnostics.report(
                    Diagnostic(
                        kind: .paginationStopped, source: "\(ownerName).paginate(with:)",
                        message: "the pagination command's owner is gone; no more pages load"))
            }
        }
    }

    /// A run's result reached the main queue, after the rows it added and before its end.
    private func resultArrived(_ load: PageLoad) {
        lastPageItemCount = load == .lastPage ? itemCount() : nil
    }

    /// The executing state changed; a `false` published after the own load fired ends it, and
    /// another `false` lets a row that was wanted while the command ran load now.
    private func executingChanged(_ executing: Bool, index: Int) {
        guard !executing else { return }
        guard let load = ownLoad else { return loadIfDue() }
        guard index > load.eventsBefore else { return }
        ownLoad = nil
        updateLoadingRow()
        // The run's own end changes `canExecute` back: that is no news to retry on.
        couldExecute = command.canExecute(parameter: ())
        if itemCount() > load.itemCount {
            // The page landed: a row near the end displayed meanwhile (the page's own rows, when
            // they do not fill the screen) wants the next one now, as no row displays again.
            loadIfDue()
        } else {
            // It brought nothing (it failed, was cancelled or found no rows): the row that fired
            // it is still wanted, for the next display or a `canExecute` that turns true.
            wanted = max(wanted ?? load.position, load.position)
        }
    }

    /// `canExecute` may have changed: retries a wanted load when it turned true.
    private func canExecuteChanged() {
        let can = command.canExecute(parameter: ())
        let could = couldExecute
        couldExecute = can
        guard can, !could else { return }
        resumeIfShrunk()
        loadIfDue()
    }

    /// Shows the loading row while the own load runs.
    private func updateLoadingRow() {
        let shown = showsLoadingRow && ownLoad != nil
        guard shown != showsRow else { return }
        showsRow = shown
        showLoadingRow(shown)
    }
}

/// The command's events on their way from the thread that published them to the main queue:
/// its results are counted while in transit, so that the main actor knows whether one is still on
/// its way, and its executing changes are numbered, so that it knows which came after a load
/// fired.
final class PaginationMail: Sendable {
    private let state = LockedState((resultsInTransit: 0, executingEvents: 0, replaySkipped: false))

    /// Whether a result was posted and not yet handled.
    var hasResultsInTransit: Bool { state.withLock { $0.resultsInTransit > 0 } }

    /// The number of executing changes published so far.
    var executingEventCount: Int { state.withLock { $0.executingEvents } }

    /// Counts one more executing change and returns its number (from 1), or `nil` for the first
    /// call: the replay of the state at subscription, which always comes first.
    func countExecutingEvent() -> Int? {
        state.withLock { state in
            guard state.replaySkipped else {
                state.replaySkipped = true
                return nil
            }
            state.executingEvents += 1
            return state.executingEvents
        }
    }

    /// Handles a result on the main queue, after everything queued there before (the rows its run
    /// added); in transit until then.
    func post(_ body: @escaping @MainActor () -> Void) {
        state.withLock { $0.resultsInTransit += 1 }
        MainQueueDeliveries.post {
            self.state.withLock { $0.resultsInTransit -= 1 }
            body()
        }
    }
}
