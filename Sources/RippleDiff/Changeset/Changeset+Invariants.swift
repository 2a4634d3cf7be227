#if RIPPLE_INTERNAL_CHECKS
/// Traps when a diff result is not valid or does not replay to its target.
/// Compiled in only with `-D RIPPLE_INTERNAL_CHECKS`.
@usableFromInline
internal func _checkDiff<Element, ID: Hashable>(
    _ changes: Changeset,
    source: [Element],
    target: [Element],
    identifier: (Element) -> ID,
    contentEquals: (Element, Element) -> Bool
) {
    if let failure = changes.validationFailure() {
        preconditionFailure("Changeset(from:to:): produced an invalid change-set: \(failure)")
    }
    let replayed = changes.applied(to: source) { target[$0] }
    for offset in target.indices {
        precondition(
            identifier(replayed[offset]) == identifier(target[offset])
                && contentEquals(replayed[offset], target[offset]),
            "Changeset(from:to:): replay differs from the target at offset \(offset)")
    }
}
#endif
