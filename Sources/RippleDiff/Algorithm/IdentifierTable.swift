// Why this file is long: it is one data structure, the hash table and the matching it drives, whose
// probe, insert and chain-walk loops share one slot layout and one set of unchecked indices; split
// across files they would have to expose those internals to each other.
//
// The identifier table that both diffs use: a flat open-addressing hash table from identifiers to
// chains of source offsets, and the matching of target elements it drives.
//
// Each identifier is hashed exactly once; the hash's high bits are kept inline in the slot as a
// tag, so a probe compares identifiers only when the tags agree. Slots hold 32-bit offsets, which
// keeps the table at 8 bytes per slot plus a 4-byte chain link per source element.
//
// `_IdentifierTable` is the one type that hashes, probes and tags. The flat diff runs it on the
// elements between the common prefix and suffix; the sectioned diff runs it on the identifiers of
// every section's middle items, numbered across sections (`SectionedDiff.swift`).

/// Slot layout (one `UInt64` per slot, `0` means empty):
/// - bits 0..<31: `ref + 1`. While the identifier has unmatched source elements, `ref` is the first
///   of them (the head of its chain of duplicates). For an identifier only the target has,
///   `ref - sourceCount` is a target offset with the same identifier;
/// - bit 31: "used up": every source element with the identifier is matched, and `ref` is one of
///   them;
/// - bits 32..<63: the tag, the hash's high 31 bits;
/// - bit 63: set once the identifier has been seen in the target.
@usableFromInline
internal enum _SlotBits {
    @usableFromInline static let offsetMask: UInt64 = 0x7FFF_FFFF
    @usableFromInline static let usedUp: UInt64 = 0x8000_0000
    @usableFromInline static let tagMask: UInt64 = 0x7FFF_FFFF_0000_0000
    @usableFromInline static let seenInTarget: UInt64 = 0x8000_0000_0000_0000

    /// The tag bits of a hash value, positioned as in a slot.
    @inlinable @inline(__always)
    static func tag(_ hash: Int) -> UInt64 {
        (UInt64(UInt(bitPattern: hash)) >> 1) & tagMask
    }
}

// MARK: - Hashing

/// The flat diff's hash of an identifier.
///
/// Integer identifiers (`Int`, `UInt`, `Int64`, `UInt64`, `Int32`, `UInt32`) and `ObjectIdentifier`
/// (the identity of class elements) are hashed with one 64×64→128-bit multiplication (see
/// ``_mixHash(_:_:)``): a few instructions, where `hashValue` runs SipHash-1-3 (about 90
/// instructions for one `Int`). Every other identifier uses its own `hashValue`.
///
/// An `ObjectIdentifier` is rotated by 4 bits first: objects are 16-byte aligned, so their
/// addresses are runs of multiples of 16, which the multiplication spreads less evenly than runs
/// of consecutive numbers.
///
/// The seed comes from `Hasher`, so it is random per process like every Swift hash (and fixed
/// when `SWIFT_DETERMINISTIC_HASHING` is set). The check on the identifier type folds away in
/// specialized code.
///
/// - Parameters:
///   - id: The identifier.
///   - seed: ``_hashSeed``, read once per diff.
@inlinable @inline(__always)
internal func _diffHash<ID: Hashable>(_ id: ID, seed: UInt64) -> Int {
    // Safe: each `unsafeBitCast` below stands behind the check that `ID` is the very type it casts
    // to, so it reinterprets a value as its own type (same size, same bits); in specialized code
    // the check folds away and the cast is no instruction at all.
    // Safe: `ID` is `Int` here, so the cast reinterprets an `Int` as itself.
    if ID.self == Int.self { return _mixHash(UInt64(UInt(bitPattern: unsafeBitCast(id, to: Int.self))), seed) }
    if ID.self == ObjectIdentifier.self {
        // Safe: `ID` is `ObjectIdentifier` here, so the cast reinterprets one as itself.
        let address = UInt64(UInt(bitPattern: unsafeBitCast(id, to: ObjectIdentifier.self)))
        return _mixHash(address &>> 4 | address &<< 60, seed)
    }
    // Safe: `ID` is `UInt` here, so the cast reinterprets a `UInt` as itself.
    if ID.self == UInt.self { return _mixHash(UInt64(unsafeBitCast(id, to: UInt.self)), seed) }
    // Safe: `ID` is `Int64` here, so the cast reinterprets an `Int64` as itself.
    if ID.self == Int64.self { return _mixHash(UInt64(bitPattern: unsafeBitCast(id, to: Int64.self)), seed) }
    // Safe: `ID` is `UInt64` here, so the cast reinterprets a `UInt64` as itself.
    if ID.self == UInt64.self { return _mixHash(unsafeBitCast(id, to: UInt64.self), seed) }
    if ID.self == Int32.self {
        // Safe: `ID` is `Int32` here, so the cast reinterprets an `Int32` as itself.
        return _mixHash(UInt64(UInt32(bitPattern: unsafeBitCast(id, to: Int32.self))), seed)
    }
    // Safe: `ID` is `UInt32` here, so the cast reinterprets a `UInt32` as itself.
    if ID.self == UInt32.self { return _mixHash(UInt64(unsafeBitCast(id, to: UInt32.self)), seed) }
    return id.hashValue
}

