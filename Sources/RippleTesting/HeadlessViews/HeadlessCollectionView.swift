import RippleDiff

/// A collection view without UIKit: it shows values from a data source, takes UIKit's batch
/// updates, and checks every batch against `UICollectionView`'s rules and wording, so a test on
/// Linux proves that the updates would not crash a real collection view.
///
/// It behaves like ``HeadlessTableView`` (see there for how batches are applied and violations
/// recorded), with three differences that follow `UICollectionView`:
/// - messages say "item", "items" and "collection view";
/// - ``reloadData()`` only marks the view as needing a reload; the data source is read at the next
///   layout: an accessor, ``layoutIfNeeded()``, or the start of the next batch. If the data source
///   changes before that batch starts, the view reads the new data as its before-state and the batch
///   fails (R14, deltachat-ios #1901);
/// - the operations are named `insertItems(at:)`, `deleteItems(at:)`, `reloadItems(at:)` and
///   `moveItem(at:to:)`.
///
/// ```swift
/// var items = [1, 2, 3]
/// let collectionView = HeadlessCollectionView { [items] }
/// collectionView.layoutIfNeeded()
/// collectionView.performBatchUpdates {
///     items.append(4)
///     collectionView.insertItems(at: [ElementPath(item: 3, section: 0)])
/// }
/// XCTAssertEqual(collectionView.items, [items])
/// ```
///
/// `UICollectionView` has no public `beginUpdates()`/`endUpdates()`; nest
/// ``performBatchUpdates(_:completion:)`` calls instead. ``beginUpdates()`` and ``endUpdates()``
/// exist here for code shared with table views.
///
/// # Thread Safety
/// Not `Sendable`. Use a view from one thread or actor, as UIKit requires the main thread.
public final class HeadlessCollectionView<Item> {
    let engine: _HeadlessListEngine<Item>

    /// Creates a collection view that reads its sections from a closure.
    ///
    /// - Parameters:
    ///   - countMismatchStyle: The message for a wrong number of items: classic M24 (the default)
    ///     or the newer multi-line M25.
    ///   - sections: Returns the values to show, one array per section. The view holds it strongly.
    public convenience init(
        countMismatchStyle: BatchUpdateValidator.CountMismatchStyle = .classic,
        sections: @escaping () -> [[Item]]
    ) {
        self.init(countMismatchStyle: countMismatchStyle, reading: { _DataSourceRead(sections: sections()) })
    }

    /// Creates a collection view that reads its data source a count and an item at a time, as
    /// UIKit's `numberOfItemsInSection` and `cellForItemAt` do: a batch then costs what it changes,
    /// not the number of items, and reads only the items it inserts or reloads.
    ///
    /// ```swift
    /// var titles = ["a", "b", "c"]
    /// let longGrid = HeadlessCollectionView(itemCounts: { [titles.count] }, item: { titles[$0.item] })
    /// longGrid.layoutIfNeeded()
    /// ```
    ///
    /// - Parameters:
    ///   - countMismatchStyle: The message for a wrong number of items: classic M24 (the default)
    ///     or the newer multi-line M25.
    ///   - itemCounts: Returns the number of items of each section now. The view holds it strongly.
    ///   - item: Returns the value of the item at a path now, within `itemCounts`. The view holds
    ///     it strongly.
    public convenience init(
        countMismatchStyle: BatchUpdateValidator.CountMismatchStyle = .classic,
        itemCounts: @escaping () -> [Int], item: @escaping (ElementPath) -> Item
    ) {
        self.init(countMismatchStyle: countMismatchStyle) { _DataSourceRead(counts: itemCounts(), element: item) }
    }

    /// Creates a collection view that reads its data source through `read`.
    init(
        countMismatchStyle: BatchUpdateValidator.CountMismatchStyle = .classic,
        reading read: @escaping () -> _DataSourceRead<Item>
    ) {
        engine = _HeadlessListEngine(
            typeName: "HeadlessCollectionView", reloadsLazily: true,
            validator: BatchUpdateValidator(flavor: .collectionView, countMismatchStyle: countMismatchStyle),
            readDataSource: read)
    }

    /// Creates a collection view that reads its sections from a data source, held weakly as UIKit
    /// does.
    ///
    /// - Parameters:
    ///   - dataSource: The data source. Once it is gone the view reads no section.
    ///   - countMismatchStyle: The message for a wrong number of items: classic M24 (the default)
    ///     or the newer multi-line M25.
    public convenience init(
        dataSource: some HeadlessViewDataSource<Item>,
        countMismatchStyle: BatchUpdateValidator.CountMismatchStyle = .classic
    ) {
        self.init(countMismatchStyle: countMismatchStyle) { [weak dataSource] in
            dataSource?.sectionsForHeadlessView() ?? []
        }
    }

    // MARK: - Configuration

    /// The message for a wrong number of items: classic M24 or the newer multi-line M25.
    public var countMismatchStyle: BatchUpdateValidator.CountMismatchStyle {
        get { engine.validator.countMismatchStyle }
        set { engine.validator.countMismatchStyle = newValue }
    }

