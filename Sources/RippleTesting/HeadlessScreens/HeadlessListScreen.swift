import Dispatch
import Ripple
import RippleDiff
import XCTest

/// What the four headless screens share: the list source under test, the cells on screen, the
/// commands the screen waits for, and `settle(awaiting:awaitingRuns:timeout:fileID:file:line:column:)`.
///
/// Use it through ``HeadlessTableScreen``, ``HeadlessTableScreenWithSection``,
/// ``HeadlessCollectionScreen`` and ``HeadlessCollectionScreenWithSection``, which add the view.
///
/// # Settling
/// A screen is settled when:
/// - the main queue has run everything queued on it, and the deliveries that queued in turn;
/// - the source has rendered the collection's latest version;
/// - no command run that the screen drives is still going on: the source's `selectItem` command,
///   its pagination (`ListSourceBase.isLoadingPage`), and every command the test
///   ``track(_:as:)``s or awaits.
///
/// `settle(awaiting:awaitingRuns:timeout:fileID:file:line:column:)` waits for that, laying the
/// cells out as it goes (a layout can start a page load, as on a device); past its timeout it
/// records a failure that names what was still going on: a Swift Testing issue in a Swift Testing
/// test, an XCTest failure otherwise. A test that steps a `TestScheduler` itself, and wants to look
/// at the screen while a run waits on it, passes `awaitingRuns: false`.
///
/// # Cells
/// The screen gives the host's loading row a ``HeadlessLoadingCell`` when no cell class is
/// registered for the source's `loadingCellIdentifier`, so a paginated screen needs no `"Loading"`
/// registration.
@MainActor
public class HeadlessListScreen<Source: ListDataSource> {
    /// The source under test.
    public let source: Source

    /// The cells on screen: register cell classes here, scroll and tap.
    public let cells: HeadlessCellHost<Source>

    private let probe: _ScreenProbe
    private var tracked: [_TrackedCommand] = []
    /// Routes a type of item, and a condition, to a reuse identifier in the source.
    private let route: (Any.Type, ((Any) -> Bool)?, String) -> Void
    /// Traps when no row of the source can have an item type (the source's `checkRegistration`).
    private let check: (_ cell: Any.Type, _ itemType: Any.Type, _ method: String) -> Void

    /// Makes the screen around a source that drives `view`, which reads its rows through `link`.
    init<Item, Rendered>(
        source: Source, link: _SourceLink<Item>, view: any ListView, visibleRowCount: Int,
        collectionVersion: @escaping @Sendable () -> Int
    ) where Source: ListSourceBase<Item, Rendered> {
        self.source = source
        route = { [weak source] type, condition, identifier in
            source?.route(itemsOf: type, where: condition, toCellsWith: identifier)
        }
        check = { [weak source] cell, itemType, method in
            source?.checkRegistration(of: cell, for: itemType, in: method)
        }
        link.counts = { [weak source] in
            source.map { source in (0..<source.numberOfSections).map(source.numberOfItems(inSection:)) } ?? []
        }
        link.row = { [weak source] path in
            guard let source, !source.isLoadingRow(path) else { return nil }
            return source.element(at: path)
        }
        let probe = _ScreenProbe(source: source, collectionVersion: collectionVersion)
        self.probe = probe
        cells = HeadlessCellHost(source: source, view: view, visibleRowCount: visibleRowCount)
        cells.fallbackCellClass = { [probe] identifier in
            identifier == probe.loadingCellIdentifier() ? HeadlessLoadingCell<Source.Item>.self : nil
        }
    }

    // MARK: - Cells

