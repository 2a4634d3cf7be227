/// A reference model of UIKit's cell lifecycle, rules C1–C5 of `uikit-cell-lifecycle.md`, for one
/// section of rows on a screen of a fixed number of rows.
///
/// It is written from the design note alone, to check `HeadlessCellHost` against something that
/// cannot share its assumptions: where the host carries cells by positions through each batch, the
/// model follows each row by a key that is unique in the list (the row's identifier, which a diff
/// with unique identifiers keeps), and asks only which keys a batch deleted or reloaded. Its
/// ledger of calls to the data source is what the host must have made, in order.
///
/// The conventions the note leaves open, which the host documents too:
/// - a reuse pool per identifier gives back the cell that entered it last;
/// - cells leave in the order of their rows before the change; after a batch they enter the pool
///   once the batch's new rows have their cells (they animate out), after a scroll or a reload
///   before (the new rows reuse them);
/// - `willDisplay` comes after the new rows are configured, top to bottom;
/// - a deleted or reloaded row's cell says `didEndDisplaying` at its row before the batch, a row
///   scrolled or pushed off screen at its row now.
public struct CellLifecycleModel<Key: Hashable> {
    /// A call the screen makes to its data source; cells are named by the order they were made in.
    public enum Call: Hashable, CustomStringConvertible {
        /// `cellForRowAt`: the data source configures `cell` for `row`.
        case configure(row: Int, cell: Int)
        /// `willDisplay` for `row`.
        case willDisplay(row: Int)
        /// `didEndDisplaying` for `row`.
        case didEndDisplaying(row: Int)

        public var description: String {
            switch self {
            case .configure(let row, let cell): return "configure(\(row), cell \(cell))"
            case .willDisplay(let row): return "willDisplay(\(row))"
            case .didEndDisplaying(let row): return "didEndDisplaying(\(row))"
            }
        }
    }

    /// A row of the list: its key, and the reuse identifier of the cell it asks for.
    public struct Row: Hashable {
        public var key: Key
        public var identifier: String

        public init(key: Key, identifier: String) {
            self.key = key
            self.identifier = identifier
        }
    }

    /// How many rows fit on screen.
    public let visibleRowCount: Int
    /// The list's rows now.
    public private(set) var rows: [Row] = []
    /// The first row on screen.
    public private(set) var firstVisibleRow = 0
    /// The cell of each row on screen, by key.
    public private(set) var cells: [Key: Int] = [:]
    /// Every call to the data source, oldest first.
    public private(set) var calls: [Call] = []
    /// How many times each cell was reused (taken back from a pool).
    public private(set) var reuseCounts: [Int] = []
    /// How many times each cell was configured.
    public private(set) var configureCounts: [Int] = []

    private var hasLaidOut = false
    private var identifiers: [String] = []
    private var pools: [String: [Int]] = [:]

    /// A model of an empty screen.
    ///
    /// - Parameter visibleRowCount: How many rows fit on screen.
    public init(visibleRowCount: Int) {
        self.visibleRowCount = visibleRowCount
    }

    /// The rows on screen, top to bottom, with their cells.
    public var visible: [(row: Int, cell: Int)] {
        windowRange.map { ($0, cells[rows[$0].key]!) }
    }

    // MARK: - What the screen does

    /// The first layout (C2): every row on screen gets a cell. Before it, nothing shows.
    public mutating func layout(rows: [Row]) {
        self.rows = rows
        hasLaidOut = true
        settle(leaving: [], afterBatch: false)
    }

    /// A scroll: rows off screen leave, rows on screen get cells (C2, C3).
    public mutating func scroll(toRow row: Int) {
        firstVisibleRow = max(0, row)
        guard hasLaidOut else { return }
        settle(leaving: [], afterBatch: false)
    }

    /// `reloadData()`: every cell on screen leaves, then the rows on screen get cells (C2, C3, C5).
    public mutating func reloadData(rows: [Row]) {
        guard hasLaidOut else { return self.rows = rows }
        let leaving = windowRange.map { (row: $0, key: self.rows[$0].key) }
        self.rows = rows
        settle(leaving: leaving, afterBatch: false, forgetting: true)
    }

