import RippleDiff

/// Something in a batch that UIKit accepts without an exception but that shows the wrong thing, or
/// that corrupts a collection view's state.
///
/// # Thread Safety
/// `BatchUpdateWarning` is a value type and is `Sendable`.
public struct BatchUpdateWarning: Hashable, Sendable, CustomStringConvertible {
    /// What the warning is about.
    public enum Kind: Hashable, Sendable {
        /// R3f: UIKit reloads `animated`, the position it computes for the reload of `reloaded`
        /// from the batch's deletes and inserts alone, but the item really ends at `actual` once
        /// the batch's moves are taken into account. The wrong cell is refreshed.
        case reloadIgnoresMoves(reloaded: ElementPath, animated: ElementPath, actual: ElementPath)

        /// R13 (and R9 for moves): the operation repeats an earlier one of the same batch.
        ///
        /// UITableView merges repeated deletes and inserts, and UIKit drops identical moves;
        /// UICollectionView can corrupt its state on repeated deletes (IGListKit #657,
        /// `EXC_BAD_ACCESS` rather than an exception). The repeat usually betrays a bug in the
        /// code that builds the batch.
        case duplicate(BatchUpdate.Operation)
    }

    /// The rule behind the warning: ``BatchUpdateRule/reloadIsDeleteAndInsert`` for reloads,
    /// ``BatchUpdateRule/duplicateOperations`` for duplicates.
    public var rule: BatchUpdateRule

    /// What the warning is about.
    public var kind: Kind

    /// A sentence explaining the warning, in the flavour's wording.
    public var message: String

    /// Creates a warning.
    ///
    /// - Parameters:
    ///   - rule: The rule behind the warning.
    ///   - kind: What the warning is about.
    ///   - message: A sentence explaining it.
    public init(rule: BatchUpdateRule, kind: Kind, message: String) {
        self.rule = rule
        self.kind = kind
        self.message = message
    }

    /// The rule and the message, such as `R3: reload of row (0 - 2) …`.
    public var description: String { "\(rule): \(message)" }
}
