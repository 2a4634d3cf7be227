import Ripple

/// A deterministic ``Ripple/WorkScheduler`` for tests: `schedule` only queues the work, and the test
/// decides when it runs.
///
/// Give it to a command's Dispatch body (`queue:`) or to a subscriber (`Delivery.scheduler(_:)`)
/// instead of a `DispatchQueue`, then step it: ``runNext()`` runs one piece of work, ``runAll()``
/// runs until nothing is due, including work that the work itself schedules. Nothing runs in the
/// background, so a test can check the state between any two steps without sleeping.
///
/// ```swift
/// let scheduler = TestScheduler()
/// let save = Command(delegate: presenter, queue: scheduler, work: { presenter, _, done in
///     presenter.store.save { done($0) }
/// })
/// save.execute()                          // .started
/// XCTAssertTrue(save.isExecuting)           // the body has not started yet
/// XCTAssertEqual(scheduler.pendingCount, 1)
/// scheduler.runAll()                        // the body runs here, on the test's thread
/// ```
///
/// # Order
/// Work runs in the order it was scheduled, like a serial `DispatchQueue`, when one thread steps
/// the scheduler. Work due later in virtual time (``schedule(after:_:)``) runs when
/// ``advance(by:)`` reaches its time, in time order, and scheduling order among equal times.
///
/// # Thread Safety
/// Every method may be called from any thread. The queue is behind a lock; work runs on the thread
/// that steps the scheduler, after the lock is released, so work may schedule more work or step the
/// scheduler itself. Two threads stepping at once run their work concurrently, like a concurrent
/// queue; step from one thread to get a serial queue's order.
public final class TestScheduler: WorkScheduler, Sendable {
    struct Job: Sendable {
        /// Virtual time, in nanoseconds since the scheduler was created.
        let due: Int64
        let work: @Sendable () -> Void
    }

    struct State: Sendable {
        var now: Int64 = 0
        /// Sorted by due time, then by scheduling order. Entries before `head` have been taken.
        var jobs: [Job?] = []
        var head = 0

        var pendingCount: Int { jobs.count - head }

        mutating func insert(_ job: Job) {
            // Binary search for the first pending job due strictly later: equal times stay FIFO.
            var low = head
            var high = jobs.count
            while low < high {
                let middle = low + (high - low) / 2
                if jobs[middle]!.due <= job.due {
                    low = middle + 1
                } else {
                    high = middle
                }
            }
            jobs.insert(job, at: low)
        }

        /// Takes the first job due at or before `limit`, and moves `now` up to its due time.
        mutating func takeNext(dueBy limit: Int64) -> Job? {
            guard head < jobs.count, let job = jobs[head], job.due <= limit else { return nil }
            jobs[head] = nil
            head += 1
            if head == jobs.count {
                jobs.removeAll(keepingCapacity: jobs.count <= 1024)
                head = 0
            } else if head >= 64 && head * 2 >= jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            now = max(now, job.due)
            return job
        }

        mutating func takeAll() -> [Job?] {
            defer {
                jobs = []
                head = 0
            }
            return jobs
        }
    }

    let state = LockedState(State())

    /// Creates a scheduler with nothing queued, at virtual time zero.
    public init() {}

    /// Queues `work` to run at the current virtual time, when the test steps the scheduler.
    ///
    /// - Parameter work: The work.
    /// - Complexity: O(*n*) for *n* pending jobs in the worst case; O(log *n*) to find the place, and
    ///   amortised O(1) to insert when nothing is scheduled for later.
    public func schedule(_ work: @escaping @Sendable () -> Void) {
        state.withLock { state in
            state.insert(Job(due: state.now, work: work))
        }
    }

    /// The number of jobs scheduled and not yet run, including those due later in virtual time.
    public var pendingCount: Int {
        state.withLock { $0.pendingCount }
    }

    /// Runs the next job that is due now, on the calling thread.
    ///
    /// - Returns: Whether a job ran; `false` when nothing is due.
    @discardableResult
    public func runNext() -> Bool {
        let job = state.withLock { state in state.takeNext(dueBy: state.now) }
        guard let job else { return false }
        job.work()
        return true
    }

    /// Runs jobs that are due now, in order, until none is left, including jobs that the jobs
    /// themselves schedule.
    ///
    /// Work that always schedules more work makes this loop forever; step such work with
    /// ``runNext()``.
    ///
    /// - Returns: The number of jobs that ran.
    @discardableResult
    public func runAll() -> Int {
        var count = 0
        while runNext() { count += 1 }
        return count
    }

    /// Drops every pending job without running it, and returns how many there were.
    ///
    /// The jobs' closures, and whatever they captured, are released after the scheduler's lock is.
    /// Note that a command whose Dispatch body is dropped stays executing: its run never ends.
    ///
    /// - Returns: The number of jobs dropped.
    @discardableResult
    public func discardAll() -> Int {
        let dropped = state.withLock { $0.takeAll() }
        return dropped.reduce(0) { $1 == nil ? $0 : $0 + 1 }
    }
}
