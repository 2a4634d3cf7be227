import RippleDiff

extension ObservableCollection.State {
    /// Records a finished mutation: outside a batch, publishes `changeset` as a new version.
    ///
    /// Counts the mutation in `mutations` when it changed something: a non-empty `changeset`
    /// outside a batch, or an edit recorded in `batch` inside one (where `changeset` is ignored).
    ///
    /// - Returns: Whether the caller must drain after unlocking.
    @inlinable
    mutating func commit(_ changeset: consuming Changeset?) -> Bool {
        guard let changeset = counted(changeset) else { return false }
        return publish(changeset)
    }

    /// ``commit(_:)`` that also takes the first delivery, for the caller to run after unlocking
    /// (then drain): one step less on the path of every single mutation.
    @inlinable
    mutating func commitTakingDelivery(_ changeset: consuming Changeset?) -> EmitterCore<CollectionChange<Element>>
        .Handoff?
    {
        guard let changeset = counted(changeset) else { return nil }
        return publishTakingDelivery(changeset)
    }

    /// Counts a finished mutation (see ``commit(_:)``); returns the change-set to publish, if any.
    @inlinable
    mutating func counted(_ changeset: consuming Changeset?) -> Changeset? {
        if batch != nil {
            countBatchEdits()
            return nil
        }
        guard let changeset, !changeset.isEmpty else { return nil }
        mutations &+= 1
        return changeset
    }

    /// Counts a mutation made inside the open batch in `mutations`, once per batch that changed
    /// something since the last count.
    @inlinable
    mutating func countBatchEdits() {
        let edits = batch.unsafelyUnwrapped.edits
        if edits != countedBatchEdits {
            mutations &+= 1
            countedBatchEdits = edits
        }
    }

    /// Publishes `changeset`, which already happened to `elements`, as a new version; publishes
    /// nothing for an empty change-set, and builds no event when nobody subscribes.
    ///
    /// - Returns: Whether the caller must drain after unlocking.
    @inlinable
    mutating func publish(_ changeset: consuming Changeset) -> Bool {
        guard let event = nextVersion(changeset) else { return false }
        return core.enqueue(event)
    }

    /// ``publish(_:)`` that also takes the first delivery (see ``EmitterCore/send(_:)``).
    @inlinable
    mutating func publishTakingDelivery(_ changeset: consuming Changeset) -> EmitterCore<CollectionChange<Element>>
        .Handoff?
    {
        guard let event = nextVersion(changeset) else { return nil }
        return core.send(event)
    }

    /// Makes `changeset`, which already happened to `elements`, a new version, and returns its
    /// event for ``publish(_:)`` to queue or ``publishTakingDelivery(_:)`` to send; `nil` for an
    /// empty change-set (no new version), and when nobody subscribes (the version and the
    /// emitter's sequence advance, but no event is built).
    @inlinable
    mutating func nextVersion(_ changeset: consuming Changeset) -> CollectionChange<Element>? {
        guard !changeset.isEmpty else { return nil }
        #if RIPPLE_INTERNAL_CHECKS
        if let failure = changeset.validationFailure()
            ?? (changeset.targetCount == elements.count
                ? nil : "it ends at \(changeset.targetCount) elements, the collection has \(elements.count)")
        {
            preconditionFailure(
                "ObservableCollection: version \(version + 1) would publish an invalid change-set: \(failure)")
        }
        #endif
        version &+= 1
        let mayReplaceKept = replacedSinceLastEvent
        replacedSinceLastEvent = false
        if core.subscribers.isEmpty {
            core.sequence &+= 1
            return nil
        }
        return CollectionChange(
            changeset: changeset, snapshot: elements, version: version, mayReplaceKeptElements: mayReplaceKept)
    }

    /// `[offset]`, in a reused array (see ``oneOffset``).
    @inlinable
    mutating func offsets(_ offset: Int) -> [Int] {
        oneOffset[0] = offset
        return oneOffset
    }

    /// `[pair]`, in a reused array (see ``oneOffset``).
    @inlinable
    mutating func pairs(_ pair: Changeset.OffsetPair) -> [Changeset.OffsetPair] {
        onePair[0] = pair
        return onePair
    }
}
