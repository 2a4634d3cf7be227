import Foundation
import Ripple
import RippleDiff
import RippleTestSupport
import XCTest

/// Reads of a `SectionedCollection` (`numberOfItems`, `subscript`, `snapshot`) and the checks of
/// its mutations agree with each other and with the sections' own `items`, whichever way a
/// section was changed: by path, through its own `items`, inside batches of either, from any
/// thread. So a caller that checks and then acts, with no other remover, never traps.
final class SectionedCollectionAgreementTests: XCTestCase {
    // MARK: - One thread

    func test_checkThenMove_whileTheSectionsOwnBatchIsOpen_movesOnlyWhatIsThere() {
        let a = SectionData("A", items: [1])
        let b = SectionData("B", items: [Int]())
        let collection = SectionedCollection<String, Int>([a, b])
        let events = EventRecorder<SectionedCollectionChange<String, Int>>()
        let token = collection.subscribe(on: .synchronous, events.handler)
        let before = collection.snapshot
        a.items.beginUpdates()
        var moves = 0
        for _ in 1...3 where collection.numberOfItems(inSection: 0) > 0 {
            collection.moveItem(from: ElementPath(item: 0, section: 0), to: ElementPath(item: 0, section: 1))
            moves += 1
        }
        XCTAssertEqual(moves, 1)
        XCTAssertEqual(collection.numberOfItems(inSection: 0), 0)
        XCTAssertEqual(collection.numberOfItems(inSection: 1), 1)
        XCTAssertEqual(collection[ElementPath(item: 0, section: 1)], 1)
        XCTAssertEqual(collection.snapshot.map(\.items), [[], [1]])
        a.items.endUpdates()
        XCTAssertEqual(collection.snapshot.map(\.items), [[], [1]])
        XCTAssertEqual(a.items.snapshot, [])
        XCTAssertEqual(b.items.snapshot, [1])
        var replayed = before
        for event in events.events {
            let snapshot = event.snapshot
            replayed = event.changeset.applied(
                to: replayed, section: { snapshot[$0].section }, item: { snapshot[$0.section].items[$0.item] })
            XCTAssertEqual(replayed, snapshot, "v\(event.version)")
        }
        XCTAssertEqual(replayed, collection.snapshot)
        token.cancel()
    }

    func test_oneThread_readsAndChecksAgreeAfterEveryChange() {
        var operations = 0
        forEachSeed(0..<25) { seed, random in
            let run = Run(sections: 4, seed: seed)
            var actor = Actor(run: run, owned: Array(0..<4), random: random, checkEveryStep: true)
            for _ in 0..<150 { actor.step() }
            actor.closeBatches()
            operations += actor.operations
            if let failure = actor.failure ?? run.finalFailure() { return failure }
            return nil
        }
        XCTAssertGreaterThan(operations, 2_500)
    }

    // MARK: - Four threads and a subscriber that acts

    /// Threads 0..<4 each own one section, the subscriber owns section 4, and section 5 only
    /// receives: only a section's owner removes from it or moves items out of it; everyone adds
    /// to every section, by path and through `items`, in batches of both (some left open across
    /// steps). Each owner checks (through `numberOfItems`, `subscript` or `items`) and then acts
    /// (by path or through `items`). Nothing may trap, and every event must replay.
    func test_fourThreadsAndACheckingSubscriber_neverTrap_andEveryEventReplays() {
        forEachSeed(0..<3) { seed, _ in
            let run = Run(sections: 6, seed: seed)
            let subscriberActions = Locked(0)
            let subscriber = run.collection.subscribe(on: .synchronous) { change in
                guard change.version % 2 == 0 else { return }
                if Run.checkThenAct(in: run.collection, section: 4, to: 5, choice: change.version / 2) {
                    subscriberActions.withLock { $0 += 1 }
                }
            }
            let actions = Locked(0)
            let failures = Locked<[String]>([])
            runOnThreads(4) { thread in
                var random = SplitMix64(seed: seed &* 1_000 &+ UInt64(thread))
                _ = random.next()
                var actor = Actor(run: run, owned: [thread], random: random, checkEveryStep: false)
                for _ in 0..<400 { actor.step() }
                actor.closeBatches()
                actions.withLock { $0 += actor.actions }
                if let failure = actor.failure { failures.withLock { $0.append("thread \(thread): \(failure)") } }
            }
            subscriber.cancel()
            if let failure = failures.current.first ?? run.finalFailure() { return failure }
            if actions.current < 400 { return "only \(actions.current) check-then-act steps ran" }
            if subscriberActions.current == 0 { return "the subscriber never acted" }
            return nil
        }
    }

