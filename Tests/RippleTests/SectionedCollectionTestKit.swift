// Helpers for the SectionedCollection tests: the section and item types, an event checker that
// replays every event and pushes its stages through the validators and headless views.

import Foundation
import Ripple
import RippleDiff
import RippleTestSupport
import RippleTesting
import XCTest

/// A section's own value: `id` is its identity, `title` its header (a change is a reload).
struct TestHeader: Identifiable, Hashable, Sendable, CustomStringConvertible {
    var id: Int
    var title: Int = 0
    var description: String { "S\(id)·\(title)" }
}

typealias TestSections = SectionedCollection<TestHeader, TestItem>
typealias TestSection = SectionData<TestHeader, TestItem>
typealias TestSectionedList = [SectionSnapshot<TestHeader, TestItem>]

extension Array where Element == SectionSnapshot<TestHeader, TestItem> {
    /// The list as `[[ids]]`, for short failure messages.
    var shape: [[Int]] { map(\.items.ids) }
}

/// Builds a list from `(section id, item ids)` pairs.
/// A collection with sections `(id, items)` and a synchronous checker subscribed to it.
func makeCheckedSections(_ sections: [(Int, [Int])]) -> (TestSections, SectionedChangeChecker, SubscriptionToken) {
    let list = makeSectionedList(sections)
    let collection = TestSections(list)
    let checker = SectionedChangeChecker(initial: list)
    let token = collection.subscribe(on: .synchronous, checker.handler)
    return (collection, checker, token)
}

func makeSectionedList(_ sections: [(Int, [Int])]) -> TestSectionedList {
    sections.map { SectionSnapshot(section: TestHeader(id: $0.0), items: [TestItem](ids: $0.1)) }
}

/// Checks one event against the list before it: the change-set is valid, its counts match both
/// lists, and it replays to the event's snapshot.
func sectionedEventFailure(_ change: SectionedCollectionChange<TestHeader, TestItem>, after previous: TestSectionedList)
    -> String?
{
    let changes = change.changeset
    let snapshot = change.snapshot
    if let failure = changes.validationFailure() { return "v\(change.version): invalid \(changes): \(failure)" }
    guard changes.sourceItemCounts == previous.map(\.items.count) else {
        return "v\(change.version): source counts \(changes.sourceItemCounts), previous list \(previous.shape)"
    }
    guard changes.targetItemCounts == snapshot.map(\.items.count) else {
        return "v\(change.version): target counts \(changes.targetItemCounts), snapshot \(snapshot.shape)"
    }
    let replayed = changes.applied(
        to: previous, section: { snapshot[$0].section }, item: { snapshot[$0.section].items[$0.item] })
    guard replayed == snapshot else {
        return "v\(change.version): \(changes) on \(previous) replays to \(replayed), not \(snapshot)"
    }
    return nil
}

/// Stages `change` from `previous`, checks every stage with the table and collection validators,
/// and applies it to headless views, setting their data inside each batch; the views must end
/// showing the snapshot.
func sectionedStagingFailure(
    _ change: SectionedCollectionChange<TestHeader, TestItem>, after previous: TestSectionedList
) -> String? {
    let staged = change.staged(from: previous)
    var tableData = previous.map { Array($0.items) }
    let tableView = HeadlessTableView { tableData }
    tableView.reloadData()
    var collectionData = previous.map { Array($0.items) }
    let collectionView = HeadlessCollectionView { collectionData }
    collectionView.reloadData()
    var current = previous
    for (index, stage) in staged.enumerated() {
        let context = "v\(change.version) stage \(index) of \(staged)"
        let batch = BatchUpdate(stage.changeset)
        for validator in [BatchUpdateValidator.tableView, BatchUpdateValidator.collectionView] {
            let result = validator.validate(
                batch, before: current.map(\.items.count), after: stage.data.map(\.items.count))
            if let violation = result.violation { return "\(context), \(validator.flavor): \(violation)" }
        }
        tableView.performBatchUpdates {
            tableData = stage.data.map { Array($0.items) }
            tableView.apply(batch)
        }
        collectionView.performBatchUpdates {
            collectionData = stage.data.map { Array($0.items) }
            collectionView.apply(batch)
        }
        if let violation = tableView.violations.first { return "\(context), table view: \(violation)" }
        if let violation = collectionView.violations.first { return "\(context), collection view: \(violation)" }
        current = stage.data
    }
    let expected = change.snapshot.map { Array($0.items) }
    if tableView.rows != expected { return "v\(change.version): the table view ends at \(tableView.rows)" }
    if collectionView.items != expected {
        return "v\(change.version): the collection view ends at \(collectionView.items)"
    }
    return nil
}

