// Helpers for the command tests: an event-history spy over every state stream of a command, a test
// owner, gates that hold a body until the test releases it, and a Diagnostics capture.

import Dispatch
import Foundation
import Ripple
import RippleTestSupport
import XCTest

// MARK: - Errors and outcomes

/// An error with an identity, so that a history can name which error arrived.
struct CommandTestError: Error, Equatable, CustomStringConvertible {
    let code: Int
    init(_ code: Int) { self.code = code }
    var description: String { "CommandTestError(\(code))" }
}

/// `CommandOutcome` in an `Equatable` form.
enum OutcomeRecord: Hashable, Sendable, CustomStringConvertible {
    case succeeded
    case failed(String)
    case cancelled

    init(_ outcome: CommandOutcome) {
        switch outcome {
        case .succeeded: self = .succeeded
        case .failed(let error): self = .failed(String(describing: error))
        case .cancelled: self = .cancelled
        }
    }

    var description: String {
        switch self {
        case .succeeded: return "succeeded"
        case .failed(let error): return "failed(\(error))"
        case .cancelled: return "cancelled"
        }
    }
}

// MARK: - Event-history spy

/// One thing a command published.
enum CommandEvent: Equatable, Sendable, CustomStringConvertible {
    /// `executingChanges` sent this value (the first one is the replayed current state).
    case executing(Bool)
    /// `canExecuteChanges` fired; the value is what `canExecute` said when the spy heard it.
    case canExecute(Bool)
    /// `canExecuteChanges` fired, heard asynchronously: the state may have moved on since, so the
    /// spy does not evaluate `canExecute`.
    case canExecuteChanged
    /// `errors` sent an error.
    case error(String)
    /// `outcomes` sent an outcome.
    case outcome(OutcomeRecord)

    /// The stream the event came from.
    var stream: CommandSpyStream {
        switch self {
        case .executing: return .executing
        case .canExecute, .canExecuteChanged: return .canExecute
        case .error: return .errors
        case .outcome: return .outcomes
        }
    }

    var description: String {
        switch self {
        case .executing(let value): return "executing(\(value))"
        case .canExecute(let value): return "canExecute(\(value))"
        case .canExecuteChanged: return "canExecuteChanged"
        case .error(let error): return "error(\(error))"
        case .outcome(let outcome): return "outcome(\(outcome))"
        }
    }

    /// The event as an asynchronous subscriber records it.
    var heardAsynchronously: CommandEvent {
        if case .canExecute = self { return .canExecuteChanged }
        return self
    }

    /// Shorthands for the histories.
    static let succeeded = CommandEvent.outcome(.succeeded)
    static let cancelled = CommandEvent.outcome(.cancelled)
    static func failed(_ code: Int) -> CommandEvent { .outcome(.failed("CommandTestError(\(code))")) }
    static func error(_ code: Int) -> CommandEvent { .error("CommandTestError(\(code))") }
}

/// Where a ``CommandSpy`` hears the command: on the main actor (the `subscribe { … }` overload
/// without a delivery), or on a ``Delivery`` with a `@Sendable` handler.
enum SpyDelivery: Sendable {
    case main
    case delivered(Delivery)

    static var synchronous: SpyDelivery { .delivered(.synchronous) }
    static func queue(_ queue: DispatchQueue) -> SpyDelivery { .delivered(.queue(queue)) }
    static func scheduler(_ scheduler: any WorkScheduler) -> SpyDelivery { .delivered(.scheduler(scheduler)) }
}

/// The state streams of a command.
enum CommandSpyStream: CaseIterable, Hashable, Sendable {
    case executing, canExecute, errors, outcomes
}

/// Subscribes to every state stream of a command and records one ordered history.
///
/// The spy holds the command weakly (a strong reference from the command's own subscriber would be
/// a cycle) and cancels its subscriptions when it is deallocated or ``stop()`` is called.
final class CommandSpy<Parameter: Sendable, Output: Sendable>: Sendable {
    let recorder = EventRecorder<CommandEvent>()
    private let tokens: [SubscriptionToken]

