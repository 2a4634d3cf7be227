import Foundation
import Ripple
import RippleDiff
import RippleTestSupport
import RippleTesting
import XCTest

/// Seeded random sequences of section and item operations applied to a `SectionedCollection` and to
/// a shadow model (an array of sections, each an array of items): section inserts, removals, moves
/// and replacements, item mutations through the sections' own collections and by path, cross-section
/// moves, `replace(with:)`, batches spanning sections (nested, and begin/end left open), and
/// batches of a section's own collection.
///
/// After every operation the collection, and each section's own collection, equal the shadow.
/// Every published event must replay on the previous snapshot to the new one, and every staged batch
/// must pass the table and collection validators and leave headless views showing the snapshot.
/// Every event must be exact by identity (identifiers are never reused): nothing that stays is
/// deleted and inserted, items that change section are moves, and moves inside a section are
/// minimal.
/// Batches publish at most one event, and nothing while they are open.
final class SectionedCollectionPropertyTests: XCTestCase {
    private struct Run {
        let collection: TestSections
        let checker: SectionedChangeChecker
        let token: SubscriptionToken
        var shadow: TestSectionedList
        var random: SplitMix64
        var nextID = 1_000
        var nextSection = 100
        var nextContent = 1
        var openBatches = 0
        var log: [String] = []
        var failure: String?

        init(random: SplitMix64) {
            self.random = random
            var list: TestSectionedList = []
            for section in 0..<self.random.int(in: 0...4) {
                let count = self.random.int(in: 0...4)
                list.append(
                    SectionSnapshot(
                        section: TestHeader(id: section),
                        items: [TestItem](ids: Array((section * 10)..<(section * 10 + count)))))
            }
            shadow = list
            collection = TestSections(list)
            checker = SectionedChangeChecker(initial: list, exact: true)
            token = collection.subscribe(on: .synchronous, checker.handler)
        }

        mutating func freshItem() -> TestItem {
            defer { nextID += 1 }
            return TestItem(id: nextID)
        }

        mutating func freshContent() -> Int {
            defer { nextContent += 1 }
            return nextContent
        }

        mutating func freshSection() -> SectionSnapshot<TestHeader, TestItem> {
            defer { nextSection += 1 }
            return SectionSnapshot(
                section: TestHeader(id: nextSection), items: (0..<random.int(in: 0...3)).map { _ in freshItem() })
        }

        mutating func fail(_ message: String) {
            if failure == nil { failure = "\(message)\n  after: \(log.suffix(14).joined(separator: "; "))" }
        }

        /// A random section offset, or `nil` when there is none.
        mutating func anySection() -> Int? {
            shadow.isEmpty ? nil : random.int(below: shadow.count)
        }

        /// A random path to an existing item, or `nil` when every section is empty.
        mutating func anyItem() -> ElementPath? {
            let filled = shadow.indices.filter { !shadow[$0].items.isEmpty }
            guard !filled.isEmpty else { return nil }
            let section = filled[random.int(below: filled.count)]
            return ElementPath(item: random.int(below: shadow[section].items.count), section: section)
        }

