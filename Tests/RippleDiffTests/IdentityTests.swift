import RippleDiff
import RippleTestSupport
import XCTest

/// Which identity and content rule each overload of `Changeset(from:to:)` and
/// `StagedChangeset(from:to:)` picks. The rules, in order of preference: `Identifiable.id`, then
/// `ObjectIdentifier` for classes, then the value itself for `Hashable` elements; contents from
/// `Equatable` where there is one.
final class IdentityTests: XCTestCase {
    private typealias Pair = Changeset.OffsetPair

    // MARK: - Element types, one per overload

    /// `Identifiable & Equatable`, not `Hashable`.
    private struct Book: Identifiable, Equatable {
        var id: String
        var title: String
    }

    /// `Identifiable & Hashable`: identity is `id`, not the whole value.
    private struct Tag: Identifiable, Hashable {
        var id: Int
        var name: String
    }

    /// A plain class: identity is the instance.
    private final class Presenter {
        var title: String
        init(_ title: String) { self.title = title }
    }

    /// An `Identifiable` class without `Equatable`: a new instance with the same `id` is an update.
    private final class Row: Identifiable {
        let id: Int
        init(_ id: Int) { self.id = id }
    }

    /// An `Identifiable & Equatable` class: contents from `==`.
    private final class Contact: Identifiable, Equatable {
        let id: Int
        var name: String
        init(_ id: Int, _ name: String) {
            self.id = id
            self.name = name
        }
        static func == (lhs: Contact, rhs: Contact) -> Bool { lhs.id == rhs.id && lhs.name == rhs.name }
    }

    /// An `Identifiable & Hashable` class: identity from `id`, contents from `==`.
    private final class Account: Identifiable, Hashable {
        let id: Int
        var balance: Int
        init(_ id: Int, _ balance: Int) {
            self.id = id
            self.balance = balance
        }
        static func == (lhs: Account, rhs: Account) -> Bool { lhs.id == rhs.id && lhs.balance == rhs.balance }
        func hash(into hasher: inout Hasher) { hasher.combine(id) }
    }

    /// A `Hashable` class that is not `Identifiable`: identity is the instance, even though equal
    /// instances hash alike.
    private final class Token: Hashable {
        let value: String
        init(_ value: String) { self.value = value }
        static func == (lhs: Token, rhs: Token) -> Bool { lhs.value == rhs.value }
        func hash(into hasher: inout Hasher) { hasher.combine(value) }
    }

    /// Checks `changes` against every rule for the given identity, and the staged form too.
    private func check<Element, Rule>(
        _ changes: Changeset,
        _ staged: StagedChangeset<[Element]>,
        from source: [Element],
        to target: [Element],
        identity: DiffIdentity<Element, Rule>,
        sameElement: (Element, Element) -> Bool,
        file: StaticString = #filePath,
        line: UInt = #line
    ) {
        if let failure = diffFailure(
            changes, from: source, to: target, identity: identity,
            sameElement: sameElement)
        {
            XCTFail(failure, file: file, line: line)
        }
        if let failure = stagedFailure(staged, for: changes, from: source, to: target, sameElement: sameElement) {
            XCTFail(failure, file: file, line: line)
        }
    }

    /// `==` compares the text only: not substitutable, but common in app code ("same headline").
    private struct Headline: Identifiable, Equatable {
        var id: Int
        var text: String
        static func == (lhs: Headline, rhs: Headline) -> Bool { lhs.text == rhs.text }
    }

    // MARK: - Values

    func test_identifiableEquatableStruct_identityFromID_contentFromEquality() {
        let source = [Book(id: "a", title: "Alpha"), Book(id: "b", title: "Beta"), Book(id: "c", title: "Gamma")]
        let target = [
            Book(id: "c", title: "Gamma"), Book(id: "a", title: "Alpha, revised"), Book(id: "d", title: "Delta"),
        ]
        let changes = Changeset(from: source, to: target)
        XCTAssertEqual(
            changes,
            Changeset(
                sourceCount: 3, targetCount: 3, deletes: [1], inserts: [2],
                moves: [Pair(source: 2, target: 0)], updates: [Pair(source: 0, target: 1)]))
        check(
            changes, StagedChangeset(from: source, to: target), from: source, to: target,
            identity: .key({ $0.id }, contentEquals: ==), sameElement: ==)
    }