    /// - Parameters:
    ///   - command: The command to watch.
    ///   - parameter: The parameter `canExecute` is evaluated with when `canExecuteChanges` fires.
    ///     (Synchronous delivery only: the spy then calls `canExecute` on the thread that publishes,
    ///     so a main-actor command with a predicate must publish on the main thread.)
    ///   - delivery: Where the spy's handlers run; synchronous unless a test is about delivery.
    ///   - streams: Which streams to record.
    init(
        _ command: CommandWithResult<Parameter, Output>, parameter: Parameter, on delivery: SpyDelivery = .synchronous,
        streams: Set<Stream> = Set(Stream.allCases)
    ) {
        let recorder = recorder
        var tokens: [SubscriptionToken] = []
        if streams.contains(.executing) {
            tokens.append(Self.subscribe(command.executingChanges, on: delivery) { recorder.record(.executing($0)) })
        }
        if streams.contains(.canExecute) {
            if case .delivered(.synchronous) = delivery {
                tokens.append(
                    command.canExecuteChanges.subscribe(on: .synchronous) { [weak command] in
                        recorder.record(.canExecute(command?.canExecute(parameter: parameter) ?? false))
                    })
            } else {
                tokens.append(
                    Self.subscribe(command.canExecuteChanges, on: delivery) { recorder.record(.canExecuteChanged) })
            }
        }
        if streams.contains(.errors) {
            tokens.append(
                Self.subscribe(command.errors, on: delivery) { recorder.record(.error(String(describing: $0))) })
        }
        if streams.contains(.outcomes) {
            tokens.append(
                Self.subscribe(command.outcomes, on: delivery) { recorder.record(.outcome(OutcomeRecord($0))) })
        }
        self.tokens = tokens
    }

    /// Subscribes `record` to `stream` where `delivery` says: on the main actor for `.main`.
    private static func subscribe<Value>(
        _ stream: EventStream<Value>, on delivery: SpyDelivery, _ record: @escaping @Sendable (Value) -> Void
    ) -> SubscriptionToken {
        switch delivery {
        case .main:
            return stream.subscribe { @MainActor value in
                MainActor.assertIsolated("a main-queue subscriber runs on the main actor")
                record(value)
            }
        case .delivered(let delivery):
            return stream.subscribe(on: delivery, record)
        }
    }

    typealias Stream = CommandSpyStream

    var events: [CommandEvent] { recorder.events }

    /// Asserts the whole history, stream by stream.
    ///
    /// Each stream's order is part of the contract and is compared exactly. The interleaving of
    /// *different* streams is not (a command may deliver `outcomes` before or after the matching
    /// `executingChanges`), so `expected` may list them in any natural order.
    func assertEvents(
        _ expected: [CommandEvent], _ message: String = "", file: StaticString = #filePath, line: UInt = #line
    ) {
        let actual = events
        for stream in Stream.allCases {
            let got = actual.filter { $0.stream == stream }
            let wanted = expected.filter { $0.stream == stream }
            if let mismatch = firstMismatch(got, wanted, by: ==) {
                XCTFail(
                    "\(message.isEmpty ? "" : "\(message): ")\(stream): \(mismatch)\n  recorded: \(actual)\n  expected: \(expected)",
                    file: file, line: line)
            }
        }
    }

    /// The outcomes recorded so far.
    var outcomes: [OutcomeRecord] {
        events.compactMap { if case .outcome(let outcome) = $0 { return outcome } else { return nil } }
    }

    /// An expectation fulfilled once `count` events in total have been recorded.
    func expectation(events count: Int) -> XCTestExpectation {
        recorder.expectation(count: count)
    }

    func stop() {
        for token in tokens { token.cancel() }
    }
}

extension CommandSpy where Parameter == Void {
    convenience init(
        _ command: CommandWithResult<Void, Output>, on delivery: SpyDelivery = .synchronous,
        streams: Set<Stream> = Set(Stream.allCases)
    ) {
        self.init(command, parameter: (), on: delivery, streams: streams)
    }
}

// MARK: - Owners, locks and gates

/// A value behind an `NSLock`.
final class CommandLock<Value>: @unchecked Sendable {
    // @unchecked: `value` is only touched with `lock` held.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    @discardableResult
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    var current: Value { withLock { $0 } }
}

/// Carries a value the test checked by hand across a `@Sendable` boundary.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// An owner for `delegate:` commands: a predicate switch, a log of what the bodies did, and the
/// `CommandRun` of the latest Dispatch run, for the test to end. Thread-safe.
final class CommandTestOwner: Sendable {
    private let allowed = CommandLock(true)
    private let entries = CommandLock<[String]>([])
    private let runs = CommandLock<[CommandRun]>([])

