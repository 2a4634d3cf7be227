import RippleDiff

/// Tracks where each section and each item of an open batch came from, so the batch folds into
/// one sectioned change-set without diffing.
///
/// `sectionOrigins[t]` is the offset the section now at `t` had when the batch began, or -1 for a
/// section inserted during the batch. `itemOrigins[t][j]` is the flat number (counting items
/// across the sections as they were when the batch began) of the item now at `(t, j)`, or -1 for
/// an item inserted during the batch.
///
/// A section whose items the batch has not touched has `nil` origins: its items are those of its
/// source section, in order. Origins are written out on the first change to a section's items, so
/// opening and folding a batch costs O(*s*) plus the items of the sections it touched, not O(*n*).
@usableFromInline
struct SectionedBatchRecorder {
    var depth = 1
    let sourceItemCounts: [Int]
    /// The flat number of each source section's first item, and the total at the end.
    @usableFromInline let sourceStarts: [Int]
    @usableFromInline var sectionOrigins: [Int]
    @usableFromInline var itemOrigins: [[Int]?]
    /// Source sections whose value was replaced during the batch.
    var updatedSections: [Int] = []
    /// Flat source numbers of items replaced during the batch.
    @usableFromInline var updatedItems: [Int] = []

    init(itemCounts: [Int]) {
        sourceItemCounts = itemCounts
        var starts = [0]
        starts.reserveCapacity(itemCounts.count + 1)
        for count in itemCounts { starts.append(starts[starts.count - 1] + count) }
        sourceStarts = starts
        sectionOrigins = Array(itemCounts.indices)
        itemOrigins = [[Int]?](repeating: nil, count: itemCounts.count)
    }

    /// Writes out the origins of the section now at `section` if the batch has not touched its
    /// items yet.
    ///
    /// - Complexity: O(*m*) for *m* items in the section, the first time.
    @inlinable
    mutating func touch(_ section: Int) {
        guard itemOrigins[section] == nil else { return }
        let source = sectionOrigins[section]
        itemOrigins[section] = Array(sourceStarts[source]..<sourceStarts[source + 1])
    }

    /// Every section's origins, written out.
    mutating func touchAll() {
        for section in itemOrigins.indices { touch(section) }
    }

    /// Folds a flat change of the items of the section now at `section`.
    ///
    /// - Complexity: O(*m*) for *m* items in the section; a single insert, delete or move edits
    ///   the origins in place.
    @inlinable
    mutating func fold(_ changes: Changeset, inSection section: Int) {
        if changes.isEmpty { return }
        touch(section)
        if changes.deletes.isEmpty && changes.moves.isEmpty && changes.updates.isEmpty {
            for offset in changes.inserts { itemOrigins[section]!.insert(-1, at: offset) }
            return
        }
        if changes.deletes.count == 1 && changes.inserts.isEmpty && changes.moves.isEmpty && changes.updates.isEmpty {
            itemOrigins[section]!.remove(at: changes.deletes[0])
            return
        }
        if changes.moves.count == 1 && changes.deletes.isEmpty && changes.inserts.isEmpty && changes.updates.isEmpty {
            let move = changes.moves[0]
            itemOrigins[section]!.insert(itemOrigins[section]!.remove(at: move.source), at: move.target)
            return
        }
        if changes.deletes.isEmpty && changes.inserts.isEmpty && changes.moves.isEmpty {
            for update in changes.updates where itemOrigins[section]![update.source] >= 0 {
                updatedItems.append(itemOrigins[section]![update.source])
            }
            return
        }
        itemOrigins[section] = Self.fold(changes, into: itemOrigins[section]!, updated: &updatedItems)
    }

