import RippleDiff
import RippleTestSupport
import XCTest

/// Every pair of lists of up to six elements over a three-letter alphabet, duplicates included:
/// 1,093 lists, 1,194,649 ordered pairs, so both directions of every diff.
///
/// The element at offset *i* of a list has its letter as identifier and *i* % 2 as content, so an
/// element paired across offsets of different parity must be updated, and one paired across offsets
/// of equal parity must not be.
///
/// # How every pair is checked within the time budget
/// The full checks cost 100–150 µs per pair in a debug build, two to three minutes for all pairs:
/// too slow for a test that also runs under ThreadSanitizer. But a diff can only depend on which
/// identifiers are equal, never on the letters themselves. Renaming the letters maps each pair to
/// exactly one *canonical* pair, the one whose letters first appear in the order 0, 1, 2 when
/// reading the source and then the target: 199,133 pairs, a sixth of the total. So:
/// - every canonical pair gets every check: `diffFailure` (validity, the independent replay
///   oracle, `applied(to:element:)`, the brute-force pairing, minimal moves, exact updates,
///   duplicates), the closure overload agrees, `StagedChangeset(from:to:)` passes
///   `stagedFailure` (each stage replays in sequence to its data and to the target), and the
///   standard library's `difference(from:)` reproduces the target;
/// - every other pair is diffed as well and must give exactly its canonical pair's change-set.
///   Every check above is a function of the change-set, the pattern of equal identifiers and the
///   contents, which renaming keeps, so each pair passes exactly the checks its canonical pair
///   passed. (A diff whose result depended on the identifiers' hash values would fail here.)
///
/// The tests count the pairs they visit, so the coverage claim is checked as well. The canonical
/// pairs, which share nothing, are checked on every core (`forEachCaseConcurrently`).
final class FlatDiffExhaustiveTests: XCTestCase {
    static let maximumLength = 6
    static let alphabetSize = 3

    func test_exhaustive_sourcesOfLength0To3() {
        checkAllPairs(sourceLengths: 0...3)
    }

    func test_exhaustive_sourcesOfLength4() {
        checkAllPairs(sourceLengths: 4...4)
    }

    func test_exhaustive_sourcesOfLength5() {
        checkAllPairs(sourceLengths: 5...5)
    }

    func test_exhaustive_sourcesOfLength6() {
        checkAllPairs(sourceLengths: 6...6)
    }

    func test_canonicalPairs_coverEveryPairExactlyOnce() {
        // The renamings of the canonical pairs, over all source lengths, are all 1,093² pairs.
        let lists = (0...Self.maximumLength).reduce(0) { $0 + power(Self.alphabetSize, $1) }
        XCTAssertEqual(lists, 1_093)
        var seen = [Bool](repeating: false, count: lists * lists)
        var visited = 0
        var canonicalPairs = 0
        for sourceLength in 0...Self.maximumLength {
            forEachCanonicalPair(sourceLength: sourceLength) { word, split in
                canonicalPairs += 1
                for renaming in renamings(ofLettersIn: word) {
                    var renamed = word
                    for offset in 0..<renamed.count { renamed[offset] = renaming[Int(renamed[offset])] }
                    seen[listNumber(renamed[..<split]) * lists + listNumber(renamed[split...])] = true
                    visited += 1
                }
            }
        }
        XCTAssertEqual(canonicalPairs, 199_133)
        XCTAssertEqual(visited, lists * lists)
        XCTAssertEqual(seen.filter { $0 }.count, lists * lists)
    }

    // MARK: - Checks

    /// Checks every canonical pair whose source length is in `sourceLengths`, on every core, and
    /// every renaming of each.
    private func checkAllPairs(sourceLengths: ClosedRange<Int>, file: StaticString = #filePath, line: UInt = #line) {
        var words: [(word: [UInt8], split: Int)] = []
        var pairs = 0
        for sourceLength in sourceLengths {
            forEachCanonicalPair(sourceLength: sourceLength) { word, split in
                words.append((word, split))
                pairs += renamings(ofLettersIn: word).count
            }
        }
        let canonical = words
        forEachCaseConcurrently(canonical.count, file: file, line: line) { index in
            Self.checkCanonicalPair(word: canonical[index].word, split: canonical[index].split)
        }
        let lists = (0...Self.maximumLength).reduce(0) { $0 + power(Self.alphabetSize, $1) }
        let sources = sourceLengths.reduce(0) { $0 + power(Self.alphabetSize, $1) }
        XCTAssertEqual(pairs, sources * lists, "every pair is visited once", file: file, line: line)
        XCTAssertLessThan(canonical.count, pairs, file: file, line: line)
    }

