import RippleDiff

extension BatchUpdate {
    /// Creates a single-section batch from a flat change-set.
    ///
    /// Deletes, inserts and moves map to the same operations at `section`. Each update becomes a
    /// reload at its **source** offset, because UIKit reads reloads in before coordinates; UIKit
    /// then reinserts the item where the batch's deletes and inserts put it, which is the update's
    /// target offset only when no move shifts it. ``StagedChangeset`` puts such updates in a stage
    /// of their own, so every stage of a staged change-set converts to a valid batch.
    ///
    /// ```swift
    /// for stage in StagedChangeset(from: old, to: new) {
    ///     tableView.performBatchUpdates {
    ///         model = stage.data
    ///         tableView.apply(BatchUpdate(stage.changeset))
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - changeset: The changes of one list, or of one stage of a staged change-set.
    ///   - section: The section the list is shown in.
    /// - Complexity: O(*c*) for *c* changes in `changeset`.
    public init(_ changeset: Changeset, inSection section: Int = 0) {
        var operations: [Operation] = []
        operations.reserveCapacity(changeset.changeCount)
        for offset in changeset.deletes {
            operations.append(.deleteItem(ElementPath(item: offset, section: section)))
        }
        for offset in changeset.inserts {
            operations.append(.insertItem(ElementPath(item: offset, section: section)))
        }
        for move in changeset.moves {
            operations.append(
                .moveItem(
                    ElementPath(item: move.source, section: section),
                    to: ElementPath(item: move.target, section: section)))
        }
        for update in changeset.updates {
            operations.append(.reloadItem(ElementPath(item: update.source, section: section)))
        }
        self.init(operations: operations)
    }
}
