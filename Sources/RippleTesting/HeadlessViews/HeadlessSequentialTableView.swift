import RippleDiff

// Why this file is long: it is one state machine: the row calls and the commit at the end of a batch
// all write the same private state, which split files would have to make internal. Its violation
// type is in SequentialUpdateViolation.swift.

/// A table view without AppKit: it shows values from a data source and takes `NSTableView`'s row
/// updates, which apply one after another, so a test on Linux proves that the calls a list source
/// makes would not crash a real `NSTableView` and leave it showing the data source.
///
/// Between ``beginUpdates()`` and ``endUpdates()`` every call names rows as the calls before it in
/// the same batch left them: ``removeRows(_:)`` removes at once, ``insertRows(_:)`` inserts as if
/// one at a time in ascending order, ``moveRow(at:to:)`` removes then inserts, and
/// ``reloadRows(_:)`` marks rows in place. At the end of the outermost batch the view reads the
/// data source: inserted and reloaded rows take its values at the positions they then occupy,
/// every other row keeps the value it had (a moved row carries its own), and the row count must
/// equal the data source's. If the calls describe the change, ``rows`` then equals the data
/// source:
///
/// ```swift
/// var names = ["a", "b", "c"]
/// let tableView = HeadlessSequentialTableView { names }
/// tableView.reloadData()
/// names = ["c", "a", "d"]
/// tableView.beginUpdates()
/// tableView.removeRows([1])             // ["a", "c"]
/// tableView.moveRow(at: 1, to: 0)       // ["c", "a"]
/// tableView.insertRows([2])             // ["c", "a", new]
/// tableView.endUpdates()
/// XCTAssertNil(tableView.lastViolation)
/// XCTAssertEqual(tableView.rows, names)
/// ```
///
/// # Violations
/// Where real AppKit raises an exception, the headless view records a
/// ``SequentialUpdateViolation`` in ``violations``, ignores the rest of the batch, and recovers at
/// the end of the outermost batch by showing what the data source reports, as a `reloadData()`
/// fallback would; then it calls ``violationHandler``. It never traps, so one test can check
/// several batches. A batch records at most one violation: the first.
///
/// # Timing
/// - The view reads its data source the first time it needs it (an accessor, a batch), then on
///   ``reloadData()``, which reads at once as `NSTableView` does, and at the end of each outermost
///   batch.
/// - A call made outside a batch forms a batch of its own.
///
/// # Thread Safety
/// Not `Sendable`. Use a view from one thread or actor, as AppKit requires the main thread.
public final class HeadlessSequentialTableView<Row> {
    /// A row: a value the view shows, or a row inserted or reloaded in the open batch, which
    /// reads its value from the data source when the batch ends.
    private enum Slot {
        case value(Row)
        case fromDataSource

        /// The value of a row outside a batch, where every row has one.
        var shown: Row {
            guard case .value(let row) = self else {
                preconditionFailure("HeadlessSequentialTableView: a row without a value outside a batch")
            }
            return row
        }
    }

    /// Reads the data source: its row count now, and its rows of now.
    private let readDataSource: () -> _DataSourceRead<Row>

    /// The rows on screen, in a persistent list, so that a batch copies only the rows it touches.
    /// Between batches every row has its value, and this is where the next batch starts.
    private var displayed = ListSnapshot<Slot>()

    /// Whether the data source must be read before ``displayed`` can be used.
    private var needsLoad = true

    /// The nesting depth of ``beginUpdates()`` and ``endUpdates()``.
    private var depth = 0

    /// The rows of the open batch as its calls so far left them (sharing ``displayed``'s storage
    /// but for what the calls changed); empty outside a batch.
    private var working = ListSnapshot<Slot>()

    /// The positions in ``working`` of the rows that read the data source when the batch ends,
    /// ascending.
    private var arrivals: [Int] = []

    /// The open batch's calls that changed its rows, in order: where a row before the batch is
    /// at its end follows from them (``_SequentialCall/destination(of:through:)``).
    private var calls: [_SequentialCall] = []

