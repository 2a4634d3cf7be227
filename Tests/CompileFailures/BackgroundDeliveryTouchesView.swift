// swift-format-ignore-file
// (Not formatted: the comment that names each expected error must stay on its line.)
// A handler delivered on a background queue is `@Sendable` and runs off the main actor: it can
// neither read a presenter's view nor call the view's main-actor methods.

import Dispatch
import Ripple

@MainActor protocol ScoreView: Viewable {
    func show(score: Int)
}

final class ScorePresenter: Presenter<any ScoreView> {
    private let tokens = TokenBag()

    func follow(_ scores: Emitter<Int>) {
        scores.subscribe(on: .queue(.global())) { [weak self] score in
            // expected-error: main actor-isolated property 'view' can not be referenced from a Sendable closure
            // expected-error: call to main actor-isolated instance method 'show(score:)' in a synchronous nonisolated context
            self?.view?.show(score: score)
        }.store(in: tokens)
    }
}
