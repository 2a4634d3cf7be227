import Dispatch
import Ripple
import RippleDiff
import RippleTestSupport
import RippleTesting
import XCTest

/// `MappedList` against the plain model, `source.snapshot.map(transform)`: after every source
/// event the mapped list equals the model, each event is exact, replays and passes UIKit's batch
/// rules (`DerivedListChecker`), and each element keeps its derived object while it stays: a new
/// one only for an element that arrives, or for an updated one when updates replace.
final class MappedListTests: XCTestCase {
    func test_aMappedListFollowsItsSource_andKeepsEachRowObjectWhileItsElementStays() {
        let books = ObservableCollection<TestItem>((0..<4).map { TestItem(id: $0, content: $0) })
        let made = LockedState(0)
        let rows = books.mapped { item in
            made.withLock { $0 += 1 }
            return Row(item)
        }
        let recorder = EventRecorder<CollectionChange<Row>>()
        let token = rows.subscribe(on: .synchronous, recorder.handler)
        defer { token.cancel() }
        XCTAssertEqual(rows.snapshot.map(\.item.id), [0, 1, 2, 3])
        let first = Array(rows.snapshot)
        books.move(from: 0, to: 3)  // the row object moves with its element
        XCTAssertTrue(rows[3] === first[0])
        books.append(TestItem(id: 4, content: 4))
        books[1] = TestItem(id: 2, content: 20)  // an update replaces the row object
        XCTAssertEqual(rows[1].item.content, 20)
        XCTAssertFalse(rows[1] === first[2])
        XCTAssertTrue(rows[0] === first[1])
        books.remove(at: 0)
        XCTAssertEqual(rows.snapshot.map(\.item.id), [2, 3, 0, 4])
        XCTAssertEqual(made.withLock { $0 }, 6, "one row per element that arrived or was updated")
        XCTAssertEqual(
            recorder.events.map(\.changeset.description),
            [
                "Changeset(4 → 4: move [0→3])",
                "Changeset(4 → 5: insert [4])",
                "Changeset(5 → 5: update [1→1])",
                "Changeset(5 → 4: delete [0])",
            ])
    }

    func test_updatingInPlace_keepsTheRowObject() {
        let books = ObservableCollection<TestItem>([TestItem(id: 1, content: 1)])
        let rows = books.mapped({ Row($0) }, updating: { row, item in row.item = item })
        let row = rows[0]
        books[0] = TestItem(id: 1, content: 2)
        XCTAssertTrue(rows[0] === row)
        XCTAssertEqual(row.item.content, 2)
        XCTAssertEqual(rows.version, 1)
    }

    /// 100 seeds × 250 operations, half of them updating in place and half replacing, with a filter
    /// before the map and one after it.
    func test_random_againstTheModel() {
        forEachSeedConcurrently(TestScale.seeds(0..<100, minimum: 20)) { seed, random in
            Self.run(&random, updatesInPlace: seed % 2 == 1, operations: 250)
        }
    }

    /// Four threads mutate the source while the mapped list follows it: its events come in version
    /// order, each replays onto the previous one's snapshot, and the list ends as the source's last
    /// snapshot mapped.
    func test_fourMutatingThreads_eventsReplayInOrder_andTheListEndsAsTheSourceMapped() {
        let source = ObservableCollection((0..<1_000).map { TestItem(id: $0, content: $0) })
        let rows = source.mapped { Row($0) }
        let events = EventRecorder<CollectionChange<Row>>()
        let token = rows.subscribe(on: .synchronous, events.handler)
        let initial = Array(rows.snapshot)
        RandomSourceMutations.mutateFromFourThreads(source, rounds: TestScale.count(600, minimum: 100))
        token.cancel()
        var previous = initial
        for (index, event) in events.events.enumerated() {
            XCTAssertEqual(event.version, index + 1)
            let replayed = event.changeset.applied(to: previous) { event.snapshot[$0] }
            XCTAssertTrue(replayed.elementsEqual(event.snapshot, by: ===), "event \(event.version) replays")
            previous = Array(event.snapshot)
        }
        XCTAssertEqual(rows.snapshot.map(\.item), Array(source.snapshot))
    }

    func test_aMappedListKeepsItsSource_andReleasesTheRowsOfRemovedElements() {
        var source: ObservableCollection<TestItem>? = ObservableCollection([TestItem(id: 1), TestItem(id: 2)])
        weak let weakSource = source
        var rows: MappedList<TestItem, Row>? = source!.mapped { Row($0) }
        weak let weakRows = rows
        weak let firstRow = rows![0]
        source!.remove(at: 0)
        XCTAssertNil(firstRow, "the row of a removed element is released")
        source = nil
        XCTAssertNotNil(weakSource, "the mapped list keeps its source")
        rows = nil
        XCTAssertNil(weakRows)
        XCTAssertNil(weakSource)
    }

