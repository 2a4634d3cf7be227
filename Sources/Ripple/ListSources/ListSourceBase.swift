import RippleDiff

/// What every list source shares: the view it drives, the rendering state and its fallbacks, the
/// data-source answers, pagination, and the selection and item-event hooks.
///
/// Use ``ListSource`` (flat) and ``ListSourceWithSection`` (sectioned), through their table and
/// collection faces; this base holds everything they have in common. The flat and sectioned
/// sources differ only in how they read their collection's events and where their items are.
///
/// # Thread Safety
/// A list source lives on the main actor, as its view does.
@MainActor
public class ListSourceBase<Item: Sendable, Rendered> {
    /// Renders the collection's events into the view.
    let renderer: ListRenderer<Rendered>
    /// The subscription to the collection.
    var token: SubscriptionToken?
    /// The platform's data-source and delegate object (UIKit and AppKit glue), kept alive by the
    /// source because the view holds it weakly.
    var platformAdapter: AnyObject?
    /// The pagination, once `paginate(with:threshold:showsLoadingRow:)` was called.
    var pagination: Pagination?

    /// The view the source drives, held weakly: a view that goes away ends the rendering.
    public var listView: (any ListView)? { renderer.view }

    /// The version of the last event rendered.
    public var renderedVersion: Int { renderer.renderedVersion }

    /// The largest change, counted as the change-set's `changeCount`, that the source animates;
    /// a larger one reloads the view. `nil` (the default) animates every change.
    public var reloadThreshold: Int? {
        get { renderer.reloadThreshold }
        set { renderer.reloadThreshold = newValue }
    }

    /// The most recent reload and its reason, or `nil` when every event so far was animated.
    public var lastReload: ListReloadReason? { renderer.lastReload }

    /// How many batches the source has run, and how many reloads.
    public var statistics: ListSourceStatistics { renderer.statistics }

    /// Executed with the item when an item is selected and the command can execute.
    public var selectItem: CommandWithParameter<Item>?

    /// Called with every item event, its item and its path.
    public var onItemEvent: ((ListItemEvent, Item, ElementPath) -> Void)?

    /// The cells registered per type of item, each with the condition its rows meet.
    private var cellRoutes = ViewRoutes()

    /// The pairs of cell and item types already reported as unable to show each other.
    private var reportedCellMismatches: Set<String> = []

    /// How the source shows a row whose element changed content but kept its identity:
    /// ``ListUpdateStyle/reconfigure`` (the default) configures its cell again in place after the
    /// batch, keeping the cell's state; ``ListUpdateStyle/reload`` reloads the row inside the batch,
    /// with a cross-fade and a cell from the reuse pool.
    public var updateStyle = ListUpdateStyle.reconfigure

    /// The reuse identifier of the loading row shown while a pagination command loads a page.
    public var loadingCellIdentifier = "Loading"

    /// Whether the user may drag items to reorder them (``moveItem(from:to:)``). `false` by
    /// default: a table in editing mode shows no reorder controls.
    public var allowsReordering = false

    /// The app's own delegate for the view, held weakly: it gets every delegate and data-source
    /// method that the source does not implement, and may override those it does.
    ///
    /// On UIKit and AppKit, the source's adapter is the view's delegate and data source, and
    /// forwards to this object:
    /// - a method the adapter does not implement (scroll callbacks, context menus, estimated
    ///   heights, editing, drag and drop…) goes to the app's delegate when it implements it;
    /// - a notification the adapter implements (`didSelectRowAt`, `willDisplay`, `moveRowAt`…)
    ///   runs the source's logic first, then the app's delegate's method;
    /// - a method that returns a value (a row height, an item size, a header view, swipe actions,
    ///   a move's target…) returns the app's delegate's answer when it implements it, the source's
    ///   otherwise;
    /// - the counts and the cells are the source's alone: they must match what it renders.
    ///
    /// The delegate must declare its conformance (`UITableViewDelegate`, …) for the last two
    /// rules. Setting it makes the source adopt its view again, because UIKit and AppKit read
    /// which methods a delegate implements only when it is assigned.
    public weak var delegate: AnyObject? {
        didSet {
            if delegate !== oldValue { adoptView() }
        }
    }

    init(renderer: ListRenderer<Rendered>, selectItem: CommandWithParameter<Item>?) {
        self.renderer = renderer
        self.selectItem = selectItem
    }

    /// Makes the source its view's data source and delegate (``ListView/adoptDataSource(_:)``).
    /// The subclasses, which are the data sources, override it.
    func adoptView() {}

    /// The item rendered at `path`, or `nil` when `path` names no rendered item (the loading row,
    /// or a late callback). The subclasses override it.
    ///
    /// - Parameter path: A path in the rendered list.
    func renderedItem(at path: ElementPath) -> Item? { nil }

    /// The rendered data with the item at `source` moved to `destination`, both valid. The
    /// subclasses override it.
    func renderedData(movingItemFrom source: ElementPath, to destination: ElementPath) -> Rendered? { nil }

