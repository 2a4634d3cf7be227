// A flat open-addressing hash table from identifiers to chains of source offsets.
//
// Each identifier is hashed exactly once; the hash's high bits are kept inline in the slot as a
// tag, so a probe compares identifiers only when the tags agree. Slots hold 32-bit offsets, which
// keeps the table at 8 bytes per slot plus a 4-byte chain link per source element.

/// Slot layout (one `UInt64` per slot, `0` means empty):
/// - bits 0..<32: `ref + 1`. While the identifier has unmatched source elements, `ref` is the first
///   of them (the head of its chain of duplicates). Once they are used up, or for an identifier only
///   the target has, `ref - sourceCount` is a target offset with the same identifier;
/// - bits 32..<63: the tag, the hash's high 31 bits;
/// - bit 63: set once the identifier has been seen in the target.
@usableFromInline
internal enum _SlotBits {
    @usableFromInline static let refMask: UInt64 = 0xFFFF_FFFF
    @usableFromInline static let tagMask: UInt64 = 0x7FFF_FFFF_0000_0000
    @usableFromInline static let seenInTarget: UInt64 = 0x8000_0000_0000_0000

    /// The tag bits of a hash value, positioned as in a slot.
    @inlinable @inline(__always)
    static func tag(_ hash: Int) -> UInt64 {
        (UInt64(UInt(bitPattern: hash)) >> 1) & tagMask
    }
}

/// The number of slots for `keys` identifiers: a power of two, at most two-thirds full.
@inlinable
internal func _tableCapacity(forKeys keys: Int) -> Int {
    var capacity = 16
    while capacity - capacity / 3 < keys { capacity &<<= 1 }
    return capacity
}

/// How many identifiers the diff hashes before it inserts or probes them (see
/// ``_touch(_:_:count:mask:)``).
@usableFromInline
internal var _tableBlock: Int { 16 }

/// The smallest table (in slots) whose slots the diff touches by blocks: 1 MiB of slots.
@usableFromInline
internal var _touchingCapacity: Int { 1 << 17 }

/// Loads the slots a block of identifiers is about to probe, one after another with nothing in
/// between, so that the processor fetches their cache lines at once; inserting one identifier
/// after another would wait for one miss at a time. Compiled without optimization, so that
/// nothing proves the loads useless.
///
/// - Parameters:
///   - slots: The table.
///   - hashes: The block's hashes.
///   - count: How many hashes the block has.
///   - mask: The table's capacity minus one.
@usableFromInline @inline(never) @_optimize(none)
internal func _touch(
    _ slots: UnsafeMutableBufferPointer<UInt64>, _ hashes: UnsafeMutableBufferPointer<Int>, count: Int, mask: Int
) {
    let base = slots.baseAddress.unsafelyUnwrapped
    let hashBase = hashes.baseAddress.unsafelyUnwrapped
    var touched: UInt64 = 0
    var index = 0
    while index < count {
        touched |= base[hashBase[index] & mask]
        index += 1
    }
    _ = touched
}
