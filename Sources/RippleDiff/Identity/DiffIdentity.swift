// How the diff tells elements apart and notices content changes.
//
// The diff is generic over a small witness type instead of taking closures, so that each identity
// rule is specialized and inlined into the diff's loops: no closure call, and no copy of an
// identifier just to compare it. The public closure form wraps its closures in `_ClosureIdentity`.

/// A rule for the identity and content of elements.
@usableFromInline
internal protocol _DiffIdentity {
    associatedtype Element
    associatedtype Identifier: Hashable

    /// The identifier of `element`.
    func identifier(of element: Element) -> Identifier

    /// The diff's hash of `element`'s identifier (see ``_diffHash(_:seed:)``).
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
@usableFromInline
internal enum _Match {
    /// Same identity, same content.
    case same
    /// Same identity, changed content.
    case updated
    /// Different identity.
    case different
}

extension _DiffIdentity {
    @inlinable @inline(__always)
    func hash(of element: Element, seed: UInt64) -> Int { _diffHash(identifier(of: element), seed: seed) }

    @inlinable @inline(__always)
    func element(_ element: Element, has identifier: Identifier) -> Bool {
        self.identifier(of: element) == identifier
    }

    @inlinable @inline(__always)
    func sameIdentity(_ lhs: Element, _ rhs: Element) -> Bool {
        identifier(of: lhs) == identifier(of: rhs)
    }

    @inlinable @inline(__always)
    func match(_ lhs: Element, _ rhs: Element) -> _Match {
        if !sameIdentity(lhs, rhs) { return .different }
        return sameContent(lhs, rhs) ? .same : .updated
    }
}

/// Identity and content from caller-supplied closures.
@usableFromInline
internal struct _ClosureIdentity<Element, Identifier: Hashable>: _DiffIdentity {
    @usableFromInline let identifier: (Element) -> Identifier
    @usableFromInline let contentEquals: (Element, Element) -> Bool

    @inlinable
    init(identifier: @escaping (Element) -> Identifier, contentEquals: @escaping (Element, Element) -> Bool) {
        self.identifier = identifier
        self.contentEquals = contentEquals
    }

    @inlinable @inline(__always)
    func identifier(of element: Element) -> Identifier { identifier(element) }

    @inlinable @inline(__always)
    func sameContent(_ lhs: Element, _ rhs: Element) -> Bool { contentEquals(lhs, rhs) }
}

/// `Identifiable` elements: identity from `id`, content from `==`.
@usableFromInline
internal struct _IdentifiableIdentity<Element: Identifiable & Equatable>: _DiffIdentity {
    @inlinable init() {}

    @inlinable @inline(__always)
    func identifier(of element: Element) -> Element.ID { element.id }

    @inlinable @inline(__always)
    func sameIdentity(_ lhs: Element, _ rhs: Element) -> Bool { lhs.id == rhs.id }

    @inlinable @inline(__always)
    func sameContent(_ lhs: Element, _ rhs: Element) -> Bool { lhs == rhs }

    /// Compares the identifiers first: identity comes from `id` alone, and a type's `==` may ignore
    /// `id` (two headlines with equal text and different ids are still two headlines). Comparing
    /// `id` first also lets a differing pair stop after the cheaper comparison.
    @inlinable @inline(__always)
    func match(_ lhs: Element, _ rhs: Element) -> _Match {
        if lhs.id != rhs.id { return .different }
        return lhs == rhs ? .same : .updated
    }
}

/// `Identifiable` objects without `Equatable`: identity from `id`; a different instance with the
/// same `id` counts as updated.
@usableFromInline
internal struct _IdentifiableObjectIdentity<Element: Identifiable & AnyObject>: _DiffIdentity {
    @inlinable init() {}

    @inlinable @inline(__always)
    func identifier(of element: Element) -> Element.ID { element.id }

    @inlinable @inline(__always)
    func sameContent(_ lhs: Element, _ rhs: Element) -> Bool { lhs === rhs }
}

/// `Hashable` values: the value is its own identity, so content never differs.
@usableFromInline
internal struct _HashableIdentity<Element: Hashable>: _DiffIdentity {
    @inlinable init() {}

    @inlinable @inline(__always)
    func identifier(of element: Element) -> Element { element }

    @inlinable @inline(__always)
    func sameContent(_ lhs: Element, _ rhs: Element) -> Bool { true }
}

/// Objects: identity from `ObjectIdentifier`; content from `==` when `compareContent` is set
/// (for `Equatable` objects), otherwise the same object never counts as updated.
@usableFromInline
internal struct _ObjectIdentity<Element: AnyObject>: _DiffIdentity {
    @usableFromInline let contentEquals: ((Element, Element) -> Bool)?

    @inlinable
    init(contentEquals: ((Element, Element) -> Bool)? = nil) {
        self.contentEquals = contentEquals
    }

    @inlinable @inline(__always)
    func identifier(of element: Element) -> ObjectIdentifier { ObjectIdentifier(element) }

    @inlinable @inline(__always)
    func sameIdentity(_ lhs: Element, _ rhs: Element) -> Bool { lhs === rhs }

    @inlinable @inline(__always)
    func sameContent(_ lhs: Element, _ rhs: Element) -> Bool { contentEquals?(lhs, rhs) ?? true }
}
