// The identity rules, in order of preference:
// 1. `Identifiable.id`;
// 2. `ObjectIdentifier` for classes (presenters);
// 3. the value itself for `Hashable` elements.
// Content changes come from `Equatable`. Swift picks the most constrained overload, so a type that
// matches several rules gets the first one; the combined overloads exist only to say so.

extension Changeset {
    /// Computes the changes from `source` to `target`, with identity and content given by closures.
    ///
    /// Use this form for elements that conform to nothing, or to diff by a key other than the default.
    ///
    /// <!-- swift
    /// struct Book {
    ///     var isbn: String
    ///     var title: String
    /// }
    /// let oldBooks = [Book(isbn: "1", title: "Dune"), Book(isbn: "2", title: "Emma")]
    /// let newBooks = [Book(isbn: "2", title: "Emma"), Book(isbn: "1", title: "Dune (2nd ed.)")]
    /// -->
    /// ```swift
    /// let changes = Changeset(from: oldBooks, to: newBooks, identifiedBy: { $0.isbn }, contentEquals: { $0.title == $1.title })
    /// ```
    ///
    /// - Parameters:
    ///   - source: The list before the change.
    ///   - target: The list after the change.
    ///   - identifier: Returns the identity of an element. Elements with equal identifiers are the
    ///     same element; repeated identifiers are paired by place (see the note) and reported in
    ///     ``Changeset/duplicates``.
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
    public init<Element, ID: Hashable>(
        from source: [Element],
        to target: [Element],
        identifiedBy identifier: (Element) -> ID,
        contentEquals: (Element, Element) -> Bool
    ) {
        self = withoutActuallyEscaping(identifier) { identifier in
            withoutActuallyEscaping(contentEquals) { contentEquals in
                Changeset(
                    from: source, to: target,
                    identity: _ClosureIdentity(identifier: identifier, contentEquals: contentEquals))
            }
        }
    }

    /// Diffs under an identity rule; every public form ends here.
    @inlinable
    internal init<Identity: _DiffIdentity>(
        from source: [Identity.Element],
        to target: [Identity.Element],
        identity: Identity
    ) {
        self = source.withUnsafeBufferPointer { old in
            target.withUnsafeBufferPointer { new in
                _flatDiff(old, new, identity: identity, duplicatePairing: .keepingOrder)
            }
        }
        #if RIPPLE_INTERNAL_CHECKS
        // Every flat diff, whichever identity, comes through here.
        _checkDiff(self, source: source, target: target, identifier: identity.identifier(of:), contentEquals: identity.sameContent)
        #endif
    }

    /// Computes the changes from `source` to `target` for `Identifiable` and `Equatable` elements: identity from `id`, content from `==`.
    ///
    /// - Parameters:
    ///   - source: The list before the change.
    ///   - target: The list after the change.
    /// - Complexity: Expected O(*n* + *m*) for *n* source and *m* target elements, plus O(*k* log *k*) to choose moves among *k* elements that changed order. O(*n*) without hashing when the lists are equal.
    @inlinable
    public init<Element>(from source: [Element], to target: [Element]) where Element: Identifiable & Equatable {
        self.init(from: source, to: target, identity: _IdentifiableIdentity<Element>())
    }

    /// Computes the changes from `source` to `target` for `Identifiable` and `Hashable` elements: identity from `id` (not the whole value), content from `==`.
    ///
    /// - Parameters:
    ///   - source: The list before the change.
    ///   - target: The list after the change.
    /// - Complexity: Expected O(*n* + *m*) for *n* source and *m* target elements, plus O(*k* log *k*) to choose moves among *k* elements that changed order. O(*n*) without hashing when the lists are equal.
    @inlinable
    public init<Element>(from source: [Element], to target: [Element]) where Element: Identifiable & Hashable {
        self.init(from: source, to: target, identity: _IdentifiableIdentity<Element>())
    }

