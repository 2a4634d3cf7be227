extension Changeset {
    /// Checks that the change-set describes a batch UIKit can read, and says what is wrong if not.
    ///
    /// The checks: the counts are not negative; ``deletes`` and ``inserts`` are ascending and
    /// distinct, ``moves`` ascending by target and ``updates`` ascending by source, as documented;
    /// every offset is in range; no source offset is deleted or moved twice, and no target offset is
    /// inserted or moved to twice; the counts agree
    /// (`sourceCount - deletes - moves == targetCount - inserts - moves`); and every update names
    /// one matched element: its source offset lands at its target offset when the batch is replayed.
    ///
    /// ```swift
    /// let unsorted = Changeset(sourceCount: 3, targetCount: 3, deletes: [2, 0], inserts: [2, 0])
    /// print(unsorted.validationFailure() ?? "valid")
    /// // deletes must be ascending: 0 follows 2
    /// ```
    ///
    /// - Returns: `nil` when the change-set is valid, otherwise a sentence naming the first problem.
    /// - Complexity: O(*n* + *m*), where *n* is ``sourceCount`` and *m* is ``targetCount``.
    public func validationFailure() -> String? {
        guard sourceCount >= 0, targetCount >= 0 else {
            return "negative count: sourceCount \(sourceCount), targetCount \(targetCount)"
        }
        if let failure = _orderFailure(of: "deletes", deletes, by: \.self)
            ?? _orderFailure(of: "inserts", inserts, by: \.self)
            ?? _orderFailure(of: "moves", moves, by: \.target, keyName: "target")
            ?? _orderFailure(of: "updates", updates, by: \.source, keyName: "source")
        {
            return failure
        }
        // 0 = untouched, 1 = deleted, 2 = moved
        var sourceUse = [UInt8](repeating: 0, count: sourceCount)
        var targetUse = [UInt8](repeating: 0, count: targetCount)
        for offset in deletes {
            guard offset >= 0 && offset < sourceCount else {
                return "delete \(offset) is out of range 0..<\(sourceCount)"
            }
            guard sourceUse[offset] == 0 else { return "source offset \(offset) is deleted twice" }
            sourceUse[offset] = 1
        }
        for offset in inserts {
            guard offset >= 0 && offset < targetCount else {
                return "insert \(offset) is out of range 0..<\(targetCount)"
            }
            guard targetUse[offset] == 0 else { return "target offset \(offset) is inserted twice" }
            targetUse[offset] = 1
        }
        for move in moves {
            guard move.source >= 0 && move.source < sourceCount else {
                return "move \(move) has its source out of range 0..<\(sourceCount)"
            }
            guard move.target >= 0 && move.target < targetCount else {
                return "move \(move) has its target out of range 0..<\(targetCount)"
            }
            guard sourceUse[move.source] == 0 else {
                return "source offset \(move.source) is both moved and deleted, or moved twice"
            }
            guard targetUse[move.target] == 0 else {
                return "target offset \(move.target) is both moved to and inserted, or moved to twice"
            }
            sourceUse[move.source] = 2
            targetUse[move.target] = 2
        }
        let kept = sourceCount - deletes.count - moves.count
        guard kept == targetCount - inserts.count - moves.count else {
            return "counts disagree: \(sourceCount) - \(deletes.count) deleted must equal "
                + "\(targetCount) - \(inserts.count) inserted"
        }
        guard !updates.isEmpty else { return nil }
        let landing = _landingOffsets()
        var previous = -1
        for update in updates {
            guard update.source >= 0 && update.source < sourceCount else {
                return "update \(update) has its source out of range 0..<\(sourceCount)"
            }
            guard update.target >= 0 && update.target < targetCount else {
                return "update \(update) has its target out of range 0..<\(targetCount)"
            }
            guard sourceUse[update.source] != 1 else {
                return "update \(update) names a deleted element"
            }
            guard targetUse[update.target] != 1 else {
                return "update \(update) names an inserted element"
            }
            guard landing[update.source] == update.target else {
                return "update \(update) does not follow the element: it lands at \(landing[update.source])"
            }
            guard update.source != previous else { return "source offset \(update.source) is updated twice" }
            previous = update.source
        }
        return nil
    }

    /// Where each source element lands in the target: its target offset, or -1 when it is deleted.
    ///
    /// Moved elements land at their move's target; the others keep their order and fill the target
    /// offsets that inserts and moves leave free, as UIKit reads a batch.
    ///
    /// - Precondition: The change-set is valid (see ``validationFailure()``); otherwise the call
    ///   traps with a message that names the first problem.
    /// - Returns: One target offset per source offset.
    /// - Complexity: O(*n* + *m*), where *n* is ``sourceCount`` and *m* is ``targetCount``.
    public func landingOffsets() -> [Int] {
        if let failure = validationFailure() {
            preconditionFailure("Changeset.landingOffsets(): invalid change-set: \(failure)")
        }
        return _landingOffsets()
    }

    /// ``landingOffsets()`` without its checks, for a change-set known to be valid.
    ///
    /// - Complexity: O(*n* + *m*), where *n* is ``sourceCount`` and *m* is ``targetCount``.
    func _landingOffsets() -> [Int] {
        var landing = [Int](repeating: -2, count: sourceCount)
        var isTaken = [Bool](repeating: false, count: targetCount)
        for offset in deletes { landing[offset] = -1 }
        for offset in inserts { isTaken[offset] = true }
        for move in moves {
            landing[move.source] = move.target
            isTaken[move.target] = true
        }
        var free = 0
        for source in 0..<sourceCount where landing[source] == -2 {
            while isTaken[free] { free += 1 }
            landing[source] = free
            free += 1
        }
        return landing
    }

    /// Replays the change-set onto `source` and returns the list it describes.
    ///
    /// Deleted elements are dropped, moved elements are placed at their target offsets, and every
    /// inserted or updated element is taken from `element(atTarget:)`. The rest keep their order and
    /// fill the free slots. For a change-set produced by `Changeset(from: source, to: target)`,
    /// `changes.applied(to: source) { target[$0] }` equals `target`.
    ///
    /// <!-- swift
    /// let old = ["a", "b", "c"], new = ["c", "a", "d"]
    /// -->
    /// ```swift
    /// let changes = Changeset(from: old, to: new, identity: .value)
    /// assert(changes.applied(to: old) { new[$0] } == new)
    /// ```
    ///
    /// - Parameters:
    ///   - source: The list the change-set starts from. Its count must equal ``sourceCount``.
    ///   - element: Returns the element at a target offset; called for inserts and updates.
    /// - Returns: A list of ``targetCount`` elements.
    /// - Precondition: The change-set is valid (see ``validationFailure()``).
    /// - Complexity: O(*n* + *m*), where *n* is ``sourceCount`` and *m* is ``targetCount``.
    @inlinable
    public func applied<Element>(
        to source: [Element],
        element: (_ targetOffset: Int) throws -> Element
    ) rethrows -> [Element] {
        precondition(
            source.count == sourceCount,
            "Changeset.applied(to:element:): source has \(source.count) elements, expected \(sourceCount)"
        )
        if let failure = validationFailure() {
            preconditionFailure("Changeset.applied(to:element:): invalid change-set: \(failure)")
        }
        var slots = [Element?](repeating: nil, count: targetCount)
        var leaves = [Bool](repeating: false, count: sourceCount)
        for offset in deletes { leaves[offset] = true }
        for offset in inserts { slots[offset] = try element(offset) }
        for move in moves {
            leaves[move.source] = true
            slots[move.target] = source[move.source]
        }
        var next = 0
        for offset in source.indices where !leaves[offset] {
            while slots[next] != nil { next += 1 }
            slots[next] = source[offset]
            next += 1
        }
        for update in updates { slots[update.target] = try element(update.target) }
        return slots.map { $0! }
    }
}

/// Why `values` are not in ascending order by `key`, or `nil`: the first step back, such as
/// `deletes must be ascending: 0 follows 2`. Repeats pass; the caller reports them in its own words.
///
/// - Parameters:
///   - name: The list's name in the message, such as `deletes`.
///   - values: The list, documented as ascending by `key`.
///   - key: What the list is sorted by.
///   - keyName: What the key is called in the message, such as `target`, or `nil` for the values
///     themselves.
///   - parenthesized: Whether keys print in parentheses, as paths do.
/// - Complexity: O(*n*) for *n* values.
func _orderFailure<Value, Key: Comparable>(
    of name: String, _ values: [Value], by key: (Value) -> Key, keyName: String? = nil,
    parenthesized: Bool = false
) -> String? {
    var index = 1
    while index < values.count {
        let previous = key(values[index - 1])
        let current = key(values[index])
        if current < previous {
            let (now, before) = parenthesized ? ("(\(current))", "(\(previous))") : ("\(current)", "\(previous)")
            return "\(name) must be ascending\(keyName.map { " by \($0)" } ?? ""): \(now) follows \(before)"
        }
        index += 1
    }
    return nil
}