        /// One random operation on both the collection and the shadow.
        mutating func operation(nesting: Int) {
            var choice = random.int(below: 25)
            if shadow.count > 8 && choice < 2 { choice = 2 }
            switch choice {
            case 0, 1:
                let section = freshSection()
                let at = random.int(in: 0...shadow.count)
                log.append("insertSection \(section) at \(at)")
                collection.insertSection(SectionData(section.section, items: section.items), at: at)
                shadow.insert(section, at: at)
            case 2:
                guard let at = anySection() else { return }
                log.append("removeSection(at: \(at))")
                let removed = collection.removeSection(at: at)
                if removed.section != shadow[at].section { fail("removeSection returned \(removed.section)") }
                shadow.remove(at: at)
            case 3:
                guard let from = anySection() else { return }
                let to = random.int(below: shadow.count)
                log.append("moveSection(from: \(from), to: \(to))")
                collection.moveSection(from: from, to: to)
                shadow.insert(shadow.remove(at: from), at: to)
            case 4:
                guard let at = anySection() else { return }
                var header = shadow[at].section
                header.title = freshContent()
                log.append("replaceSection(at: \(at)) retitled \(header)")
                collection.replaceSection(at: at, with: collection.sections[at].replacingSection(with: header))
                shadow[at].section = header
            case 5:
                guard let at = anySection() else { return }
                let section = freshSection()
                log.append("replaceSection(at: \(at)) with \(section)")
                collection.replaceSection(at: at, with: SectionData(section.section, items: section.items))
                shadow[at] = section
            case 6:
                guard let section = anySection() else { return }
                let item = freshItem()
                let at = random.int(in: 0...shadow[section].items.count)
                log.append("sections[\(section)].items.insert(\(item.id), at: \(at))")
                collection.sections[section].items.insert(item, at: at)
                shadow[section].items.insert(item, at: at)
            case 7:
                guard let path = anyItem() else { return }
                log.append("sections[\(path.section)].items.remove(at: \(path.item))")
                collection.sections[path.section].items.remove(at: path.item)
                shadow[path.section].items.remove(at: path.item)
            case 8:
                guard let path = anyItem() else { return }
                let to = random.int(below: shadow[path.section].items.count)
                log.append("sections[\(path.section)].items.move(from: \(path.item), to: \(to))")
                collection.sections[path.section].items.move(from: path.item, to: to)
                shadow[path.section].items.insert(shadow[path.section].items.remove(at: path.item), at: to)
            case 9:
                guard let path = anyItem() else { return }
                var item = shadow[path.section].items[path.item]
                item.content = freshContent()
                log.append("sections[\(path.section)].items[\(path.item)] = \(item)")
                collection.sections[path.section].items[path.item] = item
                shadow[path.section].items[path.item] = item
            case 10:
                guard let section = anySection() else { return }
                let item = freshItem()
                let at = random.int(in: 0...shadow[section].items.count)
                log.append("insertItem(\(item.id), at: \(section) - \(at))")
                collection.insertItem(item, at: ElementPath(item: at, section: section))
                shadow[section].items.insert(item, at: at)
            case 11:
                guard let path = anyItem() else { return }
                log.append("removeItem(at: \(path))")
                let removed = collection.removeItem(at: path)
                let expected = shadow[path.section].items.remove(at: path.item)
                if removed != expected { fail("removeItem returned \(removed), expected \(expected)") }
            case 12, 13, 14:
                guard let path = anyItem() else { return }
                let section = random.int(below: shadow.count)
                let count = shadow[section].items.count
                let to = ElementPath(
                    item: section == path.section ? random.int(below: count) : random.int(in: 0...count),
                    section: section)
                log.append("moveItem(from: \(path), to: \(to))")
                collection.moveItem(from: path, to: to)
                let item = shadow[path.section].items.remove(at: path.item)
                shadow[to.section].items.insert(item, at: to.item)
            case 15:
                guard let path = anyItem() else { return }
                var item = shadow[path.section].items[path.item]
                item.content = freshContent()
                log.append("[\(path)] = \(item)")
                collection[path] = item
                shadow[path.section].items[path.item] = item
            case 16:
                guard let section = anySection() else { return }
                let item = freshItem()
                log.append("appendItem(\(item.id), toSection: \(section))")
                collection.appendItem(item, toSection: section)
                shadow[section].items.append(item)
            case 17, 18:
                let target = editedShadow()
                log.append("replace(with: \(target))")
                collection.replace(with: target)
                shadow = target
            case 19, 20:
                guard nesting < 3 else { return operation(nesting: nesting) }
                let steps = random.int(in: 1...5)
                log.append("performBatchUpdates {")
                collection.performBatchUpdates {
                    for _ in 0..<steps {
                        operation(nesting: nesting + 1)
                        checkState(insideBatch: true)
                    }
                }
                log.append("}")
            case 21:
                // A batch of one section's own collection, mixing its own mutations with mutations
                // by path, which join that batch.
                guard let section = anySection() else { return }
                let items = collection.sections[section].items
                log.append("sections[\(section)].items.performBatchUpdates {")
                var live = shadow[section].items
                items.performBatchUpdates {
                    for _ in 0..<random.int(in: 1...4) {
                        if random.chance(1, in: 2) || live.isEmpty {
                            let item = freshItem()
                            let at = random.int(in: 0...live.count)
                            log.append("  insert \(item.id) at \(at)")
                            if random.chance(1, in: 2) {
                                items.insert(item, at: at)
                            } else {
                                collection.insertItem(item, at: ElementPath(item: at, section: section))
                            }
                            live.insert(item, at: at)
                        } else {
                            let at = random.int(below: live.count)
                            log.append("  remove at \(at)")
                            if random.chance(1, in: 2) {
                                items.remove(at: at)
                            } else {
                                collection.removeItem(at: ElementPath(item: at, section: section))
                            }
                            live.remove(at: at)
                        }
                    }
                }
                log.append("}")
                shadow[section].items = live
            case 23:
                let (sections, target) = rebuiltSections()
                log.append("replace(withSections: \(target))")
                collection.replace(withSections: sections)
                let now = collection.sections
                if now.count != sections.count || zip(now, sections).contains(where: { $0 !== $1 }) {
                    fail("replace(withSections:) did not install the given sections")
                }
                shadow = target
            case 22:
                guard nesting == 0 else { return operation(nesting: nesting) }
                if openBatches < 2 && random.chance(1, in: 2) {
                    log.append("beginUpdates()")
                    collection.beginUpdates()
                    openBatches += 1
                } else if openBatches > 0 {
                    log.append("endUpdates()")
                    collection.endUpdates()
                    openBatches -= 1
                }
            default:
                if random.chance(1, in: 4) {
                    log.append("removeAllSections()")
                    collection.removeAllSections()
                    shadow.removeAll()
                }
            }
        }

