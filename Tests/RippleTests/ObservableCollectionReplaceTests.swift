import Foundation
import Ripple
import RippleDiff
import RippleTestSupport
import XCTest

// MARK: - Element types, one per identity rule

/// `Identifiable & Equatable`, not `Hashable`.
private struct Row: Identifiable, Equatable, Sendable {
    var id: Int
    var title: String
}

/// A class and nothing else: identity from `ObjectIdentifier`.
private final class Node: Sendable {
    let title: String
    init(_ title: String) { self.title = title }
}

/// `AnyObject & Identifiable`: identity from `id`; another instance is an update.
private final class IdentifiedNode: Identifiable, Sendable {
    let id: Int
    let title: String
    init(_ id: Int, _ title: String = "") {
        self.id = id
        self.title = title
    }
}

/// `AnyObject & Identifiable & Equatable`: identity from `id`, content from `==`.
private final class EquatableNode: Identifiable, Equatable, Sendable {
    let id: Int
    let title: String
    init(_ id: Int, _ title: String = "") {
        self.id = id
        self.title = title
    }
    static func == (lhs: EquatableNode, rhs: EquatableNode) -> Bool { lhs.id == rhs.id && lhs.title == rhs.title }
}

/// `AnyObject & Identifiable & Hashable`: identity from `id`, content from `==`.
private final class HashableNode: Identifiable, Hashable, Sendable {
    let id: Int
    let title: String
    init(_ id: Int, _ title: String = "") {
        self.id = id
        self.title = title
    }
    static func == (lhs: HashableNode, rhs: HashableNode) -> Bool { lhs.id == rhs.id && lhs.title == rhs.title }
    func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(title)
    }
}

/// `AnyObject & Hashable`: identity from `ObjectIdentifier`, content from `==`.
private final class ValueNode: Hashable, Sendable {
    let title: String
    init(_ title: String) { self.title = title }
    static func == (lhs: ValueNode, rhs: ValueNode) -> Bool { lhs.title == rhs.title }
    func hash(into hasher: inout Hasher) { hasher.combine(title) }
}

/// `replace(with:)`: each identity overload, the closure form, and minimal moves.
final class ObservableCollectionReplaceTests: XCTestCase {
    private typealias Pair = Changeset.OffsetPair

    /// Replaces the contents of a collection holding `old` with `new` through `replace`, and
    /// returns the published change-set (`nil` when nothing was published). Checks that at most one
    /// event was published, that it replays, and that the collection now holds `new`.
    private func replacing<Element: Sendable>(
        _ old: [Element],
        with new: [Element],
        file: StaticString = #filePath,
        line: UInt = #line,
        _ replace: (ObservableCollection<Element>, [Element]) -> Void
    ) -> Changeset? {
        let collection = ObservableCollection(old)
        let recorder = EventRecorder<CollectionChange<Element>>()
        let token = collection.subscribe(on: .synchronous, recorder.handler)
        replace(collection, new)
        token.cancel()
        let events = recorder.events
        XCTAssertLessThanOrEqual(events.count, 1, file: file, line: line)
        guard let event = events.first else { return nil }
        XCTAssertEqual(event.version, 1, file: file, line: line)
        XCTAssertEqual(event.snapshot.count, new.count, file: file, line: line)
        let changes = event.changeset
        XCTAssertNil(changes.validationFailure(), file: file, line: line)
        // Compare replays by position in `new`: elements need not be Equatable.
        let offsets = Array(old.indices)
        let replayed = changes.applied(to: offsets.map { -1 - $0 }) { $0 }
        let independent = try? originReplay(changes, on: offsets.map { -1 - $0 }, element: { $0 }).get()
        XCTAssertEqual(replayed, independent, "both replays agree", file: file, line: line)
        return changes
    }

    // MARK: - Overloads

    func test_identifiableEquatable_identityFromID_contentFromEquals() {
        let old = [Row(id: 1, title: "a"), Row(id: 2, title: "b"), Row(id: 3, title: "c")]
        let new = [Row(id: 3, title: "C"), Row(id: 1, title: "a"), Row(id: 2, title: "b")]
        XCTAssertEqual(
            replacing(old, with: new) { $0.replace(with: $1) },
            Changeset(
                sourceCount: 3, targetCount: 3, moves: [Pair(source: 2, target: 0)],
                updates: [Pair(source: 2, target: 0)]))
        XCTAssertNil(replacing(old, with: old) { $0.replace(with: $1) })
    }

