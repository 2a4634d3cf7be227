// The sectioned identity rules follow the flat ones, per level, with one rule for both levels:
// 1. `Identifiable.id` with content from `==`, when sections and items are both `Identifiable`;
// 2. the value itself for `Hashable` sections and items.
// Types that satisfy both get rule 1 through the `Identifiable & Hashable` overload, which exists
// only to make that choice unambiguous. Any other mix (objects, a `Hashable` header over
// `Identifiable` items, a key other than `id`) uses the closure form: a handful of overloads per
// combination would not scale.

extension SectionedChangeset {
    /// Computes the changes from `source` to `target`, with the identity and content of sections
    /// and items given by closures.
    ///
    /// Use this form for types that conform to nothing, for presenter objects, for a mix of
    /// conformances, or to diff by a key other than the default.
    ///
    /// <!-- swift
    /// struct Folder {
    ///     var id: String
    ///     var title: String
    /// }
    /// final class Mail {}
    /// let a = Mail(), b = Mail()
    /// let old = [SectionSnapshot(section: Folder(id: "in", title: "Inbox"), items: [a, b])]
    /// let new = [SectionSnapshot(section: Folder(id: "in", title: "Mail"), items: [b, a])]
    /// -->
    /// ```swift
    /// let changes = SectionedChangeset(
    ///     from: old, to: new,
    ///     sectionIdentifiedBy: { $0.id }, sectionContentEquals: { $0.title == $1.title },
    ///     itemIdentifiedBy: { ObjectIdentifier($0) }, itemContentEquals: { _, _ in true })
    /// ```
    ///
    /// - Parameters:
    ///   - source: The sections before the change.
    ///   - target: The sections after the change.
    ///   - sectionIdentifier: Returns the identity of a section. Sections with equal identifiers
    ///     are the same section; repeated identifiers are paired in order and reported in
    ///     ``sections``' ``Changeset/duplicates``.
    ///   - sectionContentEquals: Returns whether two sections with the same identity show the same
    ///     content. When it returns `false`, the section is updated.
    ///   - itemIdentifier: Returns the identity of an item. Identity is global: an item found in
    ///     another section has moved there. Repeated identifiers, in one section or several, are
    ///     paired in order and reported in ``itemDuplicates``.
    ///   - itemContentEquals: Returns whether two items with the same identity show the same
    ///     content. When it returns `false`, the item is updated.
    /// - Complexity: Expected O(*s* + *t* + *n* + *m*) for *s* source and *t* target sections
    ///   holding *n* and *m* items: each item identifier is hashed at most once. Add O(*k* log *k*)
    ///   per section to choose moves among its *k* matched items when they changed order, and
    ///   O(log *t*) per item that changed section. No item is hashed when nothing changed.
    /// - Note: In each pair of matched sections, the items' common prefix and suffix are paired in
    ///   place before any hashing; the remaining items with repeated identifiers are paired in
    ///   order across all sections, the first with the first. Moves inside each section are minimal
    ///   for that pairing; an item that changed section is always one move.
    @inlinable
    public init<Section, Item, SectionID: Hashable, ItemID: Hashable>(
        from source: [SectionSnapshot<Section, Item>],
        to target: [SectionSnapshot<Section, Item>],
        sectionIdentifiedBy sectionIdentifier: (Section) -> SectionID,
        sectionContentEquals: (Section, Section) -> Bool,
        itemIdentifiedBy itemIdentifier: (Item) -> ItemID,
        itemContentEquals: (Item, Item) -> Bool
    ) {
        #if RIPPLE_INTERNAL_CHECKS
        defer {
            _checkSectionedDiff(
                self, source: source, target: target,
                sectionIdentifier: sectionIdentifier, sectionContentEquals: sectionContentEquals,
                itemIdentifier: itemIdentifier, itemContentEquals: itemContentEquals)
        }
        #endif
        self = withoutActuallyEscaping(sectionIdentifier) { sectionIdentifier in
            withoutActuallyEscaping(sectionContentEquals) { sectionContentEquals in
                withoutActuallyEscaping(itemIdentifier) { itemIdentifier in
                    withoutActuallyEscaping(itemContentEquals) { itemContentEquals in
                        _sectionedDiff(
                            source, target,
                            sectionIdentity: _ClosureIdentity(
                                identifier: sectionIdentifier, contentEquals: sectionContentEquals),
                            itemIdentity: _ClosureIdentity(identifier: itemIdentifier, contentEquals: itemContentEquals))
                    }
                }
            }
        }
    }