    /// Told what changed on screen; a ``HeadlessCellHost`` sets it to carry its cells.
    var layoutObserver: ((_HeadlessLayoutChange) -> Void)?

    /// The violation of the open batch, which makes the view ignore the rest of the batch and
    /// recover when it ends; `nil` while the batch is sound.
    private var batchViolation: SequentialUpdateViolation?

    /// Every violation so far, oldest first.
    public private(set) var violations: [SequentialUpdateViolation] = []

    /// The list source that adopted the view as its data source and delegate (through a
    /// `SequentialListView`), held weakly as AppKit holds a data source; `nil` before any did.
    public internal(set) weak var adoptedSource: AnyObject?

    /// How many times a list source adopted the view: once when it starts driving it, and once
    /// more each time its forwarding delegate changes.
    public internal(set) var adoptionCount = 0

    /// Creates a table view that reads its rows from a closure.
    ///
    /// - Parameter rows: Returns the values to show, as the data source's `numberOfRows(in:)` and
    ///   `tableView(_:objectValueFor:row:)` would. The view holds it strongly and calls it the
    ///   first time it needs its rows, on ``reloadData()`` and at the end of each outermost batch.
    public convenience init(rows: @escaping () -> [Row]) {
        self.init(reading: { _DataSourceRead(sections: [rows()]) })
    }

    /// Creates a table view that reads its data source a count and a row at a time, as AppKit's
    /// `numberOfRows(in:)` and `tableView(_:objectValueFor:row:)` do: a batch then costs what it
    /// changes, not the number of rows, and reads only the rows it inserts or reloads.
    ///
    /// ```swift
    /// var titles = ["a", "b", "c"]
    /// let longTable = HeadlessSequentialTableView(rowCount: { titles.count }, row: { titles[$0] })
    /// longTable.reloadData()
    /// ```
    ///
    /// - Parameters:
    ///   - rowCount: Returns the number of rows now. The view holds it strongly.
    ///   - row: Returns the value of a row now, in `0..<rowCount()`. The view holds it strongly.
    public convenience init(rowCount: @escaping () -> Int, row: @escaping (Int) -> Row) {
        self.init(reading: { _DataSourceRead(counts: [rowCount()], element: { row($0.item) }) })
    }

    private init(reading read: @escaping () -> _DataSourceRead<Row>) {
        readDataSource = read
    }

    // MARK: - Configuration

    /// Called with each violation, once the view has recorded it and recovered: at the end of the
    /// outermost batch for a violation inside a batch, at once for an unmatched ``endUpdates()``.
    ///
    /// The handler may use the view. Real AppKit would raise an exception with the violation's
    /// message at the offending call instead.
    public var violationHandler: ((SequentialUpdateViolation) -> Void)?

    /// Whether the view is in a window, as a list source asks before it animates. `true` unless a
    /// test sets it to `false` to play a view that is off screen.
    public var isInWindow = true

    // MARK: - Displayed state

    /// The rows on screen.
    ///
    /// Outside a batch this is also the state the next batch starts from. Inside a batch it still
    /// shows the state before the batch: inserted and reloaded rows have no value until the batch
    /// ends.
    ///
    /// - Complexity: O(*n*) for *n* rows, plus a read of the data source the first time.
    public var rows: [Row] {
        loadIfNeeded()
        return displayed.map(\.shown)
    }

    /// The number of rows the view shows now: outside a batch, the count of ``rows``; inside a
    /// batch, the count the calls so far left, as `NSTableView` updates `numberOfRows` at each
    /// call.
    ///
    /// - Complexity: O(1), plus a read of the data source the first time.
    public var numberOfRows: Int {
        if depth > 0 { return working.count }
        loadIfNeeded()
        return displayed.count
    }

    // MARK: - Diagnostics

    /// The most recent violation, or `nil`.
    public var lastViolation: SequentialUpdateViolation? { violations.last }

