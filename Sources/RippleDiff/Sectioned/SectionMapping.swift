// Helpers shared by the sectioned diff, its replay and its staging: which source section becomes
// which target section, and flat item numbering across sections.

/// Which source section becomes which target section under a valid section-level change-set.
///
/// Moves pair their two offsets; the sections that are neither deleted nor moved keep their order
/// and fill the target offsets that inserts and moves leave free, as in UIKit.
///
/// `package` access: Ripple's sectioned collection maps sections the same way.
@usableFromInline
package struct _SectionMapping {
    /// For each source section, its target offset, or `-1` when it is deleted.
    @usableFromInline
    package var targetOf: [Int]

    /// For each target section, its source offset, or `-1` when it is inserted.
    @usableFromInline
    package var sourceOf: [Int]

    /// Builds the mapping of a valid section-level change-set.
    ///
    /// - Complexity: O(*s* + *t*) for *s* source and *t* target sections.
    @inlinable
    package init(_ sections: Changeset) {
        let unset = -2
        var targetOf = [Int](repeating: unset, count: sections.sourceCount)
        var sourceOf = [Int](repeating: unset, count: sections.targetCount)
        for offset in sections.deletes { targetOf[offset] = -1 }
        for offset in sections.inserts { sourceOf[offset] = -1 }
        for move in sections.moves {
            targetOf[move.source] = move.target
            sourceOf[move.target] = move.source
        }
        var next = 0
        for offset in targetOf.indices where targetOf[offset] == unset {
            while sourceOf[next] != unset { next += 1 }
            targetOf[offset] = next
            sourceOf[next] = offset
            next += 1
        }
        self.targetOf = targetOf
        self.sourceOf = sourceOf
    }
}

/// The offsets at which each section's items start when all items are numbered in order, plus the
/// total as the last entry: `counts.count + 1` values.
///
/// - Complexity: O(*s*) for *s* sections.
@inlinable
internal func _itemStarts(_ counts: [Int]) -> [Int] {
    var starts = [Int]()
    starts.reserveCapacity(counts.count + 1)
    var total = 0
    starts.append(0)
    for count in counts {
        total += count
        starts.append(total)
    }
    return starts
}

/// The path of the item numbered `flat` in a list whose section starts are `starts` (see
/// ``_itemStarts(_:)``).
///
/// - Complexity: O(log *s*) for *s* sections.
@inlinable
internal func _path(ofFlat flat: Int, starts: [Int]) -> ElementPath {
    // The last section whose start is <= flat; empty sections share their start with the next one
    // and are skipped because a later section has the same start.
    var low = 0
    var high = starts.count - 1
    while high - low > 1 {
        let middle = (low + high) >> 1
        if starts[middle] <= flat { low = middle } else { high = middle }
    }
    return ElementPath(item: flat - starts[low], section: low)
}
