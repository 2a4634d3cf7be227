// A flat open-addressing hash table from identifiers to chains of source offsets.
//
// Each identifier is hashed exactly once; the hash's high bits are kept inline in the slot as a
// tag, so a probe compares identifiers only when the tags agree. Slots hold 32-bit offsets, which
// keeps the table at 8 bytes per slot plus a 4-byte chain link per source element.

/// Slot layout (one `UInt64` per slot, `0` means empty):
/// - bits 0..<31: `ref + 1`. While the identifier has unmatched source elements, `ref` is the first
///   of them (the head of its chain of duplicates). For an identifier only the target has,
///   `ref - sourceCount` is a target offset with the same identifier;
/// - bit 31: the flat diff's "used up": every source element with the identifier is matched, and
///   `ref` is one of them (the sectioned diff keeps a key number in bits 0..<32 instead);
/// - bits 32..<63: the tag, the hash's high 31 bits;
/// - bit 63: set once the identifier has been seen in the target.
@usableFromInline
internal enum _SlotBits {
    @usableFromInline static let refMask: UInt64 = 0xFFFF_FFFF
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
    if ID.self == Int.self { return _mixHash(UInt64(UInt(bitPattern: unsafeBitCast(id, to: Int.self))), seed) }
    if ID.self == ObjectIdentifier.self {
        let address = UInt64(UInt(bitPattern: unsafeBitCast(id, to: ObjectIdentifier.self)))
        return _mixHash(address &>> 4 | address &<< 60, seed)
    }
    if ID.self == UInt.self { return _mixHash(UInt64(unsafeBitCast(id, to: UInt.self)), seed) }
    if ID.self == Int64.self { return _mixHash(UInt64(bitPattern: unsafeBitCast(id, to: Int64.self)), seed) }
    if ID.self == UInt64.self { return _mixHash(unsafeBitCast(id, to: UInt64.self), seed) }
    if ID.self == Int32.self {
        return _mixHash(UInt64(UInt32(bitPattern: unsafeBitCast(id, to: Int32.self))), seed)
    }
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

/// The seed of ``_diffHash(_:seed:)``: odd, random per process (from `Hasher`'s own seed).
@usableFromInline
internal let _hashSeed: UInt64 = {
    var hasher = Hasher()
    hasher.combine(0x5EED as UInt64)
    return UInt64(UInt(bitPattern: hasher.finalize())) | 1
}()

/// The flat diff's table: slots, and how many identifiers they hold.
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
            var bucket = Int(truncatingIfNeeded: ((slot & _SlotBits.tagMask) &<< 1) &>> UInt64(truncatingIfNeeded: newShift))
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