    func test_identifiableHashableStruct_usesTheIDNotTheValue() {
        // As a plain Hashable value, the renamed tag would be a delete and an insert.
        let source = [Tag(id: 1, name: "swift"), Tag(id: 2, name: "ios")]
        let target = [Tag(id: 1, name: "Swift"), Tag(id: 2, name: "ios")]
        let changes = Changeset(from: source, to: target)
        XCTAssertEqual(changes, Changeset(sourceCount: 2, targetCount: 2, updates: [Pair(source: 0, target: 0)]))
        check(
            changes, StagedChangeset(from: source, to: target), from: source, to: target,
            identity: .key({ $0.id }, contentEquals: ==), sameElement: ==)
    }

    func test_hashableValue_isItsOwnIdentity_andNeverUpdated() {
        let source = ["a", "b", "c"]
        let target = ["A", "c", "b"]
        let changes = Changeset(from: source, to: target, identity: .value)
        XCTAssertEqual(changes.deletes, [0])
        XCTAssertEqual(changes.inserts, [0])
        XCTAssertEqual(changes.moves.count, 1)
        XCTAssertEqual(changes.updates, [])
        check(
            changes, StagedChangeset(from: source, to: target, identity: .value), from: source, to: target,
            identity: .key({ $0 }, contentEquals: { _, _ in true }), sameElement: ==)
    }

    func test_hashableValue_matchesTheIdentifiableDiffOfItsIdentifiers() {
        // For items whose contents never change, both overloads describe the same change.
        forEachSeed(0..<2_000) { seed, random in
            let shape = DiffInputShape.allCases[Int(seed) % DiffInputShape.allCases.count]
            let input = DiffInput.random(shape, count: random.int(in: 0...20), using: &random)
            let ids = (source: input.source.ids, target: input.target.ids)
            let byValue = Changeset(from: ids.source, to: ids.target, identity: .value)
            let byID = Changeset(from: [TestItem](ids: ids.source), to: [TestItem](ids: ids.target))
            return byValue == byID ? nil : "\(ids): by value \(byValue), by id \(byID)"
        }
    }

    func test_identifiableOverload_neverPairsDifferentIDsWhenEqualityIgnoresTheID() {
        // The documented rule is "identity from `id`", in the common prefix and suffix too: two
        // different ids whose `==` says equal are two different elements.
        let source = [Headline(id: 1, text: "Breaking"), Headline(id: 2, text: "Sport")]
        let target = [Headline(id: 3, text: "Breaking"), Headline(id: 2, text: "Sport")]
        let expected = Changeset(sourceCount: 2, targetCount: 2, deletes: [0], inserts: [0])
        XCTAssertEqual(Changeset(from: source, to: target, identity: .key({ $0.id }, contentEquals: ==)), expected)
        let changes = Changeset(from: source, to: target)
        XCTAssertEqual(changes, expected)
        XCTAssertEqual(StagedChangeset(from: source, to: target).first?.changeset, expected)
        // The suffix too.
        let reversed = (source: Array(source.reversed()), target: Array(target.reversed()))
        XCTAssertEqual(
            Changeset(from: reversed.source, to: reversed.target),
            Changeset(sourceCount: 2, targetCount: 2, deletes: [1], inserts: [1]))
    }

    // MARK: - Objects

    func test_class_identityFromTheInstance_andNeverUpdated() {
        let first = Presenter("first")
        let second = Presenter("second")
        let twin = Presenter("first")  // equal fields, another instance
        let source = [first, second]
        let target = [second, twin, first]
        first.title = "changed in place"  // an object refreshes its own cell: never an update
        let changes = Changeset(from: source, to: target, identity: .object)
        XCTAssertEqual(changes.inserts, [1])
        XCTAssertEqual(changes.deletes, [])
        XCTAssertEqual(changes.moves.count, 1)
        XCTAssertEqual(changes.updates, [])
        check(
            changes, StagedChangeset(from: source, to: target, identity: .object), from: source, to: target,
            identity: .key({ ObjectIdentifier($0) }, contentEquals: { _, _ in true }), sameElement: ===)
    }

    func test_class_sameInstanceTwice_isADuplicate() {
        let shared = Presenter("shared")
        let other = Presenter("other")
        let source = [other, shared, shared]
        let target = [shared, other]
        let changes = Changeset(from: source, to: target, identity: .object)
        XCTAssertEqual(changes.duplicates, Changeset.Duplicates(sourceOffsets: [2]))
        check(
            changes, StagedChangeset(from: source, to: target, identity: .object), from: source, to: target,
            identity: .key({ ObjectIdentifier($0) }, contentEquals: { _, _ in true }), sameElement: ===)
    }

