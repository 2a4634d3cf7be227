// The lock-protected state of a command, and the small values its critical sections hand back.

/// A command's state, behind the command's lock.
struct CommandState<Parameter: Sendable, Output: Sendable> {
    /// Dispatch and async runs, and work bound with `useWork`, by run id.
    var running: [Int: CommandResultRun<Output>] = [:]
    /// Sync bodies running now.
    var syncRunning = 0
    /// Under `.cancelRunning`, the sync bodies running now by thread (``CurrentThread/id``): how
    /// deep `execute` called from inside a sync body has nested them on that thread. Threads with
    /// none are absent. (No other policy nests: they refuse or queue a call from inside a run.)
    var syncDepths: [UInt: Int] = [:]
    var nextRunID = 0
    /// The parameters waiting under `.enqueue`, oldest first.
    var queued: [QueuedRun<Parameter, Output>] = []
    /// How many runs may go on at once before the policy stops admitting another: 1 under
    /// `.ignoreWhileRunning`, `limit` under `.concurrent`, unbounded otherwise.
    let runLimit: Int
    // The command's events are queued under the command's own lock, so that racing starts and ends
    // publish in the order they happened.
    var executingEvents = EmitterCore<Bool>()
    var canExecuteEvents = EmitterCore<Void>()
    var errorEvents = EmitterCore<any Error>()
    var outcomeEvents = EmitterCore<CommandOutcome>()
    var resultEvents = EmitterCore<Output>()

    init(runLimit: Int) {
        self.runLimit = runLimit
    }

    var activeRuns: Int { running.count + syncRunning }

    /// Ends a sync run, counted in ``syncDepths`` on `thread` when given (as it was started).
    mutating func endSync(depthOn thread: UInt?) {
        syncRunning -= 1
        guard let thread, let depth = syncDepths[thread] else { return }
        syncDepths[thread] = depth == 1 ? nil : depth - 1
    }
    var isExecuting: Bool { activeRuns > 0 || !queued.isEmpty }
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

    /// Registers a new run; a sync one is counted in ``syncDepths`` on `thread`, when given. The
    /// caller publishes the change.
    mutating func start(
        sync: Bool, depthOn thread: UInt? = nil, finish: (Int) -> CommandResultRun<Output>
    ) -> CommandAdmission<Output> {
        if sync {
            syncRunning += 1
            if let thread { syncDepths[thread, default: 0] += 1 }
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
    static var results: CommandDrains { CommandDrains(rawValue: 16) }
}

/// A parameter waiting under `.enqueue`, and the `run(parameter:)` call awaiting it, if one is.
struct QueuedRun<Parameter: Sendable, Output: Sendable> {
    var parameter: Parameter
    var waiter: CommandWaiter<Output>?
}

/// What `execute` (or the end of a run, under `.enqueue`) found it must do once unlocked.
enum CommandAdmission<Output: Sendable> {
    case refused(CommandRefusal)
    case queued
    case sync
    case run(Int, CommandResultRun<Output>)
}
