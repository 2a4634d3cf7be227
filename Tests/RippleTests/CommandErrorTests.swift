import Dispatch
import Foundation
import Ripple
import RippleTestSupport
import RippleTesting
import XCTest

/// Every error reaches `errors`; with nobody observing it, Diagnostics reports it. Never silent,
/// never a crash; cancellation is not an error.
///
/// Main-actor commands (`async` methods of a `@MainActor` class: see ``CommandAsyncTests``).
@MainActor
final class CommandErrorTests: XCTestCase {
    // nonisolated(unsafe): XCTest calls setUp, each test and tearDown one after another on the main
    // thread; only they touch it.
    nonisolated(unsafe) private var diagnostics: DiagnosticsCapture!

    nonisolated override func setUp() {
        super.setUp()
        diagnostics = DiagnosticsCapture()
    }

    nonisolated override func tearDown() {
        diagnostics.restore()
        diagnostics = nil
        super.tearDown()
    }

    func test_errorWithAnObserver_reachesErrors_andIsNotReportedToDiagnostics() async {
        let command = Command(delegate: commandAnchor, perform: { _ in throw CommandTestError(11) })
        let spy = CommandSpy(command, streams: [.errors, .outcomes])
        command.execute()
        spy.assertEvents([.error(11), .failed(11)])
        XCTAssertEqual(diagnostics.unobservedErrors(mentioning: "CommandTestError(11)"), [])
    }

    func test_errorWithoutAnObserver_isReportedToDiagnostics_syncBody() async {
        let owner = CommandTestOwner()
        let command = Command(delegate: owner, perform: { _ in throw CommandTestError(12) })
        let spy = CommandSpy(command, streams: [.outcomes])  // outcomes, but not errors
        XCTAssertNil(command.execute().refusal)
        spy.assertEvents([.failed(12)])
        XCTAssertEqual(
            diagnostics.unobservedErrors(mentioning: "CommandTestError(12)"),
            [
                Diagnostic(
                    kind: .unobservedError, source: "CommandWithResult<(), ()>",
                    message: "a run failed and nobody observes `errors`: CommandTestError(12)")
            ])
    }

    func test_errorWithoutAnObserver_isReportedToDiagnostics_dispatchAndAsyncBodies() async {
        let scheduler = TestScheduler()
        let dispatch = CommandWithParameter<String>(
            delegate: commandAnchor, queue: scheduler, work: { _, _, done in done.fail(CommandTestError(13)) })
        dispatch.execute(parameter: "x")
        scheduler.runAll()
        XCTAssertEqual(
            diagnostics.unobservedErrors(mentioning: "CommandTestError(13)").map(\.source),
            ["CommandWithResult<String, ()>"])

        let async = CommandWithParameter<Int>(
            delegate: commandAnchor,
            task: { _, _ in
                await Task.yield()
                throw CommandTestError(14)
            })
        // Outcomes, but not errors. The body runs on the main actor: wait with the main queue turning.
        let spy = CommandSpy(async, parameter: 0, streams: [.outcomes])
        async.execute(parameter: 1)
        await fulfillment(of: [spy.expectation(events: 1)], timeout: 10)
        spy.assertEvents([.failed(14)])
        await eventually(
            until: { !self.diagnostics.unobservedErrors(mentioning: "CommandTestError(14)").isEmpty },
            "the unobserved error is reported")
        XCTAssertEqual(
            diagnostics.unobservedErrors(mentioning: "CommandTestError(14)").map(\.source),
            ["CommandWithResult<Int, ()>"])
    }

    func test_errorWithoutAnObserver_andTheDefaultHandler_doesNotCrash() async {
        diagnostics.restore()  // the default handler writes one line to standard error
        let command = Command(delegate: commandAnchor, perform: { _ in throw CommandTestError(15) })
        XCTAssertNil(command.execute().refusal)
        XCTAssertFalse(command.isExecuting)
        XCTAssertNil(command.execute().refusal, "the command still works")
    }

    func test_anObserverThatUnsubscribed_noLongerCounts() async {
        let command = Command(delegate: commandAnchor, perform: { _ in throw CommandTestError(16) })
        let recorder = EventRecorder<String>()
        let token = command.errors.subscribe(on: .synchronous) { recorder.record(String(describing: $0)) }
        command.execute()
        token.cancel()
        command.execute()
        recorder.assertEvents(["CommandTestError(16)"])
        XCTAssertEqual(
            diagnostics.unobservedErrors(mentioning: "CommandTestError(16)").count, 1, "the second error only")
    }

    func test_errors_arriveInOrder_acrossRuns() async {
        let command = CommandWithParameter<Int>(
            delegate: commandAnchor,
            perform: { _, value in
                if value.isMultiple(of: 2) { throw CommandTestError(value) }
            })
        let spy = CommandSpy(command, parameter: 0, streams: [.errors, .outcomes])
        (1...6).forEach { command.execute(parameter: $0) }
        spy.assertEvents([
            .succeeded, .error(2), .failed(2), .succeeded, .error(4), .failed(4), .succeeded, .error(6), .failed(6),
        ])
    }

    func test_cancellation_isNeitherAnErrorNorADiagnostic() async {
        let scheduler = TestScheduler()
        let owner = CommandTestOwner()
        let command = Command(delegate: owner, queue: scheduler, work: { owner, _, done in owner.keep(done) })
        // Nobody observes errors: a cancellation must not be reported as an unobserved error.
        let spy = CommandSpy(command, streams: [.outcomes])
        command.execute()
        command.cancel()  // before the body starts
        scheduler.runAll()
        command.execute()
        scheduler.runAll()
        command.cancel()  // while it runs
        owner.lastRun?.fail(CancellationError())
        let sync = Command(delegate: commandAnchor, perform: { _ in throw CancellationError() })
        sync.execute()
        spy.assertEvents([.cancelled, .cancelled])
        XCTAssertEqual(diagnostics.recorder.events.filter { $0.source.hasPrefix("CommandWithParameter") }, [])
    }
}
