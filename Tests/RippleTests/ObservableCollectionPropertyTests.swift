import Foundation
import Ripple
import RippleDiff
import RippleTestSupport
import RippleTesting
import XCTest

/// Seeded random sequences of every mutation, batches (nested, and begin/end left open across
/// operations) and `replace(with:)`, applied to an `ObservableCollection` and to a plain `Array`
/// shadow.
///
/// After every operation the collection equals the shadow. Every published event is checked:
/// - its version is the previous one plus one, and nothing is published while a batch is open;
/// - its change-set is valid and replays on the previous snapshot to the new one, with
///   `applied(to:element:)`, with this target's own `originReplay`, and with the UIKit-style oracle;
/// - it is exact: the deletes, inserts and updates are the ones identity implies (identifiers are
///   never reused and contents always change), and the moves are minimal;
/// - every stage of its staged form (`CollectionChange.staged(from:)`) passes RippleTesting's
///   `BatchUpdateValidator` for both table and collection views, without warnings, and a
///   `HeadlessTableView` that applies the stages shows the new list.
///
/// Subscribers that join with `sendingCurrent` at random times (also mid-batch) must replay to the
/// same final list.
final class ObservableCollectionPropertyTests: XCTestCase {
    private typealias Pair = Changeset.OffsetPair

    /// What the headless table view's data source shows.
    private final class Rows {
        var items: [TestItem]

        init(_ items: [TestItem]) {
            self.items = items
        }
    }

    private struct Run {
        let collection: ObservableCollection<TestItem>
        let recorder = EventRecorder<CollectionChange<TestItem>>()
        var shadow: [TestItem]
        var published: [TestItem]
        var version = 0
        var random: SplitMix64
        var nextID = 1_000
        var nextContent = 1
        var openBatches = 0
        var log: [() -> String] = []
        var failure: String?
        var lateSubscribers: [(checker: ChangeChecker<TestItem>, token: SubscriptionToken)] = []
        var eventsSeen = 0
        let rows: Rows
        let tableView: HeadlessTableView<TestItem>

        init(random: SplitMix64) {
            self.random = random
            let count = self.random.int(in: 0...8)
            let initial = [TestItem](ids: Array(0..<count))
            shadow = initial
            published = initial
            collection = ObservableCollection(initial)
            let rows = Rows(initial)
            self.rows = rows
            tableView = HeadlessTableView { [rows] in [rows.items] }
            tableView.reloadData()
        }

        mutating func freshItem() -> TestItem {
            defer { nextID += 1 }
            return TestItem(id: nextID)
        }

        mutating func freshItems() -> [TestItem] {
            (0..<random.int(in: 0...3)).map { _ in freshItem() }
        }

        mutating func freshContent() -> Int {
            defer { nextContent += 1 }
            return nextContent
        }

        mutating func fail(_ message: String) {
            if failure == nil {
                failure = "\(message)\n  after: \(log.suffix(12).map { $0() }.joined(separator: "; "))"
            }
        }

