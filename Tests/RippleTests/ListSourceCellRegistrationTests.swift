import Ripple
import RippleTestSupport
import RippleTesting
import XCTest

/// A row of a heterogeneous list of countries and regions.
private protocol CountryRow: AnyObject, Sendable {}

/// A country row's presenter.
private final class CountryCellPresenter: CountryRow {
    let name: String
    init(_ name: String) { self.name = name }
}

/// A region row's presenter.
private final class RegionCellPresenter: CountryRow {
    let name: String
    init(_ name: String) { self.name = name }
}

/// A city row's presenter, which no cell is registered for by its own type.
private final class CityCellPresenter: CountryRow {}

/// Cells typed on the concrete presenters, as GenericCellPresenters' users write them.
private final class CountryCell: HeadlessCell<CountryCellPresenter> {}
private final class RegionCell: HeadlessCell<RegionCellPresenter> {}
private final class CapitalCell: HeadlessCell<CountryCellPresenter> {}
private final class IslandCell: HeadlessCell<CountryCellPresenter> {}
/// A cell for any row: the one for rows whose type has no cell of its own.
private final class AnyRowCell: HeadlessCell<any CountryRow> {}

/// Cells registered for presenter types with `register(_:for:)`, whose types the compiler links
/// (see `Tests/CompileFailures/CellRegisteredForAnotherPresenter.swift`), and the report of a cell
/// that cannot show its row's item.
///
/// The diagnostics handler is global; this class installs its own for each test.
@MainActor
final class ListSourceCellRegistrationTests: XCTestCase {
    private let diagnostics = EventRecorder<Diagnostic>()

    /// Installs the handler for the test's length.
    private func recordingDiagnostics(_ body: () async -> Void) async {
        Diagnostics.setHandler(diagnostics.handler)
        await body()
        Diagnostics.setHandler(nil)
    }

    /// Issue 21, bug 2: in a list of `any CountryRow`, a cell typed on `CountryCellPresenter` shows
    /// the country rows (on UIKit, the cast to `TableViewCell<any CountryRow>` failed and the row
    /// stayed blank, with no diagnostic).
    func test_cellsTypedOnConcretePresenters_showTheirRowsInAHeterogeneousList() async {
        await recordingDiagnostics {
            let rows = ObservableCollection<any CountryRow>([
                CountryCellPresenter("France"), RegionCellPresenter("Brittany"), CountryCellPresenter("Spain"),
            ])
            let screen = HeadlessTableScreen(collection: rows)
            screen.register(CountryCell.self, for: CountryCellPresenter.self)
            screen.register(RegionCell.self, for: RegionCellPresenter.self)
            await screen.settle()

            let cells = screen.cells.visibleCells.map(\.cell)
            XCTAssertEqual(
                cells.map { String(describing: type(of: $0)) }, ["CountryCell", "RegionCell", "CountryCell"])
            XCTAssertEqual((cells[0] as? CountryCell)?.item?.name, "France")
            XCTAssertEqual((cells[1] as? RegionCell)?.item?.name, "Brittany")
            XCTAssertEqual((cells[2] as? CountryCell)?.item?.name, "Spain")
            XCTAssertTrue(screen.cells.visibleItems.enumerated().allSatisfy { $1 === rows.snapshot[$0] })
            XCTAssertEqual(diagnostics.events, [])
        }
    }

