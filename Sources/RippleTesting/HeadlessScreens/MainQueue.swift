import Dispatch
import XCTest

/// Waits, running the main run loop, until the main queue has run everything queued on it before
/// this call. Call it on the main thread, as XCTest runs tests.
///
/// - Parameters:
///   - timeout: How long to wait, in seconds; a failure is recorded past it.
///   - file: The file to report a failure in.
///   - line: The line to report a failure at.
public func waitForMainQueue(timeout: Double = 30, file: StaticString = #filePath, line: UInt = #line) {
    if !_runMainQueue(timeout: timeout, pausing: false) {
        XCTFail("the main queue did not drain within \(timeout) s", file: file, line: line)
    }
}

/// Suspends until the main queue has run everything queued on it before this call: the
/// ``waitForMainQueue(timeout:file:line:)`` of an `async` test, which lets the main queue run
/// meanwhile.
public func waitForMainQueue() async {
    await withCheckedContinuation { (resumed: CheckedContinuation<Void, Never>) in
        DispatchQueue.main.async { resumed.resume() }
    }
}
