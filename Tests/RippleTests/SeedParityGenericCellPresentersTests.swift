import Ripple
import RippleTesting
import XCTest

// GenericCellPresenters' README screen, rebuilt with Ripple on a headless table, as an app's own
// tests would write it: one presenter per cell, for a heterogeneous list of countries, each
// presenter hearing its cell's selection and deselection and sizing its cell.

// MARK: - View models

private struct CountryViewModel: Sendable, Equatable {
    var code: String
    var name: String
}

// MARK: - Cell presenters

/// A row of the countries list: a country, or a title above a group of them.
@MainActor private protocol CountriesRow: AnyObject, Sendable {
    var key: String { get }
}

@MainActor private protocol CountryCellView: Viewable {
    func configure(name: String, checked: Bool)
}

@MainActor private protocol TitleCellView: Viewable {
    func configure(title: String)
}

/// GenericCellPresenters' `GenericCellPresenter<CountryCell>`: configures its cell, hears its
/// selection, and sizes it.
private final class CountryCellPresenter: Presenter<any CountryCellView>, CountriesRow, SizedCellPresenter,
    SelectableCellPresenter
{
    let viewModel: CountryViewModel
    private(set) var isChecked = false
    private(set) var log: [String] = []

    init(viewModel: CountryViewModel) {
        self.viewModel = viewModel
        super.init()
    }

    var key: String { viewModel.code }

    override func injectView(_ view: any CountryCellView) {
        super.injectView(view)
        view.configure(name: viewModel.name, checked: isChecked)
    }

    func didSelectCell() {
        log.append("didSelectCell")
        isChecked = true
        view?.configure(name: viewModel.name, checked: true)
    }

    func didDeselectCell() {
        log.append("didDeselectCell")
        isChecked = false
        view?.configure(name: viewModel.name, checked: false)
    }

    func cellSize(in bounds: LayoutSize) -> LayoutSize {
        LayoutSize(width: bounds.width, height: bounds.width > 600 ? 72 : 56)
    }
}

/// A title row: sized, never selected.
private final class TitleCellPresenter: Presenter<any TitleCellView>, CountriesRow, SizedCellPresenter {
    let title: String
    init(title: String) {
        self.title = title
        super.init()
    }

    var key: String { "title \(title)" }

    override func injectView(_ view: any TitleCellView) {
        super.injectView(view)
        view.configure(title: title)
    }

    func cellSize(in bounds: LayoutSize) -> LayoutSize { LayoutSize(width: bounds.width, height: 32) }
}

// MARK: - The content manager

/// GenericCellPresenters' `CountriesContentManager`: turns view models into cell presenters.
/// Presenters of countries still shown are kept, so their cells and their selection stay.
private final class CountriesPresenter: Presenter<any Viewable> {
    let rows = ObservableCollection<any CountriesRow>()

    func updateData(_ europe: [CountryViewModel], _ americas: [CountryViewModel]) {
        var current: [String: any CountriesRow] = [:]
        for row in rows.snapshot { current[row.key] = row }
        func country(_ viewModel: CountryViewModel) -> any CountriesRow {
            if let kept = current[viewModel.code] as? CountryCellPresenter, kept.viewModel == viewModel { return kept }
            return CountryCellPresenter(viewModel: viewModel)
        }
        let next: [any CountriesRow] =
            [current["title Europe"] ?? TitleCellPresenter(title: "Europe")] + europe.map(country)
            + [current["title Americas"] ?? TitleCellPresenter(title: "Americas")] + americas.map(country)
        rows.replace(with: next, identity: .object)
    }
}

// MARK: - Cells

private final class CountryCell: HeadlessCell<CountryCellPresenter>, CountryCellView {
    private(set) var text = ""
    func configure(name: String, checked: Bool) { text = checked ? "✓ \(name)" : name }
}

private final class TitleCell: HeadlessCell<TitleCellPresenter>, TitleCellView {
    private(set) var text = ""
    func configure(title: String) { text = title.uppercased() }
}

// MARK: - Tests

/// GenericCellPresenters' README screen. `@MainActor`, with `async` tests.
@MainActor
final class SeedParityGenericCellPresentersTests: XCTestCase {
    private let austria = CountryViewModel(code: "AT", name: "Austria")
    private let belgium = CountryViewModel(code: "BE", name: "Belgium")
    private let brazil = CountryViewModel(code: "BR", name: "Brazil")
    private let chile = CountryViewModel(code: "CL", name: "Chile")

    /// The screen: `registerCell(on:)` per presenter type becomes `register(_:)`, typed on the presenter.
    private func countriesScreen() -> (CountriesPresenter, HeadlessTableScreen<any CountriesRow>) {
        let presenter = CountriesPresenter()
        let screen = HeadlessTableScreen(collection: presenter.rows, visibleRowCount: 8)
        screen.register(CountryCell.self, for: CountryCellPresenter.self)
        screen.register(TitleCell.self, for: TitleCellPresenter.self)
        return (presenter, screen)
    }