    func test_identifiableClass_newInstanceWithTheSameID_isAnUpdate() {
        let kept = Row(1)
        let replaced = Row(2)
        let source = [kept, replaced]
        let target = [kept, Row(2)]
        let changes = Changeset(from: source, to: target, identity: .key(\.id, contentEquals: ===))
        XCTAssertEqual(changes, Changeset(sourceCount: 2, targetCount: 2, updates: [Pair(source: 1, target: 1)]))
        XCTAssertTrue(Changeset(from: source, to: source, identity: .key(\.id, contentEquals: ===)).isEmpty)
        check(
            changes, StagedChangeset(from: source, to: target, identity: .key(\.id, contentEquals: ===)), from: source,
            to: target,
            identity: .key({ $0.id }, contentEquals: ===), sameElement: ===)
    }

    func test_identifiableEquatableClass_contentFromEquality() {
        let source = [Contact(1, "Ann"), Contact(2, "Bob")]
        let target = [Contact(2, "Bob"), Contact(1, "Anne")]  // new instances: Bob unchanged, Ann renamed
        let changes = Changeset(from: source, to: target)
        XCTAssertEqual(changes.moves.count, 1)
        XCTAssertEqual(changes.updates, [Pair(source: 0, target: 1)])
        check(
            changes, StagedChangeset(from: source, to: target), from: source, to: target,
            identity: .key({ $0.id }, contentEquals: ==), sameElement: ==)
    }

    func test_identifiableHashableClass_identityFromID_contentFromEquality() {
        let source = [Account(1, 10), Account(2, 20), Account(3, 30)]
        let target = [Account(1, 10), Account(2, 25), Account(4, 40)]
        let changes = Changeset(from: source, to: target)
        XCTAssertEqual(
            changes,
            Changeset(
                sourceCount: 3, targetCount: 3, deletes: [2], inserts: [2], updates: [Pair(source: 1, target: 1)]))
        check(
            changes, StagedChangeset(from: source, to: target), from: source, to: target,
            identity: .key({ $0.id }, contentEquals: ==), sameElement: ==)
    }

    func test_hashableClass_identityFromTheInstanceNotTheValue() {
        let a = Token("a")
        let equalToA = Token("a")
        let b = Token("b")
        let source = [a, b]
        let target = [equalToA, b]  // == to a and hashes alike, but another object
        let changes = Changeset(from: source, to: target, identity: .object)
        XCTAssertEqual(changes, Changeset(sourceCount: 2, targetCount: 2, deletes: [0], inserts: [0]))
        XCTAssertTrue(Changeset(from: [a, b], to: [a, b], identity: .object).isEmpty)
        check(
            changes, StagedChangeset(from: source, to: target, identity: .object), from: source, to: target,
            identity: .key({ ObjectIdentifier($0) }, contentEquals: ==), sameElement: ===)
    }

    // MARK: - Closures

    func test_closures_chooseTheKeyAndTheContent() {
        struct Song {
            var isbn: String
            var title: String
            var plays: Int
        }
        let source = [Song(isbn: "X1", title: "One", plays: 1), Song(isbn: "X2", title: "Two", plays: 2)]
        // The key ignores case; contents compare the title only, so play counts never update.
        let target = [Song(isbn: "x2", title: "Two", plays: 99), Song(isbn: "x1", title: "Uno", plays: 1)]
        let identifier = { (song: Song) in song.isbn.lowercased() }
        let contentEquals = { (lhs: Song, rhs: Song) in lhs.title == rhs.title }
        let identity = DiffIdentity.key(identifier, contentEquals: contentEquals)
        let changes = Changeset(from: source, to: target, identity: identity)
        XCTAssertEqual(changes.deletes, [])
        XCTAssertEqual(changes.inserts, [])
        XCTAssertEqual(changes.moves.count, 1)
        XCTAssertEqual(changes.updates, [Pair(source: 0, target: 1)])
        let staged = StagedChangeset(from: source, to: target, identity: identity)
        check(
            changes, staged, from: source, to: target, identity: identity,
            // Under a custom rule, a kept element only has to match by that rule.
            sameElement: { identifier($0) == identifier($1) && contentEquals($0, $1) })
    }

