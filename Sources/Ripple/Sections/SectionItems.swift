import RippleDiff

/// The items of one ``SectionData``: a list that lives in the ``SectionedCollection`` holding the
/// section, and on its own until then.
///
/// While the section is in a sectioned collection, its items are that collection's storage: every
/// mutation made here takes the collection's lock, changes the one list the collection reads, and
/// is published by the collection as item changes at the section's position at that moment, in
/// the same event sequence as every other change of the list. Reads here and reads of the
/// collection agree at every moment; there is nothing to keep in step.
///
/// Before the section is inserted, and after it is removed, the items are a plain thread-safe list
/// that publishes nothing: nothing shows them.
///
/// <!-- swift
/// struct InboxHeader: Sendable {}
/// struct Mail: Identifiable, Equatable, Sendable {
///     var id: Int
/// }
/// let mail1 = Mail(id: 1), mail2 = Mail(id: 2), mail3 = Mail(id: 3)
/// -->
/// ```swift
/// let inbox = SectionData(InboxHeader(), items: [mail1, mail2])
/// let list = SectionedCollection([inbox])
/// inbox.items.append(mail3)          // list publishes an item insert at (0 - 2)
/// inbox.items.performBatchUpdates {  // one event of the list for both
///     inbox.items.remove(at: 0)
///     inbox.items.move(from: 0, to: 1)
/// }
/// ```
///
/// To observe a section, subscribe to the sectioned collection: its events carry each section's
/// item changes.
///
/// # Thread Safety
/// Every member is safe from any thread. A mutation checks its offsets against the items as they
/// are when it runs, under the lock that every other mutation of the list takes, so reading
/// ``count`` and then removing traps only if another thread removed meanwhile.
public final class SectionItems<Item: Sendable>: Sendable {
    struct State {
        /// The items while no sectioned collection holds them; empty while one does.
        var items: ListSnapshot<Item>
        /// The collection holding the items, if any, and the link of its entry.
        var host: SectionItemsHost<Item>?
        var link = 0
        /// Counts the mutations made while no collection holds the items.
        var changes = 0
        /// The collection each open ``SectionItems/beginUpdates()`` opened a batch of, if any.
        var openBatches: [SectionItemsHost<Item>?] = []
    }

    let state: LockedState<State>

    /// Creates a list of items that no sectioned collection holds yet.
    ///
    /// - Parameter items: The items.
    public init(_ items: [Item] = []) {
        state = LockedState(State(items: ListSnapshot(items)))
    }

    /// Creates a list of items that no sectioned collection holds yet, sharing the storage of
    /// `items`.
    ///
    /// - Parameter items: The items.
    /// - Complexity: O(1).
    public init(_ items: ListSnapshot<Item>) {
        state = LockedState(State(items: items))
    }

    /// Where the items are at one moment: here (and what `here` returned, run under this lock), or
    /// in the collection `host` holds, as its entry `link`.
    enum Place<Result> {
        case here(Result)
        case held(SectionItemsHost<Item>, link: Int)
    }

    /// Runs `here` on this list's state if no collection holds the items, under this lock, or else
    /// `held` with the collection that does, after unlocking. `held` returns `nil` when the section
    /// left that collection meanwhile; then the items are looked for again.
    func withItems<Result>(
        here: (inout State) -> Result, held: (SectionItemsHost<Item>, Int) -> Result?
    ) -> Result {
        while true {
            let place = state.withLock { state -> Place<Result> in
                guard let host = state.host else { return .here(here(&state)) }
                return .held(host, link: state.link)
            }
            switch place {
            case .here(let result): return result
            case .held(let host, let link): if let result = held(host, link) { return result }
            }
        }
    }

    /// Runs `body` on the items where they live now: in the collection holding them (under its
    /// lock, which publishes the change-set `body` returns), or here.
    ///
    /// `body` returns the exact change-set of what it did (or `nil` for nothing) and what to hand
    /// back; anything it takes out of the items belongs in the result, released after unlocking.
    ///
    /// Pass `replacing: true` when `body` may put other instances where kept items were (a
    /// `replace`), so that the collection's next event says so.
    @usableFromInline
    func mutate<Result>(replacing: Bool = false, _ body: (inout ListSnapshot<Item>) -> (Changeset?, Result)) -> Result {
        withItems(
            here: { state in
                let (changes, result) = body(&state.items)
                if let changes, !changes.isEmpty { state.changes &+= 1 }
                return result
            },
            held: { host, link in host.mutateItems(link: link, replacing: replacing, body) })
    }

    /// Reads the items where they live now.
    @usableFromInline
    func read<Result>(_ body: (ListSnapshot<Item>) -> Result) -> Result {
        withItems(here: { body($0.items) }, held: { host, link in host.readItems(link: link, body) })
    }

    /// The items now.
    ///
    /// - Complexity: O(1): the snapshot shares the items' storage, and never changes.
    public var snapshot: ListSnapshot<Item> { read { $0 } }

    /// The number of items now.
    public var count: Int { read { $0.count } }

    /// Whether there are no items now.
    public var isEmpty: Bool { read { $0.isEmpty } }

    @usableFromInline
    static func outOfRange(_ method: String, _ offset: Int, _ range: String) -> Never {
        preconditionFailure("SectionItems.\(method): offset \(offset) is out of range \(range)")
    }
}
