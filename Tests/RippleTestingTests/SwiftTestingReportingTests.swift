import Dispatch
import Ripple
import Testing

@testable import RippleTesting

// RippleTesting's failing helpers under Swift Testing: each failure is an issue (`withKnownIssue`
// sees it, at the caller's line), and nothing takes the XCTest path. Their XCTest side is
// XCTestReportingTests.

/// An object a test keeps alive, or not.
private final class Node {}

/// The owner of the commands below.
private final class Owner: Sendable {}
private let owner = Owner()

/// Whether `issue` says `text` and points at `line` of this file.
private func issue(_ issue: Issue, says text: String, atLine line: Int) -> Bool {
    issue.comments.contains { $0.rawValue.contains(text) }
        && issue.sourceLocation?.fileID == #fileID
        && issue.sourceLocation?.filePath == #filePath
        && issue.sourceLocation?.line == line
}

/// Runs `body` and returns what it sent down RippleTesting's XCTest path: under Swift Testing,
/// nothing, since every failure is an issue instead.
private func xcTestFailures(_ body: () throws -> Void) rethrows -> [String] {
    let captured = ObservableCollection<String>()
    try TestFailure.$xcTestRecorder.withValue(TestFailure.Recorder { captured.append($0.message) }, operation: body)
    return Array(captured.snapshot)
}

/// The `async` form of `xcTestFailures(_:)`.
private func xcTestFailures(
    isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Void
) async rethrows -> [String] {
    let captured = ObservableCollection<String>()
    try await TestFailure.$xcTestRecorder.withValue(
        TestFailure.Recorder { captured.append($0.message) }, operation: body)
    return Array(captured.snapshot)
}

@Suite("RippleTesting reports to Swift Testing")
struct SwiftTestingReportingTests {
    // MARK: - The routing

