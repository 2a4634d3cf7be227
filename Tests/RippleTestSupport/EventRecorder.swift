// A thread-safe event-history spy for publishers: subscribe it, act, then assert the whole history
// at once. Modelled on OpenCombine's `TrackingSubscriber`.

import Foundation
import XCTest

/// Records every event it is handed, from any thread, so that a test can assert the whole history
/// at once and wait for a number of events.
///
/// ```swift
/// let recorder = EventRecorder<Int>()
/// let token = emitter.subscribe(on: .synchronous, recorder.handler)
/// emitter.send(1)
/// emitter.send(2)
/// recorder.assertEvents([1, 2])
/// ```
///
/// For deliveries on another queue, wait before asserting: either with an expectation
/// (``expectation(count:description:)``, required when the events arrive on the main queue, because
/// `wait(for:timeout:)` keeps the main run loop turning) or by blocking with
/// ``waitForCount(_:timeout:file:line:)`` (only from a thread the events do not need).
///
/// # Thread Safety
/// Every method may be called from any thread. The history and the pending expectations are guarded
/// by one `NSCondition`; expectations are fulfilled after it is released.
public final class EventRecorder<Event: Sendable>: @unchecked Sendable {
    // @unchecked: `recorded` and `waiting` are only touched with `condition` locked.
    private let condition = NSCondition()
    private var recorded: [Event] = []
    private var waiting: [(count: Int, expectation: XCTestExpectation)] = []

    /// Creates an empty recorder.
    public init() {
        registerXCTestLeakRoots()
    }

    /// Records one event, wakes blocked waiters and fulfills the expectations it satisfies.
    ///
    /// - Parameter event: The event.
    public func record(_ event: Event) {
        condition.lock()
        recorded.append(event)
        let count = recorded.count
        var satisfied: [XCTestExpectation] = []
        waiting.removeAll { entry in
            guard entry.count <= count else { return false }
            satisfied.append(entry.expectation)
            return true
        }
        condition.broadcast()
        condition.unlock()
        for expectation in satisfied { expectation.fulfill() }
    }

    /// A handler that records each event, for `subscribe(on:_:)` and friends.
    ///
    /// The handler holds the recorder strongly.
    public var handler: @Sendable (Event) -> Void {
        { [self] event in record(event) }
    }

    /// Every event recorded so far, in the order they were recorded.
    public var events: [Event] {
        condition.lock()
        defer { condition.unlock() }
        return recorded
    }

    /// The number of events recorded so far.
    public var count: Int {
        condition.lock()
        defer { condition.unlock() }
        return recorded.count
    }

    /// Returns the events recorded so far and forgets them.
    ///
    /// - Returns: The history before the call.
    public func takeAll() -> [Event] {
        condition.lock()
        defer {
            recorded = []
            condition.unlock()
        }
        return recorded
    }

    /// An expectation fulfilled once `count` events in total have been recorded (at once if they
    /// already have).
    ///
    /// - Parameters:
    ///   - count: The number of events to wait for, counted from the first event ever recorded.
    ///   - description: What the test waits for.
    /// - Returns: An expectation to pass to `wait(for:timeout:)` or `fulfillment(of:timeout:)`.
    public func expectation(count: Int, description: String? = nil) -> XCTestExpectation {
        let expectation = XCTestExpectation(description: description ?? "\(count) events recorded")
        condition.lock()
        let reached = recorded.count >= count
        if !reached { waiting.append((count, expectation)) }
        condition.unlock()
        if reached { expectation.fulfill() }
        return expectation
    }

    /// Blocks the calling thread until `count` events in total have been recorded, or fails the
    /// test after `timeout` seconds.
    ///
    /// Call it only from a thread that the deliveries do not need: never from the main thread when
    /// events arrive on the main queue (use ``expectation(count:description:)`` there).
    ///
    /// - Parameters:
    ///   - count: The number of events to wait for, counted from the first event ever recorded.
    ///   - timeout: A safety net against a hang, in seconds; not a timing assertion.
    ///   - file: The file to report a timeout in.
    ///   - line: The line to report a timeout at.
    /// - Returns: Whether the events arrived in time.
    @discardableResult
    public func waitForCount(
        _ count: Int,
        timeout: TimeInterval = 10,
        file: StaticString = #filePath,
        line: UInt = #line
    ) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        while recorded.count < count {
            if !condition.wait(until: deadline) { break }
        }
        let got = recorded.count
        condition.unlock()
        if got < count {
            XCTFail("timed out after \(timeout) s waiting for \(count) events; got \(got)", file: file, line: line)
            return false
        }
        return true
    }
}

extension EventRecorder where Event: Equatable {
    /// Asserts that the whole history equals `expected`, naming the first difference.
    ///
    /// - Parameters:
    ///   - expected: Every event that should have been recorded, in order.
    ///   - message: Context to add to a failure.
    ///   - file: The file to report a failure in.
    ///   - line: The line to report a failure at.
    public func assertEvents(
        _ expected: [Event],
        _ message: @autoclosure () -> String = "",
        file: StaticString = #filePath,
        line: UInt = #line
    ) {
        let actual = events
        if let mismatch = firstMismatch(actual, expected, by: ==) {
            let context = message()
            XCTFail(
                "\(context.isEmpty ? "" : "\(context): ")\(mismatch)\n  recorded: \(actual)\n  expected: \(expected)",
                file: file, line: line)
        }
    }
}
