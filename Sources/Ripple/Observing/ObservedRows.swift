import RippleDiff

// What a SwiftUI list's rows do besides showing their elements: each row's appearance drives the
// list's pagination (the model the UIKit sources use), a tap selects the row as `didSelectRow`
// does, and a loading row shows while a page loads. One implementation, `RowInteractions`, behind
// the four observed lists.

/// A SwiftUI list's rows, as ``ObservedList``, ``ObservedSectionedList`` and their
/// `ObservableObject` twins offer them to a view: what a row's `onAppear` and a tap report, the
/// list's pagination and selection command, and whether the loading row shows.
///
/// RippleTesting's `HeadlessSwiftUIView` and the SwiftUI modifier `row(_:of:)` call it. The four
/// lists share one implementation of everything but ``isLoadingPage`` (which each makes
/// observable its own way), through ``rowInteractions``.
@MainActor
public protocol ObservedRows: AnyObject {
    /// The type of the list's items.
    associatedtype Item: Sendable

    /// Whether the loading row shows: a page is loading, and the pagination shows a loading row.
    /// A body that reads it follows it.
    var isLoadingPage: Bool { get }

    /// The rows' pagination and selection, which this protocol's methods use.
    var rowInteractions: RowInteractions<Item> { get }
}

extension ObservedRows {
    /// Executed with the item of each row the user selects (``select(at:)``), when it can
    /// execute: a list source's `selectItem`.
    public var selectItem: CommandWithParameter<Item>? {
        get { rowInteractions.selectItem }
        set { rowInteractions.selectItem = newValue }
    }

    /// Loads pages as rows appear, until a run returns ``PageLoad/lastPage``, with the model and
    /// rules of a list source's `paginate(with:threshold:showsLoadingRow:)` (docs/sources.md,
    /// "Pagination"): a row that appears (``rowAppeared(at:)``) within `threshold` of the end,
    /// counted across sections, asks for the next page; an empty list loads its first page at
    /// once; a list that shrinks below its size at the last page (a refresh) resumes. While a load
    /// the pagination started runs, ``isLoadingPage`` is `true` for the loading row. Calling it
    /// again replaces the earlier pagination.
    ///
    /// - Parameters:
    ///   - command: Loads the next page, adds it to the collection, and says whether more follow.
    ///   - threshold: How close to the end, in rows, an appearing row triggers the load.
    ///   - showsLoadingRow: Whether ``isLoadingPage`` turns `true` while a page loads.
    public func paginate(
        with command: CommandWithResult<Void, PageLoad>, threshold: Int = 5, showsLoadingRow: Bool = true
    ) {
        rowInteractions.paginate(with: command, threshold: threshold, showsLoadingRow: showsLoadingRow)
    }

    /// Tells the list that the row at `path` appeared (SwiftUI's `onAppear`): a row within the
    /// pagination's threshold of the end loads the next page.
    ///
    /// - Parameter path: The row's path; section 0 in a flat list.
    public func rowAppeared(at path: ElementPath) { rowInteractions.rowAppeared(at: path) }

    /// The path of the row at `offset`, counting the rows of every section in order (a flat
    /// list's offsets are its items'), or `nil` past the last row. The loading row is not counted.
    ///
    /// - Parameter offset: The row's offset across sections.
    /// - Complexity: O(*s*) in the sections.
    public func path(ofRow offset: Int) -> ElementPath? { rowInteractions.path(offset) }

    /// Selects the row at `path`, as a tap does: its presenter hears `didSelectCell()` when it is a
    /// ``SelectableCellPresenter``, then the list's `selectItem` command executes with it when it
    /// can. A path that names no row does nothing.
    ///
    /// - Parameter path: The row's path; section 0 in a flat list.
    public func select(at path: ElementPath) { rowInteractions.select(at: path) }

    /// Whether a page run the pagination started has not ended yet, as the main queue has heard:
    /// what RippleTesting waits for.
    package var isPaginating: Bool { rowInteractions.isLoadingPageRun }
}

/// The pagination and selection of an observed list's rows, shared by the four observed lists
/// (``ObservedRows/rowInteractions``): use them through ``ObservedRows``' methods. Its owner tells
/// it about changes of the elements and hears when the loading row shows or hides.
@MainActor
public final class RowInteractions<Item: Sendable> {
    /// Executed with the item of each selected row, when it can execute.
    var selectItem: CommandWithParameter<Item>?
    private var pagination: Pagination?
    /// Whether the loading row shows.
    private(set) var isLoadingPage = false
    /// The item at a path, or `nil` for a path that names none.
    private let item: (ElementPath) -> Item?
    /// The position of a path counted across sections, or `nil` for a path that names no row.
    private let position: (ElementPath) -> Int?
    /// The path of a position counted across sections, or `nil` past the last row.
    let path: (_ offset: Int) -> ElementPath?
    /// The number of items.
    private let itemCount: () -> Int
    /// Changes ``isLoadingPage`` inside the owner's observation (Observation's `withMutation`, or
    /// `objectWillChange`).
    var loadingRowChanged: (_ change: () -> Void) -> Void = { $0() }
    private let ownerName: String