    /// Forgets ``violations``.
    public func clearDiagnostics() { violations.removeAll() }

    /// Whether a batch is open (between the outermost begin and end).
    public var hasUncommittedUpdates: Bool { depth > 0 }

    // MARK: - Reloading

    /// Reads the data source at once and shows it.
    ///
    /// Inside a batch it is a violation of Ripple's
    /// (``SequentialUpdateViolation/Kind/reloadDataInsideBatch``): the view ignores the rest of the
    /// batch and shows the data source when the batch ends.
    ///
    /// - Complexity: O(*n*) for *n* rows, plus the read of the data source.
    public func reloadData() {
        guard depth == 0 else {
            fail(
                .reloadDataInsideBatch, method: "reloadData()",
                "\(Self.typeName).reloadData(): called inside a batch (update depth \(depth)); the rest of the batch is ignored and the view shows the data source when the batch ends."
            )
            return
        }
        needsLoad = true
        loadIfNeeded()
        layoutObserver?(.reloaded)
    }

    // MARK: - Batches

    /// Opens a batch, or a nested batch inside an open one. Nested batches merge into the
    /// outermost one, which alone reads the data source when it ends.
    ///
    /// - Complexity: O(1): the batch's rows share the rows on screen until a call changes them.
    public func beginUpdates() {
        if depth == 0 {
            loadIfNeeded()
            working = displayed
            arrivals = []
            calls = []
            batchViolation = nil
        }
        depth += 1
    }

    /// Closes a batch. Closing the outermost batch reads the data source, gives inserted and
    /// reloaded rows their values and checks the row count, or recovers from the batch's violation.
    ///
    /// Without a matching ``beginUpdates()`` the call is ignored and recorded as a violation of
    /// Ripple's (``SequentialUpdateViolation/Kind/unmatchedEndUpdates``).
    ///
    /// - Complexity: O(*m* log *n*) for *n* rows and *m* rows inserted or reloaded, plus the read
    ///   of those rows, when it closes the outermost batch; O(1) otherwise.
    public func endUpdates() { endUpdates(method: "endUpdates()") }

    // MARK: - Rows

    /// Removes rows, all at once.
    ///
    /// A violation when `rows` are not ascending and distinct, or name a row outside
    /// `0..<numberOfRows`.
    ///
    /// - Parameter rows: Ascending and distinct, naming rows as the batch's calls so far left them.
    /// - Complexity: O(*k* log *n* + *m* log *k*) for *n* rows, *k* removed rows and *m* rows
    ///   inserted or reloaded earlier in the batch.
    public func removeRows(_ rows: [Int]) {
        let method = "removeRows(_:)"
        perform(method, .remove(rows)) { slots in
            if let violation = Self.checkAscending(rows, method: method, count: slots.count, growing: false) {
                return violation
            }
            for row in rows.reversed() { slots.remove(at: row) }
            return nil
        }
    }

    /// Inserts rows, which read their values from the data source when the outermost batch ends.
    ///
    /// Each row is a position in the rows after the insertion, so inserting ascending rows one at a
    /// time gives the same result. A violation when `rows` are not ascending and distinct, or when
    /// a row exceeds the row count at the moment it is inserted.
    ///
    /// - Parameter rows: Ascending and distinct, naming the positions the new rows take.
    /// - Complexity: O(*k* log *n* + *m* *k*) for *n* rows, *k* inserted rows and *m* rows
    ///   inserted or reloaded earlier in the batch.
    public func insertRows(_ rows: [Int]) {
        let method = "insertRows(_:)"
        perform(method, .insert(rows)) { slots in
            if let violation = Self.checkAscending(rows, method: method, count: slots.count, growing: true) {
                return violation
            }
            for row in rows { slots.insert(.fromDataSource, at: row) }
            return nil
        }
    }

