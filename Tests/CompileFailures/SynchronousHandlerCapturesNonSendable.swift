// swift-format-ignore-file
// (Not formatted: the comment that names each expected error must stay on its line.)
// A handler delivered `.synchronous` runs on whichever thread sends the value, so it is
// `@Sendable`: it cannot capture a non-Sendable object that another thread may be using.

import Ripple

/// A running total: mutable state without a lock, so not `Sendable`.
final class Counter {
    var total = 0
}

func sum(of values: Emitter<Int>, into counter: Counter) -> SubscriptionToken {
    values.subscribe(on: .synchronous) { value in
        // expected-error: capture of 'counter' with non-Sendable type 'Counter' in a '@Sendable' closure
        counter.total += value
    }
}