    /// The seeds' STT book list with a search field, the books kept as values: the screen shows
    /// the matching books, each through its row's presenter, made once per book that arrives. On a
    /// headless table and in SwiftUI on the headless host, typing animates (or renders) only the
    /// rows that come and go, and a row that stays keeps its presenter object.
    func test_aSearchScreenOfBookValues_keepsEachRowsPresenter_onATableAndInSwiftUI() {
        MainActor.assumeIsolated {
            let titles = ["Dune", "Emma", "Dracula", "Ulysses", "Don Quixote", "Middlemarch", "Beloved", "Persuasion"]
            let books = ObservableCollection(titles.prefix(7).enumerated().map { TestItem(id: $0, content: $1.count) })
            let matching = books.filtered { _ in true }
            let shown = matching.mapped { SearchBookPresenter(id: $0.id, title: titles[$0.id]) }
            let screen = HeadlessTableScreen(collection: shown, visibleRowCount: 10)
            screen.register(SearchBookCell.self)
            let list = ObservedList(shown)
            let swiftUI = HeadlessSwiftUIView { list.elements.map(\.title) }
            @MainActor func type(_ query: String) {
                matching.setPredicate { query.isEmpty || titles[$0.id].lowercased().contains(query) }
                flushMainQueue()
                screen.cells.layout()
                if swiftUI.isInvalidated { swiftUI.render() }
            }
            flushMainQueue()
            screen.cells.layout()
            let everyRow = Array(shown.snapshot)
            type("d")
            XCTAssertEqual(swiftUI.output, ["Dune", "Dracula", "Don Quixote", "Middlemarch", "Beloved"])
            XCTAssertEqual(screen.shownItems.map(\.title), swiftUI.output)
            type("du")
            XCTAssertEqual(swiftUI.output, ["Dune"])
            XCTAssertTrue(list.elements[0] === everyRow[0], "the kept row keeps its presenter")
            books.append(TestItem(id: 7, content: 10))  // "Persuasion" does not match "du": no event
            type("")
            XCTAssertEqual(swiftUI.output, titles)
            // Dune stayed throughout; every other book left with "d" or "du" and came back: the map
            // made each a new presenter (a map placed before the filter keeps every book's).
            XCTAssertTrue(list.elements[0] === everyRow[0], "the row that stayed keeps its presenter")
            XCTAssertTrue((1..<7).allSatisfy { list.elements[$0] !== everyRow[$0] }, "a row that came back is new")
            XCTAssertEqual(screen.tableView.violations.count, 0)
            XCTAssertEqual(swiftUI.renderCount, 4, "one render per query")
        }
    }

    // MARK: - The random run

    /// One seed: random mutations and batches of a source, checked after each against the model,
    /// through `filter → map` and `map → filter`.
    private static func run(_ random: inout SplitMix64, updatesInPlace: Bool, operations: Int) -> String? {
        let source = ObservableCollection((0..<random.int(in: 0...40)).map { TestItem(id: $0, content: $0 % 7) })
        var mutations = RandomSourceMutations()
        let inPlace: @Sendable (inout Row, TestItem) -> Void = { row, item in row.item = item }
        let update = updatesInPlace ? inPlace : nil
        let rows = source.mapped({ Row($0) }, updating: update)
        let evenRows = rows.filtered { $0.item.content % 2 == 0 }
        let rowsOfEven = source.filtered { $0.content % 2 == 0 }.mapped({ Row($0) }, updating: update)
        let checkers = (DerivedListChecker(rows), DerivedListChecker(evenRows), DerivedListChecker(rowsOfEven))
        let events = EventRecorder<CollectionChange<Row>>()
        let token = rows.subscribe(on: .synchronous, events.handler)
        defer {
            token.cancel()
            checkers.0.cancel()
            checkers.1.cancel()
            checkers.2.cancel()
        }
        var objects = Dictionary(uniqueKeysWithValues: rows.snapshot.map { ($0.item.id, ObjectIdentifier($0)) })
        for operation in 0..<operations {
            mutations.mutateOrBatch(source, &random)
            let expected = source.snapshot.map { Row($0) }
            let even = expected.filter { $0.item.content % 2 == 0 }
            if let failure = checkers.0.failure(expecting: expected) {
                return "operation \(operation): map: \(failure)"
            }
            if let failure = checkers.1.failure(expecting: even) {
                return "operation \(operation): map → filter: \(failure)"
            }
            if let failure = checkers.2.failure(expecting: even) {
                return "operation \(operation): filter → map: \(failure)"
            }
            // Each row keeps its object while its element stays, unless an update replaced it.
            let updated = Set(events.takeAll().flatMap { $0.changeset.updates.map(\.target) })
            var now: [Int: ObjectIdentifier] = [:]
            for (offset, row) in rows.snapshot.enumerated() {
                let object = ObjectIdentifier(row)
                now[row.item.id] = object
                switch objects[row.item.id] {
                case nil: break
                case object? where updatesInPlace || !updated.contains(offset): break
                case object?: return "operation \(operation): the updated row \(offset) kept its object"
                case _? where updatesInPlace || !updated.contains(offset):
                    return "operation \(operation): the row \(offset) of a kept element has a new object"
                case _?: break
                }
            }
            objects = now
        }
        return nil
    }
}

/// A row object made for a `TestItem`: equal to another for the same item.
private final class Row: Sendable, Equatable, CustomStringConvertible {
    private let state: LockedState<TestItem>

    init(_ item: TestItem) { state = LockedState(item) }

    var item: TestItem {
        get { state.withLock { $0 } }
        set { state.withLock { $0 = newValue } }
    }

    static func == (lhs: Row, rhs: Row) -> Bool { lhs.item == rhs.item }

    var description: String { "Row(\(item))" }
}
