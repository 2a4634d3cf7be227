import RippleDiff

/// One batch of updates for a table or collection view, recorded the way UIKit receives it.
///
/// A `BatchUpdate` is what a view collects between `beginUpdates()` and `endUpdates()`, or inside
/// a `performBatchUpdates(_:completion:)` closure: section deletes, inserts, moves and reloads,
/// and item (row) deletes, inserts, moves and reloads. The mutating methods carry UIKit's names,
/// so code written against `UICollectionView` reads the same against a batch:
///
/// ```swift
/// var batch = BatchUpdate()
/// batch.deleteItems(at: [ElementPath(item: 1, section: 0)])
/// batch.insertItems(at: [ElementPath(item: 3, section: 0)])
/// let result = BatchUpdateValidator.tableView.validate(batch, before: [5], after: [5])
/// // result.isValid == true
/// ```
///
/// # Coordinates
/// Section and item deletes, reloads and every move's source name positions in the state
/// **before** the batch; inserts and every move's destination name positions in the state
/// **after** it (fact sheet R1). Elements that are neither deleted nor moved keep their relative
/// order and fill the free slots.
///
/// # Call order
/// Operations are kept in ``operations`` in call order, duplicates included, because the validator
/// reports duplicates (R13) and the newer UIKit message (M25) lists the updates. The call order
/// never changes whether a batch is valid (R2).
///
/// # Thread Safety
/// `BatchUpdate` is a value type of plain integers and is `Sendable`.
public struct BatchUpdate: Hashable, Sendable {
    /// One call made on a view inside a batch, for a single section or a single item.
    public enum Operation: Hashable, Sendable {
        /// `deleteSections(_:)` for one section, in before coordinates.
        case deleteSection(Int)

        /// `insertSections(_:)` for one section, in after coordinates.
        case insertSection(Int)

        /// `moveSection(_:toSection:)`: from a before section to an after section.
        case moveSection(Int, to: Int)

        /// `reloadSections(_:)` for one section, in before coordinates.
        case reloadSection(Int)

        /// `deleteItems(at:)` / `deleteRows(at:)` for one path, in before coordinates.
        case deleteItem(ElementPath)

        /// `insertItems(at:)` / `insertRows(at:)` for one path, in after coordinates.
        case insertItem(ElementPath)

        /// `moveItem(at:to:)` / `moveRow(at:to:)`: from a before path to an after path.
        case moveItem(ElementPath, to: ElementPath)

        /// `reloadItems(at:)` / `reloadRows(at:)` for one path, in before coordinates.
        case reloadItem(ElementPath)
    }

    /// The recorded operations, in call order, duplicates included.
    public var operations: [Operation]

    /// Creates an empty batch.
    public init() {
        operations = []
    }

    /// Creates a batch from recorded operations.
    ///
    /// - Parameter operations: The operations, in call order.
    public init(operations: [Operation]) {
        self.operations = operations
    }

    /// Whether the batch records no operation.
    ///
    /// An empty batch is still validated: UIKit checks the counts at the end of every batch, so
    /// an empty batch around a changed data source raises M22 or M24.
    ///
    /// - Complexity: O(1).
    public var isEmpty: Bool { operations.isEmpty }

    // MARK: - Sections

    /// Records the deletion of sections, given in before coordinates.
    ///
    /// - Parameter sections: The sections to delete. Row operations inside a deleted section are
    ///   ignored, as UIKit does.
    /// - Complexity: O(*k*) for *k* sections.
    public mutating func deleteSections(_ sections: [Int]) {
        operations.append(contentsOf: sections.lazy.map { .deleteSection($0) })
    }

    /// Records the insertion of sections, given in after coordinates.
    ///
    /// - Parameter sections: The sections to insert. Their contents come from the data source;
    ///   row inserts inside an inserted section are ignored.
    /// - Complexity: O(*k*) for *k* sections.
    public mutating func insertSections(_ sections: [Int]) {
        operations.append(contentsOf: sections.lazy.map { .insertSection($0) })
    }

    /// Records the move of a section.
    ///
    /// - Parameters:
    ///   - section: The section's index before the batch.
    ///   - newSection: The section's index after the batch.
    /// - Complexity: O(1) amortized.
    public mutating func moveSection(_ section: Int, toSection newSection: Int) {
        operations.append(.moveSection(section, to: newSection))
    }

    /// Records the reload of sections, given in before coordinates.
    ///
    /// UIKit turns each reload into a delete of the section and an insert at the position that the
    /// batch's section deletes and inserts give it, ignoring moves (R3).
    ///
    /// - Parameter sections: The sections to reload.
    /// - Complexity: O(*k*) for *k* sections.
    public mutating func reloadSections(_ sections: [Int]) {
        operations.append(contentsOf: sections.lazy.map { .reloadSection($0) })
    }

    // MARK: - Items

    /// Records the deletion of items (rows), given in before coordinates.
    ///
    /// - Parameter paths: The items to delete.
    /// - Complexity: O(*k*) for *k* paths.
    public mutating func deleteItems(at paths: [ElementPath]) {
        operations.append(contentsOf: paths.lazy.map { .deleteItem($0) })
    }

    /// Records the insertion of items (rows), given in after coordinates.
    ///
    /// - Parameter paths: The positions of the new items once the batch is applied.
    /// - Complexity: O(*k*) for *k* paths.
    public mutating func insertItems(at paths: [ElementPath]) {
        operations.append(contentsOf: paths.lazy.map { .insertItem($0) })
    }

    /// Records the move of an item (row).
    ///
    /// - Parameters:
    ///   - path: The item's position before the batch.
    ///   - newPath: The item's position after the batch.
    /// - Complexity: O(1) amortized.
    public mutating func moveItem(at path: ElementPath, to newPath: ElementPath) {
        operations.append(.moveItem(path, to: newPath))
    }

    /// Records the reload of items (rows), given in before coordinates.
    ///
    /// UIKit turns each reload into a delete of the item and an insert at the position that the
    /// batch's deletes and inserts give it, ignoring moves (R3). Never reload an item that moves
    /// in the same batch, and prefer a batch of its own for reloads next to moves.
    ///
    /// - Parameter paths: The items to reload.
    /// - Complexity: O(*k*) for *k* paths.
    public mutating func reloadItems(at paths: [ElementPath]) {
        operations.append(contentsOf: paths.lazy.map { .reloadItem($0) })
    }

    /// Appends the operations of another batch, as a nested batch merges into its outer one (R2).
    ///
    /// - Parameter other: The batch whose operations to append.
    /// - Complexity: O(*k*) for *k* operations in `other`.
    public mutating func append(contentsOf other: BatchUpdate) {
        operations.append(contentsOf: other.operations)
    }
}