    /// Registers `cellClass` with the screen's cells, and shows in it every row (that meets
    /// `condition`): the headless form of the UIKit glue's `source.register(_:where:)`, with the
    /// same shape and the same check. The cell's item type is the list's element type, which the
    /// compiler checks; in a heterogeneous list, name the type with `register(_:for:where:)`.
    ///
    /// <!-- swift
    /// struct Book: Sendable { var isNew: Bool }
    /// let screen = HeadlessTableScreen(collection: ObservableCollection<Book>())
    /// -->
    /// ```swift
    /// final class BookCell: HeadlessCell<Book> {}
    /// final class NewBookCell: HeadlessCell<Book> {}
    /// screen.register(BookCell.self)
    /// screen.register(NewBookCell.self, where: { $0.isNew })
    /// ```
    ///
    /// The screen lays out the rows on screen whenever it settles, as UIKit does: a row that no
    /// registration covers traps there, as it would on a device.
    ///
    /// - Parameters:
    ///   - cellClass: The cell class; its reuse identifier is its type name.
    ///   - condition: Which rows it shows; `nil` (the default) for all. Conditional registrations
    ///     are tried in the order made, before the one without a condition.
    public func register<Cell: HeadlessReusableView & PresentingCell>(
        _ cellClass: Cell.Type, where condition: ((Source.Item) -> Bool)? = nil
    ) where Cell.Item == Source.Item {
        register(cellClass, routing: Source.Item.self, where: condition.map(CellRoute.erase))
    }

    /// Registers `cellClass` with the screen's cells, and shows in it the rows whose item is of
    /// type `itemType` and meets `condition`: the headless form of the UIKit glue's
    /// `source.register(_:for:where:)`, with the same check. In a heterogeneous list, a cell typed
    /// on one presenter shows that presenter's rows.
    ///
    /// <!-- swift
    /// protocol CountryRow: Sendable {}
    /// protocol CountryCellView: Viewable {}
    /// final class CountryCellPresenter: Presenter<any CountryCellView>, CountryRow {
    ///     var isFeatured: Bool { false }
    /// }
    /// let countries = HeadlessTableScreen(collection: ObservableCollection<any CountryRow>())
    /// -->
    /// ```swift
    /// final class CountryCell: HeadlessCell<CountryCellPresenter>, CountryCellView {}
    /// final class FeaturedCountryCell: HeadlessCell<CountryCellPresenter>, CountryCellView {}
    /// countries.register(CountryCell.self, for: CountryCellPresenter.self)   // rows are `any CountryRow`
    /// countries.register(FeaturedCountryCell.self, for: CountryCellPresenter.self, where: { $0.isFeatured })
    /// ```
    ///
    /// - Parameters:
    ///   - cellClass: The cell class; its reuse identifier is its type name.
    ///   - itemType: The type of the items it shows: the cell's own item type, or a subclass of
    ///     it. An item's exact dynamic type is looked up, then the source's `Item`.
    ///   - condition: Which of those items it shows; `nil` (the default) for all.
    /// - Precondition: A row's item can have the type `itemType`: the list's element type, a
    ///   subclass of a class element type, or a concrete type behind an existential one. Otherwise
    ///   the registration would never be used, and it traps, naming both types.
    public func register<Cell: HeadlessReusableView & PresentingCell>(
        _ cellClass: Cell.Type, for itemType: Cell.Item.Type, where condition: ((Cell.Item) -> Bool)? = nil
    ) {
        check(cellClass, itemType, "register(_:for:where:)")
        register(cellClass, routing: itemType, where: condition.map(CellRoute.erase))
    }

    // MARK: - Headers and footers

    /// Registers `viewClass` with the screen's cells, as the header of every section (that meets
    /// `condition`): the headless form of the UIKit glue's `source.register(header:where:)`, with
    /// the same shape and the same check. The view's item type is the section type, which the
    /// compiler checks.
    ///
    /// <!-- swift
    /// struct Shelf: Sendable { var isEmpty: Bool }
    /// struct ShelvedBook: Sendable {}
    /// let shelves = HeadlessTableScreenWithSection(collection: SectionedCollection<Shelf, ShelvedBook>())
    /// -->
    /// ```swift
    /// final class ShelfHeader: HeadlessCell<Shelf> {}
    /// final class EmptyShelfFooter: HeadlessCell<Shelf> {}
    /// shelves.register(header: ShelfHeader.self)
    /// shelves.register(footer: EmptyShelfFooter.self, where: { $0.isEmpty })
    /// ```
    ///
    /// - Parameters:
    ///   - viewClass: The view class; its reuse identifier is its type name.
    ///   - condition: Which sections have it; `nil` (the default) for all. Conditional
    ///     registrations are tried in the order made, before the one without a condition; a
    ///     section none covers has no header.
    public func register<View: HeadlessReusableView & PresentingCell, Item>(
        header viewClass: View.Type, where condition: ((View.Item) -> Bool)? = nil
    ) where Source: ListSourceWithSection<View.Item, Item> {
        register(viewClass, as: .header, routing: View.Item.self, where: condition.map(CellRoute.erase))
    }

