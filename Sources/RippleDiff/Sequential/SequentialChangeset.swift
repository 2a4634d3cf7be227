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
/// let changes = Changeset(from: ["a", "b", "c", "d"], to: ["d", "c", "a", "e"])
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
        // Per gap: how many moves start there and how many end there; per move: its rank in its gap.
        var startsInGap = [Int32](repeating: 0, count: stayCount + 1)
        var endsInGap = [Int32](repeating: 0, count: stayCount + 1)
        var startGap = [Int32](repeating: 0, count: changeset.moves.count)
        var startRank = [Int32](repeating: 0, count: changeset.moves.count)
        var endGap = [Int32](repeating: 0, count: changeset.moves.count)
        var endRank = [Int32](repeating: 0, count: changeset.moves.count)
        var gap = 0
        for offset in 0..<sourceCount where !isDeleted[offset] {
            let move = Int(moveAtSource[offset])
            if move < 0 {
                gap += 1
            } else {
                startGap[move] = Int32(gap)
                startRank[move] = startsInGap[gap]
                startsInGap[gap] += 1
            }
        }
        // Moves in target order, the order they are made in.
        var order: [Int] = []
        order.reserveCapacity(changeset.moves.count)
        gap = 0
        for offset in 0..<targetCount where !isInserted[offset] {
            let move = Int(moveAtTarget[offset])
            if move < 0 {
                gap += 1
            } else {
                endGap[move] = Int32(gap)
                endRank[move] = endsInGap[gap]
                endsInGap[gap] += 1
                order.append(move)
            }
        }

        // Slot layout: for each gap, its end slots, its start slots, then the row that stays.
        var gapBase = [Int](repeating: 0, count: stayCount + 1)
        var slotCount = 0
        for gap in 0...stayCount {
            gapBase[gap] = slotCount
            slotCount += Int(endsInGap[gap] + startsInGap[gap]) + (gap < stayCount ? 1 : 0)
        }
        // Occupied at first: every slot but the end slots.
        var occupied = [Bool](repeating: true, count: slotCount)
        for gap in 0...stayCount {
            let base = gapBase[gap]
            for rank in 0..<Int(endsInGap[gap]) { occupied[base + rank] = false }
        }
        var counts = OccupancyCounts(occupied: occupied)

        var moves: [Changeset.OffsetPair] = []
        moves.reserveCapacity(order.count)
        for move in order {
            let startSlot = gapBase[Int(startGap[move])] + Int(endsInGap[Int(startGap[move])] + startRank[move])
            let endSlot = gapBase[Int(endGap[move])] + Int(endRank[move])
            let from = counts.occupied(before: startSlot)
            counts.add(-1, at: startSlot)
            let to = counts.occupied(before: endSlot)
            counts.add(1, at: endSlot)
            if from != to { moves.append(Changeset.OffsetPair(source: from, target: to)) }
        }
        return moves
    }
}
