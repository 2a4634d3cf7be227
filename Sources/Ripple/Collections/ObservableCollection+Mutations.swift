import RippleDiff

extension ObservableCollection {
    /// Runs one mutation under the lock and publishes its event after unlocking.
    ///
    /// `body` changes `state.elements` and returns the exact change-set, or `nil` (or an empty one)
    /// when nothing changed. Inside a batch it instead keeps `state.batch` in step and returns `nil`;
    /// the batch folds the change in when it ends. Anything `body` takes out of the elements (a
    /// removed or replaced element, an old array) belongs in `Result`: it is then released after
    /// unlocking, so an element's `deinit` may use the collection.
    ///
    /// The first delivery is taken under the same lock as the mutation, which saves one lock per
    /// event.
    @inlinable
    func mutate<Result>(_ body: (inout State) -> (Changeset?, Result)) -> Result {
        mutate(inBatch: { body(&$0).1 }, body)
    }

    /// Runs one mutation under the lock, as `mutate(_:)` does, with its batch path apart:
    /// inside a batch, `batched` changes `state.elements` and keeps `state.batch` in step, and no
    /// change-set is made or dropped. For the mutations a batch repeats thousands of times
    /// (`append(_:)`): a `Changeset?` is copied and destroyed through its type's value witnesses
    /// (it is large), which cost a batched append about 70 instructions.
    @inlinable
    func mutate<Result>(
        inBatch batched: (inout State) -> Result, _ body: (inout State) -> (Changeset?, Result)
    ) -> Result {
        let (handoff, result) = state.withLock { state -> (Handoff?, Result) in
            if state.batch != nil {
                let result = batched(&state)
                state.countBatchEdits()
                return (nil, result)
            }
            let (changeset, result) = body(&state)
            return (state.commitTakingDelivery(changeset), result)
        }
        if let handoff { deliver(handoff) }
        return result
    }

    /// Adds an element at the end.
    ///
    /// - Parameter element: The element to add.
    /// - Complexity: O(log *n*) for *n* elements, whoever holds snapshots: the storage copies at
    ///   most the nodes on its right edge that a snapshot shares.
    @inlinable
    public func append(_ element: Element) {
        mutate(
            inBatch: { state in
                state.elements.append(element)
                state.batch!.origins.append(-1)
            },
            { state in
                let offset = state.elements.count
                state.elements.append(element)
                return (Changeset(sourceCount: offset, targetCount: offset + 1, inserts: state.offsets(offset)), ())
            })
    }

    /// Adds elements at the end.
    ///
    /// - Parameter elements: The elements to add, in order.
    /// - Complexity: O(*k* log *n*) for *k* new elements and *n* in the collection.
    @inlinable
    public func append(contentsOf elements: some Sequence<Element>) {
        let added = Array(elements)
        guard !added.isEmpty else { return }
        mutate { state in
            let offset = state.elements.count
            state.elements.append(contentsOf: added)
            if state.batch != nil {
                state.batch!.origins.append(contentsOf: repeatElement(-1, count: added.count))
                return (nil, ())
            }
            return (
                Changeset(
                    sourceCount: offset, targetCount: offset + added.count,
                    inserts: Array(offset..<(offset + added.count))),
                ()
            )
        }
    }

    /// Inserts an element at `position`.
    ///
    /// - Parameters:
    ///   - element: The element to insert.
    ///   - position: An offset in `0...count`.
    /// - Complexity: O(log *n*) for *n* elements, whoever holds snapshots.
    @inlinable
    public func insert(_ element: Element, at position: Int) {
        insert(contentsOf: CollectionOfOne(element), at: position, method: "insert(_:at:)")
    }

    /// Inserts elements at `position`.
    ///
    /// - Parameters:
    ///   - elements: The elements to insert, in order.
    ///   - position: An offset in `0...count`.
    /// - Complexity: O(*k* log *n*) for *k* new elements and *n* in the collection.
    @inlinable
    public func insert(contentsOf elements: some Collection<Element>, at position: Int) {
        insert(contentsOf: elements, at: position, method: "insert(contentsOf:at:)")
    }

    @inlinable
    func insert(contentsOf elements: some Collection<Element>, at position: Int, method: String) {
        let added = Array(elements)
        mutate { state in
            let count = state.elements.count
            guard position >= 0 && position <= count else {
                ObservableCollection.outOfRange(method, position, count, endInclusive: true)
            }
            guard !added.isEmpty else { return (nil, ()) }
            state.elements.insert(contentsOf: added, at: position)
            if state.batch != nil {
                state.batch!.origins.replaceSubrange(
                    position..<position, with: repeatElement(-1, count: added.count))
                return (nil, ())
            }
            return (
                Changeset(
                    sourceCount: count, targetCount: count + added.count,
                    inserts: added.count == 1 ? state.offsets(position) : Array(position..<(position + added.count))),
                ()
            )
        }
    }

