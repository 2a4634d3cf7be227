// The public sectioned diffs: one that takes a `DiffIdentity` for sections and one for items, and
// one for `Identifiable & Equatable` sections and items, which need none. Both end in the internal
// `init(from:to:sectionRule:itemRule:)`.

extension SectionedChangeset {
    /// Computes the changes from `source` to `target`, with sections and items identified and
    /// compared by their own identities.
    ///
    /// ```swift
    /// struct Message: Identifiable, Equatable { let id: Int; var isRead: Bool }
    /// let old = [SectionSnapshot(section: "Inbox", items: [Message(id: 1, isRead: false)])]
    /// let new = [SectionSnapshot(section: "Inbox", items: [Message(id: 1, isRead: true)])]
    /// let changes = SectionedChangeset(from: old, to: new, sectionIdentity: .value, itemIdentity: .id)
    /// // changes.itemUpdates.count == 1
    /// ```
    ///
    /// - Parameters:
    ///   - source: The sections before the change.
    ///   - target: The sections after the change.
    ///   - sectionIdentity: How sections are identified and compared (see ``DiffIdentity``).
    ///     Sections with equal identifiers are the same section; repeated identifiers are paired in
    ///     order and reported in ``sections``' ``Changeset/duplicates``.
    ///   - itemIdentity: How items are identified and compared. Identity is global: an item found
    ///     in another section has moved there. Repeated identifiers, in one section or several, are
    ///     paired in order and reported in ``itemDuplicates``.
    /// - Complexity: Expected O(*s* + *t* + *n* + *m*) for *s* source and *t* target sections
    ///   holding *n* and *m* items: each item identifier is hashed at most once. Add O(*k* log *k*)
    ///   per section to choose moves among its *k* matched items when they changed order, and
    ///   O(log *t*) per item that changed section. No item is hashed when nothing changed.
    /// - Note: In each pair of matched sections, the items' common prefix and suffix are paired in
    ///   place before any hashing; the remaining items with repeated identifiers are paired in
    ///   order across all sections, the first with the first. Moves inside each section are minimal
    ///   for that pairing; an item that changed section is always one move.
    @inlinable
    public init<SectionRule, ItemRule>(
        from source: [SectionSnapshot<SectionRule.Element, ItemRule.Element>],
        to target: [SectionSnapshot<SectionRule.Element, ItemRule.Element>],
        sectionIdentity: DiffIdentity<SectionRule.Element, SectionRule>,
        itemIdentity: DiffIdentity<ItemRule.Element, ItemRule>
    ) {
        self.init(from: source, to: target, sectionRule: sectionIdentity._rule, itemRule: itemIdentity._rule)
    }

    /// Computes the changes from `source` to `target` when sections and items are both
    /// `Identifiable` and `Equatable`: identity from `id`, content from `==` (``DiffIdentity/id``
    /// for both).
    ///
    /// - Parameters:
    ///   - source: The sections before the change.
    ///   - target: The sections after the change.
    /// - Complexity: Expected O(*s* + *t* + *n* + *m*) for *s* source and *t* target sections
    ///   holding *n* and *m* items: each item identifier is hashed at most once. Add O(*k* log *k*)
    ///   per section to choose moves among its *k* matched items when they changed order, and
    ///   O(log *t*) per item that changed section. No item is hashed when nothing changed.
    @inlinable
    public init<Section, Item>(
        from source: [SectionSnapshot<Section, Item>],
        to target: [SectionSnapshot<Section, Item>]
    ) where Section: Identifiable & Equatable, Item: Identifiable & Equatable {
        self.init(
            from: source, to: target,
            sectionRule: _IdentifiableIdentity<Section>(), itemRule: _IdentifiableIdentity<Item>())
    }

    /// Diffs under a section and an item identity rule; every public form ends here.
    @inlinable
    internal init<SectionRule: _IdentityRule, ItemRule: _IdentityRule>(
        from source: [SectionSnapshot<SectionRule.Element, ItemRule.Element>],
        to target: [SectionSnapshot<SectionRule.Element, ItemRule.Element>],
        sectionRule: SectionRule,
        itemRule: ItemRule
    ) {
        self = _sectionedDiff(source, target, sectionIdentity: sectionRule, itemIdentity: itemRule)
        #if RIPPLE_INTERNAL_CHECKS
        _checkSectionedDiff(
            self, source: source, target: target,
            sectionIdentifier: sectionRule.identifier(of:), sectionContentEquals: sectionRule.sameContent,
            itemIdentifier: itemRule.identifier(of:), itemContentEquals: itemRule.sameContent)
        #endif
    }
}
