import RippleDiff

extension BatchUpdateValidator {
    /// The text UIKit prints for an index path, `<NSIndexPath: 0x0000000000000000> {length = 2,
    /// path = S - R}`, with the object's pointer masked so messages compare equal across runs.
    ///
    /// Use it to build an expected message for an assertion:
    ///
    /// ```swift
    /// let expected = "attempt to delete and reload the same index path ("
    ///     + BatchUpdateValidator.indexPathDescription(ElementPath(item: 1, section: 0)) + ")"
    /// ```
    ///
    /// - Parameter path: The index path.
    /// - Returns: UIKit's description of the path, with the pointer masked.
    public static func indexPathDescription(_ path: ElementPath) -> String {
        "<NSIndexPath: 0x0000000000000000> {length = 2, path = \(path.section) - \(path.item)}"
    }
}

/// UIKit's message catalog (M1–M25 in the fact sheet), worded for one flavour.
///
/// `%ld` and `%lu` print as decimal integers and `%@` as
/// ``BatchUpdateValidator/indexPathDescription(_:)``. The two spaces after "section %lu." and
/// "sections." are UIKit's own.
struct _BatchUpdateMessages {
    let flavor: BatchUpdateValidator.Flavor

    /// "row" or "item".
    var item: String { flavor == .tableView ? "row" : "item" }

    /// "rows" or "items".
    var items: String { flavor == .tableView ? "rows" : "items" }

    /// "table view" or "collection view".
    var view: String { flavor == .tableView ? "table view" : "collection view" }

    private func path(_ path: ElementPath) -> String {
        BatchUpdateValidator.indexPathDescription(path)
    }

    private func violation(
        _ rule: BatchUpdateRule, _ id: BatchUpdateMessageID, _ message: String
    ) -> BatchUpdateViolation {
        BatchUpdateViolation(rule: rule, messageID: id, message: message)
    }

    // MARK: - Deletes (R5)

    func m1(section: Int, sectionCount: Int) -> BatchUpdateViolation {
        violation(
            .deleteConflictsAndBounds, .deleteSectionOutOfBounds,
            "attempt to delete section \(section), but there are only \(sectionCount) sections before the update")
    }

    func m2(_ target: ElementPath, sectionCount: Int) -> BatchUpdateViolation {
        violation(
            .deleteConflictsAndBounds, .deleteItemInMissingSection,
            "attempt to delete \(item) \(target.item) from section \(target.section), but there are only \(sectionCount) sections before the update"
        )
    }

    func m3(_ target: ElementPath, itemCount: Int) -> BatchUpdateViolation {
        violation(
            .deleteConflictsAndBounds, .deleteItemOutOfBounds,
            "attempt to delete \(item) \(target.item) from section \(target.section) which only contains \(itemCount) \(items) before the update"
        )
    }

    // MARK: - Inserts (R6)

    func m4(section: Int, sectionCount: Int) -> BatchUpdateViolation {
        violation(
            .insertConflictsAndBounds, .insertSectionOutOfBounds,
            "attempt to insert section \(section) but there are only \(sectionCount) sections after the update")
    }

    func m5(_ target: ElementPath, sectionCount: Int) -> BatchUpdateViolation {
        violation(
            .insertConflictsAndBounds, .insertItemInMissingSection,
            "attempt to insert \(item) \(target.item) into section \(target.section), but there are only \(sectionCount) sections after the update"
        )
    }

    func m6(_ target: ElementPath, itemCount: Int) -> BatchUpdateViolation {
        violation(
            .insertConflictsAndBounds, .insertItemOutOfBounds,
            "attempt to insert \(item) \(target.item) into section \(target.section), but there are only \(itemCount) \(items) in section \(target.section) after the update"
        )
    }

    // MARK: - Reloads and moves against deletes and inserts (R3, R5, R6, R7)

    func m7(_ target: ElementPath) -> BatchUpdateViolation {
        violation(
            .reloadIsDeleteAndInsert, .deleteAndReloadSamePath,
            "attempt to delete and reload the same index path (\(path(target)))")
    }

    func m8(_ target: ElementPath, rule: BatchUpdateRule) -> BatchUpdateViolation {
        violation(
            rule, .deleteAndMoveFromSamePath,
            "attempt to perform a delete and a move from the same index path (\(path(target)))")
    }

    func m8(section: Int, rule: BatchUpdateRule) -> BatchUpdateViolation {
        violation(
            rule, .deleteAndMoveFromSamePath,
            "attempt to perform a delete and a move from the same section (\(section))")
    }

    func m9(_ target: ElementPath, rule: BatchUpdateRule) -> BatchUpdateViolation {
        violation(
            rule, .insertAndMoveToSamePath,
            "attempt to perform an insert and a move to the same index path (\(path(target)))")
    }

    func m9(section: Int, rule: BatchUpdateRule) -> BatchUpdateViolation {
        violation(
            rule, .insertAndMoveToSamePath, "attempt to perform an insert and a move to the same section (\(section))")
    }