/// Adds `seed` to `value`, multiplies the sum by 2⁶⁴ divided by the golden ratio to 128 bits, and
/// folds the two halves together (Fibonacci hashing).
///
/// A table's bucket is the top bits of the hash, which the low half decides. For a run of
/// consecutive identifiers, the usual shape of database keys, those top bits are the multiples of
/// the golden ratio, shifted by the seed: they spread over the table as evenly as any sequence can,
/// whatever the seed. (Multiplying by the seed instead, as the diff first did, spread them
/// well under most seeds but clustered them under a few: one process in about 40 probed 95
/// slots per identifier for `0..<2_000`.) The high half folds in the bits the low half loses, so
/// identifiers that differ only in their top bits still differ.
@inlinable @inline(__always)
internal func _mixHash(_ value: UInt64, _ seed: UInt64) -> Int {
    let product = (value &+ seed).multipliedFullWidth(by: 0x9E37_79B9_7F4A_7C15)
    return Int(truncatingIfNeeded: product.high ^ product.low)
}

/// How many slots past their first bucket `identifiers` probe when they go into a flat diff's table
/// for their count, one after another, hashed with `seed`: lets tests check how evenly the hash
/// spreads a shape of identifiers under any seed. Repeated identifiers each take a slot.
///
/// - Complexity: O(*n*) expected for *n* identifiers.
package func _extraProbes<ID: Hashable>(inserting identifiers: [ID], seed: UInt64) -> Int {
    let table = _SlotTable(forKeys: Swift.max(identifiers.count, 1))
    defer { table.deallocate() }
    var probes = 0
    for id in identifiers {
        var bucket = table.bucket(_diffHash(id, seed: seed))
        while table.slots[bucket] != 0 {
            bucket = table.after(bucket)
            probes += 1
        }
        table.slots[bucket] = 1
    }
    return probes
}

/// What an identifier table made of two lists of identifiers (see ``_tableMatching(_:_:byPlace:touchingCapacity:)``).
package struct _TableMatching: Equatable {
    /// For each source offset, its target partner, or -1.
    package var sourceToTarget: [Int]
    /// For each target offset, its source partner, or a negative value.
    package var targetToSource: [Int]
    /// The offsets whose identifier occurred earlier on the same side, ascending.
    package var sourceRepeats: [Int]
    package var targetRepeats: [Int]
    /// The number of pairs, and whether their source offsets increase in target order.
    package var matched: Int
    package var inOrder: Bool

    package init(
        sourceToTarget: [Int], targetToSource: [Int], sourceRepeats: [Int], targetRepeats: [Int], matched: Int,
        inOrder: Bool
    ) {
        self.sourceToTarget = sourceToTarget
        self.targetToSource = targetToSource
        self.sourceRepeats = sourceRepeats
        self.targetRepeats = targetRepeats
        self.matched = matched
        self.inOrder = inOrder
    }
}

/// Runs an identifier table on two lists of identifiers, as a diff does between the common prefix
/// and suffix: indexes `source`, matches `target` in order or (`byPlace`) by place, pairs the
/// leftovers, and returns the matching. Touches the slots by blocks from `touchingCapacity` slots up
/// (`0`: always). Lets tests check the table without a diff around it.
///
/// - Complexity: O(*n* + *m*) expected.
package func _tableMatching<ID: Hashable>(
    _ source: [ID], _ target: [ID], byPlace: Bool = false, touchingCapacity: Int = _touchingCapacity
) -> _TableMatching {
    source.withUnsafeBufferPointer { old in
        target.withUnsafeBufferPointer { new in
            var table = _IdentifierTable(source: old, target: new, identity: _StoredIdentifiers<ID>())
            defer { table.deallocate() }
            table.indexSource(touchingCapacity: touchingCapacity)
            table.matchTargets(pairing: byPlace ? .keepingOrder : .inOrder, touchingCapacity: touchingCapacity)
            let scratch = table.scratchSpace(bytes: 12 &* old.count)
            defer { scratch.deallocate() }
            table.pairLeftovers(scratch: scratch.base)
            return _TableMatching(
                sourceToTarget: (0..<old.count).map { Int(table.sourceToTarget[$0]) },
                targetToSource: (0..<new.count).map { Int(table.targetToSource[$0]) },
                sourceRepeats: table.sourceRepeats.offsets(shiftedBy: 0),
                targetRepeats: table.targetRepeats.offsets(shiftedBy: 0),
                matched: table.matched, inOrder: table.inOrder)
        }
    }
}

