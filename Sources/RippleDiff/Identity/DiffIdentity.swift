// How the diff tells elements apart and notices content changes.
//
// A `DiffIdentity` value names the rule; the rule is a type (`Rule`), so that the diff is
// specialized for it and each rule is inlined into the diff's loops: no closure call, and no copy
// of an identifier just to compare it, except in the `.key` rule, which is made of closures.

/// How a diff tells elements apart and notices that one changed: by `id`, by object, by value, or
/// by a key you give.
///
/// Every diff and every `replace` takes one identity, for the elements or for each level of a
/// sectioned list:
///
/// ```swift
/// struct Book: Identifiable, Equatable { let id: Int; var title: String; var isbn: String }
/// let old = [Book(id: 1, title: "Dune", isbn: "a"), Book(id: 2, title: "Emma", isbn: "b")]
/// let new = [Book(id: 2, title: "Emma", isbn: "b"), Book(id: 1, title: "Dune II", isbn: "a")]
///
/// let byID = Changeset(from: old, to: new)  // `Identifiable & Equatable`: `.id` by default
/// let byISBN = Changeset(from: old, to: new, identity: .key(\.isbn, contentEquals: ==))
/// let words = Changeset(from: ["a", "b"], to: ["b", "a"], identity: .value)
/// ```
///
/// The rules:
/// - ``id``: `Identifiable & Equatable` elements; the same `id` is the same element, and it is
///   updated when `==` says its content changed. This is the default wherever the elements are
///   `Identifiable & Equatable`, and the only default.
/// - ``object``: objects, such as presenters; the same instance is the same element, never
///   updated (it refreshes its own cell).
/// - ``value``: `Hashable` values; the value is its own identity, so nothing is ever updated.
/// - ``key(_:contentEquals:)``: any element, by closures; for example `\.isbn`, or `\.id` with
///   `===` for `Identifiable` objects that are not `Equatable` (another instance with the same
///   `id` is then an update).
///
/// The `Rule` type parameter is the rule's implementation, which lets each diff be specialized for
/// it; you never name it.
public struct DiffIdentity<Element, Rule: _IdentityRule> where Rule.Element == Element {
    /// The rule's implementation.
    public let _rule: Rule

    @inlinable
    init(_ rule: Rule) { self._rule = rule }
}

extension DiffIdentity where Element: Identifiable & Equatable, Rule == _IdentifiableIdentity<Element> {
    /// Identity from `id`, content from `==`: an element with the same `id` and a different value
    /// is updated.
    ///
    /// A type's `==` may ignore `id`; identity still comes from `id` alone.
    @inlinable
    public static var id: Self { Self(_IdentifiableIdentity()) }
}

extension DiffIdentity where Rule == _ObjectIdentity<Element> {
    /// Identity from the object (`ObjectIdentifier`): the same instance is the same element and is
    /// never updated, since it refreshes its own cell; another instance is another element.
    ///
    /// For elements that are objects: of a class type, or of a class-bound protocol's existential
    /// (`any Row` where `Row: AnyObject`), as heterogeneous lists of presenters are. Swift cannot
    /// require the latter in a constraint, so an element that holds a value traps during the diff,
    /// with a message naming its type.
    @inlinable
    public static var object: Self { Self(_ObjectIdentity()) }
}

extension DiffIdentity where Element: Hashable, Rule == _HashableIdentity<Element> {
    /// Identity from the whole value: a changed value is another element, so nothing is ever
    /// updated.
    @inlinable
    public static var value: Self { Self(_HashableIdentity()) }
}

extension DiffIdentity {
    /// Identity from a key, content from a closure.
    ///
    /// ```swift
    /// let byISBNAndTitle = Changeset(from: old, to: new, identity: .key(\.isbn, contentEquals: { $0.title == $1.title }))
    /// ```
    ///
    /// - Parameters:
    ///   - identifier: Returns the identity of an element. Elements with equal identifiers are the
    ///     same element.
    ///   - contentEquals: Returns whether two elements with the same identity show the same
    ///     content. When it returns `false`, the element is updated. It must be reflexive.
    /// - Returns: The identity. It calls the closures during the diff, on the diff's thread.
    @inlinable
    public static func key<Identifier: Hashable>(
        _ identifier: @escaping (Element) -> Identifier,
        contentEquals: @escaping (Element, Element) -> Bool
    ) -> Self where Rule == _ClosureIdentity<Element, Identifier> {
        Self(_ClosureIdentity(identifier: identifier, contentEquals: contentEquals))
    }
}

/// The implementation of a ``DiffIdentity`` rule: how the diff identifies and compares elements.
///
/// Ripple's own rules are the only conformers; use ``DiffIdentity/key(_:contentEquals:)`` for a
/// rule of your own.
public protocol _IdentityRule {
    /// The elements compared.
    associatedtype Element
    /// An element's identity.
    associatedtype Identifier: Hashable

    /// The identifier of `element`.
    func identifier(of element: Element) -> Identifier

    /// The diff's hash of `element`'s identifier.
    func hash(of element: Element, seed: UInt64) -> Int

    /// Whether `element` has the identifier `identifier`.
    func element(_ element: Element, has identifier: Identifier) -> Bool

    /// Whether two elements have the same identifier.
    func sameIdentity(_ lhs: Element, _ rhs: Element) -> Bool

    /// Whether two elements with the same identifier show the same content.
    func sameContent(_ lhs: Element, _ rhs: Element) -> Bool

    /// Compares two elements at once: same identity and content, same identity only, or different.
    func match(_ lhs: Element, _ rhs: Element) -> _Match
}