    /// `register(_:for:where:)`: a row's cell is the first registration for its item's dynamic
    /// type whose condition it meets (conditional ones in the order made, then the unconditional
    /// one), else the first for the source's `Item` type; registering a type again without a
    /// condition replaces its unconditional cell.
    func test_register_conditionsInOrder_thenTheTypesCell_thenTheListsItemType() async {
        await recordingDiagnostics {
            let rows = ObservableCollection<any CountryRow>([
                CountryCellPresenter("France"), CountryCellPresenter("Paris"), CountryCellPresenter("Corsica"),
                CountryCellPresenter("Pitcairn"), CityCellPresenter(), RegionCellPresenter("Alsace"),
            ])
            let screen = HeadlessTableScreen(collection: rows)
            screen.register(RegionCell.self, for: RegionCellPresenter.self)
            screen.register(RegionCell.self, for: RegionCellPresenter.self)  // again: still one unconditional cell
            screen.register(CapitalCell.self, for: CountryCellPresenter.self, where: { $0.name == "Paris" || $0.name == "Pitcairn" })
            screen.register(IslandCell.self, for: CountryCellPresenter.self, where: { $0.name == "Corsica" || $0.name == "Pitcairn" })
            screen.register(CapitalCell.self, for: CountryCellPresenter.self)  // replaced below
            screen.register(CountryCell.self, for: CountryCellPresenter.self)
            screen.register(AnyRowCell.self)
            await screen.settle()

            XCTAssertEqual(
                screen.cells.visibleCells.map { String(describing: type(of: $0.cell)) },
                ["CountryCell", "CapitalCell", "IslandCell", "CapitalCell", "AnyRowCell", "RegionCell"])
            XCTAssertEqual((screen.cells.visibleCells[4].cell as? AnyRowCell)?.item is CityCellPresenter, true)
            XCTAssertEqual(diagnostics.events, [])
        }
    }

    /// A row that no registration covers dequeues the `"Cell"` identifier, and is reported once
    /// per type: on a device, the view has no such cell unless the app registered one itself.
    func test_aRowNoRegistrationCovers_usesTheCellIdentifier_andIsReported() async {
        await recordingDiagnostics {
            let rows = ObservableCollection<any CountryRow>([
                CityCellPresenter(), CountryCellPresenter("Spain"), CityCellPresenter(),
            ])
            let screen = HeadlessTableScreen(collection: rows)
            screen.register(CountryCell.self, for: CountryCellPresenter.self)
            screen.cells.register(HeadlessCell<CityCellPresenter>.self, forCellReuseIdentifier: "Cell")
            await screen.settle()
            XCTAssertEqual(screen.source.cellIdentifier(at: ElementPath(item: 0, section: 0)), "Cell")
            XCTAssertEqual(
                screen.source.cellIdentifier(at: ElementPath(item: 1, section: 0)), String(reflecting: CountryCell.self)
            )
            let reports = diagnostics.events.filter { $0.kind == .cellTypeMismatch }
            XCTAssertEqual(reports.count, 1, "\(diagnostics.events)")
            XCTAssertTrue(reports.first?.message.contains("CityCellPresenter") == true, "\(reports)")
        }
    }

    /// A cell that still cannot show its row's item at run time (registered by identifier for the
    /// wrong rows) is reported, naming the row, the item's type and the cell's type: never a
    /// silent blank row. Once per pair of types.
    func test_aCellThatCannotShowItsRow_isReported() async {
        await recordingDiagnostics {
            let rows = ObservableCollection<any CountryRow>([
                RegionCellPresenter("Brittany"), RegionCellPresenter("Alsace"),
            ])
            let screen = HeadlessTableScreen(collection: rows)
            screen.cells.register(CountryCell.self, forCellReuseIdentifier: "Cell")
            await screen.settle()

            XCTAssertNil((screen.cells.visibleCells[0].cell as? CountryCell)?.item)
            let reports = diagnostics.events.filter { $0.kind == .cellTypeMismatch }
            XCTAssertEqual(reports.count, 1, "\(diagnostics.events)")
            let message = reports.first?.message ?? ""
            XCTAssertTrue(message.contains("row 0 - 0"), message)
            XCTAssertTrue(message.contains("RegionCellPresenter"), message)
            XCTAssertTrue(message.contains("CountryCell"), message)
            XCTAssertEqual(reports.first?.source.hasPrefix("TableViewSource<"), true)
        }
    }
}
