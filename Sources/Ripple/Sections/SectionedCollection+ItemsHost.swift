import RippleDiff

// MARK: - The sections' items

extension SectionedCollection {
    /// The route from the sections' ``SectionItems`` to this collection. It holds the collection
    /// weakly: the items must not keep alive a collection that dropped their section.
    final class Host: SectionItemsHost<Item>, @unchecked Sendable {
        // @unchecked: `collection` is written once, in the collection's `init`, before any items
        // can reach this object (they get it from `attach`, which runs after), and only read after.
        weak var collection: SectionedCollection?

        override func mutateItems<Result>(
            link: Int, replacing: Bool, _ body: (inout ListSnapshot<Item>) -> (Changeset?, Result)
        ) -> Result? {
            guard let collection else { return nil }
            return collection.mutateItems(link: link, replacing: replacing, body)
        }

        override func readItems<Result>(link: Int, _ body: (ListSnapshot<Item>) -> Result) -> Result? {
            guard let collection else { return nil }
            return collection.state.withLock { state in
                state.index(ofLink: link).map { body(state.entries[$0].items) }
            }
        }

        override func performBatchUpdates<Result>(_ body: () throws -> Result) rethrows -> Result {
            guard let collection else { return try body() }
            return try collection.performBatchUpdates(body)
        }

        override func beginUpdates() { collection?.beginUpdates() }

        override func endUpdates() { collection?.endUpdates() }
    }

    /// Takes `data`'s items into a new entry: from now on they live here, and its ``SectionItems``
    /// route every call here.
    ///
    /// Called under this collection's lock. It takes the items' own lock inside it, only here and
    /// in ``detach(_:)``, and calls nothing under it: the one lock order between the two, and the
    /// only place the two are held together.
    ///
    /// - Precondition: No collection holds `data.items`.
    func attach(
        _ data: SectionData<Section, Item>, at position: Int, method: String, state: inout State
    ) -> Entry {
        let link = state.nextLink
        state.nextLink &+= 1
        let items = data.items.state.withLock { items -> ListSnapshot<Item>? in
            guard items.host == nil else { return nil }
            items.host = host
            items.link = link
            defer { items.items = [] }
            return items.items
        }
        guard let items else { Self.itemsHeldElsewhere(method, position) }
        return Entry(data: data, items: items, link: link)
    }

    /// Traps for a section whose items another entry or collection holds.
    static func itemsHeldElsewhere(_ method: String, _ position: Int) -> Never {
        preconditionFailure(
            "SectionedCollection.\(method): the section for position \(position) has items that are already in a "
                + "sectioned collection; a section's items are in one place at a time (copy them: "
                + "SectionData(section, items: other.items.snapshot))")
    }

    /// Hands an entry's items back to its section, which holds them on its own from now on.
    static func detach(_ entry: Entry) {
        entry.data.items.state.withLock { items in
            items.host = nil
            items.items = entry.items
        }
    }

    /// ``mutateItems(_:section:_:)`` for the entry `link`; `nil` when the collection no longer
    /// has it.
    func mutateItems<Result>(
        link: Int, replacing: Bool, _ body: (inout ListSnapshot<Item>) -> (Changeset?, Result)
    ) -> Result? {
        let outcome = withState { state -> (Bool, Result)? in
            guard let section = state.index(ofLink: link) else { return nil }
            if replacing { state.replacedSinceLastEvent = true }
            return Self.mutateItems(section: section, in: &state, body)
        }
        guard let (mustDrain, result) = outcome else { return nil }
        if mustDrain { drain() }
        return result
    }
}
