import Observation
import RippleDiff

/// A live list for SwiftUI: the elements of an ``ObservableCollection``, or of a list derived from
/// one (any ``LiveList``), as of its last event, on the main actor, observable with Observation.
///
/// SwiftUI's `List` and `ForEach` read ``elements`` directly, and a view's body that reads them is
/// invalidated once per event of the collection:
///
/// ```swift
/// struct Book: Identifiable, Equatable, Sendable { let id: Int; var title: String }
///
/// @MainActor
/// final class BooksPresenter {
///     let books = ObservableCollection<Book>()
///     lazy var shown = ObservedList(books)
/// }
///
/// // In a SwiftUI view: List(presenter.shown.elements) { book in Text(book.title) }
/// ```
///
/// # Events
/// Each event of the collection changes ``elements`` once, on the main actor, to exactly that
/// event's snapshot, and ``version`` to its version. The elements *are* the event's snapshot, a
/// ``ListSnapshot`` that shares its storage with the collection: following an event costs O(1)
/// whatever the list's length, and `List`/`ForEach` read it as the random-access collection it
/// is, without a copy.
///
/// # Animation
/// ``transaction`` wraps the change of each event: leave it `nil` to change without animation, or
/// set it (for example to `{ change in withAnimation(.default) { change() } }`) to animate each
/// event as one transaction.
///
/// # Lifetime
/// The list follows the collection while it lives; it holds the collection, not the other way
/// round. (The same holds for a derived list it follows.)
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
@MainActor
public final class ObservedList<Element: Sendable>: Observable {
    /// The list as of the events applied so far.
    private var mirror: ListMirror<Element>

    // Written out rather than `@Observable`: the two properties change together, once per event,
    // through `apply(_:)` alone, and the macro's expansion differs between toolchains.
    private let registrar = ObservationRegistrar()

    /// Wraps the change of each event; `nil` changes without animation.
    ///
    /// Set it to animate each event as one SwiftUI transaction:
    /// `list.transaction = { change in withAnimation(.snappy) { change() } }`. It must call
    /// `change` exactly once.
    public var transaction: (@MainActor (_ change: () -> Void) -> Void)?

    private let token: SubscriptionToken

    /// The list it follows, kept alive as long as this one is.
    private let source: any AnyObject & Sendable

    /// Creates a list that follows `list`, an ``ObservableCollection`` or a list derived from one,
    /// starting from its last published event.
    ///
    /// - Parameter list: The list to follow.
    /// - Complexity: O(1).
    public init(_ list: some LiveList<Element>) {
        source = list
        let box = WeakBox<ObservedList>()
        (mirror, token) = ListMirror.following(list, for: box) { $0.apply($1) }
        box.value = self
        interactions = RowInteractions(ownerName: "ObservedList<\(Element.self)>") { box.value?.mirror.elements ?? [] }
        interactions.loadingRowChanged = { change in
            guard let list = box.value else { return change() }
            list.registrar.withMutation(of: list, keyPath: \.isLoadingPage, change)
        }
    }

    /// The rows' pagination and selection.
    private var interactions: RowInteractions<Element>!

    /// The rows' pagination and selection (``ObservedRows/rowInteractions``).
    public var rowInteractions: RowInteractions<Element> { interactions }

    /// The elements, each with its path, for `ForEach(list.rows) { row in … }` and the SwiftUI
    /// modifier `row(_:of:)`.
    ///
    /// - Complexity: O(1).
    public var rows: ListRows<Element> { ListRows(elements: elements, section: 0) }

    /// Whether a page is loading and the loading row shows; a body that reads it follows it.
    public var isLoadingPage: Bool {
        registrar.access(self, keyPath: \.isLoadingPage)
        return interactions.isLoadingPage
    }

    /// The elements as of the last event applied, for `List` and `ForEach`.
    ///
    /// - Complexity: O(1).
    public var elements: ListSnapshot<Element> {
        registrar.access(self, keyPath: \.elements)
        return mirror.elements
    }

