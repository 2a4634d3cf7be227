// The public staged diffs, as `Changeset+Identity.swift`: one that takes a `DiffIdentity`, and one
// for `Identifiable & Equatable` elements.

extension StagedChangeset {
    /// Diffs `source` against `target` and stages the result for UIKit, with elements identified
    /// and compared by `identity`.
    ///
    /// See ``StagedChangeset`` for the stages; an unchanged list gives no stage.
    ///
    /// <!-- swift
    /// struct Book: Equatable {
    ///     var isbn: String
    ///     var title: String
    /// }
    /// let rendered = [Book(isbn: "1", title: "Dune"), Book(isbn: "2", title: "Emma")]
    /// let fresh = [Book(isbn: "2", title: "Emma"), Book(isbn: "1", title: "Dune (2nd ed.)")]
    /// func apply<Stage>(_ stage: Stage) {}
    /// -->
    /// ```swift
    /// let stages = StagedChangeset(from: ["a", "b", "c"], to: ["c", "a", "d"], identity: .value)
    /// for stage in stages { print(stage.changeset) }
    /// ```
    ///
    /// - Parameters:
    ///   - source: The list before the change.
    ///   - target: The list after the change.
    ///   - identity: How elements are identified and compared: ``DiffIdentity/id``,
    ///     ``DiffIdentity/object``, ``DiffIdentity/value`` or
    ///     ``DiffIdentity/key(_:contentEquals:)``. Repeated identifiers are paired as
    ///     ``Changeset/init(from:to:identity:)`` says and reported in the first stage's
    ///     ``Changeset/duplicates``.
    /// - Complexity: Expected O(*n* + *m*) for *n* source and *m* target elements, plus O(*k* log *k*) to choose moves among *k* elements that changed order. O(*n*) without hashing when the lists are equal.
    @inlinable
    public init<Element, Rule>(from source: [Element], to target: [Element], identity: DiffIdentity<Element, Rule>)
    where Data == [Element] {
        self.init(changeset: Changeset(from: source, to: target, rule: identity._rule), source: source, target: target)
    }

    /// Diffs `source` against `target` and stages the result for UIKit, for `Identifiable` and
    /// `Equatable` elements: identity from `id`, content from `==` (``DiffIdentity/id``).
    ///
    /// - Parameters:
    ///   - source: The list before the change.
    ///   - target: The list after the change.
    /// - Complexity: Expected O(*n* + *m*) for *n* source and *m* target elements, plus O(*k* log *k*) to choose moves among *k* elements that changed order. O(*n*) without hashing when the lists are equal.
    @inlinable
    public init<Element: Identifiable & Equatable>(from source: [Element], to target: [Element])
    where Data == [Element] {
        self.init(changeset: Changeset(from: source, to: target), source: source, target: target)
    }
}