        /// One random operation on both the collection and the shadow.
        mutating func operation(nesting: Int) {
            let count = shadow.count
            var choice = random.int(below: 17)
            if count > 30 && choice < 4 { choice = 4 }  // keep the lists small
            switch choice {
            case 0:
                let item = freshItem()
                log.append { "append \(item.id)" }
                collection.append(item)
                shadow.append(item)
            case 1:
                let items = freshItems()
                log.append { "append(contentsOf: \(items.ids))" }
                collection.append(contentsOf: items)
                shadow.append(contentsOf: items)
            case 2:
                let item = freshItem()
                let at = random.int(in: 0...count)
                log.append { "insert \(item.id) at \(at)" }
                collection.insert(item, at: at)
                shadow.insert(item, at: at)
            case 3:
                let items = freshItems()
                let at = random.int(in: 0...count)
                log.append { "insert(contentsOf: \(items.ids), at: \(at))" }
                collection.insert(contentsOf: items, at: at)
                shadow.insert(contentsOf: items, at: at)
            case 4, 5:
                guard count > 0 else { return operation(nesting: nesting) }
                let at = random.int(below: count)
                log.append { "remove(at: \(at))" }
                let removed = collection.remove(at: at)
                let expected = shadow.remove(at: at)
                if removed != expected { fail("remove(at: \(at)) returned \(removed), expected \(expected)") }
            case 6:
                let offsets = count == 0 ? [] : (0..<random.int(in: 0...3)).map { _ in random.int(below: count) }
                log.append { "remove(atOffsets: \(offsets))" }
                collection.remove(atOffsets: offsets)
                let removing = Set(offsets)
                shadow = shadow.indices.filter { !removing.contains($0) }.map { shadow[$0] }
            case 7:
                let modulus = random.int(in: 2...5)
                let remainder = random.int(below: modulus)
                log.append { "removeAll(where: id % \(modulus) == \(remainder))" }
                collection.removeAll { $0.id % modulus == remainder }
                shadow.removeAll { $0.id % modulus == remainder }
            case 8:
                if random.chance(1, in: 4) {
                    log.append { "removeAll()" }
                    collection.removeAll()
                    shadow.removeAll()
                } else {
                    fallthrough
                }
            case 9:
                guard count > 0 else { return }
                let (from, to) = (random.int(below: count), random.int(below: count))
                log.append { "move(from: \(from), to: \(to))" }
                collection.move(from: from, to: to)
                shadow.insert(shadow.remove(at: from), at: to)
            case 10:
                let offsets = Set((0..<count).filter { _ in random.chance(1, in: 3) })
                let destination = random.int(in: 0...count)
                log.append { "move(fromOffsets: \(offsets.sorted()), toOffset: \(destination))" }
                collection.move(fromOffsets: offsets, toOffset: destination)
                shadow = referenceMove(shadow, offsets: offsets, to: destination)
            case 11:
                guard count > 0 else { return }
                let at = random.int(below: count)
                var item = shadow[at]
                item.content = freshContent()
                log.append { "[\(at)] = \(item)" }
                collection[at] = item
                shadow[at] = item
            case 12:
                var new = shadow.filter { _ in !random.chance(1, in: 5) }
                for _ in 0..<random.int(in: 0...2) where new.count > 1 {
                    new.swapAt(random.int(below: new.count), random.int(below: new.count))
                }
                for _ in 0..<random.int(in: 0...2) { new.insert(freshItem(), at: random.int(in: 0...new.count)) }
                for index in new.indices where random.chance(1, in: 5) { new[index].content = freshContent() }
                log.append { "replace(with: \(new))" }
                collection.replace(with: new)
                shadow = new
            case 13, 14:
                guard nesting < 3 else { return operation(nesting: nesting) }
                let steps = random.int(in: 1...4)
                log.append { "performBatchUpdates {" }
                collection.performBatchUpdates {
                    for _ in 0..<steps {
                        operation(nesting: nesting + 1)
                        checkInsideBatch()
                    }
                }
                log.append { "}" }
            case 15:
                guard nesting == 0 && openBatches < 3 else { return operation(nesting: nesting) }
                log.append { "beginUpdates()" }
                collection.beginUpdates()
                openBatches += 1
            default:
                guard nesting == 0 && openBatches > 0 else { return operation(nesting: nesting) }
                log.append { "endUpdates()" }
                collection.endUpdates()
                openBatches -= 1
            }
        }

        /// Inside a batch: the collection follows the shadow, and nothing is published.
        mutating func checkInsideBatch() {
            if Array(collection.snapshot) != shadow { fail("snapshot \(collection.snapshot) != shadow \(shadow)") }
            if recorder.count != eventsSeen { fail("an event was published while a batch was open") }
        }

        /// After a top-level operation: the collection follows the shadow, and what was published is
        /// exactly the net change since the last event.
        mutating func checkAfterOperation() {
            if Array(collection.snapshot) != shadow { fail("snapshot \(collection.snapshot) != shadow \(shadow)") }
            if collection.isBatching != (openBatches > 0) { fail("isBatching is \(collection.isBatching)") }
            let events = recorder.events.dropFirst(eventsSeen)
            eventsSeen += events.count
            let expected = openBatches == 0 && shadow != published ? 1 : 0
            guard events.count == expected else {
                return fail("published \(events.count) events, expected \(expected)")
            }
            guard let event = events.first else { return }
            if event.isInitial { fail("a change event claims to be initial") }
            if event.version != version + 1 { fail("version \(event.version) follows \(version)") }
            if collection.version != event.version { fail("collection.version \(collection.version)") }
            if Array(event.snapshot) != shadow { fail("event snapshot \(event.snapshot) != shadow \(shadow)") }
            if let problem = eventFailure(event, after: published, useUIKitOracle: true) { fail(problem) }
            if let problem = exactnessFailure(event.changeset, from: published, to: shadow) { fail(problem) }
            if let problem = stagingFailure(event, from: published) { fail(problem) }
            published = shadow
            version = event.version
        }

