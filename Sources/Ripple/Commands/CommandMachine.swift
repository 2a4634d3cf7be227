// A command's state as a value, and the transitions that change it: each one returns what the
// command must do once the lock is released (cancel runs, deliver events, start a queued run,
// report an error), the way swift-async-algorithms builds its channels. Nothing here calls out;
// nothing here is generic, so a command's hot path reads no generic metadata.

/// A run the state machine keeps: the handle of a Dispatch or async run, or of work bound with
/// `useWork`. ``CommandResultRun`` is the only conformer.
package protocol CommandRunHandle: AnyObject, Sendable {
    /// The `run(parameter:)` call awaiting the run, if any.
    var waiterID: ObjectIdentifier? { get }
    /// Marks the run cancelled and cancels its task; does nothing once it has ended.
    func cancel()
}

/// A parameter waiting under `.enqueue`: the command's own box (its parameter and the
/// `run(parameter:)` call awaiting it), and that call's identity.
package struct QueuedEntry {
    /// The command's `QueuedRun` box.
    package let run: AnyObject
    /// The identity of the `run(parameter:)` call awaiting it, if any.
    package let waiterID: ObjectIdentifier?

    /// Creates an entry.
    package init(run: AnyObject, waiterID: ObjectIdentifier?) {
        self.run = run
        self.waiterID = waiterID
    }
}

