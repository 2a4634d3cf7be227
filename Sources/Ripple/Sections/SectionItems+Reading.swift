import RippleDiff

// MARK: - Reading, as ``ObservableCollection`` reads: a `Sequence` of one snapshot per iteration

extension SectionItems: Sequence {
    /// Iterates over a snapshot taken when iteration starts.
    ///
    /// - Returns: An iterator over the items as they were when it was made.
    public func makeIterator() -> ListSnapshot<Item>.Iterator {
        snapshot.makeIterator()
    }

    /// Zero: the count may change before iteration starts.
    public var underestimatedCount: Int { 0 }
}

extension SectionItems {
    /// Reads or replaces the item at `position`. Replacing it publishes an update.
    ///
    /// - Parameter position: An offset in `0..<count`, checked when the call runs.
    /// - Complexity: O(log *m*) to read, for *m* items; O(*s* + log *m*) to replace in a
    ///   collection of *s* sections.
    @inlinable
    public subscript(position: Int) -> Item {
        get {
            read { items in
                guard position >= 0 && position < items.count else {
                    Self.outOfRange("subscript", position, "0..<\(items.count)")
                }
                return items[position]
            }
        }
        set {
            let replaced = mutate { items -> (Changeset?, Item) in
                guard position >= 0 && position < items.count else {
                    Self.outOfRange("subscript", position, "0..<\(items.count)")
                }
                let replaced = items[position]
                items[position] = newValue
                let pair = Changeset.OffsetPair(source: position, target: position)
                return (Changeset(sourceCount: items.count, targetCount: items.count, updates: [pair]), replaced)
            }
            withExtendedLifetime(replaced) {}
        }
    }

    /// The first item now, if any.
    public var first: Item? { read { $0.first } }

    /// The last item now, if any.
    public var last: Item? { read { $0.last } }

    /// The valid offsets now: `0..<count`.
    public var indices: Range<Int> { 0..<count }

    /// The items at `bounds` now, as a slice of one snapshot.
    ///
    /// - Parameter bounds: A range inside `0..<count`, checked when the call runs.
    public subscript(bounds: Range<Int>) -> Slice<ListSnapshot<Item>> {
        read { items in
            guard bounds.lowerBound >= 0 && bounds.upperBound <= items.count else {
                Self.outOfRange("subscript(bounds:)", bounds.upperBound, "0...\(items.count)")
            }
            return items[bounds]
        }
    }
}

extension SectionItems: CustomStringConvertible {
    /// The items, as an array prints them.
    public var description: String { "\(snapshot)" }
}
