import RippleDiff

/// What every list source shares: the view it drives, the rendering state and its fallbacks, and
/// the selection and item-event hooks.
///
/// Use ``ListSource`` (flat) and ``ListSourceWithSection`` (sectioned), through their table and
/// collection faces; this base only holds their common state.
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

    /// The reuse identifier of the cell for an item; one per kind of presenter for heterogeneous
    /// lists. By default every row uses `"Cell"`.
    public var cellIdentifier: (Item) -> String = { _ in "Cell" }

    init(renderer: ListRenderer<Rendered>, selectItem: CommandWithParameter<Item>?) {
        self.renderer = renderer
        self.selectItem = selectItem
    }

    /// Makes the source its view's data source and delegate (``ListView/adoptDataSource(_:)``).
    /// The subclasses, which are the data sources, override it.
    func adoptView() {}

    /// Stops rendering: the source unsubscribes from its collection. The view keeps what it shows.
    public func stop() {
        token?.cancel()
        token = nil
    }

    /// Forwards an item event; a selection also executes ``selectItem``.
    func forward(_ event: ListItemEvent, item: Item, at path: ElementPath) {
        onItemEvent?(event, item, path)
        if event == .selected, let selectItem, selectItem.canExecute(parameter: item) {
            selectItem.execute(parameter: item)
        }
    }
}
