import RippleDiff

extension ObservableCollection {
    /// Replaces every element with `elements`, publishing the difference found by `identity`.
    ///
    /// The event holds inserts, deletes, moves (minimal) and updates, never a blanket reload. The
    /// diff runs on a snapshot without any lock held; if another thread mutates the collection
    /// meanwhile, it runs again, and after a few such races it runs under the lock, so that
    /// constant writers cannot starve the call. Repeated identifiers are paired as `docs/diff.md`
    /// describes (by place when the old elements repeat them, otherwise in order) and reported to
    /// ``Diagnostics``.
    ///
    /// <!-- swift
    /// struct Book: Sendable {
    ///     var isbn: String
    ///     var title: String
    /// }
    /// let books = ObservableCollection([Book(isbn: "1", title: "Dune")])
    /// let fromServer = [Book(isbn: "2", title: "Emma"), Book(isbn: "1", title: "Dune (2nd ed.)")]
    /// -->
    /// ```swift
    /// let tags = ObservableCollection(["swift", "ios"])
    /// tags.replace(with: ["ios", "swiftui"], identity: .value)
    /// ```
    ///
    /// - Parameters:
    ///   - elements: The new elements.
    ///   - identity: How elements are identified and compared: ``DiffIdentity/id``,
    ///     ``DiffIdentity/object``, ``DiffIdentity/value`` or
    ///     ``DiffIdentity/key(_:contentEquals:)``. Its closures, if any, run on the calling thread
    ///     and may run under the collection's lock: they must not touch the collection.
    /// - Complexity: One diff: expected O(*n* + *m*).
    @inlinable
    public func replace<Rule>(with elements: [Element], identity: DiffIdentity<Element, Rule>) {
        replace(with: elements) { Changeset(from: $0, to: $1, identity: identity) }
    }

    /// Replaces every element with `elements`, diffing `Identifiable`, `Equatable` elements:
    /// identity from `id`, content from `==` (``DiffIdentity/id``).
    ///
    /// See ``replace(with:identity:)`` for the event and the threading.
    ///
    /// An element type whose `Identifiable` or `Equatable` conformance is isolated to the main
    /// actor cannot use this method: the compiler rejects the conformance for the collection's
    /// `Sendable` elements. Declare the conformances `nonisolated`, or pass an identity.
    ///
    /// - Parameter elements: The new elements.
    /// - Complexity: One diff: expected O(*n* + *m*).
    @inlinable
    public func replace(with elements: [Element]) where Element: Identifiable & Equatable {
        replace(with: elements, identity: .id)
    }

    /// Replaces the elements, diffing optimistically outside the lock: up to
    /// ``_optimisticReplaceAttempts`` times, each thrown away when another mutation came first;
    /// then once more with the diff under the lock, so that constant writers on other threads
    /// cannot starve the call. The diff's closures (identity, content) then run under the lock:
    /// they must not touch the collection, which they never need to.
    @inlinable
    func replace(with elements: [Element], diff: ([Element], [Element]) -> Changeset) {
        // The new storage is built once, outside the lock: O(n), and the same whatever the diff.
        // It is built after the first diff, whose copy of the old elements is freed by then, so
        // that the new leaves can take its memory: built before, with the copy alive, every
        // replace made the heap grow by a list's worth of fresh pages, whose page faults cost as
        // much as the diff.
        var replacement: ListSnapshot<Element>?
        for attempt in 0...Self._optimisticReplaceAttempts {
            let underLock = attempt == Self._optimisticReplaceAttempts
            let read = underLock ? nil : state.withLock { ($0.elements, $0.mutations) }
            // The diff reads contiguous arrays: the snapshot is copied once, outside the lock.
            let optimistic = read.map { diff(Array($0.0), elements) }
            let built = replacement ?? ListSnapshot(elements)
            replacement = built
            // The old elements are returned, to be released after unlocking.
            let (applied, _) = mutate { state -> (Changeset?, (Changeset?, ListSnapshot<Element>)) in
                if let read, state.mutations != read.1 { return (nil, (nil, ListSnapshot())) }
                let changeset = optimistic ?? diff(Array(state.elements), elements)
                var old = built
                swap(&old, &state.elements)
                state.replacedSinceLastEvent = true
                if var batch = state.batch {
                    // Nothing to record when nothing changed, as outside a batch.
                    guard !changeset.isEmpty else { return (nil, (changeset, old)) }
                    var origins = changeset.applied(to: Array(batch.origins)) { _ in -1 }
                    for update in changeset.updates {
                        let origin = batch.origins[update.source]
                        origins[update.target] = origin
                        if origin >= 0 { batch.updated.append(origin) }
                    }
                    batch.origins = ListSnapshot(origins)
                    state.batch = batch
                    return (nil, (changeset, old))
                }
                return (changeset, (changeset, old))
            }
            guard let changeset = applied else { continue }
            if !changeset.duplicates.isEmpty {
                Diagnostics.report(
                    Diagnostic(
                        kind: .duplicateIdentifiers, source: "ObservableCollection.replace(with:)",
                        message: "repeated identifiers at \(changeset.duplicates); "
                            + (changeset.duplicates.sourceOffsets.isEmpty ? "paired in order" : "paired by place")))
            }
            return
        }
    }

    /// How many optimistic diffs outside the lock a `replace` tries before it diffs under the lock.
    @usableFromInline
    static var _optimisticReplaceAttempts: Int { 3 }
}
