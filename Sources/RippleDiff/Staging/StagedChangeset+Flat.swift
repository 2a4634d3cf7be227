extension StagedChangeset {
    /// Stages a flat change-set for UIKit.
    ///
    /// Produces no stage when nothing changed, one stage when UIKit can apply the whole change-set in
    /// one batch, and two stages when some updated element is moved, or sits where a move would make
    /// UIKit reload the wrong row: the updates go first, alone, then everything else.
    ///
    /// - Parameters:
    ///   - changeset: A valid change-set from `source` to `target`.
    ///   - source: The list before the changes.
    ///   - target: The list after the changes.
    /// - Precondition: `source` and `target` have the change-set's ``Changeset/sourceCount`` and
    ///   ``Changeset/targetCount``, and every update names an offset inside them; otherwise the
    ///   call traps with a message that names the count or the update and the range. (Checking
    ///   the whole change-set would cost O(*n* + *m*) on every call; use
    ///   ``Changeset/validationFailure()`` for a hand-made one.)
    /// - Complexity: When two stages are needed, one copy of `source` with the *u* updated elements
    ///   replaced: O(*n*) for an `Array`, O(*u* log *n*) for a ``ListSnapshot``, whose copy shares
    ///   the rest. Otherwise O(*u*). *n* is the count of `source`.
    @inlinable
    public init(changeset: Changeset, source: Data, target: Data) {
        precondition(
            source.count == changeset.sourceCount && target.count == changeset.targetCount,
            "StagedChangeset(changeset:source:target:): the lists have \(source.count) → \(target.count) "
                + "elements, but the change-set goes \(changeset.sourceCount) → \(changeset.targetCount)")
        if changeset.isEmpty {
            self.init(stages: [])
            return
        }
        if changeset.updates.isEmpty || changeset.moves.isEmpty
            || _updatesSurviveMoves(changeset)
        {
            self.init(stages: [Stage(changeset: changeset, data: target)])
            return
        }
        // Stage 1: the updates alone, in place, in source coordinates.
        var refreshed = source
        var inPlace: [Changeset.OffsetPair] = []
        inPlace.reserveCapacity(changeset.updates.count)
        for update in changeset.updates {
            precondition(
                (0..<source.count).contains(update.source) && (0..<target.count).contains(update.target),
                "StagedChangeset(changeset:source:target:): update \(update) is out of range "
                    + "0..<\(source.count) → 0..<\(target.count)")
            refreshed[update.source] = target[update.target]
            inPlace.append(Changeset.OffsetPair(source: update.source, target: update.source))
        }
        let first = Changeset(
            sourceCount: changeset.sourceCount, targetCount: changeset.sourceCount,
            updates: inPlace, duplicates: changeset.duplicates)
        // Stage 2: structure only.
        var second = changeset
        second.updates = []
        second.duplicates = Changeset.Duplicates()
        self.init(stages: [Stage(changeset: first, data: refreshed), Stage(changeset: second, data: target)])
    }
}

/// Whether every update of `changeset` can share a batch with its moves.
///
/// UIKit turns a reload of source offset *s* into a delete of *s* and an insert at *s′*, where *s′*
/// follows from the batch's deletes and inserts alone. That is only right when the element is not
/// moved and really lands at *s′*.
///
/// - Complexity: O(*d* + *i* + *u* + *k*) for *d* deletes, *i* inserts, *u* updates and *k* moves.
@inlinable
internal func _updatesSurviveMoves(_ changeset: Changeset) -> Bool {
    var movedSources = Set<Int>(minimumCapacity: changeset.moves.count)
    for move in changeset.moves { movedSources.insert(move.source) }
    var deleteIndex = 0
    var insertIndex = 0
    let deletes = changeset.deletes
    let inserts = changeset.inserts
    for update in changeset.updates {
        if movedSources.contains(update.source) { return false }
        while deleteIndex < deletes.count && deletes[deleteIndex] < update.source { deleteIndex += 1 }
        let rank = update.source - deleteIndex
        while insertIndex < inserts.count && inserts[insertIndex] <= rank + insertIndex { insertIndex += 1 }
        if rank + insertIndex != update.target { return false }
    }
    return true
}