    /// Moves one row: removes it, then inserts it at `newRow`. The row keeps its value, even when
    /// it was inserted or reloaded earlier in the batch and has yet to read it.
    ///
    /// A violation when `row` or `newRow` is outside `0..<numberOfRows`.
    ///
    /// - Parameters:
    ///   - row: The row, as the batch's calls so far left the rows.
    ///   - newRow: Its position once moved, in the rows as they are after the move.
    /// - Complexity: O(log *n* + *m*) for *n* rows and *m* rows inserted or reloaded earlier in
    ///   the batch.
    public func moveRow(at row: Int, to newRow: Int) {
        perform("moveRow(at:to:)", .move(row, to: newRow)) { slots in
            for index in [row, newRow] where !slots.indices.contains(index) {
                return Self.outOfRange(index, count: slots.count, method: "moveRow(at:to:)")
            }
            let slot = slots.remove(at: row)
            slots.insert(slot, at: newRow)
            return nil
        }
    }

    /// Reloads rows from the data source when the outermost batch ends; they keep their positions.
    ///
    /// A violation when `rows` are not ascending and distinct, or name a row outside
    /// `0..<numberOfRows`.
    ///
    /// - Parameter rows: Ascending and distinct, naming rows as the batch's calls so far left them.
    /// - Complexity: O(*k* log *n* + *m*) for *n* rows, *k* reloaded rows and *m* rows inserted or
    ///   reloaded earlier in the batch.
    public func reloadRows(_ rows: [Int]) {
        let method = "reloadRows(_:)"
        perform(method, .reload(rows)) { slots in
            if let violation = Self.checkAscending(rows, method: method, count: slots.count, growing: false) {
                return violation
            }
            for row in rows { slots[row] = .fromDataSource }
            return nil
        }
    }

    /// The rows reconfigured so far, one array per ``reconfigureRows(_:)`` call, oldest first.
    public private(set) var reconfiguredRows: [[Int]] = []

    /// Configures rows on screen again in place, as Ripple's AppKit glue does for `NSTableView`
    /// (which has no reconfigure call): the rows read their values again and keep their places.
    ///
    /// Call it outside a batch, with rows in `0..<numberOfRows`; a call inside a batch, or a row out
    /// of range, is recorded as a violation and ignored.
    ///
    /// - Parameter rows: Rows as they are now.
    public func reconfigureRows(_ rows: [Int]) {
        let method = "reconfigureRows(_:)"
        loadIfNeeded()
        guard depth == 0 else {
            return recordOutsideBatch(
                SequentialUpdateViolation(
                    kind: .reloadDataInsideBatch, method: method,
                    message:
                        "reconfigureRows(_:) called inside a batch; Ripple reconfigures after the batch ends. The call is ignored."
                ))
        }
        if let bad = rows.first(where: { !displayed.indices.contains($0) }) {
            return recordOutsideBatch(Self.outOfRange(bad, count: displayed.count, method: method))
        }
        let after = readDataSource()
        if after.counts == [displayed.count] {
            for row in rows { displayed[row] = .value(after.element(ElementPath(item: row, section: 0))) }
        }
        reconfiguredRows.append(rows)
        layoutObserver?(.reconfigured(rows.map { ElementPath(item: $0, section: 0) }))
    }

    // MARK: - Implementation

    /// The name in Ripple's own messages.
    private static var typeName: String { "HeadlessSequentialTableView" }

    /// Reads the data source if the view has not since its creation.
    private func loadIfNeeded() {
        guard needsLoad else { return }
        displayed = Self.slots(of: readDataSource())
        needsLoad = false
    }

    /// Every row of a read of the data source, with its value.
    private static func slots(of read: _DataSourceRead<Row>) -> ListSnapshot<Slot> {
        var slots = ListSnapshot<Slot>()
        for row in 0..<(read.counts.first ?? 0) {
            slots.append(.value(read.element(ElementPath(item: row, section: 0))))
        }
        return slots
    }

