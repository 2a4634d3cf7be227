import Ripple
import RippleTesting
import XCTest

// SourceModel's README screens, rebuilt with Ripple on headless views, as an app's own tests would
// write them: heterogeneous cells (one cell type per model type), section headers, and the
// delegate and index injection into cells.

// MARK: - Models

private struct Product: Sendable, Equatable {
    var id: Int
    var name: String
    var category: String
}

private struct Promotion: Sendable, Equatable {
    var text: String
}

// MARK: - Cell presenters

/// A row of the products screen: a product or a promotion banner (SourceModel's `Model`).
@MainActor private protocol ProductsRow: AnyObject, Sendable {}

@MainActor private protocol ProductCellView: Viewable {
    func fill(name: String)
}

@MainActor private protocol BannerCellView: Viewable {
    func fill(text: String)
}

/// SourceModel's `Delegateable` cell delegate, held weakly by the cell's presenter.
@MainActor private protocol ProductCellDelegate: AnyObject {
    func productCellDidTapFavorite(_ cell: ProductCellPresenter)
}

private final class ProductCellPresenter: Presenter<any ProductCellView>, ProductsRow, IndexedCellPresenter {
    let product: Product
    private weak var delegate: (any ProductCellDelegate)?
    /// SourceModel's `Indexable`, kept current by the source (`IndexedCellPresenter`).
    var path: ElementPath?

    init(product: Product, delegate: any ProductCellDelegate) {
        self.product = product
        self.delegate = delegate
        super.init()
    }

    /// SourceModel's `fill(with:)`: the presenter fills the cell it is given.
    override func injectView(_ view: any ProductCellView) {
        super.injectView(view)
        view.fill(name: product.name)
    }

    /// The cell's favorite button.
    func tapFavorite() {
        delegate?.productCellDidTapFavorite(self)
    }
}

private final class BannerCellPresenter: Presenter<any BannerCellView>, ProductsRow {
    let promotion: Promotion
    init(promotion: Promotion) {
        self.promotion = promotion
        super.init()
    }

    override func injectView(_ view: any BannerCellView) {
        super.injectView(view)
        view.fill(text: promotion.text)
    }
}

// MARK: - Section presenters

@MainActor private protocol CategoryHeaderView: Viewable {
    func show(title: String)
}

/// SourceModel's `Headerable` section: its presenter fills the header.
private final class CategoryPresenter: Presenter<any CategoryHeaderView> {
    let title: String
    init(title: String) {
        self.title = title
        super.init()
    }

    override func injectView(_ view: any CategoryHeaderView) {
        super.injectView(view)
        view.show(title: title)
    }
}

// MARK: - The screen's presenter

private final class ProductsPresenter: Presenter<any Viewable>, ProductCellDelegate {
    let rows = ObservableCollection<any ProductsRow>()
    let categories = SectionedCollection<CategoryPresenter, ProductCellPresenter>()
    private(set) var favorites: [(name: String, index: Int)] = []

    func show(_ products: [Product], promotion: Promotion?) {
        var rows: [any ProductsRow] = products.map { ProductCellPresenter(product: $0, delegate: self) }
        if let promotion { rows.insert(BannerCellPresenter(promotion: promotion), at: min(2, rows.count)) }
        // Diffed by presenter identity: `.object` works for a class-bound protocol's existential.
        self.rows.replace(with: rows, identity: .object)
    }

    func showByCategory(_ products: [Product]) {
        var order: [String] = []
        var grouped: [String: [ProductCellPresenter]] = [:]
        for product in products {
            if grouped[product.category] == nil { order.append(product.category) }
            grouped[product.category, default: []].append(ProductCellPresenter(product: product, delegate: self))
        }
        categories.replace(
            withSections: order.map { SectionData(CategoryPresenter(title: $0), items: grouped[$0] ?? []) },
            sectionIdentity: .object, itemIdentity: .object)
    }

    /// SourceModel injects the index path into the cell; here the index is looked up when it is
    /// needed, so it is right even after rows were inserted above the cell.
    func productCellDidTapFavorite(_ cell: ProductCellPresenter) {
        guard let path = cell.path else { return }
        favorites.append((cell.product.name, path.item))
    }
}

// MARK: - Cells

private final class ProductCell: HeadlessCell<ProductCellPresenter>, ProductCellView {
    private(set) var name = ""
    func fill(name: String) { self.name = name }
}

private final class BannerCell: HeadlessCell<BannerCellPresenter>, BannerCellView {
    private(set) var text = ""
    func fill(text: String) { self.text = text }
}

private final class GridProductCell: HeadlessCell<ProductCellPresenter>, ProductCellView {
    private(set) var name = ""
    func fill(name: String) { self.name = name }
}

private final class CategoryHeader: HeadlessCell<CategoryPresenter>, CategoryHeaderView {
    private(set) var title = ""
    func show(title: String) { self.title = title }
}

// MARK: - Tests

/// SourceModel's README, screen by screen, on collection views. `@MainActor`, with `async` tests.
@MainActor
final class SeedParitySourceModelTests: XCTestCase {
    private let catalog = [
        Product(id: 1, name: "Lipstick", category: "Beauty"),
        Product(id: 2, name: "Apples", category: "Grocery"),
        Product(id: 3, name: "Shampoo", category: "Beauty"),
        Product(id: 4, name: "Bread", category: "Grocery"),
    ]