    /// What the cells on screen show, top to bottom.
    private func shown(_ screen: HeadlessTableScreen<any CountriesRow>) -> [String] {
        screen.cells.visibleCells.map { ($0.cell as? CountryCell)?.text ?? ($0.cell as? TitleCell)?.text ?? "?" }
    }

    private func country(_ screen: HeadlessTableScreen<any CountriesRow>, _ code: String) -> CountryCellPresenter? {
        screen.shownItems.lazy.compactMap { $0 as? CountryCellPresenter }.first { $0.viewModel.code == code }
    }

    /// One presenter per cell, with select and deselect: a tap checks the country, a tap on
    /// another one unchecks the first (single selection), and the cells show it.
    func test_onePresenterPerCell_hearsSelectAndDeselect() async {
        let (presenter, screen) = countriesScreen()
        presenter.updateData([austria, belgium], [brazil, chile])
        await screen.settle()
        XCTAssertEqual(shown(screen), ["EUROPE", "Austria", "Belgium", "AMERICAS", "Brazil", "Chile"])

        screen.cells.tap(screen.cells.visiblePaths[1])
        screen.cells.tap(screen.cells.visiblePaths[4])
        XCTAssertEqual(shown(screen), ["EUROPE", "Austria", "Belgium", "AMERICAS", "✓ Brazil", "Chile"])
        XCTAssertEqual(country(screen, "AT")?.log, ["didSelectCell", "didDeselectCell"])
        XCTAssertEqual(country(screen, "BR")?.log, ["didSelectCell"])
        XCTAssertEqual(screen.tableView.selectedPaths, [screen.cells.visiblePaths[4]])

        screen.cells.deselect(screen.cells.visiblePaths[4])
        XCTAssertEqual(shown(screen), ["EUROPE", "Austria", "Belgium", "AMERICAS", "Brazil", "Chile"])
        XCTAssertEqual(country(screen, "BR")?.log, ["didSelectCell", "didDeselectCell"])
        XCTAssertEqual(screen.tableView.violations, [])
    }

    /// Each presenter sizes its own cell (GenericCellPresenters' `cellSize(reusableCellHolder:)`,
    /// which its content manager forwards from `heightForRowAt`; Ripple's glue does the forwarding).
    func test_eachPresenterSizesItsCell() async {
        let (presenter, screen) = countriesScreen()
        presenter.updateData([austria], [brazil])
        await screen.settle()
        let phone = LayoutSize(width: 390, height: 844)
        let tablet = LayoutSize(width: 820, height: 1180)
        XCTAssertEqual(
            screen.cells.visiblePaths.map { screen.source.cellSize(at: $0, in: phone)?.height }, [32, 56, 32, 56])
        XCTAssertEqual(
            screen.cells.visiblePaths.map { screen.source.cellSize(at: $0, in: tablet)?.height }, [32, 72, 32, 72])
        XCTAssertEqual(screen.source.cellSize(at: screen.cells.visiblePaths[1], in: phone)?.width, 390)
    }

    /// `updateData` with new view models: the list animates (GenericCellPresenters reloads the whole
    /// table), checked countries stay checked on their moved rows with no index to fix by hand, and
    /// a removed country leaves the selection without a deselect, as in UIKit.
    func test_updateData_keepsTheCheckedCountries_whereverTheirRowsGo() async {
        let (presenter, screen) = countriesScreen()
        screen.tableView.allowsMultipleSelection = true
        presenter.updateData([austria, belgium], [brazil, chile])
        await screen.settle()
        screen.cells.tap(screen.cells.visiblePaths[2])  // Belgium
        screen.cells.tap(screen.cells.visiblePaths[5])  // Chile
        XCTAssertEqual(shown(screen), ["EUROPE", "Austria", "✓ Belgium", "AMERICAS", "Brazil", "✓ Chile"])
        let belgiumPresenter = country(screen, "BE")

        let andorra = CountryViewModel(code: "AD", name: "Andorra")
        presenter.updateData([andorra, austria, belgium], [brazil])
        await screen.settle()
        XCTAssertEqual(shown(screen), ["EUROPE", "Andorra", "Austria", "✓ Belgium", "AMERICAS", "Brazil"])
        XCTAssertTrue(country(screen, "BE") === belgiumPresenter, "the same presenter, on its moved row")
        XCTAssertEqual(screen.tableView.selectedPaths, [screen.cells.visiblePaths[3]])
        XCTAssertEqual(screen.source.statistics.reloads, 1, "animated: only the first state was a reload")
        XCTAssertEqual(screen.tableView.violations, [])
    }
}
