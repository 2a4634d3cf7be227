import Dispatch
import Foundation
import Ripple
import RippleTestSupport
import XCTest

/// `CommandRun`: a run ends once, and its cancellation reaches its task whichever of `cancel()` and
/// the task's start comes first. The command's race tests hit these orders by chance; here each one
/// is forced.
final class CommandRunTests: XCTestCase {
    /// A task that sleeps until it is cancelled (or a safety-net timeout), and reports whether it was.
    private func sleeper(_ observed: CommandLock<[Bool]>) -> Task<Void, Never> {
        Task {
            try? await Task.sleep(nanoseconds: 30 * 1_000_000_000)
            observed.withLock { $0.append(Task.isCancelled) }
        }
    }

    func test_cancelBeforeTheTaskIsAttached_cancelsItOnAttach() async {
        let run = CommandRun { _ in }
        run.cancel()
        XCTAssertTrue(run.isCancelled)
        let observed = CommandLock<[Bool]>([])
        let task = sleeper(observed)
        run.attach(task)
        await task.value
        XCTAssertEqual(observed.current, [true])
    }

    func test_cancelAfterTheTaskIsAttached_cancelsIt() async {
        let run = CommandRun { _ in }
        let observed = CommandLock<[Bool]>([])
        let task = sleeper(observed)
        run.attach(task)
        run.cancel()
        await task.value
        XCTAssertEqual(observed.current, [true])
        XCTAssertTrue(run.isCancelled)
    }

    func test_cancelAfterTheRunEnded_doesNothing() {
        let run = CommandRun { _ in }
        run.succeed()
        run.cancel()
        XCTAssertFalse(run.isCancelled, "a finished run is not marked cancelled")
        XCTAssertTrue(run.isFinished)
    }

    func test_theFirstEndCounts_laterOnesAreIgnored() {
        let ends = CommandLock<[String]>([])
        let run = CommandRun { result in
            ends.withLock { $0.append((try? result.get()) == nil ? "failure" : "success") }
        }
        XCTAssertFalse(run.isFinished)
        run.fail(CommandTestError(1))
        run.succeed()
        run(.success(()))
        XCTAssertTrue(run.isFinished)
        XCTAssertEqual(ends.current, ["failure"])
    }

    func test_racingEnds_callFinishOnce() {
        for round in 1...200 {
            let ends = CommandLock(0)
            let run = CommandRun { _ in ends.withLock { $0 += 1 } }
            DispatchQueue.concurrentPerform(iterations: 4) { index in
                if index % 2 == 0 { run.succeed() } else { run.cancel() }
            }
            XCTAssertEqual(ends.current, 1, "round \(round)")
        }
    }

    func test_aRunThatEndedReleasesItsTask_andItsFinish() async {
        weak var weakToken: LifetimeToken?
        let run: CommandRun
        do {
            let tracked = LifetimeToken()
            weakToken = tracked
            run = CommandRun { [tracked] _ in withExtendedLifetime(tracked) {} }
        }
        XCTAssertNotNil(weakToken, "held by the finish closure while the run goes on")
        let task = Task {}
        run.attach(task)
        await task.value
        run.succeed()
        XCTAssertNil(weakToken, "the finish closure is released once the run has ended")
        withExtendedLifetime(run) {}
    }
}

/// An object whose deallocation a test watches.
private final class LifetimeToken: Sendable {}