    func m10(section: Int) -> BatchUpdateViolation {
        switch flavor {
        case .collectionView:
            return violation(
                .crossLifecycleMoves, .moveFromDeletedSection, "cannot move an item from a deleted section (\(section))"
            )
        case .tableView:
            return violation(.crossLifecycleMoves, .moveFromDeletedSection, "cannot move a row from a deleted section")
        }
    }

    func m11(section: Int) -> BatchUpdateViolation {
        switch flavor {
        case .collectionView:
            return violation(
                .crossLifecycleMoves, .moveIntoInsertedSection,
                "cannot move an item into a newly inserted section (\(section))")
        case .tableView:
            return violation(
                .crossLifecycleMoves, .moveIntoInsertedSection,
                "cannot move a row into a newly inserted section (\(section))")
        }
    }

    // MARK: - Move bounds (R8)

    func m12(section: Int, sectionCount: Int) -> BatchUpdateViolation {
        violation(
            .moveBounds, .moveSectionSourceOutOfBounds,
            "attempt to move section \(section), but there are only \(sectionCount) sections before the update")
    }

    func m13(section: Int, to newSection: Int, sectionCount: Int) -> BatchUpdateViolation {
        violation(
            .moveBounds, .moveSectionDestinationOutOfBounds,
            "attempt to to move section \(section) to section \(newSection), but there are only \(sectionCount) sections after the update"
        )
    }

    func m14(_ source: ElementPath, sectionCount: Int) -> BatchUpdateViolation {
        violation(
            .moveBounds, .moveItemFromMissingSection,
            "attempt to move index path (\(path(source))) from a section that does not exist - there are only \(sectionCount) sections before the update"
        )
    }

    func m15(_ source: ElementPath, itemCount: Int) -> BatchUpdateViolation {
        violation(
            .moveBounds, .moveItemSourceOutOfBounds,
            "attempt to move index path (\(path(source))) that does not exist - there are only \(itemCount) \(items) in section \(source.section) before the update"
        )
    }

    func m16(_ source: ElementPath, to destination: ElementPath, sectionCount: Int) -> BatchUpdateViolation {
        violation(
            .moveBounds, .moveItemToMissingSection,
            "attempt to move index path (\(path(source))) to index path (\(path(destination))) in section that does not exist - there are only \(sectionCount) sections after the update"
        )
    }

    func m17(_ source: ElementPath, to destination: ElementPath, itemCount: Int) -> BatchUpdateViolation {
        violation(
            .moveBounds, .moveItemDestinationOutOfBounds,
            "attempt to move index path (\(path(source))) to index path (\(path(destination))) that does not exist - there are only \(itemCount) \(items) in section \(destination.section) after the update"
        )
    }

    // MARK: - Move duplicates (R9)

    func m18(section: Int, to first: Int, and second: Int) -> BatchUpdateViolation {
        violation(
            .moveDuplicates, .sectionMovedToTwoDestinations,
            "attempt to move section \(section) to both section \(first) and section \(second)")
    }

    func m19(_ source: ElementPath, to first: ElementPath, and second: ElementPath) -> BatchUpdateViolation {
        violation(
            .moveDuplicates, .itemMovedToTwoDestinations,
            "attempt to move \(item) at index path \(path(source)) to both \(path(first)) and \(path(second))")
    }

    func m20(section first: Int, and second: Int, to destination: Int) -> BatchUpdateViolation {
        violation(
            .moveDuplicates, .twoSectionsMovedToOne,
            "attempt to move both section \(first) and section \(second) to section \(destination)")
    }

    func m21(_ first: ElementPath, and second: ElementPath, to destination: ElementPath) -> BatchUpdateViolation {
        violation(
            .moveDuplicates, .twoItemsMovedToOne,
            "attempt to move both \(item) at index path \(path(first)) and \(path(second)) to \(path(destination))")
    }

    // MARK: - Counts (R10, R11)

    func m22(after: Int, before: Int, inserted: Int, deleted: Int) -> BatchUpdateViolation {
        violation(
            .sectionCount, .invalidSectionCount,
            "Invalid update: invalid number of sections.  The number of sections contained in the \(view) after the update (\(after)) must be equal to the number of sections contained in the \(view) before the update (\(before)), plus or minus the number of sections inserted or deleted (\(inserted) inserted, \(deleted) deleted)."
        )
    }

    func m23(section: Int) -> BatchUpdateViolation {
        violation(
            .itemCounts, .deleteMoreItemsThanExist,
            "Invalid update: invalid number of \(items) in section \(section).  Attempt to delete more \(items) than exist in section."
        )
    }

    struct SectionCounts {
        var section: Int
        var after: Int
        var before: Int
        var inserted: Int
        var deleted: Int
        var movedIn: Int
        var movedOut: Int
    }

