import RippleDiff

/// The logic of a list source over a flat ``ObservableCollection``: it renders the collection's
/// events into a ``ListView`` as UIKit batch updates, and answers the view's data-source and
/// delegate questions from the list it has rendered.
///
/// Use its two faces, ``TableViewSource`` and ``CollectionViewSource``; this base holds everything
/// they share.
///
/// # Rendering
/// The source subscribes on the main queue, with the collection's current state first (which it
/// shows with `reloadData()`). For every later event it stages the change-set for UIKit
/// (``StagedChangeset``) and runs one `performBatchUpdates` per stage, swapping its own rendered
/// list to the stage's data **inside** the update closure (R14). It never reads the live
/// collection, which may already be newer than the event.
///
/// It reloads instead of animating, and reports why in ``lastReload``, when:
/// - the view is not in a window;
/// - the change is larger than ``reloadThreshold``;
/// - the view's counts disagree with the change's before-state (for example after the app called
///   `reloadData()` on its own, or changed the view behind the source's back): reported to
///   ``Diagnostics`` as ``Diagnostic/Kind/viewCountMismatch``;
/// - an event is missing (a version gap): reported too.
///
/// It never crashes on a view that is out of step.
///
/// # Thread Safety
/// A list source lives on the main actor, as its view does. Its collection may be mutated from
/// any thread.
@MainActor
public class ListSource<Element: Sendable> {
    private let renderer: ListRenderer<[Element]>
    private var token: SubscriptionToken?

    /// The view the source drives, held weakly: a view that goes away ends the rendering.
    public var listView: (any ListView)? { renderer.view }

    /// The list the view shows, as of the last event rendered.
    public var renderedItems: [Element] { renderer.rendered }

    /// The version of the last event rendered.
    public var renderedVersion: Int { renderer.renderedVersion }

    /// The largest change, counted as ``Changeset/changeCount``, that the source animates; a
    /// larger one reloads the view. `nil` (the default) animates every change.
    public var reloadThreshold: Int? {
        get { renderer.reloadThreshold }
        set { renderer.reloadThreshold = newValue }
    }

    /// The most recent reload and its reason, or `nil` when every event so far was animated.
    public var lastReload: ListReloadReason? { renderer.lastReload }

    /// How many batches the source has run, and how many reloads.
    public var statistics: ListSourceStatistics { renderer.statistics }

    /// Executed with the item's element when an item is selected and the command can execute.
    public var selectItem: CommandWithParameter<Element>?

    /// Called with every item event, its element and its path.
    public var onItemEvent: ((ListItemEvent, Element, ElementPath) -> Void)?

    /// Creates a source that renders `collection` into `view`.
    ///
    /// - Parameters:
    ///   - view: The view to drive, held weakly.
    ///   - collection: The collection to render.
    ///   - selectItem: A command executed with the element of each selected item.
    ///   - reloadThreshold: The largest change to animate; larger ones reload.
    ///   - name: The type name used in diagnostics.
    init(
        view: any ListView, collection: ObservableCollection<Element>,
        selectItem: CommandWithParameter<Element>?, reloadThreshold: Int?, name: String
    ) {
        renderer = ListRenderer(
            view: view, empty: [], reloadThreshold: reloadThreshold, sourceName: name, itemCounts: { [$0.count] })
        self.selectItem = selectItem
        token = collection.subscribe(on: .main, sendingCurrent: true) { [weak self] change in
            MainActor.assumeIsolated { self?.render(change) }
        }
    }

    /// Stops rendering: the source unsubscribes from its collection. The view keeps what it shows.
    public func stop() {
        token?.cancel()
        token = nil
    }

    /// Renders one event of the collection.
    private func render(_ change: CollectionChange<Element>) {
        let alive = renderer.render(
            version: change.version, isInitial: change.isInitial, snapshot: change.snapshot,
            beforeCounts: [change.changeset.sourceCount], changeCount: change.changeset.changeCount
        ) { rendered in
            change.staged(from: rendered).map { stage in
                ListRenderer.Stage(data: stage.data) { $0.apply(stage.changeset) }
            }
        }
        if !alive { stop() }
    }

    // MARK: - Data source

    /// The number of sections to show: always 1.
    public var numberOfSections: Int { 1 }

    /// The number of items to show in a section.
    ///
    /// - Parameter section: The section; only 0 exists.
    /// - Returns: The number of rendered items in section 0, and 0 for any other section.
    public func numberOfItems(inSection section: Int) -> Int {
        section == 0 ? renderedItems.count : 0
    }

    /// The element shown at `path`.
    ///
    /// - Parameter path: A path in section 0 with an item in `0..<numberOfItems(inSection: 0)`.
    /// - Returns: The rendered element.
    /// - Precondition: `path` names a rendered item.
    public func element(at path: ElementPath) -> Element {
        guard path.section == 0, path.item >= 0, path.item < renderedItems.count else {
            preconditionFailure(
                "\(renderer.sourceName).element(at:): path \(path) is out of range: section 0, items 0..<\(renderedItems.count)")
        }
        return renderedItems[path.item]
    }

    // MARK: - Delegate

    /// Forwards an item event with the item's element; a selection also executes ``selectItem``.
    ///
    /// A path that no longer names a rendered item (a late callback) is ignored.
    ///
    /// - Parameters:
    ///   - event: What happened.
    ///   - path: The item's path in the rendered list.
    public func handle(_ event: ListItemEvent, at path: ElementPath) {
        guard path.section == 0, path.item >= 0, path.item < renderedItems.count else { return }
        let element = renderedItems[path.item]
        onItemEvent?(event, element, path)
        if event == .selected, let selectItem, selectItem.canExecute(parameter: element) {
            selectItem.execute(parameter: element)
        }
    }
}

/// Counters of what a list source did to its view.
public struct ListSourceStatistics: Sendable, Hashable {
    /// `performBatchUpdates` calls, one per stage.
    public var batches = 0
    /// `reloadData` calls.
    public var reloads = 0

    /// Creates counters.
    ///
    /// - Parameters:
    ///   - batches: `performBatchUpdates` calls.
    ///   - reloads: `reloadData` calls.
    public init(batches: Int = 0, reloads: Int = 0) {
        self.batches = batches
        self.reloads = reloads
    }
}
