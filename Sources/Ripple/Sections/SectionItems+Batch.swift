import RippleDiff

extension SectionItems {
    /// Opens a batch of the collection holding the items now (see
    /// ``SectionedCollection/beginUpdates()``); while no collection holds them, it only counts.
    ///
    /// Prefer ``performBatchUpdates(_:)``, which cannot be left unbalanced. The matching
    /// ``endUpdates()`` closes the batch it opened, even if the section moved to another
    /// collection meanwhile.
    public func beginUpdates() {
        let host = state.withLock { state -> SectionItemsHost<Item>? in
            state.openBatches.append(state.host)
            return state.host
        }
        host?.beginUpdates()
    }

    /// Closes the batch the matching ``beginUpdates()`` opened.
    ///
    /// - Precondition: A batch opened here is open.
    public func endUpdates() {
        let host = state.withLock { state -> SectionItemsHost<Item>?? in state.openBatches.popLast() }
        guard let host else {
            preconditionFailure("SectionItems.endUpdates(): called without a matching beginUpdates()")
        }
        host?.endUpdates()
    }

    /// Runs `body` as one batch of the collection holding the items: every change made inside it,
    /// to these items or to any part of that collection, is published as one event when the
    /// outermost batch ends (see ``SectionedCollection/performBatchUpdates(_:)``).
    ///
    /// While no collection holds the items, `body` simply runs: nothing is published.
    ///
    /// - Parameter body: The mutations; runs without any lock held.
    /// - Returns: What `body` returns.
    public func performBatchUpdates<Result>(_ body: () throws -> Result) rethrows -> Result {
        let host = state.withLock { $0.host }
        guard let host else { return try body() }
        return try host.performBatchUpdates(body)
    }
}
