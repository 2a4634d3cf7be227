/// A change-set as calls that apply one after another, the way `NSTableView` reads the calls between
/// `beginUpdates()` and `endUpdates()`.
///
/// A ``Changeset`` names positions before and after the whole batch, as UIKit reads a batch. A
/// sequential view instead reads each call in the rows as the calls before it left them. Applied in
/// this order, the parts turn the source into the target:
///
/// 1. ``removals``: remove these rows, all at once (source offsets, ascending);
/// 2. ``moves``: one at a time, remove the row at `source` and insert it at `target`, both counted
///    in the rows as they are at that moment;
/// 3. ``insertions``: insert rows at these positions of the target, ascending;
/// 4. ``reloads``: reload these rows of the target.
///
/// ```swift
/// let changes = Changeset(from: ["a", "b", "c", "d"], to: ["d", "c", "a", "e"], identity: .value)
/// let steps = SequentialChangeset(changes)
/// // removals [1]: a c d; moves 2→0: d a c, 2→1: d c a; insertions [3]: d c a e
/// ```
///
/// Moves stay moves, so a sequential view animates them as UIKit does; a move that would leave its
/// row where it is is left out.
///
/// # Thread Safety
/// A value type of plain integers; `Sendable`.
public struct SequentialChangeset: Hashable, Sendable {
    /// Rows to remove first, all at once: source offsets, ascending.
    public var removals: [Int]

    /// Rows to move next, one at a time: each `source` names the row and each `target` its new
    /// position, both in the rows as the removals and the moves before it left them.
    public var moves: [Changeset.OffsetPair]

    /// Rows to insert once the moves are done: target offsets, ascending.
    public var insertions: [Int]

    /// Rows to reload last: target offsets, ascending.
    public var reloads: [Int]

    /// Creates the sequential calls from their parts.
    ///
    /// - Parameters:
    ///   - removals: Source offsets, ascending.
    ///   - moves: Moves, each in the rows as the calls before it left them.
    ///   - insertions: Target offsets, ascending.
    ///   - reloads: Target offsets, ascending.
    public init(removals: [Int] = [], moves: [Changeset.OffsetPair] = [], insertions: [Int] = [], reloads: [Int] = []) {
        self.removals = removals
        self.moves = moves
        self.insertions = insertions
        self.reloads = reloads
    }

    /// The sequential calls of a change-set.
    ///
    /// - Parameter changeset: A valid change-set (``Changeset/validationFailure()`` is `nil`), for
    ///   example a stage of a ``StagedChangeset``. An invalid one traps, naming the problem.
    /// - Complexity: O(*n* + *m* + *k* log *n*) for *n* source and *m* target elements and *k* moves.
    public init(_ changeset: Changeset) {
        if let failure = changeset.validationFailure() {
            preconditionFailure("SequentialChangeset.init(_:): the change-set is not valid: \(failure)")
        }
        self.init(validated: changeset)
    }

    /// ``init(_:)`` for a change-set the caller has already validated.
    package init(validated changeset: Changeset) {
        removals = changeset.deletes
        insertions = changeset.inserts
        reloads = changeset.updates.map(\.target).sorted()
        moves = changeset.moves.isEmpty ? [] : Self.sequentialMoves(of: changeset)
    }

    /// Whether there is nothing to do.
    public var isEmpty: Bool {
        removals.isEmpty && moves.isEmpty && insertions.isEmpty && reloads.isEmpty
    }

