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
