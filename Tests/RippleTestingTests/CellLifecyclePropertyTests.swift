import Dispatch
import Ripple
import RippleDiff
import RippleTestSupport
import RippleTesting
import XCTest

/// A row of the random lists: an object with an identifier and a content. A refresh builds new
/// objects, equal ones included, as an app's refresh builds fresh presenters.
private final class LifeRow: Identifiable, Equatable, Sendable, CustomStringConvertible {
    let id: Int
    let content: Int
    init(id: Int, content: Int) {
        self.id = id
        self.content = content
    }
    static func == (lhs: LifeRow, rhs: LifeRow) -> Bool { lhs.id == rhs.id && lhs.content == rhs.content }
    var description: String { "\(id):\(content)" }
}

/// A cell that knows the order it was made in.
private final class SerialCell: HeadlessCell<LifeRow> {
    @MainActor static var made = 0
    let serial: Int
    required init(reuseIdentifier: String) {
        serial = SerialCell.made
        SerialCell.made += 1
        super.init(reuseIdentifier: reuseIdentifier)
    }
}

/// What the source asked of its view, as the model needs it: per batch the rows it deleted or
/// reloaded (before) and the rows after; reloads; reconfigures.
private enum ViewRecord {
    case reload([LifeRow])
    case batch(deletedOrReloaded: [Int], after: [LifeRow])
    case reconfigure([Int], after: [LifeRow])
}

/// A list view between the source and the headless view that records what the model needs.
@MainActor
private final class RecordingListView: ListView {
    let inner: any ListView
    var rowsNow: () -> [LifeRow] = { [] }
    var records: [ViewRecord] = []
    private var removed: [Int]?

    init(_ inner: any ListView) { self.inner = inner }

    var numberOfSections: Int { inner.numberOfSections }
    func numberOfItems(inSection section: Int) -> Int { inner.numberOfItems(inSection: section) }
    var isInWindow: Bool { inner.isInWindow }
    func reloadData() {
        records.append(.reload(rowsNow()))
        inner.reloadData()
    }
    func performBatchUpdates(_ updates: (() -> Void)?, completion: ((Bool) -> Void)?) {
        removed = []
        var after: [LifeRow] = []
        inner.performBatchUpdates(
            {
                updates?()
                after = self.rowsNow()
            }, completion: completion)
        records.append(.batch(deletedOrReloaded: removed ?? [], after: after))
        removed = nil
    }
    func insertSections(_ sections: [Int]) { inner.insertSections(sections) }
    func deleteSections(_ sections: [Int]) { inner.deleteSections(sections) }
    func reloadSections(_ sections: [Int]) { inner.reloadSections(sections) }
    func moveSection(_ section: Int, toSection newSection: Int) { inner.moveSection(section, toSection: newSection) }
    func insertItems(at paths: [ElementPath]) { inner.insertItems(at: paths) }
    func deleteItems(at paths: [ElementPath]) {
        removed?.append(contentsOf: paths.map(\.item))
        inner.deleteItems(at: paths)
    }
    func reloadItems(at paths: [ElementPath]) {
        removed?.append(contentsOf: paths.map(\.item))
        inner.reloadItems(at: paths)
    }
    func moveItem(at path: ElementPath, to newPath: ElementPath) { inner.moveItem(at: path, to: newPath) }
    func reconfigureItems(at paths: [ElementPath]) {
        inner.reconfigureItems(at: paths)
        records.append(.reconfigure(paths.map(\.item), after: rowsNow()))
    }
    func adoptDataSource<Source: ListDataSource>(_ source: Source) -> AnyObject? { inner.adoptDataSource(source) }
}

/// The source as the host sees it, logging every call the host makes to it.
@MainActor
private final class SpySource<Inner: ListDataSource>: ListDataSource where Inner.Item == LifeRow {
    typealias Item = LifeRow
    typealias Section = Inner.Section
    let inner: Inner
    var calls: [CellLifecycleModel<Int>.Call] = []

    init(_ inner: Inner) { self.inner = inner }