    /// Registers `viewClass` with the screen's cells, as the header of the sections whose value is
    /// of type `sectionType` and meets `condition`: the headless form of the UIKit glue's
    /// `source.register(header:for:where:)`, with the same check.
    ///
    /// - Parameters:
    ///   - viewClass: The view class; its reuse identifier is its type name.
    ///   - sectionType: The type of the section values it shows: the view's own item type, or a
    ///     subclass of it. A value's exact dynamic type is looked up, then the section type.
    ///   - condition: Which of those sections have it; `nil` (the default) for all.
    /// - Precondition: A section's value can have the type `sectionType`. Otherwise the view
    ///   would never show, and it traps, naming both types.
    public func register<View: HeadlessReusableView & PresentingCell, Section, Item>(
        header viewClass: View.Type, for sectionType: View.Item.Type, where condition: ((View.Item) -> Bool)? = nil
    ) where Source: ListSourceWithSection<Section, Item> {
        source.checkRegistration(ofSupplementary: viewClass, for: sectionType, in: "register(header:for:where:)")
        register(viewClass, as: .header, routing: sectionType, where: condition.map(CellRoute.erase))
    }

    /// Registers `viewClass` with the screen's cells, as the footer of every section (that meets
    /// `condition`), as `register(header:where:)` does for headers.
    ///
    /// - Parameters:
    ///   - viewClass: The view class; its reuse identifier is its type name.
    ///   - condition: Which sections have it; `nil` (the default) for all.
    public func register<View: HeadlessReusableView & PresentingCell, Item>(
        footer viewClass: View.Type, where condition: ((View.Item) -> Bool)? = nil
    ) where Source: ListSourceWithSection<View.Item, Item> {
        register(viewClass, as: .footer, routing: View.Item.self, where: condition.map(CellRoute.erase))
    }

    /// Registers `viewClass` with the screen's cells, as the footer of the sections whose value is
    /// of type `sectionType` and meets `condition`, as `register(header:for:where:)` does for
    /// headers.
    ///
    /// - Parameters:
    ///   - viewClass: The view class; its reuse identifier is its type name.
    ///   - sectionType: The type of the section values it shows.
    ///   - condition: Which of those sections have it; `nil` (the default) for all.
    /// - Precondition: A section's value can have the type `sectionType` (see the header form).
    public func register<View: HeadlessReusableView & PresentingCell, Section, Item>(
        footer viewClass: View.Type, for sectionType: View.Item.Type, where condition: ((View.Item) -> Bool)? = nil
    ) where Source: ListSourceWithSection<Section, Item> {
        source.checkRegistration(ofSupplementary: viewClass, for: sectionType, in: "register(footer:for:where:)")
        register(viewClass, as: .footer, routing: sectionType, where: condition.map(CellRoute.erase))
    }

    /// Routes the sections of `sectionType` to `viewClass` and registers it with the cells.
    private func register<Section, Item>(
        _ viewClass: HeadlessReusableView.Type, as kind: SupplementaryKind, routing sectionType: Any.Type,
        where condition: ((Any) -> Bool)?
    ) where Source: ListSourceWithSection<Section, Item> {
        let identifier = String(reflecting: viewClass)
        source.route(kind, ofSectionsOf: sectionType, where: condition, toViewsWith: identifier)
        cells.register(viewClass, forSupplementaryViewWithReuseIdentifier: identifier)
    }