    /// The version of the last event applied: the followed list's ``LiveList/version`` once the
    /// main actor has caught up.
    public var version: Int {
        registrar.access(self, keyPath: \.version)
        return mirror.version
    }

    /// Applies one event, inside ``transaction``: one change of both properties.
    private func apply(_ change: CollectionChange<Element>) {
        guard mirror.isNew(change) else { return }
        applyOnce(in: transaction) {
            registrar.withMutation(of: self, keyPath: \.version) {
                registrar.withMutation(of: self, keyPath: \.elements) { mirror.apply(change) }
            }
        }
        interactions?.rendered()
    }
}

@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
extension ObservedList: ObservedRows {}

/// The sectioned twin of ``ObservedList``: the sections of a ``SectionedCollection`` as of its last
/// event, on the main actor, observable with Observation.
///
/// ```swift
/// // In a SwiftUI view:
/// // List { ForEach(mail.sections, id: \.section.id) { s in Section(s.section.title) { ForEach(s.items) { … } } } }
/// ```
///
/// Each event changes ``sections`` once, on the main actor, to exactly that event's snapshot, whose
/// sections share their items (each a ``ListSnapshot``) with the collection: following an event
/// costs O(*s*) for *s* sections, however many items they hold. ``transaction`` animates each event
/// as ``ObservedList/transaction`` does.
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
@MainActor
public final class ObservedSectionedList<Section: Sendable, Item: Sendable>: Observable {
    /// The sections as of the events applied so far.
    private var mirror: SectionedListMirror<Section, Item>

    private let registrar = ObservationRegistrar()

    /// Wraps the change of each event; `nil` changes without animation. It must call `change`
    /// exactly once.
    public var transaction: (@MainActor (_ change: () -> Void) -> Void)?

    private let token: SubscriptionToken

    /// The collection it follows.
    public let collection: SectionedCollection<Section, Item>

    /// Creates a list that follows `collection`, starting from its last published event.
    ///
    /// - Parameter collection: The collection to follow.
    /// - Complexity: O(*s*) for *s* sections.
    public init(_ collection: SectionedCollection<Section, Item>) {
        self.collection = collection
        let box = WeakBox<ObservedSectionedList>()
        (mirror, token) = SectionedListMirror.following(collection, for: box) { $0.apply($1) }
        box.value = self
        interactions = RowInteractions(ownerName: "ObservedSectionedList<\(Section.self), \(Item.self)>") {
            box.value?.mirror.sections ?? []
        }
        interactions.loadingRowChanged = { change in
            guard let list = box.value else { return change() }
            list.registrar.withMutation(of: list, keyPath: \.isLoadingPage, change)
        }
    }

    /// The rows' pagination and selection.
    private var interactions: RowInteractions<Item>!

    /// The rows' pagination and selection (``ObservedRows/rowInteractions``).
    public var rowInteractions: RowInteractions<Item> { interactions }

    /// Whether a page is loading and the loading row shows; a body that reads it follows it.
    public var isLoadingPage: Bool {
        registrar.access(self, keyPath: \.isLoadingPage)
        return interactions.isLoadingPage
    }

    /// The sections and their items as of the last event applied.
    ///
    /// - Complexity: O(1).
    public var sections: [SectionSnapshot<Section, Item>] {
        registrar.access(self, keyPath: \.sections)
        return mirror.sections
    }

    /// The version of the last event applied.
    public var version: Int {
        registrar.access(self, keyPath: \.version)
        return mirror.version
    }

    /// Applies one event, inside ``transaction``: one change of both properties.
    private func apply(_ change: SectionedCollectionChange<Section, Item>) {
        guard mirror.isNew(change) else { return }
        applyOnce(in: transaction) {
            registrar.withMutation(of: self, keyPath: \.version) {
                registrar.withMutation(of: self, keyPath: \.sections) { mirror.apply(change) }
            }
        }
        interactions?.rendered()
    }
}

@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
extension ObservedSectionedList: ObservedRows {}

/// A weak reference the subscription's handler holds, so that the list does not keep itself alive.
@MainActor
final class WeakBox<Value: AnyObject> {
    weak var value: Value?
}
