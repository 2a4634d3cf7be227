import RippleDiff

/// Checks a batch of table or collection view updates against UIKit's rules, and says which
/// exception UIKit would raise, with UIKit's own message text.
///
/// UIKit does not run on Linux, so RippleTesting models it. A validator takes the number of items
/// in each section before the batch (what the view cached at its last reload or batch), the batch,
/// and the number of items in each section that the data source reports after the batch. It
/// returns valid, or the **first** violation in UIKit's check order (R4):
///
/// 1. reloads become a delete plus an insert (M7);
/// 2. deletes, in descending order: compared with the moves (M8, M10), then bounds (M1–M3);
/// 3. inserts, in ascending order: compared with the moves (M9, M11), then bounds (M4–M6);
/// 4. move bounds (M12–M17);
/// 5. move duplicates (M18–M21);
/// 6. the number of sections (M22);
/// 7. the number of items in each section (M23, M24, or M25 in the ``CountMismatchStyle/detailed``
///    style).
///
/// Warnings report what UIKit accepts silently: duplicate operations (R13) and reloads that
/// refresh the wrong item because UIKit ignores moves when it places them (R3f).
///
/// ```swift
/// var batch = BatchUpdate()
/// batch.deleteItems(at: [ElementPath(item: 5, section: 0)])
/// let result = BatchUpdateValidator.tableView.validate(batch, before: [5], after: [4])
/// print(result.violation!.message)
/// // attempt to delete row 5 from section 0 which only contains 5 rows before the update
/// ```
///
/// Index paths in messages print as `<NSIndexPath: 0x0000000000000000> {length = 2, path = S - R}`:
/// the real pointer differs from run to run, so it is masked with zeros.
///
/// # Thread Safety
/// `BatchUpdateValidator` is a value type and is `Sendable`.
public struct BatchUpdateValidator: Hashable, Sendable {
    /// Which view's rules and wording to use.
    public enum Flavor: Hashable, Sendable {
        /// `UITableView`: messages say "row" and "rows".
        case tableView

        /// `UICollectionView`: messages say "item", "items" and "collection view".
        case collectionView
    }

    /// Which message to use when the number of items in a section does not add up (R11).
    public enum CountMismatchStyle: Hashable, Sendable {
        /// M24, the one-line `Invalid update: invalid number of rows in section …` text.
        case classic

        /// M25, the multi-line `Invalid batch updates detected: …` text of newer UIKit, which lists
        /// the counts before and after and the updates. A wrong number of sections still gives M22,
        /// as newer UIKit still raises it.
        case detailed
    }

    /// The view whose rules and wording to use.
    public var flavor: Flavor

    /// The message for a wrong number of items in a section.
    public var countMismatchStyle: CountMismatchStyle

    /// Creates a validator.
    ///
    /// Both flavours treat every finding as an error (R16), including item moves out of deleted
    /// sections and into inserted sections (R7), which the iOS 12 table view silently answered with
    /// `reloadData`.
    ///
    /// - Parameters:
    ///   - flavor: The view whose rules and wording to use.
    ///   - countMismatchStyle: The message for a wrong number of items; ``CountMismatchStyle/classic``
    ///     (M24) unless you compare with logs from newer UIKit.
    public init(flavor: Flavor, countMismatchStyle: CountMismatchStyle = .classic) {
        self.flavor = flavor
        self.countMismatchStyle = countMismatchStyle
    }

    /// A validator with `UITableView`'s wording and the classic M24 message.
    public static var tableView: BatchUpdateValidator { BatchUpdateValidator(flavor: .tableView) }

    /// A validator with `UICollectionView`'s wording and the classic M24 message.
    public static var collectionView: BatchUpdateValidator {
        BatchUpdateValidator(flavor: .collectionView)
    }

    /// Checks one batch.
    ///
    /// - Parameters:
    ///   - batch: The operations recorded between the outermost begin and end of the batch.
    ///   - before: The number of items in each section before the batch, as the view cached them at
    ///     its last reload or batch (R14). Its count is the number of sections.
    ///   - after: The number of items in each section that the data source reports once the
    ///     updates closure has run.
    /// - Returns: Valid or the first violation in UIKit's check order, plus warnings.
    /// - Complexity: O(*k* log *k* + *s*) for *k* operations and *s* sections before and after.
    public func validate(_ batch: BatchUpdate, before: [Int], after: [Int]) -> BatchUpdateResult {
        _evaluate(batch, before: before, after: after).result
    }
}
