import Ripple
import RippleDiff

/// The scrolling part of a list view, without UIKit: it asks a list source for the cells of the
/// rows on screen, dequeues and reuses them as UIKit does, scrolls, and taps.
///
/// Pair it with a headless table or collection view that the same source drives: the view checks
/// every batch, the host shows what a user would see.
///
/// ```swift
/// let host = HeadlessCellHost(source: source, visibleRowCount: 10)
/// host.register(BookCell.self, forCellReuseIdentifier: "Cell")
/// host.layout()
/// host.scroll(toRow: 40)          // drives pagination through willDisplay
/// host.tap(host.visiblePaths[0])  // drives selection
/// ```
///
/// # Layout
/// ``layout()`` shows the rows from ``firstVisibleRow`` (counted across sections) on, up to
/// ``visibleRowCount`` of them. A row whose item is an object already shown in a cell keeps that
/// cell, as a moved row does in UIKit; every other row gets a cell from the reuse pool for its
/// identifier (which calls ``HeadlessCell/prepareForReuse()``) or a new one, configured by the
/// source. Rows that appear get `willDisplay`, rows that leave `didEndDisplaying`.
@MainActor
public final class HeadlessCellHost<Source: ListDataSource> {
    /// The source that answers for the rows.
    public let source: Source

    /// How many rows fit on screen.
    public var visibleRowCount: Int

    /// The first row on screen, counted across sections from the top.
    public private(set) var firstVisibleRow = 0

    /// The rows on screen and their cells, top to bottom.
    public private(set) var visibleCells: [(path: ElementPath, cell: HeadlessCell<Source.Item>)] = []

    private var registry: [String: HeadlessCell<Source.Item>.Type] = [:]
    private var reusePool: [String: [HeadlessCell<Source.Item>]] = [:]
    /// Every cell made so far.
    public private(set) var createdCellCount = 0

    /// Creates a host.
    ///
    /// - Parameters:
    ///   - source: The list source, held strongly, as a test holds its screen.
    ///   - visibleRowCount: How many rows fit on screen.
    public init(source: Source, visibleRowCount: Int) {
        self.source = source
        self.visibleRowCount = visibleRowCount
    }

    /// Registers a cell class for a reuse identifier, as `register(_:forCellReuseIdentifier:)`.
    ///
    /// - Parameters:
    ///   - cellClass: The class to make cells of.
    ///   - identifier: The reuse identifier.
    public func register(_ cellClass: HeadlessCell<Source.Item>.Type, forCellReuseIdentifier identifier: String) {
        registry[identifier] = cellClass
    }

    /// Whether any cell class is registered.
    public var hasRegisteredCells: Bool { !registry.isEmpty }

    /// The paths on screen, top to bottom.
    public var visiblePaths: [ElementPath] { visibleCells.map(\.path) }

    /// The items on screen, top to bottom; `nil` for a loading row.
    public var visibleItems: [Source.Item?] { visibleCells.map(\.cell.item) }

    /// Scrolls so that `row`, counted across sections, is the first on screen (clamped to the
    /// content), and lays out.
    ///
    /// - Parameter row: The row to show first.
    public func scroll(toRow row: Int) {
        firstVisibleRow = max(0, row)
        layout()
    }

    /// Scrolls to the end of the content, and lays out.
    public func scrollToEnd() {
        scroll(toRow: totalRowCount - visibleRowCount)
    }

    /// Taps a row: highlight, unhighlight, then select, as UIKit sends them.
    ///
    /// - Parameter path: A row on screen.
    /// - Precondition: `path` is on screen.
    public func tap(_ path: ElementPath) {
        guard visiblePaths.contains(path) else {
            preconditionFailure("HeadlessCellHost.tap(_:): row \(path) is not on screen; rows on screen: \(visiblePaths)")
        }
        source.handle(.highlighted, at: path)
        source.handle(.unhighlighted, at: path)
        source.handle(.selected, at: path)
    }