    func test_closures_agreeWithTheIdentifiableOverload() {
        forEachSeed(0..<2_000) { seed, random in
            let shape = DiffInputShape.allCases[Int(seed) % DiffInputShape.allCases.count]
            let input = DiffInput.random(shape, count: random.int(in: 0...20), using: &random)
            let byOverload = Changeset(from: input.source, to: input.target)
            let byClosures = Changeset(
                from: input.source, to: input.target, identity: .key({ $0.id }, contentEquals: ==))
            return byOverload == byClosures ? nil : "\(input): \(byOverload) vs \(byClosures)"
        }
    }

    // MARK: - Conformances isolated to the main actor

    /// A presenter with the conformances the compiler's fix-it writes, `@MainActor Identifiable,
    /// @MainActor Equatable` (issue 21, bug 4).
    @MainActor
    private final class IsolatedPresenter: @MainActor Identifiable, @MainActor Equatable {
        let id: Int
        let title: String
        init(_ id: Int, _ title: String) {
            self.id = id
            self.title = title
        }
        static func == (lhs: IsolatedPresenter, rhs: IsolatedPresenter) -> Bool {
            lhs.id == rhs.id && lhs.title == rhs.title
        }
    }

    /// On the main actor, `Changeset` and `StagedChangeset` (which require no `Sendable`) use the
    /// isolated conformances: identity from `id`, content from `==`, never object identity. Off the
    /// main actor the call does not compile (`Tests/CompileFailures`).
    func test_mainActorIsolatedIdentifiable_onTheMainActor_diffsByID() {
        MainActor.assumeIsolated {
            let old = [IsolatedPresenter(1, "Dune"), IsolatedPresenter(2, "Emma")]
            let new = [IsolatedPresenter(1, "Dune (2nd)"), IsolatedPresenter(2, "Emma")]
            XCTAssertEqual(
                Changeset(from: old, to: new),
                Changeset(sourceCount: 2, targetCount: 2, updates: [Pair(source: 0, target: 0)]))
            XCTAssertEqual(StagedChangeset(from: old, to: new).map(\.changeset), [Changeset(from: old, to: new)])
        }
    }

    // MARK: - Objects behind a class-bound protocol (issue 36)

    /// `.object` works for the heterogeneous lists of presenters the docs recommend: elements of
    /// `any Row` where `Row: AnyObject`, identified by instance, as `.key` with `ObjectIdentifier`
    /// did by hand.
    func test_classBoundExistential_identityFromTheInstance() {
        let first = Article("first")
        let ad = Ad()
        let twin = Article("first")
        let source: [any FeedRow] = [first, ad]
        let target: [any FeedRow] = [ad, twin, first]
        let changes = Changeset(from: source, to: target, identity: .object)
        XCTAssertEqual(changes.inserts, [1])
        XCTAssertEqual(changes.deletes, [])
        XCTAssertEqual(changes.updates, [])
        let byHand = Changeset(
            from: source, to: target,
            identity: .key({ ObjectIdentifier($0) }, contentEquals: { _, _ in true }))
        XCTAssertEqual(changes, byHand)
        XCTAssertEqual(
            Changeset(from: [first, ad, ad] as [any FeedRow], to: [ad, first] as [any FeedRow], identity: .object)
                .duplicates,
            Changeset.Duplicates(sourceOffsets: [2]))
        let sections = SectionedChangeset(
            from: [SectionSnapshot<any FeedRow, any FeedRow>(section: ad, items: [first])],
            to: [SectionSnapshot<any FeedRow, any FeedRow>(section: ad, items: [twin, first])],
            sectionIdentity: .object, itemIdentity: .object)
        XCTAssertEqual(sections.changeCount, 1)
    }

    /// An element that holds a value under `.object` traps with a message naming its type: Swift
    /// cannot require a class-bound existential in a constraint, so this is checked as it runs.
    func test_objectIdentity_ofAValue_trapsNamingTheType() throws {
        try assertChildCasesTrap(
            "RippleDiffTests.IdentityTests/test_childProcessEntry",
            expected: [
                "valueUnderObject":
                    "DiffIdentity.object: an element of type Any holds a Int, which is not an object"
            ])
    }

    /// The entry point of the child processes; skipped in a normal run.
    func test_childProcessEntry() throws {
        guard try childProcessCase() == "valueUnderObject" else { return }
        _ = Changeset(from: [1, 2] as [Any], to: [2] as [Any], identity: .object)
        print("the case did not trap")
    }
}

/// A row of a heterogeneous feed: objects behind a class-bound protocol.
private protocol FeedRow: AnyObject {}

private final class Article: FeedRow {
    let title: String
    init(_ title: String) { self.title = title }
}

private final class Ad: FeedRow {}
