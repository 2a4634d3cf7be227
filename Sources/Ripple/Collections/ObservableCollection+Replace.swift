import RippleDiff

extension ObservableCollection {
    /// Replaces every element with `elements`, publishing the difference found by identity.
    ///
    /// The event holds inserts, deletes, moves (minimal) and updates, never a blanket reload. The
    /// diff runs on a snapshot without any lock held; if another thread mutates the collection
    /// meanwhile, it runs again. Repeated identifiers are paired as `docs/diff.md` describes (by
    /// place when the old elements repeat them, otherwise in order) and reported to ``Diagnostics``.
    ///
    /// <!-- swift
    /// struct Book: Sendable {
    ///     var isbn: String
    ///     var title: String
    /// }
    /// let books = ObservableCollection([Book(isbn: "1", title: "Dune")])
    /// let fromServer = [Book(isbn: "2", title: "Emma"), Book(isbn: "1", title: "Dune (2nd ed.)")]
    /// -->
    /// ```swift
    /// books.replace(with: fromServer, identifiedBy: { $0.isbn }, contentEquals: { $0.title == $1.title })
    /// ```
    ///
    /// - Parameters:
    ///   - elements: The new elements.
    ///   - identifier: Returns the identity of an element.
    ///   - contentEquals: Returns whether two elements with the same identity show the same content.
    /// - Complexity: One diff: expected O(*n* + *m*).
    @inlinable
    public func replace<ID: Hashable>(
        with elements: [Element],
        identifiedBy identifier: (Element) -> ID,
        contentEquals: (Element, Element) -> Bool
    ) {
        replace(with: elements) { Changeset(from: $0, to: $1, identifiedBy: identifier, contentEquals: contentEquals) }
    }

    /// Replaces every element with `elements`, diffing `Identifiable`, `Equatable` elements: identity from `id`, content from `==`.
    ///
    /// See ``replace(with:identifiedBy:contentEquals:)`` for the event and the threading.
    ///
    /// - Parameter elements: The new elements.
    /// - Complexity: One diff: expected O(*n* + *m*).
    @inlinable
    public func replace(with elements: [Element]) where Element: Identifiable & Equatable {
        replace(with: elements) { Changeset(from: $0, to: $1) }
    }

    /// Replaces every element with `elements`, diffing `Identifiable`, `Hashable` elements: identity from `id`, content from `==`.
    ///
    /// See ``replace(with:identifiedBy:contentEquals:)`` for the event and the threading.
    ///
    /// - Parameter elements: The new elements.
    /// - Complexity: One diff: expected O(*n* + *m*).
    @inlinable
    public func replace(with elements: [Element]) where Element: Identifiable & Hashable {
        replace(with: elements) { Changeset(from: $0, to: $1) }
    }

    /// Replaces every element with `elements`, diffing `Hashable` values: the value is its own identity.
    ///
    /// An element type that conforms to `Identifiable` but reaches this overload (its conformance
    /// is isolated to the main actor, `@MainActor Identifiable`, which a `Sendable` element cannot
    /// use statically) is diffed by its `id` all the same when the call runs on the main actor,
    /// with content from its `Equatable` conformance when it has one. Elsewhere the conformance
    /// cannot be used: the call diffs by value and reports it to ``Diagnostics`` as
    /// ``Diagnostic/Kind/identityNotUsed``, with what to write instead.
    ///
    /// See ``replace(with:identifiedBy:contentEquals:)`` for the event and the threading.
    ///
    /// - Parameter elements: The new elements.
    /// - Complexity: One diff: expected O(*n* + *m*).
    @inlinable
    public func replace(with elements: [Element]) where Element: Hashable {
        if _replacedByIsolatedIdentity(with: elements, otherwiseDiffedBy: "value") { return }
        replace(with: elements) { Changeset(from: $0, to: $1) }
    }

