import RippleDiff

/// The logic of a list source over a flat ``ObservableCollection``: it renders the collection's
/// events into a ``ListView`` as UIKit batch updates, and answers the view's data-source and
/// delegate questions from the list it has rendered.
///
/// Use its two faces, ``TableViewSource`` and ``CollectionViewSource``; this class and
/// ``ListSourceBase`` hold everything they share.
///
/// # Rendering
/// The source subscribes on the main queue, with the collection's current state first (which it
/// shows with `reloadData()`). For every later event it stages the change-set for UIKit
/// (``StagedChangeset``) and runs one `performBatchUpdates` per stage, swapping its own rendered
/// list to the stage's data **inside** the update closure (R14). It never reads the live
/// collection, which may already be newer than the event.
///
/// It reloads instead of animating, and reports why in ``ListSourceBase/lastReload``, when:
/// - the view is not in a window;
/// - the change is larger than ``ListSourceBase/reloadThreshold``;
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
public class ListSource<Element: Sendable>: ListSourceBase<Element, ListSnapshot<Element>>, ListDataSource {
    /// The items are the collection's elements.
    public typealias Item = Element

    /// Moves an element of the collection for the user, if the version is the one shown: `nil`
    /// for a derived list, which only its source changes.
    private let moveElement: (@Sendable (_ from: Int, _ to: Int, _ ifVersion: Int) -> Bool)?

    /// The list the view shows, as of the last event rendered: the event's snapshot, which shares
    /// its storage with the collection.
    public var renderedItems: ListSnapshot<Element> { renderer.rendered }

    /// Creates a source that renders `collection` into `view`, and makes itself the view's data
    /// source and delegate.
    ///
    /// - Parameters:
    ///   - view: The view to drive, held weakly.
    ///   - collection: The list to render: an ``ObservableCollection``, or a list derived from one
    ///     (a ``LiveList``).
    ///   - selectItem: A command executed with the element of each selected item.
    ///   - reloadThreshold: The largest change to animate; larger ones reload.
    ///   - name: The type name used in diagnostics.
    init(
        view: any ListView, collection: some LiveList<Element>,
        selectItem: CommandWithParameter<Element>?, reloadThreshold: Int?, name: String
    ) {
        if let collection = collection as? ObservableCollection<Element> {
            moveElement = { from, to, version in collection.move(from: from, to: to, ifVersion: version) }
        } else {
            moveElement = nil
        }
        super.init(
            renderer: ListRenderer(
                view: view, empty: ListSnapshot(), reloadThreshold: reloadThreshold, sourceName: name,
                itemCounts: { [$0.count] }),
            selectItem: selectItem)
        adoptView()
        token = collection.subscribe(sendingCurrent: true) { [weak self] change in
            self?.render(change)
        }
    }

    override func adoptView() {
        platformAdapter = listView?.adoptDataSource(self)
    }

    /// Renders one event of the collection.
    private func render(_ change: CollectionChange<Element>) {
        let before = renderer.rendered
        let reconfigures = updateStyle == .reconfigure
        var animated = false
        let alive = renderer.render(
            version: change.version, isInitial: change.isInitial, snapshot: change.snapshot,
            beforeCounts: [change.changeset.sourceCount], changeCount: change.changeset.changeCount,
            isMove: { source, target in
                change.changeset.changeCount == 1
                    && change.changeset.moves == [Changeset.OffsetPair(source: source.item, target: target.item)]
            }
        ) { rendered in
            animated = true
            return change.staged(from: rendered).map { stage in
                var changeset = stage.changeset
                if reconfigures { changeset.updates = [] }
                return ListRenderer.Stage(data: stage.data, isEmpty: changeset.isEmpty) { $0.apply(changeset) }
            }
        }
        if alive && animated { rebindCells(after: change, before: before) }
        if alive {
            placePresenters(
                after: change.changeset, animated: animated, placesEveryRow: change.mayReplaceKeptElements,
                before: before, after: change.snapshot)
        }
        didRender(alive: alive)
    }

    /// Rebinds the rows the event left showing an old element (C7).
    private func rebindCells(after change: CollectionChange<Element>, before: ListSnapshot<Element>) {
        let changeset = change.changeset
        let after = change.snapshot
        rebindCells(
            updates: changeset.updates.map {
                (ElementPath(item: $0.source, section: 0), ElementPath(item: $0.target, section: 0))
            },
            origins: {
                // Only a `replace(with:)` can keep a row with another instance: any other event
                // costs what it changes, not a pass over every row.
                guard change.mayReplaceKeptElements else { return [] }
                let sources = changeset.applied(to: (0..<changeset.sourceCount).map { Optional($0) }) { _ in nil }
                return [sources.map { $0.map { ElementPath(item: $0, section: 0) } }]
            },
            before: { before[$0.item] }, after: { after[$0.item] })
    }

    override func renderedItem(at path: ElementPath) -> Element? {
        let items = renderedItems
        guard path.section == 0, path.item >= 0, path.item < items.count else { return nil }
        return items[path.item]
    }

    override func renderedData(movingItemFrom source: ElementPath, to destination: ElementPath) -> ListSnapshot<
        Element
    >? {
        var items = renderedItems
        items.move(fromOffset: source.item, toOffset: destination.item)
        return items
    }

    override func moveInCollection(from source: ElementPath, to destination: ElementPath) -> Bool {
        moveElement?(source.item, destination.item, renderedVersion) ?? false
    }
}
