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
        inner.performBatchUpdates({
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
    func configureSupplementary(_ view: AnyObject, inSection section: Int) { inner.configureSupplementary(view, inSection: section) }
    func cellSize(at path: ElementPath, in bounds: LayoutSize) -> LayoutSize? { inner.cellSize(at: path, in: bounds) }
    func swipeActions(_ edge: SwipeEdge, at path: ElementPath) -> [SwipeAction] { inner.swipeActions(edge, at: path) }
    func canMoveItem(at path: ElementPath) -> Bool { inner.canMoveItem(at: path) }
    func targetPath(forMovingItemFrom source: ElementPath, proposed: ElementPath) -> ElementPath {
        inner.targetPath(forMovingItemFrom: source, proposed: proposed)
    }
    func moveItem(from source: ElementPath, to destination: ElementPath) { inner.moveItem(from: source, to: destination) }
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
    private enum Kind: String { case table, collection }

    func test_tableHost_agreesWithTheModel_over10_000RandomBatches() {
        MainActor.assumeIsolated { Self.run(.table, seeds: 1...20, steps: 650) }
    }

    func test_collectionHost_agreesWithTheModel_over10_000RandomBatches() {
        MainActor.assumeIsolated { Self.run(.collection, seeds: 101...120, steps: 650) }
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
        let inner: any ListView = kind == .table ? tableView : collectionView
        let proxy = RecordingListView(inner)
        let reloadThreshold = 14
        let source: ListSource<LifeRow> =
            kind == .table
            ? TableViewSource(view: proxy, collection: collection, reloadThreshold: reloadThreshold)
            : CollectionViewSource(view: proxy, collection: collection, reloadThreshold: reloadThreshold)
        box.source = source
        proxy.rowsNow = { [weak source] in source.map { Array($0.renderedItems) } ?? [] }
        source.cellIdentifier = { $0.content % 3 == 2 ? "B" : "A" }
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
            if hostCells != modelCells { return ("\(context): cells on screen \(hostCells), model \(modelCells)", batches) }
            let hostCalls = spy.calls[checkedCalls...].map(\.description)
            let modelCalls = model.calls[checkedCalls...].map(\.description)
            if hostCalls != modelCalls {
                return ("\(context): calls \(Array(hostCalls)), model \(Array(modelCalls))", batches)
            }
            checkedCalls = spy.calls.count
            for (path, cell) in host.visibleCells {
                let serial = (cell as! SerialCell).serial
                if cell.reuseCount != model.reuseCounts[serial] || cell.configureCount != model.configureCounts[serial] {
                    return ("\(context): cell \(serial) reused \(cell.reuseCount)× configured \(cell.configureCount)×, model \(model.reuseCounts[serial])×, \(model.configureCounts[serial])×", batches)
                }
                guard let shown = cell.shownItem as? LifeRow, shown === source.element(at: path) else {
                    return ("\(context): row \(path.item) shows \(String(describing: cell.shownItem)), not its element \(source.element(at: path)) (C7)", batches)
                }
            }
            let violations = kind == .table ? tableView.violations : collectionView.violations
            if !violations.isEmpty { return ("\(context): \(violations)", batches) }
        }
        return (nil, batches)
    }

    /// One random change of the collection: a refresh with fresh objects (deletes, inserts, moves,
    /// content changes, equal copies), or a single mutation.
    @MainActor
    private static func mutate(_ collection: ObservableCollection<LifeRow>, random: inout SplitMix64, fresh: () -> LifeRow) -> String {
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
