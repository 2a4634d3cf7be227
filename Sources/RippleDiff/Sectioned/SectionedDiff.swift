// The sectioned diff: sections first, then all items in one flat table.
//
// 1. Diff the sections with the flat diff (identity and content of the section values). This gives
//    the section deletes, inserts, minimal moves and updates, and which source section becomes
//    which target section.
// 2. For each pair of matched sections, trim the items' common prefix and suffix (same identity at
//    the same distance from either end) without hashing, noting the content changes on the way.
//    An unchanged list ends its item work here.
// 3. Number all remaining items across sections (section-major) and put the source identifiers in
//    one flat open-addressing table, each hashed once, duplicates chained in source order. Item
//    identity is global, as in UIKit, so an item found in another section is a cross-section move.
// 4. Look up each remaining target identifier once: it takes the first unmatched source item with
//    the same identifier, or is an insert. Identifiers first seen in the target are added to the
//    table so that repeats in the target are reported.
// 5. Per target section, in target order: items matched inside the paired source section keep a
//    longest increasing run in place and move the rest (minimal moves inside each section); items
//    from any other section are moves; unmatched items are inserts.
// 6. Per source section, in source order: unmatched items are deletes, and matched items whose
//    content differs are updates.
//
// Items of deleted sections are not deletes, and items of inserted sections are not inserts: they
// leave and arrive with their section. Items that survive across such a section are moves.
//
// The table holds each distinct identifier once, by value, in a key store next to the head of its
// chain of unmatched source items, so a probe compares identifiers without going back to the
// nested item arrays, and a lookup touches two cache lines: its slot and its key. A slot is one
// `UInt64` (`_SlotBits`: key index + 1, a 31-bit tag from the hash, a seen-in-target bit). The
// chain links (`nextSame`) are written and read only for repeated identifiers. Items are numbered
// with 32-bit offsets.

/// One distinct item identifier in the sectioned diff's table.
@usableFromInline
internal struct _SectionedKey<Identifier> {
    /// The identifier, kept by value so that probes never go back to the items.
    @usableFromInline var identifier: Identifier

    /// The flat number of the first unmatched source item with this identifier, or -1.
    @usableFromInline var head: Int32

    /// Whether other source items share the identifier; their chain continues in `nextSame`.
    @usableFromInline var chained: Bool

    @inlinable
    init(identifier: Identifier, head: Int32) {
        self.identifier = identifier
        self.head = head
        self.chained = false
    }
}

/// The identity rule of a section snapshot: its section value's rule; the items are diffed apart.
@usableFromInline
internal struct _SnapshotSectionIdentity<Base: _IdentityRule, Item>: _IdentityRule {
    @usableFromInline typealias Element = SectionSnapshot<Base.Element, Item>

    @usableFromInline let base: Base

    @inlinable
    init(_ base: Base) { self.base = base }

    @inlinable @inline(__always)
    func identifier(of element: Element) -> Base.Identifier { base.identifier(of: element.section) }

    @inlinable @inline(__always)
    func sameIdentity(_ lhs: Element, _ rhs: Element) -> Bool { base.sameIdentity(lhs.section, rhs.section) }

    @inlinable @inline(__always)
    func sameContent(_ lhs: Element, _ rhs: Element) -> Bool { base.sameContent(lhs.section, rhs.section) }

    @inlinable @inline(__always)
    func match(_ lhs: Element, _ rhs: Element) -> _Match { base.match(lhs.section, rhs.section) }
}

