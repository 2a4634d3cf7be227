import Dispatch
import Ripple
import RippleDiff
import RippleTestSupport
import RippleTesting
import XCTest

/// What the rows' presenters did, in order.
@MainActor
private final class HookLog {
    var entries: [String] = []
    var isAllowed = true
    func take() -> [String] {
        defer { entries.removeAll() }
        return entries
    }
}

/// A row of a heterogeneous list; the subclasses adopt the cell-presenter hooks.
@MainActor
private class Row: CustomStringConvertible {
    let id: Int
    let log: HookLog
    init(_ id: Int, log: HookLog) {
        self.id = id
        self.log = log
    }
    nonisolated var description: String { "\(type(of: self))(\(id))" }
}

/// A row with its own size: as wide as the list, a tenth of its height.
private final class SizedRow: Row, SizedCellPresenter {
    func cellSize(in bounds: LayoutSize) -> LayoutSize { LayoutSize(width: bounds.width, height: bounds.height / 10) }
}

/// A row that hears its selection.
private final class SelectableRow: Row, SelectableCellPresenter {
    func didSelectCell() { log.entries.append("didSelectCell \(id)") }
    func didDeselectCell() { log.entries.append("didDeselectCell \(id)") }
}

/// A row that only hears its selection, not its deselection.
private final class SelectOnlyRow: Row, SelectableCellPresenter {
    func didSelectCell() { log.entries.append("didSelectCell \(id)") }
}

/// A row with a destructive trailing action.
private final class SwipeableRow: Row, SwipeableCellPresenter {
    func swipeActions(on edge: SwipeEdge) -> [SwipeAction] {
        guard edge == .trailing else { return [] }
        let (id, log) = (self.id, self.log)
        return [
            SwipeAction(title: "Delete", style: .destructive) {
                log.entries.append("delete \(id)")
                return true
            }
        ]
    }
}

/// The cell-presenter hooks: sizes, selection and swipe actions come from the presenters that adopt
/// them, on flat and sectioned sources, and each presenter type can have its own cell identifier;
/// the loading row and late paths have none.
///
/// `@MainActor`, with `async` methods: the main queue turns while a test awaits.
@MainActor
final class ListSourceCellHooksTests: XCTestCase {
    private let bounds = LayoutSize(width: 320, height: 600)

    /// Lets the main queue deliver what is queued so far.
    private func settle() async {
        let drained = XCTestExpectation(description: "main queue drained")
        DispatchQueue.main.async { drained.fulfill() }
        await fulfillment(of: [drained], timeout: 10)
    }

    private func path(_ item: Int, _ section: Int = 0) -> ElementPath { ElementPath(item: item, section: section) }

    func test_cellSize_comesFromPresentersThatAdoptIt_andTheLoadingRowHasNone() async {
        let log = HookLog()
        let rows = ObservableCollection<Row>([SizedRow(1, log: log), Row(2, log: log)])
        let view = HeadlessTableView<Int> { [[]] }
        let source = TableViewSource(view: view, collection: rows)
        source.paginate(
            with: CommandWithResult<Void, PageLoad>(
                delegate: commandAnchor, queue: TestScheduler(), work: { _, _, _ in }), threshold: 10)
        await settle()
        source.handle(.willDisplay, at: path(0))  // starts a load that never ends: the loading row
        await settle()
        XCTAssertTrue(source.isLoadingRow(path(2)))

        XCTAssertEqual(source.cellSize(at: path(0), in: bounds), LayoutSize(width: 320, height: 60))
        XCTAssertNil(source.cellSize(at: path(1), in: bounds), "a presenter without a size: the view's own")
        XCTAssertNil(source.cellSize(at: path(2), in: bounds), "the loading row")
        XCTAssertNil(source.cellSize(at: path(9), in: bounds), "a late path")
        XCTAssertEqual(source.swipeActions(.trailing, at: path(2)).count, 0, "the loading row")
    }

    func test_selectionAndDeselection_reachThePresenter_beforeOnItemEventAndTheCommand() async {
        let log = HookLog()
        let rows = ObservableCollection<Row>([SelectableRow(1, log: log), Row(2, log: log), SelectOnlyRow(3, log: log)])
        let view = HeadlessTableView<Int> { [[]] }
        let source = TableViewSource(view: view, collection: rows)
        source.onItemEvent = { event, row, _ in log.entries.append("\(event) \(row.id)") }
        source.selectItem = CommandWithParameter(
            delegate: commandAnchor, perform: { _, row in log.entries.append("selectItem \(row.id)") })
        await settle()

        source.handle(.highlighted, at: path(0))
        source.handle(.selected, at: path(0))
        source.handle(.deselected, at: path(0))
        XCTAssertEqual(
            log.take(),
            ["highlighted 1", "didSelectCell 1", "selected 1", "selectItem 1", "didDeselectCell 1", "deselected 1"])
        source.handle(.selected, at: path(1))
        XCTAssertEqual(log.take(), ["selected 2", "selectItem 2"], "a presenter without the hooks")
        source.handle(.selected, at: path(2))
        source.handle(.deselected, at: path(2))
        XCTAssertEqual(log.take(), ["didSelectCell 3", "selected 3", "selectItem 3", "deselected 3"])
        source.handle(.selected, at: path(7))
        XCTAssertEqual(log.take(), [], "a late path reaches nobody")
    }

