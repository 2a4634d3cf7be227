// Helpers shared by the Ripple tests: a lock box, a small independent replay of change-sets, a
// subscriber that checks every collection event and a brute-force LIS. The child-process runner for
// tests of traps is in RippleTestSupport (`ChildProcesses.swift`).

import Foundation
import Ripple
import RippleDiff
import RippleTestSupport
import XCTest

// MARK: - Locked

/// A value behind an `NSLock`, for state shared with `@Sendable` handlers in tests.
final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `value` is only touched with `lock` held.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    var current: Value { withLock { $0 } }
}

/// An object whose lifetime tests watch.
final class Canary: Sendable, CustomStringConvertible {
    let name: String

    init(_ name: String = "canary") {
        self.name = name
    }

    var description: String { "Canary(\(name))" }
}

// MARK: - Origin replay

/// Replays `changes` on `source` by working out, for every target slot, which source offset fills
/// it: inserts and move targets are fixed first, and the elements that stay fill the remaining
/// slots in order. Independent of `Changeset.applied(to:element:)` and of the UIKit-style oracle
/// in RippleTestSupport.
///
/// - Returns: The replayed list, or a description of the first inconsistency.
func originReplay<Element>(
    _ changes: Changeset,
    on source: [Element],
    element: (_ targetOffset: Int) -> Element
) -> Result<[Element], ReplayFailure> {
    let sourceCount = changes.sourceCount
    let targetCount = changes.targetCount
    guard source.count == sourceCount else {
        return .failure(ReplayFailure("source has \(source.count) elements, change-set says \(sourceCount)"))
    }
    guard targetCount >= 0 else { return .failure(ReplayFailure("negative target count")) }
    let unassigned = Int.min
    var origin = [Int](repeating: unassigned, count: targetCount)  // -1: inserted
    var leaving = [Bool](repeating: false, count: sourceCount)
    for offset in changes.inserts {
        guard offset >= 0 && offset < targetCount, origin[offset] == unassigned else {
            return .failure(ReplayFailure("insert \(offset) out of range or repeated"))
        }
        origin[offset] = -1
    }
    for offset in changes.deletes {
        guard offset >= 0 && offset < sourceCount, !leaving[offset] else {
            return .failure(ReplayFailure("delete \(offset) out of range or repeated"))
        }
        leaving[offset] = true
    }
    for move in changes.moves {
        guard move.source >= 0 && move.source < sourceCount, move.target >= 0 && move.target < targetCount,
            !leaving[move.source], origin[move.target] == unassigned
        else {
            return .failure(ReplayFailure("move \(move) out of range or clashing"))
        }
        leaving[move.source] = true
        origin[move.target] = move.source
    }
    // The staying source offsets, in order, fill the unassigned target slots in order.
    var staying = 0
    var target = 0
    while true {
        while staying < sourceCount && leaving[staying] { staying += 1 }
        while target < targetCount && origin[target] != unassigned { target += 1 }
        if staying == sourceCount || target == targetCount { break }
        origin[target] = staying
        staying += 1
        target += 1
    }
    if staying < sourceCount {
        return .failure(ReplayFailure("source offset \(staying) stays but has no target slot"))
    }
    if target < targetCount {
        return .failure(ReplayFailure("too few staying elements to fill target \(target)"))
    }
    var result: [Element] = []
    result.reserveCapacity(targetCount)
    for target in 0..<targetCount {
        let from = origin[target]
        result.append(from < 0 ? element(target) : source[from])
    }
    for update in changes.updates {
        guard update.target >= 0 && update.target < targetCount, origin[update.target] == update.source else {
            return .failure(ReplayFailure("update \(update) does not name the element at its target"))
        }
        result[update.target] = element(update.target)
    }
    return .success(result)
}