        /// Every stage of the event's staged form is a batch UIKit accepts, and applying the stages
        /// to a headless table view that shows the previous snapshot ends at the new one.
        func stagingFailure(_ event: CollectionChange<TestItem>, from previous: [TestItem]) -> String? {
            let staged = event.staged(from: ListSnapshot(previous))
            var before = previous
            for (index, stage) in staged.enumerated() {
                let batch = BatchUpdate(stage.changeset)
                for validator in [BatchUpdateValidator.tableView, .collectionView] {
                    let result = validator.validate(batch, before: [before.count], after: [stage.data.count])
                    if !result.isValid || !result.warnings.isEmpty {
                        return "v\(event.version) stage \(index) \(stage.changeset): \(validator.flavor) says \(result)"
                    }
                }
                tableView.performBatchUpdates {
                    rows.items = Array(stage.data)
                    tableView.apply(batch)
                }
                if let violation = tableView.lastViolation {
                    return "v\(event.version) stage \(index): the table view rejects \(batch): \(violation)"
                }
                if tableView.rows != [Array(stage.data)] {
                    return "v\(event.version) stage \(index): the table view shows \(tableView.rows), not \(stage.data)"
                }
                before = Array(stage.data)
            }
            if before != Array(event.snapshot) {
                return "v\(event.version): the stages end at \(before), not at the snapshot \(event.snapshot)"
            }
            return nil
        }

        /// The change-set is the one identity implies, with minimal moves.
        func exactnessFailure(_ changes: Changeset, from old: [TestItem], to new: [TestItem]) -> String? {
            var oldOffset: [Int: Int] = [:]
            for (offset, item) in old.enumerated() { oldOffset[item.id] = offset }
            let newIDs = Set(new.ids)
            let deletes = old.indices.filter { !newIDs.contains(old[$0].id) }
            let inserts = new.indices.filter { oldOffset[new[$0].id] == nil }
            var matched: [Int] = []
            var updates: [Pair] = []
            for (target, item) in new.enumerated() {
                guard let source = oldOffset[item.id] else { continue }
                matched.append(source)
                if old[source].content != item.content { updates.append(Pair(source: source, target: target)) }
            }
            updates.sort()
            if changes.deletes != deletes { return "deletes \(changes.deletes), expected \(deletes) in \(changes)" }
            if changes.inserts != inserts { return "inserts \(changes.inserts), expected \(inserts) in \(changes)" }
            if changes.updates != updates { return "updates \(changes.updates), expected \(updates) in \(changes)" }
            let minimal = minimalMoveCount(matchedSources: matched, bruteForce: false)
            if changes.moves.count != minimal {
                return "\(changes.moves.count) moves in \(changes), minimum \(minimal)"
            }
            for move in changes.moves where old[move.source].id != new[move.target].id {
                return "move \(move) does not follow its element"
            }
            return nil
        }

        mutating func maybeSubscribeLate() {
            guard random.chance(1, in: 40) else { return }
            let checker = ChangeChecker<TestItem>(expectingInitial: true)
            let token = collection.subscribe(on: .synchronous, sendingCurrent: true, checker.handler)
            if checker.replayed != published {
                fail("a late subscriber's initial snapshot \(checker.replayed) is not the published \(published)")
            }
            log.append { "subscribe(sendingCurrent: true)" }
            lateSubscribers.append((checker, token))
        }

        mutating func finish() {
            while openBatches > 0 {
                log.append { "endUpdates()" }
                collection.endUpdates()
                openBatches -= 1
                checkAfterOperation()
            }
            for (index, late) in lateSubscribers.enumerated() {
                late.token.cancel()
                if let problem = late.checker.problems.first { fail("late subscriber \(index): \(problem)") }
                if late.checker.replayed != shadow {
                    fail("late subscriber \(index) replayed \(late.checker.replayed)")
                }
            }
        }
    }

    private static func run(seed: UInt64, random: SplitMix64, operations: Int) -> String? {
        var run = Run(random: random)
        let token = run.collection.subscribe(on: .synchronous, run.recorder.handler)
        defer { token.cancel() }
        for _ in 0..<operations {
            run.maybeSubscribeLate()
            run.operation(nesting: 0)
            run.checkAfterOperation()
            if run.failure != nil { break }
        }
        if run.failure == nil { run.finish() }
        return run.failure
    }

    func test_randomOperations_matchTheShadow_andEveryEventIsExactAndReplays() {
        forEachSeedConcurrently(TestScale.seeds(0..<3_000)) { seed, random in
            Self.run(seed: seed, random: random, operations: 30)
        }
    }

    func test_longRandomRuns_matchTheShadow() {
        forEachSeedConcurrently(TestScale.seeds(10_000..<10_020, minimum: 4)) { seed, random in
            Self.run(seed: seed, random: random, operations: 400)
        }
    }
}
