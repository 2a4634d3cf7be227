import Ripple

// Virtual time: work scheduled for later runs only when the test advances the clock.

@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
extension TestScheduler {
    /// The scheduler's virtual time: how far ``advance(by:)`` has moved it since the scheduler was
    /// created. Starts at zero; never moves on its own.
    ///
    /// Virtual time is kept in whole nanoseconds and saturates at `Int64.max` nanoseconds (about
    /// 292 years): later times, and delays that would reach past it, count as that instant.
    public var now: Duration {
        .nanoseconds(state.withLock { $0.now })
    }

    /// Queues `work` to run once virtual time has advanced by `delay`.
    ///
    /// <!-- swift
    /// final class Recorder: Sendable {
    ///     func record(_ value: ()) {}
    /// }
    /// let fired = Recorder()
    /// let scheduler = TestScheduler()
    /// -->
    /// ```swift
    /// scheduler.schedule(after: .seconds(1)) { fired.record(()) }
    /// scheduler.advance(by: .milliseconds(999))   // nothing runs
    /// scheduler.advance(by: .milliseconds(1))     // runs
    /// ```
    ///
    /// - Parameters:
    ///   - delay: How far ahead of ``now``; zero or less means now, as ``schedule(_:)``.
    ///   - work: The work.
    public func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) {
        let offset = Self.nanoseconds(delay)
        state.withLock { state in
            let (sum, overflow) = state.now.addingReportingOverflow(max(offset, 0))
            state.insert(Job(due: overflow ? .max : sum, work: work))
        }
    }

    /// Moves virtual time forward by `duration`, running every job that falls due on the way, in
    /// time order, on the calling thread.
    ///
    /// ``now`` reads each job's due time while the job runs, so a job that schedules more work
    /// after a delay schedules it relative to its own time; work that falls due before the end of
    /// the advance runs in the same call. Afterwards ``now`` has moved by `duration`.
    ///
    /// - Parameter duration: How far to move; zero runs what is due now, like ``runAll()``.
    /// - Returns: The number of jobs that ran.
    @discardableResult
    public func advance(by duration: Duration) -> Int {
        let offset = max(Self.nanoseconds(duration), 0)
        let target = state.withLock { state in
            let (sum, overflow) = state.now.addingReportingOverflow(offset)
            return overflow ? .max : sum
        }
        var count = 0
        while let job = state.withLock({ $0.takeNext(dueBy: target) }) {
            job.work()
            count += 1
        }
        state.withLock { state in state.now = max(state.now, target) }
        return count
    }

    /// `duration` in whole nanoseconds, saturating at the bounds of `Int64`.
    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        let (sum, sumOverflow) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        if sumOverflow { return seconds < 0 ? .min : .max }
        return sum
    }
}
