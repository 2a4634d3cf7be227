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

/// Cells typed on the concrete presenters, as GenericCellPresenters' users write them.
private final class CountryCell: HeadlessCell<CountryCellPresenter> {}
private final class RegionCell: HeadlessCell<RegionCellPresenter> {}

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