    var delegate: AnyObject? { inner.delegate }
    var numberOfSections: Int { inner.numberOfSections }
    func numberOfItems(inSection section: Int) -> Int { inner.numberOfItems(inSection: section) }
    func cellIdentifier(at path: ElementPath) -> String { inner.cellIdentifier(at: path) }
    func configure(_ cell: AnyObject, at path: ElementPath) {
        calls.append(.configure(row: path.item, cell: (cell as! SerialCell).serial))
        inner.configure(cell, at: path)
    }
    func supplementaryIdentifier(_ kind: SupplementaryKind, inSection section: Int) -> String? {
        inner.supplementaryIdentifier(kind, inSection: section)
    }
    func configureSupplementary(_ view: AnyObject, inSection section: Int) {
        inner.configureSupplementary(view, inSection: section)
    }
    func cellSize(at path: ElementPath, in bounds: LayoutSize) -> LayoutSize? { inner.cellSize(at: path, in: bounds) }
    func swipeActions(_ edge: SwipeEdge, at path: ElementPath) -> [SwipeAction] { inner.swipeActions(edge, at: path) }
    func canMoveItem(at path: ElementPath) -> Bool { inner.canMoveItem(at: path) }
    func targetPath(forMovingItemFrom source: ElementPath, proposed: ElementPath) -> ElementPath {
        inner.targetPath(forMovingItemFrom: source, proposed: proposed)
    }
    func moveItem(from source: ElementPath, to destination: ElementPath) {
        inner.moveItem(from: source, to: destination)
    }
    func handle(_ event: ListItemEvent, at path: ElementPath) {
        switch event {
        case .willDisplay: calls.append(.willDisplay(row: path.item))
        case .didEndDisplaying: calls.append(.didEndDisplaying(row: path.item))
        default: break
        }
        inner.handle(event, at: path)
    }
}

/// `HeadlessCellHost` against `CellLifecycleModel`, a model of C1–C5 written from
/// `uikit-cell-lifecycle.md` alone, over random lists: the staged diffs of random refreshes, single
/// mutations, reloads past a threshold, and scrolls in between. After every step both agree on
/// which cell each row on screen holds, how often each was reused and configured, and on every
/// call the host made to the source; every cell shows its row's element (C7), and every batch is
/// valid.
///
/// The tests run on the main thread, as XCTest runs them, in `MainActor.assumeIsolated`.
final class CellLifecyclePropertyTests: XCTestCase {
    private enum Kind: String { case table, collection, sequential }

    func test_tableHost_agreesWithTheModel_over10_000RandomBatches() {
        MainActor.assumeIsolated { Self.run(.table, seeds: 1...20, steps: 650) }
    }

    func test_collectionHost_agreesWithTheModel_over10_000RandomBatches() {
        MainActor.assumeIsolated { Self.run(.collection, seeds: 101...120, steps: 650) }
    }

    /// An `NSTableView`'s cells: the host follows a ``HeadlessSequentialTableView`` that AppKit's
    /// glue (`SequentialListView`) drives one call at a time.
    func test_sequentialTableHost_agreesWithTheModel_over10_000RandomBatches() {
        MainActor.assumeIsolated { Self.run(.sequential, seeds: 201...220, steps: 650) }
    }

    /// Runs the seeds and checks that together they made at least 10,000 batches.
    @MainActor
    private static func run(_ kind: Kind, seeds: ClosedRange<UInt64>, steps: Int) {
        var batches = 0
        // Fewer seeds under the sanitizers (`RIPPLE_TEST_SCALE`), the first of the full run's.
        let kept = seeds.lowerBound...(seeds.lowerBound + UInt64(TestScale.count(seeds.count, minimum: 4)) - 1)
        forEachSeed(kept) { seed, random in
            let (failure, count) = Self.runSeed(kind, seed: seed, steps: steps, random: &random)
            batches += count
            return failure
        }
        XCTAssertGreaterThanOrEqual(batches, TestScale.count(10_000), "\(kind) batches played")
    }

