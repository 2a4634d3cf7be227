import RippleDiff

/// Something a headless view did, in the order it did it.
///
/// A test can assert the whole history at once, for instance that a list source answered a change
/// with one batch and no `reloadData()`:
///
/// <!-- swift
/// var names = ["a"]
/// let tableView = HeadlessTableView { [names] }
/// tableView.performBatchUpdates {
///     names.append("b")
///     tableView.insertRows(at: [ElementPath(item: 1, section: 0)])
/// }
/// -->
/// ```swift
/// XCTAssertEqual(tableView.events.count, 1)
/// if case .batchUpdates(_, let result) = tableView.events.last {
///     XCTAssertTrue(result.isValid)
/// } else {
///     XCTFail()
/// }
/// ```
///
/// # Thread Safety
/// `HeadlessViewEvent` is a value type and is `Sendable`.
public enum HeadlessViewEvent: Hashable, Sendable, CustomStringConvertible {
    /// `reloadData()` ran, or a batch was abandoned because `reloadData()` was called inside it.
    case reloadData

    /// The outermost batch ended and was validated. When the result is valid the view applied
    /// the batch; otherwise it recorded the violation and reloaded from its data source.
    case batchUpdates(BatchUpdate, BatchUpdateResult)

    /// The view was used in a way UIKit forbids without a batch to validate: `reloadData()` inside
    /// a batch (R15) or `endUpdates()` without `beginUpdates()` (R2).
    case misuse(BatchUpdateViolation)

    /// `reconfigureRows(at:)`/`reconfigureItems(at:)` ran outside a batch: the cells of those
    /// rows on screen were configured again in place (C4), at these paths.
    case reconfigure([ElementPath])

    /// `reconfigureSupplementaryViews(inSections:)` ran outside a batch: the headers and footers
    /// on screen of these sections were configured again in place.
    case reconfigureSupplementaryViews([Int])

    /// A one-line summary of the event.
    public var description: String {
        switch self {
        case .reloadData: return "reloadData"
        case .batchUpdates(let batch, let result):
            return "batchUpdates(\(batch)) → \(result.violation.map { "invalid: \($0)" } ?? "valid")"
        case .misuse(let violation): return "misuse(\(violation))"
        case .reconfigure(let paths): return "reconfigure(\(paths))"
        case .reconfigureSupplementaryViews(let sections): return "reconfigureSupplementaryViews(\(sections))"
        }
    }
}