    func test_identifiableHashable_identityFromIDNotTheWholeValue() {
        let old = [TestItem](ids: [1, 2, 3])
        let new = [TestItem(id: 1), TestItem(id: 2, content: 9), TestItem(id: 4)]
        XCTAssertEqual(
            replacing(old, with: new) { $0.replace(with: $1) },
            Changeset(
                sourceCount: 3, targetCount: 3, deletes: [2], inserts: [2], updates: [Pair(source: 1, target: 1)]))
    }

    func test_hashableValues_valueIsItsOwnIdentity_neverAnUpdate() {
        XCTAssertEqual(
            replacing([1, 2, 3], with: [3, 1, 4]) { $0.replace(with: $1, identity: .value) },
            Changeset(sourceCount: 3, targetCount: 3, deletes: [1], inserts: [2], moves: [Pair(source: 2, target: 0)]))
        XCTAssertEqual(
            replacing(["a", "b"], with: ["a", "B"]) { $0.replace(with: $1, identity: .value) },
            Changeset(sourceCount: 2, targetCount: 2, deletes: [1], inserts: [1]))
    }

    func test_objects_identityFromObjectIdentifier() {
        let (a, b, c) = (Node("a"), Node("b"), Node("c"))
        XCTAssertEqual(
            replacing([a, b, c], with: [c, a, Node("b")]) { $0.replace(with: $1, identity: .object) },
            Changeset(
                sourceCount: 3, targetCount: 3, deletes: [1], inserts: [2], moves: [Pair(source: 2, target: 0)]),
            "a new instance is a new element, whatever it holds")
        XCTAssertNil(
            replacing([a, b, c], with: [a, b, c]) { $0.replace(with: $1, identity: .object) },
            "the same objects: nothing")
    }

    func test_identifiableObjects_anotherInstanceWithTheSameIDIsAnUpdate() {
        let (one, two, three) = (IdentifiedNode(1), IdentifiedNode(2), IdentifiedNode(3))
        XCTAssertEqual(
            replacing([one, two, three], with: [three, one, IdentifiedNode(2)]) {
                $0.replace(with: $1, identity: .key(\.id, contentEquals: ===))
            },
            Changeset(
                sourceCount: 3, targetCount: 3, moves: [Pair(source: 2, target: 0)],
                updates: [Pair(source: 1, target: 2)]))
        XCTAssertNil(
            replacing([one, two], with: [one, two]) { $0.replace(with: $1, identity: .key(\.id, contentEquals: ===)) })
    }

    func test_identifiableEquatableObjects_contentFromEquals() {
        let old = [EquatableNode(1, "a"), EquatableNode(2, "b")]
        XCTAssertNil(
            replacing(old, with: [EquatableNode(1, "a"), EquatableNode(2, "b")]) { $0.replace(with: $1) },
            "equal new instances are not updates")
        XCTAssertEqual(
            replacing(old, with: [EquatableNode(1, "a"), EquatableNode(2, "B")]) { $0.replace(with: $1) },
            Changeset(sourceCount: 2, targetCount: 2, updates: [Pair(source: 1, target: 1)]))
    }

    func test_identifiableHashableObjects_contentFromEquals() {
        let old = [HashableNode(1, "a"), HashableNode(2, "b"), HashableNode(3, "c")]
        XCTAssertNil(
            replacing(old, with: [HashableNode(1, "a"), HashableNode(2, "b"), HashableNode(3, "c")]) {
                $0.replace(with: $1)
            })
        XCTAssertEqual(
            replacing(old, with: [HashableNode(1, "A"), HashableNode(3, "c")]) { $0.replace(with: $1) },
            Changeset(sourceCount: 3, targetCount: 2, deletes: [1], updates: [Pair(source: 0, target: 0)]))
    }

