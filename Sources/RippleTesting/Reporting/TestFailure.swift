// The one place where RippleTesting's helpers report a failure: in Swift Testing when a Swift
// Testing test is running on the current task, in XCTest otherwise.

import XCTest

#if canImport(Testing)
import Testing
#endif

/// A failure that a RippleTesting helper reports, at its caller's source location.
///
/// Every helper that fails a test (`assertDeallocated`, `waitForMainQueue`, the screens' `settle`)
/// makes one and calls ``record()``, which picks the framework:
/// - with Swift Testing, `Test.current` is set on the test's task: the failure is an
///   `Issue.record(_:sourceLocation:)` at the caller's `fileID`, `filePath`, `line` and `column`,
///   so `withKnownIssue { … }` sees it;
/// - otherwise it is an `XCTFail(_:file:line:)` at the caller's `filePath` and `line`.
///
/// `Test.current` is a task-local value: called off the test's task (in a detached task, or a
/// Dispatch block), a helper takes the XCTest path, which records nothing outside an XCTest test.
/// The helpers report on their caller's task, so this only matters to a caller that moves them.
///
/// Where the Testing module is missing (`#if canImport(Testing)` fails), only the XCTest path is
/// compiled.
struct TestFailure: Sendable {
    /// What went wrong, as the test log shows it.
    var message: String
    /// The caller's `#fileID`: `Module/File.swift`.
    var fileID: String
    /// The caller's `#filePath`, as XCTest wants it.
    var filePath: StaticString
    /// The caller's `#line`.
    var line: UInt
    /// The caller's `#column`.
    var column: UInt

    init(_ message: String, fileID: String, filePath: StaticString, line: UInt, column: UInt) {
        self.message = message
        self.fileID = fileID
        self.filePath = filePath
        self.line = line
        self.column = column
    }

    /// Records the failure in the framework that runs the current test (see ``TestFailure``).
    func record() {
        #if canImport(Testing)
        if Test.current != nil {
            Issue.record(
                Comment(rawValue: message),
                sourceLocation: SourceLocation(
                    fileID: consistentFileID, filePath: "\(filePath)", line: Int(line), column: Int(column)))
            return
        }
        #endif
        if let recorder = TestFailure.xcTestRecorder {
            recorder.record(self)
        } else {
            XCTFail(message, file: filePath, line: line)
        }
    }

    /// `fileID`, or, when a caller forwarded its own caller's `file:` and `line:` but not `fileID:`
    /// (a wrapper written for XCTest's two parameters), the file name of `filePath` in `fileID`'s
    /// module, so that Swift Testing does not show one file's name with another file's line.
    var consistentFileID: String {
        let path = "\(filePath)"
        let pathName = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
        let parts = fileID.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1] != pathName, !pathName.isEmpty else { return fileID }
        return "\(parts[0])/\(pathName)"
    }

    /// Test hook: when set, takes the failures that would go to `XCTFail`, so that RippleTesting's
    /// own tests can check the XCTest path without failing their run. Swift Testing's path ignores
    /// it: the routing decision itself is what those tests check.
    ///
    /// A class, not an optional closure: Swift 6.3.1 miscompiles `withValue` of a task-local
    /// optional closure in optimized builds (it crashes in `swift_task_localValuePush`), which the
    /// release AddressSanitizer step of `.ci/run` hit.
    @TaskLocal static var xcTestRecorder: Recorder?

    /// Takes the failures that would go to `XCTFail` (``xcTestRecorder``).
    final class Recorder: Sendable {
        let record: @Sendable (TestFailure) -> Void
        init(_ record: @escaping @Sendable (TestFailure) -> Void) { self.record = record }
    }
}