    init(
        ownerName: String, item: @escaping (ElementPath) -> Item?, position: @escaping (ElementPath) -> Int?,
        path: @escaping (_ offset: Int) -> ElementPath?, itemCount: @escaping () -> Int
    ) {
        self.ownerName = ownerName
        self.item = item
        self.position = position
        self.path = path
        self.itemCount = itemCount
    }

    /// Starts paginating with `command`, replacing any earlier pagination; an empty list loads its
    /// first page at once.
    func paginate(with command: CommandWithResult<Void, PageLoad>, threshold: Int, showsLoadingRow: Bool) {
        pagination?.stop()
        let itemCount = itemCount
        let pagination = Pagination(
            following: command, threshold: threshold, showsLoadingRow: showsLoadingRow,
            ownerName: ownerName, itemCount: itemCount,
            showLoadingRow: { [weak self] shown in self?.setLoadingPage(shown) })
        self.pagination = pagination
        pagination.rendered()
    }

    /// Stops paginating.
    func stopPaginating() {
        pagination?.stop()
        pagination = nil
        setLoadingPage(false)
    }

    /// Whether a page run the pagination started has not ended yet, as the main queue has heard.
    var isLoadingPageRun: Bool { pagination?.isLoading ?? false }

    /// The elements changed.
    func rendered() { pagination?.rendered() }

    func rowAppeared(at path: ElementPath) {
        guard let pagination, let position = position(path) else { return }
        pagination.rowDisplayed(at: position, isLoadingRow: false)
    }

    func select(at path: ElementPath) {
        guard let item = item(path) else { return }
        (item as? any SelectableCellPresenter)?.didSelectCell()
        if let selectItem, selectItem.canExecute(parameter: item) { selectItem.execute(parameter: item) }
    }

    private func setLoadingPage(_ shown: Bool) {
        guard shown != isLoadingPage else { return }
        loadingRowChanged { isLoadingPage = shown }
    }
}

extension RowInteractions {
    /// The interactions of a flat list whose elements `elements` returns.
    convenience init(ownerName: String, elements: @escaping () -> ListSnapshot<Item>) {
        self.init(
            ownerName: ownerName,
            item: { path in
                let items = elements()
                return path.section == 0 && path.item >= 0 && path.item < items.count ? items[path.item] : nil
            },
            position: { path in path.section == 0 && path.item >= 0 && path.item < elements().count ? path.item : nil },
            path: { offset in offset >= 0 && offset < elements().count ? ElementPath(item: offset, section: 0) : nil },
            itemCount: { elements().count })
    }

    /// The interactions of a sectioned list whose sections `sections` returns.
    convenience init<Section>(ownerName: String, sections: @escaping () -> [SectionSnapshot<Section, Item>]) {
        func contains(_ path: ElementPath, in sections: [SectionSnapshot<Section, Item>]) -> Bool {
            path.section >= 0 && path.section < sections.count && path.item >= 0
                && path.item < sections[path.section].items.count
        }
        self.init(
            ownerName: ownerName,
            item: { path in
                let all = sections()
                return contains(path, in: all) ? all[path.section].items[path.item] : nil
            },
            position: { path in
                let all = sections()
                guard contains(path, in: all) else { return nil }
                return all[..<path.section].reduce(0) { $0 + $1.items.count } + path.item
            },
            path: { offset in
                guard offset >= 0 else { return nil }
                var rest = offset
                for (section, snapshot) in sections().enumerated() {
                    if rest < snapshot.items.count { return ElementPath(item: rest, section: section) }
                    rest -= snapshot.items.count
                }
                return nil
            },
            itemCount: { sections().reduce(0) { $0 + $1.items.count } })
    }
}

/// A row of a flat observed list: its element and its path, for `ForEach(list.rows) { row in … }`,
/// so that the row's view can report its appearance and taps (`row(_:of:)`).
public struct ListRow<Element> {
    /// The row's element.
    public let element: Element
    /// The row's path: section 0, item its offset.
    public let path: ElementPath
}

extension ListRow: Identifiable where Element: Identifiable {
    /// The element's `id`, so that SwiftUI follows the element, not the position.
    public var id: Element.ID { element.id }
}

extension ListRow: Sendable where Element: Sendable {}

/// The rows of a list snapshot, each with its path: a random-access view, made in O(1).
public struct ListRows<Element>: RandomAccessCollection {
    /// The elements.
    public let elements: ListSnapshot<Element>
    /// The section the rows are in.
    public let section: Int

    /// The first row's offset: 0.
    public var startIndex: Int { 0 }
    /// The number of rows.
    public var endIndex: Int { elements.count }

    /// The row at `position`.
    ///
    /// - Parameter position: A valid offset.
    /// - Complexity: O(log *n*), as reading the element.
    public subscript(position: Int) -> ListRow<Element> {
        ListRow(element: elements[position], path: ElementPath(item: position, section: section))
    }
}

extension ListRows: Sendable where Element: Sendable {}

extension SectionSnapshot {
    /// The section's items, each with its path, for `ForEach(section.rows(inSection: s)) { … }`.
    ///
    /// - Parameter section: The section's offset in the list.
    /// - Returns: The rows, made in O(1).
    public func rows(inSection section: Int) -> ListRows<Item> { ListRows(elements: items, section: section) }
}