    func test_hashableObjects_identityFromObjectIdentifier_notFromEquals() {
        let (a, b) = (ValueNode("a"), ValueNode("b"))
        XCTAssertNil(replacing([a, b], with: [a, b]) { $0.replace(with: $1, identity: .object) })
        XCTAssertEqual(
            replacing([a, b], with: [a, ValueNode("b")]) { $0.replace(with: $1, identity: .object) },
            Changeset(sourceCount: 2, targetCount: 2, deletes: [1], inserts: [1]),
            "an equal new instance is still another object")
    }

    func test_closureForm_usesTheGivenIdentityAndContent() {
        let old = ["apple", "banana", "cherry"]
        let new = ["Cherry", "apple", "blueberry"]
        // Identity: the first letter, case-insensitively; content: the whole word.
        XCTAssertEqual(
            replacing(old, with: new) {
                $0.replace(with: $1, identity: .key({ $0.lowercased().first }, contentEquals: ==))
            },
            Changeset(
                sourceCount: 3, targetCount: 3, moves: [Pair(source: 2, target: 0)],
                updates: [Pair(source: 1, target: 2), Pair(source: 2, target: 0)]))
        XCTAssertNil(
            replacing(old, with: ["avocado", "blackberry", "coconut"]) {
                $0.replace(with: $1, identity: .key({ $0.first }, contentEquals: { _, _ in true }))
            },
            "same identities, content declared equal: nothing to publish")
    }

    // MARK: - Edges

    func test_fromEmpty_insertsEverything_andToEmpty_deletesEverything() {
        XCTAssertEqual(
            replacing([], with: [TestItem](ids: [1, 2])) { $0.replace(with: $1) },
            Changeset(sourceCount: 0, targetCount: 2, inserts: [0, 1]))
        XCTAssertEqual(
            replacing([TestItem](ids: [1, 2]), with: []) { $0.replace(with: $1) },
            Changeset(sourceCount: 2, targetCount: 0, deletes: [0, 1]))
    }

    func test_replace_snapshotIsExactlyTheNewElements_andVersionsContinue() {
        let collection = ObservableCollection([TestItem](ids: [1, 2, 3]))
        let checker = ChangeChecker<TestItem>(initial: Array(collection.snapshot), useUIKitOracle: true)
        let token = collection.subscribe(on: .synchronous, checker.handler)
        collection.append(TestItem(id: 4))
        let new = [TestItem(id: 4, content: 1), TestItem(id: 2), TestItem(id: 9)]
        collection.replace(with: new)
        XCTAssertEqual(Array(collection.snapshot), new)
        collection.remove(at: 0)
        checker.assertConsistent(finalSnapshot: Array(collection.snapshot), finalVersion: 3)
        token.cancel()
    }

    // MARK: - Minimal moves

    func test_randomPermutations_movesAreMinimal_bruteForce() {
        forEachSeed(0..<1_000) { _, random in
            let count = random.int(in: 0...9)
            let old = [TestItem](ids: Array(0..<count))
            var new = old.filter { _ in !random.chance(1, in: 5) }
            random.shuffle(&new)
            for _ in 0..<random.int(in: 0...2) {
                new.insert(TestItem(id: 100 + new.count), at: random.int(in: 0...new.count))
            }
            for index in new.indices where random.chance(1, in: 4) { new[index].content = 1 }
            let collection = ObservableCollection(old)
            let recorder = EventRecorder<CollectionChange<TestItem>>()
            let token = collection.subscribe(on: .synchronous, recorder.handler)
            collection.replace(with: new)
            token.cancel()
            let context = "\(old.ids) → \(new)"
            guard let event = recorder.events.first else {
                return new == old ? nil : "\(context): nothing published"
            }
            if let failure = eventFailure(event, after: old, useUIKitOracle: true) { return "\(context): \(failure)" }
            let matched = new.filter { $0.id < 100 }.ids
            let minimal = minimalMoveCount(matchedSources: matched, bruteForce: true)
            if event.changeset.moves.count != minimal {
                return "\(context): \(event.changeset.moves.count) moves, minimum \(minimal)"
            }
            return nil
        }
    }
}

// MARK: - Conformances isolated to the main actor

