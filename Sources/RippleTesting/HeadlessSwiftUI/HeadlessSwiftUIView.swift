import Observation
import Ripple
import XCTest

/// A stand-in for a SwiftUI view on Linux: a body that reads a presenter's observable state
/// (`ObservedList`, `ObservedCommand`), rendered again whenever Observation says
/// what it read changed, as SwiftUI does, and counted.
///
/// ```swift
/// @MainActor
/// final class ShelfTests: XCTestCase {
///     func testAnAppendRendersOnce() async {
///         let books = ObservableCollection(["Dune"])
///         let shown = ObservedList(books)
///         let view = HeadlessSwiftUIView { shown.elements }
///         books.append("Emma")
///         await view.settle()
///         XCTAssertEqual(view.output, ["Dune", "Emma"])
///         XCTAssertEqual(view.renderCount, 2)   // the first render, and one for the event
///     }
/// }
/// ```
///
/// ``appear(_:)`` and ``disappear(_:)`` forward `onAppear` and `onDisappear` to a presenter, as a
/// SwiftUI view does with `.onAppear { presenter.receiveOnAppear() }` and
/// `.onDisappear { presenter.receiveOnDisappear() }`.
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
@MainActor
public final class HeadlessSwiftUIView<Output> {
    private let body: @MainActor () -> Output
    private let invalidated = LockedFlag()

    /// What the body returned when it last rendered.
    public private(set) var output: Output

    /// How many times the body rendered: once when created, then once per invalidation that a
    /// settle found.
    public private(set) var renderCount = 0

    /// Renders `body` once, tracking what it reads.
    ///
    /// - Parameter body: Reads the state the view shows and returns it (for example the titles of
    ///   its rows).
    public init(_ body: @escaping @MainActor () -> Output) {
        self.body = body
        let flag = invalidated
        output = withObservationTracking(body) { flag.set() }
        renderCount = 1
    }

    /// Whether something the body read has changed since it last rendered.
    public var isInvalidated: Bool { invalidated.isSet }

    /// Renders again, as SwiftUI does after an invalidation.
    public func render() {
        invalidated.clear()
        let flag = invalidated
        output = withObservationTracking(body) { flag.set() }
        renderCount += 1
    }

    /// Lets the main queue deliver what is queued (collections' events, commands' state), and
    /// renders again after each invalidation, until a turn of the main queue leaves the body
    /// valid, none of `commands` executing and none of Ripple's deliveries on its way. While one of
    /// `commands` runs, it sleeps until that command's executing state changes; without
    /// `commands`, it waits for no run: what a run the view does not name is doing, it cannot see.
    ///
    /// - Parameters:
    ///   - commands: Commands to wait for: a presenter's refresh, or a list's pagination command.
    ///   - timeout: How long to wait for the commands, in seconds; past it, a failure names them.
    ///   - fileID: The file to report a failure in, for Swift Testing.
    ///   - file: The file to report a failure in (its path).
    ///   - line: The line to report a failure at.
    ///   - column: The column to report a failure at, for Swift Testing.
    public func settle(
        awaiting commands: any CommandType..., timeout: Double = 30, fileID: String = #fileID,
        file: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        let deadline = _Deadline(seconds: timeout)
        let signal = commands.isEmpty ? nil : _SettleSignal(following: commands)
        var running: [any CommandType]
        // Settled after a turn of the main queue that leaves the body valid, none of `commands`
        // running and none of Ripple's deliveries on its way.
        repeat {
            running = commands.filter(\.isExecuting)
            if let signal, !running.isEmpty {
                if deadline.hasPassed {
                    let names = running.map { "\(Swift.type(of: $0))" }.joined(separator: ", ")
                    return TestFailure(
                        "HeadlessSwiftUIView.settle(): not settled after \(timeout) s: executing: \(names)",
                        fileID: fileID, filePath: file, line: line, column: column
                    ).record()
                }
                // Woken when one of them changes its executing state, not on a timer.
                await signal.wait(upTo: deadline.remainingSeconds)
            }
            await waitForMainQueue()
            if invalidated.isSet { render() }
            running = commands.filter(\.isExecuting)
        } while !running.isEmpty || invalidated.isSet || MainQueueDeliveries.inTransit > 0
    }

    /// Forwards `onAppear` to `presenter` (`Presenter.receiveOnAppear()`).
    ///
    /// - Parameter presenter: The presenter behind the view.
    public func appear<ViewType>(_ presenter: Presenter<ViewType>) {
        presenter.receiveOnAppear()
    }

    /// Forwards `onDisappear` to `presenter` (`Presenter.receiveOnDisappear()`).
    ///
    /// - Parameter presenter: The presenter behind the view.
    public func disappear<ViewType>(_ presenter: Presenter<ViewType>) {
        presenter.receiveOnDisappear()
    }

    /// Appears with `view` as the presenter's view, as the SwiftUI modifier
    /// `presenter(_:view:)` does on `onAppear` (`Presenter.receiveOnAppear(of:)`).
    ///
    /// - Parameters:
    ///   - presenter: The presenter behind the view.
    ///   - view: The object that adopts the presenter's view protocol.
    public func appear<ViewType>(_ presenter: Presenter<ViewType>, view: ViewType) {
        presenter.receiveOnAppear(of: view)
    }

    /// Disappears and lets go of `view`, as the SwiftUI modifier `presenter(_:view:)` does on
    /// `onDisappear` (`Presenter.receiveOnDisappear(of:)`).
    ///
    /// - Parameters:
    ///   - presenter: The presenter behind the view.
    ///   - view: The object given on appearance.
    public func disappear<ViewType>(_ presenter: Presenter<ViewType>, view: ViewType) {
        presenter.receiveOnDisappear(of: view)
    }

    /// Shows the rows `rows`, as a SwiftUI `List` does when they scroll on screen: each row's
    /// `onAppear`, which the modifier `row(_:of:)` forwards to the list's pagination.
    ///
    /// The offsets count the rows of every section in order (`ObservedRows.path(ofRow:)`): on
    /// two sections of 3 rows, `showRows(0..<6, of: list)` shows rows 0 to 2 of section 0, then
    /// rows 0 to 2 of section 1. In a flat list they are the items' offsets. Offsets past the last
    /// row are ignored. To show one row by its path, call `list.rowAppeared(at:)`.
    ///
    /// - Parameters:
    ///   - rows: The offsets of the rows that appear, across sections, in order.
    ///   - list: The observed list.
    public func showRows(_ rows: Range<Int>, of list: some ObservedRows) {
        for row in rows {
            guard let path = list.path(ofRow: row) else { continue }
            list.rowAppeared(at: path)
        }
    }

    /// Taps the row at `path`, as the modifier `row(_:of:)` forwards a tap: the row's presenter and
    /// the list's `selectItem` command hear it.
    ///
    /// - Parameters:
    ///   - path: The row's path.
    ///   - list: The observed list.
    public func tap(_ path: ElementPath, of list: some ObservedRows) {
        list.select(at: path)
    }
}

/// A flag Observation's `onChange` sets from whatever thread changed the state.
private final class LockedFlag: Sendable {
    private let state = LockedState(false)

    var isSet: Bool { state.withLock { $0 } }
    func set() { state.withLock { $0 = true } }
    func clear() { state.withLock { $0 = false } }
}