    @MainActor
    private static func runSeed(_ kind: Kind, seed: UInt64, steps: Int, random: inout SplitMix64) -> (String?, Int) {
        SerialCell.made = 0
        var nextID = 0
        func fresh() -> LifeRow {
            nextID += 1
            return LifeRow(id: nextID, content: 0)
        }
        let collection = ObservableCollection((0..<random.int(below: 25)).map { _ in fresh() })
        let box = SourceBox()
        let read: @Sendable () -> [[LifeRow?]] = { MainActor.assumeIsolated { [box.rows()] } }
        let tableView = HeadlessTableView<LifeRow?>(sections: read)
        let collectionView = HeadlessCollectionView<LifeRow?>(sections: read)
        let rowView = HeadlessSequentialTableView<LifeRow?>(
            rowCount: { MainActor.assumeIsolated { box.rows().count } },
            row: { row in MainActor.assumeIsolated { box.rows()[row] } })
        let inner: any ListView =
            switch kind {
            case .table: tableView
            case .collection: collectionView
            case .sequential: SequentialListView(rowView)
            }
        let proxy = RecordingListView(inner)
        let reloadThreshold = 14
        let source: ListSource<LifeRow> =
            kind != .collection
            ? TableViewSource(view: proxy, collection: collection, reloadThreshold: reloadThreshold)
            : CollectionViewSource(view: proxy, collection: collection, reloadThreshold: reloadThreshold)
        box.source = source
        proxy.rowsNow = { [weak source] in source.map { Array($0.renderedItems) } ?? [] }
        // Two reuse pools of one cell class, as `register(_:where:)` makes for two cell classes.
        source.route(itemsOf: LifeRow.self, where: nil, toCellsWith: "A")
        source.route(
            itemsOf: LifeRow.self, where: CellRoute.erase { (row: LifeRow) in row.content % 3 == 2 }, toCellsWith: "B")
        if random.chance(1, in: 4) { source.updateStyle = .reload }
        waitForMainQueue()

        let spy = SpySource(source)
        let visibleRowCount = random.int(in: 3...9)
        let host = HeadlessCellHost(source: spy, view: inner, visibleRowCount: visibleRowCount)
        host.register(SerialCell.self, forCellReuseIdentifier: "A")
        host.register(SerialCell.self, forCellReuseIdentifier: "B")
        var model = CellLifecycleModel<Int>(visibleRowCount: visibleRowCount)
        func modelRows(_ rows: [LifeRow]) -> [CellLifecycleModel<Int>.Row] {
            rows.map { .init(key: $0.id, identifier: $0.content % 3 == 2 ? "B" : "A") }
        }
        for record in proxy.records { Self.replay(record, into: &model, rows: modelRows) }
        proxy.records.removeAll()
        host.layout()
        model.layout(rows: modelRows(Array(source.renderedItems)))

        var batches = 0
        var checkedCalls = 0
        for step in 0..<steps {
            var action = "scroll"
            if random.chance(1, in: 4) {
                let row = random.int(below: source.renderedItems.count + 3)
                action = "scroll to \(row)"
                host.scroll(toRow: row)
                model.scroll(toRow: row)
            } else {
                action = Self.mutate(collection, random: &random, fresh: fresh)
                waitForMainQueue()
                for record in proxy.records {
                    if case .batch = record { batches += 1 }
                    Self.replay(record, into: &model, rows: modelRows)
                }
                proxy.records.removeAll()
            }
            let context = "step \(step) (\(action))"
            let hostCells = host.visibleCells.map { "\($0.path.item):\(($0.cell as! SerialCell).serial)" }
            let modelCells = model.visible.map { "\($0.row):\($0.cell)" }
            if hostCells != modelCells {
                return ("\(context): cells on screen \(hostCells), model \(modelCells)", batches)
            }
            let hostCalls = spy.calls[checkedCalls...].map(\.description)
            let modelCalls = model.calls[checkedCalls...].map(\.description)
            if hostCalls != modelCalls {
                return ("\(context): calls \(Array(hostCalls)), model \(Array(modelCalls))", batches)
            }
            checkedCalls = spy.calls.count
            for (path, cell) in host.visibleCells {
                let serial = (cell as! SerialCell).serial
                if cell.reuseCount != model.reuseCounts[serial] || cell.configureCount != model.configureCounts[serial]
                {
                    return (
                        "\(context): cell \(serial) reused \(cell.reuseCount)× configured \(cell.configureCount)×, model \(model.reuseCounts[serial])×, \(model.configureCounts[serial])×",
                        batches
                    )
                }
                guard let shown = cell.shownItem as? LifeRow, shown === source.element(at: path) else {
                    return (
                        "\(context): row \(path.item) shows \(String(describing: cell.shownItem)), not its element \(source.element(at: path)) (C7)",
                        batches
                    )
                }
            }
            let violations =
                switch kind {
                case .table: tableView.violations.map(\.message)
                case .collection: collectionView.violations.map(\.message)
                case .sequential: rowView.violations.map(\.message)
                }
            if !violations.isEmpty { return ("\(context): \(violations)", batches) }
        }
        return (nil, batches)
    }

