// swift-format-ignore-file
// (Not formatted: the comment that names each expected error must stay on its line.)
// A presenter whose `Identifiable` and `Equatable` conformances are isolated to the main actor (the
// compiler's fix-it) cannot take `ObservableCollection`'s default `replace(with:)`, which diffs by
// `id`: the collection's elements are `Sendable`, and an isolated conformance cannot serve them.
// Before `DiffIdentity`, the call silently fell to an object-identity overload (issue 21, bug 4);
// now the user writes the identity: `.object`, or `.key({ $0.id }, contentEquals: ==)` on the main
// actor.

import Ripple

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
func refresh(_ rows: ObservableCollection<BookRowPresenter>, with fresh: [BookRowPresenter]) {
    rows.replace(with: fresh, identity: .key({ $0.id }, contentEquals: ==))  // compiles
    // expected-error: main actor-isolated conformance of 'BookRowPresenter' to 'Identifiable' cannot satisfy conformance requirement for a 'Sendable' type parameter
    // expected-error: main actor-isolated conformance of 'BookRowPresenter' to 'Equatable' cannot satisfy conformance requirement for a 'Sendable' type parameter
    rows.replace(with: fresh)
}