/// The seed of ``_diffHash(_:seed:)``: odd, random per process (from `Hasher`'s own seed).
@usableFromInline
internal let _hashSeed: UInt64 = {
    var hasher = Hasher()
    hasher.combine(0x5EED as UInt64)
    return UInt64(UInt(bitPattern: hasher.finalize())) | 1
}()

/// The slots of an identifier table (``_IdentifierTable``), and how many identifiers they hold.
///
/// An identifier's first bucket is the top bits of its hash, which the slot's tag keeps, so the
/// table can double without hashing any identifier again: each slot moves to the bucket its tag
/// gives. It starts sized for the source's identifiers and doubles when identifiers only the
/// target has fill it beyond two-thirds.
@usableFromInline
internal struct _SlotTable {
    @usableFromInline var slots: UnsafeMutableBufferPointer<UInt64>
    /// 64 minus the base-2 logarithm of the capacity.
    @usableFromInline var shift: Int
    /// The identifiers the table holds, and how many it may hold before it doubles.
    @usableFromInline var count = 0
    @usableFromInline var limit: Int

    /// An empty table for `keys` identifiers.
    @inlinable
    init(forKeys keys: Int) {
        let capacity = _tableCapacity(forKeys: keys)
        slots = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: capacity)
        slots.initialize(repeating: 0)
        shift = 64 &- capacity.trailingZeroBitCount
        limit = capacity &- capacity / 3
    }

    /// The first bucket of a hash: its top bits.
    @inlinable @inline(__always)
    func bucket(_ hash: Int) -> Int {
        Int(truncatingIfNeeded: UInt64(UInt(bitPattern: hash)) &>> UInt64(truncatingIfNeeded: shift))
    }

    /// The bucket probed after `bucket`.
    @inlinable @inline(__always)
    func after(_ bucket: Int) -> Int { (bucket &+ 1) & (slots.count &- 1) }

    /// Doubles the capacity. Each slot moves to the bucket of its tag, which holds the hash's top
    /// 31 bits: enough for every capacity the diff's limits allow.
    @inlinable
    mutating func grow() {
        let old = slots
        let capacity = old.count &<< 1
        let mask = capacity &- 1
        let newShift = shift &- 1
        let grown = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: capacity)
        grown.initialize(repeating: 0)
        for slot in old where slot != 0 {
            var bucket = Int(
                truncatingIfNeeded: ((slot & _SlotBits.tagMask) &<< 1) &>> UInt64(truncatingIfNeeded: newShift))
            while grown[bucket] != 0 { bucket = (bucket &+ 1) & mask }
            grown[bucket] = slot
        }
        old.deallocate()
        slots = grown
        shift = newShift
        limit = capacity &- capacity / 3
    }

    @inlinable
    func deallocate() { slots.deallocate() }
}

/// The number of slots for `keys` identifiers: a power of two, at most two-thirds full.
@inlinable
internal func _tableCapacity(forKeys keys: Int) -> Int {
    var capacity = 16
    while capacity - capacity / 3 < keys { capacity &<<= 1 }
    return capacity
}

/// How many identifiers the diff hashes before it inserts or probes them (see
/// ``_touch(_:_:count:)``).
@inlinable
internal var _tableBlock: Int { 16 }

/// The smallest table (in slots) whose slots the diff touches by blocks: 1 MiB of slots.
@inlinable
internal var _touchingCapacity: Int { 1 << 17 }

/// Loads the slots a block of identifiers is about to probe, one after another with nothing in
/// between, so that the processor fetches their cache lines at once; inserting one identifier
/// after another would wait for one miss at a time.
///
/// - Parameters:
///   - slots: The table.
///   - hashes: The block's hashes.
///   - count: How many hashes the block has.
@inlinable @inline(__always)
internal func _touch(_ table: _SlotTable, _ hashes: UnsafeMutableBufferPointer<Int>, count: Int) {
    var touched: UInt64 = .max
    var index = 0
    while index < count {
        touched &= table.slots[table.bucket(hashes[index])]
        index &+= 1
    }
    // No slot has every bit set (a ref is below 2^31 - 1), so neither has the `&` of one or more
    // slots; the optimizer cannot know it, so it keeps the loads.
    if _slowPath(count > 0 && touched == .max) { _touchedImpossibleSlot() }
}

