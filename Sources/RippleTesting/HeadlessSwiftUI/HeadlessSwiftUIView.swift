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
    /// renders again after each invalidation, until a turn of the main queue changes nothing.
    public func settle() async {
        var quietTurns = 0
        while quietTurns < 2 {
            await waitForMainQueue()
            if invalidated.isSet {
                render()
                quietTurns = 0
            } else {
                quietTurns += 1
            }
        }
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
}

/// A flag Observation's `onChange` sets from whatever thread changed the state.
private final class LockedFlag: Sendable {
    private let state = LockedState(false)

    var isSet: Bool { state.withLock { $0 } }
    func set() { state.withLock { $0 = true } }
    func clear() { state.withLock { $0 = false } }
}
