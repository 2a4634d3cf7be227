// Why this file is long: it is one algorithm, in the four steps below, which share one working state.
//
// The sectioned diff: sections first, then all items in one flat table.
//
// 1. Diff the sections with the flat diff (identity and content of the section values). This gives
//    the section deletes, inserts, minimal moves and updates, and which source section becomes
//    which target section.
// 2. For each pair of matched sections, trim the items' common prefix and suffix (same identity at
//    the same distance from either end) without hashing, noting the content changes on the way.
//    An unchanged list ends its item work here.
// 3. Number all remaining (middle) items across sections (section-major), copy the source's
//    identifiers into one list, and put them in the identifier table the flat diff uses
//    (`_IdentifierTable`), each hashed once, duplicates chained in source order. Item identity is
//    global, as in UIKit, so an item found in another section is a cross-section move.
// 4. Look up each remaining target identifier once: it takes the first unmatched source item with
//    the same identifier, or is an insert (the in-order pairing; `docs/diff.md` says why not by
//    place). Identifiers first seen in the target are added to the table so that repeats in the
//    target are reported.
// 5. Per target section, in target order: items matched inside the paired source section keep a
//    longest increasing run in place and move the rest (minimal moves inside each section); items
//    from any other section are moves; unmatched items are inserts.
// 6. Per source section, in source order: unmatched items are deletes, and matched items whose
//    content differs are updates.
//
// Items of deleted sections are not deletes, and items of inserted sections are not inserts: they
// leave and arrive with their section. Items that survive across such a section are moves.
//
// The source's identifiers are copied once into a contiguous list so that the table can refer to
// them by number, as the flat diff refers to its elements, and a probe compares identifiers
// without going back to the nested item arrays. Of the target's, only those the source lacks are
// copied (into a list numbered like the target's middle items): the table compares later target
// identifiers with them. Items are numbered with 32-bit offsets.

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
    // The items in contiguous scratch, which the passes below read through buffers; except a
    // matched pair of sections whose items share their storage (a collection's section that did
    // not change): they are trimmed whole, and never read.
    let sourceItems = source.indices.map { s in
        let t = mapping.targetOf[s]
        return t >= 0 && source[s].items.isIdentical(to: target[t].items) ? [] : Array(source[s].items)
    }
    let targetItems = target.indices.map { t in
        let s = mapping.sourceOf[t]
        return s >= 0 && source[s].items.isIdentical(to: target[t].items) ? [] : Array(target[t].items)
    }
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
        let (prefix, suffix) =
            source[s].items.isIdentical(to: target[t].items)
            ? (sourceItemCounts[s], 0)
            : sourceItems[s].withUnsafeBufferPointer { old in
                targetItems[t].withUnsafeBufferPointer { new in
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

    // 3. The middle items' identifiers, numbered across sections (section-major), in one
    //    identifier table. `*Middle[s]` is the number of section s's first middle item; an item i of
    //    section s is number `*Middle[s] - *Low[s] + i`.
    let sourceMiddle = _middleStarts(low: sourceLow, high: sourceHigh)
    let targetMiddle = _middleStarts(low: targetLow, high: targetHigh)
    // Nothing to hash when every matched pair of sections is unchanged: no table.
    var table: _IdentifierTable<_StoredIdentifiers<ItemIdentity.Identifier>>? = nil
    if hashedSource > 0 || hashedTarget > 0 {
        let seed = _hashSeed
        let sourceHashes = UnsafeMutableBufferPointer<Int>.allocate(capacity: Swift.max(hashedSource, 1))
        let sourceIDs = _middleIdentifiers(
            sourceItems, low: sourceLow, high: sourceHigh, count: hashedSource, identity: itemIdentity,
            hashes: sourceHashes, seed: seed)
        // Filled only at the target items whose identifier the source lacks: the table compares
        // later target identifiers with those, and never reads the others.
        let targetIDs = UnsafeMutableBufferPointer(
            start: UnsafeMutablePointer<ItemIdentity.Identifier>.allocate(capacity: Swift.max(hashedTarget, 1)),
            count: hashedTarget)
        var matching = _IdentifierTable(
            source: UnsafeBufferPointer(sourceIDs), target: UnsafeBufferPointer(targetIDs),
            identity: _StoredIdentifiers<ItemIdentity.Identifier>())
        matching.indexSource(hashes: UnsafeBufferPointer(rebasing: sourceHashes[0..<hashedSource]))
        sourceHashes.deallocate()
        // 4. Target identifiers, first to last, paired in order.
        matching.startMatching(pairing: .inOrder)
        var number = 0
        for t in 0..<targetSectionCount where targetLow[t] < targetHigh[t] {
            targetItems[t].withUnsafeBufferPointer { items in
                for j in targetLow[t]..<targetHigh[t] {
                    let id = itemIdentity.identifier(of: items[j])
                    matching.matchTarget(number, id: id, hash: _diffHash(id, seed: seed))
                    if matching.targetToSource[number] == -1 {
                        (targetIDs.baseAddress.unsafelyUnwrapped + number).initialize(to: id)
                    }
                    number &+= 1
                }
            }
        }
        // The table reads the identifiers only while it matches.
        sourceIDs.deinitialize().deallocate()
        for number in 0..<hashedTarget where matching.targetToSource[number] == -1 {
            (targetIDs.baseAddress.unsafelyUnwrapped + number).deinitialize(count: 1)
        }
        targetIDs.baseAddress.unsafelyUnwrapped.deallocate()
        table = matching
    }
    defer { table?.deallocate() }
    // The partner of each middle item, by number; negative when unmatched.
    let sourceMatch = table?.sourceToTarget ?? UnsafeMutableBufferPointer(start: nil, count: 0)
    let targetMatch = table?.targetToSource ?? UnsafeMutableBufferPointer(start: nil, count: 0)
    /// The source path of the middle item numbered `number`.
    func sourcePath(_ number: Int) -> ElementPath {
        let path = _path(ofFlat: number, starts: sourceMiddle)
        return ElementPath(item: sourceLow[path.section] &+ path.item, section: path.section)
    }
    /// The target path of the middle item numbered `number`.
    func targetPath(_ number: Int) -> ElementPath {
        let path = _path(ofFlat: number, starts: targetMiddle)
        return ElementPath(item: targetLow[path.section] &+ path.item, section: path.section)
    }
    if let table, !table.sourceRepeats.isEmpty || !table.targetRepeats.isEmpty {
        duplicates = SectionedChangeset.ItemDuplicates(
            sourcePaths: table.sourceRepeats.offsets(shiftedBy: 0).map(sourcePath),
            targetPaths: table.targetRepeats.offsets(shiftedBy: 0).map(targetPath))
    }

    // 5. Inserts and moves, in target order.
    if hashedTarget > 0 {
        var longestTargetMiddle = 0
        for t in 0..<targetSectionCount {
            longestTargetMiddle = Swift.max(longestTargetMiddle, targetHigh[t] &- targetLow[t])
        }
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
            let base = targetMiddle[t] &- low
            let s = mapping.sourceOf[t]
            if s < 0 {
                // An inserted section: its new items arrive with it; items found elsewhere move in.
                for j in low..<high {
                    let match = Int(targetMatch[base &+ j])
                    if match >= 0 {
                        itemMoves.append(PathPair(source: sourcePath(match), target: ElementPath(item: j, section: t)))
                    }
                }
                continue
            }
            let sourceBase = sourceMiddle[s]
            let sourceEnd = sourceMiddle[s &+ 1]
            let sourceShift = sourceLow[s] &- sourceBase
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
                                    source: ElementPath(item: match &+ sourceShift, section: s),
                                    target: ElementPath(item: j, section: t)))
                        }
                        keep[position] = false
                    }
                    position &+= 1
                } else {
                    itemMoves.append(PathPair(source: sourcePath(match), target: ElementPath(item: j, section: t)))
                }
            }
        }
    }

    // 6. Deletes and updates, in source order.
    var trimmedCursor = 0
    for s in 0..<sourceSectionCount {
        let t = mapping.targetOf[s]
        let base = sourceStarts[s]
        let middleBase = sourceMiddle[s] &- sourceLow[s]
        if t < 0 {
            // A deleted section: its items leave with it, except those matched elsewhere.
            if hashedTarget == 0 { continue }
            sourceItems[s].withUnsafeBufferPointer { old in
                for i in 0..<old.count {
                    let match = Int(sourceMatch[middleBase &+ i])
                    if match < 0 { continue }
                    let path = targetPath(match)
                    if !itemIdentity.sameContent(old[i], targetItems[path.section][path.item]) {
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
            sourceItems[s].withUnsafeBufferPointer { old in
                targetItems[t].withUnsafeBufferPointer { new in
                    let targetBase = targetMiddle[t]
                    let targetEnd = targetMiddle[t &+ 1]
                    let targetShift = targetLow[t] &- targetBase
                    for i in low..<high {
                        let match = Int(sourceMatch[middleBase &+ i])
                        if match < 0 {
                            itemDeletes.append(ElementPath(item: i, section: s))
                        } else if match >= targetBase && match < targetEnd {
                            let j = match &+ targetShift
                            if !itemIdentity.sameContent(old[i], new[j]) {
                                itemUpdates.append(
                                    PathPair(
                                        source: ElementPath(item: i, section: s),
                                        target: ElementPath(item: j, section: t)))
                            }
                        } else {
                            let path = targetPath(match)
                            if !itemIdentity.sameContent(old[i], targetItems[path.section][path.item]) {
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

/// The number of the first middle item of each section, and the total last: the running sum of
/// `high[s] - low[s]`.
@inlinable
internal func _middleStarts(low: [Int], high: [Int]) -> [Int] {
    var starts = [Int]()
    starts.reserveCapacity(low.count &+ 1)
    var total = 0
    starts.append(0)
    for s in 0..<low.count {
        total &+= high[s] &- low[s]
        starts.append(total)
    }
    return starts
}

/// The identifiers of the items `low[s]..<high[s]` of every section `s`, section-major: `count` of
/// them, in new memory that the caller deinitializes and frees. Writes the hash of each
/// (``_diffHash(_:seed:)``) to `hashes`, in the same order.
@inlinable
internal func _middleIdentifiers<Identity: _IdentityRule>(
    _ sections: [[Identity.Element]],
    low: [Int],
    high: [Int],
    count: Int,
    identity: Identity,
    hashes: UnsafeMutableBufferPointer<Int>,
    seed: UInt64
) -> UnsafeMutableBufferPointer<Identity.Identifier> {
    let identifiers = UnsafeMutableBufferPointer(
        start: UnsafeMutablePointer<Identity.Identifier>.allocate(capacity: Swift.max(count, 1)), count: count)
    let start = identifiers.baseAddress.unsafelyUnwrapped
    var number = 0
    for s in 0..<sections.count where low[s] < high[s] {
        sections[s].withUnsafeBufferPointer { items in
            for i in low[s]..<high[s] {
                let id = identity.identifier(of: items[i])
                hashes[number] = _diffHash(id, seed: seed)
                (start + number).initialize(to: id)
                number &+= 1
            }
        }
    }
    return identifiers
}
