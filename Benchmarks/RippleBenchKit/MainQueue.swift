import Foundation

/// The main queue, drained by hand: the collection's main-actor subscribers (`ObservedList`, a
/// list source) receive each event through `DispatchQueue.main.async`, which a command-line
/// program only runs while its main run loop turns.
@MainActor
enum MainQueue {
    /// Set by the marker block of ``drain()``.
    private static var markerRan = false

    /// Runs every block queued on the main queue so far, on this thread, before returning: queues
    /// a marker block behind them and turns the main run loop, without waiting, until the marker
    /// has run (the main queue runs its blocks in order).
    ///
    /// The marker, rather than a read of the subscriber's state, tells when to stop, so that the
    /// benchmark adds nothing to the subscriber's own work but one more block on the queue.
    /// Traps after 60 seconds without the marker: a queue that never drains is a bug in the
    /// benchmark, not a figure.
    static func drain() {
        markerRan = false
        DispatchQueue.main.async { MainActor.assumeIsolated { markerRan = true } }
        var turns = 0
        var deadline: ContinuousClock.Instant?
        while !markerRan {
            _ = RunLoop.main.run(mode: .default, before: .distantPast)
            turns += 1
            if turns % 100_000 == 0 {
                let now = ContinuousClock.now
                if let deadline {
                    precondition(now < deadline, "the main queue did not drain within 60 s")
                } else {
                    deadline = now + .seconds(60)
                }
            }
        }
    }
}
