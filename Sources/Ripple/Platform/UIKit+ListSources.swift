#if canImport(UIKit) && !os(watchOS)
import RippleDiff
import UIKit

// Thin glue: UIKit's views adopt `ListView`, and one adapter per view kind answers UIKit's
// data-source and delegate calls through `ListDataSource`, forwarding the rest to the app's
// delegate (`ListViewAdapter`). Every decision (staging, fallbacks, pagination, cell binding,
// selection) lives in platform-independent code tested on Linux; the adapters' only branches are
// the forwarding rule itself: the app's answer when it gives one, Ripple's otherwise.

extension IndexPath {
    /// The UIKit index path of a Ripple path.
    init(_ path: ElementPath) { self.init(item: path.item, section: path.section) }
}

extension ElementPath {
    /// The Ripple path of a UIKit index path.
    init(_ indexPath: IndexPath) { self.init(item: indexPath.item, section: indexPath.section) }
}

#if !os(tvOS)
extension UISwipeActionsConfiguration {
    /// UIKit's configuration of Ripple's swipe actions, or `nil` for none (the view's default).
    @MainActor
    static func ripple(_ actions: [SwipeAction]) -> UISwipeActionsConfiguration? {
        guard !actions.isEmpty else { return nil }
        return UISwipeActionsConfiguration(
            actions: actions.map { action in
                UIContextualAction(style: action.style == .destructive ? .destructive : .normal, title: action.title) {
                    _, _, completion in completion(action.perform())
                }
            })
    }
}

extension ListSourceBase {
    /// The swipe actions of the row at `indexPath` (``swipeActions(_:at:)``) as UIKit's
    /// configuration, or `nil` when it has none. The table adapter answers with it; hand it to a
    /// collection view's list layout:
    /// `listConfiguration.trailingSwipeActionsConfigurationProvider = { source.swipeActionsConfiguration(.trailing, at: $0) }`.
    ///
    /// - Parameters:
    ///   - edge: The edge the swipe starts from.
    ///   - indexPath: A row on screen.
    /// - Returns: The configuration, or `nil`.
    public func swipeActionsConfiguration(_ edge: SwipeEdge, at indexPath: IndexPath) -> UISwipeActionsConfiguration? {
        UISwipeActionsConfiguration.ripple(swipeActions(edge, at: ElementPath(indexPath)))
    }
}
#endif

extension ListSourceBase {
    /// Registers `cellClass` with the table view this source drives, and shows in it every row
    /// (that meets `condition`): the one way to map rows to cells (GenericCellPresenters'
    /// `registerCell(on:)`). The cell's item type is the list's element type, which the compiler
    /// checks; in a heterogeneous list, or for a subclass of the element type, name the type with
    /// `register(_:for:where:)`.
    ///
    /// <!-- swift
    /// import UIKit
    ///
    /// protocol BookCellView: Viewable {}
    /// final class BookCellPresenter: Presenter<any BookCellView> {
    ///     var isNew: Bool { false }
    /// }
    /// let source = TableViewSource(view: UITableView(), collection: ObservableCollection<BookCellPresenter>())
    /// -->
    /// ```swift uikit
    /// final class BookCell: TableViewCell<BookCellPresenter>, BookCellView {}
    /// final class NewBookCell: TableViewCell<BookCellPresenter>, BookCellView {}
    /// source.register(BookCell.self)
    /// source.register(NewBookCell.self, where: { $0.isNew })
    /// ```
    ///
    /// A row that no registration covers traps at its first layout, naming the source and the
    /// row's item type, before UIKit's own exception.
    ///
    /// - Parameters:
    ///   - cellClass: The cell class; its reuse identifier is its type name.
    ///   - condition: Which rows it shows; `nil` (the default) for all. Conditional registrations
    ///     are tried in the order made, before the one without a condition.
    public func register<Cell: UITableViewCell & PresentingCell>(
        _ cellClass: Cell.Type, where condition: ((Item) -> Bool)? = nil
    ) where Cell.Item == Item {
        register(cellClass, routing: Item.self, where: condition.map(CellRoute.erase))
    }