    // MARK: - The run

    /// One sectioned collection with a replay checker, and its sections' headers.
    private final class Run: Sendable {
        let collection: TestSections
        let sections: [TestSection]
        let checker: SectionedChangeChecker
        let token: SubscriptionToken
        let seed: UInt64

        init(sections count: Int, seed: UInt64) {
            self.seed = seed
            collection = TestSections(makeSectionedList((0..<count).map { ($0, [$0 * 1_000_000]) }))
            sections = collection.sections
            checker = SectionedChangeChecker(initial: collection.snapshot, light: true)
            token = collection.subscribe(on: .synchronous, checker.handler)
        }

        /// Every event replayed to the final list, which the sections' own collections hold too,
        /// and each section's count read both ways agrees; `nil` when all holds.
        func finalFailure() -> String? {
            token.cancel()
            let final = Array(collection.snapshot)
            if let problem = checker.problems.first { return problem }
            if checker.replayed != final { return "replayed \(checker.replayed.shape), final \(final.shape)" }
            let own = sections.map { $0.items.snapshot }
            if final.map(\.items) != own { return "snapshot \(final.shape), the sections hold \(own.map(\.ids))" }
            for section in sections.indices
            where collection.numberOfItems(inSection: section) != sections[section].items.count {
                return "numberOfItems(inSection: \(section)) differs from its items' count"
            }
            return nil
        }

        /// Checks that section `section` has an item, then removes one from it or moves one out
        /// of it (to `target`): reading and acting by path or through `items`, as `choice` picks.
        /// Safe only for the section's sole remover. Returns whether it acted.
        static func checkThenAct(in collection: TestSections, section: Int, to target: Int, choice: Int) -> Bool {
            let items = collection.sections[section].items
            let count = choice % 2 == 0 ? collection.numberOfItems(inSection: section) : items.count
            guard count > 0 else { return false }
            let last = ElementPath(item: count - 1, section: section)
            _ = collection[last]
            switch choice % 4 {
            case 0: collection.moveItem(from: last, to: ElementPath(item: 0, section: target))
            case 1: collection.removeItem(at: last)
            case 2: items.remove(at: count - 1)
            default:
                collection.moveItem(
                    from: ElementPath(item: 0, section: section), to: ElementPath(item: 0, section: target))
            }
            return true
        }
    }

    /// One thread's random steps. It removes from and moves out of its `owned` sections only, each
    /// time after checking that the item is there; it adds to any section.
    private struct Actor {
        let run: Run
        let owned: [Int]
        var random: SplitMix64
        /// Whether to check after every step that the reads agree (only with no other thread).
        let checkEveryStep: Bool
        var serial = 0
        var operations = 0
        var actions = 0
        /// Batches this actor opened and has not closed: `nil` for the sectioned collection's, or
        /// the section whose items collection it is.
        var open: [Int?] = []
        var failure: String?

        init(run: Run, owned: [Int], random: SplitMix64, checkEveryStep: Bool) {
            self.run = run
            self.owned = owned
            self.random = random
            self.checkEveryStep = checkEveryStep
        }

        var collection: TestSections { run.collection }

        mutating func item() -> TestItem {
            serial += 1
            return TestItem(id: (owned[0] + 1) * 10_000_000 + serial)
        }

