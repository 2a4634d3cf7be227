/// The difference between two versions of a sectioned list, in the coordinates UIKit's batch
/// updates use.
///
/// A sectioned change-set has two levels:
/// - ``sections``: a flat ``Changeset`` over the sections, by section offset: deleted, inserted,
///   moved and updated sections (an update means the section's own value, such as its header,
///   changed);
/// - the items, by ``ElementPath``: ``itemDeletes`` at **source** paths, ``itemInserts`` at
///   **target** paths, ``itemMoves`` from a source path to a target path (also across sections),
///   and ``itemUpdates`` for items that kept their identity but changed content.
///
/// As in UIKit, the items of a deleted section leave with it and the items of an inserted section
/// arrive with it: neither is listed as an item delete or insert. An item that survives in a
/// section the diff deletes or inserts is listed as a move, so the change-set keeps every item's
/// identity; ``StagedSectionedChangeset`` turns such moves into a delete and an insert, because
/// UIKit rejects them. Items that are neither deleted nor moved keep their relative order inside
/// their section and fill the target slots that inserts and moves leave free.
///
/// <!-- swift
/// struct Folder: Identifiable, Equatable {
///     var id: String
/// }
/// struct Mail: Identifiable, Equatable {
///     var id: Int
/// }
/// let inbox = Folder(id: "Inbox"), archive = Folder(id: "Archive")
/// let a = Mail(id: 1), b = Mail(id: 2), c = Mail(id: 3)
/// let old = [SectionSnapshot(section: inbox, items: [a, b]), SectionSnapshot(section: archive, items: [c])]
/// let new = [SectionSnapshot(section: inbox, items: [b]), SectionSnapshot(section: archive, items: [c, a])]
/// -->
/// ```swift
/// let changes = SectionedChangeset(from: old, to: new)
/// print(changes)
/// // SectionedChangeset(sections 2 → 2: no changes; items 3 → 3: move [(0 - 0)→(1 - 1)])
/// ```
///
/// # Duplicates
/// Identifiers should be unique (item identifiers across all sections, as UIKit requires), but a
/// diff never traps when they are not: repeated identifiers are paired in order and the change-set
/// stays valid. Repeated sections are reported in ``sections``' ``Changeset/duplicates`` and
/// repeated items in ``itemDuplicates``.
///
/// # Performance
/// The diff runs in expected linear time in the total number of items: sections are diffed with the
/// flat diff, each pair of matched sections is trimmed of its common prefix and suffix without
/// hashing, and the remaining items of all sections share one flat open-addressing table in which
/// each item identifier is hashed once. No per-item `Dictionary` or `Set` is built. An unchanged
/// list hashes no item at all. Beyond the inputs and the result, it allocates at most 32 bytes per
/// item (source and target items counted together), plus one table entry per distinct item
/// identifier: a copy of the identifier and 5 bytes.
///
/// # Thread Safety
/// `SectionedChangeset` is a value type of plain integers and is `Sendable`.
public struct SectionedChangeset: Hashable, Sendable {
    /// A pair of paths: where an item was in the source and where it is in the target.
    public struct PathPair: Hashable, Comparable, Sendable, CustomStringConvertible {
        /// The item's path in the source.
        public var source: ElementPath

        /// The item's path in the target.
        public var target: ElementPath

        /// Creates a pair of paths.
        ///
        /// - Parameters:
        ///   - source: The item's path in the source.
        ///   - target: The item's path in the target.
        @inlinable
        public init(source: ElementPath, target: ElementPath) {
            self.source = source
            self.target = target
        }

        /// Orders pairs by source path, then by target path.
        @inlinable
        public static func < (lhs: PathPair, rhs: PathPair) -> Bool {
            lhs.source != rhs.source ? lhs.source < rhs.source : lhs.target < rhs.target
        }

        /// The pair as `"(source)→(target)"`, for example `"(0 - 1)→(2 - 0)"`.
        public var description: String { "(\(source))→(\(target))" }
    }

    /// Paths of items whose identifier already appeared earlier on the same side, in any section.
    ///
    /// The diff pairs duplicates in order and still produces a valid change-set; this report lets a
    /// caller surface the bad input instead of losing it.
    public struct ItemDuplicates: Hashable, Sendable {
        /// Source paths whose identifier also occurs at an earlier source path, ascending.
        public var sourcePaths: [ElementPath]

        /// Target paths whose identifier also occurs at an earlier target path, ascending.
        public var targetPaths: [ElementPath]