    /// The origins after `changes`: inserted items get -1, the others keep theirs, and the origins
    /// of updated items are added to `updated`.
    ///
    /// - Precondition: `changes` is a valid change-set from `old.count` elements.
    /// - Complexity: O(*n* + *m*) for the change-set's source and target counts.
    @usableFromInline
    static func fold(_ changes: Changeset, into old: [Int], updated: inout [Int]) -> [Int] {
        let unset = Int.min
        var new = [Int](repeating: unset, count: changes.targetCount)
        var leaves = [Bool](repeating: false, count: changes.sourceCount)
        for offset in changes.inserts { new[offset] = -1 }
        for offset in changes.deletes { leaves[offset] = true }
        for move in changes.moves {
            leaves[move.source] = true
            new[move.target] = old[move.source]
        }
        var next = 0
        for source in old.indices where !leaves[source] {
            while new[next] != unset { next += 1 }
            new[next] = old[source]
            next += 1
        }
        for update in changes.updates where old[update.source] >= 0 { updated.append(old[update.source]) }
        return new
    }

    /// The net change-set of the batch, with minimal moves inside each section.
    ///
    /// - Complexity: O(*s* + *k* log *k*) plus the items of the sections the batch touched.
    func changeset() -> SectionedChangeset {
        SectionedChangeset(
            sourceItemCounts: sourceItemCounts, sectionOrigins: sectionOrigins, sparseItemOrigins: itemOrigins,
            updatedSections: updatedSections, updatedItems: updatedItems)
    }
}

extension SectionedCollection {
    /// Runs `body` as one batch: every mutation inside it, of the sections and of their items, is
    /// published as one event when the outermost batch ends.
    ///
    /// Batches nest. The event's change-set is the net effect of the batch in UIKit's coordinates:
    /// item paths are right even when sections moved, were inserted or were deleted in the same
    /// batch, an item that changed section is a move, and moves inside each section are minimal.
    /// Inserting and then removing an item nets to nothing. If `body` throws, the mutations it made
    /// stay, are published, and the error is rethrown.
    ///
    /// <!-- swift
    /// struct Header: Hashable, Sendable {
    ///     var title: String
    ///     init(_ title: String) { self.title = title }
    /// }
    /// struct Mail: Identifiable, Hashable, Sendable {
    ///     var id: Int
    /// }
    /// let mail = SectionedCollection([SectionData(Header("Inbox"), items: [Mail(id: 1)]),
    ///                                 SectionData(Header("Archive"), items: [Mail(id: 2)])])
    /// let m4 = Mail(id: 4)
    /// -->
    /// ```swift
    /// mail.performBatchUpdates {
    ///     mail.removeSection(at: 0)
    ///     mail.sections[0].items.append(m4)
    /// }
    /// ```
    ///
    /// Mutations made through a section's `items` are covered too, from any thread: they change
    /// this collection's storage, under its lock.
    ///
    /// - Parameter body: The mutations. `body` runs without any lock held.
    /// - Returns: What `body` returns.
    /// - Complexity: O(*s* + *n* + *k* log *k*) to fold the batch, for *s* sections, *n* items and
    ///   *k* items moved, on top of the mutations themselves.
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
    /// - Complexity: O(*s* + *n*) for the outermost call, for *s* sections and *n* items; O(1) for
    ///   nested ones.
    public func beginUpdates() {
        state.withLock { state in
            if state.batch == nil {
                state.batch = SectionedBatchRecorder(itemCounts: state.itemCounts)
            } else {
                state.batch!.depth += 1
            }
        }
    }

    /// Closes a batch opened by ``beginUpdates()``; the outermost one publishes the net change.
    ///
    /// - Precondition: A batch is open.
    /// - Complexity: O(*s* + *n* + *k* log *k*) for the outermost call, O(1) for nested ones.
    public func endUpdates() {
        let mustDrain = withState { state -> Bool in
            guard var batch = state.batch else {
                preconditionFailure("SectionedCollection.endUpdates(): called without a matching beginUpdates()")
            }
            batch.depth -= 1
            if batch.depth > 0 {
                state.batch = batch
                return false
            }
            state.batch = nil
            return state.publish(batch.changeset())
        }
        if mustDrain { drain() }
    }

    /// Whether a batch is open.
    public var isBatching: Bool { state.withLock { $0.batch != nil } }
}
