/// Which registered view shows a value (a row's item, or a section's value): the views registered
/// per type of value, by the type's identity, each with the condition its values meet.
///
/// A value's view is the first registration for its dynamic type whose condition it meets, else
/// the first for the declared type (the source's `Item` or `Section`). Conditional registrations
/// are tried in the order made, before the one without a condition; registering again for the
/// same type without a condition replaces that one.
package struct ViewRoutes {
    private var routes: [ObjectIdentifier: [CellRoute]] = [:]

    package init() {}

    /// Routes the values of `type` that meet `condition` (all of them for `nil`) to the view
    /// registered with `identifier`.
    ///
    /// - Complexity: O(*r*) in the registrations for `type`.
    package mutating func route(valuesOf type: Any.Type, where condition: ((Any) -> Bool)?, to identifier: String) {
        var routes = self.routes[ObjectIdentifier(type), default: []]
        if condition == nil { routes.removeAll { $0.condition == nil } }
        let route = CellRoute(identifier: identifier, condition: condition)
        if condition == nil {
            routes.append(route)
        } else {
            routes.insert(route, at: routes.firstIndex { $0.condition == nil } ?? routes.endIndex)
        }
        self.routes[ObjectIdentifier(type)] = routes
    }

    /// The reuse identifier of the view for `value`, whose declared type is `Declared`, or `nil`
    /// when no registration covers it.
    package func identifier<Declared>(for value: Declared) -> String? {
        func registered(for type: Any.Type) -> String? {
            routes[ObjectIdentifier(type)]?.first { $0.condition?(value) ?? true }?.identifier
        }
        return registered(for: Swift.type(of: value as Any)) ?? registered(for: Declared.self)
    }

    /// Traps when no value declared as `Declared` can have the type `type`, so that a view
    /// registered for it would never show, naming the view's class and both types.
    ///
    /// - Parameters:
    ///   - viewClass: The view class registered.
    ///   - type: The type it is registered for.
    ///   - declared: The type the source's values are declared with (`Item`, `Section`).
    ///   - values: How the message names the values: `("items", "row", "rows", "cell")`.
    ///   - method: The source and the registering method, as the message starts.
    package static func checkRegistration<Declared>(
        of viewClass: Any.Type, for type: Any.Type, declaredAs declared: Declared.Type,
        values: (kind: String, one: String, all: String, view: String), in method: String
    ) {
        guard !Self.values(declaredAs: declared, canHave: type) else { return }
        preconditionFailure(
            "\(method): \(String(describing: viewClass)) shows \(values.kind) of type \(String(describing: type)), "
                + "which no \(values.one) of this source can have: its \(values.all) are of type "
                + "\(String(describing: Declared.self)). Register it for \(String(describing: Declared.self))"
                + (Declared.self is AnyClass
                    ? " or a subclass" : _isExistentialType(Declared.self) ? " or a concrete type behind it" : "")
                + ", with a \(values.view) whose item type that is")
    }

    /// Whether a value declared as `Declared` can have the dynamic type `type`, or `type` is
    /// `Declared` itself: the check of a registration for a type that Swift's types cannot make.
    ///
    /// A dynamic type is never an existential, and a value of a struct, enum, tuple or Optional
    /// type is of that very type. Swift cannot test a conformance to a protocol named by a
    /// generic parameter, so any concrete type passes for an existential `Declared`.
    package static func values<Declared>(declaredAs declared: Declared.Type, canHave type: Any.Type) -> Bool {
        if type == Declared.self { return true }
        if _isExistentialType(type) { return false }
        if Declared.self is AnyClass { return type is Declared.Type }
        if Declared.self == AnyObject.self { return type is AnyClass }
        return _isExistentialType(Declared.self)
    }
}
