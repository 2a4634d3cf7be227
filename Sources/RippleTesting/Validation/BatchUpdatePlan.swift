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
///
/// The plan works per operation, never per row: it moves the rows it names and finds every other
/// row's place by rank arithmetic, so a batch of *k* operations costs O(*k* log *n*) on lists of
/// *n* rows, as UIKit's own bookkeeping does.
struct _BatchPlan {
    /// For each after section, the before section it shows, or `nil` for an inserted section,
    /// whose items all come from the data source.
    let afterSources: [Int?]

    /// For each before section, the after section it becomes, or `nil` for a deleted one.
    let beforeTargets: [Int?]

    /// Before paths of the items that leave for good (deletes and reloads).
    let removedItems: Set<ElementPath>

    /// After paths of the items read from the data source (inserts and reloads), in sections that
    /// are not inserted.
    let addedItems: Set<ElementPath>

    /// The item moves. A moved item keeps the value it had: UIKit moves the cell, it does not
    /// ask the data source again.
    let moves: [_ItemMove]

    /// A finder of where each row before the batch goes: ``destinations()`` builds its tables once.
    ///
    /// - Complexity: O(*k* log *k*) to build, O(log *k*) per row, for *k* operations.
    func destinations() -> (ElementPath) -> ElementPath? {
        var moveTargets: [ElementPath: ElementPath] = [:]
        for move in moves { moveTargets[move.from] = move.to }
        // Per before section the items that leave it; per after section the items that the added
        // items and move destinations fill; both ascending.
        let leaving = _Batch.itemsBySection(Array(removedItems) + moves.map(\.from))
        let taken = _Batch.itemsBySection(Array(addedItems) + moves.map(\.to))
        let (removed, targets) = (removedItems, beforeTargets)
        // An item the batch does not name keeps its rank among the items that stay in its section,
        // and takes the free slot of that rank in its section's after section.
        return { path in
            if let target = moveTargets[path] { return target }
            guard targets.indices.contains(path.section), let section = targets[path.section],
                !removed.contains(path)
            else { return nil }
            let rank = path.item - _countBelow(path.item, in: leaving[path.section] ?? [])
            return ElementPath(item: _slot(ofRank: rank, skipping: taken[section] ?? []), section: section)
        }
    }

    /// The batch as a ``_RowCarry``, for the cells that follow it.
    var carry: _RowCarry { _RowCarry(sectionTargets: beforeTargets, destination: destinations()) }

    /// Applies the batch to the displayed values.
    ///
    /// Deleted, reloaded and moved items leave their before positions; inserted and reloaded items
    /// take the data source's value at their after position; moved items keep their value; the
    /// other items keep their relative order and fill the free slots. Inserted sections are read
    /// whole from the data source.
    ///
    /// - Parameters:
    ///   - sections: The values the view showed before the batch; on return, the values it shows
    ///     after it. Equal to the data source when the batch describes its change exactly.
    ///   - dataSource: The data source after the batch: its counts, and the values of the items
    ///     it inserts or reloads and of the sections it inserts.
    /// - Complexity: O(*k* log *n* + *s* + *m*) for *k* operations, *n* items, *s* sections and *m*
    ///   items in inserted sections. The lists are changed in place where the view holds them
    ///   alone, so a change copies no node but those it touches.
    func apply<Element>(
        to sections: inout [ListSnapshot<Element>], reading dataSource: _DataSourceRead<Element>
    ) {
        var movedValues: [ElementPath: Element] = [:]
        for move in moves { movedValues[move.to] = sections[move.from.section][move.from.item] }
        // Removed last to first, so that each offset still names its item.
        for path in (Array(removedItems) + moves.map(\.from)).sorted(by: >) {
            sections[path.section].remove(at: path.item)
        }
        // Each before section is taken out of `sections` as its after section is built, so that
        // the list stays uniquely referenced while it takes its arrivals.
        var before = sections.map { Optional($0) }
        sections = []
        sections = dataSource.counts.indices.map { target in
            afterSources[target].map { before[$0].take()! } ?? dataSource.section(target)
        }
        // Inserted first to last, so that each lands at its after offset.
        for path in (Array(addedItems) + moves.map(\.to)).sorted() {
            sections[path.section].insert(movedValues[path] ?? dataSource.element(path), at: path.item)
        }
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