    /// Called with each violation, after the view has recorded it and recovered.
    ///
    /// The handler may use the view. Real UIKit would raise `NSInternalInconsistencyException`
    /// with the violation's message instead.
    public var violationHandler: ((BatchUpdateViolation) -> Void)? {
        get { engine.violationHandler }
        set { engine.violationHandler = newValue }
    }

    /// Whether the view is in a window, as a list source asks before it animates. `true` unless a
    /// test sets it to `false` to play a view that is off screen.
    public var isInWindow = true

    // MARK: - Displayed state

    /// The items on screen, section by section. Reading it lays the view out if it needs a reload.
    ///
    /// Outside a batch this is also the before-state of the next batch. Inside a batch it still
    /// shows the state before the batch.
    public var items: [[Item]] { engine.sections }

    /// The number of sections on screen.
    public var numberOfSections: Int { engine.numberOfSections }

    /// The number of items on screen in a section.
    ///
    /// - Parameter section: A section on screen.
    /// - Returns: The number of items in `section`.
    /// - Precondition: `section` is in `0..<numberOfSections`.
    public func numberOfItems(inSection section: Int) -> Int {
        engine.numberOfItems(inSection: section, method: "numberOfItems(inSection:)")
    }

    /// The item on screen at a path, as `cellForItem(at:)` would configure it.
    ///
    /// - Parameter path: A path on screen.
    /// - Returns: The item's value.
    /// - Precondition: `path` names an item on screen.
    public func item(at path: ElementPath) -> Item {
        engine.element(at: path, method: "item(at:)", itemWord: "item")
    }

    // MARK: - Data source

    /// The list source that adopted the view as its data source and delegate, held weakly as UIKit
    /// holds a data source; `nil` before any did (or once it is gone).
    ///
    /// A Ripple list source adopts its view when it starts driving it, as it installs its adapter
    /// on a `UICollectionView`.
    public var adoptedSource: AnyObject? { engine.adoptedSource }

    /// How many times a list source adopted the view: once when it starts driving it, and once
    /// more each time its forwarding delegate changes (UIKit reads which methods a delegate
    /// implements only when it is assigned).
    public var adoptionCount: Int { engine.adoptionCount }

    // MARK: - Selection

    /// Whether several items may be selected at once, as `allowsMultipleSelection`. `false` by
    /// default: selecting a item deselects the others.
    public var allowsMultipleSelection: Bool {
        get { engine.allowsMultipleSelection }
        set { engine.allowsMultipleSelection = newValue }
    }

    /// The selected items' paths on screen, in order, as `indexPathsForSelectedItems`.
    ///
    /// Batches carry the selection along as `UICollectionView` does: a moved or kept item stays selected
    /// at its new path, a deleted or reloaded one leaves the selection; ``reloadData()`` and a
    /// rejected batch clear it. A ``HeadlessCellHost`` given this view selects and deselects
    /// items when it plays the user's taps.
    public var selectedPaths: [ElementPath] { engine.selectedPaths }

    /// Selects the item at `path`, deselecting the others unless ``allowsMultipleSelection``, as
    /// `selectItem(at:animated:scrollPosition:)` does: the data source hears nothing of it.
    ///
    /// - Parameter path: A item on screen.
    /// - Precondition: `path` is on screen.
    public func selectItem(at path: ElementPath) { engine.select(path, method: "selectItem(at:)") }

    /// Deselects the item at `path`, as `deselectItem(at:animated:)` does: the data source hears
    /// nothing of it.
    ///
    /// - Parameter path: A item on screen.
    /// - Precondition: `path` is on screen.
    public func deselectItem(at path: ElementPath) { engine.deselect(path, method: "deselectItem(at:)") }

    // MARK: - Gestures

    /// Plays the user dragging a item from `path` and dropping it at `newPath`: the item moves on
    /// screen at once, with no batch, as `UICollectionView` moves it before it calls its data source's
    /// `collectionView(_:moveItemAt:to:)`. Call the list source's `moveItem(from:to:)` next, as UIKit does.
    ///
    /// - Parameters:
    ///   - path: The item's path on screen.
    ///   - newPath: Where it is dropped: in its own section an index below the section's count, in
    ///     another section an index up to that section's count.
    /// - Precondition: No batch is open, and both paths are on screen.
    public func dragItem(at path: ElementPath, to newPath: ElementPath) {
        engine.moveInteractively(from: path, to: newPath, method: "dragItem(at:to:)")
    }

    // MARK: - Diagnostics

    /// Every violation so far, oldest first: rejected batches and misuse.
    public var violations: [BatchUpdateViolation] { engine.violations }

    /// The most recent violation, or `nil`.
    public var lastViolation: BatchUpdateViolation? { engine.violations.last }

    /// Every warning of the batches so far, oldest first (R3f, R13).
    public var warnings: [BatchUpdateWarning] { engine.warnings }

    /// What the view did, oldest first: reloads, batches with their results, misuse.
    public var events: [HeadlessViewEvent] { engine.events }

    /// Forgets ``violations``, ``warnings`` and ``events``.
    public func clearDiagnostics() { engine.clearDiagnostics() }

