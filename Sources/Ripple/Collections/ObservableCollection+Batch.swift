import RippleDiff

/// Tracks where each element of an open batch came from, so the batch folds into one change-set
/// without diffing: `origins[i]` is the offset the element now at `i` had when the batch began, or
/// -1 for an element inserted during the batch.
///
/// The origins are a persistent list, as the elements are, so that an insertion or a removal in
/// the middle of a batch costs O(log *n*), not a shift of every origin after it.
@usableFromInline
internal struct BatchRecorder {
    @usableFromInline var depth = 1
    @usableFromInline let sourceCount: Int
    /// Counts the edits made during the batch, so that the collection can tell a mutation that
    /// changed something from one that did not. Every change to the elements changes `origins` or
    /// calls ``update(_:)``.
    @usableFromInline var edits = 0
    @usableFromInline var origins: ListSnapshot<Int> {
        didSet { edits &+= 1 }
    }
    /// Source offsets whose element was replaced during the batch.
    @usableFromInline var updated: [Int] = [] {
        didSet { edits &+= 1 }
    }

    @inlinable
    init(count: Int) {
        sourceCount = count
        origins = ListSnapshot(0..<count)
    }

    /// Records an update of the element now at `position`.
    @inlinable
    mutating func update(_ position: Int) {
        edits &+= 1
        let origin = origins[position]
        if origin >= 0 { updated.append(origin) }
    }

    /// The net change-set of the batch, with minimal moves.
    @inlinable
    func changeset() -> Changeset {
        Changeset(sourceCount: sourceCount, origins: Array(origins), updatedSources: updated)
    }
}

extension ObservableCollection {
    /// Runs `body` as one batch: every mutation inside it, from any thread, is published as one
    /// event when the outermost batch ends.
    ///
    /// Batches nest. The event's change-set is the net effect of the batch in UIKit's coordinates,
    /// with minimal moves; inserting and then removing an element nets to nothing. If `body` throws,
    /// the mutations it made stay, are published, and the error is rethrown.
    ///
    /// <!-- swift
    /// struct Book: Identifiable, Equatable, Sendable {
    ///     var id: Int
    ///     var title: String
    /// }
    /// let books = ObservableCollection([Book(id: 1, title: "Dune")])
    /// let page = [Book(id: 2, title: "Emma")]
    /// -->
    /// ```swift
    /// let removed = books.performBatchUpdates {
    ///     books.append(contentsOf: page)
    ///     return books.remove(at: 0)
    /// }
    /// ```
    ///
    /// - Parameter body: The mutations. `body` runs without any lock held.
    /// - Returns: What `body` returns.
    /// - Complexity: O(*n* + *k* log *k*) to fold the batch, for *n* elements and *k* of them moved,
    ///   on top of the mutations themselves.
    @inlinable
    public func performBatchUpdates<Result>(_ body: () throws -> Result) rethrows -> Result {
        beginUpdates()
        defer { endUpdates() }
        return try body()
    }

    /// Opens a batch; every mutation until the matching ``endUpdates()`` is published as one event.
    ///
    /// Calls nest: only the outermost `endUpdates()` publishes. Prefer ``performBatchUpdates(_:)``,
    /// which cannot be left unbalanced.
    ///
    /// - Complexity: O(*n*) for the outermost call, O(1) for nested ones.
    @inlinable
    public func beginUpdates() {
        state.withLock { state in
            if state.batch == nil {
                state.batch = BatchRecorder(count: state.elements.count)
                state.countedBatchEdits = 0
                state.publishedDuringBatch = state.elements
            } else {
                state.batch!.depth += 1
            }
        }
    }

    /// Closes a batch opened by ``beginUpdates()``; the outermost one publishes the net change.
    ///
    /// - Precondition: A batch is open.
    /// - Complexity: O(*n* + *k* log *k*) for the outermost call, O(1) for nested ones.
    @inlinable
    public func endUpdates() {
        let (handoff, _) = state.withLock { state -> (Handoff?, ListSnapshot<Element>?) in
            guard var batch = state.batch else {
                preconditionFailure("ObservableCollection.endUpdates(): called without a matching beginUpdates()")
            }
            batch.depth -= 1
            if batch.depth > 0 {
                state.batch = batch
                return (nil, nil)
            }
            state.batch = nil
            // The elements as of the batch's start may hold the last reference to elements removed
            // during the batch: hand them out, to be released after unlocking.
            var published: ListSnapshot<Element>? = nil
            swap(&published, &state.publishedDuringBatch)
            return (state.publishTakingDelivery(batch.changeset()), published)
        }
        if let handoff { deliver(handoff) }
    }

    /// Whether a batch is open.
    public var isBatching: Bool { state.withLock { $0.batch != nil } }
}