        /// Creates a duplicate report.
        ///
        /// - Parameters:
        ///   - sourcePaths: Repeated source paths, ascending.
        ///   - targetPaths: Repeated target paths, ascending.
        @inlinable
        public init(sourcePaths: [ElementPath] = [], targetPaths: [ElementPath] = []) {
            self.sourcePaths = sourcePaths
            self.targetPaths = targetPaths
        }

        /// Whether no duplicate was seen.
        @inlinable
        public var isEmpty: Bool { sourcePaths.isEmpty && targetPaths.isEmpty }
    }

    /// The changes to the sections themselves, by section offset.
    ///
    /// Its ``Changeset/sourceCount`` and ``Changeset/targetCount`` are the numbers of sections, and
    /// an update names a section whose own value (not its items) changed.
    public var sections: Changeset

    /// The number of items in each source section; ``sections``' source count entries.
    public var sourceItemCounts: [Int]

    /// The number of items in each target section; ``sections``' target count entries.
    public var targetItemCounts: [Int]

    /// Source paths of deleted items, ascending. Items of deleted sections are not listed.
    public var itemDeletes: [ElementPath]

    /// Target paths of inserted items, ascending. Items of inserted sections are not listed.
    public var itemInserts: [ElementPath]

    /// Items that changed place, inside a section or across sections, ascending by target path.
    ///
    /// When produced by a diff, an item that changed section is always a move, and the moves inside
    /// each pair of matched sections are minimal: matched items minus the longest run that kept
    /// its order.
    public var itemMoves: [PathPair]

    /// Items with the same identity whose content changed, ascending by source path.
    ///
    /// An item can be both moved and updated.
    public var itemUpdates: [PathPair]

    /// Items whose identifiers repeat. Empty for well-formed input.
    public var itemDuplicates: ItemDuplicates

    /// Creates a sectioned change-set from its parts.
    ///
    /// The parts must describe a valid change: use ``validationFailure()`` to check a hand-made
    /// change-set.
    ///
    /// - Parameters:
    ///   - sections: The section-level changes, by section offset.
    ///   - sourceItemCounts: The number of items in each source section.
    ///   - targetItemCounts: The number of items in each target section.
    ///   - itemDeletes: Source paths of deleted items, ascending.
    ///   - itemInserts: Target paths of inserted items, ascending.
    ///   - itemMoves: Moved items, ascending by target path.
    ///   - itemUpdates: Updated items, ascending by source path.
    ///   - itemDuplicates: Repeated item identifiers seen while diffing.
    @inlinable
    public init(
        sections: Changeset,
        sourceItemCounts: [Int],
        targetItemCounts: [Int],
        itemDeletes: [ElementPath] = [],
        itemInserts: [ElementPath] = [],
        itemMoves: [PathPair] = [],
        itemUpdates: [PathPair] = [],
        itemDuplicates: ItemDuplicates = ItemDuplicates()
    ) {
        self.sections = sections
        self.sourceItemCounts = sourceItemCounts
        self.targetItemCounts = targetItemCounts
        self.itemDeletes = itemDeletes
        self.itemInserts = itemInserts
        self.itemMoves = itemMoves
        self.itemUpdates = itemUpdates
        self.itemDuplicates = itemDuplicates
    }

    /// A change-set that changes nothing in a list whose sections hold `itemCounts` items.
    ///
    /// - Parameter itemCounts: The number of items in each section.
    /// - Returns: An empty change-set from the list to itself.
    @inlinable
    public static func unchanged(itemCounts: [Int]) -> SectionedChangeset {
        SectionedChangeset(
            sections: .unchanged(count: itemCounts.count),
            sourceItemCounts: itemCounts,
            targetItemCounts: itemCounts)
    }

    /// Whether the change-set changes nothing, at either level.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var isEmpty: Bool {
        sections.isEmpty && itemDeletes.isEmpty && itemInserts.isEmpty && itemMoves.isEmpty
            && itemUpdates.isEmpty
    }

    /// The number of section and item deletes, inserts, moves and updates together.
    ///
    /// A deleted or inserted section counts once, whatever the number of its items.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var changeCount: Int {
        sections.changeCount + itemDeletes.count + itemInserts.count + itemMoves.count
            + itemUpdates.count
    }

    /// Whether the diff saw repeated section or item identifiers.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var hasDuplicates: Bool {
        !sections.duplicates.isEmpty || !itemDuplicates.isEmpty
    }
}
