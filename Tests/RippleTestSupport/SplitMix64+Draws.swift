// Draws built on `next()` alone, so a seed gives the same case whatever the standard library's
// `random(in:using:)` and `shuffle(using:)` do in a later toolchain.

extension SplitMix64 {
    /// Returns a value in `0 ..< upperBound`, by multiply-and-shift (the bias is below 2⁻³²
    /// for the small bounds tests use).
    ///
    /// - Parameter upperBound: The exclusive upper bound; must be positive.
    /// - Returns: A value in `0 ..< upperBound`.
    public mutating func int(below upperBound: Int) -> Int {
        precondition(upperBound > 0, "SplitMix64.int(below:): upper bound \(upperBound) must be positive")
        return Int(truncatingIfNeeded: next().multipliedFullWidth(by: UInt64(upperBound)).high)
    }

    /// Returns a value in `range`.
    ///
    /// - Parameter range: A non-empty closed range.
    /// - Returns: A value in `range`.
    public mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + int(below: range.upperBound - range.lowerBound + 1)
    }

    /// Returns `true` with probability `numerator / denominator`.
    ///
    /// - Parameters:
    ///   - numerator: The number of chances out of `denominator`.
    ///   - denominator: The total number of chances; must be positive.
    /// - Returns: Whether the draw hit.
    public mutating func chance(_ numerator: Int, in denominator: Int) -> Bool {
        int(below: denominator) < numerator
    }

    /// Shuffles `elements` in place (Fisher–Yates).
    ///
    /// - Parameter elements: The list to shuffle, indexed from 0 (an `Array`, a `ListSnapshot`).
    public mutating func shuffle<List: MutableCollection & RandomAccessCollection>(_ elements: inout List)
    where List.Index == Int {
        var index = elements.count
        while index > 1 {
            let other = int(below: index)
            index -= 1
            elements.swapAt(index, other)
        }
    }
}
