/// A small, fast, seedable random number generator (SplitMix64), so every randomized test is
/// repeatable from its seed.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The current state; equal to the seed before the first draw.
    public private(set) var state: UInt64

    /// Creates a generator from a seed.
    ///
    /// - Parameter seed: Any value; equal seeds give equal sequences.
    public init(seed: UInt64) {
        state = seed
    }

    /// Returns the next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
