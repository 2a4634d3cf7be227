/// What ``BatchUpdateValidator`` says about one batch: valid, or the first violation in UIKit's
/// check order, plus warnings.
///
/// # Thread Safety
/// `BatchUpdateResult` is a value type and is `Sendable`.
public struct BatchUpdateResult: Hashable, Sendable, CustomStringConvertible {
    /// The first violation in UIKit's check order (R4), or `nil` when UIKit accepts the batch.
    public var violation: BatchUpdateViolation?

    /// Problems that raise no exception: duplicates (R13) always, and reloads that land on the
    /// wrong item (R3f) when the batch is otherwise valid.
    public var warnings: [BatchUpdateWarning]

    /// Creates a result.
    ///
    /// - Parameters:
    ///   - violation: The first violation, or `nil`.
    ///   - warnings: The warnings.
    public init(violation: BatchUpdateViolation? = nil, warnings: [BatchUpdateWarning] = []) {
        self.violation = violation
        self.warnings = warnings
    }

    /// Whether UIKit accepts the batch. Warnings do not make a batch invalid.
    public var isValid: Bool { violation == nil }

    /// `valid` or the violation, followed by the warnings.
    public var description: String {
        var text = violation.map { "invalid: \($0)" } ?? "valid"
        for warning in warnings { text += "\nwarning: \(warning)" }
        return text
    }
}