    /// A batch (C1): the rows whose keys it deleted or reloaded lose their cells; every other row
    /// keeps its cell wherever it went, and the data source is not asked for it again.
    ///
    /// - Parameters:
    ///   - rows: The rows after the batch.
    ///   - deletedOrReloaded: The keys of the rows the batch deleted or reloaded.
    public mutating func batch(rows newRows: [Row], deletedOrReloaded: Set<Key>) {
        guard hasLaidOut else { return rows = newRows }
        let before = rows
        var leaving: [(row: Int, key: Key)] = []
        for row in windowRange where deletedOrReloaded.contains(before[row].key) {
            leaving.append((row, before[row].key))
        }
        // The cells of rows that left are the batch's; the others wait for the window.
        var departed: [Key: Int] = [:]
        for entry in leaving { departed[entry.key] = cells.removeValue(forKey: entry.key) }
        rows = newRows
        settle(leaving: leaving.map { ($0.row, $0.key) }, afterBatch: true, departed: departed, before: before)
    }

    /// A reconfigure (C4): the rows on screen among `rows` are configured again, in their cells.
    public mutating func reconfigure(rows indexes: [Int]) {
        guard hasLaidOut else { return }
        for row in indexes where windowRange.contains(row) {
            let cell = cells[rows[row].key]!
            configureCounts[cell] += 1
            calls.append(.configure(row: row, cell: cell))
        }
    }

    // MARK: - Internals

    private var windowRange: Range<Int> {
        let first = max(0, min(firstVisibleRow, rows.count - visibleRowCount))
        return first..<min(rows.count, first + visibleRowCount)
    }

    /// Brings the screen in line with `rows`: the cells of rows off screen leave, rows on screen
    /// without a cell get one.
    private mutating func settle(
        leaving removed: [(row: Int, key: Key)], afterBatch: Bool, forgetting: Bool = false,
        departed: [Key: Int] = [:], before: [Row]? = nil
    ) {
        firstVisibleRow = max(0, min(firstVisibleRow, rows.count - visibleRowCount))
        let window = windowRange
        let onScreen = Set(window.map { rows[$0].key })
        let beforeRow: [Key: Int] = Dictionary(
            (before ?? rows).enumerated().map { ($1.key, $0) }, uniquingKeysWith: { first, _ in first })
        // Leaving: (row it tells, row before, cell).
        var leaving: [(tell: Int, order: Int, cell: Int)] = []
        if forgetting {
            for entry in removed { leaving.append((entry.row, entry.row, cells.removeValue(forKey: entry.key)!)) }
        } else {
            for entry in removed { leaving.append((entry.row, entry.row, departed[entry.key]!)) }
        }
        let nowRow: [Key: Int] = Dictionary(
            rows.enumerated().map { ($1.key, $0) }, uniquingKeysWith: { first, _ in first })
        for (key, cell) in cells where !onScreen.contains(key) {
            let row = nowRow[key]!
            leaving.append((row, beforeRow[key] ?? row, cell))
            cells[key] = nil
        }
        leaving.sort { $0.order < $1.order }
        if !afterBatch { release(leaving) }
        var fresh: [Int] = []
        for row in window where cells[rows[row].key] == nil {
            let cell = dequeue(rows[row].identifier)
            cells[rows[row].key] = cell
            configureCounts[cell] += 1
            calls.append(.configure(row: row, cell: cell))
            fresh.append(row)
        }
        if afterBatch { release(leaving) }
        for row in fresh { calls.append(.willDisplay(row: row)) }
    }

    private mutating func release(_ leaving: [(tell: Int, order: Int, cell: Int)]) {
        for entry in leaving {
            calls.append(.didEndDisplaying(row: entry.tell))
            pools[identifiers[entry.cell], default: []].append(entry.cell)
        }
    }

    private mutating func dequeue(_ identifier: String) -> Int {
        if let cell = pools[identifier]?.popLast() {
            reuseCounts[cell] += 1
            return cell
        }
        identifiers.append(identifier)
        reuseCounts.append(0)
        configureCounts.append(0)
        return identifiers.count - 1
    }
}