    /// Removes and returns the element at `position`.
    ///
    /// - Parameter position: An offset in `0..<count`.
    /// - Returns: The removed element.
    /// - Complexity: O(log *n*) for *n* elements, whoever holds snapshots.
    @inlinable
    @discardableResult
    public func remove(at position: Int) -> Element {
        mutate { state in
            let count = state.elements.count
            guard position >= 0 && position < count else {
                ObservableCollection.outOfRange("remove(at:)", position, count)
            }
            let removed = state.elements.remove(at: position)
            if state.batch != nil {
                state.batch!.origins.remove(at: position)
                return (nil, removed)
            }
            return (Changeset(sourceCount: count, targetCount: count - 1, deletes: state.offsets(position)), removed)
        }
    }

    /// Removes the elements at `offsets`.
    ///
    /// - Parameter offsets: Offsets in `0..<count`, in any order; repeats count once.
    /// - Complexity: O(*k* log *n*) for *k* offsets and *n* elements, and at most O(*n* + *k* log *k*).
    @inlinable
    public func remove(atOffsets offsets: some Sequence<Int>) {
        let sorted = Array(Set(offsets)).sorted()
        // The removed elements are returned, to be released after unlocking.
        _ = mutate { state -> (Changeset?, [Element]) in
            let count = state.elements.count
            for offset in sorted where offset < 0 || offset >= count {
                ObservableCollection.outOfRange("remove(atOffsets:)", offset, count)
            }
            guard !sorted.isEmpty else { return (nil, []) }
            let removed = state.elements.extractSorted(sorted)
            if state.batch != nil {
                state.batch!.origins.removeSorted(sorted)
                return (nil, removed)
            }
            return (Changeset(sourceCount: count, targetCount: count - sorted.count, deletes: sorted), removed)
        }
    }

    /// Removes every element that satisfies `shouldBeRemoved`.
    ///
    /// The predicate runs on a snapshot, without any lock held; if another thread mutates the
    /// collection meanwhile, the predicate runs again on the new elements.
    ///
    /// - Parameter shouldBeRemoved: Returns `true` for the elements to remove.
    /// - Complexity: O(*n*) predicate calls per attempt.
    @inlinable
    public func removeAll(where shouldBeRemoved: (Element) throws -> Bool) rethrows {
        while true {
            let (elements, mutations) = state.withLock { ($0.elements, $0.mutations) }
            var offsets: [Int] = []
            for (offset, element) in elements.enumerated() where try shouldBeRemoved(element) {
                offsets.append(offset)
            }
            // The removed elements are returned, to be released after unlocking.
            let (done, _) = mutate { state -> (Changeset?, (Bool, [Element])) in
                guard state.mutations == mutations else { return (nil, (false, [])) }
                guard !offsets.isEmpty else { return (nil, (true, [])) }
                let count = state.elements.count
                let removed = state.elements.extractSorted(offsets)
                if state.batch != nil {
                    state.batch!.origins.removeSorted(offsets)
                    return (nil, (true, removed))
                }
                return (
                    Changeset(sourceCount: count, targetCount: count - offsets.count, deletes: offsets),
                    (true, removed)
                )
            }
            if done { return }
        }
    }

    /// Removes every element.
    ///
    /// - Complexity: O(*n*).
    @inlinable
    public func removeAll() {
        // The old elements are returned, to be released after unlocking.
        _ = mutate { state -> (Changeset?, ListSnapshot<Element>) in
            let count = state.elements.count
            guard count > 0 else { return (nil, ListSnapshot()) }
            var removed = ListSnapshot<Element>()
            swap(&removed, &state.elements)
            if state.batch != nil {
                state.batch!.origins.removeAll()
                return (nil, removed)
            }
            return (Changeset(sourceCount: count, targetCount: 0, deletes: Array(0..<count)), removed)
        }
    }

    /// Moves the element at `source` so that it ends at `destination`, as `UITableView.moveRow`
    /// does.
    ///
    /// - Parameters:
    ///   - source: The element's offset now, in `0..<count`.
    ///   - destination: The element's offset afterwards, in `0..<count`.
    /// - Complexity: O(log *n*) for *n* elements, whoever holds snapshots.
    @inlinable
    public func move(from source: Int, to destination: Int) {
        mutate { state in (state.move(from: source, to: destination, method: "move(from:to:)"), ()) }
    }

