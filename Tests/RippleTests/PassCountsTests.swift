import RippleTestSupport
import XCTest

@testable import Ripple

/// `PassCounts` against `[Bool]`, the plain model: random inserts, removals and sets, across chunk
/// splits and chunks that empty, with every read and rank checked against the model.
final class PassCountsTests: XCTestCase {
    func test_random_againstAnArrayOfFlags() {
        forEachSeedConcurrently(TestScale.seeds(0..<16, minimum: 4)) { _, random in
            var model = (0..<random.int(in: 0...3_000)).map { _ in random.chance(1, in: 3) }
            var counts = PassCounts(model)
            // Phases that grow, shrink or churn the flags around one place, so that a chunk grows
            // past its capacity and splits, or empties and goes.
            var phase = 0
            var hot = 0
            for step in 0..<6_000 {
                if step % 1_000 == 0 {
                    phase = random.int(below: 3)
                    hot = random.int(in: 0...model.count)
                }
                let roll = random.int(below: 6)
                let kind =
                    model.isEmpty
                    ? 0
                    : phase == 0
                        ? (roll < 4 ? 0 : roll < 5 ? 1 : 2) : phase == 1 ? (roll < 1 ? 0 : roll < 5 ? 1 : 2) : roll % 3
                let bound = kind == 0 ? model.count : model.count - 1
                let offset =
                    random.chance(3, in: 4)
                    ? Swift.min(Swift.max(0, hot + random.int(in: -8...8)), bound) : random.int(in: 0...bound)
                let flag = random.chance(1, in: 2)
                switch kind {
                case 0:
                    model.insert(flag, at: offset)
                    counts.insert(flag, at: offset)
                case 1:
                    if counts.remove(at: offset) != model.remove(at: offset) { return "step \(step): removed flag" }
                default:
                    if counts.set(flag, at: offset) != model[offset] { return "step \(step): old flag" }
                    model[offset] = flag
                }
                guard counts.count == model.count else {
                    return "step \(step): count \(counts.count), model \(model.count)"
                }
                if step % 50 == 0, let failure = Self.failure(counts, model, step: step, random: &random) {
                    return failure
                }
            }
            return counts.flags == model ? nil : "the flags differ from the model at the end"
        }
    }

    func test_emptyAndSingle() {
        var counts = PassCounts([])
        XCTAssertEqual(counts.count, 0)
        XCTAssertEqual(counts.rank(of: 0), 0)
        counts.insert(true, at: 0)
        XCTAssertEqual(counts.rank(of: 0), 0)
        XCTAssertEqual(counts.rank(of: 1), 1)
        XCTAssertTrue(counts.remove(at: 0))
        XCTAssertEqual(counts.count, 0)
        XCTAssertEqual(counts.passCount, 0)
        counts.insert(false, at: 0)
        XCTAssertEqual(counts.flags, [false])
    }

    /// Where the counts disagree with the model: the counts, and (at a few random offsets, and at
    /// both ends) the flag and the rank.
    private static func failure(_ counts: PassCounts, _ model: [Bool], step: Int, random: inout SplitMix64) -> String? {
        guard counts.count == model.count, counts.passCount == model.filter({ $0 }).count else {
            return "step \(step): counts \(counts.count)/\(counts.passCount), model \(model.count)"
        }
        var offsets = [0, model.count]
        for _ in 0..<4 where !model.isEmpty { offsets.append(random.int(below: model.count)) }
        for offset in offsets {
            let rank = model[..<offset].filter { $0 }.count
            if counts.rank(of: offset) != rank {
                return "step \(step): rank(of: \(offset)) \(counts.rank(of: offset)), model \(rank)"
            }
            if offset < model.count && counts[offset] != model[offset] { return "step \(step): flag \(offset)" }
            if offset < model.count && counts.flagAndRank(at: offset) != (model[offset], rank) {
                return "step \(step): flagAndRank(at: \(offset)) \(counts.flagAndRank(at: offset))"
            }
        }
        return nil
    }
}
