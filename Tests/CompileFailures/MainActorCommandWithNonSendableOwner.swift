// swift-format-ignore-file
// (Not formatted: the comment that names each expected error must stay on its line.)
// A command holds its owner weakly and hands it to bodies that may run on other threads (a
// Dispatch body, say), so the owner must be `Sendable`: a presenter is (it is `@MainActor`), a
// plain mutable class is not.

import Ripple

final class Counter {
    var value = 0
}

@MainActor
final class Screen {
    let counter = Counter()

    // expected-error: type 'Counter' does not conform to the 'Sendable' protocol
    lazy var increment = Command(delegate: counter, perform: { $0.value += 1 })
}
