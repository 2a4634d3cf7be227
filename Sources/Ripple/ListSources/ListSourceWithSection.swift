import RippleDiff

/// The logic of a list source over a ``SectionedCollection``: it renders the collection's events
/// into a ``ListView`` as UIKit batch updates, with sections inserted, deleted, moved and reloaded
/// as such, never a blanket reload, and answers the view's data-source and delegate questions from
/// the sections it has rendered.
///
/// Use its two faces, ``TableViewSourceWithSection`` and ``CollectionViewSourceWithSection``. It
/// renders and falls back exactly as ``ListSource`` does, with the stages of a
/// ``StagedSectionedChangeset``, and paginates as it does, with the loading row at the end of the
/// last section.
///
/// # Thread Safety
/// A list source lives on the main actor, as its view does. Its collection may be mutated from
/// any thread.
@MainActor
public class ListSourceWithSection<Section: Sendable, Item: Sendable>:
    ListSourceBase<Item, [SectionSnapshot<Section, Item>]>, ListDataSource
{
    /// The collection, for the user's moves.
    private let collection: SectionedCollection<Section, Item>

    /// The sections the view shows, as of the last event rendered.
    public var renderedSections: [SectionSnapshot<Section, Item>] { renderer.rendered }

    /// The header views registered per type of section value, each with the condition its
    /// sections meet; a section that none covers has no header.
    private var headerRoutes = ViewRoutes()

    /// The footer views, as ``headerRoutes``.
    private var footerRoutes = ViewRoutes()

    /// Creates a source that renders `collection` into `view`.
    init(
        view: any ListView, collection: SectionedCollection<Section, Item>,
        selectItem: CommandWithParameter<Item>?, reloadThreshold: Int?, name: String
    ) {
        self.collection = collection
        super.init(
            renderer: ListRenderer(
                view: view, empty: [], reloadThreshold: reloadThreshold, sourceName: name,
                itemCounts: { $0.map(\.items.count) }),
            selectItem: selectItem)
        adoptView()
        token = collection.subscribe(sendingCurrent: true) { [weak self] change in
            self?.render(change)
        }
    }

    override func adoptView() {
        platformAdapter = listView?.adoptDataSource(self)
    }

    private func render(_ change: SectionedCollectionChange<Section, Item>) {
        let before = renderer.rendered
        let reconfigures = updateStyle == .reconfigure
        var animated = false
        let alive = renderer.render(
            version: change.version, isInitial: change.isInitial, snapshot: change.snapshot,
            beforeCounts: change.changeset.sourceItemCounts, changeCount: change.changeset.changeCount,
            isMove: { source, target in
                change.changeset.changeCount == 1 && change.changeset.itemMoves.count == 1
                    && change.changeset.itemMoves[0].source == source && change.changeset.itemMoves[0].target == target
            }
        ) { rendered in
            animated = true
            return change.staged(from: rendered).map { stage in
                let sections = stage.changeset.sections
                var changeset = stage.changeset
                if reconfigures { changeset.itemUpdates = [] }
                return ListRenderer.Stage(
                    data: stage.data,
                    movesSections: !(sections.inserts.isEmpty && sections.deletes.isEmpty && sections.moves.isEmpty),
                    isEmpty: changeset.isEmpty
                ) { $0.apply(changeset) }
            }
        }
        if alive && animated {
            rebindCells(after: change, before: before)
            rebindSupplementaryViews(after: change, before: before)
        }
        if alive {
            placePresenters(
                after: change.changeset, animated: animated, placesEveryRow: change.mayReplaceKeptElements,
                before: before, after: change.snapshot)
        }
        didRender(alive: alive)
    }

    /// Rebinds the headers and footers of the sections the event kept, not updated, whose value
    /// is another object (a refresh with fresh section presenters): as rows are rebound (C7),
    /// nothing on a device asks for those views again. Inserted and reloaded sections have new
    /// views.
    private func rebindSupplementaryViews(
        after change: SectionedCollectionChange<Section, Item>, before: [SectionSnapshot<Section, Item>]
    ) {
        guard Self.sectionsMayBeObjects, change.mayReplaceKeptElements else { return }
        let sections = change.changeset.sections
        let origins = sections.applied(to: before.indices.map { Optional($0) }) { _ in nil }
        let updated = Set(sections.updates.map(\.target))
        let after = change.snapshot
        var rebound: [Int] = []
        for (target, origin) in origins.enumerated() {
            guard let origin, !updated.contains(target), let object = _object(after[target].section),
                _object(before[origin].section) !== object
            else { continue }
            rebound.append(target)
        }
        renderer.rebindSupplementaryViews(inSections: rebound)
    }

    /// Whether section values of type `Section` may be objects (see
    /// ``ListSourceBase/itemsMayBeObjects``).
    static var sectionsMayBeObjects: Bool { _mayBeObject(Section.self) }

    /// Rebinds the rows the event left showing an old element (C7). Rows of inserted sections have
    /// new cells. Rows of updated (reloaded) sections are rebound like kept rows: a section that
    /// is updated and moved is reloaded in a stage before the last, whose data may still hold the
    /// old elements of its rows (a property test found such rows showing the previous objects).
    private func rebindCells(
        after change: SectionedCollectionChange<Section, Item>, before: [SectionSnapshot<Section, Item>]
    ) {
        let changeset = change.changeset
        let after = change.snapshot
        let updatedSections = Set(changeset.sections.updates.map(\.target))
        rebindCells(
            updates: changeset.itemUpdates.map { ($0.source, $0.target) },
            origins: {
                // Only a `replace` can keep a row with another instance: any other event costs
                // what it changes, not a pass over every row.
                guard change.mayReplaceKeptElements else { return [] }
                let paths = before.enumerated().map { section, snapshot in
                    SectionSnapshot<Bool, ElementPath?>(
                        section: false, items: snapshot.items.indices.map { ElementPath(item: $0, section: section) })
                }
                // Inserted sections come back marked `true`: their rows have new cells.
                return changeset.applied(to: paths, section: { !updatedSections.contains($0) }, item: { _ in nil }).map
                {
                    section in section.section ? section.items.map { _ in nil } : Array(section.items)
                }
            },
            before: { before[$0.section].items[$0.item] }, after: { after[$0.section].items[$0.item] })
    }

    override func renderedItem(at path: ElementPath) -> Item? {
        let sections = renderedSections
        guard path.section >= 0, path.section < sections.count else { return nil }
        let items = sections[path.section].items
        guard path.item >= 0, path.item < items.count else { return nil }
        return items[path.item]
    }

    override func renderedData(
        movingItemFrom source: ElementPath, to destination: ElementPath
    ) -> [SectionSnapshot<Section, Item>]? {
        var sections = renderedSections
        let item = sections[source.section].items.remove(at: source.item)
        sections[destination.section].items.insert(item, at: destination.item)
        return sections
    }

    override func moveInCollection(from source: ElementPath, to destination: ElementPath) -> Bool {
        collection.moveItem(from: source, to: destination, ifVersion: renderedVersion)
    }

    // MARK: - Sections

    /// The section value (its header presenter or model) of a rendered section.
    ///
    /// - Parameter section: A section in `0..<numberOfSections`.
    /// - Returns: The section value.
    /// - Precondition: `section` names a rendered section.
    public func section(at section: Int) -> Section {
        guard section >= 0 && section < renderedSections.count else {
            preconditionFailure(
                "\(renderer.sourceName).section(at:): section \(section) is out of range 0..<\(renderedSections.count)")
        }
        return renderedSections[section].section
    }

    /// The reuse identifier of a supplementary view of a rendered section, or `nil` when the
    /// section has none of that kind: the view registered for the section's value
    /// (`register(header:where:)`, `register(footer:for:where:)` …), looked up by the value's
    /// dynamic type, then by `Section`. By default no section has a header or a footer.
    ///
    /// - Parameters:
    ///   - kind: A header or a footer.
    ///   - section: A rendered section.
    public func supplementaryIdentifier(_ kind: SupplementaryKind, inSection section: Int) -> String? {
        let value = self.section(at: section)
        return kind == .header ? headerRoutes.identifier(for: value) : footerRoutes.identifier(for: value)
    }

    /// Shows the sections whose value is of type `sectionType` and meets `condition` with the
    /// `kind` view registered under `identifier`: what the platforms' `register(header:…)` and
    /// `register(footer:…)` do, once they have registered the view class with their view.
    ///
    /// - Parameters:
    ///   - kind: A header or a footer.
    ///   - sectionType: The type of the section values: a value's exact dynamic type is looked up,
    ///     then `Section`, so registering for `Section` covers every section.
    ///   - condition: Which of those sections; `nil` for all. Conditional registrations are tried
    ///     in the order made, before the one without a condition.
    ///   - identifier: The reuse identifier the view class is registered with.
    package func route(
        _ kind: SupplementaryKind, ofSectionsOf sectionType: Any.Type, where condition: ((Any) -> Bool)?,
        toViewsWith identifier: String
    ) {
        switch kind {
        case .header: headerRoutes.route(valuesOf: sectionType, where: condition, to: identifier)
        case .footer: footerRoutes.route(valuesOf: sectionType, where: condition, to: identifier)
        }
    }

    /// Traps when no section of this source can have a value of type `sectionType`, so that a
    /// header or footer registered for it would never show: the check of
    /// `register(header:for:where:)` and `register(footer:for:where:)` that Swift's types cannot
    /// make.
    ///
    /// - Parameters:
    ///   - viewClass: The view class, named in the message.
    ///   - sectionType: The type the view is registered for.
    ///   - method: The registering method, named in the message.
    package func checkRegistration(ofSupplementary viewClass: Any.Type, for sectionType: Any.Type, in method: String) {
        ViewRoutes.checkRegistration(
            of: viewClass, for: sectionType, declaredAs: Section.self,
            values: ("sections", "section", "sections", "view"), in: "\(renderer.sourceName).\(method)")
    }

    /// Hands a section's value (its presenter) to a dequeued header or footer view: any
    /// ``PresentingCell`` whose `Item` the value is, or casts to; another view is reported through
    /// ``Diagnostics`` as ``Diagnostic/Kind/cellTypeMismatch``.
    ///
    /// - Parameters:
    ///   - view: A view dequeued with ``supplementaryIdentifier(_:inSection:)``.
    ///   - section: The section it shows.
    public func configureSupplementary(_ view: AnyObject, inSection section: Int) {
        let value = self.section(at: section)
        if (view as? any PresentingCell)?._show(anyItem: value) != true {
            reportCellMismatch(view, showing: value, at: "section \(section)'s header or footer")
        }
    }
}