/// Computes the sectioned change-set from `source` to `target` under a section and an item
/// identity rule.
///
/// - Complexity: Expected O(*s* + *t* + *n* + *m*) for *s* and *t* sections and *n* and *m* items,
///   with at most one hash per item identifier, plus O(*k* log *k*) per section to choose the
///   moves among its *k* matched items when they changed order, plus O(log *s* + log *t*) per
///   item that changed section.
@inlinable
internal func _sectionedDiff<SectionIdentity: _IdentityRule, ItemIdentity: _IdentityRule>(
    _ source: [SectionSnapshot<SectionIdentity.Element, ItemIdentity.Element>],
    _ target: [SectionSnapshot<SectionIdentity.Element, ItemIdentity.Element>],
    sectionIdentity: SectionIdentity,
    itemIdentity: ItemIdentity
) -> SectionedChangeset {
    typealias PathPair = SectionedChangeset.PathPair

    // 1. Sections.
    let sections = source.withUnsafeBufferPointer { old in
        target.withUnsafeBufferPointer { new in
            _flatDiff(
                old, new,
                identity: _SnapshotSectionIdentity<SectionIdentity, ItemIdentity.Element>(sectionIdentity))
        }
    }
    let mapping = _SectionMapping(sections)
    let sourceSectionCount = source.count
    let targetSectionCount = target.count
    var sourceItemCounts = [Int]()
    sourceItemCounts.reserveCapacity(sourceSectionCount)
    for section in source { sourceItemCounts.append(section.items.count) }
    var targetItemCounts = [Int]()
    targetItemCounts.reserveCapacity(targetSectionCount)
    for section in target { targetItemCounts.append(section.items.count) }
    let sourceStarts = _itemStarts(sourceItemCounts)
    let targetStarts = _itemStarts(targetItemCounts)
    let sourceTotal = sourceStarts[sourceSectionCount]
    let targetTotal = targetStarts[targetSectionCount]
    precondition(
        sourceTotal < Int(Int32.max) / 2 && targetTotal < Int(Int32.max) / 2,
        "SectionedChangeset(from:to:): lists of \(sourceTotal) and \(targetTotal) items exceed the diff's limit of \(Int(Int32.max) / 2 - 1) items each"
    )

    // 2. Trim each matched pair of sections, in source order. `*Low`/`*High` bound the middle of
    //    every section; unmatched sections are all middle. `trimmedUpdates` lists the source flat
    //    numbers of trimmed items whose content changed, ascending.
    var sourceLow = [Int](repeating: 0, count: sourceSectionCount)
    var sourceHigh = sourceItemCounts
    var targetLow = [Int](repeating: 0, count: targetSectionCount)
    var targetHigh = targetItemCounts
    var hashedSource = sourceTotal
    var hashedTarget = targetTotal
    var trimmedUpdates: [Int] = []
    for s in 0..<sourceSectionCount {
        let t = mapping.targetOf[s]
        if t < 0 { continue }
        let base = sourceStarts[s]
        let (prefix, suffix) = source[s].items.withUnsafeBufferPointer { old in
            target[t].items.withUnsafeBufferPointer { new in
                _trimCommonEnds(old, new, base: base, identity: itemIdentity, updates: &trimmedUpdates)
            }
        }
        sourceLow[s] = prefix
        sourceHigh[s] &-= suffix
        targetLow[t] = prefix
        targetHigh[t] &-= suffix
        hashedSource &-= prefix &+ suffix
        hashedTarget &-= prefix &+ suffix
    }

    var itemDeletes: [ElementPath] = []
    var itemInserts: [ElementPath] = []
    var itemMoves: [PathPair] = []
    var itemUpdates: [PathPair] = []
    var duplicates = SectionedChangeset.ItemDuplicates()

    // Matches between flat item numbers, -1 when unmatched; meaningful for middle items only.
    let sourceMatch = UnsafeMutableBufferPointer<Int32>.allocate(capacity: Swift.max(sourceTotal, 1))
    sourceMatch.initialize(repeating: -1)
    defer { sourceMatch.deallocate() }

    if hashedSource > 0 || hashedTarget > 0 {
        let targetMatch = UnsafeMutableBufferPointer<Int32>.allocate(capacity: Swift.max(targetTotal, 1))
        targetMatch.initialize(repeating: -1)
        let capacity = _tableCapacity(forKeys: hashedSource &+ hashedTarget)
        let mask = capacity &- 1
        let slots = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: capacity)
        slots.initialize(repeating: 0)
        let nextSame = UnsafeMutableBufferPointer<Int32>.allocate(capacity: Swift.max(sourceTotal, 1))
        let keys = UnsafeMutablePointer<_SectionedKey<ItemIdentity.Identifier>>.allocate(
            capacity: Swift.max(hashedSource &+ hashedTarget, 1))
        var keyCount = 0
        defer {
            keys.deinitialize(count: keyCount)
            keys.deallocate()
            slots.deallocate()
            nextSame.deallocate()
            targetMatch.deallocate()
        }
        var duplicateSource: [Int] = []
        var duplicateTarget: [Int] = []

        // 3. Source identifiers, last to first, so each chain lists its items in ascending order.
        var s = sourceSectionCount
        while s > 0 {
            s &-= 1
            let low = sourceLow[s]
            var i = sourceHigh[s]
            if i == low { continue }
            let base = sourceStarts[s]
            source[s].items.withUnsafeBufferPointer { items in
                while i > low {
                    i &-= 1
                    let flat = base &+ i
                    let id = itemIdentity.identifier(of: items[i])
                    let hash = id.hashValue
                    let tag = _SlotBits.tag(hash)
                    var bucket = hash & mask
                    while true {
                        let slot = slots[bucket]
                        if slot == 0 {
                            (keys + keyCount).initialize(
                                to: _SectionedKey(identifier: id, head: Int32(truncatingIfNeeded: flat)))
                            keyCount &+= 1
                            slots[bucket] = tag | UInt64(truncatingIfNeeded: keyCount)
                            break
                        }
                        if slot & _SlotBits.tagMask == tag {
                            let key = keys + (Int(truncatingIfNeeded: slot & _SlotBits.refMask) &- 1)
                            if key.pointee.identifier == id {
                                let later = key.pointee.head
                                duplicateSource.append(Int(later))
                                if !key.pointee.chained {
                                    nextSame[Int(later)] = -1
                                    key.pointee.chained = true
                                }
                                nextSame[flat] = later
                                key.pointee.head = Int32(truncatingIfNeeded: flat)
                                break
                            }
                        }
                        bucket = (bucket &+ 1) & mask
                    }
                }
            }
        }

        // 4. Target identifiers, first to last.
        var longestTargetMiddle = 0
        for t in 0..<targetSectionCount {
            let high = targetHigh[t]
            var j = targetLow[t]
            if j == high { continue }
            longestTargetMiddle = Swift.max(longestTargetMiddle, high &- j)
            let base = targetStarts[t]
            target[t].items.withUnsafeBufferPointer { items in
                while j < high {
                    let flat = base &+ j
                    let id = itemIdentity.identifier(of: items[j])
                    let hash = id.hashValue
                    let tag = _SlotBits.tag(hash)
                    var bucket = hash & mask
                    while true {
                        let slot = slots[bucket]
                        if slot == 0 {
                            (keys + keyCount).initialize(to: _SectionedKey(identifier: id, head: -1))
                            keyCount &+= 1
                            slots[bucket] = tag | _SlotBits.seenInTarget | UInt64(truncatingIfNeeded: keyCount)
                            break
                        }
                        if slot & _SlotBits.tagMask == tag {
                            let key = keys + (Int(truncatingIfNeeded: slot & _SlotBits.refMask) &- 1)
                            if key.pointee.identifier == id {
                                if slot & _SlotBits.seenInTarget != 0 {
                                    duplicateTarget.append(flat)
                                } else {
                                    slots[bucket] = slot | _SlotBits.seenInTarget
                                }
                                let head = key.pointee.head
                                if head >= 0 {
                                    targetMatch[flat] = head
                                    sourceMatch[Int(head)] = Int32(truncatingIfNeeded: flat)
                                    key.pointee.head = key.pointee.chained ? nextSame[Int(head)] : -1
                                }
                                break
                            }
                        }
                        bucket = (bucket &+ 1) & mask
                    }
                    j &+= 1
                }
            }
        }
        if !duplicateSource.isEmpty || !duplicateTarget.isEmpty {
            duplicateSource.sort()
            duplicates = SectionedChangeset.ItemDuplicates(
                sourcePaths: duplicateSource.map { _path(ofFlat: $0, starts: sourceStarts) },
                targetPaths: duplicateTarget.map { _path(ofFlat: $0, starts: targetStarts) })
        }

        // 5. Inserts and moves, in target order.
        let sequence = UnsafeMutableBufferPointer<Int32>.allocate(capacity: Swift.max(longestTargetMiddle, 1))
        let keep = UnsafeMutableBufferPointer<Bool>.allocate(capacity: Swift.max(longestTargetMiddle, 1))
        keep.initialize(repeating: false)
        defer {
            sequence.deallocate()
            keep.deallocate()
        }
        for t in 0..<targetSectionCount {
            let low = targetLow[t]
            let high = targetHigh[t]
            if low == high { continue }
            let base = targetStarts[t]
            let s = mapping.sourceOf[t]
            if s < 0 {
                // An inserted section: its new items arrive with it; items found elsewhere move in.
                for j in low..<high {
                    let match = Int(targetMatch[base &+ j])
                    if match >= 0 {
                        itemMoves.append(
                            PathPair(
                                source: _path(ofFlat: match, starts: sourceStarts),
                                target: ElementPath(item: j, section: t)))
                    }
                }
                continue
            }
            let sourceBase = sourceStarts[s]
            let sourceEnd = sourceStarts[s &+ 1]
            var count = 0
            var inOrder = true
            var crossing = false
            var last: Int32 = -1
            for j in low..<high {
                let match = Int(targetMatch[base &+ j])
                if match < 0 {
                    itemInserts.append(ElementPath(item: j, section: t))
                } else if match >= sourceBase && match < sourceEnd {
                    let offset = Int32(truncatingIfNeeded: match &- sourceBase)
                    if offset < last { inOrder = false }
                    last = offset
                    sequence[count] = offset
                    count &+= 1
                } else {
                    crossing = true
                }
            }
            if inOrder && !crossing { continue }
            if !inOrder {
                _ = _markLongestIncreasingSubsequence(
                    UnsafeBufferPointer(rebasing: sequence[0..<count]),
                    keep: UnsafeMutableBufferPointer(rebasing: keep[0..<count]))
            }
            var position = 0
            for j in low..<high {
                let match = Int(targetMatch[base &+ j])
                if match < 0 { continue }
                if match >= sourceBase && match < sourceEnd {
                    if !inOrder {
                        if !keep[position] {
                            itemMoves.append(
                                PathPair(
                                    source: ElementPath(item: match &- sourceBase, section: s),
                                    target: ElementPath(item: j, section: t)))
                        }
                        keep[position] = false
                    }
                    position &+= 1
                } else {
                    itemMoves.append(
                        PathPair(
                            source: _path(ofFlat: match, starts: sourceStarts),
                            target: ElementPath(item: j, section: t)))
                }
            }
        }
    }

    // 6. Deletes and updates, in source order.
    var trimmedCursor = 0
    for s in 0..<sourceSectionCount {
        let t = mapping.targetOf[s]
        let base = sourceStarts[s]
        if t < 0 {
            // A deleted section: its items leave with it, except those matched elsewhere.
            if hashedTarget == 0 { continue }
            source[s].items.withUnsafeBufferPointer { old in
                for i in 0..<old.count {
                    let match = Int(sourceMatch[base &+ i])
                    if match < 0 { continue }
                    let path = _path(ofFlat: match, starts: targetStarts)
                    if !itemIdentity.sameContent(old[i], target[path.section].items[path.item]) {
                        itemUpdates.append(PathPair(source: ElementPath(item: i, section: s), target: path))
                    }
                }
            }
            continue
        }
        let low = sourceLow[s]
        let high = sourceHigh[s]
        let count = sourceItemCounts[s]
        let shift = targetItemCounts[t] &- count
        while trimmedCursor < trimmedUpdates.count && trimmedUpdates[trimmedCursor] < base &+ low {
            let i = trimmedUpdates[trimmedCursor] &- base
            itemUpdates.append(
                PathPair(source: ElementPath(item: i, section: s), target: ElementPath(item: i, section: t)))
            trimmedCursor &+= 1
        }
        if low < high {
            source[s].items.withUnsafeBufferPointer { old in
                target[t].items.withUnsafeBufferPointer { new in
                    let targetBase = targetStarts[t]
                    let targetEnd = targetStarts[t &+ 1]
                    for i in low..<high {
                        let match = Int(sourceMatch[base &+ i])
                        if match < 0 {
                            itemDeletes.append(ElementPath(item: i, section: s))
                        } else if match >= targetBase && match < targetEnd {
                            let j = match &- targetBase
                            if !itemIdentity.sameContent(old[i], new[j]) {
                                itemUpdates.append(
                                    PathPair(
                                        source: ElementPath(item: i, section: s),
                                        target: ElementPath(item: j, section: t)))
                            }
                        } else {
                            let path = _path(ofFlat: match, starts: targetStarts)
                            if !itemIdentity.sameContent(old[i], target[path.section].items[path.item]) {
                                itemUpdates.append(PathPair(source: ElementPath(item: i, section: s), target: path))
                            }
                        }
                    }
                }
            }
        }
        while trimmedCursor < trimmedUpdates.count && trimmedUpdates[trimmedCursor] < base &+ count {
            let i = trimmedUpdates[trimmedCursor] &- base
            itemUpdates.append(
                PathPair(
                    source: ElementPath(item: i, section: s), target: ElementPath(item: i &+ shift, section: t)))
            trimmedCursor &+= 1
        }
    }

    return SectionedChangeset(
        sections: sections,
        sourceItemCounts: sourceItemCounts,
        targetItemCounts: targetItemCounts,
        itemDeletes: itemDeletes,
        itemInserts: itemInserts,
        itemMoves: itemMoves,
        itemUpdates: itemUpdates,
        itemDuplicates: duplicates)
}