    /// Registers `cellClass` with the table view this source drives, and shows in it the rows
    /// whose item is of type `itemType` and meets `condition`: in a heterogeneous list (items of
    /// type `any Row`), a cell typed on one presenter shows that presenter's rows.
    ///
    /// <!-- swift
    /// import UIKit
    ///
    /// protocol CountryRow: AnyObject, Sendable {}
    /// protocol CountryCellView: Viewable {}
    /// final class CountryCellPresenter: Presenter<any CountryCellView>, CountryRow {
    ///     var isFeatured: Bool { false }
    /// }
    /// let countries = TableViewSource(view: UITableView(), collection: ObservableCollection<any CountryRow>())
    /// -->
    /// ```swift uikit
    /// final class CountryCell: TableViewCell<CountryCellPresenter>, CountryCellView {}
    /// final class FeaturedCountryCell: TableViewCell<CountryCellPresenter>, CountryCellView {}
    /// countries.register(CountryCell.self, for: CountryCellPresenter.self)
    /// countries.register(FeaturedCountryCell.self, for: CountryCellPresenter.self, where: { $0.isFeatured })
    /// ```
    ///
    /// - Parameters:
    ///   - cellClass: The cell class; its reuse identifier is its type name.
    ///   - itemType: The type of the items it shows: the cell's own item type, or a subclass of
    ///     it. An item's exact dynamic type is looked up, then the source's `Item`.
    ///   - condition: Which of those items it shows; `nil` (the default) for all. Conditional
    ///     registrations are tried in the order made, before the one without a condition.
    /// - Precondition: A row's item can have the type `itemType`: the list's element type, a
    ///   subclass of a class element type, or a concrete type behind an existential one. Otherwise
    ///   the registration would never be used, and it traps, naming both types.
    public func register<Cell: UITableViewCell & PresentingCell>(
        _ cellClass: Cell.Type, for itemType: Cell.Item.Type, where condition: ((Cell.Item) -> Bool)? = nil
    ) {
        checkRegistration(of: cellClass, for: itemType, in: "register(_:for:where:)")
        register(cellClass, routing: itemType, where: condition.map(CellRoute.erase))
    }

    /// Routes the rows of `itemType` to `cellClass` and registers it with the table view.
    private func register(
        _ cellClass: UITableViewCell.Type, routing itemType: Any.Type, where condition: ((Any) -> Bool)?
    ) {
        let identifier = String(reflecting: cellClass)
        route(itemsOf: itemType, where: condition, toCellsWith: identifier)
        (listView as? UITableView)?.register(cellClass, forCellReuseIdentifier: identifier)
    }

    /// Registers `cellClass` with the collection view this source drives, and shows in it every
    /// row (that meets `condition`), as the table form does.
    ///
    /// - Parameters:
    ///   - cellClass: The cell class; its reuse identifier is its type name.
    ///   - condition: Which rows it shows; `nil` (the default) for all.
    public func register<Cell: UICollectionViewCell & PresentingCell>(
        _ cellClass: Cell.Type, where condition: ((Item) -> Bool)? = nil
    ) where Cell.Item == Item {
        register(cellClass, routing: Item.self, where: condition.map(CellRoute.erase))
    }

    /// Registers `cellClass` with the collection view this source drives, and shows in it the
    /// rows whose item is of type `itemType` and meets `condition`, as the table form does.
    ///
    /// - Parameters:
    ///   - cellClass: The cell class; its reuse identifier is its type name.
    ///   - itemType: The type of the items it shows: the cell's own item type, or a subclass of it.
    ///   - condition: Which of those items it shows; `nil` (the default) for all.
    /// - Precondition: A row's item can have the type `itemType` (see the table form).
    public func register<Cell: UICollectionViewCell & PresentingCell>(
        _ cellClass: Cell.Type, for itemType: Cell.Item.Type, where condition: ((Cell.Item) -> Bool)? = nil
    ) {
        checkRegistration(of: cellClass, for: itemType, in: "register(_:for:where:)")
        register(cellClass, routing: itemType, where: condition.map(CellRoute.erase))
    }

    /// Routes the rows of `itemType` to `cellClass` and registers it with the collection view.
    private func register(
        _ cellClass: UICollectionViewCell.Type, routing itemType: Any.Type, where condition: ((Any) -> Bool)?
    ) {
        let identifier = String(reflecting: cellClass)
        route(itemsOf: itemType, where: condition, toCellsWith: identifier)
        (listView as? UICollectionView)?.register(cellClass, forCellWithReuseIdentifier: identifier)
    }
}

/// A table view cell that shows one item, usually a cell presenter: subclass it and adopt your
/// cell's view protocol, and the source attaches the cell to its presenter on dequeue.
open class TableViewCell<CellPresenter>: UITableViewCell, PresentingCell {
    /// The item shown.
    public var item: CellPresenter?

    /// Prepares the view for reuse, and gives up its item (``PresentingCell/prepareItemForReuse()``).
    /// Call `super` when you override it.
    open override func prepareForReuse() {
        super.prepareForReuse()
        prepareItemForReuse()
    }
}

/// A collection view cell that shows one item, usually a cell presenter.
open class CollectionViewCell<CellPresenter>: UICollectionViewCell, PresentingCell {
    /// The item shown.
    public var item: CellPresenter?

    /// Prepares the view for reuse, and gives up its item (``PresentingCell/prepareItemForReuse()``).
    /// Call `super` when you override it.
    open override func prepareForReuse() {
        super.prepareForReuse()
        prepareItemForReuse()
    }
}