    func test_swipeActions_comeFromThePresenter_andPerformOnTheMainActor() async {
        let log = HookLog()
        let rows = ObservableCollection<Row>([SwipeableRow(1, log: log), Row(2, log: log)])
        let view = HeadlessTableView<Int> { [[]] }
        let source = TableViewSource(view: view, collection: rows)
        await settle()

        let trailing = source.swipeActions(.trailing, at: path(0))
        XCTAssertEqual(trailing.map(\.title), ["Delete"])
        XCTAssertEqual(trailing.map(\.style), [.destructive])
        XCTAssertTrue(trailing[0].perform())
        XCTAssertEqual(log.take(), ["delete 1"])
        XCTAssertEqual(source.swipeActions(.leading, at: path(0)).count, 0)
        XCTAssertEqual(source.swipeActions(.trailing, at: path(1)).count, 0, "a presenter without actions")
    }

    func test_aSwipeActionOfACommand_executesIt_andIsPerformedWhenARunStarts() async {
        let log = HookLog()
        let archive = Command(
            delegate: commandAnchor, perform: { _ in log.entries.append("archived") },
            canExecute: { _ in log.isAllowed })
        let action = SwipeAction(title: "Archive", command: archive)
        XCTAssertEqual(action.style, .normal)
        XCTAssertTrue(action.perform())
        log.isAllowed = false
        XCTAssertFalse(action.perform(), "the command cannot execute")
        XCTAssertEqual(log.take(), ["archived"])
    }

    // MARK: - Cell identifiers per presenter type

    func test_cellIdentifiers_perPresenterType_theRestFromTheItemType_andTheLoadingRow() async {
        let log = HookLog()
        let rows = ObservableCollection<Row>([SizedRow(1, log: log), Row(2, log: log), SelectableRow(3, log: log)])
        let view = HeadlessTableView<Int> { [[]] }
        let source = TableViewSource(view: view, collection: rows)
        source.route(itemsOf: SizedRow.self, where: nil, toCellsWith: "Sized")
        source.route(itemsOf: SelectableRow.self, where: nil, toCellsWith: "Selectable")
        source.route(itemsOf: Row.self, where: nil, toCellsWith: "Plain")
        source.paginate(
            with: CommandWithResult<Void, PageLoad>(
                delegate: commandAnchor, queue: TestScheduler(), work: { _, _, _ in }), threshold: 10)
        await settle()
        source.handle(.willDisplay, at: path(0))
        await settle()
        XCTAssertEqual(
            (0..<source.numberOfItems(inSection: 0)).map { source.cellIdentifier(at: path($0)) },
            ["Sized", "Plain", "Selectable", "Loading"])

        // A host dequeues each row's cell with its identifier.
        let host = HeadlessCellHost(source: source, visibleRowCount: 10)
        for identifier in ["Sized", "Plain", "Selectable", "Loading"] {
            host.register(HeadlessCell<Row>.self, forCellReuseIdentifier: identifier)
        }
        host.layout()
        XCTAssertEqual(host.visibleCells.map(\.cell.reuseIdentifier), ["Sized", "Plain", "Selectable", "Loading"])
        XCTAssertEqual(host.visibleItems.map { $0?.id }, [1, 2, 3, nil])
    }

    func test_sectioned_cellIdentifiersPerPresenterType() async {
        let log = HookLog()
        let sections = SectionedCollection<String, Row>([
            SectionData("A", items: [Row(1, log: log), SizedRow(2, log: log)]),
            SectionData("B", items: [SizedRow(3, log: log)]),
        ])
        let view = HeadlessCollectionView<Int> { [] }
        let source = CollectionViewSourceWithSection(view: view, collection: sections)
        source.route(itemsOf: SizedRow.self, where: nil, toCellsWith: "Sized")
        source.route(itemsOf: Row.self, where: nil, toCellsWith: "Plain")
        await settle()
        XCTAssertEqual(
            [path(0, 0), path(1, 0), path(0, 1)].map { source.cellIdentifier(at: $0) }, ["Plain", "Sized", "Sized"])
    }

    func test_sectioned_sizesSelectionAndSwipeActions() async {
        let log = HookLog()
        let sections = SectionedCollection<String, Row>([
            SectionData("A", items: [Row(1, log: log)]),
            SectionData("B", items: [SizedRow(2, log: log), SelectableRow(3, log: log), SwipeableRow(4, log: log)]),
        ])
        let view = HeadlessCollectionView<Int> { [] }
        let source = CollectionViewSourceWithSection(view: view, collection: sections)
        await settle()

        XCTAssertNil(source.cellSize(at: path(0, 0), in: bounds))
        XCTAssertEqual(source.cellSize(at: path(0, 1), in: bounds), LayoutSize(width: 320, height: 60))
        source.handle(.selected, at: path(1, 1))
        XCTAssertEqual(log.take(), ["didSelectCell 3"])
        XCTAssertEqual(source.swipeActions(.trailing, at: path(2, 1)).map(\.title), ["Delete"])
        XCTAssertNil(source.cellSize(at: path(0, 5), in: bounds), "a late path")
    }
}
