import Dispatch
import Ripple
import XCTest

/// What wakes a settling screen or SwiftUI view while a command it waits for runs: a change of
/// that command's executing state, signalled where the command publishes it and handled on the
/// main queue after the deliveries queued before it. So `settle` sleeps only while a run it waits
/// for goes on, and wakes when the run ends, not on a timer.
///
/// A signal that comes while nobody waits is kept for the next wait. Each wait is also bounded
/// by a guard (``guardSeconds``): a run that no signal ends (one waiting on a `TestScheduler` the
/// test has not advanced) is looked at again then, until the settle's own timeout.
@MainActor
final class _SettleSignal {
    /// The longest one wait lasts before the settle looks again.
    static let guardSeconds = 0.05

    private var isSignalled = false
    private var continuation: CheckedContinuation<Void, Never>?
    private var expectation: XCTestExpectation?
    private var tokens: [SubscriptionToken] = []

    /// Follows the executing state of `commands` from now on.
    ///
    /// - Parameter commands: The commands whose runs a settle waits for.
    init(following commands: [any CommandType]) {
        // Each subscription replays the current state at once: the first wait may return at once.
        tokens = commands.map { command in
            command.executingChanges.subscribe(on: .synchronous) { [weak self] _ in
                DispatchQueue.main.async { self?.signal() }
            }
        }
    }

    /// Wakes the waiter, or keeps the signal for the next wait.
    private func signal() {
        isSignalled = true
        if let continuation {
            self.continuation = nil
            continuation.resume()
        }
        expectation?.fulfill()
        expectation = nil
    }

    /// Suspends until a signal, or at most `seconds` (and ``guardSeconds``); the main queue runs
    /// meanwhile.
    ///
    /// - Parameter seconds: The time left before the settle's timeout.
    func wait(upTo seconds: Double) async {
        if !isSignalled {
            await withCheckedContinuation { (resumed: CheckedContinuation<Void, Never>) in
                continuation = resumed
                DispatchQueue.main.asyncAfter(deadline: .now() + min(max(seconds, 0), Self.guardSeconds)) {
                    [weak self] in
                    guard let self, let continuation = self.continuation else { return }
                    self.continuation = nil
                    continuation.resume()
                }
            }
        }
        isSignalled = false
    }

    /// Runs the main run loop until a signal, or at most `seconds` (and ``guardSeconds``): the
    /// wait of a synchronous settle, on the main thread outside main-queue work.
    ///
    /// - Parameter seconds: The time left before the settle's timeout.
    func waitRunningTheMainQueue(upTo seconds: Double) {
        if !isSignalled {
            let woken = XCTestExpectation(description: "a command the screen waits for changed")
            expectation = woken
            _ = XCTWaiter().wait(for: [woken], timeout: min(max(seconds, 0), Self.guardSeconds))
            expectation = nil
        }
        isSignalled = false
    }
}
