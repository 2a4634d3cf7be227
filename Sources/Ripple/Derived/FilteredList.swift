import Dispatch
import RippleDiff

/// A live list of the elements of another list that pass a predicate, in that list's order: made
/// by ``LiveList/filtered(by:)``.
///
/// <!-- swift
/// struct Book: Identifiable, Equatable, Sendable {
///     var id: Int
///     var title: String
/// }
/// -->
/// ```swift
/// let books = ObservableCollection<Book>()
/// let matching = books.filtered { $0.title.hasPrefix("D") }
/// books.append(Book(id: 1, title: "Dune"))   // matching: one insert
/// books.append(Book(id: 2, title: "Emma"))   // matching: no event
/// matching.setPredicate { $0.title.hasPrefix("E") }   // matching: delete [0], insert [0]
/// ```
///
/// # Events
/// Each event of the source that changes the filtered elements gives one event here, in the
/// source's order, whose change-set is in UIKit's form and replays onto the previous event's
/// snapshot; an event that changes none of them gives none. An inserted or updated element that
/// passes is inserted or updated here, one that stops passing is deleted, a moved one moves. Every
/// snapshot is the source's snapshot of one of its versions, filtered.
///
/// # Thread Safety
/// The source may be mutated from any thread. The predicate runs outside every lock, on the thread
/// that publishes the source's event (or that calls `setPredicate(_:)`), one event at a time (see
/// ``DerivedList``).
///
/// # Performance
/// A source event of *k* changes costs *k* predicate calls and O(*k* log *n*); a new predicate
/// costs *n* calls and O(*n*). The filtered elements live in a ``ListSnapshot`` that shares its
/// storage with every snapshot handed out.
public final class FilteredList<Element: Sendable>: DerivedList<Element>, @unchecked Sendable {
    // @unchecked Sendable: restates `DerivedList`'s conformance (see there); the one stored
    // property added here is a `let` of a `Sendable` type.

    struct Filtering {
        /// The source as of the last event applied.
        var source: ListSnapshot<Element>
        /// The predicate in force.
        var isIncluded: @Sendable (Element) -> Bool
        /// What the filter keeps of the source.
        var filter: FilterState<Element>
    }

    /// Only the processing thread uses it (see `takeOperatorState()`).
    private let filtering = LockedState<Filtering?>(nil)

    init(_ source: some LiveList<Element>, isIncluded: @escaping @Sendable (Element) -> Bool) {
        super.init(source: source)
        // Source events that arrive before `start` wait in the queue.
        let (snapshot, _, token) = source._subscribe(afterReading: { [weak self] change in
            guard let self else { return }
            self.enqueue { self.apply(change, to: $0) }
        })
        let (filter, elements) = FilterState.filtering(snapshot, by: isIncluded)
        filtering.restore(Filtering(source: snapshot, isIncluded: isIncluded, filter: filter))
        start(elements, subscription: token)
    }

    /// Filters the source again with `isIncluded`, and publishes the difference as one event.
    ///
    /// The new predicate applies from the source version the list shows now: source events that
    /// arrive before it is applied are filtered with the old one, and the new one re-filters their
    /// result.
    ///
    /// - Parameter isIncluded: The new predicate (see ``LiveList/filtered(by:)``).
    /// - Complexity: O(*n*) predicate calls and O(*n*).
    public func setPredicate(_ isIncluded: @escaping @Sendable (Element) -> Bool) {
        enqueue { [self] elements in
            // The state is mutated in place; what it lets go of (the old predicate) is released
            // when the step returns, outside every lock.
            var elements = elements
            var filtering = self.filtering.takeOperatorState()
            let changeset = filtering.filter.refilter(filtering.source, by: isIncluded, elements: &elements)
            filtering.isIncluded = isIncluded
            self.filtering.restore(filtering)
            return Derivation(changeset: changeset, elements: elements, mayReplaceKeptElements: false)
        }
    }

    /// Applies a source event to the filtered `elements`: the predicate on the elements it brings,
    /// then the filter.
    private func apply(_ change: CollectionChange<Element>, to elements: ListSnapshot<Element>) -> Derivation {
        var elements = elements
        var filtering = self.filtering.takeOperatorState()
        let flags = FilterState.Flags(of: change.changeset, in: change.snapshot, filtering.isIncluded)
        let changeset = filtering.filter.apply(
            change.changeset, after: change.snapshot, flags: flags, elements: &elements)
        filtering.source = change.snapshot
        self.filtering.restore(filtering)
        return Derivation(
            changeset: changeset, elements: elements, mayReplaceKeptElements: change.mayReplaceKeptElements)
    }
}