/// A command's state, behind the command's lock, and its transitions.
package struct CommandMachine {
    /// What `execute` does while a run is going on.
    package let policy: CommandPolicy
    /// How many runs may go on at once before the policy stops admitting another: 1 under
    /// `.ignoreWhileRunning`, `limit` under `.concurrent`, unbounded otherwise.
    package let runLimit: Int
    /// Whether the body is synchronous: its runs are counted, not kept.
    package let bodyIsSync: Bool
    /// Dispatch and async runs, and work bound with `useWork`, by run id.
    package private(set) var running: [Int: any CommandRunHandle] = [:]
    /// The ids of the runs in ``running`` that were cancelled (replaced under `.cancelRunning`, by
    /// `cancel()`, or by their awaiting task): whatever their body returns, they publish no value
    /// and end cancelled. Marked here, under the lock, by the transitions that return the handles
    /// to cancel, which is the only way a handle is cancelled; the handle's own flag, which its
    /// body reads, is set only after unlocking.
    package private(set) var cancelledRuns: Set<Int> = []
    /// Sync bodies running now.
    package private(set) var syncRunning = 0
    /// Under `.cancelRunning`, the sync bodies running now by thread (``CurrentThread/id``): how
    /// deep `execute` called from inside a sync body has nested them on that thread. Threads with
    /// none are absent. (No other policy nests: they refuse or queue a call from inside a run.)
    package private(set) var syncDepths: [UInt: Int] = [:]
    private var nextRunID = 0
    /// The parameters waiting under `.enqueue`, oldest first.
    package private(set) var queued: [QueuedEntry] = []
    // The command's events are queued under the command's own lock, so that racing starts and ends
    // publish in the order they happened.
    var executingEvents = EmitterCore<Bool>()
    var canExecuteEvents = EmitterCore<Void>()
    var errorEvents = EmitterCore<any Error>()
    var outcomeEvents = EmitterCore<CommandOutcome>()
    /// The runs' values, erased so that the machine is not generic; the command casts them back.
    var resultEvents = EmitterCore<any Sendable>()

    /// Creates the state of an idle command.
    ///
    /// - Precondition: A `.concurrent` limit is at least 1.
    package init(policy: CommandPolicy, bodyIsSync: Bool) {
        switch policy {
        case .ignoreWhileRunning:
            runLimit = 1
        case .cancelRunning, .enqueue:
            runLimit = .max
        case .concurrent(let limit):
            precondition(
                limit >= 1, "CommandWithResult.init(policy:): concurrent limit \(limit) is out of range 1...")
            runLimit = limit
        }
        self.policy = policy
        self.bodyIsSync = bodyIsSync
    }

    // MARK: - What shows

    package var activeRuns: Int { running.count &+ syncRunning }
    /// Whether a run is going on or queued.
    package var isExecuting: Bool { activeRuns > 0 || !queued.isEmpty }
    /// Whether the policy lets `execute` start (or queue) another run now.
    package var admitsAnotherRun: Bool { activeRuns < runLimit }
    private var visible: CommandVisibility {
        CommandVisibility(isExecuting: isExecuting, admitsAnotherRun: admitsAnotherRun)
    }

    /// Whether this command counts the nesting of its sync runs per thread: a sync `.cancelRunning`
    /// command, the only one whose body can call `execute` from inside without being refused or
    /// queued.
    package var nestsPerThread: Bool {
        guard bodyIsSync, case .cancelRunning = policy else { return false }
        return true
    }

    /// Queues the events for whatever changed since `before`: `executingEvents` when the executing
    /// state flipped; `canExecuteEvents` when it or the policy's admission flipped, or when
    /// `runEnded` (a body that ran may have changed what the predicate reads).
    private mutating func publishChanges(
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

    // MARK: - Transitions

    /// How a run starts: a sync body counted on the calling thread, or a handle kept by id.
    package enum Start {
        case sync
        case run(id: Int, handle: any CommandRunHandle)
    }

    /// What `execute` must do once unlocked (``admit(thread:entry:makeRun:)``).
    package enum AdmitAction {
        /// Start nothing; `execute` returns the refusal.
        case refuse(CommandRefusal)
        /// Trap: a sync `.cancelRunning` body nested `depth` runs deep on this thread.
        case trapTooDeep(depth: Int)
        /// The parameter waits under `.enqueue`; nothing shows.
        case queue
        /// Deliver `drains`, cancel the runs `.cancelRunning` replaces, then start the run.
        case start(Start, cancelling: [any CommandRunHandle], drains: CommandDrains)
    }

    /// The atomic check-and-start of `execute`: applies the policy, registers the run (or queues
    /// the parameter), and publishes the change.
    ///
    /// - Parameters:
    ///   - thread: The calling thread, when ``nestsPerThread``.
    ///   - entry: The queued form of the call, made only if the policy queues it.
    ///   - makeRun: The handle of a new Dispatch or async run with the given id.
    /// - Returns: What to do once unlocked.
    package mutating func admit(
        thread: UInt?, entry: () -> QueuedEntry, makeRun: (Int) -> any CommandRunHandle
    ) -> AdmitAction {
        var cancel: [any CommandRunHandle] = []
        switch policy {
        case .ignoreWhileRunning, .concurrent:
            guard admitsAnotherRun else { return .refuse(.busy) }
        case .cancelRunning:
            // A sync body cannot be cancelled, so `execute` from inside it nests one run deeper
            // each time, without bound: stop before the stack overflows without a message.
            // Counted per thread: runs of plain calls on other threads nest nothing.
            let depth = thread.map { syncDepths[$0, default: 0] } ?? 0
            if bodyIsSync && depth >= syncRunLimit { return .trapTooDeep(depth: depth + 1) }
            if !running.isEmpty {
                cancel = Array(running.values)
                cancelledRuns.formUnion(running.keys)
            }
        case .enqueue:
            if activeRuns > 0 {
                // Already executing, and `.enqueue` admits any number: nothing shows.
                queued.append(entry())
                return .queue
            }
        }
        var drains: CommandDrains = []
        let before = visible
        let start = register(thread: thread, makeRun: makeRun)
        publishChanges(since: before, into: &drains)
        return .start(start, cancelling: cancel, drains: drains)
    }

    /// Registers a new run: a sync one counted (on `thread` when given), another kept by id.
    private mutating func register(thread: UInt?, makeRun: (Int) -> any CommandRunHandle) -> Start {
        if bodyIsSync {
            syncRunning &+= 1
            if let thread { syncDepths[thread, default: 0] &+= 1 }
            return .sync
        }
        let (id, handle) = addRun(makeRun)
        return .run(id: id, handle: handle)
    }

    /// Keeps a new run by the next id, made by `makeRun`.
    private mutating func addRun(_ makeRun: (Int) -> any CommandRunHandle) -> (id: Int, handle: any CommandRunHandle) {
        let id = nextRunID
        nextRunID &+= 1
        let handle = makeRun(id)
        running[id] = handle
        return (id, handle)
    }

    /// Registers work started elsewhere (`useWork`): a run outside the predicate and the policy.
    ///
    /// What `useWork` must do once unlocked (``bindWork(makeRun:)``).
    package enum BindWorkAction {
        /// Deliver `drains`, then hand `handle` to the work.
        case bind(any CommandRunHandle, drains: CommandDrains)
    }

    /// - Returns: What to do once unlocked.
    package mutating func bindWork(makeRun: (Int) -> any CommandRunHandle) -> BindWorkAction {
        var drains: CommandDrains = []
        let before = visible
        let handle = addRun(makeRun).handle
        publishChanges(since: before, into: &drains)
        return .bind(handle, drains: drains)
    }

    /// What the first half of a successful run's end leaves to do once unlocked.
    package enum PublishAction: Equatable {
        /// Deliver `results` now when `drainResults`; deliver `outcomes` only after the run's end
        /// when `drainOutcomesAfterEnd` (the queue stays the caller's to drain until then: a run
        /// ending meanwhile only appends to it).
        case deliver(drainResults: Bool, drainOutcomesAfterEnd: Bool)
        /// The run was cancelled before it returned (replaced under `.cancelRunning`, or by
        /// `cancel()`): nothing was queued; end it as cancelled.
        case endCancelled
    }

    /// The first half of a successful run's end, before the run ends: queues its value for
    /// `results` and its `.succeeded` for `outcomes` at once, so that runs ending together reach
    /// both streams in one order. Deliver the value now; deliver the outcome only after
    /// ``end(_:failure:isCancellation:makeRun:)``, so that it shows the run ended.
    ///
    /// A run that was cancelled publishes nothing, whatever its body returned: under
    /// `.cancelRunning` only the latest run's value reaches `results`.
    ///
    /// The value is boxed only when `results` has a subscriber: a run nobody observes allocates
    /// nothing for it (the emitter's sequence still advances, as `enqueue` would).
    ///
    /// - Parameters:
    ///   - ending: The run that returned.
    ///   - value: What it returned.
    package mutating func publish(
        _ ending: Ending, value: @autoclosure () -> any Sendable
    ) -> PublishAction {
        if case .run(let id) = ending, cancelledRuns.contains(id) {
            return .endCancelled
        }
        let results: Bool
        if resultEvents.subscribers.isEmpty {
            resultEvents.sequence &+= 1
            results = false
        } else {
            results = resultEvents.enqueue(value())
        }
        return .deliver(drainResults: results, drainOutcomesAfterEnd: outcomeEvents.enqueue(.succeeded))
    }

    /// Which run ends: a sync one (counted on `thread` when given), or one kept by id.
    package enum Ending {
        case sync(thread: UInt?)
        case run(id: Int)
    }

    /// How a run ended, as its `run(parameter:)` call sees it.
    package enum RunEnding: Equatable {
        case succeeded
        case failed
        case cancelled
    }

    /// What the end of a run leaves to do once unlocked
    /// (``end(_:failure:isCancellation:makeRun:)``).
    package enum EndAction {
        /// Deliver `drains`, report `unobserved` (a failure nobody observes on `errors`) to
        /// `Diagnostics`, and resume the run's `run(parameter:)` call as `ending` says.
        case finish(ending: RunEnding, drains: CommandDrains, unobserved: (any Error)?)
        /// The same, then start `entry`, the oldest queued parameter under `.enqueue`, which takes
        /// over as a new run (already registered as `start`).
        case finishAndTakeOver(
            ending: RunEnding, drains: CommandDrains, unobserved: (any Error)?, entry: QueuedEntry, start: Start)

        /// How the run ended.
        package var ending: RunEnding {
            switch self {
            case .finish(let ending, _, _), .finishAndTakeOver(let ending, _, _, _, _): ending
            }
        }

        /// The queued run that takes over, or `nil`.
        package var takeOver: (entry: QueuedEntry, start: Start)? {
            guard case .finishAndTakeOver(_, _, _, let entry, let start) = self else { return nil }
            return (entry, start)
        }
    }

    /// Records the end of a run: unregisters it, queues its error and outcome (a success's were
    /// queued by ``publish(_:value:)``), and under `.enqueue`, when it was the last run, starts the
    /// oldest queued parameter.
    ///
    /// - Parameters:
    ///   - ending: The run.
    ///   - failure: Its error, or `nil` when it succeeded. A `CancellationError`, or any error of
    ///     a run that was cancelled, counts as a cancellation, as `isCancellation` says.
    ///   - isCancellation: Whether `failure` itself means the run was cancelled (a
    ///     `CancellationError`, or an owner that went away before the body started).
    ///   - makeRun: The handle of the run that takes over (with its id), when it is not sync.
    package mutating func end(
        _ ending: Ending, failure: (any Error)?, isCancellation: Bool,
        makeRun: (Int, QueuedEntry) -> any CommandRunHandle
    ) -> EndAction {
        var drains: CommandDrains = []
        let before = visible
        let wasCancelled: Bool
        switch ending {
        case .sync(let thread):
            syncRunning &-= 1
            if let thread, let depth = syncDepths[thread] { syncDepths[thread] = depth == 1 ? nil : depth - 1 }
            wasCancelled = false
        case .run(let id):
            running.removeValue(forKey: id)
            wasCancelled = cancelledRuns.remove(id) != nil
        }
        var result = RunEnding.succeeded
        var unobserved: (any Error)?
        if let failure {
            if wasCancelled || isCancellation {
                result = .cancelled
                if outcomeEvents.enqueue(.cancelled) { drains.insert(.outcomes) }
            } else {
                result = .failed
                if errorEvents.subscribers.isEmpty { unobserved = failure }
                if errorEvents.enqueue(failure) { drains.insert(.errors) }
                if outcomeEvents.enqueue(.failed(failure)) { drains.insert(.outcomes) }
            }
        }
        var takeOver: (entry: QueuedEntry, start: Start)?
        if !queued.isEmpty, activeRuns == 0 {
            // The next queued run takes over: the command stays executing, with no flicker.
            let entry = queued.removeFirst()
            takeOver = (entry, register(thread: nil) { makeRun($0, entry) })
        }
        publishChanges(since: before, runEnded: true, into: &drains)
        guard let takeOver else { return .finish(ending: result, drains: drains, unobserved: unobserved) }
        return .finishAndTakeOver(
            ending: result, drains: drains, unobserved: unobserved, entry: takeOver.entry, start: takeOver.start)
    }

    /// What `cancel()` must do once unlocked (``cancelAll()``).
    package enum CancelAllAction {
        /// Deliver `drains`, resume each dropped parameter's `run(parameter:)` call as cancelled,
        /// then cancel `runs`.
        case cancel(runs: [any CommandRunHandle], dropped: [QueuedEntry], drains: CommandDrains)
    }

    /// Cancels every run: drops the queued parameters, and marks the running runs cancelled (they
    /// publish no value).
    ///
    /// - Returns: What to do once unlocked.
    package mutating func cancelAll() -> CancelAllAction {
        var drains: CommandDrains = []
        let before = visible
        let dropped = queued
        queued = []
        cancelledRuns.formUnion(running.keys)
        publishChanges(since: before, into: &drains)
        return .cancel(runs: running.isEmpty ? [] : Array(running.values), dropped: dropped, drains: drains)
    }

    /// What cancelling one awaited run must do once unlocked (``cancel(awaitedBy:)``).
    package enum CancelRunAction {
        /// The run was queued and is dropped: deliver `drains`, then resume its call as cancelled.
        case drop(QueuedEntry, drains: CommandDrains)
        /// The run goes on: cancel it (it publishes no value).
        case cancel(any CommandRunHandle)
        /// No run of that call is queued or running: nothing.
        case none
    }

    /// Cancels the one run the `run(parameter:)` call `waiter` awaits: drops it from the queue, or
    /// marks it cancelled.
    ///
    /// - Returns: What to do once unlocked.
    package mutating func cancel(awaitedBy waiter: ObjectIdentifier) -> CancelRunAction {
        if let index = queued.firstIndex(where: { $0.waiterID == waiter }) {
            var drains: CommandDrains = []
            let before = visible
            let dropped = queued.remove(at: index)
            publishChanges(since: before, into: &drains)
            return .drop(dropped, drains: drains)
        }
        guard let (id, run) = running.first(where: { $0.value.waiterID == waiter }) else { return .none }
        cancelledRuns.insert(id)
        return .cancel(run)
    }
}

/// What subscribers can see of a command's state, apart from the predicate: compared before and
/// after every change, so that each change that shows publishes its events, and no other does.
package struct CommandVisibility: Equatable {
    package var isExecuting: Bool
    package var admitsAnotherRun: Bool
}

/// Which of a command's event queues need draining after the lock is released.
package struct CommandDrains: OptionSet {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }
    package static var executing: CommandDrains { CommandDrains(rawValue: 1) }
    package static var canExecute: CommandDrains { CommandDrains(rawValue: 2) }
    package static var errors: CommandDrains { CommandDrains(rawValue: 4) }
    package static var outcomes: CommandDrains { CommandDrains(rawValue: 8) }
    package static var results: CommandDrains { CommandDrains(rawValue: 16) }
}

