#if canImport(UIKit) && !os(watchOS)
import RippleDiff
import UIKit

// Thin glue (see UIKit+ListSources.swift): `UICollectionView` as a `ListView`, and the adapter
// that answers its data-source and delegate calls.

/// `UICollectionView` is a ``ListView``.
extension UICollectionView: ListView {
    /// Whether the collection view is in a window.
    public var isInWindow: Bool { window != nil }
    /// Inserts sections, in after coordinates.
    public func insertSections(_ sections: [Int]) { insertSections(IndexSet(sections)) }
    /// Deletes sections, in before coordinates.
    public func deleteSections(_ sections: [Int]) { deleteSections(IndexSet(sections)) }
    /// Reloads sections, in before coordinates.
    public func reloadSections(_ sections: [Int]) { reloadSections(IndexSet(sections)) }
    /// Inserts items, in after coordinates.
    public func insertItems(at paths: [ElementPath]) { insertItems(at: paths.map(IndexPath.init)) }
    /// Deletes items, in before coordinates.
    public func deleteItems(at paths: [ElementPath]) { deleteItems(at: paths.map(IndexPath.init)) }
    /// Reloads items, in before coordinates.
    public func reloadItems(at paths: [ElementPath]) { reloadItems(at: paths.map(IndexPath.init)) }
    /// Moves an item from its before path to its after path.
    public func moveItem(at path: ElementPath, to newPath: ElementPath) {
        moveItem(at: IndexPath(path), to: IndexPath(newPath))
    }
    /// Configures items again in place: `reconfigureItems(at:)` on iOS 15 and later; before, the
    /// visible cells are configured again directly (items off screen have no cell).
    public func reconfigureItems(at paths: [ElementPath]) {
        if #available(iOS 15, tvOS 15, macCatalyst 15, *) {
            reconfigureItems(at: paths.map(IndexPath.init))
        } else {
            (dataSource as? ListViewAdapter)?.configureVisibleCells(at: paths) { cellForItem(at: IndexPath($0)) }
        }
    }
    /// Configures the headers and footers on screen of `sections` again in place, through the
    /// source (UIKit has no call for it).
    public func reconfigureSupplementaryViews(inSections sections: [Int]) {
        guard let adapter = dataSource as? ListViewAdapter else { return }
        let wanted = Set(sections)
        for kind in [UICollectionView.elementKindSectionHeader, UICollectionView.elementKindSectionFooter] {
            for path in indexPathsForVisibleSupplementaryElements(ofKind: kind) where wanted.contains(path.section) {
                adapter.configureVisibleSupplementaryView(
                    supplementaryView(forElementKind: kind, at: path), inSection: path.section)
            }
        }
    }
    /// Makes `source` the collection view's data source and delegate, through an adapter.
    ///
    /// - Parameter source: The list source that drives the collection view.
    /// - Returns: The adapter, which the source keeps alive.
    public func adoptDataSource<Source: ListDataSource>(_ source: Source) -> AnyObject? {
        let adapter = CollectionViewAdapter(source: source, appDelegate: source.delegate)
        dataSource = adapter
        delegate = adapter
        return adapter
    }
}

/// Answers a collection view's data-source and delegate calls for a Ripple list source, and
/// forwards the rest to the app's delegate (see `ListSourceBase.delegate` for the rule).
final class CollectionViewAdapter: ListViewAdapter {}

@MainActor
extension CollectionViewAdapter: UICollectionViewDataSource, UICollectionViewDelegateFlowLayout {
    private var app: UICollectionViewDelegateFlowLayout? { appDelegate as? UICollectionViewDelegateFlowLayout }

    func numberOfSections(in collectionView: UICollectionView) -> Int { source?.numberOfSections ?? 0 }

    func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int {
        source?.numberOfItems(inSection: section) ?? 0
    }

    func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell
    {
        guard let source else { return UICollectionViewCell() }
        return Self.cell(of: source, in: collectionView, at: indexPath)
    }

    private static func cell<Source: ListDataSource>(
        of source: Source, in collectionView: UICollectionView, at indexPath: IndexPath
    ) -> UICollectionViewCell {
        let path = ElementPath(indexPath)
        let cell = collectionView.dequeueReusableCell(
            withReuseIdentifier: source.cellIdentifier(at: path), for: indexPath)
        source.configure(cell, at: path)
        return cell
    }

    func collectionView(
        _ collectionView: UICollectionView, viewForSupplementaryElementOfKind kind: String, at indexPath: IndexPath
    ) -> UICollectionReusableView {
        if let view = (appDelegate as? UICollectionViewDataSource)?.collectionView?(
            collectionView, viewForSupplementaryElementOfKind: kind, at: indexPath)
        {
            return view
        }
        guard let source else { return UICollectionReusableView() }
        return Self.supplementaryView(kind, of: source, in: collectionView, at: indexPath)
    }