/// The kind of a section's supplementary view.
public enum SupplementaryKind: String, Sendable, Hashable {
    /// The header, above the section's rows.
    case header
    /// The footer, below the section's rows.
    case footer
}

/// A table view's source over a ``SectionedCollection``: sections and rows animate as UIKit batch
/// updates; section values feed the headers and footers.
///
/// See ``ListSourceWithSection`` for how it renders, and when it reloads instead.
@MainActor
public final class TableViewSourceWithSection<SectionPresenter: Sendable, CellPresenter: Sendable>:
    ListSourceWithSection<SectionPresenter, CellPresenter>
{
    /// Creates a source that renders `collection` into `view`, and makes itself the view's data
    /// source and delegate (``ListView/adoptDataSource(_:)``).
    ///
    /// - Parameters:
    ///   - view: The table view (a `UITableView`, or RippleTesting's `HeadlessTableView`), held
    ///     weakly.
    ///   - collection: The sections and their rows.
    ///   - selectItem: Executed with the presenter of each selected row.
    ///   - reloadThreshold: The largest change to animate; larger ones reload. `nil` animates all.
    public init(
        view: any ListView, collection: SectionedCollection<SectionPresenter, CellPresenter>,
        selectItem: CommandWithParameter<CellPresenter>? = nil, reloadThreshold: Int? = nil
    ) {
        super.init(
            view: view, collection: collection, selectItem: selectItem, reloadThreshold: reloadThreshold,
            name: "TableViewSourceWithSection<\(SectionPresenter.self), \(CellPresenter.self)>")
    }
}