    /// The moves, one at a time, that turn the rows left by the removals into the target without
    /// its inserted rows.
    ///
    /// The rows that do not move (neither deleted nor moved) keep their order, and split the rows
    /// into gaps: gap *g* lies before the *g*-th such row. Every moved row has two slots: one in the
    /// gap where it starts, one in the gap where it ends. In each gap the end slots come first, in
    /// target order, then the start slots, in source order. Moving the rows in target order, each
    /// to the end slot right after the row that precedes it in the target, keeps every state a
    /// subsequence of these slots, so a row's index is the number of occupied slots before its
    /// slot, which a Fenwick tree counts in O(log *n*).
    private static func sequentialMoves(of changeset: Changeset) -> [Changeset.OffsetPair] {
        let sourceCount = changeset.sourceCount
        let targetCount = changeset.targetCount
        // Which move each moved offset belongs to (-1: not moved), on both sides.
        var moveAtSource = [Int32](repeating: -1, count: sourceCount)
        var moveAtTarget = [Int32](repeating: -1, count: targetCount)
        for (index, move) in changeset.moves.enumerated() {
            moveAtSource[move.source] = Int32(index)
            moveAtTarget[move.target] = Int32(index)
        }
        var isDeleted = [Bool](repeating: false, count: sourceCount)
        for offset in changeset.deletes { isDeleted[offset] = true }
        var isInserted = [Bool](repeating: false, count: targetCount)
        for offset in changeset.inserts { isInserted[offset] = true }

        let stayCount = sourceCount - changeset.deletes.count - changeset.moves.count
        let starts = MovesByGap(
            side: moveAtSource, skipping: isDeleted, stayCount: stayCount, moveCount: changeset.moves.count)
        let ends = MovesByGap(
            side: moveAtTarget, skipping: isInserted, stayCount: stayCount, moveCount: changeset.moves.count)
        // Slot layout: for each gap, its end slots, its start slots, then the row that stays.
        var gapBase = [Int](repeating: 0, count: stayCount + 1)
        var slotCount = 0
        for gap in 0...stayCount {
            gapBase[gap] = slotCount
            slotCount += Int(ends.countInGap[gap] + starts.countInGap[gap]) + (gap < stayCount ? 1 : 0)
        }
        // Occupied at first: every slot but the end slots.
        var occupied = [Bool](repeating: true, count: slotCount)
        for gap in 0...stayCount {
            let base = gapBase[gap]
            for rank in 0..<Int(ends.countInGap[gap]) { occupied[base + rank] = false }
        }
        var counts = OccupancyCounts(occupied: occupied)

        var moves: [Changeset.OffsetPair] = []
        moves.reserveCapacity(changeset.moves.count)
        // Moves in target order, the order they are made in.
        for move in ends.order {
            let startGap = Int(starts.gap[move])
            let startSlot = gapBase[startGap] + Int(ends.countInGap[startGap] + starts.rank[move])
            let endSlot = gapBase[Int(ends.gap[move])] + Int(ends.rank[move])
            let from = counts.occupied(before: startSlot)
            counts.add(-1, at: startSlot)
            let to = counts.occupied(before: endSlot)
            counts.add(1, at: endSlot)
            if from != to { moves.append(Changeset.OffsetPair(source: from, target: to)) }
        }
        return moves
    }
}

/// Where the moves lie on one side of a change-set, among the rows that stay: each move's gap (the
/// number of staying rows before it) and its rank among the moves of that gap, in offset order.
private struct MovesByGap {
    /// Per gap, how many moves lie there.
    var countInGap: [Int32]
    /// Per move, its gap.
    var gap: [Int32]
    /// Per move, its rank in its gap.
    var rank: [Int32]
    /// The moves in offset order on this side.
    var order: [Int] = []

    /// Walks the offsets of one side that are neither deleted nor inserted.
    ///
    /// - Parameters:
    ///   - side: Per offset, the index of its move, or -1 when it does not move.
    ///   - skipping: Per offset, whether it is deleted (source) or inserted (target).
    ///   - stayCount: The number of rows that stay.
    ///   - moveCount: The number of moves.
    init(side: [Int32], skipping: [Bool], stayCount: Int, moveCount: Int) {
        countInGap = [Int32](repeating: 0, count: stayCount + 1)
        gap = [Int32](repeating: 0, count: moveCount)
        rank = [Int32](repeating: 0, count: moveCount)
        order.reserveCapacity(moveCount)
        var current = 0
        for offset in side.indices where !skipping[offset] {
            let move = Int(side[offset])
            if move < 0 {
                current += 1
            } else {
                gap[move] = Int32(current)
                rank[move] = countInGap[current]
                countInGap[current] += 1
                order.append(move)
            }
        }
    }
}
