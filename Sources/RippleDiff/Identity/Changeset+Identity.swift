// The public flat diffs: one that takes a `DiffIdentity`, and one for `Identifiable & Equatable`
// elements, which need none. Both end in the internal `init(from:to:rule:)`.

extension Changeset {
    /// Computes the changes from `source` to `target`, with elements identified and compared by
    /// `identity`.
    ///
    /// ```swift
    /// let changes = Changeset(from: ["a", "b", "c"], to: ["c", "a"], identity: .value)
    /// ```
    ///
    /// - Parameters:
    ///   - source: The list before the change.
    ///   - target: The list after the change.
    ///   - identity: How elements are identified and compared: ``DiffIdentity/id``,
    ///     ``DiffIdentity/object``, ``DiffIdentity/value`` or
    ///     ``DiffIdentity/key(_:contentEquals:)``. Elements with equal identifiers are the same
    ///     element; repeated identifiers are paired by place (see the note) and reported in
    ///     ``Changeset/duplicates``.
    /// - Complexity: Expected O(*n* + *m*) for *n* source and *m* target elements, plus O(*k* log *k*) to choose moves among *k* elements that changed order. O(*n*) without hashing when the lists are equal.
    /// - Note: The common prefix and suffix are paired in place before any hashing. Between them,
    ///   when the source repeats identifiers, each target element pairs with an unpaired source
    ///   element of its identifier near its own place (within 4 of where the last pair puts it),
    ///   and an identifier left with exactly one unpaired element on each side pairs those; more
    ///   are deleted and inserted. Otherwise repeats pair in order, the first with the first. Moves
    ///   are minimal for that pairing. See `docs/diff.md`.
    @inlinable
    public init<Rule>(
        from source: [Rule.Element],
        to target: [Rule.Element],
        identity: DiffIdentity<Rule.Element, Rule>
    ) {
        self.init(from: source, to: target, rule: identity._rule)
    }

    /// Computes the changes from `source` to `target` for `Identifiable` and `Equatable` elements:
    /// identity from `id`, content from `==` (``DiffIdentity/id``).
    ///
    /// ```swift
    /// struct Book: Identifiable, Equatable { let id: Int; var title: String }
    /// let edit = Changeset(from: [Book(id: 1, title: "Dune")], to: [Book(id: 1, title: "Dune II")])
    /// // edit.updates == [OffsetPair(source: 0, target: 0)]
    /// ```
    ///
    /// - Parameters:
    ///   - source: The list before the change.
    ///   - target: The list after the change.
    /// - Complexity: Expected O(*n* + *m*) for *n* source and *m* target elements, plus O(*k* log *k*) to choose moves among *k* elements that changed order. O(*n*) without hashing when the lists are equal.
    @inlinable
    public init<Element: Identifiable & Equatable>(from source: [Element], to target: [Element]) {
        self.init(from: source, to: target, rule: _IdentifiableIdentity<Element>())
    }

    /// Diffs under an identity rule; every public form ends here.
    @inlinable
    internal init<Rule: _IdentityRule>(
        from source: [Rule.Element],
        to target: [Rule.Element],
        rule: Rule
    ) {
        self = source.withUnsafeBufferPointer { old in
            target.withUnsafeBufferPointer { new in
                _flatDiff(old, new, identity: rule, duplicatePairing: .keepingOrder)
            }
        }
        #if RIPPLE_INTERNAL_CHECKS
        // Every flat diff, whichever identity, comes through here.
        _checkDiff(
            self, source: source, target: target, identifier: rule.identifier(of:), contentEquals: rule.sameContent)
        #endif
    }
}
