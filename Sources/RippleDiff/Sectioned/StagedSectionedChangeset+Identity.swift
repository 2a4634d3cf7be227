// The public staged sectioned diffs, as `SectionedChangeset+Identity.swift`.

extension StagedSectionedChangeset {
    /// Diffs `source` against `target` and stages the result for UIKit, with sections and items
    /// identified and compared by their own identities.
    ///
    /// See ``StagedSectionedChangeset`` for the stages; an unchanged list gives no stage.
    ///
    /// <!-- swift
    /// struct Folder {
    ///     var id: String
    ///     var title: String
    /// }
    /// final class Mail {}
    /// let a = Mail(), b = Mail()
    /// let rendered = [SectionSnapshot(section: Folder(id: "in", title: "Inbox"), items: [a, b])]
    /// let fresh = [SectionSnapshot(section: Folder(id: "in", title: "Mail"), items: [b, a])]
    /// -->
    /// ```swift
    /// let old = [SectionSnapshot(section: "A", items: [1, 2]), SectionSnapshot(section: "B", items: [3])]
    /// let new = [SectionSnapshot(section: "B", items: [3, 1]), SectionSnapshot(section: "A", items: [2])]
    /// let stages = StagedSectionedChangeset(from: old, to: new, sectionIdentity: .value, itemIdentity: .value)
    /// for stage in stages { print(stage.changeset) }
    /// ```
    ///
    /// - Parameters:
    ///   - source: The sections before the change.
    ///   - target: The sections after the change.
    ///   - sectionIdentity: How sections are identified and compared (see ``DiffIdentity``).
    ///     Repeated identifiers are paired in order and reported in the first stage's
    ///     ``SectionedChangeset/sections`` duplicates. A section whose content changed is reloaded.
    ///   - itemIdentity: How items are identified and compared, globally across sections. Repeated
    ///     identifiers are paired in order and reported in the first stage's
    ///     ``SectionedChangeset/itemDuplicates``. An item whose content changed is reloaded.
    /// - Complexity: Expected O(*s* + *t* + *n* + *m*) for *s* source and *t* target sections
    ///   holding *n* and *m* items, each item identifier hashed at most once, plus O(*k* log *k*)
    ///   per section to choose moves among its *k* matched items when they changed order.
    /// - Note: Item pairing follows
    ///   ``SectionedChangeset/init(from:to:sectionIdentity:itemIdentity:)``; staging may then
    ///   rewrite a few moves as deletes and inserts (see ``StagedSectionedChangeset``).
    @inlinable
    public init<SectionRule, ItemRule>(
        from source: [SectionSnapshot<Section, Item>],
        to target: [SectionSnapshot<Section, Item>],
        sectionIdentity: DiffIdentity<Section, SectionRule>,
        itemIdentity: DiffIdentity<Item, ItemRule>
    ) {
        let changeset = SectionedChangeset(
            from: source, to: target, sectionRule: sectionIdentity._rule, itemRule: itemIdentity._rule)
        self.init(changeset: changeset, source: source, target: target)
    }

    /// Diffs and stages `source` against `target` when sections and items are both `Identifiable`
    /// and `Equatable`: identity from `id`, content from `==` (``DiffIdentity/id`` for both).
    ///
    /// - Parameters:
    ///   - source: The sections before the change.
    ///   - target: The sections after the change.
    /// - Complexity: Expected O(*s* + *t* + *n* + *m*) for *s* source and *t* target sections
    ///   holding *n* and *m* items, plus O(*k* log *k*) per section to choose moves among its *k*
    ///   matched items when they changed order.
    @inlinable
    public init(
        from source: [SectionSnapshot<Section, Item>],
        to target: [SectionSnapshot<Section, Item>]
    ) where Section: Identifiable & Equatable, Item: Identifiable & Equatable {
        self.init(changeset: SectionedChangeset(from: source, to: target), source: source, target: target)
    }
}