        mutating func step(depth: Int = 0) {
            operations += 1
            let count = run.sections.count
            let any = random.int(below: count)
            let mine = owned[random.int(below: owned.count)]
            let items = run.sections[any].items
            switch random.int(below: 14) {
            case 0: items.append(item())
            case 1: collection.appendItem(item(), toSection: any)
            case 2: collection.insertItem(item(), at: ElementPath(item: 0, section: any))
            case 3: items.insert(item(), at: 0)
            case 4, 5, 6:
                var target = random.int(below: count - 1)
                if target >= mine { target += 1 }
                if Run.checkThenAct(in: collection, section: mine, to: target, choice: random.int(below: 4)) {
                    actions += 1
                }
            case 7:
                // Check, then move inside the section or replace an item.
                let own = run.sections[mine].items
                let count = random.chance(1, in: 2) ? collection.numberOfItems(inSection: mine) : own.count
                guard count > 1 else { return }
                let (from, to) = (random.int(below: count), random.int(below: count))
                switch random.int(below: 3) {
                case 0:
                    collection.moveItem(
                        from: ElementPath(item: from, section: mine), to: ElementPath(item: to, section: mine))
                case 1: own.move(from: from, to: to)
                default:
                    var replaced = collection[ElementPath(item: from, section: mine)]
                    replaced.content += 1
                    collection[ElementPath(item: from, section: mine)] = replaced
                }
                actions += 1
            case 8:
                guard depth < 2 else { return }
                let steps = random.int(in: 1...4)
                collection.performBatchUpdates {
                    for _ in 0..<steps { step(depth: depth + 1) }
                }
            case 9:
                // A batch of a section's own items: the owner's, or another's with additions only.
                guard depth < 2 else { return }
                let steps = random.int(in: 1...4)
                run.sections[mine].items.performBatchUpdates {
                    for _ in 0..<steps { step(depth: depth + 1) }
                }
            case 10:
                items.performBatchUpdates {
                    items.append(item())
                    collection.insertItem(item(), at: ElementPath(item: 0, section: any))
                }
            case 11:
                // Open a batch left open across the next steps, or close the last one opened.
                if open.count < 3 && random.chance(2, in: 3) {
                    let section: Int? = random.chance(1, in: 3) ? nil : (random.chance(1, in: 2) ? mine : any)
                    if let section { run.sections[section].items.beginUpdates() } else { collection.beginUpdates() }
                    open.append(section)
                } else if let section = open.popLast() {
                    if let section { run.sections[section].items.endUpdates() } else { collection.endUpdates() }
                }
            case 12:
                let header = TestHeader(id: any, title: serial)
                serial += 1
                collection.replaceSection(at: any, with: collection.sections[any].replacingSection(with: header))
            default:
                if let section = open.popLast() {
                    if let section { run.sections[section].items.endUpdates() } else { collection.endUpdates() }
                }
            }
            if checkEveryStep { checkAgreement() }
        }

        mutating func closeBatches() {
            while let section = open.popLast() {
                if let section { run.sections[section].items.endUpdates() } else { collection.endUpdates() }
            }
            if checkEveryStep { checkAgreement() }
        }

        /// Every read of every section agrees with its own items collection (one thread only).
        mutating func checkAgreement() {
            guard failure == nil else { return }
            let snapshot = collection.snapshot
            for (index, section) in run.sections.enumerated() {
                let own = section.items.snapshot
                let count = collection.numberOfItems(inSection: index)
                guard count == own.count, snapshot[index].items == own else {
                    failure =
                        "after step \(operations): section \(index) reads \(count) items, "
                        + "snapshot \(snapshot[index].items.ids), its items hold \(own.ids)"
                    return
                }
                for offset in own.indices where collection[ElementPath(item: offset, section: index)] != own[offset] {
                    failure = "after step \(operations): item (\(index) - \(offset)) differs from its items'"
                    return
                }
            }
        }
    }
}