/// Never called; see ``_touch(_:_:count:)``.
@usableFromInline @inline(never)
internal func _touchedImpossibleSlot() {
    preconditionFailure("RippleDiff: a table slot had every bit set")
}

// MARK: - The table

/// The identifier table of a diff: the identifiers of a source list, each hashed once, chained by
/// identifier in source order, and the matching of a target list's elements against them.
///
/// Both diffs use it, in the same steps:
/// 1. ``init(source:target:identity:)`` allocates the table for the source's identifiers;
/// 2. ``indexSource(touchingCapacity:)`` hashes every source identifier and chains repeats
///    (``indexSource(hashes:)`` takes hashes the caller computed);
/// 3. ``matchTargets(pairing:touchingCapacity:)`` hashes every target identifier and pairs it with
///    a source element, in order or by place (`DuplicatePairing.swift`); a caller that walks the
///    target itself calls ``startMatching(pairing:)`` and then ``matchTarget(_:id:hash:)`` for each
///    element, in target order;
/// 4. ``pairLeftovers(scratch:)``, after the pairing by place, pairs what it left unmatched;
/// 5. the diff reads ``sourceToTarget``, ``targetToSource`` and the repeats, and then
///    ``deallocate()`` frees the table. Its slots can serve as scratch space before that
///    (``scratchSpace(bytes:)``).
///
/// The flat diff runs it on its elements between the common prefix and suffix. The sectioned
/// diff runs it on the identifiers of its items (under ``_StoredIdentifiers``), numbered across
/// sections, with the in-order pairing: it copies the source's identifiers into one list, and
/// probes the target's straight from the items, keeping a copy only of those the source lacks
/// (the only target identifiers the table compares with).
@usableFromInline
internal struct _IdentifierTable<Identity: _IdentityRule> {
    /// The source elements, numbered from 0.
    @usableFromInline let source: UnsafeBufferPointer<Identity.Element>
    /// The target elements, numbered from 0.
    @usableFromInline let target: UnsafeBufferPointer<Identity.Element>
    @usableFromInline let identity: Identity
    /// ``_hashSeed``, read once.
    @usableFromInline let seed: UInt64
    /// The slots (see ``_SlotBits``).
    @usableFromInline var table: _SlotTable
    /// Each identifier's source offsets in ascending order (-1 ends a chain).
    @usableFromInline let nextSame: UnsafeMutableBufferPointer<Int32>
    /// For each source element, the last source offset with its identifier; allocated at the first
    /// repeat, when the source's identifiers stop being unique.
    @usableFromInline var lastSame = UnsafeMutableBufferPointer<Int32>(start: nil, count: 0)
    /// For each source offset, its target partner or -1; one more element than the source, where
    /// the pairing of leftovers writes what does not count.
    @usableFromInline let sourceToTarget: UnsafeMutableBufferPointer<Int32>
    /// For each target offset, the matched source offset, or -1 for an identifier the source lacks,
    /// or -2 - s when no source element with the identifier is left for it and `s` is one of them.
    @usableFromInline let targetToSource: UnsafeMutableBufferPointer<Int32>
    /// The offsets whose identifier occurred earlier on the same side, as bits; allocated at the
    /// first repeat.
    @usableFromInline var sourceRepeats = _OffsetBits()
    @usableFromInline var targetRepeats = _OffsetBits()
    /// The number of matched pairs.
    @usableFromInline var matched = 0
    /// Whether the matched source offsets increase in target order.
    @usableFromInline var inOrder = true
    @usableFromInline var lastMatched: Int32 = -1
    /// Whether repeats are paired by place (`DuplicatePairing.swift`): the pairing asked for it and
    /// the source repeats identifiers.
    @usableFromInline var byPlace = false
    /// By place, the target elements left unmatched although the source has their identifier, in
    /// target order: the first `unmatchedCount`.
    @usableFromInline var unmatched = UnsafeMutableBufferPointer<Int32>(start: nil, count: 0)
    @usableFromInline var unmatchedCount = 0
    /// By place, the offset between partners expected next.
    @usableFromInline var drift = _Drift()

