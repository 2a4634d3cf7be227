import Ripple

/// The pagination's rules (docs/sources.md, "Pagination") in plain Swift, with no thread and no
/// queue: what a list source, an observed list or the pagination itself must do, event by event,
/// at the pace of the main queue. Property tests drive the real thing and this model with the
/// same events and compare the loads and the loading row after each.
///
/// The command it follows is a `CommandWithResult<Void, PageLoad>` under `.ignoreWhileRunning`:
/// one run at a time, refused while one goes on, while its predicate is false or once its owner is
/// gone.
public struct PaginationModel: Sendable {
    /// How close to the end, in rows, a displayed row wants the next page.
    public let threshold: Int
    /// Whether the pagination shows a loading row.
    public let showsLoadingRow: Bool

    /// The rendered items.
    public private(set) var itemCount = 0
    /// The loads the pagination started.
    public private(set) var loads = 0
    /// Whether a run of the command goes on (the pagination's or another's).
    public private(set) var isRunning = false
    /// Whether the run going on is the pagination's.
    public private(set) var runIsOwn = false
    /// The command's predicate.
    public private(set) var isAllowed: Bool

    /// The pagination's load in flight, from its start until its end reaches the main queue: the
    /// item count and the row that fired it.
    private var ownLoad: (itemCount: Int, position: Int)?
    /// The furthest row near the end that was seen and that no load served yet.
    private var wanted: Int?
    /// The item count when a `.lastPage` result arrived; `nil` while pages remain.
    private var lastPageItemCount: Int?
    /// `canExecute` as the pagination last saw it.
    private var couldExecute: Bool
    /// Whether a result is on its way to the main queue.
    private var resultInTransit = false

    /// A pagination started on a rendered list of `itemCount` items.
    ///
    /// - Parameters:
    ///   - threshold: The pagination's threshold (negative counts as 0).
    ///   - showsLoadingRow: Whether it shows a loading row.
    ///   - itemCount: The rendered items when it starts.
    ///   - isAllowed: The command's predicate.
    public init(threshold: Int, showsLoadingRow: Bool, itemCount: Int, isAllowed: Bool) {
        self.threshold = max(0, threshold)
        self.showsLoadingRow = showsLoadingRow
        self.isAllowed = isAllowed
        couldExecute = isAllowed
        rendered(itemCount: itemCount)
    }

    /// Whether a load the pagination started has not ended yet (`isLoadingPage`).
    public var isLoading: Bool { ownLoad != nil }

    /// Whether the loading row shows: exactly while a load the pagination started runs.
    public var showsLoadingRowNow: Bool { showsLoadingRow && ownLoad != nil }

    /// Whether `execute` would start a run now.
    public var canExecute: Bool { isAllowed && !isRunning }

    // MARK: - What the user and the app do

    /// The row at `position` is displayed.
    public mutating func display(at position: Int) {
        guard position >= itemCount - threshold else { return }
        resumeIfShrunk()
        wanted = max(wanted ?? position, position)
        loadIfDue()
    }

    /// The list changed to `itemCount` items and was rendered.
    public mutating func rendered(itemCount: Int) {
        self.itemCount = itemCount
        resumeIfShrunk()
        guard itemCount == 0 else { return }
        wanted = max(wanted ?? 0, 0)
        loadIfDue()
    }

    /// The app starts a run itself (a "Load more" button): returns whether it started.
    public mutating func startElsewhere() -> Bool {
        guard canExecute else { return false }
        isRunning = true
        runIsOwn = false
        canExecuteChanged()
        return true
    }

    /// The predicate changes, and the app says so (`raiseCanExecuteChanged()`).
    public mutating func setAllowed(_ allowed: Bool) {
        isAllowed = allowed
        canExecuteChanged()
    }

    /// How a run ends.
    public enum Ending: Sendable, Equatable {
        /// It added `rows` items and returned `load`.
        case succeeded(rows: Int, PageLoad)
        /// It failed (or was cancelled) after adding `rows` items.
        case failed(rows: Int)
    }

    /// The run going on ends; its rows, its result and its end reach the main queue in order.
    ///
    /// - Parameters:
    ///   - ending: How it ends.
    ///   - displayingFirst: A row displayed after a run that succeeded ended and before any of
    ///     that reached the main queue (its result is then on its way).
    public mutating func endRun(_ ending: Ending, displayingFirst position: Int? = nil) {
        precondition(isRunning, "PaginationModel.endRun: no run goes on")
        if position != nil, case .failed = ending {
            preconditionFailure("PaginationModel.endRun: a row displayed before a failed run's end is not modelled")
        }
        isRunning = false
        let rows: Int
        let result: PageLoad?
        switch ending {
        case .succeeded(let added, let load): (rows, result) = (added, load)
        case .failed(let added): (rows, result) = (added, nil)
        }
        resultInTransit = result != nil
        if let position { display(at: position) }
        if rows > 0 { rendered(itemCount: itemCount + rows) }
        if let result {
            resultInTransit = false
            lastPageItemCount = result == .lastPage ? itemCount : nil
        }
        executingEnded()
        canExecuteChanged()
    }

    /// The list changes by itself (a refresh, deletions, another screen's appends).
    public mutating func change(toItemCount count: Int) {
        guard count != itemCount else { return }  // no change, no event
        rendered(itemCount: count)
    }

    // MARK: - The rules

    private var commandIsBusy: Bool { ownLoad != nil || resultInTransit || isRunning }

    private mutating func resumeIfShrunk() {
        if let last = lastPageItemCount, itemCount < last { lastPageItemCount = nil }
    }

    private mutating func loadIfDue() {
        guard let position = wanted, position >= itemCount - threshold, lastPageItemCount == nil, !commandIsBusy
        else { return }
        guard canExecute else {
            couldExecute = false
            return
        }
        loads += 1
        isRunning = true
        runIsOwn = true
        ownLoad = (itemCount, position)
        wanted = nil
        // The run's start changes `canExecute`: its event reaches the main queue next.
        canExecuteChanged()
    }

    /// The executing state's `false` reaches the main queue.
    private mutating func executingEnded() {
        guard let load = ownLoad else { return loadIfDue() }
        ownLoad = nil
        couldExecute = canExecute
        if itemCount > load.itemCount {
            loadIfDue()
        } else {
            wanted = max(wanted ?? load.position, load.position)
        }
    }

    /// A `canExecuteChanges` event reaches the main queue.
    private mutating func canExecuteChanged() {
        let can = canExecute
        let could = couldExecute
        couldExecute = can
        guard can, !could else { return }
        resumeIfShrunk()
        loadIfDue()
    }
}

extension PaginationModel: CustomStringConvertible {
    /// The model's state, for a failure message.
    public var description: String {
        "\(itemCount) rows, \(loads) loads, \(isRunning ? (runIsOwn ? "own run" : "other run") : "idle"), "
            + "own load \(ownLoad.map { "fired at \($0.itemCount) rows by row \($0.position)" } ?? "none"), "
            + "wanted \(wanted.map(String.init) ?? "none"), last page at \(lastPageItemCount.map(String.init) ?? "none"), "
            + "predicate \(isAllowed), could execute \(couldExecute)"
    }
}
