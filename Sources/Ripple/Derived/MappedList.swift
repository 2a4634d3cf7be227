import RippleDiff

/// A live list of one derived element per element of another list, in that list's order: made by
/// ``LiveList/mapped(_:updating:)``, typically to give each model a presenter.
///
/// <!-- swift
/// struct Book: Identifiable, Equatable, Sendable {
///     var id: Int
///     var title: String
/// }
/// final class BookRow: Sendable {
///     let book: Book
///     init(_ book: Book) { self.book = book }
/// }
/// -->
/// ```swift
/// let books = ObservableCollection<Book>()
/// let rows = books.mapped { BookRow($0) }
/// books.append(Book(id: 1, title: "Dune"))   // rows: one insert, one new BookRow
/// books.append(Book(id: 2, title: "Emma"))   // rows: one insert; the first row keeps its BookRow
/// print(rows.count)
/// // 2
/// ```
///
/// # Events
/// Each event of the source gives one event here, with the same change-set. A source element
/// keeps its derived element while it stays, moves included: `transform` runs once when the
/// element arrives. An updated element is updated in place by `updating` when it was given, and
/// replaced by `transform` of the new value otherwise. A removed element's derived element is
/// released once no snapshot holds it.
///
/// # Thread Safety
/// The source may be mutated from any thread. `transform` and `updating` run outside every lock, on
/// the thread that publishes the source's event, one event at a time (see ``DerivedList``).
///
/// # Performance
/// A source event of *k* changes costs *k* calls and O(*k* log *n*). The derived elements live in
/// a ``ListSnapshot`` that shares its storage with every snapshot handed out.
public final class MappedList<Source: Sendable, Element: Sendable>: DerivedList<Element>, @unchecked Sendable {
    // @unchecked Sendable: restates `DerivedList`'s conformance (see there); the properties added
    // here are `let`s of `Sendable` types.

    /// Makes the derived element of a source element.
    private let transform: @Sendable (Source) -> Element
    /// Updates a derived element in place for its source element's new value; `nil` to replace it.
    private let update: (@Sendable (inout Element, Source) -> Void)?

    init(
        _ source: some LiveList<Source>, transform: @escaping @Sendable (Source) -> Element,
        update: (@Sendable (inout Element, Source) -> Void)?
    ) {
        self.transform = transform
        self.update = update
        super.init(source: source)
        // Source events that arrive before `start` wait in the queue.
        let (snapshot, _, token) = source._subscribe(afterReading: { [weak self] change in
            guard let self else { return }
            self.enqueue { self.apply(change, to: $0) }
        })
        start(Self.build(snapshot, transform), subscription: token)
    }

    /// `transform` of each element of `source`, in one pass and one bulk build.
    private static func build(
        _ source: ListSnapshot<Source>, _ transform: (Source) -> Element
    ) -> ListSnapshot<Element> {
        var elements: [Element] = []
        elements.reserveCapacity(source.count)
        for element in source { elements.append(transform(element)) }
        return ListSnapshot(elements)
    }

    /// Applies a source event to the derived `elements`: the same changes, with the derived
    /// elements of the elements it brings.
    private func apply(_ change: CollectionChange<Source>, to elements: ListSnapshot<Element>) -> Derivation {
        let changeset = change.changeset
        let after = change.snapshot
        var elements = elements
        // A moved element keeps its derived element: taken out at its source offset, put in at its
        // target. Removals from the end, insertions from the start.
        var moving: [Int: Element] = [:]
        let moveTargets = Dictionary(uniqueKeysWithValues: changeset.moves.map { ($0.source, $0.target) })
        for offset in (changeset.deletes + changeset.moves.map(\.source)).sorted(by: >) {
            let removed = elements.remove(at: offset)
            if let target = moveTargets[offset] { moving[target] = removed }
        }
        let arrivals = (changeset.inserts + changeset.moves.map(\.target)).sorted()
        for target in arrivals {
            elements.insert(moving.removeValue(forKey: target) ?? transform(after[target]), at: target)
        }
        for pair in changeset.updates {
            if let update {
                update(&elements[pair.target], after[pair.target])
            } else {
                elements[pair.target] = transform(after[pair.target])
            }
        }
        // A kept element keeps its derived element, whatever instance the source now holds.
        return Derivation(changeset: changeset, elements: elements, mayReplaceKeptElements: false)
    }
}

extension LiveList {
    /// A live list of one element made by `transform` for each element of this one, in this list's
    /// order, kept while its source element stays: the way to give each row a presenter.
    ///
    /// It follows every event of this list with one event of its own, with the same change-set.
    ///
    /// - Parameters:
    ///   - transform: Makes the derived element of an element. It runs once per element that
    ///     arrives (at the start, inserted, or updated when `updating` is `nil`), on the thread that
    ///     publishes this list's event (or that calls `mapped`), outside every lock. A moved element
    ///     keeps its derived element.
    ///   - updating: Updates a derived element in place for the new value of its element, where
    ///     `transform` runs; `nil` (the default) to replace the derived element with `transform` of
    ///     the new value.
    /// - Returns: The mapped list. It keeps this list alive.
    /// - Complexity: O(*n*) calls to start; then O(*k* log *n*) per event of *k* changes.
    public func mapped<Mapped: Sendable>(
        _ transform: @escaping @Sendable (Element) -> Mapped,
        updating: (@Sendable (inout Mapped, Element) -> Void)? = nil
    ) -> MappedList<Element, Mapped> {
        MappedList(self, transform: transform, update: updating)
    }
}