    /// Computes the changes from `source` to `target` for `Hashable` values: the value is its own identity, so a matched element never counts as updated.
    ///
    /// - Parameters:
    ///   - source: The list before the change.
    ///   - target: The list after the change.
    /// - Complexity: Expected O(*n* + *m*) for *n* source and *m* target elements, plus O(*k* log *k*) to choose moves among *k* elements that changed order. O(*n*) without hashing when the lists are equal.
    @inlinable
    public init<Element>(from source: [Element], to target: [Element]) where Element: Hashable {
        self.init(from: source, to: target, identity: _HashableIdentity<Element>())
    }

    /// Computes the changes from `source` to `target` for Objects, such as presenters: identity from `ObjectIdentifier`. The same object is never an update; it refreshes its own cell.
    ///
    /// - Parameters:
    ///   - source: The list before the change.
    ///   - target: The list after the change.
    /// - Complexity: Expected O(*n* + *m*) for *n* source and *m* target elements, plus O(*k* log *k*) to choose moves among *k* elements that changed order. O(*n*) without hashing when the lists are equal.
    @inlinable
    public init<Element>(from source: [Element], to target: [Element]) where Element: AnyObject {
        self.init(from: source, to: target, identity: _ObjectIdentity<Element>())
    }

    /// Computes the changes from `source` to `target` for `Identifiable` objects: identity from `id`; a matched object counts as updated only when it is a different instance.
    ///
    /// - Parameters:
    ///   - source: The list before the change.
    ///   - target: The list after the change.
    /// - Complexity: Expected O(*n* + *m*) for *n* source and *m* target elements, plus O(*k* log *k*) to choose moves among *k* elements that changed order. O(*n*) without hashing when the lists are equal.
    @inlinable
    public init<Element>(from source: [Element], to target: [Element]) where Element: AnyObject & Identifiable {
        self.init(from: source, to: target, identity: _IdentifiableObjectIdentity<Element>())
    }

    /// Computes the changes from `source` to `target` for `Identifiable`, `Equatable` objects: identity from `id`, content from `==`.
    ///
    /// - Parameters:
    ///   - source: The list before the change.
    ///   - target: The list after the change.
    /// - Complexity: Expected O(*n* + *m*) for *n* source and *m* target elements, plus O(*k* log *k*) to choose moves among *k* elements that changed order. O(*n*) without hashing when the lists are equal.
    @inlinable
    public init<Element>(from source: [Element], to target: [Element]) where Element: AnyObject & Identifiable & Equatable {
        self.init(from: source, to: target, identity: _IdentifiableIdentity<Element>())
    }

    /// Computes the changes from `source` to `target` for `Identifiable`, `Hashable` objects: identity from `id`, content from `==`.
    ///
    /// - Parameters:
    ///   - source: The list before the change.
    ///   - target: The list after the change.
    /// - Complexity: Expected O(*n* + *m*) for *n* source and *m* target elements, plus O(*k* log *k*) to choose moves among *k* elements that changed order. O(*n*) without hashing when the lists are equal.
    @inlinable
    public init<Element>(from source: [Element], to target: [Element]) where Element: AnyObject & Identifiable & Hashable {
        self.init(from: source, to: target, identity: _IdentifiableIdentity<Element>())
    }

    /// Computes the changes from `source` to `target` for `Hashable` objects: identity from `ObjectIdentifier`, content from `==`.
    ///
    /// - Parameters:
    ///   - source: The list before the change.
    ///   - target: The list after the change.
    /// - Complexity: Expected O(*n* + *m*) for *n* source and *m* target elements, plus O(*k* log *k*) to choose moves among *k* elements that changed order. O(*n*) without hashing when the lists are equal.
    @inlinable
    public init<Element>(from source: [Element], to target: [Element]) where Element: AnyObject & Hashable {
        self.init(from: source, to: target, identity: _ObjectIdentity<Element>(contentEquals: ==))
    }
}
