import RippleDiff

/// The side of a ``SectionedCollection`` that ``SectionItems`` talk to: the collection's type
/// without its `Section` parameter, which the items do not know.
///
/// Subclassed once, by ``SectionedCollection/Host``; the methods here are never called.
class SectionItemsHost<Item: Sendable>: @unchecked Sendable {
    // @unchecked: it has no state of its own; the subclass holds only a weak reference to a
    // `Sendable` collection.

    /// Runs `body` on the items of the entry `link` under the collection's lock and publishes its
    /// change-set; `nil` when no entry has that link any more (or the collection is gone).
    func mutateItems<Result>(
        link: Int, replacing: Bool, _ body: (inout ListSnapshot<Item>) -> (Changeset?, Result)
    ) -> Result? {
        fatalError("SectionItemsHost.mutateItems(link:replacing:_:) is abstract")
    }

    /// Reads the items of the entry `link` under the collection's lock; `nil` when it is gone.
    func readItems<Result>(link: Int, _ body: (ListSnapshot<Item>) -> Result) -> Result? {
        fatalError("SectionItemsHost.readItems(link:_:) is abstract")
    }

    /// Runs `body` as one batch of the collection.
    func performBatchUpdates<Result>(_ body: () throws -> Result) rethrows -> Result {
        fatalError("SectionItemsHost.performBatchUpdates(_:) is abstract")
    }

    /// Opens a batch of the collection.
    func beginUpdates() {
        fatalError("SectionItemsHost.beginUpdates() is abstract")
    }

    /// Closes a batch of the collection.
    func endUpdates() {
        fatalError("SectionItemsHost.endUpdates() is abstract")
    }
}
