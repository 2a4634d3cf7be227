// Tests of traps: a test runs itself again in child processes, one per case, each told by an
// environment variable which misuse to commit, and checks that each child trapped with its message.
// Shared by every test target, so that a trap in RippleDiff is tested the same way as one in Ripple.

import Foundation
import XCTest

/// The outcome of a test run in a child process.
public struct ChildOutcome: Sendable {
    /// The exit status, or the signal number when ``terminatedBySignal``.
    public var status: Int32
    /// Whether the child ended on a signal, as a trap does.
    public var terminatedBySignal: Bool
    /// Everything the child wrote to standard error.
    public var standardError: String
}

#if DEBUG
/// Whether the tests were built in debug, where precondition messages are printed.
public let isDebugBuild = true
#else
/// Whether the tests were built in debug, where precondition messages are printed.
public let isDebugBuild = false
#endif

/// The environment variable that tells a child-process entry test which case to run.
public let childCaseVariable = "RIPPLE_CHILD_CASE"

/// The case a child-process entry test should run, or `nil` in the normal test run.
public var childCase: String? {
    registerXCTestLeakRoots()
    return ProcessInfo.processInfo.environment[childCaseVariable]
}

/// The case a child-process entry test (one named `test_childProcessEntry`) runs. In the normal
/// test run it skips the test: an entry point checks nothing itself (its parent test checks how
/// each child ended), so it must not count as a test that passed.
///
/// - Returns: The case named by `RIPPLE_CHILD_CASE`.
/// - Throws: `XCTSkip` in the normal test run.
public func childProcessCase() throws -> String {
    guard let name = childCase else {
        throw XCTSkip("a child-process entry point: it runs only in the child processes of its parent test")
    }
    return name
}

/// Runs the test `testName` (such as `"RippleTests.Class/method"`) of this test binary in child processes,
/// once per case (each with `RIPPLE_CHILD_CASE` set to it), all at the same time, and returns how
/// each ended.
///
/// Linux only: there `swift test` runs the tests from an executable that takes a test name. On Apple
/// platforms the bundle is hosted by `xctest`, so the calling test is skipped.
public func runChildTests(_ testName: String, cases: [String]) throws -> [String: ChildOutcome] {
    registerXCTestLeakRoots()
    #if !os(Linux)
    try XCTSkipIf(true, "child-process tests run on Linux only")
    #endif
    let executable = URL(fileURLWithPath: CommandLine.arguments[0])
    var running: [(String, Process, Pipe)] = []
    for name in cases {
        let process = Process()
        process.executableURL = executable
        process.arguments = [testName]
        var environment = ProcessInfo.processInfo.environment
        environment[childCaseVariable] = name
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        running.append((name, process, errors))
    }
    var outcomes: [String: ChildOutcome] = [:]
    for (name, process, errors) in running {
        let data = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        outcomes[name] = ChildOutcome(
            status: process.terminationStatus,
            terminatedBySignal: process.terminationReason == .uncaughtSignal,
            standardError: String(decoding: data, as: UTF8.self))
    }
    return outcomes
}

/// Runs each case of `testName` in a child process and asserts that it traps with its message.
///
/// - Parameters:
///   - testName: The child-process entry, such as `RippleTests.SomeTests/test_childProcessEntry`.
///   - expected: For each case, a part of the trap message it must print.
///   - file: The file to report failures in.
///   - line: The line to report failures at.
public func assertChildCasesTrap(
    _ testName: String, expected: [String: String], file: StaticString = #filePath, line: UInt = #line
) throws {
    try XCTSkipUnless(isDebugBuild, "precondition messages are printed only in debug builds")
    let outcomes = try runChildTests(testName, cases: Array(expected.keys))
    for (name, message) in expected.sorted(by: { $0.key < $1.key }) {
        guard let outcome = outcomes[name] else {
            XCTFail("\(name): no outcome", file: file, line: line)
            continue
        }
        XCTAssertTrue(
            outcome.terminatedBySignal, "\(name): expected a trap, got exit status \(outcome.status)",
            file: file, line: line)
        XCTAssertTrue(
            outcome.standardError.contains(message),
            "\(name): expected \"\(message)\" in:\n\(outcome.standardError.prefix(600))", file: file, line: line)
    }
}
