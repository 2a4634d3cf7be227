import Dispatch
import XCTest

/// Waits, running the main run loop, until the main queue has run everything queued on it before
/// this call. Call it on the main thread outside main-queue work, as XCTest runs a synchronous
/// test. A `@MainActor` Swift Testing test, or an `async` test on the main actor, runs inside a
/// main-queue job, where this wait cannot let the main queue run: it awaits
/// ``waitForMainQueue()`` instead.
///
/// Past the timeout it records a failure in the framework running the test: a Swift Testing
/// issue when it is called from a Swift Testing test, an XCTest failure otherwise.
///
/// - Parameters:
///   - timeout: How long to wait, in seconds; a failure is recorded past it.
///   - fileID: The file to report a failure in, for Swift Testing.
///   - file: The file to report a failure in (its path).
///   - line: The line to report a failure at.
///   - column: The column to report a failure at, for Swift Testing.
public func waitForMainQueue(
    timeout: Double = 30, fileID: String = #fileID, file: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
) {
    if !_runMainQueue(timeout: timeout) {
        TestFailure(
            "the main queue did not drain within \(timeout) s", fileID: fileID, filePath: file, line: line,
            column: column
        ).record()
    }
}

/// Suspends until the main queue has run everything queued on it before this call: the
/// ``waitForMainQueue(timeout:fileID:file:line:column:)`` of an `async` test, which lets the main queue run
/// meanwhile.
public func waitForMainQueue() async {
    await withCheckedContinuation { (resumed: CheckedContinuation<Void, Never>) in
        DispatchQueue.main.async { resumed.resume() }
    }
}