/// A cell presenter whose conformances are written as the compiler's fix-it suggests: isolated to
/// the main actor (issue 21, bug 4). A `Sendable` element cannot use them, so the default
/// `replace(with:)` does not compile for it.
@MainActor
private final class IsolatedPresenter: @MainActor Identifiable, @MainActor Equatable {
    let id: Int
    let title: String
    init(_ id: Int, _ title: String = "") {
        self.id = id
        self.title = title
    }
    static func == (lhs: IsolatedPresenter, rhs: IsolatedPresenter) -> Bool {
        lhs.id == rhs.id && lhs.title == rhs.title
    }
}

/// The same presenter with the conformances nonisolated.
@MainActor
private final class NonisolatedPresenter: Identifiable, Equatable {
    let id: Int
    let title: String
    init(_ id: Int, _ title: String = "") {
        self.id = id
        self.title = title
    }
    nonisolated static func == (lhs: NonisolatedPresenter, rhs: NonisolatedPresenter) -> Bool {
        lhs.id == rhs.id && lhs.title == rhs.title
    }
}

/// A presenter that declares no identity.
@MainActor
private final class PlainPresenter {}

/// A section header object for the sectioned overloads, `Identifiable` without isolation.
private final class Header: Identifiable, Equatable, Sendable {
    let id = 1
    static func == (lhs: Header, rhs: Header) -> Bool { lhs.id == rhs.id }
}

/// The changes `replace` publishes.
private func changes<Element: Sendable>(
    of collection: ObservableCollection<Element>, _ replace: (ObservableCollection<Element>) -> Void
) -> [Changeset] {
    let recorder = EventRecorder<CollectionChange<Element>>()
    let token = collection.subscribe(on: .synchronous, recorder.handler)
    replace(collection)
    token.cancel()
    return recorder.events.map(\.changeset)
}

/// `replace(with:)` on presenters whose `Identifiable` and `Equatable` conformances are isolated to
/// the main actor (the compiler's fix-it). The default `replace(with:)` does not compile for them
/// (`Tests/CompileFailures/IsolatedIdentityReplacedWithoutAnIdentity.swift`); an explicit identity
/// says what happens, and reports nothing.
final class ObservableCollectionReplaceIsolatedIdentityTests: DiagnosticsTestCase {

    /// Issue 21, bug 4: on the main actor, `.key({ $0.id }, contentEquals: ==)` diffs by `id`: the
    /// same ids and content are no change, a changed title is an update, never the delete and
    /// insert of every row.
    func test_mainActorIsolatedIdentifiable_withAKeyOnTheMainActor_diffsByID() {
        let diagnostics = self.diagnostics
        MainActor.assumeIsolated {
            let list = ObservableCollection([IsolatedPresenter(1, "Dune"), IsolatedPresenter(2, "Emma")])
            @MainActor func replace(_ presenters: [IsolatedPresenter]) -> [Changeset] {
                changes(of: list) { $0.replace(with: presenters, identity: .key({ $0.id }, contentEquals: ==)) }
            }
            XCTAssertEqual(replace([IsolatedPresenter(1, "Dune"), IsolatedPresenter(2, "Emma")]), [])
            XCTAssertEqual(
                replace([IsolatedPresenter(1, "Dune (2nd)"), IsolatedPresenter(2, "Emma")]),
                [Changeset(sourceCount: 2, targetCount: 2, updates: [.init(source: 0, target: 0)])])
            XCTAssertEqual(
                replace([IsolatedPresenter(2, "Emma"), IsolatedPresenter(3, "Fury")]),
                [Changeset(sourceCount: 2, targetCount: 2, deletes: [0], inserts: [1])])
            XCTAssertEqual(diagnostics.events, [])
        }
    }

    /// Nonisolated conformances take the default identity, `.id`.
    func test_nonisolatedConformances_takeTheDefault() {
        MainActor.assumeIsolated {
            let update = [Changeset(sourceCount: 2, targetCount: 2, updates: [.init(source: 0, target: 0)])]
            let nonisolated = ObservableCollection([NonisolatedPresenter(1, "Dune"), NonisolatedPresenter(2, "Emma")])
            XCTAssertEqual(
                changes(of: nonisolated) {
                    $0.replace(with: [NonisolatedPresenter(1, "Dune (2nd)"), NonisolatedPresenter(2, "Emma")])
                }, update)
        }
    }

