// swift-format-ignore-file
// (Not formatted: the comment that names each expected error must stay on its line.)
// A nonisolated command's bodies are `@Sendable`: its sync body (`nonisolatedPerform:`) runs on
// whichever thread calls `execute()`, its async body (`nonisolatedTask:`) off every actor, before
// and after each `await`. Neither may touch a presenter's main-actor state. (A command made with
// `delegate:` and `perform:`/`task:` runs the same bodies on the main actor, where they compile.)

import Ripple

final class ProbePresenter: Presenter<any Viewable> {
    var counter = 0

    private(set) lazy var syncWork = Command(nonisolatedPerform: { [weak self] in
        self?.counter += 1  // expected-error: main actor-isolated property 'counter' can not be mutated from a Sendable closure
    })

    private(set) lazy var asyncWork = Command(nonisolatedTask: { [weak self] in
        await Task.yield()
        self?.counter += 1  // expected-error: main actor-isolated property 'counter' can not be mutated from a Sendable closure
    })

    private(set) lazy var guarded = Command(nonisolatedPerform: {}, canExecute: { [weak self] in
        (self?.counter ?? 0) < 10  // expected-error: main actor-isolated property 'counter' can not be referenced from a Sendable closure
    })
}
