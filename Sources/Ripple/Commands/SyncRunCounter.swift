internal import RippleAtomics

/// The lock-free side of a sync command's runs: how many sync runs started without the command's
/// lock are going on, and whether runs must take the lock instead.
///
/// One word: a count of runs in the low bits, and a *locked* flag. While the flag is clear, nobody
/// observes the command's executing state, `canExecute` or outcomes, and no run that took the lock
/// is going on: `execute` then starts a run with one compare-and-swap and ends it with another,
/// instead of two critical sections. The flag is set and cleared only under the command's lock,
/// and while it is set the count changes only under that lock too (a lock-free start or end fails
/// its compare-and-swap and takes the lock), so the lock's holder sees a stable count.
///
/// The word is touched only through the atomic operations of `RippleAtomics`. The counter is a
/// pointer, so that the hot path retains nothing: its command owns it and calls ``deallocate()``
/// from its `deinit`.
struct SyncRunCounter: @unchecked Sendable {
    // @unchecked: `word` is read and written only with atomic operations.

    /// The flag bit; the count is the bits below it.
    private static var lockedFlag: Int { 1 << (Int.bitWidth - 2) }

    private let word: UnsafeMutablePointer<Int>

    /// Allocates a counter with no runs and the flag clear.
    static func allocate() -> SyncRunCounter {
        let word = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        word.initialize(to: 0)
        return SyncRunCounter(word: word)
    }

    private init(word: UnsafeMutablePointer<Int>) { self.word = word }

    /// Frees the word; the counter and its copies must not be used again.
    func deallocate() {
        word.deinitialize(count: 1)
        word.deallocate()
    }

    /// What ``tryStart(limit:)`` did.
    enum Start {
        /// The run is counted; end it with ``tryEnd()``.
        case started
        /// `limit` runs are going on.
        case refused
        /// The flag is set: start the run under the lock.
        case locked
    }

    /// Counts a new run if the flag is clear and fewer than `limit` runs are going on.
    @inline(__always)
    func tryStart(limit: Int) -> Start {
        var current = ripple_atomic_load(word)
        while true {
            if current & Self.lockedFlag != 0 { return .locked }
            if current >= limit { return .refused }
            if ripple_atomic_compare_exchange(word, &current, current + 1) { return .started }
        }
    }

    /// Ends a run counted by ``tryStart(limit:)`` if the flag is clear; returns `false`, changing
    /// nothing, when it is set: the run must then end under the lock, with ``endUnderLock()``.
    @inline(__always)
    func tryEnd() -> Bool {
        var current = ripple_atomic_load(word)
        while current & Self.lockedFlag == 0 {
            if ripple_atomic_compare_exchange(word, &current, current - 1) { return true }
        }
        return false
    }

    /// The lock-free state: `nil` while the flag is set (ask under the lock), else the count.
    @inline(__always)
    var unlockedCount: Int? {
        let current = ripple_atomic_load(word)
        return current & Self.lockedFlag != 0 ? nil : current
    }

    // MARK: Under the command's lock

    /// How many runs counted here are going on. Stable under the lock once the flag is set.
    var count: Int { ripple_atomic_load(word) & ~Self.lockedFlag }

    /// Ends a run counted by ``tryStart(limit:)``, under the lock.
    func endUnderLock() {
        let previous = ripple_atomic_fetch_add(word, -1)
        precondition(
            previous & ~Self.lockedFlag > 0, "SyncRunCounter.endUnderLock(): no run is counted")
    }

    /// Sets or clears the flag. Set it before reading ``count`` to act on it.
    func setLocked(_ locked: Bool) {
        if locked {
            ripple_atomic_fetch_or(word, Self.lockedFlag)
        } else {
            ripple_atomic_fetch_and(word, ~Self.lockedFlag)
        }
    }
}
