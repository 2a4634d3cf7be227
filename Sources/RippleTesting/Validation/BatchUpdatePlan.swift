import RippleDiff

/// A section move, as recorded: from a before section to an after section.
struct _SectionMove: Hashable, Comparable {
    var from: Int
    var to: Int

    static func < (lhs: _SectionMove, rhs: _SectionMove) -> Bool {
        lhs.from != rhs.from ? lhs.from < rhs.from : lhs.to < rhs.to
    }
}

/// An item move, as recorded: from a before path to an after path.
struct _ItemMove: Hashable, Comparable {
    var from: ElementPath
    var to: ElementPath

    static func < (lhs: _ItemMove, rhs: _ItemMove) -> Bool {
        lhs.from != rhs.from ? lhs.from < rhs.from : lhs.to < rhs.to
    }
}

/// A batch that passed validation, in the form a headless view applies it with UIKit's semantics.
///
/// Reloads are already deletes plus inserts at the position UIKit computes (R3), and item
/// operations inside deleted or inserted sections are already dropped.
struct _BatchPlan {
    /// For each after section, the before section it shows, or `nil` for an inserted section,
    /// whose items all come from the data source.
    var afterSources: [Int?]

    /// Before paths of the items that leave (deletes and reloads), in surviving sections. Moves are
    /// separate.
    var removedItems: [ElementPath]

    /// After paths of the items read from the data source (inserts and reloads), in sections that
    /// are not inserted.
    var addedItems: [ElementPath]

    /// The item moves. A moved item keeps the value it had: UIKit moves the cell, it does not
    /// ask the data source again.
    var moves: [_ItemMove]

    /// The displayed values once the batch is applied.
    ///
    /// Deleted, reloaded and moved items leave their before positions; inserted and reloaded items
    /// take the data source's value at their after position; moved items keep their value; the
    /// other items keep their relative order and fill the free slots.
    ///
    /// - Parameters:
    ///   - before: The values the view showed before the batch.
    ///   - after: The values the data source reports after the batch.
    /// - Returns: The values the view shows after the batch. Equal to `after` when the batch
    ///   describes the data source's change exactly.
    /// - Complexity: O(*n* + *m* + *k*) for *n* items before, *m* after and *k* operations.
    func applied<Element>(to before: [[Element]], dataSource after: [[Element]]) -> [[Element]] {
        // Slots of the sections that are not inserted; inserted sections are copied whole.
        var slots: [[Element?]] = after.indices.map { target in
            afterSources[target] == nil ? [] : [Element?](repeating: nil, count: after[target].count)
        }
        var leaving: [[Bool]] = before.map { [Bool](repeating: false, count: $0.count) }
        for path in addedItems { slots[path.section][path.item] = after[path.section][path.item] }
        for path in removedItems { leaving[path.section][path.item] = true }
        for move in moves {
            slots[move.to.section][move.to.item] = before[move.from.section][move.from.item]
            leaving[move.from.section][move.from.item] = true
        }
        var result: [[Element]] = []
        result.reserveCapacity(after.count)
        for target in after.indices {
            guard let source = afterSources[target] else {
                result.append(after[target])
                continue
            }
            var next = 0
            for (item, element) in before[source].enumerated() where !leaving[source][item] {
                while slots[target][next] != nil { next += 1 }
                slots[target][next] = element
                next += 1
            }
            result.append(slots[target].map { $0! })
        }
        return result
    }
}

// MARK: - Rank arithmetic

/// The number of leading elements of `sorted` that are less than `value`.
///
/// - Complexity: O(log *n*).
func _countBelow(_ value: Int, in sorted: [Int]) -> Int {
    var low = 0
    var high = sorted.count
    while low < high {
        let middle = (low + high) / 2
        if sorted[middle] < value { low = middle + 1 } else { high = middle }
    }
    return low
}

/// The after position of the survivor with rank `rank` (its offset among the items that stay),
/// when the ascending after positions `taken` are filled by other items.
///
/// The survivor goes to the `rank`-th free slot: `rank + k`, where `k` counts the taken slots
/// before it. `taken[j] - j` never decreases, so `k` is found by binary search. (`taken` is
/// ascending and distinct, so `taken[j] - j` cannot overflow.)
///
/// A slot beyond `Int.max`, which only an absurd index such as `Int.max` itself can ask for, is
/// `Int.max`: out of range for every view, so the batch's bounds checks report it instead of the
/// arithmetic trapping.
///
/// - Complexity: O(log *n*).
func _slot(ofRank rank: Int, skipping taken: [Int]) -> Int {
    var low = 0
    var high = taken.count
    while low < high {
        let middle = (low + high) / 2
        if taken[middle] - middle <= rank { low = middle + 1 } else { high = middle }
    }
    let (slot, overflow) = rank.addingReportingOverflow(low)
    return overflow ? .max : slot
}