    /// Routes the rows of `itemType` to `cellClass` and registers it with the cells.
    private func register(
        _ cellClass: HeadlessReusableView.Type, routing itemType: Any.Type, where condition: ((Any) -> Bool)?
    ) {
        let identifier = String(reflecting: cellClass)
        route(itemType, condition, identifier)
        cells.register(cellClass, forCellReuseIdentifier: identifier)
    }

    // MARK: - Commands

    /// Makes `settle(awaiting:awaitingRuns:timeout:fileID:file:line:column:)` wait, from now on, until
    /// `command` is not executing: a presenter's refresh or save that the test starts through a
    /// view double, say.
    ///
    /// The screen holds the command weakly.
    ///
    /// - Parameters:
    ///   - command: The command.
    ///   - name: What a settle failure calls it; its type by default.
    public func track(_ command: some CommandType, as name: String? = nil) {
        tracked.append(_TrackedCommand(command, name: name ?? "the tracked \(Swift.type(of: command))"))
    }

    /// What keeps the screen from being settled now, one phrase per reason; empty when the source
    /// has rendered its collection's latest version and no command the screen drives is executing.
    ///
    /// It does not look at the main queue: `settle(awaiting:awaitingRuns:timeout:fileID:file:line:column:)`
    /// drains it too.
    public var unsettledWork: [String] { unsettledWork(awaiting: []) }

    private func unsettledWork(awaiting awaited: [_TrackedCommand], runs: Bool = true) -> [String] {
        var work: [String] = []
        if let unrendered = probe.unrendered() { work.append(unrendered) }
        guard runs else { return work }
        return work + runsGoingOn(awaiting: awaited)
    }

    /// The command runs that keep the screen from being settled, one phrase each.
    private func runsGoingOn(awaiting awaited: [_TrackedCommand]) -> [String] {
        var work: [String] = []
        if probe.isLoadingPage() {
            work.append(
                "the pagination is loading a page (its command executes, or its run's end is not delivered yet)")
        }
        if let selectItem = probe.selectItem(), selectItem.isExecuting {
            work.append("the source's selectItem command (\(Swift.type(of: selectItem))) is executing")
        }
        for command in tracked + awaited where command.isExecuting() {
            work.append("\(command.name) is executing")
        }
        return work
    }

    // MARK: - Settling

    /// Waits until the screen is settled (see ``HeadlessListScreen``): the main queue drained, the
    /// collection rendered, and no run of the source's `selectItem` command, of its pagination, of
    /// a tracked command or of `commands` going on; the rows on screen are laid out after each turn
    /// of the main queue, registrations or not, as UIKit lays them out (a row no registration
    /// covers traps there).
    ///
    /// Call it on the main thread, from a synchronous test (an XCTest test, or a `@MainActor`
    /// Swift Testing `@Test`); an `async` test calls the `async` variant, which lets the main
    /// queue run while it waits.
    ///
    /// This is the one way to wait for a screen. `awaitingRuns: false` waits for the rendering
    /// only, and leaves command runs going: for a test that steps a `TestScheduler` and looks at
    /// the screen while a run waits on it (the loading row). A test with no screen waits for the
    /// main queue with `waitForMainQueue()`.
    ///
    /// - Parameters:
    ///   - commands: More commands to wait for, this time: `screen.settle(awaiting: presenter.refresh)`.
    ///   - awaitingRuns: Whether to wait for command runs as well as the rendering; `true` by
    ///     default.
    ///   - timeout: How long to wait, in seconds. Past it, a failure (a Swift Testing issue in a
    ///     Swift Testing test, an XCTest failure otherwise) names what was still going on.
    ///   - fileID: The file to report a failure in, for Swift Testing.
    ///   - file: The file to report a failure in (its path).
    ///   - line: The line to report a failure at.
    ///   - column: The column to report a failure at, for Swift Testing.
    public func settle(
        awaiting commands: any CommandType..., awaitingRuns: Bool = true, timeout: Double = 30,
        fileID: String = #fileID, file: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        let awaited = commands.map { _TrackedCommand($0, name: "the awaited \(Swift.type(of: $0))") }
        let deadline = _Deadline(seconds: timeout)
        let signal = awaitingRuns ? _SettleSignal(following: commandsToFollow(awaited)) : nil
        var work = unsettledWork(awaiting: awaited, runs: awaitingRuns)
        // Settled after a turn of the main queue that leaves nothing going on and none of Ripple's
        // deliveries on its way (what a turn's deliveries queue in turn is counted in transit); a
        // run the screen waits for wakes it when its state changes.
        repeat {
            if let signal, !runsGoingOn(awaiting: awaited).isEmpty {
                signal.waitRunningTheMainQueue(upTo: deadline.remainingSeconds)
            }
            guard _runMainQueue(timeout: max(deadline.remainingSeconds, 1)) else {
                return reportUnsettled(
                    ["the main queue did not drain"] + work, timeout: timeout, fileID: fileID, file: file, line: line,
                    column: column)
            }
            layOut()
            work = unsettledWork(awaiting: awaited, runs: awaitingRuns)
            if !work.isEmpty && deadline.hasPassed {
                return reportUnsettled(work, timeout: timeout, fileID: fileID, file: file, line: line, column: column)
            }
        } while !work.isEmpty || MainQueueDeliveries.inTransit > 0
    }