    /// Diffs under a section and an item identity rule; every public form ends here.
    @inlinable
    internal init<SectionIdentity: _DiffIdentity, ItemIdentity: _DiffIdentity>(
        from source: [SectionSnapshot<SectionIdentity.Element, ItemIdentity.Element>],
        to target: [SectionSnapshot<SectionIdentity.Element, ItemIdentity.Element>],
        sectionIdentity: SectionIdentity,
        itemIdentity: ItemIdentity
    ) {
        #if RIPPLE_INTERNAL_CHECKS
        defer {
            _checkSectionedDiff(
                self, source: source, target: target,
                sectionIdentifier: sectionIdentity.identifier(of:), sectionContentEquals: sectionIdentity.sameContent,
                itemIdentifier: itemIdentity.identifier(of:), itemContentEquals: itemIdentity.sameContent)
        }
        #endif
        self = _sectionedDiff(source, target, sectionIdentity: sectionIdentity, itemIdentity: itemIdentity)
    }

    /// Computes the changes from `source` to `target` when sections and items are both
    /// `Identifiable` and `Equatable`: identity from `id`, content from `==`.
    ///
    /// - Parameters:
    ///   - source: The sections before the change.
    ///   - target: The sections after the change.
    /// - Complexity: Expected O(*s* + *t* + *n* + *m*) for *s* source and *t* target sections
    ///   holding *n* and *m* items, plus O(*k* log *k*) per section to choose moves among its *k*
    ///   matched items when they changed order; see
    ///   ``init(from:to:sectionIdentifiedBy:sectionContentEquals:itemIdentifiedBy:itemContentEquals:)``.
    @inlinable
    public init<Section, Item>(
        from source: [SectionSnapshot<Section, Item>],
        to target: [SectionSnapshot<Section, Item>]
    ) where Section: Identifiable & Equatable, Item: Identifiable & Equatable {
        self.init(
            from: source, to: target,
            sectionIdentity: _IdentifiableIdentity<Section>(), itemIdentity: _IdentifiableIdentity<Item>())
    }

    /// Computes the changes from `source` to `target` when sections and items are both
    /// `Identifiable` and `Hashable`: identity from `id` (not the whole value), content from `==`.
    ///
    /// - Parameters:
    ///   - source: The sections before the change.
    ///   - target: The sections after the change.
    /// - Complexity: Expected O(*s* + *t* + *n* + *m*) for *s* source and *t* target sections
    ///   holding *n* and *m* items, plus O(*k* log *k*) per section to choose moves among its *k*
    ///   matched items when they changed order.
    @inlinable
    public init<Section, Item>(
        from source: [SectionSnapshot<Section, Item>],
        to target: [SectionSnapshot<Section, Item>]
    ) where Section: Identifiable & Hashable, Item: Identifiable & Hashable {
        self.init(
            from: source, to: target,
            sectionIdentity: _IdentifiableIdentity<Section>(), itemIdentity: _IdentifiableIdentity<Item>())
    }

    /// Computes the changes from `source` to `target` for `Hashable` sections and items: each
    /// value is its own identity, so a matched section or item is never updated.
    ///
    /// - Parameters:
    ///   - source: The sections before the change.
    ///   - target: The sections after the change.
    /// - Complexity: Expected O(*s* + *t* + *n* + *m*) for *s* source and *t* target sections
    ///   holding *n* and *m* items, plus O(*k* log *k*) per section to choose moves among its *k*
    ///   matched items when they changed order.
    /// - Note: When only one level is `Identifiable` (say `Identifiable` items under `String`
    ///   headers), this overload still takes whole values as identities, so an edited item reads as
    ///   a delete and an insert. Use the closure form to diff that level by `id`.
    @inlinable
    public init<Section, Item>(
        from source: [SectionSnapshot<Section, Item>],
        to target: [SectionSnapshot<Section, Item>]
    ) where Section: Hashable, Item: Hashable {
        self.init(
            from: source, to: target,
            sectionIdentity: _HashableIdentity<Section>(), itemIdentity: _HashableIdentity<Item>())
    }
}
