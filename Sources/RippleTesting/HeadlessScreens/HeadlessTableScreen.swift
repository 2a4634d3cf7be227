import Dispatch
import Ripple
import RippleDiff
import XCTest

/// A table screen without UIKit, ready for a test: a ``HeadlessTableView`` that checks every
/// batch, the `TableViewSource` that drives it (and is its data source, as with `UITableView`),
/// and a ``HeadlessCellHost`` that shows cells, scrolls and taps.
///
/// ```swift
/// let screen = HeadlessTableScreen(collection: presenter.books, selectItem: presenter.openBook)
/// screen.cells.register(BookCell.self, forCellReuseIdentifier: "Cell")
/// presenter.loaded(page)          // from any thread
/// screen.settle()                 // the main queue delivers, the cells lay out
/// XCTAssertEqual(screen.tableView.violations, [])
/// XCTAssertEqual(screen.shownItems.map(\.book), presenter.books.map(\.book))
/// ```
@MainActor
public final class HeadlessTableScreen<CellPresenter: Sendable> {
    /// The table view: one value per row, the row's presenter, or `nil` for the loading row.
    public let tableView: HeadlessTableView<CellPresenter?>
    /// The source under test.
    public let source: TableViewSource<CellPresenter>
    /// The cells on screen.
    public let cells: HeadlessCellHost<TableViewSource<CellPresenter>>

    /// Creates the screen; the source subscribes to `collection` at once.
    ///
    /// - Parameters:
    ///   - collection: The rows.
    ///   - selectItem: Executed with the presenter of each selected row.
    ///   - reloadThreshold: The largest change to animate.
    ///   - visibleRowCount: How many rows fit on screen.
    public init(
        collection: ObservableCollection<CellPresenter>, selectItem: CommandWithParameter<CellPresenter>? = nil,
        reloadThreshold: Int? = nil, visibleRowCount: Int = 10
    ) {
        let link = SourceLink<TableViewSource<CellPresenter>>()
        tableView = HeadlessTableView { [link] in
            MainActor.assumeIsolated {
                guard let source = link.source else { return [] }
                let items: [CellPresenter?] = source.renderedItems
                return [source.numberOfItems(inSection: 0) > items.count ? items + [nil] : items]
            }
        }
        source = TableViewSource(
            view: tableView, collection: collection, selectItem: selectItem, reloadThreshold: reloadThreshold)
        link.source = source
        cells = HeadlessCellHost(source: source, visibleRowCount: visibleRowCount)
    }

    /// The presenters the table shows, without the loading row.
    public var shownItems: [CellPresenter] {
        tableView.rows.first?.compactMap { $0 } ?? []
    }

    /// Waits until the main queue has delivered every event queued so far, and the events those
    /// deliveries queued in turn (a pagination load that starts), then lays the cells out if any
    /// cell class is registered.
    ///
    /// - Parameter timeout: How long to wait for the main queue each time, in seconds.
    public func settle(timeout: Double = 30, file: StaticString = #filePath, line: UInt = #line) {
        waitForMainQueue(timeout: timeout, file: file, line: line)
        waitForMainQueue(timeout: timeout, file: file, line: line)
        if cells.hasRegisteredCells { cells.layout() }
    }

    /// Suspends until the main queue has delivered every event queued so far, and the events those
    /// deliveries queued in turn, then lays the cells out if any cell class is registered: the
    /// ``settle(timeout:file:line:)`` of an `async` test, which lets the main queue run meanwhile.
    public func settle() async {
        await waitForMainQueue()
        await waitForMainQueue()
        if cells.hasRegisteredCells { cells.layout() }
    }
}

/// A sectioned collection screen without UIKit: a ``HeadlessCollectionView`` that checks every
/// batch, the `CollectionViewSourceWithSection` that drives it, and a ``HeadlessCellHost``.
@MainActor
public final class HeadlessCollectionScreenWithSection<CellPresenter: Sendable, SectionPresenter: Sendable> {
    /// The collection view: one value per item, the item's presenter.
    public let collectionView: HeadlessCollectionView<CellPresenter>
    /// The source under test.
    public let source: CollectionViewSourceWithSection<CellPresenter, SectionPresenter>
    /// The cells on screen.
    public let cells: HeadlessCellHost<CollectionViewSourceWithSection<CellPresenter, SectionPresenter>>

    /// Creates the screen; the source subscribes to `collection` at once.
    ///
    /// - Parameters:
    ///   - collection: The sections and their items.
    ///   - selectItem: Executed with the presenter of each selected item.
    ///   - reloadThreshold: The largest change to animate.
    ///   - visibleRowCount: How many items fit on screen.
    public init(
        collection: SectionedCollection<CellPresenter, SectionPresenter>,
        selectItem: CommandWithParameter<CellPresenter>? = nil, reloadThreshold: Int? = nil,
        visibleRowCount: Int = 10
    ) {
        let link = SourceLink<CollectionViewSourceWithSection<CellPresenter, SectionPresenter>>()
        collectionView = HeadlessCollectionView { [link] in
            MainActor.assumeIsolated { link.source?.renderedSections.map(\.items) ?? [] }
        }
        source = CollectionViewSourceWithSection(
            view: collectionView, collection: collection, selectItem: selectItem, reloadThreshold: reloadThreshold)
        link.source = source
        cells = HeadlessCellHost(source: source, visibleRowCount: visibleRowCount)
    }

    /// Waits until the main queue has delivered every event queued so far, and the events those
    /// deliveries queued in turn (a pagination load that starts), then lays the cells out if any
    /// cell class is registered.
    ///
    /// - Parameter timeout: How long to wait for the main queue each time, in seconds.
    public func settle(timeout: Double = 30, file: StaticString = #filePath, line: UInt = #line) {
        waitForMainQueue(timeout: timeout, file: file, line: line)
        waitForMainQueue(timeout: timeout, file: file, line: line)
        if cells.hasRegisteredCells { cells.layout() }
    }

    /// Suspends until the main queue has delivered every event queued so far, and the events those
    /// deliveries queued in turn, then lays the cells out if any cell class is registered: the
    /// ``settle(timeout:file:line:)`` of an `async` test, which lets the main queue run meanwhile.
    public func settle() async {
        await waitForMainQueue()
        await waitForMainQueue()
        if cells.hasRegisteredCells { cells.layout() }
    }
}

/// The source a headless view reads, held weakly as a view holds its data source.
@MainActor
private final class SourceLink<Source: AnyObject> {
    weak var source: Source?
}

/// Waits, running the main run loop, until the main queue has run everything queued on it before
/// this call. Call it on the main thread, as XCTest runs tests.
///
/// - Parameters:
///   - timeout: How long to wait, in seconds; a failure is recorded past it.
///   - file: The file to report a failure in.
///   - line: The line to report a failure at.
public func waitForMainQueue(timeout: Double = 30, file: StaticString = #filePath, line: UInt = #line) {
    let flushed = XCTestExpectation(description: "main queue flushed")
    DispatchQueue.main.async { flushed.fulfill() }
    let result = XCTWaiter().wait(for: [flushed], timeout: timeout)
    if result != .completed {
        XCTFail("the main queue did not drain within \(timeout) s: \(result)", file: file, line: line)
    }
}

/// Suspends until the main queue has run everything queued on it before this call: the
/// ``waitForMainQueue(timeout:file:line:)`` of an `async` test, which lets the main queue run
/// meanwhile.
public func waitForMainQueue() async {
    await withCheckedContinuation { (resumed: CheckedContinuation<Void, Never>) in
        DispatchQueue.main.async { resumed.resume() }
    }
}
