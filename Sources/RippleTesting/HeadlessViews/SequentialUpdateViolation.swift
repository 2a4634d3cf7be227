/// A call that `NSTableView` would reject, or a misuse of a ``HeadlessSequentialTableView``, with
/// the message of the exception AppKit would raise where it is known.
///
/// Only ``Kind/rowOutOfRange`` has AppKit's own wording, `NSTableView error
/// inserting/removing/moving row 40 (numberOfRows: 33).`, the reason of an `NSTableViewException`.
/// AppKit's wording for the other kinds is not known here: their messages are Ripple's own and
/// name the view's method, the offending value and the valid range or the two counts.
///
/// It is not a ``BatchUpdateViolation``, whose rules and messages are UIKit's.
///
/// ```swift scoped
/// let tableView = HeadlessSequentialTableView { ["a"] }
/// tableView.removeRows([1])
/// XCTAssertEqual(tableView.lastViolation?.kind, .rowOutOfRange)
/// XCTAssertEqual(tableView.lastViolation?.message,
///     "NSTableView error inserting/removing/moving row 1 (numberOfRows: 1).")
/// ```
///
/// # Thread Safety
/// `SequentialUpdateViolation` is a value type and is `Sendable`.
public struct SequentialUpdateViolation: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
        /// A row outside the rows at the moment of the call: AppKit raises `NSTableViewException`.
        case rowOutOfRange
        /// The rows of a call are not ascending and distinct. AppKit takes an `IndexSet`, which
        /// cannot be out of order, so the list of rows must convert to one unchanged. Ripple's
        /// wording.
        case rowsNotAscending
        /// The row count the batch leaves differs from the data source's. Ripple's wording.
        case rowCountMismatch
        /// `reloadData()` was called inside a batch. Ripple's wording.
        case reloadDataInsideBatch
        /// `endUpdates()` was called without a matching `beginUpdates()`. Ripple's wording.
        case unmatchedEndUpdates

        /// The kind's name, such as `rowOutOfRange`.
        public var description: String { rawValue }
    }

    /// What went wrong.
    public var kind: Kind

    /// The view's method whose call was rejected, such as `insertRows(_:)`, or the one that ended
    /// the batch, such as `endUpdates()`, for ``Kind/rowCountMismatch``.
    public var method: String

    /// The exception's reason: AppKit's text for ``Kind/rowOutOfRange``, Ripple's otherwise.
    public var message: String

    /// Creates a violation.
    ///
    /// - Parameters:
    ///   - kind: What went wrong.
    ///   - method: The method whose call was rejected.
    ///   - message: The message text.
    public init(kind: Kind, method: String, message: String) {
        self.kind = kind
        self.method = method
        self.message = message
    }

    /// The name of the exception real AppKit raises, `NSTableViewException` for
    /// ``Kind/rowOutOfRange``, or `nil` where it is not known here.
    public var exceptionName: String? { kind == .rowOutOfRange ? "NSTableViewException" : nil }

    /// Whether ``message`` is AppKit's own wording rather than Ripple's.
    public var hasAppKitWording: Bool { kind == .rowOutOfRange }

    /// The kind, the method and the message, such as
    /// `rowOutOfRange removeRows(_:): NSTableView error inserting/removing/moving row 1 (numberOfRows: 1).`
    public var description: String { "\(kind) \(method): \(message)" }
}
