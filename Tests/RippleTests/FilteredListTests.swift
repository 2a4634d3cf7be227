import Dispatch
import Ripple
import RippleDiff
import RippleTestSupport
import RippleTesting
import XCTest

/// `FilteredList` against the plain model, `source.snapshot.filter(predicate)`: after every source
/// event and every new predicate, the filtered list equals the model, and each of its events is
/// exact (one per change of the filtered elements, none otherwise), replays onto the previous
/// event's snapshot, and, staged as a list source stages it, passes UIKit's batch rules for tables
/// and collections. A chain of two
/// filters equals both predicates applied in turn.
final class FilteredListTests: XCTestCase {
    /// The predicates the tests switch between: by content modulo a number.
    private static func contentModulo(_ modulus: Int, _ residue: Int) -> @Sendable (TestItem) -> Bool {
        { $0.content % modulus == residue }
    }

    func test_aFilteredListFollowsItsSource() {
        let books = ObservableCollection<TestItem>((0..<6).map { TestItem(id: $0, content: $0) })
        let even = books.filtered { $0.content % 2 == 0 }
        let recorder = EventRecorder<CollectionChange<TestItem>>()
        let token = even.subscribe(on: .synchronous, recorder.handler)
        defer { token.cancel() }
        XCTAssertEqual(even.snapshot.ids, [0, 2, 4])
        books.append(TestItem(id: 6, content: 6))
        books.append(TestItem(id: 7, content: 7))  // filtered out: no event
        books[1] = TestItem(id: 1, content: 10)  // now passes: an insert
        books[0] = TestItem(id: 0, content: 1)  // no longer passes: a delete
        books.move(from: 4, to: 0)  // a passing element moves
        XCTAssertEqual(even.snapshot.ids, [4, 1, 2, 6])
        XCTAssertEqual(
            recorder.events.map(\.changeset.description),
            [
                "Changeset(3 → 4: insert [3])",
                "Changeset(4 → 5: insert [1])",
                "Changeset(5 → 4: delete [0])",
                "Changeset(4 → 4: move [2→0])",
            ])
        XCTAssertEqual(even.version, 4)
        even.setPredicate { $0.content % 2 == 1 }
        XCTAssertEqual(even.snapshot.ids, [0, 3, 5, 7])
        XCTAssertEqual(
            recorder.events.last?.changeset.description, "Changeset(4 → 4: delete [0, 1, 2, 3], insert [0, 1, 2, 3])")
    }

    /// 400 seeds × 250 operations: 100,000 source operations, with random new predicates and a
    /// second filter chained on the first.
    func test_random_againstTheModel() {
        forEachSeedConcurrently(TestScale.seeds(0..<400, minimum: 20)) { seed, random in
            Self.run(&random, operations: 250)
        }
    }

    /// Four threads mutate the source while the filtered list follows it: its events come in
    /// version order, each replays onto the previous one's snapshot, and each snapshot is the
    /// source's snapshot of one of its versions, filtered, those versions in order.
    func test_fourMutatingThreads_eachEventIsOneSourceVersionFiltered() {
        let source = ObservableCollection((0..<1_000).map { TestItem(id: $0, content: $0) })
        let isIncluded = Self.contentModulo(3, 0)
        let sourceStates = LockedSnapshots()
        let sourceToken = source.subscribe(on: .synchronous) { sourceStates.record($0.snapshot) }
        let filtered = source.filtered(by: isIncluded)
        let events = EventRecorder<CollectionChange<TestItem>>()
        let token = filtered.subscribe(on: .synchronous, events.handler)
        let initial = Array(filtered.snapshot)
        RandomSourceMutations.mutateFromFourThreads(source, rounds: TestScale.count(600, minimum: 100))
        token.cancel()
        sourceToken.cancel()
        var previous = initial
        var matched = sourceStates.all.firstIndex { Array($0.filter(isIncluded)) == initial } ?? 0
        for (index, event) in events.events.enumerated() {
            XCTAssertEqual(event.version, index + 1)
            XCTAssertEqual(event.changeset.applied(to: previous) { event.snapshot[$0] }, Array(event.snapshot))
            guard
                let next = sourceStates.all[matched...].firstIndex(where: {
                    Array($0.filter(isIncluded)) == Array(event.snapshot)
                })
            else {
                return XCTFail("event \(event.version) shows no later source version filtered")
            }
            matched = next
            previous = Array(event.snapshot)
        }
        XCTAssertEqual(Array(filtered.snapshot), Array(source.snapshot.filter(isIncluded)))
    }