    /// Moves the element at `source` so that it ends at `destination`, only if the collection is
    /// still at `version` with no batch open: the check and the move are one step under the lock,
    /// so that a change made on another thread in between cannot make the offsets name other
    /// elements, or trap because they left the range.
    ///
    /// A list source takes the user's drag this way: it passes the version it rendered, and a
    /// drag that lost its race against another change is reported and cancelled, never a crash.
    ///
    /// ```swift
    /// let books = ObservableCollection(["Dune", "Emma", "Ulysses"])
    /// let rendered = books.version
    /// books.append("Walden")                                       // another thread, say
    /// print(books.move(from: 0, to: 2, ifVersion: rendered))       // the drag's move
    /// // false
    /// ```
    ///
    /// - Parameters:
    ///   - source: The element's offset at `version`, in `0..<count`.
    ///   - destination: The element's offset afterwards, in `0..<count`.
    ///   - version: The version the offsets refer to (``version``, as of the last event).
    /// - Returns: Whether the element moved: `false`, with nothing changed, when another change
    ///   came first (the collection is past `version`, or a batch is open).
    /// - Complexity: O(log *n*) for *n* elements, whoever holds snapshots.
    @inlinable
    @discardableResult
    public func move(from source: Int, to destination: Int, ifVersion version: Int) -> Bool {
        mutate { state in
            guard state.version == version, state.batch == nil else { return (nil, false) }
            return (state.move(from: source, to: destination, method: "move(from:to:ifVersion:)"), true)
        }
    }

    /// Moves the elements at `offsets` to just before the element now at `destination`, keeping
    /// their order, as SwiftUI's `onMove` reports it.
    ///
    /// - Parameters:
    ///   - offsets: Offsets in `0..<count`.
    ///   - destination: An offset in `0...count`, in the coordinates before the move.
    /// - Complexity: O(*n* + *k* log *k*) for *k* moved elements.
    @inlinable
    public func move(fromOffsets offsets: some Sequence<Int>, toOffset destination: Int) {
        let sorted = Array(Set(offsets)).sorted()
        mutate { state in
            let count = state.elements.count
            for offset in sorted where offset < 0 || offset >= count {
                ObservableCollection.outOfRange("move(fromOffsets:toOffset:)", offset, count)
            }
            guard destination >= 0 && destination <= count else {
                ObservableCollection.outOfRange("move(fromOffsets:toOffset:)", destination, count, endInclusive: true)
            }
            let order = Array<Int>.movingOrder(count: count, moving: sorted, to: destination)
            guard !order.elementsEqual(0..<count) else { return (nil, ()) }
            state.elements.reorder(order)
            if state.batch != nil {
                let origins = state.batch!.origins
                state.batch!.origins = ListSnapshot(order.lazy.map { origins[$0] })
                return (nil, ())
            }
            return (Changeset(sourceCount: count, origins: order), ())
        }
    }
}

extension Array {
    /// Removes the elements at `sorted` (ascending, unique, in range) in one pass.
    ///
    /// - Complexity: O(*n*).
    @inlinable
    mutating func removeSorted(_ sorted: [Int]) {
        let kept = partitionSorted(sorted)
        removeSubrange(kept...)
    }

    /// Moves the elements at `sorted` (ascending, unique, in range) to the end, keeping the order
    /// of the others, and returns where the moved ones start.
    @inlinable
    mutating func partitionSorted(_ sorted: [Int]) -> Int {
        var next = 0
        var write = 0
        for read in indices {
            if next < sorted.count && sorted[next] == read {
                next += 1
                continue
            }
            swapAt(write, read)
            write += 1
        }
        return write
    }
}

extension ListSnapshot {
    /// Removes the elements at `sorted` (ascending, unique, in range).
    ///
    /// - Complexity: O(*k* log *n*) for *k* offsets and *n* elements, or O(*n*) when that is less.
    @inlinable
    mutating func removeSorted(_ sorted: [Int]) {
        if sorted.count * 4 <= count {
            for offset in sorted.reversed() { remove(at: offset) }
        } else {
            var kept = Array(self)
            kept.removeSorted(sorted)
            self = ListSnapshot(kept)
        }
    }
}

extension Array where Element == Int {
    /// The order of old offsets after moving `moving` (ascending) to before old offset `destination`.
    @inlinable
    static func movingOrder(count: Int, moving: [Int], to destination: Int) -> [Int] {
        var isMoving = [Bool](repeating: false, count: count)
        for offset in moving { isMoving[offset] = true }
        var order: [Int] = []
        order.reserveCapacity(count)
        for offset in 0..<destination where !isMoving[offset] { order.append(offset) }
        order.append(contentsOf: moving)
        for offset in destination..<count where !isMoving[offset] { order.append(offset) }
        return order
    }
}

extension ObservableCollection.State {
    /// Moves an element under the lock and returns the change to publish, or `nil` for none (no
    /// move, or a batch that records it).
    @inlinable
    mutating func move(from source: Int, to destination: Int, method: String) -> Changeset? {
        let count = elements.count
        guard source >= 0 && source < count else { ObservableCollection.outOfRange(method, source, count) }
        guard destination >= 0 && destination < count else {
            ObservableCollection.outOfRange(method, destination, count)
        }
        guard source != destination else { return nil }
        elements.move(fromOffset: source, toOffset: destination)
        if batch != nil {
            batch!.origins.insert(batch!.origins.remove(at: source), at: destination)
            return nil
        }
        return Changeset(
            sourceCount: count, targetCount: count,
            moves: pairs(Changeset.OffsetPair(source: source, target: destination)))
    }
}
