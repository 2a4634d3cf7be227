// swift-format-ignore-file
// (Not formatted: the comment that names each expected error must stay on its line.)
// A command's body kind is in its label, never chosen by overload resolution: `perform:` takes a
// synchronous body, which runs before `execute()` returns; `task:` takes an `async` one, which runs
// in a task. An `async` closure passed as `perform:` must not compile (before, one `handler:`
// label took both, and whether the closure contained an `await` decided when and where it ran).

import Ripple

final class ProbePresenter: Presenter<any Viewable> {
    func load() async {}

    // expected-error: to parameter expecting synchronous function type
    private(set) lazy var reload = Command(delegate: self, perform: { owner in await owner.load() })

    // expected-error: to parameter expecting synchronous function type
    private(set) lazy var refresh = Command(nonisolatedPerform: { await Task.yield() })
}
