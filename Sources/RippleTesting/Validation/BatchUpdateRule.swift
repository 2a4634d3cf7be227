/// A rule of UIKit's batch updates, numbered as in the fact sheet `docs/uikit-batch-rules.md`,
/// which gives each rule's sources.
///
/// Every ``BatchUpdateViolation`` and ``BatchUpdateWarning`` names the rule it comes from, so a
/// failing test points at the paragraph that explains it.
public enum BatchUpdateRule: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// R1: deletes, reloads and move sources use before coordinates; inserts and move destinations
    /// use after coordinates.
    case r1 = "R1"
    /// R2: call order is irrelevant; nested batches merge into the outermost one.
    case r2 = "R2"
    /// R3: a reload is a delete plus an insert whose position ignores moves.
    case r3 = "R3"
    /// R4: the order of the checks; the first failure wins.
    case r4 = "R4"
    /// R5: deletes, compared with moves first, then bounds-checked.
    case r5 = "R5"
    /// R6: inserts, compared with moves first, then bounds-checked.
    case r6 = "R6"
    /// R7: item moves out of deleted sections or into inserted sections.
    case r7 = "R7"
    /// R8: move bounds.
    case r8 = "R8"
    /// R9: move duplicates.
    case r9 = "R9"
    /// R10: the number of sections.
    case r10 = "R10"
    /// R11: the number of items in each section.
    case r11 = "R11"
    /// R12: item moves inside moved sections.
    case r12 = "R12"
    /// R13: duplicate operations.
    case r13 = "R13"
    /// R14: when the before and after states are read.
    case r14 = "R14"
    /// R15: `reloadData()`, never inside a batch.
    case r15 = "R15"
    /// R16: version drift; everything is treated as an error.
    case r16 = "R16"
    /// R17 (Ripple's rule, not UIKit's): reconfigures name existing items by their final paths, in
    /// a pass of their own after the structural batch (`uikit-cell-lifecycle.md`, C4).
    case r17 = "R17"

    /// The rule's identifier, such as `R5`.
    public var description: String { rawValue }
}

/// The identifier of one of UIKit's batch-update messages, numbered as in the catalog of the fact
/// sheet `docs/uikit-batch-rules.md`.
///
/// See `docs/testing-batch-updates.md` for the format string of each identifier.
public enum BatchUpdateMessageID: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// M1: `attempt to delete section %ld, but there are only %ld sections before the update`.
    case m1 = "M1"
    /// M2: `attempt to delete row %ld from section %ld, but there are only %ld sections before the update`.
    case m2 = "M2"
    /// M3: `attempt to delete row %ld from section %ld which only contains %ld rows before the update`.
    case m3 = "M3"
    /// M4: `attempt to insert section %ld but there are only %ld sections after the update`.
    case m4 = "M4"
    /// M5: `attempt to insert row %ld into section %ld, but there are only %ld sections after the update`.
    case m5 = "M5"
    /// M6: `attempt to insert row %ld into section %ld, but there are only %ld rows in section %ld after the update`.
    case m6 = "M6"
    /// M7: `attempt to delete and reload the same index path (%@)`.
    case m7 = "M7"
    /// M8: `attempt to perform a delete and a move from the same index path (%@)`, or the section form.
    case m8 = "M8"
    /// M9: `attempt to perform an insert and a move to the same index path (%@)`, or the section form.
    case m9 = "M9"
    /// M10: `cannot move an item from a deleted section (%ld)`.
    case m10 = "M10"
    /// M11: `cannot move an item into a newly inserted section (%ld)`.
    case m11 = "M11"
    /// M12: `attempt to move section %ld, but there are only %ld sections before the update`.
    case m12 = "M12"
    /// M13: `attempt to to move section %ld to section %ld, but there are only %ld sections after the update`.
    case m13 = "M13"
    /// M14: `attempt to move index path (%@) from a section that does not exist - …`.
    case m14 = "M14"
    /// M15: `attempt to move index path (%@) that does not exist - …`.
    case m15 = "M15"
    /// M16: `attempt to move index path (%@) to index path (%@) in section that does not exist - …`.
    case m16 = "M16"
    /// M17: `attempt to move index path (%@) to index path (%@) that does not exist - …`.
    case m17 = "M17"
    /// M18: `attempt to move section %ld to both section %ld and section %ld`.
    case m18 = "M18"
    /// M19: `attempt to move row at index path %@ to both %@ and %@`.
    case m19 = "M19"
    /// M20: `attempt to move both section %ld and section %ld to section %ld`.
    case m20 = "M20"
    /// M21: `attempt to move both row at index path %@ and %@ to %@`.
    case m21 = "M21"
    /// M22: `Invalid update: invalid number of sections. …`.
    case m22 = "M22"
    /// M23: `Invalid update: invalid number of rows in section %lu.  Attempt to delete more rows than exist in section.`
    case m23 = "M23"
    /// M24: `Invalid update: invalid number of rows in section %lu.  The number of rows contained in an existing section …`.
    case m24 = "M24"
    /// M25: `Invalid batch updates detected: …`, the multi-line form of newer UIKit.
    case m25 = "M25"

    /// The message's identifier, such as `M3`.
    public var description: String { rawValue }
}
