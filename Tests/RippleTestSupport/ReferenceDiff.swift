// A brute-force model of the flat diff's pairing rule and of the minimal number of moves.
//
// The rule (documented in `docs/diff.md` and on `Changeset.init(from:to:identity:)`):
// 1. The common prefix and suffix, equal identifiers at equal distance from either end, are paired
//    in place.
// 2. In between, when no identifier repeats among the source elements, each target element, first
//    to last, takes the first source element with the same identifier that is not taken yet; if
//    there is none it is inserted. Unpaired source elements are deleted.
// 3. When some identifier repeats among the source elements, pairing is by place instead:
//    - a drift d, starting at 0, says where a target element at offset t is expected in the
//      source: at t + d;
//    - each identifier's source occurrences are taken in ascending order from a cursor;
//    - a target element whose identifier has occurrences left passes over those more than 4 before
//      the expected offset (at most 8 of them), then looks at the next one: if it is at most 4 away
//      from the expected offset, it takes it, everything passed over stays unpaired for good, and d
//      becomes that pair's offset (source - target); otherwise it waits, unpaired, the cursor stays,
//      and the lists may have shifted: when the offset of that occurrence agrees (within 4) with
//      the previous waiting element's, or with the one before it, since the last pair, d becomes it;
//    - afterwards, an identifier with exactly one unpaired occurrence on each side pairs them.
// 4. Moves are minimal for that pairing: the paired elements whose source offsets, read in target
//    order, form a longest increasing subsequence stay; the others move.
// 5. Duplicates are reported only in between: elements of the trimmed prefix and suffix are never
//    reported, even when their identifier repeats elsewhere.
//
// Everything here is quadratic on purpose: it is short enough to check by reading, and written
// apart from the production code (which works on hash chains and bit fields).

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

    var pairs: [Changeset.OffsetPair] = []
    pairs.reserveCapacity(shorter)
    for offset in 0..<prefix { pairs.append(Changeset.OffsetPair(source: offset, target: offset)) }
    let middle = referenceMiddlePairs(
        source: Array(source[middleSource]), target: Array(target[middleTarget]))
    for (old, new) in middle {
        pairs.append(Changeset.OffsetPair(source: prefix + old, target: prefix + new))
    }
    var taken = [Bool](repeating: false, count: source.count)
    var targetTaken = [Bool](repeating: false, count: target.count)
    for pair in pairs {
        taken[pair.source] = true
        targetTaken[pair.target] = true
    }
    var inserts: [Int] = []
    for new in middleTarget where !targetTaken[new] { inserts.append(new) }
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

/// The pairs between the common prefix and suffix, by the rule at the top of this file (steps 2
/// and 3), as (source offset, target offset) within the middle, ascending by target offset.
///
/// - Parameters:
///   - source: The source identifiers between the common prefix and suffix.
///   - target: The target identifiers between the common prefix and suffix.
/// - Returns: The pairs.
/// - Complexity: O((*n* + *m*)²) for *n* source and *m* target identifiers.
public func referenceMiddlePairs<ID: Equatable>(source: [ID], target: [ID]) -> [(Int, Int)] {
    // The source offsets of the identifier of target element `new`, ascending.
    func occurrences(of id: ID) -> [Int] { source.indices.filter { source[$0] == id } }
    var partner = [Int?](repeating: nil, count: target.count)
    var sourcePaired = [Bool](repeating: false, count: source.count)
    let repeats = source.indices.contains { old in source[..<old].contains(source[old]) }
    if !repeats {
        for new in target.indices {
            if let old = source.indices.first(where: { !sourcePaired[$0] && source[$0] == target[new] }) {
                partner[new] = old
                sourcePaired[old] = true
            }
        }
    } else {
        let window = 4
        let lookAhead = 8
        var cursor: [Int] = []  // per target element's identifier, found by its first occurrence
        var cursorOf: [Int: Int] = [:]  // first source occurrence -> cursor slot
        var drift = 0
        var waitedOffsets: [Int] = []  // offsets of the elements that waited since the last pair
        for new in target.indices {
            let list = occurrences(of: target[new])
            guard let first = list.first else { continue }
            let slot =
                cursorOf[first]
                ?? {
                    cursor.append(0)
                    cursorOf[first] = cursor.count - 1
                    return cursor.count - 1
                }()
            var index = cursor[slot]
            if index == list.count { continue }  // every occurrence taken
            let expected = new + drift
            var passed = 0
            while index + 1 < list.count && list[index] < expected - window && passed < lookAhead {
                index += 1
                passed += 1
            }
            let candidate = list[index]
            if abs(candidate - expected) <= window {
                partner[new] = candidate
                sourcePaired[candidate] = true
                cursor[slot] = index + 1
                drift = candidate - new
                waitedOffsets = []
            } else {
                let offset = candidate - new
                let agrees = waitedOffsets.suffix(2).contains { abs($0 - offset) <= window }
                if agrees {
                    drift = offset
                    waitedOffsets = []
                } else {
                    waitedOffsets.append(offset)
                }
            }
        }
        // An identifier with exactly one unpaired occurrence on each side pairs them.
        for new in target.indices where partner[new] == nil {
            let id = target[new]
            let sources = source.indices.filter { source[$0] == id && !sourcePaired[$0] }
            let targets = target.indices.filter { target[$0] == id && partner[$0] == nil }
            if sources.count == 1 && targets.count == 1 && !source.allSatisfy({ $0 != id }) {
                partner[new] = sources[0]
                sourcePaired[sources[0]] = true
            }
        }
    }
    var pairs: [(Int, Int)] = []
    for new in target.indices {
        if let old = partner[new] { pairs.append((old, new)) }
    }
    return pairs
}
