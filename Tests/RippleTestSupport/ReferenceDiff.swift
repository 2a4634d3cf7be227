// A brute-force model of the flat diff's pairing rule and of the minimal number of moves.
//
// The rule (documented on `Changeset.init(from:to:identifiedBy:contentEquals:)`):
// 1. The common prefix and suffix, equal identifiers at equal distance from either end, are paired
//    in place.
// 2. In between, each target element, first to last, takes the first source element with the
//    same identifier that is not taken yet; if there is none it is inserted. Unpaired source
//    elements are deleted.
// 3. Moves are minimal for that pairing: the paired elements whose source offsets, read in target
//    order, form a longest increasing subsequence stay; the others move.
// 4. Duplicates are reported only in between: elements of the trimmed prefix and suffix are never
//    reported, even when their identifier repeats elsewhere.
//
// Everything here is quadratic on purpose: it is short enough to check by reading.

import RippleDiff

/// What the pairing rule gives for two lists of identifiers.
public struct ReferencePairing: Hashable, Sendable {
    /// The paired elements, ascending by target offset.
    public var pairs: [Changeset.OffsetPair]

    /// Source offsets of unpaired elements, ascending.
    public var deletes: [Int]

    /// Target offsets of unpaired elements, ascending.
    public var inserts: [Int]

    /// The fewest moves that turn the source into the target with this pairing:
    /// `pairs.count` minus the longest increasing run of source offsets in target order.
    public var minimalMoveCount: Int

    /// The repeated identifiers between the common prefix and suffix, on each side.
    public var duplicates: Changeset.Duplicates

    /// The length of the common prefix.
    public var prefixCount: Int

    /// The length of the common suffix (never overlapping the prefix).
    public var suffixCount: Int
}

/// Pairs `source` with `target` by the flat diff's rule, by brute force.
///
/// - Parameters:
///   - source: The identifiers before the change.
///   - target: The identifiers after the change.
/// - Returns: The pairing, the deletes and inserts it implies, the minimal move count and the
///   duplicates to report.
/// - Complexity: O(*n* · *m* + *k*²) for *n* source and *m* target identifiers and *k* pairs.
public func referencePairing<ID: Equatable>(source: [ID], target: [ID]) -> ReferencePairing {
    let shorter = Swift.min(source.count, target.count)
    var prefix = 0
    while prefix < shorter && source[prefix] == target[prefix] { prefix += 1 }
    var suffix = 0
    while suffix < shorter - prefix
        && source[source.count - 1 - suffix] == target[target.count - 1 - suffix]
    {
        suffix += 1
    }
    let middleSource = prefix..<(source.count - suffix)
    let middleTarget = prefix..<(target.count - suffix)

    var taken = [Bool](repeating: false, count: source.count)
    var pairs: [Changeset.OffsetPair] = []
    pairs.reserveCapacity(shorter)
    for offset in 0..<prefix { pairs.append(Changeset.OffsetPair(source: offset, target: offset)) }
    var inserts: [Int] = []
    for new in middleTarget {
        var old = middleSource.lowerBound
        while old < middleSource.upperBound && (taken[old] || source[old] != target[new]) { old += 1 }
        if old < middleSource.upperBound {
            taken[old] = true
            pairs.append(Changeset.OffsetPair(source: old, target: new))
        } else {
            inserts.append(new)
        }
    }
    for distance in stride(from: suffix, to: 0, by: -1) {
        pairs.append(Changeset.OffsetPair(source: source.count - distance, target: target.count - distance))
    }
    var deletes: [Int] = []
    for old in middleSource where !taken[old] { deletes.append(old) }

    // Offsets in `range` whose identifier occurs earlier in `range`.
    func repeats(_ ids: [ID], in range: Range<Int>) -> [Int] {
        var offsets: [Int] = []
        for offset in range {
            var earlier = range.lowerBound
            while earlier < offset && ids[earlier] != ids[offset] { earlier += 1 }
            if earlier < offset { offsets.append(offset) }
        }
        return offsets
    }
    var sources: [Int] = []
    sources.reserveCapacity(pairs.count)
    for pair in pairs { sources.append(pair.source) }
    let keep = longestIncreasingSubsequenceLength(sources)
    return ReferencePairing(
        pairs: pairs,
        deletes: deletes,
        inserts: inserts,
        minimalMoveCount: pairs.count - keep,
        duplicates: Changeset.Duplicates(
            sourceOffsets: repeats(source, in: middleSource),
            targetOffsets: repeats(target, in: middleTarget)),
        prefixCount: prefix,
        suffixCount: suffix)
}

/// The length of a longest strictly increasing subsequence of `values`, by the textbook
/// quadratic dynamic programme.
///
/// - Parameter values: Any integers.
/// - Returns: The length; `0` for an empty sequence.
/// - Complexity: O(*k*²) for *k* values.
public func longestIncreasingSubsequenceLength(_ values: [Int]) -> Int {
    // ending[i]: the longest increasing subsequence that ends with values[i].
    var ending = [Int](repeating: 1, count: values.count)
    var longest = 0
    for i in 0..<values.count {
        for j in 0..<i where values[j] < values[i] && ending[j] >= ending[i] {
            ending[i] = ending[j] + 1
        }
        longest = Swift.max(longest, ending[i])
    }
    return longest
}