    /// An empty table for `source`'s identifiers, to be matched with `target`'s. Sized for the
    /// source; it doubles if identifiers only the target has fill it.
    @inlinable
    init(
        source: UnsafeBufferPointer<Identity.Element>,
        target: UnsafeBufferPointer<Identity.Element>,
        identity: Identity
    ) {
        let oldCount = source.count
        self.source = source
        self.target = target
        self.identity = identity
        seed = _hashSeed
        table = _SlotTable(forKeys: Swift.max(oldCount, 1))
        nextSame = .allocate(capacity: Swift.max(oldCount, 1))
        sourceToTarget = .allocate(capacity: oldCount &+ 1)
        sourceToTarget.initialize(repeating: -1)
        targetToSource = .allocate(capacity: Swift.max(target.count, 1))
    }

    /// Frees the table's memory.
    @inlinable
    func deallocate() {
        table.deallocate()
        nextSame.deallocate()
        lastSame.deallocate()
        sourceToTarget.deallocate()
        targetToSource.deallocate()
        sourceRepeats.deallocate()
        targetRepeats.deallocate()
        unmatched.deallocate()
    }

    // MARK: Step 2: the source

    /// Hashes the source identifiers, last to first, and inserts them, so that each chain lists its
    /// offsets in ascending order.
    ///
    /// While they are unique, each is new: a branch the processor predicts
    /// (``insertUnique(_:hash:)``). From the first repeat on, whether one is new or repeats is as
    /// unpredictable as the list, so it is not branched on (``insertRepeating(_:hash:)``).
    ///
    /// A table of `touchingCapacity` slots or more is filled by blocks (``hashBlock(_:_:into:)``).
    @inlinable
    mutating func indexSource(touchingCapacity: Int) {
        var old = source.count
        if table.slots.count < touchingCapacity {
            // The table fits in the processor's caches: one identifier after another.
            let source = self.source
            let identity = self.identity
            let seed = self.seed
            insertSource { old in identity.hash(of: source[old], seed: seed) }
            return
        }
        let hashes = UnsafeMutableBufferPointer<Int>.allocate(capacity: _tableBlock)
        defer { hashes.deallocate() }
        var low = old
        unique: while old > 0 {
            low = Swift.max(old &- _tableBlock, 0)
            hashBlock(source, low..<old, into: hashes)
            while old > low {
                if !insertUnique(old &- 1, hash: hashes[old &- 1 &- low]) {
                    startRepeats(at: old &- 1)
                    break unique
                }
                old &-= 1
            }
        }
        while old > 0 {
            if old == low {
                low = Swift.max(old &- _tableBlock, 0)
                hashBlock(source, low..<old, into: hashes)
            }
            old &-= 1
            insertRepeating(old, hash: hashes[old &- low])
        }
    }

    /// Indexes the source with the hashes a caller computed: `hashes[old]` for source offset `old`,
    /// as ``_diffHash(_:seed:)`` with ``seed`` gives it. The sectioned diff hashes its identifiers
    /// while it copies them, where hashing them again here would copy each once more.
    @inlinable
    mutating func indexSource(hashes: UnsafeBufferPointer<Int>) {
        insertSource { old in hashes[old] }
    }

    /// Inserts the source offsets, last to first, each with `hash(old)`: while the identifiers are
    /// unique with ``insertUnique(_:hash:)``, from the first repeat on with
    /// ``insertRepeating(_:hash:)``.
    @inlinable @inline(__always)
    mutating func insertSource(hash: (Int) -> Int) {
        var old = source.count
        while old > 0 {
            old &-= 1
            let hashValue = hash(old)
            if !insertUnique(old, hash: hashValue) {
                startRepeats(at: old)
                insertRepeating(old, hash: hashValue)
                break
            }
        }
        while old > 0 {
            old &-= 1
            insertRepeating(old, hash: hash(old))
        }
    }

    /// Hashes `elements[range]` (at most ``_tableBlock`` of them) into `hashes`, then loads the
    /// slots they will probe first, with nothing in between, so that the processor fetches their
    /// cache lines together instead of one miss at a time (``_touch(_:_:count:)``).
    @inlinable @inline(__always)
    func hashBlock(
        _ elements: UnsafeBufferPointer<Identity.Element>, _ range: Range<Int>,
        into hashes: UnsafeMutableBufferPointer<Int>
    ) {
        let low = range.lowerBound
        for index in range { hashes[index &- low] = identity.hash(of: elements[index], seed: seed) }
        _touch(table, hashes, count: range.count)
    }

    /// Inserts source offset `old` and returns true if its identifier is new; returns false,
    /// inserting nothing, if it is already there.
    @inlinable @inline(__always)
    mutating func insertUnique(_ old: Int, hash: Int) -> Bool {
        let tag = _SlotBits.tag(hash)
        var bucket = table.bucket(hash)
        while true {
            let slot = table.slots[bucket]
            if slot == 0 {
                table.slots[bucket] = tag | UInt64(truncatingIfNeeded: old &+ 1)
                table.count &+= 1
                nextSame[old] = -1
                return true
            }
            if slot & _SlotBits.tagMask == tag
                && identity.sameIdentity(source[Int(truncatingIfNeeded: slot & _SlotBits.offsetMask) &- 1], source[old])
            {
                return false
            }
            bucket = table.after(bucket)
        }
    }