extension ListSourceWithSection {
    /// Registers `viewClass` with the table view this source drives, as the header of every
    /// section (that meets `condition`): the one way to give sections headers. The view's item
    /// type is the section type, which the compiler checks; for a subclass of it, or in sections
    /// of an existential type, name the type with `register(header:for:where:)`.
    ///
    /// <!-- swift
    /// import UIKit
    ///
    /// protocol ShelfHeaderView: Viewable {}
    /// final class ShelfPresenter: Presenter<any ShelfHeaderView> {
    ///     var isEmpty: Bool { false }
    /// }
    /// final class BookPresenter: Sendable {}
    /// let shelves = TableViewSourceWithSection(
    ///     view: UITableView(), collection: SectionedCollection<ShelfPresenter, BookPresenter>())
    /// -->
    /// ```swift uikit
    /// final class ShelfHeader: TableViewHeaderFooterView<ShelfPresenter>, ShelfHeaderView {}
    /// final class EmptyShelfFooter: TableViewHeaderFooterView<ShelfPresenter>, ShelfHeaderView {}
    /// shelves.register(header: ShelfHeader.self)
    /// shelves.register(footer: EmptyShelfFooter.self, where: { $0.isEmpty })
    /// ```
    ///
    /// - Parameters:
    ///   - viewClass: The view class; its reuse identifier is its type name.
    ///   - condition: Which sections have it; `nil` (the default) for all. Conditional
    ///     registrations are tried in the order made, before the one without a condition; a
    ///     section none covers has no header.
    public func register<View: UITableViewHeaderFooterView & PresentingCell>(
        header viewClass: View.Type, where condition: ((Section) -> Bool)? = nil
    ) where View.Item == Section {
        register(viewClass, as: .header, routing: Section.self, where: condition.map(CellRoute.erase))
    }

    /// Registers `viewClass` with the table view this source drives, as the header of the
    /// sections whose value is of type `sectionType` and meets `condition`.
    ///
    /// - Parameters:
    ///   - viewClass: The view class; its reuse identifier is its type name.
    ///   - sectionType: The type of the section values it shows: the view's own item type, or a
    ///     subclass of it. A value's exact dynamic type is looked up, then `Section`.
    ///   - condition: Which of those sections have it; `nil` (the default) for all.
    /// - Precondition: A section's value can have the type `sectionType`. Otherwise the view
    ///   would never show, and it traps, naming both types.
    public func register<View: UITableViewHeaderFooterView & PresentingCell>(
        header viewClass: View.Type, for sectionType: View.Item.Type, where condition: ((View.Item) -> Bool)? = nil
    ) {
        checkRegistration(ofSupplementary: viewClass, for: sectionType, in: "register(header:for:where:)")
        register(viewClass, as: .header, routing: sectionType, where: condition.map(CellRoute.erase))
    }

    /// Registers `viewClass` with the table view this source drives, as the footer of every
    /// section (that meets `condition`), as `register(header:where:)` does for headers.
    ///
    /// - Parameters:
    ///   - viewClass: The view class; its reuse identifier is its type name.
    ///   - condition: Which sections have it; `nil` (the default) for all.
    public func register<View: UITableViewHeaderFooterView & PresentingCell>(
        footer viewClass: View.Type, where condition: ((Section) -> Bool)? = nil
    ) where View.Item == Section {
        register(viewClass, as: .footer, routing: Section.self, where: condition.map(CellRoute.erase))
    }

    /// Registers `viewClass` with the table view this source drives, as the footer of the
    /// sections whose value is of type `sectionType` and meets `condition`.
    ///
    /// - Parameters:
    ///   - viewClass: The view class; its reuse identifier is its type name.
    ///   - sectionType: The type of the section values it shows: the view's own item type, or a
    ///     subclass of it.
    ///   - condition: Which of those sections have it; `nil` (the default) for all.
    /// - Precondition: A section's value can have the type `sectionType` (see the header form).
    public func register<View: UITableViewHeaderFooterView & PresentingCell>(
        footer viewClass: View.Type, for sectionType: View.Item.Type, where condition: ((View.Item) -> Bool)? = nil
    ) {
        checkRegistration(ofSupplementary: viewClass, for: sectionType, in: "register(footer:for:where:)")
        register(viewClass, as: .footer, routing: sectionType, where: condition.map(CellRoute.erase))
    }

    /// Routes the sections of `sectionType` to `viewClass` and registers it with the table view.
    private func register(
        _ viewClass: UITableViewHeaderFooterView.Type, as kind: SupplementaryKind, routing sectionType: Any.Type,
        where condition: ((Any) -> Bool)?
    ) {
        let identifier = String(reflecting: viewClass)
        route(kind, ofSectionsOf: sectionType, where: condition, toViewsWith: identifier)
        (listView as? UITableView)?.register(viewClass, forHeaderFooterViewReuseIdentifier: identifier)
    }