    /// Suspends until the screen is settled (see ``HeadlessListScreen``): the `async` form of
    /// `settle(awaiting:awaitingRuns:timeout:fileID:file:line:column:)`, for `@MainActor` async tests. The main
    /// queue runs while it waits.
    ///
    /// - Parameters:
    ///   - commands: More commands to wait for, this time.
    ///   - awaitingRuns: Whether to wait for command runs as well as the rendering; `true` by
    ///     default.
    ///   - timeout: How long to wait, in seconds. Past it, a failure (a Swift Testing issue in a
    ///     Swift Testing test, an XCTest failure otherwise) names what was still going on.
    ///   - fileID: The file to report a failure in, for Swift Testing.
    ///   - file: The file to report a failure in (its path).
    ///   - line: The line to report a failure at.
    ///   - column: The column to report a failure at, for Swift Testing.
    public func settle(
        awaiting commands: any CommandType..., awaitingRuns: Bool = true, timeout: Double = 30,
        fileID: String = #fileID, file: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        let awaited = commands.map { _TrackedCommand($0, name: "the awaited \(Swift.type(of: $0))") }
        let deadline = _Deadline(seconds: timeout)
        let signal = awaitingRuns ? _SettleSignal(following: commandsToFollow(awaited)) : nil
        var work: [String]
        repeat {
            if let signal, !runsGoingOn(awaiting: awaited).isEmpty {
                await signal.wait(upTo: deadline.remainingSeconds)
            }
            await waitForMainQueue()
            layOut()
            work = unsettledWork(awaiting: awaited, runs: awaitingRuns)
            if !work.isEmpty && deadline.hasPassed {
                return reportUnsettled(work, timeout: timeout, fileID: fileID, file: file, line: line, column: column)
            }
        } while !work.isEmpty || MainQueueDeliveries.inTransit > 0
    }

    /// The commands whose runs a settle waits for: the source's pagination and `selectItem`, the
    /// tracked commands and `awaited`.
    private func commandsToFollow(_ awaited: [_TrackedCommand]) -> [any CommandType] {
        ([probe.paginationCommand(), probe.selectItem()] + (tracked + awaited).map { $0.command() }).compactMap { $0 }
    }

    /// Lays out the rows on screen, as UIKit does after a reload or a batch, registrations or not:
    /// a row no registration covers traps here, as on a device.
    private func layOut() {
        cells.layout()
    }

