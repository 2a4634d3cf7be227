#if canImport(Combine)
import Combine
import RippleDiff

/// ``ObservedList`` for iOS 13 to 16 and macOS 10.15 to 13, where Observation is missing: the same
/// list, published to SwiftUI through `ObservableObject` (`@ObservedObject`, `@StateObject`).
///
/// `objectWillChange` fires once per event, just before ``elements`` changes to that event's
/// snapshot, which it keeps as ``ObservedList`` does: O(1) per event.
@MainActor
public final class ObservedListObject<Element: Sendable>: ObservableObject {
    private var mirror: ListMirror<Element>
    private let token: SubscriptionToken

    /// Wraps the change of each event; `nil` changes without animation. It must call `change`
    /// exactly once.
    public var transaction: (@MainActor (_ change: () -> Void) -> Void)?

    /// The collection it follows.
    public let collection: ObservableCollection<Element>

    /// Creates a list that follows `collection`, starting from its last published event.
    ///
    /// - Parameter collection: The collection to follow.
    public init(_ collection: ObservableCollection<Element>) {
        self.collection = collection
        let box = WeakBox<ObservedListObject>()
        (mirror, token) = ListMirror.following(collection, for: box) { $0.apply($1) }
        box.value = self
    }

    /// The elements as of the last event applied, for `List` and `ForEach`.
    public var elements: ListSnapshot<Element> { mirror.elements }

    /// The version of the last event applied.
    public var version: Int { mirror.version }

    private func apply(_ change: CollectionChange<Element>) {
        guard mirror.isNew(change) else { return }
        applyOnce(in: transaction) {
            objectWillChange.send()
            return mirror.apply(change)
        }
    }
}

/// ``ObservedSectionedList`` for iOS 13 to 16 and macOS 10.15 to 13, through `ObservableObject`.
@MainActor
public final class ObservedSectionedListObject<Section: Sendable, Item: Sendable>: ObservableObject {
    private var mirror: SectionedListMirror<Section, Item>
    private let token: SubscriptionToken

    /// Wraps the change of each event; `nil` changes without animation. It must call `change`
    /// exactly once.
    public var transaction: (@MainActor (_ change: () -> Void) -> Void)?

    /// The collection it follows.
    public let collection: SectionedCollection<Section, Item>

    /// Creates a list that follows `collection`, starting from its last published event.
    ///
    /// - Parameter collection: The collection to follow.
    public init(_ collection: SectionedCollection<Section, Item>) {
        self.collection = collection
        let box = WeakBox<ObservedSectionedListObject>()
        (mirror, token) = SectionedListMirror.following(collection, for: box) { $0.apply($1) }
        box.value = self
    }

    /// The sections and their items as of the last event applied.
    public var sections: [SectionSnapshot<Section, Item>] { mirror.sections }

    /// The version of the last event applied.
    public var version: Int { mirror.version }

    private func apply(_ change: SectionedCollectionChange<Section, Item>) {
        guard mirror.isNew(change) else { return }
        applyOnce(in: transaction) {
            objectWillChange.send()
            return mirror.apply(change)
        }
    }
}
#endif