    private static func supplementaryView<Source: ListDataSource>(
        _ kind: String, of source: Source, in collectionView: UICollectionView, at indexPath: IndexPath
    ) -> UICollectionReusableView {
        let supplementaryKind: SupplementaryKind = kind == UICollectionView.elementKindSectionFooter ? .footer : .header
        guard let identifier = source.supplementaryIdentifier(supplementaryKind, inSection: indexPath.section)
        else { return UICollectionReusableView() }
        let view = collectionView.dequeueReusableSupplementaryView(
            ofKind: kind, withReuseIdentifier: identifier, for: indexPath)
        source.configureSupplementary(view, inSection: indexPath.section)
        return view
    }

    func collectionView(_ collectionView: UICollectionView, canMoveItemAt indexPath: IndexPath) -> Bool {
        if let answer = (appDelegate as? UICollectionViewDataSource)?.collectionView?(
            collectionView, canMoveItemAt: indexPath)
        {
            return answer
        }
        return source?.canMoveItem(at: ElementPath(indexPath)) ?? false
    }

    func collectionView(
        _ collectionView: UICollectionView, moveItemAt sourceIndexPath: IndexPath, to destinationIndexPath: IndexPath
    ) {
        source?.moveItem(from: ElementPath(sourceIndexPath), to: ElementPath(destinationIndexPath))
        (appDelegate as? UICollectionViewDataSource)?.collectionView?(
            collectionView, moveItemAt: sourceIndexPath, to: destinationIndexPath)
    }

    @available(iOS 15, tvOS 15, macCatalyst 15, *)
    func collectionView(
        _ collectionView: UICollectionView,
        targetIndexPathForMoveOfItemFromOriginalIndexPath originalIndexPath: IndexPath,
        atCurrentIndexPath currentIndexPath: IndexPath, toProposedIndexPath proposedIndexPath: IndexPath
    ) -> IndexPath {
        if let answer = app?.collectionView?(
            collectionView, targetIndexPathForMoveOfItemFromOriginalIndexPath: originalIndexPath,
            atCurrentIndexPath: currentIndexPath, toProposedIndexPath: proposedIndexPath)
        {
            return answer
        }
        guard let source else { return proposedIndexPath }
        return IndexPath(
            source.targetPath(
                forMovingItemFrom: ElementPath(originalIndexPath), proposed: ElementPath(proposedIndexPath)))
    }

    func collectionView(
        _ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
        sizeForItemAt indexPath: IndexPath
    ) -> CGSize {
        if let size = app?.collectionView?(collectionView, layout: collectionViewLayout, sizeForItemAt: indexPath) {
            return size
        }
        if let size = source?.cellSize(at: ElementPath(indexPath), in: LayoutSize(collectionView.bounds.size)) {
            return CGSize(size)
        }
        return (collectionViewLayout as? UICollectionViewFlowLayout)?.itemSize ?? CGSize(width: 50, height: 50)
    }

    func collectionView(_ collectionView: UICollectionView, didSelectItemAt indexPath: IndexPath) {
        source?.handle(.selected, at: ElementPath(indexPath))
        app?.collectionView?(collectionView, didSelectItemAt: indexPath)
    }

    func collectionView(_ collectionView: UICollectionView, didDeselectItemAt indexPath: IndexPath) {
        source?.handle(.deselected, at: ElementPath(indexPath))
        app?.collectionView?(collectionView, didDeselectItemAt: indexPath)
    }

    func collectionView(_ collectionView: UICollectionView, didHighlightItemAt indexPath: IndexPath) {
        source?.handle(.highlighted, at: ElementPath(indexPath))
        app?.collectionView?(collectionView, didHighlightItemAt: indexPath)
    }

    func collectionView(_ collectionView: UICollectionView, didUnhighlightItemAt indexPath: IndexPath) {
        source?.handle(.unhighlighted, at: ElementPath(indexPath))
        app?.collectionView?(collectionView, didUnhighlightItemAt: indexPath)
    }

    func collectionView(
        _ collectionView: UICollectionView, willDisplay cell: UICollectionViewCell, forItemAt indexPath: IndexPath
    ) {
        source?.handle(.willDisplay, at: ElementPath(indexPath))
        app?.collectionView?(collectionView, willDisplay: cell, forItemAt: indexPath)
    }

    func collectionView(
        _ collectionView: UICollectionView, didEndDisplaying cell: UICollectionViewCell, forItemAt indexPath: IndexPath
    ) {
        source?.handle(.didEndDisplaying, at: ElementPath(indexPath))
        app?.collectionView?(collectionView, didEndDisplaying: cell, forItemAt: indexPath)
    }
}
#endif
