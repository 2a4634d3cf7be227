import Dispatch

/// Ripple's deliveries on their way to the main queue: every main-actor handler's event, every hop
/// of a pagination, counted from the moment it is queued until it has run.
///
/// RippleTesting's screens read the count to know when the main queue holds nothing more of
/// Ripple's: a settle then needs no other turn of the main queue to see the screen at rest.
@usableFromInline
package enum MainQueueDeliveries {
    private static let count = LockedState(0)

    /// How many deliveries are queued on the main queue and have not run yet.
    package static var inTransit: Int { count.withLock { $0 } }

    /// Runs `body` on the main queue, after what is queued there now, counted until it has run.
    ///
    /// - Parameter body: The delivery.
    @usableFromInline
    package static func post(_ body: @escaping @MainActor () -> Void) {
        count.withLock { $0 &+= 1 }
        // A closure given to `DispatchQueue.main.async` runs on the main actor.
        DispatchQueue.main.async {
            body()
            count.withLock { $0 &-= 1 }
        }
    }
}