    /// Runs one call on the open batch's rows, or as a batch of its own outside a batch. After a
    /// violation the batch ignores the call.
    ///
    /// - Parameters:
    ///   - method: The call, which ends the batch when it is a batch of its own.
    ///   - call: The call, recorded once applied: it moves the rows that read the data source, and
    ///     the cells.
    ///   - body: Checks the call against the rows and applies it, or returns the violation and
    ///     leaves the rows alone.
    private func perform(
        _ method: String, _ call: _SequentialCall, _ body: (inout ListSnapshot<Slot>) -> SequentialUpdateViolation?
    ) {
        let ownBatch = depth == 0
        if ownBatch { beginUpdates() }
        if batchViolation == nil {
            if let violation = body(&working) {
                record(violation)
            } else {
                arrivals = call.carrying(arrivals)
                calls.append(call)
            }
        }
        if ownBatch { endUpdates(method: method) }
    }

    /// Records a violation of the open batch: the batch ignores its other calls and recovers when
    /// it ends.
    /// Records a violation of a call that is no part of a batch, and tells the handler.
    private func recordOutsideBatch(_ violation: SequentialUpdateViolation) {
        violations.append(violation)
        violationHandler?(violation)
    }

    private func record(_ violation: SequentialUpdateViolation) {
        batchViolation = violation
        violations.append(violation)
    }

    /// Records a misuse of Ripple's inside the open batch, unless the batch already has a
    /// violation.
    private func fail(_ kind: SequentialUpdateViolation.Kind, method: String, _ message: String) {
        guard batchViolation == nil else { return }
        record(SequentialUpdateViolation(kind: kind, method: method, message: message))
    }

    /// Closes a batch; `method` is the call that closes it, for messages.
    private func endUpdates(method: String) {
        guard depth > 0 else {
            let violation = SequentialUpdateViolation(
                kind: .unmatchedEndUpdates, method: method,
                message:
                    "\(Self.typeName).\(method): called without a matching beginUpdates(); the call is ignored.")
            violations.append(violation)
            violationHandler?(violation)
            return
        }
        depth -= 1
        if depth == 0 { commit(method: method) }
    }

    /// Ends the outermost batch: reads the data source, then shows the batch's rows with their
    /// values, or the data source when the batch has a violation or the wrong row count.
    private func commit(method: String) {
        var slots = working
        working = []
        let batchCalls = calls
        calls = []
        var violation = batchViolation
        batchViolation = nil
        let read = readDataSource()
        let sourceCount = read.counts.first ?? 0
        needsLoad = false

        if violation == nil, slots.count != sourceCount {
            let mismatch = SequentialUpdateViolation(
                kind: .rowCountMismatch, method: method,
                message:
                    "\(Self.typeName).\(method): the batch leaves \(slots.count) rows but the data source has \(sourceCount); the inserted and removed rows must account for the change (numberOfRows after the updates: \(slots.count), data source: \(sourceCount))."
            )
            violations.append(mismatch)
            violation = mismatch
        }

        if let violation {
            // Real AppKit raises here. Recover as an app's fallback would: show the data source.
            displayed = Self.slots(of: read)
            layoutObserver?(.reloaded)
            violationHandler?(violation)
            return
        }
        for row in arrivals { slots[row] = .value(read.element(ElementPath(item: row, section: 0))) }
        arrivals = []
        displayed = slots
        layoutObserver?(
            .carried(
                _RowCarry(sectionTargets: [0]) { path in
                    _SequentialCall.destination(of: path.item, through: batchCalls).map {
                        ElementPath(item: $0, section: 0)
                    }
                }))
    }