    /// Called at the first repeat, `old`: every identifier after it is the last of its chain.
    @inlinable
    mutating func startRepeats(at old: Int) {
        let oldCount = source.count
        sourceRepeats.allocate(capacity: oldCount)
        lastSame = .allocate(capacity: oldCount)
        for later in (old &+ 1)..<oldCount { lastSame[later] = Int32(truncatingIfNeeded: later) }
    }

    /// Inserts source offset `old`, new or repeated, after the first repeat, without branching on
    /// which: both write the same slot, chain link, last offset of the chain and repeat bit, with
    /// values chosen by masks.
    @inlinable @inline(__always)
    mutating func insertRepeating(_ old: Int, hash: Int) {
        let tag = _SlotBits.tag(hash)
        var bucket = table.bucket(hash)
        // An empty slot ends the probe as if it held `old` itself: same tag, same identifier. The
        // choice is arithmetic (`empty` is all ones or zero), not a select, which the compiler
        // would turn back into a branch on the slot.
        var found = 0  // The slot's offset, or -1 when it is empty.
        var empty = 0
        var ref = 0  // The slot's offset, or `old` when it is empty.
        while true {
            let slot = table.slots[bucket]
            found = Int(truncatingIfNeeded: slot & _SlotBits.offsetMask) &- 1
            empty = found &>> 63
            ref = found &+ (empty & (old &+ 1))
            let slotTag = (slot & _SlotBits.tagMask) | (UInt64(bitPattern: Int64(empty)) & tag)
            if slotTag == tag && identity.sameIdentity(source[ref], source[old]) { break }
            bucket = table.after(bucket)
        }
        // `ref` is the chain's head (or `old`); `old` comes before it and becomes the new head.
        table.slots[bucket] = tag | UInt64(truncatingIfNeeded: old &+ 1)
        table.count &-= empty
        nextSame[old] = Int32(truncatingIfNeeded: found)
        // The last offset of the chain is `old` itself when it is new (`ref` is `old`), else ref's.
        lastSame[old] = Int32(truncatingIfNeeded: old)
        lastSame[old] = lastSame[ref]
        sourceRepeats.insert(ref, if: UInt64(bitPattern: Int64(empty &+ 1)))
    }

    // MARK: Step 3: the target

    /// Hashes each target identifier, first to last, and matches it (``matchTarget(_:id:hash:)``).
    /// With `.keepingOrder` and repeated identifiers in the source, repeats pair by place.
    ///
    /// Call after ``indexSource(touchingCapacity:)``, with the same `touchingCapacity`.
    @inlinable
    mutating func matchTargets(pairing: _DuplicatePairing, touchingCapacity: Int) {
        let newCount = target.count
        startMatching(pairing: pairing)
        if table.slots.count < touchingCapacity {
            for new in 0..<newCount {
                let id = identity.identifier(of: target[new])
                matchTarget(new, id: id, hash: _diffHash(id, seed: seed))
            }
            return
        }
        let hashes = UnsafeMutableBufferPointer<Int>.allocate(capacity: _tableBlock)
        defer { hashes.deallocate() }
        var first = 0
        while first < newCount {
            let end = Swift.min(first &+ _tableBlock, newCount)
            hashBlock(target, first..<end, into: hashes)
            for new in first..<end {
                matchTarget(new, id: identity.identifier(of: target[new]), hash: hashes[new &- first])
            }
            first = end
        }
    }

    /// Chooses how repeats pair, before the first ``matchTarget(_:id:hash:)``: by place when
    /// `pairing` asks for it and the source repeats identifiers, otherwise in order.
    @inlinable
    mutating func startMatching(pairing: _DuplicatePairing) {
        if case .keepingOrder = pairing, !sourceRepeats.isEmpty {
            byPlace = true
            targetRepeats.allocate(capacity: target.count)
            unmatched = .allocate(capacity: target.count)
        }
    }