    @Test func aSwiftTestingTestHasACurrentTest_soFailuresAreIssues() {
        #expect(Test.current != nil)
        let xcTest = xcTestFailures {
            let line = #line + 2
            withKnownIssue {
                TestFailure("boom", fileID: #fileID, filePath: #filePath, line: #line, column: #column).record()
            } matching: {
                issue($0, says: "boom", atLine: line)
            }
        }
        #expect(xcTest == [])
    }

    @Test func anIssueForAWrappersForwardedFileAndLine_namesThatFile() {
        let failure = TestFailure(
            "x", fileID: "RippleTestingTests/Wrapper.swift", filePath: "/src/Tests/Caller.swift", line: 3, column: 1)
        #expect(failure.consistentFileID == "RippleTestingTests/Caller.swift")
        let consistent = TestFailure(
            "x", fileID: "RippleTestingTests/Caller.swift", filePath: "/src/Tests/Caller.swift", line: 3, column: 1)
        #expect(consistent.consistentFileID == "RippleTestingTests/Caller.swift")
    }

    // MARK: - assertDeallocated

    @Test func assertDeallocated_recordsAnIssue_forASurvivor() {
        var kept: [AnyObject] = []
        let xcTest = xcTestFailures {
            let line = #line + 2
            withKnownIssue {
                assertDeallocated("kept") {
                    let node = Node()
                    kept.append(node)
                    return [Node(), node]
                }
            } matching: {
                issue($0, says: "kept: still alive: #1 Node", atLine: line)
            }
        }
        #expect(xcTest == [])
        kept.removeAll()
    }

    @Test func assertDeallocated_passes_whenEverythingIsReleased() {
        let xcTest = xcTestFailures {
            assertDeallocated { [Node(), Node()] }
        }
        #expect(xcTest == [])
    }

    @MainActor
    @Test func asyncAssertDeallocated_recordsAnIssue_forASurvivor() async {
        var kept: [AnyObject] = []
        let xcTest = await xcTestFailures {
            let line = #line + 2
            await withKnownIssue {
                await assertDeallocated(timeout: 0.05) {
                    await Task.yield()
                    let node = Node()
                    kept.append(node)
                    return [node]
                }
            } matching: {
                issue($0, says: "still alive: #0 Node", atLine: line)
            }
        }
        #expect(xcTest == [])
        kept.removeAll()
    }

    @MainActor
    @Test func asyncAssertDeallocated_withASyncClosure_recordsAnIssue_forASurvivor() async {
        var kept: [AnyObject] = []
        let xcTest = await xcTestFailures {
            let line = #line + 2
            await withKnownIssue {
                await assertDeallocated {
                    let node = Node()
                    kept.append(node)
                    return [node]
                }
            } matching: {
                issue($0, says: "still alive: #0 Node", atLine: line)
            }
        }
        #expect(xcTest == [])
        kept.removeAll()
    }

    /// An object released on the main queue a little later passes once the check waits for it.
    @MainActor
    @Test func asyncAssertDeallocated_passes_whenTheMainQueueReleasesTheObject() async {
        let xcTest = await xcTestFailures {
            await assertDeallocated(timeout: 5) {
                let node = Node()
                let held = UncheckedSendableNode(node)
                DispatchQueue.main.async { withExtendedLifetime(held) {} }
                return [node]
            }
        }
        #expect(xcTest == [])
    }

    /// `survivingObjects` reports nothing: it returns the survivors.
    @Test func survivingObjects_recordsNothing() {
        var kept: [AnyObject] = []
        let xcTest = xcTestFailures {
            let survivors = survivingObjects {
                let node = Node()
                kept.append(node)
                return [node]
            }
            #expect(survivors == ["#0 Node"])
        }
        #expect(xcTest == [])
        kept.removeAll()
    }

    // MARK: - The screens' settle and the main queue

    @MainActor
    @Test func settle_recordsAnIssue_pastItsTimeout() async {
        let pending = ObservableCollection<CommandRun>()
        let save = Command(delegate: owner, queue: DispatchQueue.global(), work: { _, _, done in pending.append(done) })
        let screen = HeadlessTableScreen(collection: ObservableCollection(["a"]))
        screen.register(HeadlessCell<String>.self)
        screen.track(save, as: "save")
        #expect(save.execute().refusal == nil)
        let xcTest = await xcTestFailures {
            let line = #line + 2
            await withKnownIssue {
                await screen.settle(timeout: 0.05)
            } matching: {
                issue(
                    $0, says: "HeadlessTableScreen.settle(): not settled after 0.05 s: save is executing", atLine: line)
            }
        }
        #expect(xcTest == [])
        for run in pending.snapshot { run.succeed() }
        await screen.settle()
        #expect(screen.shownItems == ["a"])
    }

    /// The synchronous waits need a main thread that the main queue is not running. Under Swift
    /// Testing a main-actor test runs inside a main-queue job (on Linux, on the thread that drains
    /// the main queue after `dispatchMain()`), so they fail there, as an issue; the `async` forms
    /// are the ones to use.
    @MainActor
    @Test func synchronousWaits_onTheMainActor_recordAnIssue() {
        let screen = HeadlessTableScreen(collection: ObservableCollection(["a"]))
        screen.register(HeadlessCell<String>.self)
        let xcTest = xcTestFailures {
            let waitLine = #line + 2
            withKnownIssue {
                waitForMainQueue(timeout: 0.05)
            } matching: {
                issue($0, says: "the main queue did not drain within 0.05 s", atLine: waitLine)
            }
            let settleLine = #line + 2
            withKnownIssue {
                screen.settle(timeout: 0.05)
            } matching: {
                issue(
                    $0, says: "HeadlessTableScreen.settle(): not settled after 0.05 s: the main queue did not drain",
                    atLine: settleLine)
            }
        }
        #expect(xcTest == [])
    }

    /// Off the main actor, the synchronous wait passes once the main queue has run what was queued.
    @Test func waitForMainQueue_offTheMainActor_passes() {
        let ran = ObservableCollection<Bool>()
        let xcTest = xcTestFailures {
            DispatchQueue.main.async { ran.append(true) }
            waitForMainQueue(timeout: 10)
        }
        #expect(xcTest == [])
        #expect(ran.snapshot == [true])
    }

    @MainActor
    @Test func settle_passes_onceTheScreenIsSettled() async {
        let items = ObservableCollection(["a", "b"])
        let screen = HeadlessCollectionScreen(collection: items)
        screen.register(HeadlessCell<String>.self)
        let xcTest = await xcTestFailures {
            await screen.settle()
            items.append("c")
            await screen.settle(timeout: 5)
        }
        #expect(xcTest == [])
        #expect(screen.shownItems == ["a", "b", "c"])
        #expect(screen.collectionView.violations == [])
    }
}

/// Carries a node to the main queue, which only keeps it alive.
private struct UncheckedSendableNode: @unchecked Sendable {
    // @unchecked: the main-queue block only holds the reference; nothing reads or writes the node.
    let node: Node
    init(_ node: Node) { self.node = node }
}
