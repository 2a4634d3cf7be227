import Dispatch
import Ripple
import RippleDiff
import RippleTestSupport
import RippleTesting
import XCTest

/// `TableViewSourceWithSection` and `CollectionViewSourceWithSection` driving headless views:
/// section changes animate as section operations, and every batch passes UIKit's rules.
final class ListSourceWithSectionTests: DiagnosticsTestCase {
    /// A contacts screen: a headless collection view whose data source is the source's rendered
    /// sections. Sections are letters; items are contacts.
    @MainActor
    private struct ContactsScreen {
        let view: HeadlessCollectionView<TestItem>
        let source: CollectionViewSourceWithSection<String, TestItem>

        init(_ collection: SectionedCollection<String, TestItem>) {
            let box = SourceBox()
            view = HeadlessCollectionView<TestItem> { [box] in
                MainActor.assumeIsolated { box.source?.renderedSections.map { Array($0.items) } ?? [] }
            }
            source = CollectionViewSourceWithSection(view: view, collection: collection)
            box.source = source
        }

        /// The items the collection holds now, section by section.
        static func items(of collection: SectionedCollection<String, TestItem>) -> [[TestItem]] {
            collection.snapshot.map { Array($0.items) }
        }
    }

    @MainActor
    private final class SourceBox {
        weak var source: CollectionViewSourceWithSection<String, TestItem>?
    }

    private static func sections(_ layout: [(String, [Int])]) -> [SectionSnapshot<String, TestItem>] {
        layout.map { SectionSnapshot(section: $0.0, items: [TestItem](ids: $0.1)) }
    }

    // MARK: - Adoption

    /// The sectioned sources' `init(view:…)` make the source the view's data source and delegate.
    func test_initWithView_makesTheSourceTheViewsDataSource() {
        MainActor.assumeIsolated {
            let collection = SectionedCollection(Self.sections([("A", [1])]))
            let table = HeadlessTableView<TestItem> { [] }
            let tableSource = TableViewSourceWithSection(view: table, collection: collection)
            XCTAssertTrue(table.adoptedSource === tableSource)
            XCTAssertEqual(table.adoptionCount, 1)
            let grid = HeadlessCollectionView<TestItem> { [] }
            let gridSource = CollectionViewSourceWithSection(view: grid, collection: collection)
            XCTAssertTrue(grid.adoptedSource === gridSource)
            XCTAssertEqual(grid.adoptionCount, 1)
        }
    }

    // MARK: - Rendering

    func test_sectionAndItemChanges_animateAsValidBatches() {
        let diagnostics = diagnostics
        MainActor.assumeIsolated {
            let collection = SectionedCollection(Self.sections([("A", [1, 2]), ("B", [3]), ("C", [4, 5])]))
            let screen = ContactsScreen(collection)
            flushMainQueue()
            XCTAssertEqual(screen.view.items, ContactsScreen.items(of: collection))
            collection.appendSection(SectionData("D", items: [TestItem(id: 6)]))
            collection.moveSection(from: 0, to: 2)
            collection.moveItem(from: ElementPath(item: 0, section: 0), to: ElementPath(item: 1, section: 1))
            collection.removeSection(at: 1)
            collection.sections[0].items.append(TestItem(id: 7))
            collection.replace(
                with: Self.sections([("D", [6, 1]), ("B", [7, 2]), ("E", [8])]), sectionIdentity: .value,
                itemIdentity: .value)
            flushMainQueue()
            XCTAssertEqual(screen.view.violations, [])
            XCTAssertEqual(screen.view.items, ContactsScreen.items(of: collection))
            XCTAssertEqual(screen.source.renderedSections, collection.snapshot)
            XCTAssertEqual(screen.source.statistics.reloads, 1, "only the initial reload")
            XCTAssertEqual(diagnostics.takeAll(), [])
        }
    }

    func test_aSectionChange_neverReloadsTheWholeView() {
        MainActor.assumeIsolated {
            let collection = SectionedCollection(Self.sections([("A", [1]), ("B", [2])]))
            let screen = ContactsScreen(collection)
            flushMainQueue()
            screen.view.clearDiagnostics()
            collection.insertSection(SectionData("0", items: [TestItem(id: 3)]), at: 0)
            flushMainQueue()
            XCTAssertEqual(screen.view.events.count, 1)
            guard case .batchUpdates(let batch, let result) = screen.view.events.first else {
                return XCTFail("expected one batch, got \(screen.view.events)")
            }
            XCTAssertTrue(result.isValid)
            XCTAssertEqual(batch.operations, [.insertSection(0)])
        }
    }

    func test_dataSource_answersSectionsAndItems() {
        MainActor.assumeIsolated {
            let collection = SectionedCollection(Self.sections([("A", [1, 2]), ("B", [3])]))
            let screen = ContactsScreen(collection)
            flushMainQueue()
            XCTAssertEqual(screen.source.numberOfSections, 2)
            XCTAssertEqual(screen.source.numberOfItems(inSection: 0), 2)
            XCTAssertEqual(screen.source.numberOfItems(inSection: 5), 0)
            XCTAssertEqual(screen.source.section(at: 1), "B")
            XCTAssertEqual(screen.source.element(at: ElementPath(item: 0, section: 1)), TestItem(id: 3))
        }
    }

    func test_selection_executesTheCommandWithTheItem() {
        MainActor.assumeIsolated {
            let collection = SectionedCollection(Self.sections([("A", [1, 2]), ("B", [3])]))
            let screen = ContactsScreen(collection)
            let selected = EventRecorder<TestItem>()
            screen.source.selectItem = CommandWithParameter(delegate: commandAnchor, perform: { selected.record($1) })
            flushMainQueue()
            screen.source.handle(.selected, at: ElementPath(item: 0, section: 1))
            screen.source.handle(.selected, at: ElementPath(item: 9, section: 1))
            XCTAssertEqual(selected.takeAll(), [TestItem(id: 3)])
        }
    }