        /// New `SectionData` for `replace(withSections:)`: each section is kept as it is, kept
        /// with a new title (sharing its items), rebuilt as a new object with the same identity
        /// (some of its items, some items of dropped sections, some new ones), or dropped; new
        /// sections are added; a few change place.
        mutating func rebuiltSections() -> ([SectionData<TestHeader, TestItem>], TestSectionedList) {
            let current = collection.sections
            var fates = current.map { _ in random.int(below: 5) }  // 0, 1: keep; 2: retitle; 3: rebuild; 4: drop
            var loose: [TestItem] = []
            for index in current.indices where fates[index] == 4 {
                loose.append(contentsOf: shadow[index].items.filter { _ in random.chance(1, in: 2) })
            }
            var sections: [SectionData<TestHeader, TestItem>] = []
            var target: TestSectionedList = []
            for index in current.indices {
                var header = shadow[index].section
                switch fates[index] {
                case 0, 1:
                    sections.append(current[index])
                    target.append(shadow[index])
                case 2:
                    header.title = freshContent()
                    sections.append(current[index].replacingSection(with: header))
                    target.append(SectionSnapshot(section: header, items: shadow[index].items))
                case 3:
                    var items = shadow[index].items.filter { _ in !random.chance(1, in: 4) }
                    random.shuffle(&items)
                    if !loose.isEmpty && random.chance(1, in: 2) { items.append(loose.removeLast()) }
                    for _ in 0..<random.int(in: 0...2) {
                        items.insert(freshItem(), at: random.int(in: 0...items.count))
                    }
                    if random.chance(1, in: 3) { header.title = freshContent() }
                    sections.append(SectionData(header, items: items))
                    target.append(SectionSnapshot(section: header, items: items))
                default:
                    break
                }
            }
            for _ in 0..<random.int(in: 0...1) {
                var section = freshSection()
                section.items.append(contentsOf: loose)
                loose = []
                let at = random.int(in: 0...target.count)
                sections.insert(SectionData(section.section, items: section.items), at: at)
                target.insert(section, at: at)
            }
            if target.count > 1 && random.chance(1, in: 2) {
                let (from, to) = (random.int(below: target.count), random.int(below: target.count))
                sections.insert(sections.remove(at: from), at: to)
                target.insert(target.remove(at: from), at: to)
            }
            fates.removeAll()
            return (sections, target)
        }

