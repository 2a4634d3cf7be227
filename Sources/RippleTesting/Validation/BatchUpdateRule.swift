/// A rule of UIKit's batch updates, numbered as in the fact sheet `docs/uikit-batch-rules.md`,
/// which gives each rule's sources.
///
/// Every ``BatchUpdateViolation`` and ``BatchUpdateWarning`` names the rule it comes from, so a
/// failing test points at the paragraph that explains it.
public enum BatchUpdateRule: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// R1 in `docs/uikit-batch-rules.md`: deletes, reloads and move sources use before coordinates;
    /// inserts and move destinations use after coordinates.
    case coordinates = "R1"
    /// R2 in `docs/uikit-batch-rules.md`: call order is irrelevant; nested batches merge into the
    /// outermost one.
    case orderAndNesting = "R2"
    /// R3 in `docs/uikit-batch-rules.md`: a reload is a delete plus an insert whose position
    /// ignores moves.
    case reloadIsDeleteAndInsert = "R3"
    /// R4 in `docs/uikit-batch-rules.md`: the order of the checks; the first failure wins.
    case checkOrder = "R4"
    /// R5 in `docs/uikit-batch-rules.md`: deletes, compared with moves first, then bounds-checked.
    case deleteConflictsAndBounds = "R5"
    /// R6 in `docs/uikit-batch-rules.md`: inserts, compared with moves first, then bounds-checked.
    case insertConflictsAndBounds = "R6"
    /// R7 in `docs/uikit-batch-rules.md`: item moves out of deleted sections or into inserted
    /// sections.
    case crossLifecycleMoves = "R7"
    /// R8 in `docs/uikit-batch-rules.md`: move bounds.
    case moveBounds = "R8"
    /// R9 in `docs/uikit-batch-rules.md`: move duplicates.
    case moveDuplicates = "R9"
    /// R10 in `docs/uikit-batch-rules.md`: the number of sections.
    case sectionCount = "R10"
    /// R11 in `docs/uikit-batch-rules.md`: the number of items in each section.
    case itemCounts = "R11"
    /// R12 in `docs/uikit-batch-rules.md`: item moves inside moved sections.
    case movesInMovedSections = "R12"
    /// R13 in `docs/uikit-batch-rules.md`: duplicate operations.
    case duplicateOperations = "R13"
    /// R14 in `docs/uikit-batch-rules.md`: when the before and after states are read.
    case dataSourceTiming = "R14"
    /// R15 in `docs/uikit-batch-rules.md`: `reloadData()`, never inside a batch.
    case reloadDataOutsideBatches = "R15"
    /// R16 in `docs/uikit-batch-rules.md`: version drift; everything is treated as an error.
    case versionDrift = "R16"
    /// R17 in `docs/uikit-batch-rules.md` (Ripple's rule, not UIKit's): reconfigures name existing
    /// items by their final paths, in a pass of their own after the structural batch
    /// (`uikit-cell-lifecycle.md`, C4).
    case reconfigurePass = "R17"

    /// The rule's identifier, such as `R5`.
    public var description: String { rawValue }
}

