// swift-format-ignore-file
// (Not formatted: the comment that names each expected error must stay on its line.)
// A presenter whose `Identifiable` and `Equatable` conformances are isolated to the main actor (the
// compiler's fix-it) is diffed by `id` on the main actor. Off it, `Changeset` must not fall back to
// object identity: the compiler rejects the isolated conformance (issue 21, bug 4). The
// `Sendable` collections' `replace(with:)` cannot be made to reject it; it reports it at run time
// instead (`ObservableCollectionReplaceIsolatedIdentityTests`).

import RippleDiff

@MainActor
final class BookRowPresenter: @MainActor Identifiable, @MainActor Equatable {
    let id: Int
    let title: String

    init(id: Int, title: String) {
        self.id = id
        self.title = title
    }

    static func == (lhs: BookRowPresenter, rhs: BookRowPresenter) -> Bool { lhs.id == rhs.id && lhs.title == rhs.title }
}

@MainActor
func diffOnTheMainActor(_ old: [BookRowPresenter], _ new: [BookRowPresenter]) -> Changeset {
    Changeset(from: old, to: new)  // by `id`: compiles
}

nonisolated func diffOffTheMainActor(_ old: [BookRowPresenter], _ new: [BookRowPresenter]) -> Changeset {
    // expected-error: main actor-isolated conformance of 'BookRowPresenter' to 'Equatable' cannot be used in nonisolated context
    Changeset(from: old, to: new)
}
