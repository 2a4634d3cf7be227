import Observation

/// Counts the invalidations Observation reports for what `read` reads, as a SwiftUI body that
/// reads it would be invalidated.
///
/// A registration of `withObservationTracking` fires at most once, so a counter that registers
/// again only after an event saturates at one: two invalidations for one event would count as
/// one. This one registers again inside each report, at once, so every invalidation counts, and
/// "exactly once per event" is tested as exactly once.
///
/// Changes must happen on the main actor (as Ripple's observed states make them): each report
/// runs where the change happens.
@MainActor
public final class InvalidationCounter {
    private let read: @MainActor () -> Void
    private var count = 0

    /// Starts counting the invalidations of what `read` reads.
    ///
    /// - Parameter read: Reads the observed properties, as a view body does.
    public init(reading read: @escaping @MainActor () -> Void) {
        self.read = read
        track()
    }

    /// The invalidations so far.
    public var invalidations: Int { count }

    private func track() {
        withObservationTracking(read) { [weak self] in
            // Called in the property's `willSet`, on the thread that changes it: the main actor.
            MainActor.assumeIsolated {
                guard let self else { return }
                self.count += 1
                self.track()
            }
        }
    }
}
