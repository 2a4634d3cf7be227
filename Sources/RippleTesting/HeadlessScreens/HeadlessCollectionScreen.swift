import Ripple
import RippleDiff

/// A collection screen without UIKit: a ``HeadlessCollectionView`` that checks every batch and
/// keeps the selection, the `CollectionViewSource` that drives it, and a ``HeadlessCellHost`` that
/// shows cells, scrolls and taps.
///
/// <!-- swift
/// final class PhotoPresenter: Sendable {}
/// final class GalleryPresenter: Sendable {
///     let photos = ObservableCollection([PhotoPresenter()])
/// }
/// let presenter = GalleryPresenter()
/// final class PhotoCell: HeadlessCell<PhotoPresenter> {}
/// -->
/// ```swift
/// @MainActor
/// final class GalleryScreenTests: XCTestCase {
///     func testPhotosShow() async {
///         let screen = HeadlessCollectionScreen(collection: presenter.photos)
///         screen.register(PhotoCell.self)
///         await screen.settle()
///         XCTAssertEqual(screen.collectionView.violations, [])
///     }
/// }
/// ```
///
/// See ``HeadlessListScreen`` for what settling waits for.
@MainActor
public final class HeadlessCollectionScreen<CellPresenter: Sendable>:
    HeadlessListScreen<CollectionViewSource<CellPresenter>>
{
    /// The collection view: one value per item, the item's presenter, or `nil` for the loading row.
    public let collectionView: HeadlessCollectionView<CellPresenter?>

    /// Creates the screen; the source subscribes to `collection` at once.
    ///
    /// - Parameters:
    ///   - collection: The items.
    ///   - selectItem: Executed with the presenter of each selected item.
    ///   - reloadThreshold: The largest change to animate.
    ///   - visibleRowCount: How many items fit on screen.
    public init(
        collection: some LiveList<CellPresenter>, selectItem: CommandWithParameter<CellPresenter>? = nil,
        reloadThreshold: Int? = nil, visibleRowCount: Int = 10
    ) {
        let link = _SourceLink<CellPresenter>()
        let collectionView = HeadlessCollectionView(reading: link.rows)
        let source = CollectionViewSource(
            view: collectionView, collection: collection, selectItem: selectItem, reloadThreshold: reloadThreshold)
        self.collectionView = collectionView
        super.init(
            source: source, link: link, view: collectionView, visibleRowCount: visibleRowCount,
            collectionVersion: { collection.version })
    }

    /// The presenters the collection view shows, without the loading row.
    public var shownItems: [CellPresenter] {
        collectionView.items.first?.compactMap { $0 } ?? []
    }
}

/// A sectioned collection screen without UIKit: a ``HeadlessCollectionView`` that checks every
/// batch and keeps the selection, the `CollectionViewSourceWithSection` that drives it, and a
/// ``HeadlessCellHost`` that shows cells, section headers and footers, scrolls and taps.
///
/// See ``HeadlessListScreen`` for what settling waits for.
@MainActor
public final class HeadlessCollectionScreenWithSection<SectionPresenter: Sendable, CellPresenter: Sendable>:
    HeadlessListScreen<CollectionViewSourceWithSection<SectionPresenter, CellPresenter>>
{
    /// The collection view: one value per item, the item's presenter, or `nil` for the loading row
    /// at the end of the last section.
    public let collectionView: HeadlessCollectionView<CellPresenter?>

    /// Creates the screen; the source subscribes to `collection` at once.
    ///
    /// - Parameters:
    ///   - collection: The sections and their items.
    ///   - selectItem: Executed with the presenter of each selected item.
    ///   - reloadThreshold: The largest change to animate.
    ///   - visibleRowCount: How many items fit on screen.
    public init(
        collection: SectionedCollection<SectionPresenter, CellPresenter>,
        selectItem: CommandWithParameter<CellPresenter>? = nil, reloadThreshold: Int? = nil,
        visibleRowCount: Int = 10
    ) {
        let link = _SourceLink<CellPresenter>()
        let collectionView = HeadlessCollectionView(reading: link.rows)
        let source = CollectionViewSourceWithSection(
            view: collectionView, collection: collection, selectItem: selectItem, reloadThreshold: reloadThreshold)
        self.collectionView = collectionView
        super.init(
            source: source, link: link, view: collectionView, visibleRowCount: visibleRowCount,
            collectionVersion: { collection.version })
    }

    /// The presenters the collection view shows, section by section, without the loading row.
    public var shownItems: [[CellPresenter]] {
        collectionView.items.map { $0.compactMap { $0 } }
    }

    /// The section values (header presenters) of the sections the collection view shows.
    public var shownSections: [SectionPresenter] {
        source.renderedSections.map(\.section)
    }
}
