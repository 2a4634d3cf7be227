/// A change-set split into batches that UIKit accepts, each with the data the view shows after it.
///
/// Some combinations of changes are valid as a difference but crash, or animate the wrong row,
/// when handed to one `performBatchUpdates(_:)` call. UIKit turns a reload into a delete plus an
/// insert whose position it computes from the batch's deletes and inserts alone, ignoring moves;
/// so a moved element cannot be reloaded in the same batch, and a reload next to moves can land on
/// the wrong row. A staged change-set therefore puts such updates in a batch of their own:
///
/// 1. **Updates**, only when some updated element moves or is shifted by a move: reloads at source
///    offsets, with the data being the source with the new contents in place.
/// 2. **Deletes, inserts, moves** (and the updates that are safe in the same batch): the data is
///    the target.
///
/// Every other change-set is a single stage, and an unchanged list has no stage at all.
/// Apply the stages in order, each in its own batch, and set the view's data source to the stage's
/// ``Stage/data`` inside the batch:
///
/// <!-- swift
/// import UIKit
///
/// let tableView = UITableView()
/// var rendered = ["Dune", "Emma"]
/// let fresh = ["Emma", "Kim"]
/// -->
/// ```swift uikit
/// for stage in StagedChangeset(from: rendered, to: fresh, identity: .value) {
///     tableView.performBatchUpdates {
///         rendered = stage.data
///         tableView.deleteRows(at: stage.changeset.deletes.map { IndexPath(row: $0, section: 0) }, with: .fade)
///         // inserts, moves and updates likewise
///     }
/// }
/// ```
///
/// # The data's type
/// The stages carry the same kind of list the change-set was staged from: `StagedChangeset<[Book]>`
/// for arrays, `StagedChangeset<ListSnapshot<Book>>` for the snapshots of an
/// `ObservableCollection`. A stage's ``Stage/data`` is then one more copy of that list, so a
/// snapshot's stage shares its storage with the snapshot instead of copying it.
///
/// # Thread Safety
/// `StagedChangeset` is `Sendable` when its data is.
public struct StagedChangeset<Data: RandomAccessCollection & MutableCollection>: RandomAccessCollection
where Data.Index == Int {
    /// One batch: the changes to apply together and the data the view shows after them.
    public struct Stage {
        /// The changes of this batch, relative to the previous stage's data (or the source).
        public var changeset: Changeset

        /// The list the view must show once this batch is applied.
        public var data: Data

        /// Creates a stage.
        ///
        /// - Parameters:
        ///   - changeset: The changes of this batch.
        ///   - data: The list the view shows after the batch.
        @inlinable
        public init(changeset: Changeset, data: Data) {
            self.changeset = changeset
            self.data = data
        }
    }

    /// The batches, in the order they must be applied.
    public var stages: [Stage]

    /// Creates a staged change-set from its stages.
    ///
    /// - Parameter stages: The batches, in the order they must be applied.
    @inlinable
    public init(stages: [Stage]) {
        self.stages = stages
    }

    /// The position of the first stage.
    @inlinable
    public var startIndex: Int { stages.startIndex }

    /// The position one past the last stage.
    @inlinable
    public var endIndex: Int { stages.endIndex }

    /// Accesses the stage at `position`.
    ///
    /// - Parameter position: A valid stage offset.
    @inlinable
    public subscript(position: Int) -> Stage { stages[position] }

    /// The number of changes in all stages together.
    ///
    /// - Complexity: O(*s*), where *s* is the number of stages (at most two for a flat list).
    @inlinable
    public var changeCount: Int {
        stages.reduce(0) { $0 + $1.changeset.changeCount }
    }
}

extension StagedChangeset: Sendable where Data: Sendable {}
extension StagedChangeset.Stage: Sendable where Data: Sendable {}
extension StagedChangeset: Equatable where Data: Equatable {}
extension StagedChangeset.Stage: Equatable where Data: Equatable {}

extension StagedChangeset: CustomStringConvertible {
    /// The stages' change-sets, one per line.
    public var description: String {
        if stages.isEmpty { return "StagedChangeset(no stages)" }
        return "StagedChangeset(\n"
            + stages.enumerated().map { "  \($0.offset): \($0.element.changeset)" }.joined(separator: "\n")
            + "\n)"
    }
}