/// Checks one event against the snapshot before it: the change-set is valid, its parts are in
/// their documented order, and it replays (both with `applied(to:element:)` and with
/// ``originReplay(_:on:element:)``, and optionally with the UIKit-style oracle) to the event's
/// snapshot.
///
/// - Returns: `nil` when the event is consistent, otherwise the first problem.
func eventFailure<Element: Equatable>(
    _ change: CollectionChange<Element>,
    after previous: [Element],
    useUIKitOracle: Bool = false
) -> String? {
    let changes = change.changeset
    if let failure = changes.validationFailure() { return "v\(change.version): invalid \(changes): \(failure)" }
    if let failure = orderingFailure(of: changes) { return "v\(change.version): \(failure)" }
    guard changes.sourceCount == previous.count else {
        return "v\(change.version): sourceCount \(changes.sourceCount), but the previous snapshot has \(previous.count)"
    }
    guard changes.targetCount == change.snapshot.count else {
        return "v\(change.version): targetCount \(changes.targetCount), but the snapshot has \(change.snapshot.count)"
    }
    let snapshot = Array(change.snapshot)
    if changes.applied(to: previous, element: { snapshot[$0] }) != snapshot {
        return "v\(change.version): applied(to:) of \(changes) on \(previous) does not give \(snapshot)"
    }
    switch originReplay(changes, on: previous, element: { snapshot[$0] }) {
    case .failure(let failure): return "v\(change.version): origin replay failed: \(failure)"
    case .success(let replayed) where replayed != snapshot:
        return "v\(change.version): origin replay of \(changes) on \(previous) gives \(replayed), not \(snapshot)"
    case .success: break
    }
    if useUIKitOracle {
        switch replay(changes, on: previous, element: { snapshot[$0] }) {
        case .failure(let failure): return "v\(change.version): UIKit-style replay failed: \(failure)"
        case .success(let replayed) where replayed != snapshot:
            return "v\(change.version): UIKit-style replay gives \(replayed), not \(snapshot)"
        case .success: break
        }
    }
    return nil
}

// MARK: - ChangeChecker

/// What the flat and sectioned change checkers share: under one lock, the list replayed so far,
/// the last version, the number of events and the problems found. Each event goes through
/// ``receive(version:isInitial:snapshot:initialFailure:failure:)``.
class ReplayChecker<List>: @unchecked Sendable {
    // @unchecked: everything below is guarded by `lock`.
    private let lock = NSLock()
    private var rendered: List
    private var version: Int
    private var expectingInitial: Bool
    private var failures: [String] = []
    private var received = 0

    init(initial: List, version: Int, expectingInitial: Bool) {
        rendered = initial
        self.version = version
        self.expectingInitial = expectingInitial
    }

    /// Checks one event, then makes its snapshot the list replayed so far.
    ///
    /// The first event must be the initial one when the checker expects it, and is checked by
    /// `initialFailure`; every other event must follow the last version and is checked by
    /// `failure`, given the list replayed so far.
    final func receive(
        version eventVersion: Int, isInitial: Bool, snapshot: List, initialFailure: () -> String?,
        failure: (_ replayed: List) -> String?
    ) {
        lock.lock()
        defer { lock.unlock() }
        received += 1
        if expectingInitial {
            expectingInitial = false
            if !isInitial {
                failures.append("the first event (v\(eventVersion)) is not the initial one")
            } else if let problem = initialFailure() {
                failures.append(problem)
            }
        } else {
            if isInitial { failures.append("unexpected initial event v\(eventVersion)") }
            if eventVersion != version + 1 { failures.append("version \(eventVersion) follows \(version)") }
            if let problem = failure(rendered) { failures.append(problem) }
        }
        rendered = snapshot
        version = eventVersion
    }

    /// The list as replayed so far.
    final var replayed: List {
        lock.lock()
        defer { lock.unlock() }
        return rendered
    }

    /// The number of events received.
    final var eventCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return received
    }

    /// The version of the last event received.
    final var lastVersion: Int {
        lock.lock()
        defer { lock.unlock() }
        return version
    }

    /// The problems found so far.
    final var problems: [String] {
        lock.lock()
        defer { lock.unlock() }
        return failures
    }

    /// Fails the test for each of the first five problems, prefixed with `prefix`.
    final func failForProblems(prefix: String, file: StaticString, line: UInt) {
        for failure in problems.prefix(5) { XCTFail("\(prefix)\(failure)", file: file, line: line) }
    }
}

/// A subscriber that checks every event of one collection as it arrives: versions consecutive from
/// the starting version, change-sets valid, and each one replaying onto the checker's own copy of
/// the list to give the event's snapshot.
///
/// With `expectingInitial`, the first event must be the `isInitial` one, and the checker starts
/// from its snapshot and version.
///
/// A `light` checker only checks versions and replays with `applied(to:element:)` (which validates
/// the change-set first), for stress tests with tens of thousands of events; the default also runs
/// the independent replays and the ordering checks.
final class ChangeChecker<Element: Equatable & Sendable>: ReplayChecker<[Element]>, @unchecked Sendable {
    private let useUIKitOracle: Bool
    private let light: Bool

    init(
        initial: [Element] = [], version: Int = 0, expectingInitial: Bool = false, useUIKitOracle: Bool = false,
        light: Bool = false
    ) {
        self.useUIKitOracle = useUIKitOracle
        self.light = light
        super.init(initial: initial, version: version, expectingInitial: expectingInitial)
    }