    /// Every check for the canonical pair `word` (the source, then from `split` on the target), and
    /// every renaming of it against its change-set; `nil` when all pass.
    private static func checkCanonicalPair(word: [UInt8], split: Int) -> String? {
        let source = items(word[..<split])
        let target = items(word[split...])
        let changes = Changeset(from: source, to: target)
        if let failure = checkCanonicalPair(changes, source: source, target: target) {
            return "\(source) → \(target): \(failure)"
        }
        for renaming in renamings(ofLettersIn: word) where renaming != identityRenaming {
            let renamedSource = items(word[..<split], renaming: renaming)
            let renamedTarget = items(word[split...], renaming: renaming)
            let renamedChanges = Changeset(from: renamedSource, to: renamedTarget)
            if renamedChanges != changes {
                return "\(renamedSource) → \(renamedTarget) gives \(renamedChanges), but its "
                    + "canonical pair \(source) → \(target) gives \(changes)"
            }
        }
        return nil
    }

    /// Every check for one canonical pair; `nil` when all pass.
    private static func checkCanonicalPair(_ changes: Changeset, source: [TestItem], target: [TestItem]) -> String? {
        if let failure = diffFailure(changes, from: source, to: target, identity: .key({ $0.id }, contentEquals: ==)) {
            return failure
        }
        let byClosures = Changeset(from: source, to: target, identity: .key({ $0.id }, contentEquals: ==))
        if byClosures != changes {
            return "the closure overload gives \(byClosures), the Identifiable overload \(changes)"
        }
        let staged = StagedChangeset(from: source, to: target)
        if let failure = stagedFailure(staged, for: changes, from: source, to: target, changesVerified: true) {
            return failure
        }
        // A sanity check of the inputs, not of RippleDiff: the standard library agrees they differ
        // by a valid edit script.
        if source.applying(target.difference(from: source)) != target {
            return "the standard library's difference does not reproduce the target"
        }
        return nil
    }
}

// MARK: - Enumeration

private let identityRenaming: [UInt8] = [0, 1, 2]

/// The element at offset `i` has identifier `renaming[letter]` and content `i % 2`.
private func items(_ letters: ArraySlice<UInt8>, renaming: [UInt8] = identityRenaming) -> [TestItem] {
    var result: [TestItem] = []
    result.reserveCapacity(letters.count)
    var offset = 0
    for letter in letters {
        result.append(TestItem(id: Int(renaming[Int(letter)]), content: offset & 1))
        offset += 1
    }
    return result
}

/// Calls `body` with every canonical pair whose source has `sourceLength` letters, as the source
/// followed by the target in one word, and the offset where the target starts.
///
/// A pair is canonical when its word is a restricted growth string: each letter is at most one more
/// than the largest letter before it, so letters first appear in the order 0, 1, 2.
private func forEachCanonicalPair(sourceLength: Int, _ body: ([UInt8], Int) -> Void) {
    for targetLength in 0...FlatDiffExhaustiveTests.maximumLength {
        var word = [UInt8](repeating: 0, count: sourceLength + targetLength)
        func extend(_ offset: Int, largest: Int) {
            if offset == word.count {
                body(word, sourceLength)
                return
            }
            for letter in 0...min(largest + 1, FlatDiffExhaustiveTests.alphabetSize - 1) {
                word[offset] = UInt8(letter)
                extend(offset + 1, largest: max(largest, letter))
            }
        }
        extend(0, largest: -1)
    }
}

/// Every injective renaming of the letters used in a canonical word into the alphabet; the
/// identity comes first. A word with *k* letters has 3!/(3 − *k*)! renamings.
private func renamings(ofLettersIn word: [UInt8]) -> [[UInt8]] {
    var used = 0
    for letter in word where Int(letter) + 1 > used { used = Int(letter) + 1 }
    return renamingsByLettersUsed[used]
}

/// `renamingsByLettersUsed[k]`: the renamings of the first *k* letters, each padded with the
/// unused letters so it can be indexed by any letter.
private let renamingsByLettersUsed: [[[UInt8]]] = (0...FlatDiffExhaustiveTests.alphabetSize).map { used in
    var result: [[UInt8]] = []
    func extend(_ renaming: [UInt8]) {
        if renaming.count == used {
            result.append(renaming + identityRenaming.filter { !renaming.contains($0) })
            return
        }
        for letter in identityRenaming where !renaming.contains(letter) { extend(renaming + [letter]) }
    }
    extend([])
    return result
}

/// The position of a list among all lists ordered by length, then by letters (base 3).
private func listNumber(_ letters: ArraySlice<UInt8>) -> Int {
    var number = 0
    for letter in letters { number = number * FlatDiffExhaustiveTests.alphabetSize + Int(letter) }
    return listsShorterThan[letters.count] + number
}

/// `listsShorterThan[k]`: the number of lists with fewer than *k* letters.
private let listsShorterThan: [Int] = (0...FlatDiffExhaustiveTests.maximumLength).map { length in
    (0..<length).reduce(0) { $0 + power(FlatDiffExhaustiveTests.alphabetSize, $1) }
}

private func power(_ base: Int, _ exponent: Int) -> Int {
    (0..<exponent).reduce(1) { result, _ in result * base }
}
