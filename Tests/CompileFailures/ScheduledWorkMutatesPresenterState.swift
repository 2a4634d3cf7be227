// swift-format-ignore-file
// (Not formatted: the comment that names each expected error must stay on its line.)
// A `WorkScheduler` (here a Dispatch queue, as commands use for their Dispatch bodies) runs
// `@Sendable` work on its own thread: that work cannot touch a presenter's main-actor state.

import Dispatch
import Ripple

@MainActor protocol CounterView: Viewable {}

final class CounterPresenter: Presenter<any CounterView> {
    private(set) var count = 0

    func refresh(on queue: DispatchQueue) {
        queue.schedule {
            self.count += 1  // expected-error: main actor-isolated property 'count' can not be mutated from a Sendable closure
        }
    }
}
