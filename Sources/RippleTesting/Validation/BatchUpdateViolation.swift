/// A batch that UIKit would reject, with the message UIKit would raise.
///
/// Real UIKit raises an `NSInternalInconsistencyException` whose reason is ``message`` and
/// terminates the app. RippleTesting never traps: the validator returns the violation and the
/// headless views record it.
///
/// <!-- swift
/// var batch = BatchUpdate()
/// batch.deleteItems(at: [ElementPath(item: 5, section: 0)])
/// -->
/// ```swift
/// let result = BatchUpdateValidator.tableView.validate(batch, before: [5], after: [4])
/// XCTAssertEqual(result.violation?.messageID, .deleteItemOutOfBounds)
/// XCTAssertEqual(result.violation?.message,
///     "attempt to delete row 5 from section 0 which only contains 5 rows before the update")
/// ```
///
/// # Thread Safety
/// `BatchUpdateViolation` is a value type and is `Sendable`.
public struct BatchUpdateViolation: Error, Hashable, Sendable, CustomStringConvertible {
    /// The rule the batch breaks.
    public var rule: BatchUpdateRule

    /// The UIKit message in the catalog, or `nil` for a misuse UIKit has no message for (such as
    /// `reloadData()` inside a batch, R15, or an unmatched `endUpdates()`, R2).
    public var messageID: BatchUpdateMessageID?

    /// The exception's reason: UIKit's text with its arguments filled in. Index paths print as
    /// `<NSIndexPath: 0x0000000000000000> {length = 2, path = S - R}`, with the pointer masked.
    public var message: String

    /// Creates a violation.
    ///
    /// - Parameters:
    ///   - rule: The rule the batch breaks.
    ///   - messageID: The message in the catalog, if UIKit has one.
    ///   - message: The message text.
    public init(rule: BatchUpdateRule, messageID: BatchUpdateMessageID?, message: String) {
        self.rule = rule
        self.messageID = messageID
        self.message = message
    }

    /// The name of the exception real UIKit raises: `NSInternalInconsistencyException`.
    public var exceptionName: String { "NSInternalInconsistencyException" }

    /// Whether ``message`` equals `uikitMessage` once every run of whitespace is folded to one
    /// space and leading and trailing whitespace is dropped.
    ///
    /// Crash logs pasted into issues often lose UIKit's double spaces and line breaks; compare
    /// with this instead of `==` when the expected text comes from such a log.
    ///
    /// - Parameter uikitMessage: The expected message.
    /// - Returns: `true` when the two texts differ at most in whitespace.
    /// - Complexity: O(*n*) in the length of the two texts.
    public func matches(_ uikitMessage: String) -> Bool {
        Self.foldingWhitespace(message) == Self.foldingWhitespace(uikitMessage)
    }

    /// `text` with every run of whitespace folded to one space, without leading or trailing
    /// whitespace.
    ///
    /// - Parameter text: Any text.
    /// - Returns: The folded text.
    /// - Complexity: O(*n*) in the length of `text`.
    public static func foldingWhitespace(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The rule, the message identifier and the message, such as
    /// `R5 M3: attempt to delete row 5 from section 0 which only contains 5 rows before the update`.
    public var description: String {
        "\(rule) \(messageID.map(\.rawValue) ?? "-"): \(message)"
    }
}
