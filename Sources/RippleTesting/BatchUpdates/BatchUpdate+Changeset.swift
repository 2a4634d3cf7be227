import RippleDiff

extension BatchUpdate {
    /// Creates a single-section batch from a flat change-set.
    ///
    /// Deletes, inserts and moves map to the same operations at `section`. Each update becomes a
    /// reload at its **source** offset, because UIKit reads reloads in before coordinates; UIKit
    /// then reinserts the item where the batch's deletes and inserts put it, which is the update's
    /// target offset only when no move shifts it. `StagedChangeset` puts such updates in a stage
    /// of their own, so every stage of a staged change-set converts to a valid batch.
    ///
    /// <!-- swift
    /// let old = ["a", "b", "c"], new = ["c", "a", "d"]
    /// var model = old
    /// let tableView = HeadlessTableView { [model] }
    /// tableView.reloadData()
    /// -->
    /// ```swift
    /// for stage in StagedChangeset(from: old, to: new, identity: .value) {
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

extension BatchUpdate {
    /// Creates a batch from a sectioned change-set, one operation per change.
    ///
    /// Section deletes, inserts and moves become `deleteSections`, `insertSections` and
    /// `moveSection(_:toSection:)`; item deletes, inserts and moves become the item operations at
    /// the same paths, across sections too. Each section or item update becomes a reload at its
    /// **source** position, because UIKit reads reloads in before coordinates.
    ///
    /// A whole `SectionedChangeset` may hold combinations that UIKit rejects in one batch (a move
    /// out of a deleted section, a reload of a moved item, a reload next to a section move). The
    /// stages of a `StagedSectionedChangeset` never do, so each stage converts to a valid batch:
    ///
    /// <!-- swift
    /// struct Folder: Hashable {
    ///     var name: String
    /// }
    /// let old = [SectionSnapshot(section: Folder(name: "Inbox"), items: ["a", "b"])]
    /// let new = [SectionSnapshot(section: Folder(name: "Inbox"), items: ["b"]),
    ///            SectionSnapshot(section: Folder(name: "Archive"), items: ["a"])]
    /// var model = old
    /// let collectionView = HeadlessCollectionView { model.map { Array($0.items) } }
    /// collectionView.reloadData()
    /// -->
    /// ```swift scoped
    /// for stage in StagedSectionedChangeset(from: old, to: new, sectionIdentity: .value, itemIdentity: .value) {
    ///     collectionView.performBatchUpdates {
    ///         model = stage.data
    ///         collectionView.apply(BatchUpdate(stage.changeset))
    ///     }
    /// }
    /// ```
    ///
    /// - Parameter changeset: The changes of a sectioned list, or of one stage of a staged one.
    /// - Complexity: O(*c*) for *c* changes in `changeset`.
    public init(_ changeset: SectionedChangeset) {
        var operations: [Operation] = []
        operations.reserveCapacity(changeset.changeCount)
        let sections = changeset.sections
        for section in sections.deletes { operations.append(.deleteSection(section)) }
        for section in sections.inserts { operations.append(.insertSection(section)) }
        for move in sections.moves { operations.append(.moveSection(move.source, to: move.target)) }
        for update in sections.updates { operations.append(.reloadSection(update.source)) }
        for path in changeset.itemDeletes { operations.append(.deleteItem(path)) }
        for path in changeset.itemInserts { operations.append(.insertItem(path)) }
        for move in changeset.itemMoves { operations.append(.moveItem(move.source, to: move.target)) }
        for update in changeset.itemUpdates { operations.append(.reloadItem(update.source)) }
        self.init(operations: operations)
    }
}