    /// Moves the item in the collection, if the collection is at the rendered version (no change
    /// on its way that would make the paths name other items). The subclasses override it.
    ///
    /// - Returns: Whether the collection moved the item.
    func moveInCollection(from source: ElementPath, to destination: ElementPath) -> Bool { false }

    /// Called after each event is rendered: stops when the view is gone, and lets the pagination
    /// look at the new list (it resumes after a shrink, and loads an empty list's first page).
    ///
    /// - Parameter alive: What the renderer returned: `false` once the view is gone.
    func didRender(alive: Bool) {
        if !alive { return stop() }
        paginateAfterRendering()
    }

    /// Stops rendering: the source unsubscribes from its collection and from its pagination
    /// command. The view keeps what it shows.
    public func stop() {
        token?.cancel()
        token = nil
        pagination?.stop()
        pagination = nil
    }

    // MARK: - Data source

    /// The number of sections to show: 1 for a flat list, the rendered sections for a sectioned
    /// one.
    public var numberOfSections: Int { renderer.renderedCounts.count }

    /// The number of rows to show in a section: its rendered items, plus the loading row at the
    /// end of the last section while a page loads.
    ///
    /// - Parameter section: A section.
    /// - Returns: The number of rows, or 0 for a section that is not rendered.
    public func numberOfItems(inSection section: Int) -> Int {
        let counts = renderer.displayedCounts
        return section >= 0 && section < counts.count ? counts[section] : 0
    }

    /// The item shown at `path`.
    ///
    /// - Parameter path: A path that names a rendered item (not the loading row).
    /// - Returns: The rendered item.
    /// - Precondition: `path` names a rendered item.
    public func element(at path: ElementPath) -> Item {
        guard let item = renderedItem(at: path) else {
            let counts = renderer.renderedCounts
            let range =
                path.section >= 0 && path.section < counts.count
                ? "items 0..<\(counts[path.section]) in section \(path.section)"
                : "sections 0..<\(counts.count)"
            preconditionFailure("\(renderer.sourceName).element(at:): path \(path) is out of range: \(range)")
        }
        return item
    }

    /// Whether `path` is the loading row.
    ///
    /// - Parameter path: A path on screen.
    public func isLoadingRow(_ path: ElementPath) -> Bool {
        renderer.loadingRowPath == path
    }

    /// Shows the rows whose item is of type `itemType` (and meets `condition`, when given) in the
    /// cells registered with the reuse identifier `identifier`. The platform glue's
    /// `register(_:for:where:)` and RippleTesting's screens call it with the cell class's name,
    /// after registering the class with the view: that typed registration is the one way to map
    /// rows to cells.
    ///
    /// - Parameters:
    ///   - itemType: The type of the items: an item's exact dynamic type is looked up, then the
    ///     source's own `Item` type, so registering for `Item` itself covers every row.
    ///   - condition: Which of those items; `nil` for all. Conditional registrations are tried in
    ///     the order made, before the one without a condition. Registering again for the same type
    ///     without a condition replaces that one.
    ///   - identifier: The reuse identifier the cell class is registered with.
    /// - Complexity: O(*r*) in the registrations for `itemType`.
    package func route(itemsOf itemType: Any.Type, where condition: ((Any) -> Bool)?, toCellsWith identifier: String) {
        cellRoutes.route(valuesOf: itemType, where: condition, to: identifier)
    }

    /// Traps when no row of this source can ever have the type `itemType`, so that a registration
    /// for it would never be used: the check of `register(_:for:where:)` that Swift's types cannot
    /// make (the short form `register(_:where:)` is checked at compile time).
    ///
    /// A row's registration is looked up by its item's dynamic type, then by `Item`. So
    /// `itemType` must be `Item` itself, or a type a row's item can have at run time: a subclass
    /// of a class `Item`, a class for `AnyObject`, any concrete type for `Any` or another
    /// existential (Swift cannot test a conformance to a protocol named by a generic parameter;
    /// an uncovered row then traps at its first layout).
    ///
    /// - Parameters:
    ///   - itemType: The type the cell is registered for.
    ///   - cellClass: The cell class, named in the message.
    ///   - method: The registering method, named in the message.
    package func checkRegistration(of cellClass: Any.Type, for itemType: Any.Type, in method: String) {
        ViewRoutes.checkRegistration(
            of: cellClass, for: itemType, declaredAs: Item.self, values: ("items", "row", "rows", "cell"),
            in: "\(renderer.sourceName).\(method)")
    }