/// The result of comparing two elements.
public enum _Match {
    /// Same identity, same content.
    case same
    /// Same identity, changed content.
    case updated
    /// Different identity.
    case different
}

extension _IdentityRule {
    /// The diff's hash of the identifier.
    @inlinable @inline(__always)
    public func hash(of element: Element, seed: UInt64) -> Int { _diffHash(identifier(of: element), seed: seed) }

    /// Compares the identifiers.
    @inlinable @inline(__always)
    public func element(_ element: Element, has identifier: Identifier) -> Bool {
        self.identifier(of: element) == identifier
    }

    /// Compares the identifiers.
    @inlinable @inline(__always)
    public func sameIdentity(_ lhs: Element, _ rhs: Element) -> Bool {
        identifier(of: lhs) == identifier(of: rhs)
    }

    /// Identity first, then content.
    @inlinable @inline(__always)
    public func match(_ lhs: Element, _ rhs: Element) -> _Match {
        if !sameIdentity(lhs, rhs) { return .different }
        return sameContent(lhs, rhs) ? .same : .updated
    }
}

/// The rule of ``DiffIdentity/key(_:contentEquals:)``: identity and content from closures.
public struct _ClosureIdentity<Element, Identifier: Hashable>: _IdentityRule {
    @usableFromInline let identifier: (Element) -> Identifier
    @usableFromInline let contentEquals: (Element, Element) -> Bool

    @inlinable
    init(identifier: @escaping (Element) -> Identifier, contentEquals: @escaping (Element, Element) -> Bool) {
        self.identifier = identifier
        self.contentEquals = contentEquals
    }

    /// The key's closure.
    @inlinable @inline(__always)
    public func identifier(of element: Element) -> Identifier { identifier(element) }

    /// The content closure.
    @inlinable @inline(__always)
    public func sameContent(_ lhs: Element, _ rhs: Element) -> Bool { contentEquals(lhs, rhs) }
}

/// The rule of ``DiffIdentity/id``: identity from `id`, content from `==`.
public struct _IdentifiableIdentity<Element: Identifiable & Equatable>: _IdentityRule {
    @inlinable init() {}

    /// The element's `id`.
    @inlinable @inline(__always)
    public func identifier(of element: Element) -> Element.ID { element.id }

    /// Compares the `id`s.
    @inlinable @inline(__always)
    public func sameIdentity(_ lhs: Element, _ rhs: Element) -> Bool { lhs.id == rhs.id }

    /// `==`.
    @inlinable @inline(__always)
    public func sameContent(_ lhs: Element, _ rhs: Element) -> Bool { lhs == rhs }

    /// Compares the identifiers first: identity comes from `id` alone, and a type's `==` may ignore
    /// `id` (two headlines with equal text and different ids are still two headlines). Comparing
    /// `id` first also lets a differing pair stop after the cheaper comparison.
    @inlinable @inline(__always)
    public func match(_ lhs: Element, _ rhs: Element) -> _Match {
        if lhs.id != rhs.id { return .different }
        return lhs == rhs ? .same : .updated
    }
}

/// The rule of ``DiffIdentity/value``: the value is its own identity, so content never differs.
public struct _HashableIdentity<Element: Hashable>: _IdentityRule {
    @inlinable init() {}

    /// The value.
    @inlinable @inline(__always)
    public func identifier(of element: Element) -> Element { element }

    /// Always `true`: equal identities are equal values.
    @inlinable @inline(__always)
    public func sameContent(_ lhs: Element, _ rhs: Element) -> Bool { true }
}

/// The rule of ``DiffIdentity/object``: identity from `ObjectIdentifier`; the same object never
/// counts as updated.
///
/// `Element` is a class, or an existential of a class-bound protocol (`any Row` where
/// `Row: AnyObject`), which Swift cannot state as a constraint: a class is read as its reference,
/// an existential through `AnyObject`, after checking that it holds an object.
public struct _ObjectIdentity<Element>: _IdentityRule {
    /// Whether `Element` is a class type, whose values are one reference each.
    @usableFromInline let elementIsClass: Bool

    @inlinable init() { elementIsClass = Element.self is AnyObject.Type }

    /// The object an element is.
    @inlinable @inline(__always)
    func object(_ element: Element) -> AnyObject {
        // Safe: `Element` is a class type, so its values are single strong references, as
        // `AnyObject`'s are.
        if elementIsClass { return unsafeBitCast(element, to: AnyObject.self) }
        return Self.existentialObject(element)
    }

    /// The object an existential element holds; traps when it holds none.
    @usableFromInline
    static func existentialObject(_ element: Element) -> AnyObject {
        let value = element as Any
        guard Swift.type(of: value) is AnyClass else {
            preconditionFailure(
                "DiffIdentity.object: an element of type \(Element.self) holds a \(Swift.type(of: value)), which is not an object; .object identifies class instances (or existentials of class-bound protocols); use .id, .value or .key(_:contentEquals:) for values"
            )
        }
        return value as AnyObject
    }

    /// The object's `ObjectIdentifier`.
    @inlinable @inline(__always)
    public func identifier(of element: Element) -> ObjectIdentifier { ObjectIdentifier(object(element)) }

    /// `===`.
    @inlinable @inline(__always)
    public func sameIdentity(_ lhs: Element, _ rhs: Element) -> Bool { object(lhs) === object(rhs) }

    /// Always `true`: an object is compared only with itself.
    @inlinable @inline(__always)
    public func sameContent(_ lhs: Element, _ rhs: Element) -> Bool { true }
}