    /// Replaces every element with `elements`, diffing objects, such as presenters: identity from `ObjectIdentifier`.
    ///
    /// An element type that conforms to `Identifiable` but reaches this overload (its conformance
    /// is isolated to the main actor, `@MainActor Identifiable`, which a `Sendable` element cannot
    /// use statically) is diffed by its `id` all the same when the call runs on the main actor,
    /// with content from its `Equatable` conformance when it has one (otherwise another instance
    /// with the same `id` is an update). Elsewhere the conformance cannot be used: the call diffs
    /// by object identity and reports it to ``Diagnostics`` as ``Diagnostic/Kind/identityNotUsed``,
    /// with what to write instead.
    ///
    /// See ``replace(with:identifiedBy:contentEquals:)`` for the event and the threading.
    ///
    /// - Parameter elements: The new elements.
    /// - Complexity: One diff: expected O(*n* + *m*).
    @inlinable
    public func replace(with elements: [Element]) where Element: AnyObject {
        if _replacedByIsolatedIdentity(with: elements, otherwiseDiffedBy: "object identity") { return }
        replace(with: elements) { Changeset(from: $0, to: $1) }
    }

    /// Replaces every element with `elements`, diffing `Identifiable` objects: identity from `id`; another instance with the same `id` is an update.
    ///
    /// See ``replace(with:identifiedBy:contentEquals:)`` for the event and the threading.
    ///
    /// - Parameter elements: The new elements.
    /// - Complexity: One diff: expected O(*n* + *m*).
    @inlinable
    public func replace(with elements: [Element]) where Element: AnyObject & Identifiable {
        replace(with: elements) { Changeset(from: $0, to: $1) }
    }

    /// Replaces every element with `elements`, diffing `Identifiable`, `Equatable` objects: identity from `id`, content from `==`.
    ///
    /// See ``replace(with:identifiedBy:contentEquals:)`` for the event and the threading.
    ///
    /// - Parameter elements: The new elements.
    /// - Complexity: One diff: expected O(*n* + *m*).
    @inlinable
    public func replace(with elements: [Element]) where Element: AnyObject & Identifiable & Equatable {
        replace(with: elements) { Changeset(from: $0, to: $1) }
    }

    /// Replaces every element with `elements`, diffing `Identifiable`, `Hashable` objects: identity from `id`, content from `==`.
    ///
    /// See ``replace(with:identifiedBy:contentEquals:)`` for the event and the threading.
    ///
    /// - Parameter elements: The new elements.
    /// - Complexity: One diff: expected O(*n* + *m*).
    @inlinable
    public func replace(with elements: [Element]) where Element: AnyObject & Identifiable & Hashable {
        replace(with: elements) { Changeset(from: $0, to: $1) }
    }

    /// Replaces every element with `elements`, diffing `Hashable` objects: identity from `ObjectIdentifier`, content from `==`.
    ///
    /// An element type that conforms to `Identifiable` but reaches this overload (its conformance
    /// is isolated to the main actor, `@MainActor Identifiable`, which a `Sendable` element cannot
    /// use statically) is diffed by its `id` all the same when the call runs on the main actor,
    /// with content from its `Equatable` conformance when it has one (otherwise another instance
    /// with the same `id` is an update). Elsewhere the conformance cannot be used: the call diffs
    /// by object identity and reports it to ``Diagnostics`` as ``Diagnostic/Kind/identityNotUsed``,
    /// with what to write instead.
    ///
    /// See ``replace(with:identifiedBy:contentEquals:)`` for the event and the threading.
    ///
    /// - Parameter elements: The new elements.
    /// - Complexity: One diff: expected O(*n* + *m*).
    @inlinable
    public func replace(with elements: [Element]) where Element: AnyObject & Hashable {
        if _replacedByIsolatedIdentity(with: elements, otherwiseDiffedBy: "object identity") { return }
        replace(with: elements) { Changeset(from: $0, to: $1) }
    }

