// Threads for stress tests in which some threads run until another one is done.

import Foundation

/// Runs `body(thread)` for `thread` in `0..<count`, each on a new thread of its own, all at the same
/// time, and returns when every one has returned.
///
/// Unlike `DispatchQueue.concurrentPerform`, which may run its iterations one after another on a
/// machine with fewer cores, every body gets its own thread, so a body may run until another one
/// tells it to stop (see ``StopFlag``).
///
/// ```swift
/// let stop = StopFlag()
/// runOnThreads(5) { thread in
///     if thread == 4 { defer { stop.raise() }; readALot() } else { while !stop.isRaised { mutate() } }
/// }
/// ```
///
/// - Parameters:
///   - count: The number of threads.
///   - body: The work of one thread, given its number.
public func runOnThreads(_ count: Int, _ body: @escaping @Sendable (_ thread: Int) -> Void) {
    let group = DispatchGroup()
    for thread in 0..<count {
        group.enter()
        Thread {
            body(thread)
            group.leave()
        }.start()
    }
    group.wait()
}

/// A flag that one thread raises and others poll, such as readers telling mutators to stop.
public final class StopFlag: @unchecked Sendable {
    // @unchecked: `raised` is only touched with `lock` held.
    private let lock = NSLock()
    private var raised = false

    /// Creates a flag that is not raised.
    public init() {}

    /// Raises the flag; it stays raised.
    public func raise() {
        lock.lock()
        raised = true
        lock.unlock()
    }

    /// Whether the flag has been raised.
    public var isRaised: Bool {
        lock.lock()
        defer { lock.unlock() }
        return raised
    }
}