    /// Whether a batch is open (between the outermost begin and end), like
    /// `UICollectionView.hasUncommittedUpdates`.
    public var hasUncommittedUpdates: Bool { engine.depth > 0 }

    // MARK: - Reloading

    /// Marks the view as needing a reload; the data source is read at the next layout.
    ///
    /// Inside a batch, UIKit forbids it (R15): the view records a misuse, abandons the batch and
    /// reloads when the batch ends.
    public func reloadData() { engine.reloadData() }

    /// Reads the data source if the view needs a reload, as a layout pass does.
    public func layoutIfNeeded() { engine.loadIfNeeded() }

    // MARK: - Batches

    /// Opens a batch, or a nested batch inside an open one. Nested batches merge into the
    /// outermost one (R2). A view that needs a reload reads its data source here (R14).
    public func beginUpdates() { engine.beginUpdates() }

    /// Closes a batch. Closing the outermost batch reads the data source, validates the batch and
    /// applies it, or records the violation and recovers.
    ///
    /// - Complexity: O(*n* + *k* log *k*) for *n* items and *k* operations.
    public func endUpdates() { engine.endUpdates() }

    /// Runs `updates` as one batch, nested inside an open batch if there is one.
    ///
    /// Update the data source inside `updates`, not before (R14).
    ///
    /// - Parameters:
    ///   - updates: Updates the data source and calls the insert, delete, move and reload methods.
    ///   - completion: Called when the outermost batch ends: `true` when it was applied, `false`
    ///     when it was rejected or abandoned.
    public func performBatchUpdates(_ updates: (() -> Void)?, completion: ((Bool) -> Void)? = nil) {
        engine.performBatchUpdates(updates, completion: completion)
    }

    /// Makes every call recorded in `batch`, as one batch or inside the open one.
    ///
    /// - Parameter batch: The calls to make.
    public func apply(_ batch: BatchUpdate) { engine.apply(batch) }

    // MARK: - Sections

    /// Inserts sections, given in after coordinates.
    ///
    /// - Parameter sections: The new sections' indexes once the batch is applied.
    public func insertSections(_ sections: [Int]) { engine.record(sections.map { .insertSection($0) }) }

    /// Deletes sections, given in before coordinates.
    ///
    /// - Parameter sections: The sections' indexes before the batch.
    public func deleteSections(_ sections: [Int]) { engine.record(sections.map { .deleteSection($0) }) }

    /// Reloads sections, given in before coordinates: a delete plus an insert (R3).
    ///
    /// - Parameter sections: The sections' indexes before the batch.
    public func reloadSections(_ sections: [Int]) { engine.record(sections.map { .reloadSection($0) }) }

    /// Moves a section.
    ///
    /// - Parameters:
    ///   - section: Its index before the batch.
    ///   - newSection: Its index after the batch.
    public func moveSection(_ section: Int, toSection newSection: Int) {
        engine.record([.moveSection(section, to: newSection)])
    }

    // MARK: - Items

    /// Inserts items, given in after coordinates.
    ///
    /// - Parameter paths: The new items' paths once the batch is applied.
    public func insertItems(at paths: [ElementPath]) { engine.record(paths.map { .insertItem($0) }) }

    /// Deletes items, given in before coordinates.
    ///
    /// - Parameter paths: The items' paths before the batch.
    public func deleteItems(at paths: [ElementPath]) { engine.record(paths.map { .deleteItem($0) }) }

    /// Reloads items, given in before coordinates: a delete plus an insert at the path UIKit
    /// computes from the batch's deletes and inserts, ignoring moves (R3).
    ///
    /// - Parameter paths: The items' paths before the batch.
    public func reloadItems(at paths: [ElementPath]) { engine.record(paths.map { .reloadItem($0) }) }

    /// Moves an item.
    ///
    /// - Parameters:
    ///   - path: Its path before the batch.
    ///   - newPath: Its path after the batch.
    public func moveItem(at path: ElementPath, to newPath: ElementPath) {
        engine.record([.moveItem(path, to: newPath)])
    }

    /// Reconfigures items in place, as `reconfigureItems(at:)` does (iOS 15): the cells of those
    /// items that are on screen are configured again by the data source, keeping the cell (no
    /// `prepareForReuse()`, no display callbacks), and the items read their values again.
    ///
    /// Ripple calls it in a pass of its own after a batch, with the items' final paths (R17):
    /// inside an open batch, or with a path that names no item, it records a violation and does
    /// nothing.
    ///
    /// - Parameter paths: The items' paths.
    public func reconfigureItems(at paths: [ElementPath]) { engine.reconfigure(paths, method: "reconfigureItems(at:)") }

    /// Configures the headers and footers on screen of `sections` again in place, keeping each
    /// view, as Ripple's UIKit glue does with the visible supplementary views.
    ///
    /// Inside an open batch, or with a section that does not exist, it records a violation and
    /// does nothing.
    ///
    /// - Parameter sections: The sections' indices now.
    public func reconfigureSupplementaryViews(inSections sections: [Int]) {
        engine.reconfigureSupplementaryViews(inSections: sections)
    }
}

@available(*, unavailable)
extension HeadlessCollectionView: Sendable {}