    /// The seeds' STT book list with a search field, on a headless table: one presenter keeps the
    /// books, the table shows the ones whose title matches the query. Each keystroke animates one
    /// batch of just the rows that come and go, and a row that stays keeps its presenter object and
    /// its cell.
    func test_aSearchScreen_typingAnimatesMinimalBatches_andKeptRowsKeepTheirPresenter() {
        MainActor.assumeIsolated {
            let titles = ["Dune", "Emma", "Dracula", "Ulysses", "Don Quixote", "Middlemarch", "Beloved"]
            let books = ObservableCollection(titles.enumerated().map { SearchBookPresenter(id: $0, title: $1) })
            let shown = books.filtered { _ in true }
            let events = EventRecorder<CollectionChange<SearchBookPresenter>>()
            let token = shown.subscribe(on: .synchronous, events.handler)
            defer { token.cancel() }
            let screen = HeadlessTableScreen(collection: shown, visibleRowCount: 10)
            screen.register(SearchBookCell.self)
            flushMainQueue()
            screen.cells.layout()
            @MainActor func type(_ query: String) {
                shown.setPredicate { query.isEmpty || $0.title.lowercased().contains(query) }
                flushMainQueue()
                screen.cells.layout()
            }
            let everyBook = screen.shownItems
            let cellOfDune = screen.cells.cell(at: ElementPath(item: 0, section: 0))
            type("d")
            XCTAssertEqual(
                screen.shownItems.map(\.title), ["Dune", "Dracula", "Don Quixote", "Middlemarch", "Beloved"])
            type("du")
            XCTAssertEqual(screen.shownItems.map(\.title), ["Dune"])
            XCTAssertTrue(
                screen.cells.cell(at: ElementPath(item: 0, section: 0)) === cellOfDune, "the kept row keeps its cell")
            type("")
            XCTAssertEqual(screen.shownItems.map(\.title), titles)
            XCTAssertTrue(zip(screen.shownItems, everyBook).allSatisfy { $0 === $1 }, "every row keeps its presenter")
            XCTAssertEqual(
                events.events.map(\.changeset.description),
                [
                    "Changeset(7 → 5: delete [1, 3])",
                    "Changeset(5 → 1: delete [1, 2, 3, 4])",
                    "Changeset(1 → 7: insert [1, 2, 3, 4, 5, 6])",
                ])
            XCTAssertEqual(screen.tableView.violations.count, 0)
            XCTAssertEqual((screen.cells.cell(at: ElementPath(item: 0, section: 0)) as? SearchBookCell)?.title, "Dune")
        }
    }

    func test_aFilteredListReleasesItsSubscriptionAndKeepsItsSource() {
        var source: ObservableCollection<TestItem>? = ObservableCollection([TestItem(id: 1)])
        weak let weakSource = source
        var filtered: FilteredList<TestItem>? = source!.filtered { _ in true }
        weak let weakFiltered = filtered
        source = nil
        XCTAssertNotNil(weakSource, "the filtered list keeps its source")
        XCTAssertEqual(weakSource?.subscriberCount, 1)
        filtered = nil
        XCTAssertNil(weakFiltered)
        XCTAssertNil(weakSource)
    }

    // MARK: - The random run

    /// One seed: random mutations and batches of a source, random predicates, checked after each.
    private static func run(_ random: inout SplitMix64, operations: Int) -> String? {
        let source = ObservableCollection((0..<random.int(in: 0...40)).map { TestItem(id: $0, content: $0 % 7) })
        var mutations = RandomSourceMutations()
        var predicate = (modulus: 2, residue: 0)
        var second = (modulus: 3, residue: 1)
        let first = source.filtered(by: contentModulo(predicate.modulus, predicate.residue))
        let chained = first.filtered(by: contentModulo(second.modulus, second.residue))
        let firstChecker = DerivedListChecker(first)
        let chainedChecker = DerivedListChecker(chained)
        defer {
            firstChecker.cancel()
            chainedChecker.cancel()
        }
        for operation in 0..<operations {
            switch random.int(below: 20) {
            case 0:
                predicate = (random.int(in: 1...4), 0)
                predicate.residue = random.int(below: predicate.modulus)
                first.setPredicate(Self.contentModulo(predicate.modulus, predicate.residue))
            case 1:
                second = (random.int(in: 1...4), 0)
                second.residue = random.int(below: second.modulus)
                chained.setPredicate(Self.contentModulo(second.modulus, second.residue))
            default: mutations.mutateOrBatch(source, &random)
            }
            let expected = Array(source.snapshot).filter(contentModulo(predicate.modulus, predicate.residue))
            if let failure = firstChecker.failure(expecting: expected) {
                return "operation \(operation): first: \(failure)"
            }
            let expectedChained = expected.filter(contentModulo(second.modulus, second.residue))
            if let failure = chainedChecker.failure(expecting: expectedChained) {
                return "operation \(operation): chained: \(failure)"
            }
        }
        return nil
    }
}

/// Snapshots recorded from any thread, in order.
private final class LockedSnapshots: Sendable {
    private let snapshots = LockedState<[ListSnapshot<TestItem>]>([])

    func record(_ snapshot: ListSnapshot<TestItem>) { snapshots.withLock { $0.append(snapshot) } }

    var all: [ListSnapshot<TestItem>] { snapshots.withLock { $0 } }
}
