// The identity rules, in order of preference:
// 1. `Identifiable.id`;
// 2. `ObjectIdentifier` for classes (presenters);
// 3. the value itself for `Hashable` elements.
// Content changes come from `Equatable`. Swift picks the most constrained overload, so a type that
// matches several rules gets the first one; the combined overloads exist only to say so.

extension StagedChangeset {
    /// Diffs `source` against `target` and stages the result for UIKit, with identity and content given by closures.
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
    /// for stage in StagedChangeset(from: rendered, to: fresh, identifiedBy: { $0.isbn }, contentEquals: ==) { apply(stage) }
    /// ```
    ///
    /// - Parameters:
    ///   - source: The list before the change.
    ///   - target: The list after the change.
    ///   - identifier: Returns the identity of an element. Elements with equal identifiers are the
    ///     same element; repeated identifiers are paired by place (see the note) and reported in
    ///     the first stage's ``Changeset/duplicates``.
    ///   - contentEquals: Returns whether two elements with the same identity show the same content.
    ///     When it returns `false`, the element is updated.
    /// - Complexity: Expected O(*n* + *m*) for *n* source and *m* target elements, plus O(*k* log *k*) to choose moves among *k* elements that changed order. O(*n*) without hashing when the lists are equal.
    /// - Note: The common prefix and suffix are paired in place before any hashing. Between them,
    ///   when the source repeats identifiers, each target element pairs with an unpaired source
    ///   element of its identifier near its own place (within 4 of where the last pair puts it),
    ///   and an identifier left with exactly one unpaired element on each side pairs those; more
    ///   are deleted and inserted. Otherwise repeats pair in order, the first with the first. Moves
    ///   are minimal for that pairing. See `docs/diff.md`.
    @inlinable
    public init<ID: Hashable>(
        from source: [Element],
        to target: [Element],
        identifiedBy identifier: (Element) -> ID,
        contentEquals: (Element, Element) -> Bool
    ) {
        let changeset = Changeset(
            from: source, to: target, identifiedBy: identifier, contentEquals: contentEquals)
        self.init(changeset: changeset, source: source, target: target)
    }

    /// Computes the changes from `source` to `target` for `Identifiable` and `Equatable` elements: identity from `id`, content from `==`.
    ///
    /// - Parameters:
    ///   - source: The list before the change.
    ///   - target: The list after the change.
    /// - Complexity: Expected O(*n* + *m*) for *n* source and *m* target elements, plus O(*k* log *k*) to choose moves among *k* elements that changed order. O(*n*) without hashing when the lists are equal.
    @inlinable
    public init(from source: [Element], to target: [Element]) where Element: Identifiable & Equatable {
        self.init(changeset: Changeset(from: source, to: target), source: source, target: target)
    }

    /// Computes the changes from `source` to `target` for `Identifiable` and `Hashable` elements: identity from `id` (not the whole value), content from `==`.
    ///
    /// - Parameters:
    ///   - source: The list before the change.
    ///   - target: The list after the change.
    /// - Complexity: Expected O(*n* + *m*) for *n* source and *m* target elements, plus O(*k* log *k*) to choose moves among *k* elements that changed order. O(*n*) without hashing when the lists are equal.
    @inlinable
    public init(from source: [Element], to target: [Element]) where Element: Identifiable & Hashable {
        self.init(changeset: Changeset(from: source, to: target), source: source, target: target)
    }

    /// Computes the changes from `source` to `target` for `Hashable` values: the value is its own identity, so a matched element never counts as updated.
    ///
    /// - Parameters:
    ///   - source: The list before the change.
    ///   - target: The list after the change.
    /// - Complexity: Expected O(*n* + *m*) for *n* source and *m* target elements, plus O(*k* log *k*) to choose moves among *k* elements that changed order. O(*n*) without hashing when the lists are equal.
    @inlinable
    public init(from source: [Element], to target: [Element]) where Element: Hashable {
        self.init(changeset: Changeset(from: source, to: target), source: source, target: target)
    }

    /// Computes the changes from `source` to `target` for Objects, such as presenters: identity from `ObjectIdentifier`. The same object is never an update; it refreshes its own cell.
    ///
    /// - Parameters:
    ///   - source: The list before the change.
    ///   - target: The list after the change.
    /// - Complexity: Expected O(*n* + *m*) for *n* source and *m* target elements, plus O(*k* log *k*) to choose moves among *k* elements that changed order. O(*n*) without hashing when the lists are equal.
    @inlinable
    public init(from source: [Element], to target: [Element]) where Element: AnyObject {
        self.init(changeset: Changeset(from: source, to: target), source: source, target: target)
    }

    /// Computes the changes from `source` to `target` for `Identifiable` objects: identity from `id`; a matched object counts as updated only when it is a different instance.
    ///
    /// - Parameters:
    ///   - source: The list before the change.
    ///   - target: The list after the change.
    /// - Complexity: Expected O(*n* + *m*) for *n* source and *m* target elements, plus O(*k* log *k*) to choose moves among *k* elements that changed order. O(*n*) without hashing when the lists are equal.
    @inlinable
    public init(from source: [Element], to target: [Element]) where Element: AnyObject & Identifiable {
        self.init(changeset: Changeset(from: source, to: target), source: source, target: target)
    }

    /// Computes the changes from `source` to `target` for `Identifiable`, `Equatable` objects: identity from `id`, content from `==`.
    ///
    /// - Parameters:
    ///   - source: The list before the change.
    ///   - target: The list after the change.
    /// - Complexity: Expected O(*n* + *m*) for *n* source and *m* target elements, plus O(*k* log *k*) to choose moves among *k* elements that changed order. O(*n*) without hashing when the lists are equal.
    @inlinable
    public init(from source: [Element], to target: [Element]) where Element: AnyObject & Identifiable & Equatable {
        self.init(changeset: Changeset(from: source, to: target), source: source, target: target)
    }

    /// Computes the changes from `source` to `target` for `Identifiable`, `Hashable` objects: identity from `id`, content from `==`.
    ///
    /// - Parameters:
    ///   - source: The list before the change.
    ///   - target: The list after the change.
    /// - Complexity: Expected O(*n* + *m*) for *n* source and *m* target elements, plus O(*k* log *k*) to choose moves among *k* elements that changed order. O(*n*) without hashing when the lists are equal.
    @inlinable
    public init(from source: [Element], to target: [Element]) where Element: AnyObject & Identifiable & Hashable {
        self.init(changeset: Changeset(from: source, to: target), source: source, target: target)
    }

    /// Computes the changes from `source` to `target` for `Hashable` objects: identity from `ObjectIdentifier`, content from `==`.
    ///
    /// - Parameters:
    ///   - source: The list before the change.
    ///   - target: The list after the change.
    /// - Complexity: Expected O(*n* + *m*) for *n* source and *m* target elements, plus O(*k* log *k*) to choose moves among *k* elements that changed order. O(*n*) without hashing when the lists are equal.
    @inlinable
    public init(from source: [Element], to target: [Element]) where Element: AnyObject & Hashable {
        self.init(changeset: Changeset(from: source, to: target), source: source, target: target)
    }
}
