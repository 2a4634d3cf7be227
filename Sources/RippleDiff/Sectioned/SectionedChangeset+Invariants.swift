#if RIPPLE_INTERNAL_CHECKS
/// Traps when a sectioned diff result is not valid or does not replay to its target.
/// Compiled in only with `-D RIPPLE_INTERNAL_CHECKS`.
@usableFromInline
internal func _checkSectionedDiff<Section, Item, SectionID: Hashable, ItemID: Hashable>(
    _ changes: SectionedChangeset,
    source: [SectionSnapshot<Section, Item>],
    target: [SectionSnapshot<Section, Item>],
    sectionIdentifier: (Section) -> SectionID,
    sectionContentEquals: (Section, Section) -> Bool,
    itemIdentifier: (Item) -> ItemID,
    itemContentEquals: (Item, Item) -> Bool
) {
    if let failure = changes.validationFailure() {
        preconditionFailure("SectionedChangeset(from:to:): produced an invalid change-set: \(failure)")
    }
    let replayed = changes.applied(
        to: source, section: { target[$0].section }, item: { target[$0.section].items[$0.item] })
    precondition(replayed.count == target.count, "SectionedChangeset(from:to:): replay has the wrong section count")
    for t in target.indices {
        precondition(
            sectionIdentifier(replayed[t].section) == sectionIdentifier(target[t].section)
                && sectionContentEquals(replayed[t].section, target[t].section),
            "SectionedChangeset(from:to:): replay differs from the target at section \(t)")
        precondition(
            replayed[t].items.count == target[t].items.count,
            "SectionedChangeset(from:to:): replay has the wrong item count in section \(t)")
        for j in target[t].items.indices {
            let old = replayed[t].items[j]
            let new = target[t].items[j]
            precondition(
                itemIdentifier(old) == itemIdentifier(new) && itemContentEquals(old, new),
                "SectionedChangeset(from:to:): replay differs from the target at \(ElementPath(item: j, section: t))")
        }
    }
}
#endif