    var handler: @Sendable (CollectionChange<Element>) -> Void {
        { [self] change in check(change) }
    }

    func check(_ change: CollectionChange<Element>) {
        receive(version: change.version, isInitial: change.isInitial, snapshot: Array(change.snapshot)) {
            let expected = Changeset(
                sourceCount: 0, targetCount: change.snapshot.count, inserts: Array(change.snapshot.indices))
            return change.changeset == expected
                ? nil : "initial event's change-set is \(change.changeset), expected \(expected)"
        } failure: { [light, useUIKitOracle] rendered in
            guard light else { return eventFailure(change, after: rendered, useUIKitOracle: useUIKitOracle) }
            let snapshot = Array(change.snapshot)
            if change.changeset.sourceCount != rendered.count {
                return "v\(change.version): sourceCount \(change.changeset.sourceCount), expected \(rendered.count)"
            } else if let failure = change.changeset.validationFailure() {
                return "v\(change.version): invalid change-set: \(failure)"
            } else if change.changeset.applied(to: rendered, element: { snapshot[$0] }) != snapshot {
                return "v\(change.version): \(change.changeset) does not replay to the snapshot"
            }
            return nil
        }
    }

    /// Fails the test for every problem found, and checks the replayed list and version.
    func assertConsistent(
        finalSnapshot: [Element]? = nil,
        finalVersion: Int? = nil,
        _ message: @autoclosure () -> String = "",
        file: StaticString = #filePath,
        line: UInt = #line
    ) {
        let context = message()
        let prefix = context.isEmpty ? "" : "\(context): "
        failForProblems(prefix: prefix, file: file, line: line)
        if let finalSnapshot, let mismatch = firstMismatch(replayed, finalSnapshot, by: ==) {
            XCTFail("\(prefix)replayed list differs from the final snapshot: \(mismatch)", file: file, line: line)
        }
        if let finalVersion {
            XCTAssertEqual(lastVersion, finalVersion, "\(prefix)last version", file: file, line: line)
        }
    }
}

// MARK: - Brute-force LIS

/// The length of a longest strictly increasing subsequence, by trying every subset. Only for
/// small inputs (at most ~16 values).
func bruteForceLISLength(_ values: [Int]) -> Int {
    precondition(values.count <= 16, "bruteForceLISLength: too many values")
    var best = 0
    for mask in 0..<(1 << values.count) {
        var last = Int.min
        var length = 0
        var increasing = true
        for index in values.indices where mask & (1 << index) != 0 {
            if values[index] <= last {
                increasing = false
                break
            }
            last = values[index]
            length += 1
        }
        if increasing { best = max(best, length) }
    }
    return best
}

/// The smallest number of moves for a change-set whose matched elements (neither deleted nor
/// inserted) come, in target order, from the source offsets `matchedSources`.
func minimalMoveCount(matchedSources: [Int], bruteForce: Bool) -> Int {
    matchedSources.count
        - (bruteForce
            ? bruteForceLISLength(matchedSources) : longestIncreasingSubsequenceLength(matchedSources))
}

// MARK: - Reference move

/// SwiftUI's `move(fromOffsets:toOffset:)` rule, written independently of Ripple: take the moving
/// elements out, then put them, in order, before the first element at or after `destination` that
/// stays (or at the end).
func referenceMove<Element>(_ elements: [Element], offsets: Set<Int>, to destination: Int) -> [Element] {
    let anchor = (destination..<elements.count).first { !offsets.contains($0) }
    var result: [Element] = []
    for offset in elements.indices where !offsets.contains(offset) {
        if offset == anchor { result.append(contentsOf: offsets.sorted().map { elements[$0] }) }
        result.append(elements[offset])
    }
    if anchor == nil { result.append(contentsOf: offsets.sorted().map { elements[$0] }) }
    return result
}

/// One append, remove, move, update and `replace(with:)`, in that order, on a collection that
/// starts as the items 1, 2, 3, 4; it ends as 4, 6, 3 (content 1), 2.
func applyOneMutationOfEachKind(to collection: ObservableCollection<TestItem>) {
    collection.append(TestItem(id: 5))
    collection.remove(at: 0)
    collection.move(from: 0, to: 3)
    collection[1] = TestItem(id: 4, content: 9)
    collection.replace(with: [TestItem(id: 4), TestItem(id: 6), TestItem(id: 3, content: 1), TestItem(id: 2)])
}