    /// Replaces the elements diffing by `id`, when they conform to `Identifiable` through a
    /// conformance the overloads could not use statically but that this thread can (see
    /// `_IsolatedIdentity`), and returns `true`; otherwise reports any such conformance, which the
    /// caller then diffs by `rule`, and returns `false`.
    @usableFromInline
    func _replacedByIsolatedIdentity(with elements: [Element], otherwiseDiffedBy rule: String) -> Bool {
        guard _IsolatedIdentity.isUsable(Element.self, probe: elements.first) else {
            _reportUnusedIdentity(of: Element.self, diffedBy: rule, in: .flat)
            return false
        }
        replace(with: elements, identifiedBy: _IsolatedIdentity.id, contentEquals: _IsolatedIdentity.contentEquals)
        return true
    }

    /// Replaces the elements, diffing optimistically outside the lock: up to
    /// ``_optimisticReplaceAttempts`` times, each thrown away when another mutation came first;
    /// then once more with the diff under the lock, so that constant writers on other threads
    /// cannot starve the call. The diff's closures (identity, content) then run under the lock:
    /// they must not touch the collection, which they never need to.
    @inlinable
    func replace(with elements: [Element], diff: ([Element], [Element]) -> Changeset) {
        for attempt in 0...Self._optimisticReplaceAttempts {
            let underLock = attempt == Self._optimisticReplaceAttempts
            let read = underLock ? nil : state.withLock { ($0.elements, $0.mutations) }
            let optimistic = read.map { diff($0.0, elements) }
            // The old elements are returned, to be released after unlocking.
            let (applied, _) = mutate { state -> (Changeset?, (Changeset?, [Element])) in
                if let read, state.mutations != read.1 { return (nil, (nil, [])) }
                let changeset = optimistic ?? diff(state.elements, elements)
                var old = elements
                swap(&old, &state.elements)
                if var batch = state.batch {
                    // Nothing to record when nothing changed, as outside a batch.
                    guard !changeset.isEmpty else { return (nil, (changeset, old)) }
                    var origins = changeset.applied(to: batch.origins) { _ in -1 }
                    for update in changeset.updates {
                        let origin = batch.origins[update.source]
                        origins[update.target] = origin
                        if origin >= 0 { batch.updated.append(origin) }
                    }
                    batch.origins = origins
                    state.batch = batch
                    return (nil, (changeset, old))
                }
                return (changeset, (changeset, old))
            }
            guard let changeset = applied else { continue }
            if !changeset.duplicates.isEmpty {
                Diagnostics.report(
                    Diagnostic(
                        kind: .duplicateIdentifiers, source: "ObservableCollection.replace(with:)",
                        message: "repeated identifiers at \(changeset.duplicates); "
                            + (changeset.duplicates.sourceOffsets.isEmpty ? "paired in order" : "paired by place")))
            }
            return
        }
    }

    /// How many optimistic diffs outside the lock a `replace` tries before it diffs under the lock.
    @usableFromInline
    static var _optimisticReplaceAttempts: Int { 3 }
}

/// The `replace` methods that report an identity they could not use, as a diagnostic names them.
@usableFromInline
enum _ReplaceMethod: String {
    case flat = "ObservableCollection.replace(with:)"
    case sectioned = "SectionedCollection.replace(with:)"
    case sectionData = "SectionedCollection.replace(withSections:)"

    /// The call with closures that diffs by `id` instead.
    var closureForm: String {
        switch self {
        case .flat: "replace(with:identifiedBy: { $0.id }, contentEquals: ==)"
        case .sectioned, .sectionData:
            "\(rawValue.dropLast())sectionIdentifiedBy:sectionContentEquals:itemIdentifiedBy:itemContentEquals:)"
        }
    }
}

