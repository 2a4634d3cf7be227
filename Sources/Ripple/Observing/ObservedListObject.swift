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

    /// The list it follows, kept alive as long as this one is.
    private let source: any AnyObject & Sendable

    /// Creates a list that follows `list`, an ``ObservableCollection`` or a list derived from one,
    /// starting from its last published event.
    ///
    /// - Parameter list: The list to follow.
    /// - Complexity: O(1).
    public init(_ list: some LiveList<Element>) {
        source = list
        let box = WeakBox<ObservedListObject>()
        (mirror, token) = ListMirror.following(list, for: box) { $0.apply($1) }
        box.value = self
        interactions = RowInteractions(ownerName: "ObservedListObject<\(Element.self)>") {
            box.value?.mirror.elements ?? []
        }
        interactions.loadingRowChanged = { change in
            box.value?.objectWillChange.send()
            change()
        }
    }

    /// The rows' pagination and selection.
    private var interactions: RowInteractions<Element>!

    /// The rows' pagination and selection (``ObservedRows/rowInteractions``).
    public var rowInteractions: RowInteractions<Element> { interactions }

    /// The elements as of the last event applied, for `List` and `ForEach`.
    public var elements: ListSnapshot<Element> { mirror.elements }

    /// The elements, each with its path, for `ForEach(list.rows) { row in … }`.
    public var rows: ListRows<Element> { ListRows(elements: elements, section: 0) }

    /// Whether a page is loading and the loading row shows; `objectWillChange` fires before it
    /// changes.
    public var isLoadingPage: Bool { interactions.isLoadingPage }

    /// The version of the last event applied.
    public var version: Int { mirror.version }

    private func apply(_ change: CollectionChange<Element>) {
        guard mirror.isNew(change) else { return }
        applyOnce(in: transaction) {
            objectWillChange.send()
            return mirror.apply(change)
        }
        interactions?.rendered()
    }
}

extension ObservedListObject: ObservedRows {}

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
        interactions = RowInteractions(ownerName: "ObservedSectionedListObject<\(Section.self), \(Item.self)>") {
            box.value?.mirror.sections ?? []
        }
        interactions.loadingRowChanged = { change in
            box.value?.objectWillChange.send()
            change()
        }
    }

    /// The rows' pagination and selection.
    private var interactions: RowInteractions<Item>!

    /// The rows' pagination and selection (``ObservedRows/rowInteractions``).
    public var rowInteractions: RowInteractions<Item> { interactions }

    /// The sections and their items as of the last event applied.
    public var sections: [SectionSnapshot<Section, Item>] { mirror.sections }

    /// Whether a page is loading and the loading row shows; `objectWillChange` fires before it
    /// changes.
    public var isLoadingPage: Bool { interactions.isLoadingPage }

    /// The version of the last event applied.
    public var version: Int { mirror.version }

    private func apply(_ change: SectionedCollectionChange<Section, Item>) {
        guard mirror.isNew(change) else { return }
        applyOnce(in: transaction) {
            objectWillChange.send()
            return mirror.apply(change)
        }
        interactions?.rendered()
    }
}

extension ObservedSectionedListObject: ObservedRows {}
#endif
