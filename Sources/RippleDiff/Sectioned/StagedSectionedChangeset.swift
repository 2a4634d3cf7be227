/// A sectioned change-set split into batches that UIKit accepts, each with the sectioned data the
/// view shows after it.
///
/// A ``SectionedChangeset`` is the whole difference; UIKit rejects several of its combinations in
/// one `performBatchUpdates(_:)` call (see `uikit-batch-rules.md`). A staged change-set rewrites
/// the few changes that no batch can hold, and splits the rest into at most two batches:
///
/// 1. **Reloads**, only when some reload cannot share the structural batch: section and item
///    updates at their source positions, with nothing else in the batch. The data is the source
///    with the new contents in place. It exists because UIKit turns a reload into a delete and an
///    insert whose position it computes from the batch's deletes and inserts alone, ignoring moves
///    (R3): a reloaded item must not move (R3b, M8), no reload may share a batch with a section move
///    (R3c, V17, V18), and a reload next to moves that shift it animates the wrong row (R3f). A
///    reloaded section also must not share its batch with item deletes, inserts or moves inside
///    it.
/// 2. **Structure**: section deletes, inserts and moves, item deletes, inserts and moves, and the
///    updates when stage 1 is absent. The data is the target.
///
/// An unchanged list has no stage; most changes take one. Repeated identifiers are reported in the
/// first stage's change-set (an unchanged list has no stage to report them in).
///
/// A stage that reloads a section still lists the updated items inside it. UIKit ignores those
/// item reloads (the reloaded section is read again whole), so they cost nothing on screen, and
/// they keep ``SectionedChangeset/itemUpdates`` exact: replaying each stage with
/// ``SectionedChangeset/applied(to:section:item:)`` on the previous stage's data gives the stage's
/// ``Stage/data``, headers and items included, and every stage passes RippleTesting's validator.
///
/// Rewrites, all inside the structural batch, because no order of batches would avoid them without
/// adding one:
/// - An item moving out of a deleted section becomes an insert at its target, and one moving into
///   an inserted section becomes a delete at its source (R7: UIKit's M10 and M11); one doing both
///   leaves and arrives with its sections. Their updates are dropped: the insert shows the new
///   content.
/// - A moved section with item deletes, inserts or moves inside it, on either side, becomes a
///   section delete plus a section insert (R12). UIKit accepts such a batch but
///   `UICollectionView` corrupts its heap on it, as IGListKit found; IGListKit makes the same
///   rewrite. The section's items leave and arrive with it, so the item changes inside it
///   disappear, and moves between it and other sections are rewritten as in the first rule.
///
/// Apply the stages in order, each in its own batch, and set the data source inside the batch:
///
/// <!-- swift
/// import UIKit
///
/// struct Folder: Identifiable, Equatable {
///     var id: String
/// }
/// struct Mail: Identifiable, Equatable {
///     var id: Int
/// }
/// let collectionView = UICollectionView(frame: .zero, collectionViewLayout: UICollectionViewFlowLayout())
/// var rendered = [SectionSnapshot(section: Folder(id: "Inbox"), items: [Mail(id: 1), Mail(id: 2)])]
/// let fresh = [SectionSnapshot(section: Folder(id: "Inbox"), items: [Mail(id: 2)])]
/// -->
/// ```swift uikit
/// for stage in StagedSectionedChangeset(from: rendered, to: fresh) {
///     collectionView.performBatchUpdates {
///         rendered = stage.data
///         collectionView.deleteSections(IndexSet(stage.changeset.sections.deletes))
///         collectionView.deleteItems(at: stage.changeset.itemDeletes.map { IndexPath(item: $0.item, section: $0.section) })
///         // inserts, moves and reloads likewise
///     }
/// }
/// ```
///
/// # Performance
/// Staging is linear in the number of sections and changes and never looks at items that did not
/// change; the reload stage's data copies only the sections whose content it refreshes. The
/// structural stage's data is the target itself.
///
/// # Thread Safety
/// `StagedSectionedChangeset` is `Sendable` when its sections and items are.
public struct StagedSectionedChangeset<Section, Item>: RandomAccessCollection {
    /// One batch: the changes to apply together and the sectioned data the view shows after them.
    public struct Stage {
        /// The changes of this batch, relative to the previous stage's data (or the source).
        ///
        /// Its section and item updates are reloads: their source positions are what UIKit's
        /// `reloadSections` and `reloadItems` take, and their targets are where UIKit will put them.
        public var changeset: SectionedChangeset

        /// The sectioned list the view must show once this batch is applied.
        public var data: [SectionSnapshot<Section, Item>]

        /// Creates a stage.
        ///
        /// - Parameters:
        ///   - changeset: The changes of this batch.
        ///   - data: The sectioned list the view shows after the batch.
        @inlinable
        public init(changeset: SectionedChangeset, data: [SectionSnapshot<Section, Item>]) {
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
    /// - Complexity: O(*k*), where *k* is the number of stages (at most two).
    @inlinable
    public var changeCount: Int {
        stages.reduce(0) { $0 + $1.changeset.changeCount }
    }
}

extension StagedSectionedChangeset: Sendable where Section: Sendable, Item: Sendable {}
extension StagedSectionedChangeset.Stage: Sendable where Section: Sendable, Item: Sendable {}
extension StagedSectionedChangeset: Equatable where Section: Equatable, Item: Equatable {}
extension StagedSectionedChangeset.Stage: Equatable where Section: Equatable, Item: Equatable {}

extension StagedSectionedChangeset: CustomStringConvertible {
    /// The stages' change-sets, one per line.
    public var description: String {
        if stages.isEmpty { return "StagedSectionedChangeset(no stages)" }
        return "StagedSectionedChangeset(\n"
            + stages.enumerated().map { "  \($0.offset): \($0.element.changeset)" }.joined(separator: "\n")
            + "\n)"
    }
}