    /// What the predicate returns.
    var isAllowed: Bool {
        get { allowed.current }
        set { allowed.withLock { $0 = newValue } }
    }

    func log(_ entry: String) { entries.withLock { $0.append(entry) } }
    var log: [String] { entries.current }

    /// Keeps a Dispatch run so that the test can end it.
    func keep(_ run: CommandRun) { runs.withLock { $0.append(run) } }
    var keptRuns: [CommandRun] { runs.current }
    var lastRun: CommandRun? { runs.current.last }
}

/// A gate that holds a body until the test opens it: `wait()` from async code, `waitBlocking()`
/// from a thread.
final class CommandGate: @unchecked Sendable {
    // @unchecked: `isOpen`, `waiters` and `expectations` are only touched with `condition` locked.
    private let condition = NSCondition()
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var expectations: [XCTestExpectation] = []

    func open() {
        condition.lock()
        isOpen = true
        let resumed = waiters
        let fulfilled = expectations
        waiters = []
        expectations = []
        condition.broadcast()
        condition.unlock()
        for waiter in resumed { waiter.resume() }
        for expectation in fulfilled { expectation.fulfill() }
    }

    /// An expectation fulfilled once the gate opens (at once if it is open): await it with
    /// `fulfillment(of:timeout:)` on the main actor, which lets the main queue run meanwhile, where
    /// `waitBlocking()` would stop main-actor work from ever opening the gate.
    func opened(_ description: String = "gate opened") -> XCTestExpectation {
        let expectation = XCTestExpectation(description: description)
        condition.lock()
        let open = isOpen
        if !open { expectations.append(expectation) }
        condition.unlock()
        if open { expectation.fulfill() }
        return expectation
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            condition.lock()
            if isOpen {
                condition.unlock()
                continuation.resume()
            } else {
                waiters.append(continuation)
                condition.unlock()
            }
        }
    }

    /// Blocks the calling thread until the gate opens; `false` after `timeout` seconds (a safety
    /// net against a hang, not a timing assertion).
    @discardableResult
    func waitBlocking(timeout: TimeInterval = 30) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !isOpen {
            if !condition.wait(until: deadline) { return false }
        }
        return true
    }
}

// MARK: - Known bugs

/// Skips the test, naming a known bug, when `symptom` holds; otherwise the test goes on and asserts
/// the contract. Once the bug is fixed the symptom disappears and the test runs in full.
func skipIfKnownBug(
    _ symptom: @autoclosure () -> Bool, _ bug: @autoclosure () -> String,
    file: StaticString = #filePath, line: UInt = #line
) throws {
    if symptom() { throw XCTSkip("bug: \(bug())", file: file, line: line) }
}

// MARK: - Diagnostics and queues

/// Installs a Diagnostics handler that records every diagnostic; `restore()` puts the default back.
final class DiagnosticsCapture: Sendable {
    let recorder = EventRecorder<Diagnostic>()

    init() {
        Diagnostics.setHandler(recorder.handler)
    }

    func restore() {
        Diagnostics.setHandler(nil)
    }

    /// The unobserved-error diagnostics whose message mentions `text`.
    func unobservedErrors(mentioning text: String) -> [Diagnostic] {
        recorder.events.filter { $0.kind == .unobservedError && $0.message.contains(text) }
    }
}

/// Suspends, letting the main queue turn, until `condition` holds; fails the test after `timeout`
/// seconds, a safety net against a hang rather than a timing assertion. For state that other work
/// changes without publishing an event to wait for, such as an owner released as a main-actor task
/// ends.
@MainActor
func eventually(
    until condition: () -> Bool, timeout: TimeInterval = 10, _ message: String = "",
    file: StaticString = #filePath, line: UInt = #line
) async {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while !condition() {
        guard Date() < deadline else {
            return XCTFail("timed out after \(timeout) s: \(message)", file: file, line: line)
        }
        try? await Task.sleep(nanoseconds: 1_000_000)
    }
}

/// An expectation fulfilled once the main queue has run everything queued on it before this call.
func mainQueueFlushed(_ description: String = "main queue flushed") -> XCTestExpectation {
    let expectation = XCTestExpectation(description: description)
    let box = UncheckedBox(expectation)
    DispatchQueue.main.async { box.value.fulfill() }
    return expectation
}
