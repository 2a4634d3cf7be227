// The lock-protected state of a command, and the small values its critical sections hand back.
//
// None of these types depend on the command's `Parameter`. Nested in the generic class they would
// be generic too, and a command used from another module runs unspecialized code, which looks up
// the metadata of every generic type it touches on every call: those lookups cost more than the
// rest of `execute` together. (The parameters queued under `.enqueue` are the command's own,
// guarded by the same lock.)

/// A command's state, behind the command's lock.
struct CommandState {
    /// Dispatch and async runs, and work bound with `useWork`, by run id.
    var running: [Int: CommandRun] = [:]
    /// Sync bodies running now (on their callers' threads) that started under the lock.
    var syncRunning = 0
    /// Sync bodies that started without the lock, for commands that take the lock-free fast path
    /// (`nil` for the others). Its flag is set whenever anything here needs the lock: a subscriber
    /// to the executing state, `canExecute` or outcomes, or a run that started under the lock.
    let syncRuns: SyncRunCounter?
    var nextRunID = 0
    /// How many parameters wait under `.enqueue`; the parameters themselves are the command's.
    var queuedCount = 0
    /// How many runs may go on at once before the policy stops admitting another: 1 under
    /// `.ignoreWhileRunning`, `limit` under `.concurrent`, unbounded otherwise.
    let runLimit: Int
    // The command's events are queued under the command's own lock, so that racing starts and ends
    // publish in the order they happened, and a run costs one lock to start and one to end.
    var executingEvents = EmitterCore<Bool>()
    var canExecuteEvents = EmitterCore<Void>()
    var errorEvents = EmitterCore<any Error>()
    var outcomeEvents = EmitterCore<CommandOutcome>()

    init(runLimit: Int, syncRuns: SyncRunCounter?) {
        self.runLimit = runLimit
        self.syncRuns = syncRuns
    }

    var activeRuns: Int { running.count + syncRunning + (syncRuns?.count ?? 0) }
    var isExecuting: Bool { activeRuns > 0 || queuedCount > 0 }
    /// Whether the policy lets `execute` start (or queue) another run now.
    var admitsAnotherRun: Bool { activeRuns < runLimit }
    var visible: CommandVisibility {
        CommandVisibility(isExecuting: isExecuting, admitsAnotherRun: admitsAnotherRun)
    }

    /// Queues the events for whatever changed since `before`: `executingChanges` when the executing
    /// state flipped; `canExecuteChanges` when it or the policy's admission flipped, or when
    /// `runEnded` (a body that ran may have changed what the predicate reads).
    mutating func publishChanges(
        since before: CommandVisibility, runEnded: Bool = false, into drains: inout CommandDrains
    ) {
        // Nobody to tell: skip the work (an unobserved `enqueue` would only count the value).
        if executingEvents.subscribers.isEmpty && canExecuteEvents.subscribers.isEmpty { return }
        let now = visible
        if now.isExecuting != before.isExecuting, executingEvents.enqueue(now.isExecuting) {
            drains.insert(.executing)
        }
        if runEnded || now != before, canExecuteEvents.enqueue(()) { drains.insert(.canExecute) }
    }

    /// Whether `executingChanges` or `canExecuteChanges` has a subscriber.
    private var observesVisibility: Bool {
        !(executingEvents.subscribers.isEmpty && canExecuteEvents.subscribers.isEmpty)
    }

    /// Sends runs through the lock: call it before adding a subscriber to the executing state,
    /// `canExecute` or outcomes, or registering a run under the lock, and before reading
    /// ``activeRuns`` to act on it.
    func lockRuns() {
        syncRuns?.setLocked(true)
    }

    /// Lets sync runs start and end without the lock again once nothing needs it: no subscriber to
    /// the executing state, `canExecute` or outcomes, and no run that started under the lock.
    func unlockRunsIfIdle() {
        guard let syncRuns, running.isEmpty, syncRunning == 0, queuedCount == 0,
            !observesVisibility, outcomeEvents.subscribers.isEmpty
        else { return }
        syncRuns.setLocked(false)
    }

    /// The check-and-start of a sync run under `.ignoreWhileRunning` or `.concurrent`, the policies
    /// that neither queue nor cancel: registers the run if the policy admits it.
    ///
    /// - Returns: `nil` when the policy refuses the run; otherwise the event queues to drain once
    ///   unlocked (none when nobody observes the executing state or `canExecute`).
    mutating func startSyncRun() -> CommandDrains? {
        lockRuns()
        guard admitsAnotherRun else {
            unlockRunsIfIdle()
            return nil
        }
        var drains: CommandDrains = []
        if observesVisibility {
            let before = visible
            syncRunning += 1
            publishChanges(since: before, into: &drains)
        } else {
            syncRunning += 1
        }
        return drains
    }

    /// The end of a sync run whose body returned without throwing: one started by
    /// ``startSyncRun()``, or, when `counted`, one counted in ``syncRuns`` that could not end
    /// without the lock. (Under these policies nothing is queued, so no run takes over.)
    ///
    /// - Returns: The event queues to drain once unlocked.
    mutating func endSyncRunSucceeded(counted: Bool) -> CommandDrains {
        var drains: CommandDrains = []
        if !outcomeEvents.subscribers.isEmpty, outcomeEvents.enqueue(.succeeded) { drains.insert(.outcomes) }
        if observesVisibility {
            let before = visible
            endSyncRun(counted: counted)
            publishChanges(since: before, runEnded: true, into: &drains)
        } else {
            endSyncRun(counted: counted)
        }
        unlockRunsIfIdle()
        return drains
    }

    /// Unregisters a sync run: from ``syncRuns`` when `counted`, else from ``syncRunning``.
    mutating func endSyncRun(counted: Bool) {
        if counted, let syncRuns {
            syncRuns.endUnderLock()
        } else {
            syncRunning -= 1
        }
    }

    /// Registers a new run. The caller publishes the change, and, on a command with ``syncRuns``,
    /// has called ``lockRuns()`` first (only `useWork` registers such a run this way).
    mutating func start(sync: Bool, finish: (Int) -> CommandRun) -> CommandAdmission {
        if sync {
            syncRunning += 1
            return .sync
        }
        let id = nextRunID
        nextRunID += 1
        let handle = finish(id)
        running[id] = handle
        return .run(id, handle)
    }
}

/// What subscribers can see of a command's state, apart from the predicate: compared before and
/// after every change, so that each change that shows publishes its events, and no other does.
struct CommandVisibility: Equatable {
    var isExecuting: Bool
    var admitsAnotherRun: Bool
}

/// Which of a command's event queues need draining after the lock is released.
struct CommandDrains: OptionSet {
    let rawValue: UInt8
    static var executing: CommandDrains { CommandDrains(rawValue: 1) }
    static var canExecute: CommandDrains { CommandDrains(rawValue: 2) }
    static var errors: CommandDrains { CommandDrains(rawValue: 4) }
    static var outcomes: CommandDrains { CommandDrains(rawValue: 8) }
}

/// What `execute` (or the end of a run, under `.enqueue`) found it must do once unlocked.
enum CommandAdmission {
    case refused
    case queued
    case sync
    case run(Int, CommandRun)
}
