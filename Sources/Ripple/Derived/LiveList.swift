import RippleDiff

/// A list that publishes one change-set for each of its changes: an ``ObservableCollection``, or a
/// list derived from one, such as a ``FilteredList``.
///
/// Derived lists and the code that shows lists read them through this protocol, so a filtered list
/// is shown and derived from exactly as its source is.
///
/// <!-- swift
/// struct Book: Identifiable, Equatable, Sendable {
///     var id: Int
///     var title: String
///     var isRead: Bool
/// }
/// -->
/// ```swift
/// let books = ObservableCollection<Book>()
/// let unread = books.filtered { !$0.isRead }
/// books.append(Book(id: 1, title: "Dune", isRead: false))
/// print(unread.count)   // 1
/// ```
public protocol LiveList<Element>: AnyObject, Sendable {
    /// The type of the elements.
    associatedtype Element: Sendable

    /// The elements as of the last event: an O(1) copy that shares its storage with the list.
    var snapshot: ListSnapshot<Element> { get }

    /// The version of the last published event; 0 before the first.
    var version: Int { get }

    /// The number of elements now.
    var count: Int { get }

    /// The element at `position` now.
    ///
    /// - Parameter position: An offset in `0..<count`; another offset traps, naming the offset and
    ///   the range.
    subscript(position: Int) -> Element { get }

    /// Subscribes a main-actor handler to the change events published from now on, delivered on
    /// the main queue.
    ///
    /// - Parameters:
    ///   - sendingCurrent: When `true`, the handler first receives the last published state as an
    ///     event with ``CollectionChange/isInitial`` set, then every later event.
    ///   - handler: Called with each event, in version order, on the main actor.
    /// - Returns: A token that keeps the subscription alive; discarding it cancels the subscription.
    func subscribe(
        sendingCurrent: Bool, _ handler: @escaping @MainActor (CollectionChange<Element>) -> Void
    ) -> SubscriptionToken

    /// Subscribes a handler to the change events published from now on, delivered where
    /// `delivery` says.
    ///
    /// - Parameters:
    ///   - delivery: Where the handler runs: synchronously, on a queue or on a scheduler.
    ///   - sendingCurrent: When `true`, the handler first receives the last published state as an
    ///     event with ``CollectionChange/isInitial`` set, then every later event.
    ///   - handler: Called with each event, in version order.
    /// - Returns: A token that keeps the subscription alive; discarding it cancels the subscription.
    func subscribe(
        on delivery: Delivery, sendingCurrent: Bool, _ handler: @escaping @Sendable (CollectionChange<Element>) -> Void
    ) -> SubscriptionToken

    /// Reads the elements as of the last event, with its version, and subscribes `handler`
    /// synchronously to the events after it, under one lock, so that no event falls between the
    /// read and the subscription. Derived lists start from it.
    ///
    /// - Parameter handler: Called with each later event, in version order, on the thread that
    ///   publishes it.
    /// - Returns: The elements and version read, and the subscription's token.
    func _subscribe(
        afterReading handler: @escaping @Sendable (CollectionChange<Element>) -> Void
    ) -> (snapshot: ListSnapshot<Element>, version: Int, token: SubscriptionToken)

    /// Reads the elements as of the last event, with its version, and subscribes a main-actor
    /// `handler` to the events after it, under one lock, delivered on the main queue. The lists
    /// that SwiftUI observes start from it.
    ///
    /// - Parameter handler: Called with each later event, in version order, on the main actor.
    /// - Returns: The elements and version read, and the subscription's token.
    func _subscribeOnMainActor(
        afterReading handler: @escaping @MainActor (CollectionChange<Element>) -> Void
    ) -> (snapshot: ListSnapshot<Element>, version: Int, token: SubscriptionToken)
}

extension ObservableCollection: LiveList {
    /// Reads the published elements and their version, and subscribes `handler` synchronously to
    /// the events after them, under one lock (see ``LiveList/_subscribe(afterReading:)``).
    ///
    /// - Parameter handler: Called with each later event, in version order.
    /// - Returns: The elements and version read, and the subscription's token.
    public func _subscribe(
        afterReading handler: @escaping @Sendable (CollectionChange<Element>) -> Void
    ) -> (snapshot: ListSnapshot<Element>, version: Int, token: SubscriptionToken) {
        let (published, version, token) = subscribe(afterReading: .synchronous(handler))
        return (published, version, token)
    }

    /// Reads the published elements and their version, and subscribes a main-actor `handler` to the
    /// events after them, under one lock (see ``LiveList/_subscribeOnMainActor(afterReading:)``).
    ///
    /// - Parameter handler: Called with each later event, in version order, on the main actor.
    /// - Returns: The elements and version read, and the subscription's token.
    public func _subscribeOnMainActor(
        afterReading handler: @escaping @MainActor (CollectionChange<Element>) -> Void
    ) -> (snapshot: ListSnapshot<Element>, version: Int, token: SubscriptionToken) {
        let (published, version, token) = subscribe(afterReading: .mainActor(handler))
        return (published, version, token)
    }
}

extension LiveList {
    /// A live list of the elements of this one that pass `isIncluded`, in this list's order.
    ///
    /// It follows every event of this list with one event of its own (none when the event changes
    /// none of its elements), whose change-set UIKit's batch updates accept as it is. The predicate
    /// can be changed later with ``FilteredList/setPredicate(_:)``.
    ///
    /// - Parameter isIncluded: Whether an element belongs in the filtered list. It runs on the
    ///   thread that publishes this list's event (or that calls `filtered(by:)` or
    ///   `setPredicate(_:)`), outside every lock, once per inserted, moved or updated element.
    /// - Returns: The filtered list. It keeps this list alive.
    /// - Complexity: O(*n*) predicate calls to start; then O(*k* log *n*) per event of *k* changes.
    public func filtered(by isIncluded: @escaping @Sendable (Element) -> Bool) -> FilteredList<Element> {
        FilteredList(self, isIncluded: isIncluded)
    }
}