/// A collection view's source over a ``SectionedCollection``: sections and items animate as
/// UIKit batch updates; section values feed the supplementary header and footer views.
///
/// See ``ListSourceWithSection`` for how it renders, and when it reloads instead.
@MainActor
public final class CollectionViewSourceWithSection<SectionPresenter: Sendable, CellPresenter: Sendable>:
    ListSourceWithSection<SectionPresenter, CellPresenter>
{
    /// Creates a source that renders `collection` into `view`, and makes itself the view's data
    /// source and delegate (``ListView/adoptDataSource(_:)``).
    ///
    /// - Parameters:
    ///   - view: The collection view (a `UICollectionView`, or RippleTesting's
    ///     `HeadlessCollectionView`), held weakly.
    ///   - collection: The sections and their items.
    ///   - selectItem: Executed with the presenter of each selected item.
    ///   - reloadThreshold: The largest change to animate; larger ones reload. `nil` animates all.
    public init(
        view: any ListView, collection: SectionedCollection<SectionPresenter, CellPresenter>,
        selectItem: CommandWithParameter<CellPresenter>? = nil, reloadThreshold: Int? = nil
    ) {
        super.init(
            view: view, collection: collection, selectItem: selectItem, reloadThreshold: reloadThreshold,
            name: "CollectionViewSourceWithSection<\(SectionPresenter.self), \(CellPresenter.self)>")
    }
}