    /// What each visible cell is and shows, top to bottom.
    private func shown(_ screen: HeadlessCollectionScreen<any ProductsRow>) -> [String] {
        screen.cells.visibleCells.map { entry in
            switch entry.cell {
            case let cell as ProductCell: "product \(cell.name)"
            case let cell as BannerCell: "banner \(cell.text)"
            default: "\(type(of: entry.cell))"
            }
        }
    }

    /// Heterogeneous cells: SourceModel's `cellType(forItemAt:)` becomes one cell class per
    /// presenter type, and each cell is filled by its own presenter.
    func test_heterogeneousCells_eachPresenterTypeHasItsOwnCell() async {
        let presenter = ProductsPresenter()
        let screen = HeadlessCollectionScreen(collection: presenter.rows, visibleRowCount: 6)
        screen.register(ProductCell.self, for: ProductCellPresenter.self)
        screen.register(BannerCell.self, for: BannerCellPresenter.self)

        presenter.show(catalog, promotion: Promotion(text: "2 for 1"))
        await screen.settle()
        XCTAssertEqual(
            shown(screen), ["product Lipstick", "product Apples", "banner 2 for 1", "product Shampoo", "product Bread"])

        presenter.show(Array(catalog.reversed()), promotion: nil)  // new presenters: a new list
        await screen.settle()
        XCTAssertEqual(shown(screen), ["product Bread", "product Shampoo", "product Apples", "product Lipstick"])
        XCTAssertEqual(
            screen.cells.visibleCells.map(\.cell.reuseIdentifier),
            Array(repeating: String(reflecting: ProductCell.self), count: 4))
        XCTAssertEqual(screen.collectionView.violations, [])
    }

    /// Headers: SourceModel's `Headerable` sections become section presenters shown in reusable
    /// headers (which SourceModel's roadmap still lists), one per category.
    func test_headers_showTheirCategories_asTheSectionsChange() async {
        let presenter = ProductsPresenter()
        let screen = HeadlessCollectionScreenWithSection(collection: presenter.categories, visibleRowCount: 8)
        screen.register(header: CategoryHeader.self)
        screen.register(GridProductCell.self)

        presenter.showByCategory(catalog)
        await screen.settle()
        XCTAssertEqual(screen.shownSections.map(\.title), ["Beauty", "Grocery"])
        XCTAssertEqual(
            screen.shownItems.map { $0.map(\.product.name) }, [["Lipstick", "Shampoo"], ["Apples", "Bread"]])
        XCTAssertEqual(
            screen.cells.visibleSupplementaryViews.compactMap { ($0.view as? CategoryHeader)?.title },
            ["Beauty", "Grocery"])

        presenter.showByCategory(catalog + [Product(id: 5, name: "Tent", category: "Outdoor")])
        await screen.settle()
        XCTAssertEqual(
            screen.cells.visibleSupplementaryViews.compactMap { ($0.view as? CategoryHeader)?.title },
            ["Beauty", "Grocery", "Outdoor"])
        XCTAssertEqual((screen.cells.header(inSection: 2) as? CategoryHeader)?.title, "Outdoor")
        XCTAssertEqual(screen.collectionView.violations, [])
    }

    /// Injection: the cell's delegate is the screen's presenter (SourceModel's `Delegateable`),
    /// and the index a cell needs is the one it has when the user taps, not the one it had when it
    /// was first shown (which SourceModel's `Indexable` injects): `IndexedCellPresenter` keeps it.
    func test_injection_theDelegateHearsTheCell_atItsIndexWhenTapped() async {
        let presenter = ProductsPresenter()
        let screen = HeadlessCollectionScreen(collection: presenter.rows, visibleRowCount: 6)
        screen.register(ProductCell.self, for: ProductCellPresenter.self)
        screen.register(BannerCell.self, for: BannerCellPresenter.self)
        var shownAt: [String: Int] = [:]
        screen.source.onItemEvent = { event, row, path in
            if event == .willDisplay, let product = row as? ProductCellPresenter {
                shownAt[product.product.name] = path.item
            }
        }
        presenter.show(Array(catalog.prefix(2)), promotion: nil)
        await screen.settle()
        XCTAssertEqual(shownAt, ["Lipstick": 0, "Apples": 1])

        presenter.rows.insert(BannerCellPresenter(promotion: Promotion(text: "New")), at: 0)
        await screen.settle()
        let apples = screen.cells.visibleCells.compactMap { $0.cell.shownItem as? ProductCellPresenter }.last
        apples?.tapFavorite()  // the cell's button
        XCTAssertEqual(presenter.favorites.map(\.name), ["Apples"])
        XCTAssertEqual(presenter.favorites.map(\.index), [2], "its index now, below the new banner")
        XCTAssertEqual(shownAt["Apples"], 1, "the index it was first shown at, which SourceModel would inject")
        XCTAssertEqual(shown(screen), ["banner New", "product Lipstick", "product Apples"])
        XCTAssertEqual(screen.collectionView.violations, [])
    }
}