    func test_viewOutOfStep_fallsBackToReloadData_andReportsIt() {
        let diagnostics = diagnostics
        MainActor.assumeIsolated {
            let collection = SectionedCollection(Self.sections([("A", [1, 2])]))
            let box = SourceBox()
            let stale = Locked(false)
            let view = HeadlessCollectionView<TestItem> { [box] in
                MainActor.assumeIsolated {
                    stale.current ? [[]] : (box.source?.renderedSections.map { Array($0.items) } ?? [])
                }
            }
            let source = CollectionViewSourceWithSection(view: view, collection: collection)
            box.source = source
            flushMainQueue()
            stale.withLock { $0 = true }
            view.reloadData()
            view.layoutIfNeeded()  // a collection view reads its data source lazily, at layout
            stale.withLock { $0 = false }
            collection.appendItem(TestItem(id: 3), toSection: 0)
            flushMainQueue()
            XCTAssertEqual(view.violations, [])
            XCTAssertEqual(view.items, [[TestItem](ids: [1, 2, 3])])
            XCTAssertEqual(source.lastReload, .countMismatch(view: [0], expected: [2]))
            XCTAssertEqual(diagnostics.takeAll().map(\.kind), [.viewCountMismatch])
        }
    }

    func test_sourceAndView_deallocate() {
        let collection = SectionedCollection(Self.sections([("A", [1])]))
        MainActor.assumeIsolated {
            assertDeallocated {
                let screen = ContactsScreen(collection)
                flushMainQueue()
                collection.appendItem(TestItem(id: 2), toSection: 0)
                flushMainQueue()
                return weakReferences(screen.view, screen.source)
            }
        }
        XCTAssertEqual(collection.subscriberCount, 0)
    }

    // MARK: - End to end

    /// Seeded random section and item mutations from four threads and from inside a subscriber;
    /// every batch valid, the view ends equal to the collection, and no contact is shown twice.
    func test_randomMutationsFromFourThreads_allBatchesValid_viewEndsEqualToTheCollection() {
        for seed: UInt64 in 1...4 {
            MainActor.assumeIsolated {
                let collection = SectionedCollection(
                    Self.sections((0..<5).map { ("S\($0)", Array(($0 * 10)..<($0 * 10 + 4))) }))
                let screen = ContactsScreen(collection)
                flushMainQueue()
                let nextID = Locked(1_000)
                // A subscriber that mutates from its callback now and then: a new section, and an
                // item appended to the first section.
                let reentrant = collection.subscribe(on: .synchronous) { change in
                    guard change.version % 11 == 0 else { return }
                    let id = nextID.withLock { id -> Int in
                        id += 1
                        return id
                    }
                    collection.appendSection(SectionData("R\(id)", items: [TestItem(id: id)]))
                    collection.sections.first?.items.append(TestItem(id: -id))
                }
                DispatchQueue.concurrentPerform(iterations: 4) { thread in
                    var random = SplitMix64(seed: seed &* 131 &+ UInt64(thread))
                    for _ in 0..<150 {
                        Self.randomMutation(of: collection, random: &random, nextID: nextID)
                    }
                }
                reentrant.cancel()
                flushMainQueue()
                XCTAssertEqual(screen.view.violations, [], "seed \(seed)")
                XCTAssertEqual(screen.view.items, ContactsScreen.items(of: collection), "seed \(seed)")
                let ids = screen.view.items.joined().map(\.id)
                XCTAssertEqual(Set(ids).count, ids.count, "seed \(seed): a contact shown twice")
                XCTAssertEqual(screen.source.statistics.reloads, 1, "seed \(seed): only the initial reload")
            }
        }
    }

    /// One mutation that stays valid whatever other threads do meanwhile.
    private static func randomMutation(
        of collection: SectionedCollection<String, TestItem>, random: inout SplitMix64, nextID: Locked<Int>
    ) {
        let fresh = {
            nextID.withLock { id -> Int in
                id += 1
                return id
            }
        }
        let sections = collection.sections
        switch random.int(below: 6) {
        case 0:
            let id = fresh()
            collection.appendSection(SectionData("N\(id)", items: [TestItem(id: id)]))
        case 1:
            guard !sections.isEmpty else { return }
            sections[random.int(below: sections.count)].items.append(TestItem(id: fresh()))
        case 2:
            guard !sections.isEmpty else { return }
            let remainder = random.int(below: 3)
            sections[random.int(below: sections.count)].items.removeAll { $0.id % 3 == remainder }
        case 3:
            // Shuffle sections and items, move some items across sections, drop a section.
            var snapshot = collection.snapshot
            random.shuffle(&snapshot)
            if snapshot.count > 1 {
                if let moved = snapshot[0].items.popLast() { snapshot[1].items.insert(moved, at: 0) }
                snapshot.removeLast()
            }
            for index in snapshot.indices { random.shuffle(&snapshot[index].items) }
            collection.replace(with: snapshot, sectionIdentity: .value, itemIdentity: .value)
        case 4:
            collection.performBatchUpdates {
                let id = fresh()
                collection.insertSection(SectionData("B\(id)", items: [TestItem(id: id)]), at: 0)
                sections.first?.items.append(TestItem(id: fresh()))
            }
        default:
            guard !sections.isEmpty else { return }
            let section = sections[random.int(below: sections.count)]
            section.items.performBatchUpdates {
                section.items.insert(TestItem(id: fresh()), at: 0)
                section.items.removeAll { $0.id % 4 == 0 }
            }
        }
    }
}