    /// Shows the rows on screen with up-to-date cells; call it after the view changed, as UIKit
    /// lays out after a batch or a reload.
    public func layout() {
        let total = totalRowCount
        firstVisibleRow = max(0, min(firstVisibleRow, total - visibleRowCount))
        let paths = self.paths(from: firstVisibleRow, count: min(visibleRowCount, total))
        // Cells whose object item is still on screen keep showing it, wherever it went.
        var keptByItem: [ObjectIdentifier: HeadlessCell<Source.Item>] = [:]
        for entry in visibleCells {
            if let key = Self.objectKey(entry.cell.item) { keptByItem[key] = entry.cell }
        }
        var next: [(path: ElementPath, cell: HeadlessCell<Source.Item>)] = []
        var reused: Set<ObjectIdentifier> = []
        var pending: [(index: Int, identifier: String)] = []
        for path in paths {
            let identifier = source.cellIdentifier(at: path)
            if let key = itemKey(at: path), let cell = keptByItem[key], cell.reuseIdentifier == identifier {
                keptByItem[key] = nil
                reused.insert(ObjectIdentifier(cell))
                next.append((path, cell))
            } else {
                pending.append((next.count, identifier))
                next.append((path, placeholderCell))
            }
        }
        // Cells that left the screen go to the reuse pool, then the new rows take cells.
        let leaving = visibleCells.filter { !reused.contains(ObjectIdentifier($0.cell)) }
        for entry in leaving {
            source.handle(.didEndDisplaying, at: entry.path)
            reusePool[entry.cell.reuseIdentifier, default: []].append(entry.cell)
        }
        for (index, identifier) in pending {
            let cell = dequeue(identifier)
            source.configure(cell, at: next[index].path)
            next[index].cell = cell
        }
        visibleCells = next
        for (index, _) in pending { source.handle(.willDisplay, at: next[index].path) }
    }

    // MARK: - Internals

    private lazy var placeholderCell = HeadlessCell<Source.Item>(reuseIdentifier: "")

    private var totalRowCount: Int {
        (0..<source.numberOfSections).reduce(0) { $0 + source.numberOfItems(inSection: $1) }
    }

    /// `count` paths from the flat row `first` on.
    private func paths(from first: Int, count: Int) -> [ElementPath] {
        var result: [ElementPath] = []
        var skipped = 0
        for section in 0..<source.numberOfSections {
            let rows = source.numberOfItems(inSection: section)
            for item in 0..<rows where skipped + item >= first && result.count < count {
                result.append(ElementPath(item: item, section: section))
            }
            skipped += rows
        }
        return result
    }

    private func dequeue(_ identifier: String) -> HeadlessCell<Source.Item> {
        if let cell = reusePool[identifier]?.popLast() {
            cell.prepareForReuse()
            return cell
        }
        guard let cellClass = registry[identifier] else {
            preconditionFailure(
                "HeadlessCellHost: unable to dequeue a cell with identifier \(identifier) - "
                    + "must register a class for the identifier; registered: \(registry.keys.sorted())")
        }
        createdCellCount += 1
        return cellClass.init(reuseIdentifier: identifier)
    }

    /// The identity of the object item a cell would show at `path`, if it is an object.
    private func itemKey(at path: ElementPath) -> ObjectIdentifier? {
        let probe = ProbeCell<Source.Item>()
        source.configure(probe, at: path)
        return Self.objectKey(probe.item)
    }

    private static func objectKey(_ item: Source.Item?) -> ObjectIdentifier? {
        guard let item, Swift.type(of: item as Any) is AnyClass else { return nil }
        return ObjectIdentifier(item as AnyObject)
    }
}

/// A cell that only records the item a source gives it, to learn a row's item without a real
/// cell. Its item is never a presenter's view: it adopts no view protocol.
@MainActor
private final class ProbeCell<Item>: PresentingCell {
    var item: Item?
}