    private func reportUnsettled(
        _ work: [String], timeout: Double, fileID: String, file: StaticString, line: UInt, column: UInt
    ) {
        let typeName = String(describing: Swift.type(of: self)).prefix { $0 != "<" }
        TestFailure(
            "\(typeName).settle(): not settled after \(timeout) s: \(work.joined(separator: "; "))",
            fileID: fileID, filePath: file, line: line, column: column
        ).record()
    }
}

/// What a screen asks of its list source and collection to know whether it is settled.
@MainActor
struct _ScreenProbe {
    /// Why the source has not rendered the collection's latest version, or `nil` when it has.
    var unrendered: () -> String?
    var isLoadingPage: () -> Bool
    var paginationCommand: () -> (any CommandType)?
    var selectItem: () -> (any CommandType)?
    var loadingCellIdentifier: () -> String

    init<Item, Rendered>(source: ListSourceBase<Item, Rendered>, collectionVersion: @escaping @Sendable () -> Int) {
        unrendered = { [weak source] in
            guard let source else { return nil }
            let version = collectionVersion()
            if source.lastReload == nil { return "the source has not rendered its collection yet (version \(version))" }
            if source.renderedVersion < version {
                return
                    "the source has rendered version \(source.renderedVersion) of its collection, which is at version \(version)"
            }
            return nil
        }
        isLoadingPage = { [weak source] in source?.isLoadingPage ?? false }
        paginationCommand = { [weak source] in source?.paginationCommand }
        selectItem = { [weak source] in source?.selectItem }
        loadingCellIdentifier = { [weak source] in source?.loadingCellIdentifier ?? "Loading" }
    }
}

/// A command a screen waits for, held weakly.
@MainActor
struct _TrackedCommand {
    let name: String
    let command: () -> (any CommandType)?

    init(_ command: some CommandType, name: String) {
        self.name = name
        self.command = { [weak command] in command }
    }

    /// Whether the command runs; `false` once it is gone.
    func isExecuting() -> Bool { command()?.isExecuting ?? false }
}

/// A point in time, `seconds` from its creation.
struct _Deadline {
    private let end: UInt64

    init(seconds: Double) {
        end = DispatchTime.now().uptimeNanoseconds &+ UInt64(max(0, seconds) * 1e9)
    }

    var hasPassed: Bool { DispatchTime.now().uptimeNanoseconds >= end }

    var remainingSeconds: Double {
        let now = DispatchTime.now().uptimeNanoseconds
        return now >= end ? 0 : Double(end - now) / 1e9
    }
}

/// Runs the main run loop until the main queue has run a block queued now, or `timeout` seconds
/// pass. Call it on the main thread.
///
/// - Returns: Whether the block ran.
func _runMainQueue(timeout: Double) -> Bool {
    let flushed = XCTestExpectation(description: "main queue flushed")
    DispatchQueue.main.async { flushed.fulfill() }
    return XCTWaiter().wait(for: [flushed], timeout: timeout) == .completed
}

/// How a headless view reads the rows of the source that drives it, which the screen makes after
/// the view; the source is held weakly, as a view holds its data source.
///
/// The view asks as UIKit does: the item counts, and the rows a batch inserts or reloads, each
/// with `nil` for the loading row. So a batch costs what it changes, whatever the number of rows.
@MainActor
final class _SourceLink<Item: Sendable> {
    /// The number of items in each section of the source.
    var counts: () -> [Int] = { [] }
    /// The source's row at a path, or `nil` for the loading row.
    var row: (ElementPath) -> Item? = { _ in nil }

    init() {}

    /// A read of the source, for the view's data-source closure, which is nonisolated.
    nonisolated func rows() -> _DataSourceRead<Item?> {
        // Safe: the view reads its data source only from its own reloadData, batches and layout,
        // which the screen's main-actor source (or the test, on the main actor) calls on the main
        // thread. A call from another thread traps here instead of racing on the source.
        _DataSourceRead(counts: MainActor.assumeIsolated { counts() }) { path in
            MainActor.assumeIsolated { self.row(path) }
        }
    }
}