    /// The reuse identifier of the cell for the row at `path`: the one registered for its item
    /// (`register(_:for:where:)`), or ``loadingCellIdentifier`` for the loading row.
    ///
    /// - Parameter path: A row on screen.
    /// - Precondition: A registration covers the row's item. A row none covers is a programmer
    ///   error: it traps here, at the row's first layout, with a message that names the source,
    ///   the item's type and `register(_:for:where:)`, before UIKit's own exception for an
    ///   identifier with no cell.
    public func cellIdentifier(at path: ElementPath) -> String {
        guard !isLoadingRow(path) else { return loadingCellIdentifier }
        let item = element(at: path)
        guard let identifier = registeredCellIdentifier(of: item) else {
            let itemType = Swift.type(of: item as Any)
            let remedy =
                itemType == Item.self
                ? "register a cell whose item type is \(String(describing: itemType)) with register(_:where:)"
                : "register one with register(_:for:where:) for \(String(describing: itemType)), or with "
                    + "register(_:where:) for every \(String(describing: Item.self))"
            preconditionFailure(
                "\(renderer.sourceName).cellIdentifier(at:): no cell is registered for the row at item \(path.item) of "
                    + "section \(path.section), whose item is of type \(String(describing: itemType)): \(remedy)")
        }
        return identifier
    }

    /// The reuse identifier of the cell for `item`: the first registration for its dynamic type
    /// whose condition it meets, else the first for the source's `Item` type, else `nil`.
    func registeredCellIdentifier(of item: Item) -> String? {
        cellRoutes.identifier(for: item)
    }

    /// Hands the row's item to a dequeued cell, or none for the loading row.
    ///
    /// The cell is any ``PresentingCell`` whose `Item` the row's item is, or casts to: in a
    /// heterogeneous list, a `TableViewCell<CountryCellPresenter>` shows the rows whose item is a
    /// `CountryCellPresenter`. A cell that cannot show the row's item (another presenter type, or
    /// a cell that is no ``PresentingCell``) is reported through ``Diagnostics`` as
    /// ``Diagnostic/Kind/cellTypeMismatch``, once per pair of cell and item types, naming the row,
    /// the item's type and the cell's type.
    ///
    /// - Parameters:
    ///   - cell: A cell dequeued with ``cellIdentifier(at:)``.
    ///   - path: The row it shows.
    public func configure(_ cell: AnyObject, at path: ElementPath) {
        let presenting = cell as? any PresentingCell
        if isLoadingRow(path) {
            presenting?.prepareItemForReuse()
            return
        }
        let item = element(at: path)
        place(item, at: path)
        if presenting?._show(anyItem: item) != true {
            reportCellMismatch(cell, showing: item, at: "row \(path)")
        }
    }

    /// Reports, once per pair of types, a cell or header that cannot show its item.
    func reportCellMismatch(_ cell: AnyObject, showing item: Any, at place: String) {
        let cellType = String(reflecting: Swift.type(of: cell))
        let itemType = String(reflecting: Swift.type(of: item))
        guard reportedCellMismatches.insert("\(cellType) \(itemType)").inserted else { return }
        let reason = cell is any PresentingCell ? "whose item type it is not" : "as it is no PresentingCell"
        Diagnostics.report(
            Diagnostic(
                kind: .cellTypeMismatch, source: renderer.sourceName,
                message:
                    "\(place): a cell of type \(cellType) cannot show an item of type \(itemType), \(reason); the row shows nothing. Register a cell typed on the item's type: register(_:for:)"
            ))
    }

    // MARK: - Delegate

    /// Forwards an item event with the item: to its presenter when it is a
    /// ``SelectableCellPresenter`` (selection and deselection), then to ``onItemEvent``; a
    /// selection then executes ``selectItem``, and a row about to be displayed near the end loads
    /// the next page.
    ///
    /// A path that no longer names a rendered item (a late callback) is ignored.
    ///
    /// - Parameters:
    ///   - event: What happened.
    ///   - path: The item's path in the rendered list.
    public func handle(_ event: ListItemEvent, at path: ElementPath) {
        if event == .willDisplay { loadMoreIfNeeded(displaying: path) }
        guard let item = renderedItem(at: path) else { return }
        tellPresenter(of: item, about: event)
        onItemEvent?(event, item, path)
        if event == .selected, let selectItem, selectItem.canExecute(parameter: item) {
            selectItem.execute(parameter: item)
        }
    }
}

/// Counters of what a list source did to its view.
public struct ListSourceStatistics: Sendable, Hashable {
    /// `performBatchUpdates` calls, one per stage.
    public var batches = 0
    /// `reloadData` calls.
    public var reloads = 0
    /// Moves the user made on screen whose event the source adopted without a batch.
    public var userMoves = 0

    /// Creates counters.
    ///
    /// - Parameters:
    ///   - batches: `performBatchUpdates` calls.
    ///   - reloads: `reloadData` calls.
    ///   - userMoves: Moves the user made on screen, adopted without a batch.
    public init(batches: Int = 0, reloads: Int = 0, userMoves: Int = 0) {
        self.batches = batches
        self.reloads = reloads
        self.userMoves = userMoves
    }
}

/// A cell class registered for a type of item: its reuse identifier, and the condition the item
/// must meet (`nil`: every item of the type).
package struct CellRoute {
    let identifier: String
    let condition: ((Any) -> Bool)?

    /// A typed condition, as one that takes any item: an item of another type does not meet it.
    package static func erase<Item>(_ condition: @escaping (Item) -> Bool) -> (Any) -> Bool {
        { ($0 as? Item).map(condition) ?? false }
    }
}