/// A subscriber that checks every event of one sectioned collection as it arrives: versions
/// consecutive, change-sets valid and replaying onto its own copy of the list, and (unless
/// `light`) every staged batch valid for UIKit and applied to headless views.
final class SectionedChangeChecker: ReplayChecker<TestSectionedList>, @unchecked Sendable {
    private let light: Bool
    private let exact: Bool

    init(
        initial: TestSectionedList = [], version: Int = 0, expectingInitial: Bool = false, light: Bool = false,
        exact: Bool = false
    ) {
        self.light = light
        self.exact = exact
        super.init(initial: initial, version: version, expectingInitial: expectingInitial)
    }

    var handler: @Sendable (SectionedCollectionChange<TestHeader, TestItem>) -> Void {
        { [self] change in check(change) }
    }

    func check(_ change: SectionedCollectionChange<TestHeader, TestItem>) {
        receive(version: change.version, isInitial: change.isInitial, snapshot: change.snapshot) {
            sectionedEventFailure(change, after: []).map { "initial: \($0)" }
        } failure: { [light, exact] rendered in
            if let failure = sectionedEventFailure(change, after: rendered) { return failure }
            if !light, let failure = sectionedStagingFailure(change, after: rendered) { return failure }
            if exact, let failure = sectionedExactnessFailure(change, after: rendered) { return failure }
            return nil
        }
    }

    /// Fails the test for every problem found, and checks the replayed list.
    func assertConsistent(
        finalSnapshot: TestSectionedList? = nil, _ message: @autoclosure () -> String = "",
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let context = message()
        let prefix = context.isEmpty ? "" : "\(context): "
        failForProblems(prefix: prefix, file: file, line: line)
        if let finalSnapshot, replayed != finalSnapshot {
            XCTFail("\(prefix)replayed \(replayed.shape) differs from \(finalSnapshot.shape)", file: file, line: line)
        }
    }
}

/// Checks that an event is exact by identity (section ids and item ids are never reused in the
/// tests that call this): a section or item present before and after is never deleted and
/// inserted, an item that survives out of a deleted section or into an inserted one is a move, and
/// the moves inside each pair of matched sections are minimal.
func sectionedExactnessFailure(
    _ change: SectionedCollectionChange<TestHeader, TestItem>, after previous: TestSectionedList
) -> String? {
    let changes = change.changeset
    let snapshot = change.snapshot
    let context = "v\(change.version): \(changes) from \(previous.shape) to \(snapshot.shape)"
    var oldSection: [Int: Int] = [:]
    for (offset, section) in previous.enumerated() { oldSection[section.section.id] = offset }
    var newSection: [Int: Int] = [:]
    for (offset, section) in snapshot.enumerated() { newSection[section.section.id] = offset }
    let deletedSections = Set(changes.sections.deletes)
    let insertedSections = Set(changes.sections.inserts)
    for (id, offset) in oldSection where newSection[id] != nil && deletedSections.contains(offset) {
        return "\(context): section \(id) is still there but deleted"
    }
    for (id, offset) in newSection where oldSection[id] != nil && insertedSections.contains(offset) {
        return "\(context): section \(id) was there but inserted"
    }
    var oldPath: [Int: ElementPath] = [:]
    for (s, section) in previous.enumerated() {
        for (i, item) in section.items.enumerated() { oldPath[item.id] = ElementPath(item: i, section: s) }
    }
    let deletes = Set(changes.itemDeletes)
    let inserts = Set(changes.itemInserts)
    let moveSources = Set(changes.itemMoves.map(\.source))
    let moveTargets = Set(changes.itemMoves.map(\.target))
    for (t, section) in snapshot.enumerated() {
        for (j, item) in section.items.enumerated() {
            guard let from = oldPath[item.id] else { continue }
            let to = ElementPath(item: j, section: t)
            if deletes.contains(from) || inserts.contains(to) {
                return "\(context): item \(item.id) survives \(from) → \(to) but is deleted or inserted"
            }
            if deletedSections.contains(from.section) && !moveSources.contains(from) {
                return "\(context): item \(item.id) leaves deleted section \(from.section) without a move"
            }
            if insertedSections.contains(t) && !moveTargets.contains(to) {
                return "\(context): item \(item.id) enters inserted section \(t) without a move"
            }
        }
    }
    // Minimal moves inside each pair of matched sections.
    for (t, section) in snapshot.enumerated() {
        guard let s = oldSection[section.section.id] else { continue }
        var stayed: [Int] = []
        var moved = 0
        for (j, item) in section.items.enumerated() {
            guard let from = oldPath[item.id], from.section == s else { continue }
            stayed.append(from.item)
            if moveTargets.contains(ElementPath(item: j, section: t)) { moved += 1 }
        }
        let minimal = stayed.count - longestIncreasingSubsequenceLength(stayed)
        if moved != minimal {
            return "\(context): \(moved) moves inside section \(section.section.id), minimal is \(minimal)"
        }
    }
    return nil
}