    /// Off the main actor, object identity is the identity that can be used, and says so.
    func test_offTheMainActor_objectIdentity() {
        let (list, kept) = MainActor.assumeIsolated {
            let kept = IsolatedPresenter(1)
            return (ObservableCollection([kept]), kept)
        }
        let fresh = MainActor.assumeIsolated { [kept, IsolatedPresenter(1)] }
        let done = expectation(description: "replaced")
        let published = Locked<[Changeset]>([])
        DispatchQueue.global().async {
            let events = changes(of: list) { $0.replace(with: fresh, identity: .object) }
            published.withLock { $0 = events }
            done.fulfill()
        }
        wait(for: [done], timeout: 30)
        XCTAssertEqual(published.withLock { $0 }, [Changeset(sourceCount: 1, targetCount: 2, inserts: [1])])
        XCTAssertEqual(diagnostics.events, [])
    }

    /// The sectioned `replace` methods take one identity per level: `Identifiable` headers by
    /// `id`, isolated presenters by a key on the main actor.
    func test_sectioned_identityPerLevel() {
        MainActor.assumeIsolated {
            let header = Header()
            let sectioned = SectionedCollection<Header, IsolatedPresenter>(
                [SectionSnapshot(section: header, items: [IsolatedPresenter(1)])])
            let version = sectioned.version
            sectioned.replace(
                with: [SectionSnapshot(section: header, items: [IsolatedPresenter(1)])],
                sectionIdentity: .id, itemIdentity: .key({ $0.id }, contentEquals: ==))
            sectioned.replace(
                withSections: [SectionData(header, items: [IsolatedPresenter(1)])],
                sectionIdentity: .id, itemIdentity: .key({ $0.id }, contentEquals: ==))
            XCTAssertEqual(sectioned.version, version, "the same ids and content: no change")
            sectioned.replace(
                with: [SectionSnapshot(section: header, items: [IsolatedPresenter(1, "Dune")])],
                sectionIdentity: .id, itemIdentity: .key({ $0.id }, contentEquals: ==))
            XCTAssertEqual(sectioned.version, version + 1)
            let plain = SectionedCollection<Header, PlainPresenter>([SectionSnapshot(section: Header(), items: [])])
            plain.replace(
                with: [SectionSnapshot(section: Header(), items: [PlainPresenter()])], sectionIdentity: .id,
                itemIdentity: .object)
            XCTAssertEqual(plain.snapshot.first?.items.count, 1)
        }
    }
}

/// Issue 23: only an event that follows a `replace(with:)` may keep a row with another instance, so
/// a list source of objects compares every row only after one; any other event costs what it
/// changes.
final class ObservableCollectionReplacedKeptElementsTests: XCTestCase {
    private final class Row: Sendable {
        let id: Int
        init(id: Int) { self.id = id }
    }

    func test_onlyEventsAfterAReplace_mayReplaceKeptElements() {
        let rows = ObservableCollection([Row(id: 1), Row(id: 2)])
        let recorder = EventRecorder<CollectionChange<Row>>()
        let token = rows.subscribe(on: .synchronous, recorder.handler)
        rows.append(Row(id: 3))
        rows.remove(at: 0)
        rows[0] = Row(id: 2)
        rows.move(from: 0, to: 1)
        XCTAssertEqual(recorder.events.map(\.mayReplaceKeptElements), [false, false, false, false])
        // The same identifiers, fresh instances: kept rows with other objects.
        rows.replace(with: rows.map { Row(id: $0.id) }, identity: .key(\.id, contentEquals: { _, _ in true }))
        XCTAssertEqual(recorder.count, 4, "nothing changed by the identity's account: no event")
        rows.append(Row(id: 4))
        XCTAssertEqual(recorder.events.last?.mayReplaceKeptElements, true, "the swap is still unseen by subscribers")
        rows.append(Row(id: 5))
        XCTAssertEqual(recorder.events.last?.mayReplaceKeptElements, false)
        rows.performBatchUpdates {
            rows.append(Row(id: 6))
            rows.replace(with: rows.map { Row(id: $0.id) }, identity: .key(\.id, contentEquals: { _, _ in true }))
        }
        XCTAssertEqual(recorder.events.last?.mayReplaceKeptElements, true)
        token.cancel()
    }
}