/// The identity of elements whose `Identifiable` (and `Equatable`) conformances the overloads
/// could not use statically: conformances isolated to the main actor (`@MainActor Identifiable`),
/// which a `Sendable` element type cannot satisfy a generic requirement with. At run time a cast
/// finds such a conformance only on its actor, and calling it there is safe: ``isUsable(_:probe:)``
/// asks exactly that of a value, on the calling thread, before the diff uses the conformance.
@usableFromInline
enum _IsolatedIdentity {
    /// Whether `type` conforms to `Identifiable` and a cast of `probe` finds the conformance here
    /// (and its `Equatable` conformance, when it has one); with no value to probe, whether the type
    /// conforms (a diff to or from an empty list is the same by any identity).
    @usableFromInline
    static func isUsable<Value>(_ type: Value.Type, probe: Value?) -> Bool {
        guard type is any Identifiable.Type else { return false }
        guard let probe else { return true }
        return probe as Any is any Identifiable && (!(type is any Equatable.Type) || probe as Any is any Equatable)
    }

    /// The value's `id`; for a value whose conformance cannot be found here, its object identity
    /// (or one identity shared by all such values).
    @usableFromInline
    static func id<Value>(_ value: Value) -> AnyHashable {
        if let identifiable = value as Any as? any Identifiable { return identity(of: identifiable) }
        return Swift.type(of: value as Any) is AnyClass ? AnyHashable(ObjectIdentifier(value as AnyObject)) : AnyHashable(0)
    }

    /// The `id` of an `Identifiable` value, through the requirement (an opened existential).
    private static func identity<Value: Identifiable>(of value: Value) -> AnyHashable { AnyHashable(value.id) }

    /// Whether two values with the same `id` show the same content: `==` when they are
    /// `Equatable`, otherwise the same object (or any two values).
    @usableFromInline
    static func contentEquals<Value>(_ lhs: Value, _ rhs: Value) -> Bool {
        if let lhs = lhs as Any as? any Equatable { return lhs._isEqual(to: rhs) }
        return Swift.type(of: lhs as Any) is AnyClass ? (lhs as AnyObject) === (rhs as AnyObject) : true
    }
}

extension Equatable {
    /// Whether `other` is a `Self` equal to this value.
    fileprivate func _isEqual(to other: Any) -> Bool {
        (other as? Self).map { $0 == self } ?? false
    }
}

/// Reports to ``Diagnostics`` element types that all conform to `Identifiable` although the
/// `replace` overload that runs diffs them by object identity or by value: had the conformances
/// been usable, an `Identifiable` overload would have been chosen. The likely reason is a
/// conformance isolated to the main actor (`@MainActor Identifiable`), which a `Sendable` element
/// cannot use. Identity never changes silently.
///
/// A sectioned list reports only when sections and items both conform: with one of them not
/// `Identifiable`, no `Identifiable` overload applies anyway (sections and items share one rule).
///
/// The check is a metatype cast, which finds an isolated conformance on any thread with Swift
/// 6.3.1 on Linux (a cast of a value finds it only on the main actor).
///
/// - Parameters:
///   - types: The element types the overload diffs (items, and sections for a sectioned list).
///   - rule: How the overload diffs them: `"object identity"` or `"value"`.
///   - method: The method.
@usableFromInline
func _reportUnusedIdentity(of types: Any.Type..., diffedBy rule: String, in method: _ReplaceMethod) {
    guard types.allSatisfy({ $0 is any Identifiable.Type }) else { return }
    let names = types.map { "\($0)" }.joined(separator: " and ")
    Diagnostics.report(
        Diagnostic(
            kind: .identityNotUsed, source: method.rawValue,
            message: "\(names) \(types.count == 1 ? "conforms" : "conform") to Identifiable, but this overload "
                + "cannot use the conformance (one isolated to the main actor, `@MainActor Identifiable`, "
                + "cannot serve a Sendable element) and diffed by \(rule) instead of by id. Declare "
                + "Identifiable and Equatable nonisolated (a `let id`, a `nonisolated static func ==`), or "
                + "call \(method.closureForm) on the main actor."))
}
