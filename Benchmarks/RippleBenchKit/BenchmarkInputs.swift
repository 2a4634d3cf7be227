/// A seeded generator for benchmark inputs (SplitMix64), so every run measures the same data.
struct BenchmarkRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// An element with an `Int` identifier and `Int` content.
struct IntElement: Identifiable, Equatable, Sendable {
    var id: Int
    var content: Int
}

/// An element with a 36-character UUID string identifier and `Int` content.
struct UUIDElement: Identifiable, Equatable, Sendable {
    var id: String
    var content: Int
}

/// The shape of a changed list, as in DifferenceKit's published benchmark: from `count` source
/// elements, delete `deleted` elements starting at 20%, insert `inserted` new elements at offset
/// 30%, then shuffle the first `shuffled` elements of the target with a seeded generator.
struct ChangeShape {
    var count: Int
    var deleted: Int
    var inserted: Int
    var shuffled: Int

    /// Builds source and target identifiers from a factory of fresh identifiers.
    func make<ID>(seed: UInt64, newID: (inout BenchmarkRandom, Int) -> ID) -> (source: [ID], target: [ID]) {
        var random = BenchmarkRandom(seed: seed)
        let source = (0..<count).map { newID(&random, $0) }
        var target = source
        let deleteStart = count / 5
        target.removeSubrange(deleteStart..<min(deleteStart + deleted, target.count))
        let insertAt = min(count * 3 / 10, target.count)
        target.insert(contentsOf: (0..<inserted).map { newID(&random, count + $0) }, at: insertAt)
        let prefix = min(shuffled, target.count)
        target[0..<prefix].shuffle(using: &random)
        return (source, target)
    }
}

/// A seeded UUID-formatted string: 32 hexadecimal digits in groups 8-4-4-4-12.
func uuidString(_ random: inout BenchmarkRandom) -> String {
    let digits = Array("0123456789ABCDEF".utf8)
    var bytes: [UInt8] = []
    bytes.reserveCapacity(36)
    var bits = random.next()
    var left = 16
    for position in 0..<36 {
        if position == 8 || position == 13 || position == 18 || position == 23 {
            bytes.append(UInt8(ascii: "-"))
            continue
        }
        if left == 0 {
            bits = random.next()
            left = 16
        }
        bytes.append(digits[Int(bits & 0xF)])
        bits >>= 4
        left -= 1
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// One row of a benchmark list before it is made into an element: an identifier number and a
/// content number. The element kinds turn the number into their identifier (`int`: the number;
/// `uuid`: a UUID string derived from it), so every kind measures the same change.
struct Row: Equatable {
    var id: Int
    var content: Int
}

/// A scattered edit: deletes, inserts, moves and content updates at random positions, so that no
/// long common prefix or suffix is left to trim.
///
/// From the source: delete `deleted` rows, chosen at random; among the survivors, update the content
/// of `updated` rows and take `moved` rows out; then place the moved rows and `inserted` new rows at
/// random positions among the rest. A moved row may land where it was; the diff then does not count
/// it as a move.
struct ScatteredEdit {
    var deleted: Int
    var inserted: Int
    var moved: Int
    var updated: Int

    /// The edit with the proportions for `count` rows: 10% deleted, 10% inserted, 1% moved
    /// and 5% updated.
    static func proportional(_ count: Int) -> ScatteredEdit {
        ScatteredEdit(deleted: count / 10, inserted: count / 10, moved: count / 100, updated: count / 20)
    }

    /// Applies the edit to `source`, with `newID` giving each inserted row its identifier number.
    ///
    /// - Complexity: O(*n*) for *n* rows.
    func apply(to source: [Row], using random: inout BenchmarkRandom, newID: (inout BenchmarkRandom) -> Int) -> [Row] {
        var order = Array(source.indices)
        // The first `deleted` of a partial shuffle are deleted, the next `moved` move, the next
        // `updated` are updated: three disjoint random samples.
        let picked = Swift.min(deleted + moved + updated, order.count)
        for index in 0..<picked {
            order.swapAt(index, Int.random(in: index..<order.count, using: &random))
        }
        var role = [UInt8](repeating: 0, count: source.count)  // 0 stays, 1 deleted, 2 moved, 3 updated
        for index in 0..<picked {
            role[order[index]] = index < deleted ? 1 : index < deleted + moved ? 2 : 3
        }
        var staying: [Row] = []
        staying.reserveCapacity(source.count)
        var placed: [Row] = []  // moved and inserted rows, placed at random
        for (offset, row) in source.enumerated() {
            switch role[offset] {
            case 1: continue
            case 2: placed.append(row)
            case 3: staying.append(Row(id: row.id, content: row.content + 1))
            default: staying.append(row)
            }
        }
        for _ in 0..<inserted { placed.append(Row(id: newID(&random), content: 0)) }
        placed.shuffle(using: &random)
        // Choose `placed.count` of the target's slots at random for them; the rest keep their order.
        let total = staying.count + placed.count
        var slots = Array(0..<total)
        for index in 0..<placed.count {
            slots.swapAt(index, Int.random(in: index..<total, using: &random))
        }
        var isPlaced = [Bool](repeating: false, count: total)
        for index in 0..<placed.count { isPlaced[slots[index]] = true }
        var target: [Row] = []
        target.reserveCapacity(total)
        var nextStaying = 0
        var nextPlaced = 0
        for slot in 0..<total {
            if isPlaced[slot] {
                target.append(placed[nextPlaced])
                nextPlaced += 1
            } else {
                target.append(staying[nextStaying])
                nextStaying += 1
            }
        }
        return target
    }
}

/// A seeded UUID-formatted string for identifier number `number`: the same number always gives
/// the same string, built afresh each time.
func uuidString(number: Int) -> String {
    var random = BenchmarkRandom(seed: 0x0_5EED_0000_0000 ^ UInt64(number))
    return uuidString(&random)
}
