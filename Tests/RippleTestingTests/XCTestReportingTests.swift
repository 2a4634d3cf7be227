import Dispatch
import Ripple
import Testing
import XCTest

@testable import RippleTesting

// RippleTesting's failing helpers under XCTest: no Swift Testing test is running (`Test.current`
// is nil), so each failure takes the XCTest path, `XCTFail` at the caller's file and line. The
// tests capture that path with `TestFailure.xcTestRecorder`, so that the failures they expect do
// not fail the run; `XCTestEndToEndReportingTests` lets one reach `XCTFail` itself. Their Swift
// Testing side is SwiftTestingReportingTests.

/// An object a test keeps alive, or not.
private final class Node {}

/// The owner of the commands below.
private final class Owner: Sendable {}
private let owner = Owner()

/// Runs `body` and returns the failures it sent down RippleTesting's XCTest path, instead of
/// failing the test with them.
private func xcTestFailures(_ body: () throws -> Void) rethrows -> [TestFailure] {
    let captured = ObservableCollection<TestFailure>()
    try TestFailure.$xcTestRecorder.withValue(TestFailure.Recorder { captured.append($0) }, operation: body)
    return Array(captured.snapshot)
}

/// The `async` form of `xcTestFailures(_:)`.
private func xcTestFailures(
    isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Void
) async rethrows -> [TestFailure] {
    let captured = ObservableCollection<TestFailure>()
    try await TestFailure.$xcTestRecorder.withValue(TestFailure.Recorder { captured.append($0) }, operation: body)
    return Array(captured.snapshot)
}

