// The same identity rules as `SectionedChangeset+Identity.swift`: `Identifiable` sections and items
// by `id`, `Hashable` ones by value, anything else through the closure form.

extension StagedSectionedChangeset {
    /// Diffs `source` against `target` and stages the result for UIKit, with the identity and
    /// content of sections and items given by closures.
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
    /// let stages = StagedSectionedChangeset(
    ///     from: rendered, to: fresh,
    ///     sectionIdentifiedBy: { $0.id }, sectionContentEquals: { $0.title == $1.title },
    ///     itemIdentifiedBy: { ObjectIdentifier($0) }, itemContentEquals: { _, _ in true })
    /// ```
    ///
    /// - Parameters:
    ///   - source: The sections before the change.
    ///   - target: The sections after the change.
    ///   - sectionIdentifier: Returns the identity of a section. Repeated identifiers are paired in
    ///     order and reported in the first stage's ``SectionedChangeset/sections`` duplicates.
    ///   - sectionContentEquals: Returns whether two sections with the same identity show the same
    ///     content. When it returns `false`, the section is reloaded.
    ///   - itemIdentifier: Returns the identity of an item, global across sections. Repeated
    ///     identifiers are paired in order and reported in the first stage's
    ///     ``SectionedChangeset/itemDuplicates``.
    ///   - itemContentEquals: Returns whether two items with the same identity show the same
    ///     content. When it returns `false`, the item is reloaded.
    /// - Complexity: Expected O(*s* + *t* + *n* + *m*) for *s* source and *t* target sections
    ///   holding *n* and *m* items, each item identifier hashed at most once, plus O(*k* log *k*)
    ///   per section to choose moves among its *k* matched items when they changed order.
    /// - Note: Item pairing follows
    ///   ``SectionedChangeset/init(from:to:sectionIdentifiedBy:sectionContentEquals:itemIdentifiedBy:itemContentEquals:)``;
    ///   staging may then rewrite a few moves as deletes and inserts (see ``StagedSectionedChangeset``).
    @inlinable
    public init<SectionID: Hashable, ItemID: Hashable>(
        from source: [SectionSnapshot<Section, Item>],
        to target: [SectionSnapshot<Section, Item>],
        sectionIdentifiedBy sectionIdentifier: (Section) -> SectionID,
        sectionContentEquals: (Section, Section) -> Bool,
        itemIdentifiedBy itemIdentifier: (Item) -> ItemID,
        itemContentEquals: (Item, Item) -> Bool
    ) {
        let changeset = SectionedChangeset(
            from: source, to: target,
            sectionIdentifiedBy: sectionIdentifier, sectionContentEquals: sectionContentEquals,
            itemIdentifiedBy: itemIdentifier, itemContentEquals: itemContentEquals)
        self.init(changeset: changeset, source: source, target: target)
    }

    /// Diffs and stages `source` against `target` when sections and items are both `Identifiable`
    /// and `Equatable`: identity from `id`, content from `==`.
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

    /// Diffs and stages `source` against `target` when sections and items are both `Identifiable`
    /// and `Hashable`: identity from `id` (not the whole value), content from `==`.
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
    ) where Section: Identifiable & Hashable, Item: Identifiable & Hashable {
        self.init(changeset: SectionedChangeset(from: source, to: target), source: source, target: target)
    }

    /// Diffs and stages `source` against `target` for `Hashable` sections and items: each value is
    /// its own identity, so nothing is ever reloaded.
    ///
    /// - Parameters:
    ///   - source: The sections before the change.
    ///   - target: The sections after the change.
    /// - Complexity: Expected O(*s* + *t* + *n* + *m*) for *s* source and *t* target sections
    ///   holding *n* and *m* items, plus O(*k* log *k*) per section to choose moves among its *k*
    ///   matched items when they changed order.
    /// - Note: When only one level is `Identifiable`, this overload still takes whole values as
    ///   identities; use the closure form to diff that level by `id`.
    @inlinable
    public init(
        from source: [SectionSnapshot<Section, Item>],
        to target: [SectionSnapshot<Section, Item>]
    ) where Section: Hashable, Item: Hashable {
        self.init(changeset: SectionedChangeset(from: source, to: target), source: source, target: target)
    }
}
