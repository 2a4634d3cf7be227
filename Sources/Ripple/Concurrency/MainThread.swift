import Dispatch

#if canImport(Darwin)
import Darwin
#endif

/// Where main-actor work runs: Ripple checks the thread before it calls a `@MainActor` closure
/// synchronously, and hops to the main queue otherwise.
enum MainThread {
    #if canImport(Darwin)
    /// Whether the caller runs on the main thread, where the main actor's code runs.
    static var isCurrent: Bool { pthread_main_np() != 0 }
    #else
    /// A key set on the main queue only: `getSpecific` finds it on the main thread (outside any
    /// other queue's `sync`) and nowhere else. Dispatch alone, so Ripple needs no Foundation.
    private static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    /// Whether the caller runs on the main queue, where the main actor's code runs.
    ///
    /// `false` on the main thread inside another queue's `sync`: main-actor work then hops, which
    /// is safe, only later.
    static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }
    #endif

    /// Runs `body` on the main actor: at once when called on the main thread, otherwise
    /// asynchronously on the main queue.
    ///
    /// - Parameter body: The work.
    static func run(_ body: @escaping @MainActor () -> Void) {
        if isCurrent {
            // Safe: `isCurrent` has just checked that this is the main thread (the main queue off
            // Darwin), where the main actor's code runs, and `body` runs synchronously, before
            // anything else can run there.
            MainActor.assumeIsolated(body)
        } else {
            MainQueueDeliveries.post(body)
        }
    }
}