    /// Probes target offset `new`'s identifier, `id`, whose hash is `hash`: it takes the first
    /// unmatched source element of its chain (by place: the one near its expected place, or none
    /// for now), or becomes an insert. An identifier the source lacks is added to the table, so
    /// that its repeats in the target are reported; the table doubles when that fills it.
    @inlinable @inline(__always)
    mutating func matchTarget(_ new: Int, id: Identity.Identifier, hash: Int) {
        let oldCount = source.count
        let tag = _SlotBits.tag(hash)
        var bucket = table.bucket(hash)
        while true {
            let slot = table.slots[bucket]
            if slot == 0 {
                if table.count == table.limit {
                    // Full: double, then look for a free slot from the identifier's new bucket.
                    table.grow()
                    bucket = table.bucket(hash)
                    while table.slots[bucket] != 0 { bucket = table.after(bucket) }
                }
                table.slots[bucket] = tag | _SlotBits.seenInTarget | UInt64(truncatingIfNeeded: oldCount &+ new &+ 1)
                table.count &+= 1
                targetToSource[new] = -1
                return
            }
            if slot & _SlotBits.tagMask == tag {
                let ref = Int(truncatingIfNeeded: slot & _SlotBits.offsetMask) &- 1
                let same =
                    ref < oldCount
                    ? identity.element(source[ref], has: id) : identity.element(target[ref &- oldCount], has: id)
                if same {
                    if byPlace {
                        targetRepeats.insert(new, if: slot &>> 63)
                    } else if slot & _SlotBits.seenInTarget != 0 {
                        targetRepeats.insert(new, capacity: target.count)
                    }
                    if ref >= oldCount {
                        // An identifier only the target has.
                        targetToSource[new] = -1
                        table.slots[bucket] = slot | _SlotBits.seenInTarget
                    } else if slot & _SlotBits.usedUp != 0 {
                        // Every source element with this identifier is taken; `ref` is one of them.
                        targetToSource[new] = -2 &- Int32(truncatingIfNeeded: ref)
                        if byPlace {
                            unmatched[unmatchedCount] = Int32(truncatingIfNeeded: new)
                            unmatchedCount &+= 1
                        }
                    } else {
                        // `ref` is the first unmatched source element with this identifier.
                        var taken = ref
                        var next = Int(nextSame[ref])
                        if byPlace {
                            // Take the first within the window around the expected offset, passing
                            // over (at most 8) before it; if it is not there, wait. (A branch, not
                            // arithmetic: the processor predicts "take" and goes on to the next
                            // elements before this one's loads arrive; computed, the next expected
                            // offset would wait for them.)
                            let expected = new &+ drift.offset
                            var scanned = 0
                            while next >= 0 && taken < expected &- _nearWindow && scanned < _nearScan {
                                taken = next
                                next = Int(nextSame[next])
                                scanned &+= 1
                            }
                            if _distance(taken, expected) > _nearWindow {
                                drift.wait(taken &- new)
                                targetToSource[new] = -2 &- Int32(truncatingIfNeeded: ref)
                                table.slots[bucket] = slot | _SlotBits.seenInTarget
                                unmatched[unmatchedCount] = Int32(truncatingIfNeeded: new)
                                unmatchedCount &+= 1
                                return
                            }
                            drift.take(taken &- new)
                        }
                        let head = Int32(truncatingIfNeeded: taken)
                        targetToSource[new] = head
                        sourceToTarget[taken] = Int32(truncatingIfNeeded: new)
                        matched &+= 1
                        if head < lastMatched { inOrder = false }
                        lastMatched = head
                        // The slot now refers to the next unmatched source element or, once the
                        // chain is used up, stays on this one, marked as used up.
                        table.slots[bucket] =
                            next >= 0
                            ? (slot & ~_SlotBits.offsetMask) | _SlotBits.seenInTarget
                                | UInt64(truncatingIfNeeded: next &+ 1)
                            : (slot & ~_SlotBits.offsetMask) | _SlotBits.seenInTarget | _SlotBits.usedUp
                                | UInt64(truncatingIfNeeded: taken &+ 1)
                    }
                    return
                }
            }
            bucket = table.after(bucket)
        }
    }

    // MARK: Step 4: repeats left over

    /// After the pairing by place, pairs the occurrences it left unmatched: an identifier with
    /// exactly one unmatched occurrence on each side pairs them (``_pairLeftovers``). Nothing to do
    /// after the in-order pairing.
    ///
    /// - Parameter scratch: At least 5 × (source count + 1) bytes aligned for `Int32`.
    @inlinable
    mutating func pairLeftovers(scratch: UnsafeMutableRawPointer) {
        if unmatchedCount == 0 { return }
        let paired = _pairLeftovers(
            sourceCount: source.count, lastSame: lastSame, sourceToTarget: sourceToTarget,
            targetToSource: targetToSource,
            unmatched: UnsafeBufferPointer(rebasing: unmatched[0..<unmatchedCount]), scratch: scratch)
        if paired > 0 {
            matched &+= paired
            inOrder = false
        }
    }

