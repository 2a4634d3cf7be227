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

/// A type that no row of a list of `TestItem`s can have, and a cell for it.
private struct Caption: Sendable {}
private final class CaptionCell: HeadlessCell<Caption> {}

/// A shelf's presenter, the section value of the sectioned lists below, and a featured shelf.
private class ShelfPresenter: @unchecked Sendable {
    let title: String
    let isEmpty: Bool
    init(_ title: String, isEmpty: Bool = false) {
        self.title = title
        self.isEmpty = isEmpty
    }
}
// Safe: immutable after init (a class so that a subclass can stand for a kind of shelf).
private final class FeaturedShelfPresenter: ShelfPresenter, @unchecked Sendable {}

/// Headers and footers typed on the shelf presenters.
private final class ShelfHeader: HeadlessCell<ShelfPresenter> {}
private final class FeaturedShelfHeader: HeadlessCell<FeaturedShelfPresenter> {}
private final class EmptyShelfFooter: HeadlessCell<ShelfPresenter> {}

/// Cells registered for presenter types with `register(_:for:)`, whose types the compiler links
/// (see `Tests/CompileFailures/CellRegisteredForAnotherPresenter.swift`), the traps of a row that no
/// registration covers and of a registration that no row can use, and the report of a cell that
/// cannot show its row's item.
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
            screen.register(
                CapitalCell.self, for: CountryCellPresenter.self,
                where: { $0.name == "Paris" || $0.name == "Pitcairn" })
            screen.register(
                IslandCell.self, for: CountryCellPresenter.self,
                where: { $0.name == "Corsica" || $0.name == "Pitcairn" })
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

    // MARK: - Misuses that trap (in child processes)

    /// The entry point of the child processes; skipped in a normal run.
    func test_childProcessEntry() async throws {
        let name = try childProcessCase()
        switch name {
        case "uncoveredRowOnATable":
            let screen = HeadlessTableScreen(collection: Self.countryAndCity())
            screen.register(CountryCell.self, for: CountryCellPresenter.self)
            await screen.settle()
        case "uncoveredRowOnACollection":
            let screen = HeadlessCollectionScreen(collection: Self.countryAndCity())
            screen.register(CountryCell.self, for: CountryCellPresenter.self)
            await screen.settle()
        case "noRegistration":
            let screen = HeadlessTableScreen(collection: ObservableCollection([TestItem](ids: [1, 2])))
            await screen.settle()
        case "registeredForATypeNoRowCanHave":
            let screen = HeadlessTableScreen(collection: ObservableCollection([TestItem](ids: [1, 2])))
            screen.register(CaptionCell.self, for: Caption.self)
        case "headerForATypeNoSectionCanHave":
            let screen = HeadlessTableScreenWithSection(
                collection: SectionedCollection([SectionData("Novels", items: [TestItem](ids: [1]))]))
            screen.register(header: CaptionCell.self, for: Caption.self)
        case "footerForATypeNoSectionCanHave":
            let screen = HeadlessCollectionScreenWithSection(
                collection: SectionedCollection([SectionData("Novels", items: [TestItem](ids: [1]))]))
            screen.register(footer: CaptionCell.self, for: Caption.self)
        default: return
        }
        print("the case did not trap")
    }

    /// A country row, then a city row, which no cell of the cases above covers.
    private static func countryAndCity() -> ObservableCollection<any CountryRow> {
        ObservableCollection<any CountryRow>([CountryCellPresenter("Spain"), CityCellPresenter()])
    }

    /// A row that no registration covers traps at the first layout, on a table and on a collection
    /// view, naming the source, the row, its item's type and the registration to make; so does a
    /// screen with no registration at all. (Before, such a row dequeued the identifier `"Cell"`,
    /// which a device has no cell for, and was reported through `Diagnostics`.) A registration for
    /// a type that no row can have traps at once, naming both types.
    func test_aRowNoRegistrationCovers_trapsAtTheFirstLayout_asDoesARegistrationNoRowCanUse() throws {
        let uncovered = [
            "no cell is registered for the row at item 1 of section 0", "CityCellPresenter",
            "register(_:for:where:)",
        ]
        let expected: [String: [String]] = [
            "uncoveredRowOnATable": ["TableViewSource<CountryRow>.cellIdentifier(at:)"] + uncovered,
            "uncoveredRowOnACollection": ["CollectionViewSource<CountryRow>.cellIdentifier(at:)"] + uncovered,
            "noRegistration": [
                "TableViewSource<TestItem>.cellIdentifier(at:)",
                "no cell is registered for the row at item 0 of section 0", "TestItem", "register(_:where:)",
            ],
            "registeredForATypeNoRowCanHave": [
                "TableViewSource<TestItem>.register(_:for:where:)", "CaptionCell shows items of type",
                "shows items of type Caption, which no row of this source can have", "its rows are of type TestItem",
            ],
            "headerForATypeNoSectionCanHave": [
                "TableViewSourceWithSection<String, TestItem>.register(header:for:where:)",
                "CaptionCell shows sections of type Caption, which no section of this source can have",
                "its sections are of type String",
            ],
            "footerForATypeNoSectionCanHave": [
                "CollectionViewSourceWithSection<String, TestItem>.register(footer:for:where:)",
                "CaptionCell shows sections of type Caption, which no section of this source can have",
            ],
        ]
        try XCTSkipUnless(isDebugBuild, "precondition messages are printed only in debug builds")
        let outcomes = try runChildTests(
            "RippleTests.ListSourceCellRegistrationTests/test_childProcessEntry", cases: Array(expected.keys))
        for (name, parts) in expected.sorted(by: { $0.key < $1.key }) {
            guard let outcome = outcomes[name] else {
                XCTFail("\(name): no outcome")
                continue
            }
            XCTAssertTrue(outcome.terminatedBySignal, "\(name): expected a trap, got exit status \(outcome.status)")
            for part in parts {
                XCTAssertTrue(
                    outcome.standardError.contains(part),
                    "\(name): expected \"\(part)\" in:\n\(outcome.standardError.prefix(800))")
            }
        }
    }

    /// A cell that still cannot show its row's item at run time (registered by identifier for the
    /// wrong rows) is reported, naming the row, the item's type and the cell's type: never a
    /// silent blank row. Once per pair of types.
    /// Headers and footers go by the section value's type and the conditions, as cells go by the
    /// row's: the featured shelf's own header, the shelf header for the others, a footer only for
    /// the empty shelves, and no view where no registration covers a section.
    func test_headersAndFooters_byTheSectionsDynamicType_thenTheSectionType_andTheirConditions() async {
        let shelves = SectionedCollection<ShelfPresenter, TestItem>([
            SectionData(ShelfPresenter("Novels"), items: [TestItem](ids: [1])),
            SectionData(FeaturedShelfPresenter("New"), items: [TestItem](ids: [2])),
            SectionData(ShelfPresenter("Poems", isEmpty: true), items: []),
        ])
        let screen = HeadlessTableScreenWithSection(collection: shelves)
        screen.register(HeadlessCell<TestItem>.self)
        screen.register(header: ShelfHeader.self)
        screen.register(header: FeaturedShelfHeader.self, for: FeaturedShelfPresenter.self)
        screen.register(footer: EmptyShelfFooter.self, where: { $0.isEmpty })
        await screen.settle()
        let views = screen.cells.visibleSupplementaryViews.map {
            "\($0.kind) \($0.section) \(Swift.type(of: $0.view)) \(($0.view.shownItem as? ShelfPresenter)?.title ?? "-")"
        }
        XCTAssertEqual(
            views,
            [
                "header 0 ShelfHeader Novels", "header 1 FeaturedShelfHeader New", "header 2 ShelfHeader Poems",
                "footer 2 EmptyShelfFooter Poems",
            ])
        XCTAssertEqual(screen.source.supplementaryIdentifier(.footer, inSection: 0), nil)
    }

    func test_aCellThatCannotShowItsRow_isReported() async {
        await recordingDiagnostics {
            let rows = ObservableCollection<any CountryRow>([
                RegionCellPresenter("Brittany"), RegionCellPresenter("Alsace"),
            ])
            let screen = HeadlessTableScreen(collection: rows)
            screen.cells.register(CountryCell.self, forEveryRowOf: screen.source)
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
