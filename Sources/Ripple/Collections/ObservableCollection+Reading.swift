import RippleDiff

// MARK: - Reading (why a `Sequence` and not a `RandomAccessCollection`: see the type's "Reading")

extension ObservableCollection: Sequence {
    /// Iterates over a snapshot taken when iteration starts.
    ///
    /// Every `Sequence` algorithm (`for … in`, `map`, `filter`, `reduce`, `forEach`, `contains`,
    /// `first(where:)`, `min()`, `sorted()`, `Array(collection)` and the rest) reads this one
    /// snapshot, so mutations by other threads meanwhile neither trap nor show up half-way.
    ///
    /// - Complexity: O(1) to start.
    @inlinable
    public func makeIterator() -> ListSnapshot<Element>.Iterator {
        snapshot.makeIterator()
    }

    /// Always 0: another thread may remove elements between this read and the iteration that
    /// follows it, and the standard library traps when this number turns out too high.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var underestimatedCount: Int { 0 }

    /// Calls `body` with the elements of one snapshot, when they are in one contiguous buffer: only
    /// while the list fits in one chunk of its ``ListSnapshot`` (about 4 KiB: 16 to 256
    /// elements).
    ///
    /// - Parameter body: Reads the elements; it runs without the lock held.
    /// - Returns: What `body` returns, or `nil` if the snapshot has no contiguous storage.
    /// - Complexity: O(1), plus `body`.
    @inlinable
    public func withContiguousStorageIfAvailable<Result>(
        _ body: (UnsafeBufferPointer<Element>) throws -> Result
    ) rethrows -> Result? {
        try snapshot.withContiguousStorageIfAvailable(body)
    }

    /// One snapshot as a `ContiguousArray`; what `Array(collection)`, `sorted()` and their
    /// kind use to copy a sequence.
    ///
    /// - Complexity: O(*n*): the snapshot is copied chunk by chunk.
    @inlinable
    public func _copyToContiguousArray() -> ContiguousArray<Element> {
        ContiguousArray(snapshot)
    }
}

extension ObservableCollection {
    /// The number of elements now.
    ///
    /// Read once under the lock: it is exact at that moment, and another thread may change it
    /// right after.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var count: Int { state.withLock { $0.elements.count } }

    /// Whether the collection holds no element now; read once under the lock.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var isEmpty: Bool { state.withLock { $0.elements.isEmpty } }

    /// The first element now, or `nil` when the collection is empty; read once under the lock.
    ///
    /// - Complexity: O(log *n*) for *n* elements.
    @inlinable
    public var first: Element? { state.withLock { $0.elements.first } }

    /// The last element now, or `nil` when the collection is empty; read once under the lock.
    ///
    /// - Complexity: O(log *n*) for *n* elements.
    @inlinable
    public var last: Element? { state.withLock { $0.elements.last } }

    /// The valid offsets now, `0..<count`; read once under the lock.
    ///
    /// Another thread may shrink the collection right after: to visit the elements, iterate (which
    /// walks one snapshot) or read ``snapshot``.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var indices: Range<Int> { 0..<count }

    /// Reads or replaces the element at `position`. Replacing it publishes an update.
    ///
    /// The read and the range check happen under one lock: a `position` that another thread has
    /// made invalid traps with a message naming the index and the range at that moment.
    ///
    /// - Parameter position: An offset in `0..<count`.
    /// - Complexity: O(log *n*) for *n* elements.
    @inlinable
    public subscript(position: Int) -> Element {
        get {
            state.withLock { state in
                guard position >= 0 && position < state.elements.count else {
                    ObservableCollection.outOfRange("subscript", position, state.elements.count)
                }
                return state.elements[position]
            }
        }
        set {
            // The replaced element is returned, to be released after unlocking.
            _ = mutate { state -> (Changeset?, Element) in
                guard position >= 0 && position < state.elements.count else {
                    ObservableCollection.outOfRange("subscript", position, state.elements.count)
                }
                let replaced = state.elements[position]
                state.elements[position] = newValue
                if state.batch != nil {
                    state.batch!.update(position)
                    return (nil, replaced)
                }
                let count = state.elements.count
                return (
                    Changeset(
                        sourceCount: count, targetCount: count,
                        updates: state.pairs(Changeset.OffsetPair(source: position, target: position))),
                    replaced
                )
            }
        }
    }

    /// The elements at `bounds` now, as a slice of one snapshot (its indices are the collection's
    /// offsets).
    ///
    /// The read and the range check happen under one lock: bounds that another thread has made
    /// invalid trap with a message naming them and the range at that moment.
    ///
    /// - Parameter bounds: Offsets within `0...count`.
    /// - Complexity: O(1).
    @inlinable
    public subscript(bounds: Range<Int>) -> Slice<ListSnapshot<Element>> {
        state.withLock { state in
            guard bounds.lowerBound >= 0 && bounds.upperBound <= state.elements.count else {
                ObservableCollection.outOfRange("subscript(bounds:)", bounds, state.elements.count)
            }
            return state.elements[bounds]
        }
    }

    /// The offset of the first element that satisfies `predicate`, in one snapshot.
    ///
    /// - Parameter predicate: Runs on the snapshot, without the lock held.
    /// - Returns: The offset in the snapshot, or `nil`. Another thread may move the element after.
    /// - Complexity: O(*n*).
    @inlinable
    public func firstIndex(where predicate: (Element) throws -> Bool) rethrows -> Int? {
        try snapshot.firstIndex(where: predicate)
    }

    /// The offset of the last element that satisfies `predicate`, in one snapshot.
    ///
    /// - Parameter predicate: Runs on the snapshot, without the lock held.
    /// - Returns: The offset in the snapshot, or `nil`. Another thread may move the element after.
    /// - Complexity: O(*n*).
    @inlinable
    public func lastIndex(where predicate: (Element) throws -> Bool) rethrows -> Int? {
        try snapshot.lastIndex(where: predicate)
    }

    /// The last element that satisfies `predicate`, in one snapshot.
    ///
    /// - Parameter predicate: Runs on the snapshot, without the lock held.
    /// - Returns: The element, or `nil`.
    /// - Complexity: O(*n*).
    @inlinable
    public func last(where predicate: (Element) throws -> Bool) rethrows -> Element? {
        try snapshot.last(where: predicate)
    }
}

extension ObservableCollection where Element: Equatable {
    /// The offset of the first element equal to `element`, in one snapshot.
    ///
    /// - Parameter element: The element to look for.
    /// - Returns: The offset in the snapshot, or `nil`. Another thread may move the element after.
    /// - Complexity: O(*n*).
    @inlinable
    public func firstIndex(of element: Element) -> Int? {
        snapshot.firstIndex(of: element)
    }

    /// The offset of the last element equal to `element`, in one snapshot.
    ///
    /// - Parameter element: The element to look for.
    /// - Returns: The offset in the snapshot, or `nil`. Another thread may move the element after.
    /// - Complexity: O(*n*).
    @inlinable
    public func lastIndex(of element: Element) -> Int? {
        snapshot.lastIndex(of: element)
    }
}