    /// Registers `viewClass` with the collection view this source drives, as the header of every
    /// section (that meets `condition`), as the table form does.
    ///
    /// - Parameters:
    ///   - viewClass: The view class; its reuse identifier is its type name.
    ///   - condition: Which sections have it; `nil` (the default) for all.
    public func register<View: UICollectionReusableView & PresentingCell>(
        header viewClass: View.Type, where condition: ((Section) -> Bool)? = nil
    ) where View.Item == Section {
        register(viewClass, as: .header, routing: Section.self, where: condition.map(CellRoute.erase))
    }

    /// Registers `viewClass` with the collection view this source drives, as the header of the
    /// sections whose value is of type `sectionType` and meets `condition`, as the table form does.
    ///
    /// - Parameters:
    ///   - viewClass: The view class; its reuse identifier is its type name.
    ///   - sectionType: The type of the section values it shows.
    ///   - condition: Which of those sections have it; `nil` (the default) for all.
    /// - Precondition: A section's value can have the type `sectionType` (see the table form).
    public func register<View: UICollectionReusableView & PresentingCell>(
        header viewClass: View.Type, for sectionType: View.Item.Type, where condition: ((View.Item) -> Bool)? = nil
    ) {
        checkRegistration(ofSupplementary: viewClass, for: sectionType, in: "register(header:for:where:)")
        register(viewClass, as: .header, routing: sectionType, where: condition.map(CellRoute.erase))
    }

    /// Registers `viewClass` with the collection view this source drives, as the footer of every
    /// section (that meets `condition`), as the table form does.
    ///
    /// - Parameters:
    ///   - viewClass: The view class; its reuse identifier is its type name.
    ///   - condition: Which sections have it; `nil` (the default) for all.
    public func register<View: UICollectionReusableView & PresentingCell>(
        footer viewClass: View.Type, where condition: ((Section) -> Bool)? = nil
    ) where View.Item == Section {
        register(viewClass, as: .footer, routing: Section.self, where: condition.map(CellRoute.erase))
    }

    /// Registers `viewClass` with the collection view this source drives, as the footer of the
    /// sections whose value is of type `sectionType` and meets `condition`, as the table form does.
    ///
    /// - Parameters:
    ///   - viewClass: The view class; its reuse identifier is its type name.
    ///   - sectionType: The type of the section values it shows.
    ///   - condition: Which of those sections have it; `nil` (the default) for all.
    /// - Precondition: A section's value can have the type `sectionType` (see the table form).
    public func register<View: UICollectionReusableView & PresentingCell>(
        footer viewClass: View.Type, for sectionType: View.Item.Type, where condition: ((View.Item) -> Bool)? = nil
    ) {
        checkRegistration(ofSupplementary: viewClass, for: sectionType, in: "register(footer:for:where:)")
        register(viewClass, as: .footer, routing: sectionType, where: condition.map(CellRoute.erase))
    }

    /// Routes the sections of `sectionType` to `viewClass` and registers it with the collection
    /// view, for the kind of supplementary view UIKit's flow and list layouts ask for.
    private func register(
        _ viewClass: UICollectionReusableView.Type, as kind: SupplementaryKind, routing sectionType: Any.Type,
        where condition: ((Any) -> Bool)?
    ) {
        let identifier = String(reflecting: viewClass)
        route(kind, ofSectionsOf: sectionType, where: condition, toViewsWith: identifier)
        (listView as? UICollectionView)?.register(
            viewClass,
            forSupplementaryViewOfKind: kind == .header
                ? UICollectionView.elementKindSectionHeader : UICollectionView.elementKindSectionFooter,
            withReuseIdentifier: identifier)
    }
}

/// A table header or footer view that shows a section's value, usually its presenter.
open class TableViewHeaderFooterView<SectionPresenter>: UITableViewHeaderFooterView, PresentingCell {
    /// The section value shown.
    public var item: SectionPresenter?

    /// Prepares the view for reuse, and gives up its item (``PresentingCell/prepareItemForReuse()``).
    /// Call `super` when you override it.
    open override func prepareForReuse() {
        super.prepareForReuse()
        prepareItemForReuse()
    }
}

/// A collection view header or footer view that shows a section's value.
open class CollectionReusableView<SectionPresenter>: UICollectionReusableView, PresentingCell {
    /// The section value shown.
    public var item: SectionPresenter?

    /// Prepares the view for reuse, and gives up its item (``PresentingCell/prepareItemForReuse()``).
    /// Call `super` when you override it.
    open override func prepareForReuse() {
        super.prepareForReuse()
        prepareItemForReuse()
    }
}
#endif