    /// One random change of the collection: a refresh with fresh objects (deletes, inserts, moves,
    /// content changes, equal copies), or a single mutation.
    @MainActor
    private static func mutate(
        _ collection: ObservableCollection<LifeRow>, random: inout SplitMix64, fresh: () -> LifeRow
    ) -> String {
        let rows = collection.snapshot
        switch random.int(below: 6) {
        case 0:
            collection.insert(fresh(), at: random.int(below: rows.count + 1))
            return "insert"
        case 1 where !rows.isEmpty:
            collection.remove(at: random.int(below: rows.count))
            return "remove"
        case 2 where rows.count > 1:
            collection.move(from: random.int(below: rows.count), to: random.int(below: rows.count))
            return "move"
        default:
            var next: [LifeRow] = []
            for row in rows where !random.chance(1, in: 6) {
                switch random.int(below: 6) {
                case 0: next.append(LifeRow(id: row.id, content: row.content + 1 + random.int(below: 2)))  // changed
                case 1, 2: next.append(LifeRow(id: row.id, content: row.content))  // an equal new object
                default: next.append(row)
                }
            }
            for _ in 0..<random.int(below: 4) { next.insert(fresh(), at: random.int(below: next.count + 1)) }
            if next.count > 1 && random.chance(1, in: 2) {
                for _ in 0..<random.int(below: 3) {
                    next.insert(next.remove(at: random.int(below: next.count)), at: random.int(below: next.count))
                }
            }
            if next.count > 40 { next.removeLast(next.count - 40) }
            collection.replace(with: next)
            return "replace \(rows.count) → \(next.count)"
        }
    }

    @MainActor
    private static func replay(
        _ record: ViewRecord, into model: inout CellLifecycleModel<Int>,
        rows: ([LifeRow]) -> [CellLifecycleModel<Int>.Row]
    ) {
        switch record {
        case .reload(let after):
            model.reloadData(rows: rows(after))
        case .batch(let removed, let after):
            let keys = Set(removed.map { model.rows[$0].key })
            model.batch(rows: rows(after), deletedOrReloaded: keys)
        case .reconfigure(let indexes, _):
            model.reconfigure(rows: indexes)
        }
    }

    @MainActor
    private final class SourceBox {
        weak var source: ListSource<LifeRow>?
        func rows() -> [LifeRow?] { source.map { Array($0.renderedItems) } ?? [] }
    }
}

/// The header and the footer of the random sections.
private final class LifeShelfHeader: HeadlessCell<LifeShelf> {}
private final class LifeShelfFooter: HeadlessCell<LifeShelf> {}

/// A section of the random sectioned lists: an object with an identifier and a title. A refresh
/// builds new objects, equal ones included, as an app's refresh builds fresh section presenters.
private final class LifeShelf: Identifiable, Equatable, Sendable, CustomStringConvertible {
    let id: Int
    let title: Int
    init(id: Int, title: Int) {
        self.id = id
        self.title = title
    }
    static func == (lhs: LifeShelf, rhs: LifeShelf) -> Bool { lhs.id == rhs.id && lhs.title == rhs.title }
    var description: String { "§\(id):\(title)" }
}

/// Headers and footers follow their sections (docs/cell-lifecycle.md): over random refreshes of a
/// sectioned list with fresh section objects (equal ones included), section and item changes, and
/// scrolls, every header and footer on screen shows its section's value now, and every cell its
/// row's element (C7), on tables and collection views; every batch is valid.
final class SectionedCellLifecyclePropertyTests: XCTestCase {
    func test_tableHeadersAndFooters_showTheirSectionsValue_afterEveryRandomChange() {
        MainActor.assumeIsolated {
            forEachSeed(TestScale.seeds(1..<11, minimum: 3)) { seed, random in
                let collection = SectionedCollection<LifeShelf, LifeRow>()
                let screen = HeadlessTableScreenWithSection(
                    collection: collection, visibleRowCount: random.int(in: 3...9))
                return Self.run(collection, screen, random: &random)
            }
        }
    }

    func test_collectionHeadersAndFooters_showTheirSectionsValue_afterEveryRandomChange() {
        MainActor.assumeIsolated {
            forEachSeed(TestScale.seeds(101..<111, minimum: 3)) { seed, random in
                let collection = SectionedCollection<LifeShelf, LifeRow>()
                let screen = HeadlessCollectionScreenWithSection(
                    collection: collection, visibleRowCount: random.int(in: 3...9))
                return Self.run(collection, screen, random: &random)
            }
        }
    }

