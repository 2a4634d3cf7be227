import Foundation
import Ripple
import RippleTestSupport
import XCTest

/// `execute` called from inside its own sync body. Under `.cancelRunning` nothing refuses such a
/// call (a sync body cannot be cancelled, and `.cancelRunning` admits every run), so each one nests
/// one run deeper; issue 13 found an unbounded recursion ending in a stack overflow, SIGSEGV and no
/// message. The command now allows 64 sync runs at once and traps with a message beyond that.
final class CommandReentrancyTests: XCTestCase {
    /// A command whose sync body calls `execute` on itself until `runs` runs have started, and
    /// records the deepest nesting it reached. The holder's reference is cleared by `finish`.
    private struct Nesting {
        let started = Locked(0)
        let depth = Locked(0)
        let deepest = Locked(0)
        let holder = Locked<Command?>(nil)

        /// The body: one level deeper, then `execute` again while fewer than `runs` have started.
        func body(runs: Int) -> @Sendable () -> Void {
            { [started, depth, deepest, holder] in
                let count = started.withLock { value -> Int in
                    value += 1
                    return value
                }
                let level = depth.withLock { value -> Int in
                    value += 1
                    return value
                }
                deepest.withLock { $0 = Swift.max($0, level) }
                if count < runs { _ = holder.current?.execute() }
                depth.withLock { $0 -= 1 }
            }
        }

        func finish() { holder.withLock { $0 = nil } }
    }

    func test_nonisolatedSyncBody_mayNestUpToTheLimit_thenUnwinds() {
        let nesting = Nesting()
        let command = Command(policy: .cancelRunning, nonisolatedPerform: nesting.body(runs: 64))
        nesting.holder.withLock { $0 = command }
        XCTAssertNil(command.execute().refusal)
        XCTAssertEqual(nesting.deepest.current, 64)
        XCTAssertEqual(nesting.depth.current, 0)
        XCTAssertFalse(command.isExecuting)
        // Ends as it started: a new run nests again from the top.
        XCTAssertNil(command.execute().refusal)
        XCTAssertEqual(nesting.deepest.current, 64)
        nesting.finish()
    }

    func test_mainActorSyncBody_mayNestUpToTheLimit() {
        let nesting = Nesting()
        let body = nesting.body(runs: 64)
        let command = Command(delegate: commandAnchor, policy: .cancelRunning, perform: { _ in body() })
        nesting.holder.withLock { $0 = command }
        XCTAssertNil(command.execute().refusal)
        XCTAssertEqual(nesting.deepest.current, 64)
        XCTAssertFalse(command.isExecuting)
        nesting.finish()
    }

    func test_otherPolicies_areBoundedWithoutTheGuard() {
        // `.ignoreWhileRunning` refuses the nested call, `.concurrent(limit: 3)` nests 3 deep, and
        // `.enqueue` runs the queued calls one after another; none nests past its limit.
        let cases: [(CommandPolicy, runs: Int, deepest: Int)] = [
            (.ignoreWhileRunning, 1, 1), (.concurrent(limit: 3), 3, 3), (.enqueue, 100, 1),
        ]
        for (policy, runs, deepest) in cases {
            let nesting = Nesting()
            let command = Command(policy: policy, nonisolatedPerform: nesting.body(runs: 100))
            nesting.holder.withLock { $0 = command }
            XCTAssertNil(command.execute().refusal, "\(policy)")
            XCTAssertEqual(nesting.started.current, runs, "\(policy)")
            XCTAssertEqual(nesting.deepest.current, deepest, "\(policy)")
            XCTAssertFalse(command.isExecuting, "\(policy)")
            nesting.finish()
        }
    }

    /// Issue 35: the limit counted the sync runs of every thread, so 65 plain calls at once, with
    /// no re-entry at all, trapped as if nested. It counts each thread's nesting now: 70 threads
    /// each execute once, all at the same time, and every run starts.
    func test_plainCallsOnManyThreadsAtOnce_neverTrap() {
        let started = Locked(0)
        let running = Locked(0)
        let deepest = Locked(0)
        let command = Command(
            policy: .cancelRunning,
            nonisolatedPerform: { _ in
                let now = running.withLock { running -> Int in
                    running += 1
                    return running
                }
                deepest.withLock { $0 = max($0, now) }
                // Counted as started only once it counts as running, so that no run can end before
                // the last one has started: 70 sync runs at once, on 70 threads.
                started.withLock { $0 += 1 }
                while started.current < 70 { usleep(1_000) }
                running.withLock { $0 -= 1 }
            })
        runOnThreads(70) { _ in
            XCTAssertNil(command.execute().refusal)
        }
        XCTAssertEqual(started.current, 70)
        XCTAssertEqual(deepest.current, 70, "70 sync runs at once, more than one thread may nest")
        XCTAssertFalse(command.isExecuting)
    }

    // MARK: - Beyond the limit (in child processes)

    /// The entry point of the child processes; skipped in a normal run.
    func test_childProcessEntry() throws {
        let name = try childProcessCase()
        let nesting = Nesting()
        let command: Command
        switch name {
        case "mainActorUnbounded":
            let body = nesting.body(runs: .max)
            command = Command(delegate: commandAnchor, policy: .cancelRunning, perform: { _ in body() })
        case "nonisolatedUnbounded":
            command = Command(policy: .cancelRunning, nonisolatedPerform: nesting.body(runs: .max))
        default: return
        }
        nesting.holder.withLock { $0 = command }
        command.execute()
        print("the case did not trap")
    }

    func test_unboundedReentrance_trapsWithAMessageNamingTheMethodTheDepthAndTheLimit() throws {
        let message =
            "CommandWithResult.execute(parameter:): sync run 65 of this .cancelRunning command on this thread is out "
            + "of range 1...64; is execute called from inside its own body?"
        try assertChildCasesTrap(
            "RippleTests.CommandReentrancyTests/test_childProcessEntry",
            expected: ["mainActorUnbounded": message, "nonisolatedUnbounded": message])
    }
}
