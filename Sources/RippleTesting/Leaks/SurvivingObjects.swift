// The non-asserting half of the leak checks: which of some objects outlive the closure that made
// them. Usable from any test framework, and it reports nothing; `assertDeallocated` turns the answer
// into a failure of the framework that runs the test (Reporting/TestFailure.swift).

import Dispatch
import Ripple
import XCTest

/// Runs `makeObjects`, keeps only weak references to the objects it returns, and returns a label
/// for each one that is still alive afterwards; an empty array means that every object was
/// deallocated.
///
/// Each label is the object's position in the returned array and its type, for example
/// `"#1 ObservableCollection<String>"`.
///
/// <!-- swift
/// import Testing
///
/// final class NotesPresenter: Sendable {
///     let notes = ObservableCollection<String>()
/// }
/// -->
/// ```swift
/// @Test func presenterDoesNotLeak() {
///     let survivors = survivingObjects {
///         let presenter = NotesPresenter()
///         return [presenter, presenter.notes]
///     }
///     #expect(survivors.isEmpty)
/// }
/// ```
///
/// - Parameters:
///   - timeout: How long to wait, in seconds, for objects released asynchronously; `0`, the default,
///     checks once. On the main thread the wait keeps the main run loop turning. A safety net, not
///     a timing assertion.
///   - makeObjects: Creates the objects and returns those to watch.
/// - Returns: The labels of the objects still alive, in the order `makeObjects` returned them.
///
/// In `async` code, `await survivingObjects …` calls the overload that suspends instead.
// Disfavored: in async code the suspending overloads must win over this blocking one, even for a
// call such as `survivingObjects(timeout: 5) { … }`, whose argument count matches this one's.
@_disfavoredOverload
public func survivingObjects(timeout: Double = 0, _ makeObjects: () throws -> [AnyObject]) rethrows -> [String] {
    let watchlist = Watchlist(try makeObjects())
    if timeout > 0 && !watchlist.survivors.isEmpty {
        watchlist.waitForRelease(timeout: timeout)
    }
    return watchlist.survivors
}

/// Runs `makeObjects`, keeps only weak references to the objects it returns, and returns a label
/// for each one that is still alive afterwards, suspending (never blocking) while it waits.
///
/// - Parameters:
///   - timeout: How long to wait, in seconds, for objects released asynchronously; `0` checks once.
///   - isolation: The caller's actor; `makeObjects` runs there. Leave the default.
///   - makeObjects: Creates the objects and returns those to watch.
/// - Returns: The labels of the objects still alive, in the order `makeObjects` returned them.
public func survivingObjects(
    timeout: Double = 0,
    isolation: isolated (any Actor)? = #isolation,
    _ makeObjects: () async throws -> [AnyObject]
) async rethrows -> [String] {
    let watchlist = Watchlist(try await makeObjects())
    await watchlist.waitForRelease(timeout: timeout)
    return watchlist.survivors
}

/// Runs `makeObjects`, keeps only weak references to the objects it returns, and returns a label
/// for each one that is still alive afterwards, suspending (never blocking) while it waits.
///
/// The same as the overload whose `makeObjects` is `async`, for a closure that does not `await`.
/// Swift picks this one in `async` code; without it, such a call would pick the blocking
/// overload, which would hold the caller's actor (the main actor, in a `@MainActor` test) while it
/// waits, so work queued there could not release anything.
///
/// ```swift
/// @MainActor
/// @Test func rowsAreReleased() async {
///     let survivors = await survivingObjects(timeout: 5) {
///         let screen = HeadlessTableScreen(collection: ObservableCollection(["a", "b"]))
///         return [screen, screen.source]
///     }
///     #expect(survivors.isEmpty)
/// }
/// ```
///
/// - Parameters:
///   - timeout: How long to wait, in seconds, for objects released asynchronously; `0` checks once.
///   - isolation: The caller's actor; `makeObjects` runs there. Leave the default.
///   - makeObjects: Creates the objects and returns those to watch.
/// - Returns: The labels of the objects still alive, in the order `makeObjects` returned them.
public func survivingObjects(
    timeout: Double = 0,
    isolation: isolated (any Actor)? = #isolation,
    _ makeObjects: () throws -> [AnyObject]
) async rethrows -> [String] {
    let watchlist = Watchlist(try makeObjects())
    await watchlist.waitForRelease(timeout: timeout)
    return watchlist.survivors
}

/// Weak references to the watched objects, each with a label made while it was alive.
final class Watchlist: Sendable {
    private struct Entry: @unchecked Sendable {
        // @unchecked: a weak reference is only read after `init`, and weak loads are atomic.
        weak var object: AnyObject?
        let label: String
    }

    private let entries: [Entry]

    init(_ objects: [AnyObject]) {
        entries = objects.enumerated().map { index, object in
            Entry(object: object, label: "#\(index) \(String(describing: type(of: object)))")
        }
    }

    /// The labels of the objects that are still alive.
    var survivors: [String] {
        entries.compactMap { $0.object == nil ? nil : $0.label }
    }

    /// Blocks until every object is gone or `timeout` seconds have passed. XCTWaiter keeps the run
    /// loop turning meanwhile when called on the main thread, so main-queue work can release them.
    func waitForRelease(timeout: Double) {
        let expectation = XCTestExpectation(description: "watched objects deallocated")
        let stopped = LockedState(false)
        poll(UncheckedExpectation(expectation), stopped)
        _ = XCTWaiter().wait(for: [expectation], timeout: timeout)
        stopped.withLock { $0 = true }
    }

    private func poll(_ expectation: UncheckedExpectation, _ stopped: LockedState<Bool>) {
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(5)) { [self] in
            if stopped.withLock({ $0 }) { return }
            if survivors.isEmpty {
                expectation.value.fulfill()
            } else {
                poll(expectation, stopped)
            }
        }
    }

    /// Suspends until every object is gone or `timeout` seconds have passed, checking every 5 ms.
    func waitForRelease(timeout: Double, isolation: isolated (any Actor)? = #isolation) async {
        let deadline = DispatchTime.now().uptimeNanoseconds &+ Watchlist.nanoseconds(timeout)
        while !survivors.isEmpty && DispatchTime.now().uptimeNanoseconds < deadline {
            do {
                try await Task.sleep(nanoseconds: 5_000_000)
            } catch {
                await Task.yield()  // a cancelled task still checks until the deadline
            }
        }
    }

    /// `seconds` in whole nanoseconds, clamped to `0...UInt64.max / 2`.
    static func nanoseconds(_ seconds: Double) -> UInt64 {
        guard seconds > 0 else { return 0 }
        return UInt64(min(seconds * 1_000_000_000, Double(UInt64.max / 2)))
    }
}

/// Carries an expectation to the polling queue.
private struct UncheckedExpectation: @unchecked Sendable {
    // @unchecked: only `fulfill()` is called from another thread, which XCTest allows.
    let value: XCTestExpectation
    init(_ value: XCTestExpectation) { self.value = value }
}
