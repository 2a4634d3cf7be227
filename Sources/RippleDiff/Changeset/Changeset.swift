/// The difference between two versions of a flat list, in the coordinates UIKit's batch updates use.
///
/// A change-set names:
/// - ``deletes``: offsets in the **source** of elements that are gone;
/// - ``inserts``: offsets in the **target** of elements that are new;
/// - ``moves``: elements that kept their identity but changed their place, from a source offset to a
///   target offset;
/// - ``updates``: elements that kept their identity but whose content changed, with both offsets.
///
/// Elements that are neither deleted nor moved keep their relative order and fill the target slots
/// that inserts and moves leave free. This is exactly how `UITableView.performBatchUpdates(_:)`
/// reads a batch, so a change-set can be handed to a view as it is (see ``StagedChangeset`` for the
/// combinations UIKit rejects in one batch).
///
/// ```swift
/// let changes = Changeset(from: ["a", "b", "c"], to: ["c", "a", "d"], identity: .value)
/// // deletes [1], inserts [2], moves [2 → 0]
/// ```
///
/// # Duplicates
/// Identifiers should be unique, but a diff never traps when they are not: duplicates are paired
/// (by place, see `Changeset(from:to:identity:)`) and the change-set stays valid.
/// The offsets of the repeated elements are kept in ``duplicates`` so that a caller can report them.
///
/// # Thread Safety
/// `Changeset` is a value type of plain integers and is `Sendable`.
public struct Changeset: Hashable, Sendable {
    /// A pair of offsets: where an element was in the source and where it is in the target.
    public struct OffsetPair: Hashable, Comparable, Sendable, CustomStringConvertible {
        /// The element's offset in the source.
        public var source: Int

        /// The element's offset in the target.
        public var target: Int

        /// Creates a pair of offsets.
        ///
        /// - Parameters:
        ///   - source: The element's offset in the source.
        ///   - target: The element's offset in the target.
        @inlinable
        public init(source: Int, target: Int) {
            self.source = source
            self.target = target
        }

        /// Orders pairs by source offset, then by target offset.
        @inlinable
        public static func < (lhs: OffsetPair, rhs: OffsetPair) -> Bool {
            lhs.source != rhs.source ? lhs.source < rhs.source : lhs.target < rhs.target
        }

        /// The pair as `"source→target"`.
        public var description: String { "\(source)→\(target)" }
    }

    /// Offsets of elements whose identifier already appeared earlier on the same side.
    ///
    /// The diff pairs duplicates and still produces a valid change-set; this report lets a caller
    /// surface the bad input instead of losing it.
    public struct Duplicates: Hashable, Sendable {
        /// Source offsets whose identifier also occurs at a smaller source offset, ascending.
        public var sourceOffsets: [Int]

        /// Target offsets whose identifier also occurs at a smaller target offset, ascending.
        public var targetOffsets: [Int]

        /// Creates a duplicate report.
        ///
        /// - Parameters:
        ///   - sourceOffsets: Repeated source offsets, ascending.
        ///   - targetOffsets: Repeated target offsets, ascending.
        @inlinable
        public init(sourceOffsets: [Int] = [], targetOffsets: [Int] = []) {
            self.sourceOffsets = sourceOffsets
            self.targetOffsets = targetOffsets
        }

        /// Whether no duplicate was seen.
        @inlinable
        public var isEmpty: Bool { sourceOffsets.isEmpty && targetOffsets.isEmpty }
    }

    /// The number of elements in the source.
    public var sourceCount: Int

    /// The number of elements in the target.
    public var targetCount: Int

    /// Source offsets of deleted elements, ascending.
    public var deletes: [Int]

    /// Target offsets of inserted elements, ascending.
    public var inserts: [Int]

    /// Elements that changed place, ascending by target offset.
    ///
    /// When produced by a diff, the moves are minimal: their number equals the number of matched
    /// elements minus the length of the longest run of matched elements that kept their order.
    public var moves: [OffsetPair]

    /// Elements with the same identity whose content changed, ascending by source offset.
    ///
    /// An element can be both moved and updated.
    public var updates: [OffsetPair]

    /// Elements whose identifiers repeat. Empty for well-formed input.
    public var duplicates: Duplicates

    /// Creates a change-set from its parts.
    ///
    /// The parts must describe a valid batch: offsets in range, each list in the order given
    /// below, no offset named twice on one side, and
    /// `sourceCount - deletes - moves == targetCount - inserts - moves`. Use
    /// ``validationFailure()`` to check a hand-made change-set.
    ///
    /// - Parameters:
    ///   - sourceCount: The number of elements in the source.
    ///   - targetCount: The number of elements in the target.
    ///   - deletes: Source offsets of deleted elements, ascending.
    ///   - inserts: Target offsets of inserted elements, ascending.
    ///   - moves: Moved elements, ascending by target offset.
    ///   - updates: Updated elements, ascending by source offset.
    ///   - duplicates: Repeated identifiers seen while diffing.
    @inlinable
    public init(
        sourceCount: Int,
        targetCount: Int,
        deletes: [Int] = [],
        inserts: [Int] = [],
        moves: [OffsetPair] = [],
        updates: [OffsetPair] = [],
        duplicates: Duplicates = Duplicates()
    ) {
        self.sourceCount = sourceCount
        self.targetCount = targetCount
        self.deletes = deletes
        self.inserts = inserts
        self.moves = moves
        self.updates = updates
        self.duplicates = duplicates
    }

    /// A change-set that changes nothing in a list of `count` elements.
    ///
    /// - Parameter count: The number of elements in the list.
    /// - Returns: An empty change-set from `count` elements to `count` elements.
    @inlinable
    public static func unchanged(count: Int) -> Changeset {
        Changeset(sourceCount: count, targetCount: count)
    }

    /// Whether the change-set changes nothing.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var isEmpty: Bool {
        deletes.isEmpty && inserts.isEmpty && moves.isEmpty && updates.isEmpty
    }

    /// The number of deletes, inserts, moves and updates together.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var changeCount: Int {
        deletes.count + inserts.count + moves.count + updates.count
    }
}