    /// The first violation of `rows`, which must be ascending and distinct and in range.
    ///
    /// - Parameters:
    ///   - rows: The rows of a call.
    ///   - method: The call.
    ///   - count: The number of rows before the call.
    ///   - growing: Whether each row is inserted, so that the count grows by one after it.
    private static func checkAscending(
        _ rows: [Int], method: String, count: Int, growing: Bool
    ) -> SequentialUpdateViolation? {
        var previous: Int?
        for (offset, row) in rows.enumerated() {
            // The row count when this row is inserted; a valid position is at most this count.
            let current = growing ? count + offset : count
            let upperBound = growing ? current + 1 : current
            if let previous, row <= previous {
                // `previous` passed the range check, so `previous + 1` cannot overflow.
                let next =
                    previous + 1 < upperBound
                    ? "the row after \(previous) must be in \(previous + 1)..<\(upperBound)"
                    : "no row can follow \(previous), the last of 0..<\(upperBound)"
                return SequentialUpdateViolation(
                    kind: .rowsNotAscending, method: method,
                    message:
                        "\(typeName).\(method): row \(row) follows row \(previous), but rows must be ascending and distinct: \(next) (numberOfRows: \(current))."
                )
            }
            if row < 0 || row >= upperBound {
                return outOfRange(row, count: current, method: method)
            }
            previous = row
        }
        return nil
    }

    /// AppKit's violation for a row outside the rows.
    private static func outOfRange(_ row: Int, count: Int, method: String) -> SequentialUpdateViolation {
        SequentialUpdateViolation(
            kind: .rowOutOfRange, method: method,
            message: "NSTableView error inserting/removing/moving row \(row) (numberOfRows: \(count)).")
    }
}

@available(*, unavailable)
extension HeadlessSequentialTableView: Sendable {}

extension HeadlessSequentialTableView: _HeadlessLayoutObservable {
    var engineLayoutObserver: ((_HeadlessLayoutChange) -> Void)? {
        get { layoutObserver }
        set { layoutObserver = newValue }
    }

    func layoutIfNeeded() { loadIfNeeded() }
}

/// A call of a sequential batch that changes its rows, as `NSTableView` applies it: at once, naming
/// rows as the calls before it left them.
enum _SequentialCall {
    /// Rows removed, ascending.
    case remove([Int])
    /// Rows inserted, ascending, each a position once inserted.
    case insert([Int])
    /// A row removed, then inserted at a position of the rows without it.
    case move(Int, to: Int)
    /// Rows marked to read the data source, in place.
    case reload([Int])

    /// Where the row at `row` before `calls` is after them, or `nil` when a call removed it or
    /// marked it to read the data source (its cell leaves).
    ///
    /// - Complexity: O(*c* log *k*) for *c* calls of up to *k* rows each.
    static func destination(of row: Int, through calls: [_SequentialCall]) -> Int? {
        var row = row
        for call in calls {
            switch call {
            case .remove(let rows), .reload(let rows):
                let below = _countBelow(row, in: rows)
                if below < rows.count && rows[below] == row { return nil }
                if case .remove = call { row -= below }
            case .insert, .move:
                row = call.shifting(row)
            }
        }
        return row
    }

    /// Where a row that the call leaves in place, or moves, goes.
    private func shifting(_ row: Int) -> Int {
        switch self {
        case .remove(let rows): return row - _countBelow(row, in: rows)
        case .insert(let rows):
            var row = row
            for inserted in rows where inserted <= row { row += 1 }
            return row
        case .move(let from, let to):
            if row == from { return to }
            let lifted = from < row ? row - 1 : row
            return to <= lifted ? lifted + 1 : lifted
        case .reload: return row
        }
    }

    /// The positions of the rows that read the data source (`arrivals`, ascending) once the call
    /// is applied: they move with their rows, removed ones leave, and inserted and reloaded rows
    /// join them.
    ///
    /// - Complexity: O(*m* *k*) for *m* arrivals and *k* rows in the call.
    func carrying(_ arrivals: [Int]) -> [Int] {
        switch self {
        case .remove(let rows):
            let removed = Set(rows)
            return arrivals.filter { !removed.contains($0) }.map(shifting)
        case .insert(let rows):
            return (arrivals.map(shifting) + rows).sorted()
        case .move:
            return arrivals.map(shifting).sorted()
        case .reload(let rows):
            return Set(arrivals + rows).sorted()
        }
    }
}