        /// The shadow with random edits at both levels: sections deleted, inserted, moved and
        /// retitled; items deleted, inserted, moved inside and across sections, and changed.
        mutating func editedShadow() -> TestSectionedList {
            var target = shadow.filter { _ in !random.chance(1, in: 6) }
            for _ in 0..<random.int(in: 0...1) { target.insert(freshSection(), at: random.int(in: 0...target.count)) }
            if target.count > 1 && random.chance(1, in: 3) {
                target.swapAt(random.int(below: target.count), random.int(below: target.count))
            }
            for index in target.indices {
                if random.chance(1, in: 5) { target[index].section.title = freshContent() }
                target[index].items.removeAll { _ in random.chance(1, in: 6) }
                for _ in 0..<random.int(in: 0...1) {
                    target[index].items.insert(freshItem(), at: random.int(in: 0...target[index].items.count))
                }
                for item in target[index].items.indices where random.chance(1, in: 6) {
                    target[index].items[item].content = freshContent()
                }
            }
            for _ in 0..<random.int(in: 0...2) {
                let filled = target.indices.filter { !target[$0].items.isEmpty }
                guard !filled.isEmpty else { break }
                let from = filled[random.int(below: filled.count)]
                let item = target[from].items.remove(at: random.int(below: target[from].items.count))
                let to = random.int(below: target.count)
                target[to].items.insert(item, at: random.int(in: 0...target[to].items.count))
            }
            return target
        }

        /// The collection and every section's own collection follow the shadow; nothing is
        /// published while a batch is open.
        mutating func checkState(insideBatch: Bool) {
            let snapshot = collection.snapshot
            if snapshot != shadow { fail("snapshot \(snapshot.shape) != shadow \(shadow.shape)") }
            let own = collection.sections.map { $0.items.snapshot }
            if own != shadow.map(\.items) { fail("the sections' own collections hold \(own)") }
        }
    }

    private func runSeeds(_ seeds: Range<UInt64>, operations: Int) {
        var events = 0
        forEachSeed(seeds) { seed, random in
            var run = Run(random: random)
            for _ in 0..<operations {
                let before = run.checker.eventCount
                let wasBatching = run.openBatches > 0
                let published = run.collection.version
                run.operation(nesting: 0)
                run.checkState(insideBatch: false)
                let published2 = run.collection.version
                if wasBatching && run.openBatches > 0 && published2 != published {
                    run.fail("published while a batch was open")
                }
                if run.checker.eventCount - before > 1 && run.log.last == "}" {
                    run.fail("a batch published \(run.checker.eventCount - before) events")
                }
                if run.failure != nil { break }
            }
            while run.openBatches > 0 {
                run.collection.endUpdates()
                run.openBatches -= 1
            }
            events += run.checker.eventCount
            run.checker.assertConsistent(finalSnapshot: run.collection.snapshot, "seed \(seed)")
            run.token.cancel()
            return run.failure
        }
        print("sectioned collection property run: \(seeds.count) seeds, \(events) events checked")
    }

    func testRandomOperationsMatchTheShadowAndEveryEventReplaysAndStages() {
        runSeeds(TestScale.seeds(0..<200, minimum: 40), operations: 60)
    }

    func testLongRuns() {
        runSeeds(TestScale.seeds(10_000..<10_008, minimum: 2), operations: 600)
    }
}
