import RippleDiff

/// What a list source needs of a list view: UIKit's batch-update calls, the counts it shows, and
/// whether it is on screen.
///
/// `UITableView` and `UICollectionView` conform through Ripple's thin UIKit glue, and
/// RippleTesting's headless views conform too, so every decision a list source takes is tested on
/// Linux against a view that enforces UIKit's rules. Paths are ``ElementPath``s: section and item
/// (a table view's row).
///
/// Coordinates follow UIKit (R1): deletes, reloads and move sources name positions before the
/// batch; inserts and move destinations name positions after it.
@MainActor
public protocol ListView: AnyObject {
    /// The number of sections the view shows now (its cache, not the data source).
    var numberOfSections: Int { get }

    /// The number of items (rows) the view shows now in a section.
    ///
    /// - Parameter section: A section in `0..<numberOfSections`.
    func numberOfItems(inSection section: Int) -> Int

    /// Whether the view is in a window. Batch updates off screen are wasted work, and UIKit may
    /// reject them, so a list source reloads instead.
    var isInWindow: Bool { get }

    /// Discards what the view shows and reads its data source again.
    func reloadData()

    /// Runs `updates` as one batch; the view validates and animates it when the batch ends.
    ///
    /// - Parameters:
    ///   - updates: Updates the data source and makes the insert, delete, move and reload calls.
    ///   - completion: Called when the animations end, with whether they finished.
    func performBatchUpdates(_ updates: (() -> Void)?, completion: ((Bool) -> Void)?)

    /// Inserts sections, in after coordinates.
    func insertSections(_ sections: [Int])
    /// Deletes sections, in before coordinates.
    func deleteSections(_ sections: [Int])
    /// Reloads sections, in before coordinates.
    func reloadSections(_ sections: [Int])
    /// Moves a section from its before index to its after index.
    func moveSection(_ section: Int, toSection newSection: Int)

    /// Inserts items, in after coordinates.
    func insertItems(at paths: [ElementPath])
    /// Deletes items, in before coordinates.
    func deleteItems(at paths: [ElementPath])
    /// Reloads items, in before coordinates.
    func reloadItems(at paths: [ElementPath])
    /// Moves an item from its before path to its after path.
    func moveItem(at path: ElementPath, to newPath: ElementPath)

    /// Configures the cells of items again in place, keeping each cell: `reconfigureRows(at:)` /
    /// `reconfigureItems(at:)` on iOS 15 and later; before that, the glue configures the visible
    /// cells directly. Items that are not on screen are skipped.
    ///
    /// List sources call it outside any batch, after the batches of an event, with the items'
    /// final paths (`uikit-cell-lifecycle.md`, C4 and C7): for kept rows whose element is a
    /// different object than their cell shows, and for updated rows whose cell type is unchanged.
    ///
    /// - Parameter paths: The items' paths, in the view's current coordinates.
    func reconfigureItems(at paths: [ElementPath])

    /// Configures the headers and footers of `sections` that are on screen again in place, keeping
    /// each view. UIKit has no call for it: the glue hands each such view to the data source again.
    ///
    /// Sectioned list sources call it outside any batch, after the batches of an event, with the
    /// sections' final indices (`uikit-cell-lifecycle.md`, C7): for kept sections whose value is a
    /// different object than their header shows (a refresh with fresh section presenters). The
    /// default does nothing: a view without headers and footers.
    ///
    /// - Parameter sections: The sections, in the view's current coordinates.
    func reconfigureSupplementaryViews(inSections sections: [Int])

    /// Makes `source` answer the view's data-source and delegate questions.
    ///
    /// A list source calls it when it starts driving the view, and again when the app's forwarding
    /// delegate changes, because UIKit and AppKit read which methods a delegate implements only
    /// when it is assigned. `UITableView`, `UICollectionView` and
    /// `NSCollectionView` install an adapter that answers through `source`; RippleTesting's headless
    /// views record the call. The default does nothing: a view that reads its data some other way.
    ///
    /// - Parameter source: The list source that drives the view.
    /// - Returns: An object the source must keep alive while it drives the view (the adapter, which
    ///   the view holds weakly), or `nil`.
    func adoptDataSource<Source: ListDataSource>(_ source: Source) -> AnyObject?
}

extension ListView {
    /// Does nothing: a view without headers and footers.
    ///
    /// - Parameter sections: The sections.
    public func reconfigureSupplementaryViews(inSections sections: [Int]) {}

    /// Does nothing: the view reads its data some other way. Returns `nil`.
    ///
    /// - Parameter source: The list source that drives the view.
    /// - Returns: `nil`.
    public func adoptDataSource<Source: ListDataSource>(_ source: Source) -> AnyObject? { nil }
}

extension ListView {
    /// Makes the calls of one flat change-set, in section `section`.
    ///
    /// - Parameters:
    ///   - changeset: A change-set that UIKit accepts in one batch (a stage of a
    ///     ``StagedChangeset``).
    ///   - section: The section the list occupies.
    public func apply(_ changeset: Changeset, inSection section: Int = 0) {
        if !changeset.deletes.isEmpty {
            deleteItems(at: changeset.deletes.map { ElementPath(item: $0, section: section) })
        }
        if !changeset.inserts.isEmpty {
            insertItems(at: changeset.inserts.map { ElementPath(item: $0, section: section) })
        }
        for move in changeset.moves {
            moveItem(
                at: ElementPath(item: move.source, section: section),
                to: ElementPath(item: move.target, section: section))
        }
        if !changeset.updates.isEmpty {
            reloadItems(at: changeset.updates.map { ElementPath(item: $0.source, section: section) })
        }
    }

    /// The item counts the view shows now, section by section.
    public var displayedItemCounts: [Int] {
        (0..<numberOfSections).map { numberOfItems(inSection: $0) }
    }
}

extension ListView {
    /// Makes the calls of one sectioned change-set.
    ///
    /// Section and item updates become reloads at their **source** positions, as UIKit reads
    /// reloads in before coordinates.
    ///
    /// - Parameter changeset: A change-set that UIKit accepts in one batch (a stage of a
    ///   ``StagedSectionedChangeset``).
    public func apply(_ changeset: SectionedChangeset) {
        let sections = changeset.sections
        if !sections.deletes.isEmpty { deleteSections(sections.deletes) }
        if !sections.inserts.isEmpty { insertSections(sections.inserts) }
        for move in sections.moves { moveSection(move.source, toSection: move.target) }
        if !sections.updates.isEmpty { reloadSections(sections.updates.map(\.source)) }
        if !changeset.itemDeletes.isEmpty { deleteItems(at: changeset.itemDeletes) }
        if !changeset.itemInserts.isEmpty { insertItems(at: changeset.itemInserts) }
        for move in changeset.itemMoves { moveItem(at: move.source, to: move.target) }
        if !changeset.itemUpdates.isEmpty { reloadItems(at: changeset.itemUpdates.map(\.source)) }
    }
}