    func m24(_ counts: SectionCounts) -> BatchUpdateViolation {
        violation(
            .itemCounts, .invalidItemCount,
            "Invalid update: invalid number of \(items) in section \(counts.section).  The number of \(items) contained in an existing section after the update (\(counts.after)) must be equal to the number of \(items) contained in that section before the update (\(counts.before)), plus or minus the number of \(items) inserted or deleted from that section (\(counts.inserted) inserted, \(counts.deleted) deleted) and plus or minus the number of \(items) moved into or out of that section (\(counts.movedIn) moved in, \(counts.movedOut) moved out)."
        )
    }

    /// M25. `updates` are the batch's operations after reloads became deletes and inserts, as
    /// newer UIKit lists them.
    func m25(before: [Int], after: [Int], updates: [String]) -> BatchUpdateViolation {
        let header: String
        let viewLine: String
        switch flavor {
        case .tableView:
            header =
                "Invalid batch updates detected: the number of sections and/or rows returned by the data source before and after performing the batch updates are inconsistent with the updates."
            viewLine = "Table view: <UITableView: 0x0000000000000000>"
        case .collectionView:
            header =
                "Invalid batch updates detected: the number of sections and/or items returned by the data source before and/or after performing the batch updates are inconsistent with the updates."
            viewLine = "Collection view: <UICollectionView: 0x0000000000000000>"
        }
        var lines = [
            header,
            "Data source before updates = \(dataSourceSummary(before))",
            "Data source after updates = \(dataSourceSummary(after))",
            "Updates = [",
        ]
        for (offset, update) in updates.enumerated() {
            lines.append("\t" + update + (offset == updates.count - 1 ? "" : ","))
        }
        lines.append("]")
        lines.append(viewLine)
        return violation(.itemCounts, .invalidBatchUpdates, lines.joined(separator: "\n"))
    }

    /// `{ 1 section with row counts: [3] }`.
    private func dataSourceSummary(_ counts: [Int]) -> String {
        let sections = counts.count == 1 ? "section" : "sections"
        let list = counts.map(String.init).joined(separator: ", ")
        return "{ \(counts.count) \(sections) with \(item) counts: [\(list)] }"
    }

    /// One entry of M25's `Updates = [` list, such as `Delete row (0 - 1)`.
    func updateEntry(_ operation: BatchUpdate.Operation) -> String {
        switch operation {
        case .deleteSection(let section): return "Delete section \(section)"
        case .insertSection(let section): return "Insert section \(section)"
        case .moveSection(let from, let to): return "Move section \(from) to \(to)"
        case .reloadSection(let section): return "Reload section \(section)"
        case .deleteItem(let path): return "Delete \(item) (\(path))"
        case .insertItem(let path): return "Insert \(item) (\(path))"
        case .moveItem(let from, let to): return "Move \(item) (\(from)) to (\(to))"
        case .reloadItem(let path): return "Reload \(item) (\(path))"
        }
    }

    // MARK: - Warnings (R3f, R9, R13)

    func reloadIgnoresMoves(
        reloaded: ElementPath, animated: ElementPath, actual: ElementPath
    ) -> BatchUpdateWarning {
        BatchUpdateWarning(
            rule: .reloadIsDeleteAndInsert,
            kind: .reloadIgnoresMoves(reloaded: reloaded, animated: animated, actual: actual),
            message:
                "reload of \(item) (\(reloaded)) refreshes (\(animated)), where UIKit places it from the batch's deletes and inserts alone, but the \(item) ends at (\(actual)) once the batch's moves are applied: the wrong \(item) is reloaded and no exception is raised. Reload in a batch of its own."
        )
    }

    func duplicate(_ operation: BatchUpdate.Operation) -> BatchUpdateWarning {
        let consequence: String
        switch (operation, flavor) {
        case (.moveSection, _), (.moveItem, _):
            return BatchUpdateWarning(
                rule: .moveDuplicates, kind: .duplicate(operation),
                message: "identical \(wording(operation)) recorded twice in one batch; UIKit drops the repeat")
        case (.deleteSection, .collectionView), (.deleteItem, .collectionView):
            consequence =
                "UICollectionView can corrupt its state on repeated deletes and crash with EXC_BAD_ACCESS instead of an exception (IGListKit #657)"
        case (_, .tableView):
            consequence = "UITableView merges the repeat"
        case (_, .collectionView):
            consequence = "UIKit merges the repeat"
        }
        return BatchUpdateWarning(
            rule: .duplicateOperations, kind: .duplicate(operation),
            message: "duplicate \(wording(operation)) in one batch; \(consequence)")
    }

    /// The operation in the flavour's words, such as `delete of row (0 - 1)`.
    private func wording(_ operation: BatchUpdate.Operation) -> String {
        switch operation {
        case .deleteSection(let section): return "delete of section \(section)"
        case .insertSection(let section): return "insert of section \(section)"
        case .moveSection(let from, let to): return "move of section \(from) to section \(to)"
        case .reloadSection(let section): return "reload of section \(section)"
        case .deleteItem(let path): return "delete of \(item) (\(path))"
        case .insertItem(let path): return "insert of \(item) (\(path))"
        case .moveItem(let from, let to): return "move of \(item) (\(from)) to (\(to))"
        case .reloadItem(let path): return "reload of \(item) (\(path))"
        }
    }
}