/// How deep the sync bodies of one `.cancelRunning` command may nest on one thread: the depth at
/// which `execute`, called from inside its own sync body, traps instead of overflowing the stack.
/// Counted per thread (runs on other threads do not nest), so the limit is far above any real
/// nesting, and far below the depth that would exhaust a 512 KiB secondary thread's stack.
package let syncRunLimit = 64

/// A parameter waiting under `.enqueue`, and the `run(parameter:)` call awaiting it, if one is:
/// the box a ``QueuedEntry`` holds.
final class QueuedRun<Parameter: Sendable, Output: Sendable> {
    let parameter: Parameter
    let waiter: CommandWaiter<Output>?

    init(parameter: Parameter, waiter: CommandWaiter<Output>?) {
        self.parameter = parameter
        self.waiter = waiter
    }
}

// MARK: - Test hooks

extension CommandMachine {
    /// Subscribes `record` synchronously to every stream, as `"executing true"`, `"canExecute"`,
    /// `"error …"`, `"outcome …"` and `"result …"`. (`package`: the machine's tests, which run no
    /// command.)
    package mutating func _subscribeAll(_ record: @escaping @Sendable (String) -> Void) {
        _ = executingEvents.add(.synchronous { record("executing \($0)") }, state: SubscriberState(), replay: nil)
        _ = canExecuteEvents.add(.synchronous { record("canExecute") }, state: SubscriberState(), replay: nil)
        _ = errorEvents.add(.synchronous { record("error \($0)") }, state: SubscriberState(), replay: nil)
        _ = outcomeEvents.add(.synchronous { record("outcome \($0)") }, state: SubscriberState(), replay: nil)
        _ = resultEvents.add(.synchronous { record("result \($0)") }, state: SubscriberState(), replay: nil)
    }

    /// Delivers what `drains` names, in the command's order, as the command does after unlocking.
    /// (`package`: the machine's tests.)
    package mutating func _deliver(_ drains: CommandDrains) {
        func run<Value>(_ core: inout EmitterCore<Value>) {
            while let handoff = core.next() { handoff.run() }
        }
        if drains.contains(.results) { run(&resultEvents) }
        if drains.contains(.errors) { run(&errorEvents) }
        if drains.contains(.outcomes) { run(&outcomeEvents) }
        if drains.contains(.executing) { run(&executingEvents) }
        if drains.contains(.canExecute) { run(&canExecuteEvents) }
    }
}