    /// Working memory of `bytes` bytes, aligned for `UInt64`: the table's slots, once matching is
    /// done and they are no longer needed, or, when they are too few, new memory. A table is at
    /// most about two-thirds full, so it has 12 bytes per source element unless it is at its
    /// fullest (22 elements in 32 slots: 256 bytes for 264).
    @inlinable
    func scratchSpace(bytes: Int) -> _Scratch {
        let tableBytes = table.slots.count &* MemoryLayout<UInt64>.stride
        if tableBytes < bytes {
            return _Scratch(
                base: UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: MemoryLayout<UInt64>.alignment),
                owned: true)
        }
        return _Scratch(base: UnsafeMutableRawPointer(table.slots.baseAddress.unsafelyUnwrapped), owned: false)
    }
}

/// The rule of a list of identifiers, as the sectioned diff gives its identifier table: each
/// element is its own identifier. `_HashableIdentity` reads the same, but through
/// `identifier(of:)`, which returns a copy: for a `String` a retain and a release per hash and per
/// comparison. This rule hashes and compares the identifiers where they lie.
@usableFromInline
internal struct _StoredIdentifiers<ID: Hashable>: _IdentityRule {
    @usableFromInline typealias Element = ID

    @inlinable init() {}

    @inlinable @inline(__always)
    func identifier(of element: ID) -> ID { element }

    @inlinable @inline(__always)
    func hash(of element: ID, seed: UInt64) -> Int { _diffHash(element, seed: seed) }

    @inlinable @inline(__always)
    func element(_ element: ID, has identifier: ID) -> Bool { element == identifier }

    @inlinable @inline(__always)
    func sameIdentity(_ lhs: ID, _ rhs: ID) -> Bool { lhs == rhs }

    /// Always `true`: equal identifiers are all there is.
    @inlinable @inline(__always)
    func sameContent(_ lhs: ID, _ rhs: ID) -> Bool { true }
}

/// Working memory from ``_IdentifierTable/scratchSpace(bytes:)``.
@usableFromInline
internal struct _Scratch {
    @usableFromInline let base: UnsafeMutableRawPointer
    /// Whether the memory was allocated for it, rather than borrowed from the table.
    @usableFromInline let owned: Bool

    @inlinable
    init(base: UnsafeMutableRawPointer, owned: Bool) {
        self.base = base
        self.owned = owned
    }

    /// Frees the memory if it was allocated for it.
    @inlinable
    func deallocate() { if owned { base.deallocate() } }
}

/// A set of offsets as bits, allocated at the first insertion; the identifier table's record of
/// repeated identifiers.
@usableFromInline
internal struct _OffsetBits {
    @usableFromInline var words: UnsafeMutableBufferPointer<UInt64>? = nil
    @usableFromInline var count = 0

    @inlinable init() {}

    @inlinable
    var isEmpty: Bool { count == 0 }

    /// Adds `offset`, which must be new and below `capacity`.
    @inlinable @inline(__always)
    mutating func insert(_ offset: Int, capacity: Int) {
        if words == nil { allocate(capacity: capacity) }
        words.unsafelyUnwrapped[offset >> 6] |= 1 &<< UInt64(truncatingIfNeeded: offset & 63)
        count &+= 1
    }

    /// Allocates room for offsets below `capacity`, so that ``insert(_:if:)`` can be used.
    @inlinable
    mutating func allocate(capacity: Int) {
        let buffer = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: (capacity &+ 63) >> 6)
        buffer.initialize(repeating: 0)
        words = buffer
    }

    /// Adds `offset`, which must be new and within the allocated room, when `bit` is 1 (and
    /// nothing when it is 0), without a branch.
    @inlinable @inline(__always)
    mutating func insert(_ offset: Int, if bit: UInt64) {
        words.unsafelyUnwrapped[offset >> 6] |= bit &<< UInt64(truncatingIfNeeded: offset & 63)
        count &+= Int(truncatingIfNeeded: bit)
    }

    /// The offsets, ascending, each plus `shift`.
    @inlinable
    func offsets(shiftedBy shift: Int) -> [Int] {
        guard let words else { return [] }
        return _exactArray(count: count) { offsets in
            var written = 0
            for index in 0..<words.count {
                var word = words[index]
                while word != 0 {
                    offsets[written] = shift &+ (index &<< 6) &+ word.trailingZeroBitCount
                    written &+= 1
                    word &= word &- 1
                }
            }
            return written
        }
    }

    @inlinable
    func deallocate() { words?.deallocate() }
}