/// The identifier of one of UIKit's batch-update messages, numbered as in the catalog of the fact
/// sheet `docs/uikit-batch-rules.md`.
///
/// See `docs/testing-batch-updates.md` for the format string of each identifier.
public enum BatchUpdateMessageID: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// M1 in `docs/uikit-batch-rules.md`:
    /// `attempt to delete section %ld, but there are only %ld sections before the update`.
    case deleteSectionOutOfBounds = "M1"
    /// M2 in `docs/uikit-batch-rules.md`:
    /// `attempt to delete row %ld from section %ld, but there are only %ld sections before the update`.
    case deleteItemInMissingSection = "M2"
    /// M3 in `docs/uikit-batch-rules.md`:
    /// `attempt to delete row %ld from section %ld which only contains %ld rows before the update`.
    case deleteItemOutOfBounds = "M3"
    /// M4 in `docs/uikit-batch-rules.md`:
    /// `attempt to insert section %ld but there are only %ld sections after the update`.
    case insertSectionOutOfBounds = "M4"
    /// M5 in `docs/uikit-batch-rules.md`:
    /// `attempt to insert row %ld into section %ld, but there are only %ld sections after the update`.
    case insertItemInMissingSection = "M5"
    /// M6 in `docs/uikit-batch-rules.md`:
    /// `attempt to insert row %ld into section %ld, but there are only %ld rows in section %ld after the update`.
    case insertItemOutOfBounds = "M6"
    /// M7 in `docs/uikit-batch-rules.md`: `attempt to delete and reload the same index path (%@)`.
    case deleteAndReloadSamePath = "M7"
    /// M8 in `docs/uikit-batch-rules.md`:
    /// `attempt to perform a delete and a move from the same index path (%@)`, or the section form.
    case deleteAndMoveFromSamePath = "M8"
    /// M9 in `docs/uikit-batch-rules.md`:
    /// `attempt to perform an insert and a move to the same index path (%@)`, or the section form.
    case insertAndMoveToSamePath = "M9"
    /// M10 in `docs/uikit-batch-rules.md`: `cannot move an item from a deleted section (%ld)`.
    case moveFromDeletedSection = "M10"
    /// M11 in `docs/uikit-batch-rules.md`:
    /// `cannot move an item into a newly inserted section (%ld)`.
    case moveIntoInsertedSection = "M11"
    /// M12 in `docs/uikit-batch-rules.md`:
    /// `attempt to move section %ld, but there are only %ld sections before the update`.
    case moveSectionSourceOutOfBounds = "M12"
    /// M13 in `docs/uikit-batch-rules.md`:
    /// `attempt to to move section %ld to section %ld, but there are only %ld sections after the update`.
    case moveSectionDestinationOutOfBounds = "M13"
    /// M14 in `docs/uikit-batch-rules.md`:
    /// `attempt to move index path (%@) from a section that does not exist - …`.
    case moveItemFromMissingSection = "M14"
    /// M15 in `docs/uikit-batch-rules.md`:
    /// `attempt to move index path (%@) that does not exist - …`.
    case moveItemSourceOutOfBounds = "M15"
    /// M16 in `docs/uikit-batch-rules.md`:
    /// `attempt to move index path (%@) to index path (%@) in section that does not exist - …`.
    case moveItemToMissingSection = "M16"
    /// M17 in `docs/uikit-batch-rules.md`:
    /// `attempt to move index path (%@) to index path (%@) that does not exist - …`.
    case moveItemDestinationOutOfBounds = "M17"
    /// M18 in `docs/uikit-batch-rules.md`:
    /// `attempt to move section %ld to both section %ld and section %ld`.
    case sectionMovedToTwoDestinations = "M18"
    /// M19 in `docs/uikit-batch-rules.md`:
    /// `attempt to move row at index path %@ to both %@ and %@`.
    case itemMovedToTwoDestinations = "M19"
    /// M20 in `docs/uikit-batch-rules.md`:
    /// `attempt to move both section %ld and section %ld to section %ld`.
    case twoSectionsMovedToOne = "M20"
    /// M21 in `docs/uikit-batch-rules.md`:
    /// `attempt to move both row at index path %@ and %@ to %@`.
    case twoItemsMovedToOne = "M21"
    /// M22 in `docs/uikit-batch-rules.md`: `Invalid update: invalid number of sections. …`.
    case invalidSectionCount = "M22"
    /// M23 in `docs/uikit-batch-rules.md`:
    /// `Invalid update: invalid number of rows in section %lu.  Attempt to delete more rows than exist in section.`
    case deleteMoreItemsThanExist = "M23"
    /// M24 in `docs/uikit-batch-rules.md`:
    /// `Invalid update: invalid number of rows in section %lu.  The number of rows contained in an existing section …`.
    case invalidItemCount = "M24"
    /// M25 in `docs/uikit-batch-rules.md`:
    /// `Invalid batch updates detected: …`, the multi-line form of newer UIKit.
    case invalidBatchUpdates = "M25"

    /// The message's identifier, such as `M3`.
    public var description: String { rawValue }
}