/// Asserts that `failures` is one failure that says `text`, located at `line` of this file.
private func assertOneFailure(
    _ failures: [TestFailure], says text: String, atLine line: UInt, file: StaticString = #filePath,
    callerLine: UInt = #line
) {
    XCTAssertEqual(failures.count, 1, "\(failures.map(\.message))", file: file, line: callerLine)
    guard let failure = failures.first else { return }
    XCTAssertTrue(failure.message.contains(text), failure.message, file: file, line: callerLine)
    XCTAssertEqual("\(failure.filePath)", "\(#filePath)", file: file, line: callerLine)
    XCTAssertEqual(failure.fileID, #fileID, file: file, line: callerLine)
    XCTAssertEqual(failure.line, line, file: file, line: callerLine)
}

/// The synchronous helpers, on the main thread where XCTest runs a synchronous test.
final class XCTestReportingTests: XCTestCase {
    func test_anXCTestTestHasNoCurrentSwiftTestingTest_soFailuresGoToXCTest() {
        XCTAssertNil(Test.current)
        var line: UInt = 0
        let failures = xcTestFailures {
            line = #line + 1
            TestFailure("boom", fileID: #fileID, filePath: #filePath, line: #line, column: #column).record()
        }
        assertOneFailure(failures, says: "boom", atLine: line)
    }

    func test_assertDeallocated_failsForASurvivor() {
        var kept: [AnyObject] = []
        var line: UInt = 0
        let failures = xcTestFailures {
            line = #line + 1
            assertDeallocated("kept") {
                let node = Node()
                kept.append(node)
                return [Node(), node]
            }
        }
        assertOneFailure(failures, says: "kept: still alive: #1 Node", atLine: line)
        kept.removeAll()
    }

    func test_assertDeallocated_passes_whenEverythingIsReleased() {
        let failures = xcTestFailures {
            assertDeallocated(timeout: 5) { [Node(), Node()] }
        }
        XCTAssertEqual(failures.map(\.message), [])
    }

    func test_waitForMainQueue_passes_whenTheMainQueueDrains() {
        let ran = ObservableCollection<Bool>()
        let failures = xcTestFailures {
            DispatchQueue.main.async { ran.append(true) }
            waitForMainQueue(timeout: 5)
        }
        XCTAssertEqual(failures.map(\.message), [])
        XCTAssertEqual(ran.snapshot, [true])
    }

    func test_synchronousSettle_failsPastItsTimeout_andPassesOnceSettled() {
        MainActor.assumeIsolated {
            let pending = ObservableCollection<CommandRun>()
            let save = Command(
                delegate: owner, queue: DispatchQueue.global(), work: { _, _, done in pending.append(done) })
            let screen = HeadlessTableScreen(collection: ObservableCollection(["a"]))
            screen.register(HeadlessCell<String>.self)
            screen.track(save, as: "save")
            XCTAssertNil(save.execute().refusal)
            var line: UInt = 0
            let failures = xcTestFailures {
                line = #line + 1
                screen.settle(timeout: 0.05)
            }
            assertOneFailure(
                failures, says: "HeadlessTableScreen.settle(): not settled after 0.05 s: save is executing",
                atLine: line)

            for run in pending.snapshot { run.succeed() }
            let none = xcTestFailures { screen.settle(timeout: 5) }
            XCTAssertEqual(none.map(\.message), [])
            XCTAssertEqual(screen.shownItems, ["a"])
        }
    }
}

/// The `async` helpers, and the synchronous waits called where they cannot work: inside a
/// main-actor job, which the main queue is running, so it cannot run anything else meanwhile.
@MainActor
final class XCTestAsyncReportingTests: XCTestCase {
    func test_asyncAssertDeallocated_failsForASurvivor() async {
        var kept: [AnyObject] = []
        var line: UInt = 0
        let failures = await xcTestFailures {
            line = #line + 1
            await assertDeallocated(timeout: 0.05) {
                await Task.yield()
                let node = Node()
                kept.append(node)
                return [node]
            }
        }
        assertOneFailure(failures, says: "still alive: #0 Node", atLine: line)
        kept.removeAll()
    }

    func test_asyncAssertDeallocated_withASyncClosure_failsForASurvivor() async {
        var kept: [AnyObject] = []
        var line: UInt = 0
        let failures = await xcTestFailures {
            line = #line + 1
            await assertDeallocated {
                let node = Node()
                kept.append(node)
                return [node]
            }
        }
        assertOneFailure(failures, says: "still alive: #0 Node", atLine: line)
        kept.removeAll()
    }

    func test_asyncAssertDeallocated_passes_whenTheMainQueueReleasesTheObject() async {
        let failures = await xcTestFailures {
            await assertDeallocated(timeout: 5) {
                let node = Node()
                let held = UncheckedSendableNode(node)
                DispatchQueue.main.async { withExtendedLifetime(held) {} }
                return [node]
            }
        }
        XCTAssertEqual(failures.map(\.message), [])
    }

    func test_asyncSettle_failsPastItsTimeout_andPassesOnceSettled() async {
        let pending = ObservableCollection<CommandRun>()
        let save = Command(delegate: owner, queue: DispatchQueue.global(), work: { _, _, done in pending.append(done) })
        let screen = HeadlessCollectionScreen(collection: ObservableCollection(["a"]))
        screen.register(HeadlessCell<String>.self)
        screen.track(save, as: "save")
        XCTAssertNil(save.execute().refusal)
        var line: UInt = 0
        let failures = await xcTestFailures {
            line = #line + 1
            await screen.settle(timeout: 0.05)
        }
        assertOneFailure(
            failures, says: "HeadlessCollectionScreen.settle(): not settled after 0.05 s: save is executing",
            atLine: line)

        for run in pending.snapshot { run.succeed() }
        let none = await xcTestFailures { await screen.settle(timeout: 5) }
        XCTAssertEqual(none.map(\.message), [])
        XCTAssertEqual(screen.shownItems, ["a"])
    }

    /// The synchronous wait, inside a main-actor job: the main queue is busy running this test, so
    /// the block the wait queues cannot run, and the wait fails past its timeout.
    func test_waitForMainQueue_failsPastItsTimeout() async {
        var line: UInt = 0
        let failures = xcTestFailures {
            line = #line + 1
            waitForMainQueue(timeout: 0.05)
        }
        assertOneFailure(failures, says: "the main queue did not drain within 0.05 s", atLine: line)
    }

    /// `settle(awaitingRuns: false)` fails once when the main queue does not drain (here: a
    /// synchronous wait inside a main-queue job), at the caller's line.
    func test_settleNotAwaitingRuns_failsPastItsTimeout() async {
        let screen = HeadlessTableScreen(collection: ObservableCollection(["a"]))
        screen.register(HeadlessCell<String>.self)
        var line: UInt = 0
        let failures = xcTestFailures {
            line = #line + 1
            screen.settle(awaitingRuns: false, timeout: 0.05)
        }
        assertOneFailure(
            failures, says: "HeadlessTableScreen.settle(): not settled after 0.05 s: the main queue did not drain",
            atLine: line)
    }
}

/// One failure that reaches `XCTFail` itself, with no test hook: this class takes the failures that
/// say "still alive" off the run and keeps them.
final class XCTestEndToEndReportingTests: XCTestCase {
    /// The failures recorded here, as `file:line: description`.
    private let recorded = ObservableCollection<String>()

    #if canImport(Darwin)
    override func record(_ issue: XCTIssue) {
        if issue.compactDescription.contains("still alive") {
            let location = issue.sourceCodeContext.location
            recorded.append("\(location?.fileURL.path ?? ""):\(location?.lineNumber ?? 0): \(issue.compactDescription)")
        } else {
            super.record(issue)
        }
    }
    #else
    override func recordFailure(
        withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
    ) {
        if description.contains("still alive") {
            recorded.append("\(filePath):\(lineNumber): \(description)")
        } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }
    #endif

    func test_assertDeallocated_callsXCTFail_atTheCallersFileAndLine() {
        var kept: [AnyObject] = []
        let line = #line + 1
        assertDeallocated {
            let node = Node()
            kept.append(node)
            return [node]
        }
        XCTAssertEqual(recorded.snapshot.count, 1)
        let failure = recorded.snapshot.first ?? ""
        XCTAssertTrue(failure.hasPrefix("\(#filePath):\(line): "), failure)
        XCTAssertTrue(failure.contains("still alive: #0 Node"), failure)
        kept.removeAll()
    }
}

/// Carries a node to the main queue, which only keeps it alive.
private struct UncheckedSendableNode: @unchecked Sendable {
    // @unchecked: the main-queue block only holds the reference; nothing reads or writes the node.
    let node: Node
    init(_ node: Node) { self.node = node }
}