    /// 150 random steps on one screen; the first failure, naming the step.
    @MainActor
    private static func run<Source: ListSourceWithSection<LifeShelf, LifeRow>>(
        _ collection: SectionedCollection<LifeShelf, LifeRow>, _ screen: HeadlessListScreen<Source>,
        random: inout SplitMix64
    ) -> String? {
        screen.register(header: LifeShelfHeader.self)
        screen.register(footer: LifeShelfFooter.self, where: { $0.title % 2 == 0 })
        screen.register(HeadlessCell<LifeRow>.self)
        if random.chance(1, in: 4) { screen.source.updateStyle = .reload }
        var nextID = 0
        func freshID() -> Int {
            nextID += 1
            return nextID
        }
        screen.settle(awaitingRuns: false)
        for step in 0..<150 {
            let action = mutate(collection, random: &random, freshID: freshID)
            screen.settle(awaitingRuns: false)
            if random.chance(1, in: 3) { screen.cells.scroll(toRow: random.int(below: 30)) }
            // What the source renders: a replace that changes nothing by identity and content
            // publishes no event, so the source (and the cells) keep the objects it had, as for
            // rows in the flat test above.
            let sections = screen.source.renderedSections
            if screen.source.renderedVersion == collection.version,
                !zip(sections, collection.snapshot).allSatisfy({ $0.section == $1.section && $0.items == $1.items })
            {
                return "step \(step) (\(action)): the source renders other sections than the collection's"
            }
            for entry in screen.cells.visibleSupplementaryViews {
                guard let shown = (entry.view as? HeadlessCell<LifeShelf>)?.item, entry.section < sections.count,
                    shown === sections[entry.section].section
                else {
                    return
                        "step \(step) (\(action)): the \(entry.kind) of section \(entry.section) shows a stale or wrong value"
                }
            }
            for (path, cell) in screen.cells.visibleCells {
                guard let shown = cell.shownItem as? LifeRow, path.section < sections.count,
                    path.item < sections[path.section].items.count, shown === sections[path.section].items[path.item]
                else {
                    let rendered =
                        path.section < sections.count && path.item < sections[path.section].items.count
                        ? "\(sections[path.section].items[path.item])" : "nothing"
                    return
                        "step \(step) (\(action)): row \(path) shows \(String(describing: cell.shownItem)), not its element \(rendered) (C7)"
                }
            }
            let violations =
                ((screen.source.listView as? HeadlessTableView<LifeRow?>)?.violations ?? [])
                + ((screen.source.listView as? HeadlessCollectionView<LifeRow?>)?.violations ?? [])
            if let violation = violations.first { return "step \(step) (\(action)): \(violation)" }
        }
        return nil
    }

    /// One random change: a refresh with fresh objects (sections kept, changed, dropped, added and
    /// moved; items likewise), or a single section or item mutation.
    @MainActor
    private static func mutate(
        _ collection: SectionedCollection<LifeShelf, LifeRow>, random: inout SplitMix64, freshID: () -> Int
    ) -> String {
        let sections = collection.snapshot
        switch random.int(below: 5) {
        case 0:
            let shelf = LifeShelf(id: freshID(), title: random.int(below: 4))
            collection.insertSection(
                SectionData(shelf, items: (0..<random.int(below: 4)).map { _ in LifeRow(id: freshID(), content: 0) }),
                at: random.int(below: sections.count + 1))
            return "insert a section"
        case 1 where !sections.isEmpty:
            let section = random.int(below: sections.count)
            collection.appendItem(LifeRow(id: freshID(), content: 0), toSection: section)
            return "append an item to section \(section)"
        default:
            var next: [SectionData<LifeShelf, LifeRow>] = []
            for old in sections where !random.chance(1, in: 6) {
                let shelf: LifeShelf
                switch random.int(below: 4) {
                case 0: shelf = LifeShelf(id: old.section.id, title: old.section.title + 1)  // changed
                case 1, 2: shelf = LifeShelf(id: old.section.id, title: old.section.title)  // an equal new object
                default: shelf = old.section
                }
                var items: [LifeRow] = []
                for row in old.items where !random.chance(1, in: 6) {
                    items.append(random.chance(1, in: 3) ? LifeRow(id: row.id, content: row.content) : row)
                }
                if random.chance(1, in: 3) { items.append(LifeRow(id: freshID(), content: 0)) }
                next.append(SectionData(shelf, items: items))
            }
            if random.chance(1, in: 3) {
                next.insert(
                    SectionData(LifeShelf(id: freshID(), title: 0), items: []), at: random.int(below: next.count + 1))
            }
            if next.count > 1 && random.chance(1, in: 3) {
                next.insert(next.remove(at: random.int(below: next.count)), at: random.int(below: next.count))
            }
            collection.replace(withSections: next)
            return "replace \(sections.count) → \(next.count) sections"
        }
    }
}