/// Trims the common prefix and suffix of two item lists (same identity at the same distance from
/// either end) and appends `base` plus the source offset of every trimmed item whose content
/// changed to `updates`, ascending. The prefix and suffix never overlap.
///
/// - Returns: The lengths of the common prefix and suffix.
/// - Complexity: O(*p* + *q*) comparisons for a prefix of *p* and a suffix of *q* items.
@inlinable
internal func _trimCommonEnds<Identity: _IdentityRule>(
    _ old: UnsafeBufferPointer<Identity.Element>,
    _ new: UnsafeBufferPointer<Identity.Element>,
    base: Int,
    identity: Identity,
    updates: inout [Int]
) -> (prefix: Int, suffix: Int) {
    let oldCount = old.count
    let newCount = new.count
    let shorter = Swift.min(oldCount, newCount)
    var prefix = 0
    while prefix < shorter {
        let match = identity.match(old[prefix], new[prefix])
        if match == .different { break }
        if match == .updated { updates.append(base &+ prefix) }
        prefix &+= 1
    }
    var suffix = 0
    let firstSuffixUpdate = updates.count
    while suffix < shorter &- prefix {
        let match = identity.match(old[oldCount &- 1 &- suffix], new[newCount &- 1 &- suffix])
        if match == .different { break }
        if match == .updated { updates.append(base &+ oldCount &- 1 &- suffix) }
        suffix &+= 1
    }
    updates[firstSuffixUpdate...].reverse()
    return (prefix, suffix)
}
