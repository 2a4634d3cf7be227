// swift-format-ignore-file
// (Not formatted: the comment that names each expected error must stay on its line.)
// A command's Dispatch body runs on the queue it is given, here a global one: it is `@Sendable`,
// so writing the presenter's main-actor state from it must not compile. (Before Ripple typed its
// bodies, this compiled and ThreadSanitizer reported the race on `counter`.)

import Dispatch
import Ripple

final class ProbePresenter: Presenter<any Viewable> {
    var counter = 0

    private(set) lazy var work = Command(delegate: self, queue: DispatchQueue.global(), work: { owner, _, done in
        owner.counter += 1  // expected-error: main actor-isolated property 'counter' can not be mutated from a Sendable closure
        done.succeed()
    })

    private(set) lazy var save = CommandWithParameter<Int>(delegate: self, queue: DispatchQueue.global(), work: {
        owner, value, done in
        owner.counter = value  // expected-error: main actor-isolated property 'counter' can not be mutated from a Sendable closure
        done.succeed()
    })
}
