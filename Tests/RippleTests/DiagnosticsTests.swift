import Dispatch
import Foundation
import Ripple
import RippleDiff
import RippleTestSupport
import XCTest

/// `Diagnostics` and the duplicate-identifier report of `replace(with:)`.
///
/// The handler is global: every test that installs one lives in this class (XCTest runs a class's
/// tests one after another), and `tearDown` restores the default.
final class DiagnosticsTests: DiagnosticsTestCase {
    /// Runs `replace` on a collection holding `old` and returns the events it published, after
    /// checking that each one replays.
    private func publishing(
        _ old: [TestItem],
        file: StaticString = #filePath,
        line: UInt = #line,
        _ body: (ObservableCollection<TestItem>) -> Void
    ) -> [CollectionChange<TestItem>] {
        let collection = ObservableCollection(old)
        let recorder = EventRecorder<CollectionChange<TestItem>>()
        let checker = ChangeChecker<TestItem>(initial: old, useUIKitOracle: true)
        let tokens = [
            collection.subscribe(on: .synchronous, recorder.handler),
            collection.subscribe(on: .synchronous, checker.handler),
        ]
        body(collection)
        tokens.forEach { $0.cancel() }
        checker.assertConsistent(finalSnapshot: Array(collection.snapshot), file: file, line: line)
        return recorder.events
    }

    // MARK: - Duplicate identifiers

    func test_replaceWithDuplicateNewIdentifiers_reportsOneDiagnostic_andStillPublishesAValidChange() {
        // No common prefix or suffix: the diff pairs those in place without looking for repeats.
        let new = [TestItem(id: 2), TestItem(id: 2, content: 1), TestItem(id: 1), TestItem(id: 1)]
        let events = publishing([TestItem](ids: [1, 2, 3])) { collection in
            collection.replace(with: new)
            XCTAssertEqual(Array(collection.snapshot), new)
        }
        XCTAssertEqual(events.count, 1)
        XCTAssertEqual(events.first.map { Array($0.snapshot) }, new)
        XCTAssertEqual(events.first?.changeset.duplicates.targetOffsets, [1, 3])
        let reported = diagnostics.events
        XCTAssertEqual(reported.count, 1)
        XCTAssertEqual(reported.first?.kind, .duplicateIdentifiers)
        XCTAssertEqual(reported.first?.source, "ObservableCollection.replace(with:)")
        XCTAssertEqual(
            reported.first?.message,
            "repeated identifiers at old offsets [] and new offsets [1, 3]; paired in order")
    }

    func test_replaceWithDuplicateOldIdentifiers_reportsThem() {
        let events = publishing([TestItem](ids: [1, 1, 2])) { collection in
            collection.replace(with: [TestItem](ids: [2, 1]))
        }
        XCTAssertEqual(events.count, 1)
        XCTAssertEqual(diagnostics.events.map(\.kind), [.duplicateIdentifiers])
        XCTAssertEqual(diagnostics.events.first?.message.contains("old offsets [1]"), true)
    }

    func test_replaceWithDuplicatesOnBothSides_reportsOnceWithBothOffsets() {
        let old = [TestItem](ids: [4, 5, 5, 6])
        let events = publishing(old) { $0.replace(with: [TestItem](ids: [6, 5, 5, 4])) }
        XCTAssertEqual(events.count, 1)
        XCTAssertEqual(diagnostics.count, 1, "one diagnostic per replace, however many repeats")
        XCTAssertEqual(
            diagnostics.events.first?.message,
            "repeated identifiers at old offsets [2] and new offsets [2]; paired by place")
    }

    func test_closureFormAndBatch_reportDuplicatesToo() {
        let events = publishing([TestItem](ids: [1, 2])) { collection in
            collection.performBatchUpdates {
                collection.replace(with: [TestItem](ids: [3, 3]), identity: .key({ $0.id }, contentEquals: ==))
                XCTAssertEqual(self.diagnostics.count, 1, "reported when replace runs, not when the batch ends")
                collection.append(TestItem(id: 5))
            }
        }
        XCTAssertEqual(events.count, 1)
        XCTAssertEqual(events.first?.snapshot.ids, [3, 3, 5])
        XCTAssertEqual(diagnostics.count, 1)
    }

    func test_manyRepeats_areReportedOnOneShortLine() {
        // Issue 13: 2^20 equal identifiers once gave a 16.6 MB diagnostic. The lists are cut after
        // 20 offsets, with a count of the rest, whatever the number of repeats.
        let collection = ObservableCollection([Int](repeating: 7, count: 1 << 16))
        collection.replace(with: [8] + [Int](repeating: 7, count: 1 << 16) + [8], identity: .value)
        XCTAssertEqual(diagnostics.count, 1)
        let message = diagnostics.events.first?.message ?? ""
        XCTAssertEqual(
            message,
            "repeated identifiers at old offsets [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, "
                + "20, … 65515 more] and new offsets [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, "
                + "20, 21, … 65516 more]; paired by place")

        let sections = SectionedCollection([SectionSnapshot(section: "a", items: [Int](repeating: 7, count: 1 << 12))])
        sections.replace(
            with: [
                SectionSnapshot(section: "a", items: [8]),
                SectionSnapshot(section: "a", items: [Int](repeating: 7, count: 1 << 12) + [8]),
            ], sectionIdentity: .value, itemIdentity: .value)
        XCTAssertEqual(diagnostics.count, 2)
        let sectioned = diagnostics.events.last?.message ?? ""
        XCTAssertTrue(
            sectioned.hasPrefix("repeated section identifiers at old offsets [] and new offsets [], "), sectioned)
        XCTAssertTrue(sectioned.contains("0 - 19, 0 - 20, … 4075 more] and new paths [1 - 1,"), sectioned)
        XCTAssertTrue(sectioned.hasSuffix("1 - 19, 1 - 20, … 4076 more]; paired in order"), sectioned)
    }

    func test_replaceWithUniqueIdentifiers_reportsNothing() {
        _ = publishing([TestItem](ids: [1, 2, 3])) { collection in
            collection.replace(with: [TestItem](ids: [3, 2, 9]))
            collection.replace(with: [])
        }
        XCTAssertEqual(diagnostics.count, 0)
    }

    func test_hashableValues_duplicateValuesAreReported() {
        let collection = ObservableCollection(["a", "b"])
        collection.replace(with: ["b", "a", "a"], identity: .value)
        XCTAssertEqual(diagnostics.events.map(\.kind), [.duplicateIdentifiers])
        XCTAssertEqual(collection.snapshot, ["b", "a", "a"])
    }

    // MARK: - Handler

    func test_report_callsTheCurrentHandlerOnTheReportingThread() {
        let threads = EventRecorder<Bool>()
        Diagnostics.setHandler { _ in threads.record(Thread.isMainThread) }
        Diagnostics.report(Diagnostic(kind: .unobservedError, source: "test", message: "one"))
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            Diagnostics.report(Diagnostic(kind: .unobservedError, source: "test", message: "two"))
            done.signal()
        }
        done.wait()
        threads.assertEvents([true, false])
        XCTAssertEqual(diagnostics.count, 0, "the replaced handler gets nothing")
    }

    func test_handlerMayReplaceTheHandlerAndReport_withoutDeadlock() {
        let second = EventRecorder<String>()
        Diagnostics.setHandler { [diagnostics] diagnostic in
            diagnostics.record(diagnostic)
            Diagnostics.setHandler { second.record($0.message) }
            Diagnostics.report(Diagnostic(kind: .viewCountMismatch, source: "handler", message: "nested"))
        }
        Diagnostics.report(Diagnostic(kind: .viewCountMismatch, source: "test", message: "outer"))
        XCTAssertEqual(diagnostics.events.map(\.message), ["outer"])
        second.assertEvents(["nested"])
    }

    func test_concurrentReports_allReachTheHandler() {
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 0..<100 {
                Diagnostics.report(Diagnostic(kind: .unobservedError, source: "thread \(thread)", message: "\(index)"))
            }
        }
        XCTAssertEqual(diagnostics.count, 400)
    }

    func test_defaultHandler_writesTheDescriptionToStandardError() throws {
        Diagnostics.setHandler(nil)
        let pipe = Pipe()
        let saved = dup(2)
        XCTAssertGreaterThanOrEqual(saved, 0)
        dup2(pipe.fileHandleForWriting.fileDescriptor, 2)
        Diagnostics.report(Diagnostic(kind: .viewCountMismatch, source: "Probe", message: "counts disagree"))
        dup2(saved, 2)
        close(saved)
        try pipe.fileHandleForWriting.close()
        let written = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(written.contains("Ripple: Probe: counts disagree\n"), written)
        XCTAssertEqual(diagnostics.count, 0)
    }

    /// Runs `action` when deallocated.
    private final class DeinitAction: Sendable {
        let action: @Sendable () -> Void

        init(_ action: @escaping @Sendable () -> Void) {
            self.action = action
        }

        deinit { action() }
    }

    /// The entry point of the child processes; skipped in a normal run.
    func test_childProcessEntry() throws {
        guard try childProcessCase() == "replacedHandlerReports" else { return }
        // The replaced handler holds the last reference to an object whose deinit reports: the
        // old handler must be released after the handler lock is unlocked.
        do {
            let reporter = DeinitAction {
                Diagnostics.report(Diagnostic(kind: .unobservedError, source: "deinit", message: "released"))
            }
            Diagnostics.setHandler { [reporter] _ in _ = reporter }
        }
        Diagnostics.setHandler(nil)
        print("survived")
    }

    func test_setHandler_releasesTheOldHandlerAfterUnlocking_soItsCapturesMayReport() throws {
        let outcomes = try runChildTests(
            "RippleTests.DiagnosticsTests/test_childProcessEntry", cases: ["replacedHandlerReports"])
        let outcome = outcomes["replacedHandlerReports"]
        XCTAssertEqual(outcome?.status, 0, "crashed:\n\(outcome?.standardError.prefix(600) ?? "")")
        XCTAssertEqual(outcome?.terminatedBySignal, false)
        XCTAssertTrue(outcome?.standardError.contains("Ripple: deinit: released") ?? false)
    }

    // MARK: - Diagnostic

    func test_diagnostic_descriptionEqualityAndKinds() {
        let diagnostic = Diagnostic(kind: .duplicateIdentifiers, source: "S", message: "M")
        XCTAssertEqual(diagnostic.description, "Ripple: S: M")
        XCTAssertEqual(diagnostic, Diagnostic(kind: .duplicateIdentifiers, source: "S", message: "M"))
        XCTAssertNotEqual(diagnostic, Diagnostic(kind: .unobservedError, source: "S", message: "M"))
        XCTAssertEqual(Set([diagnostic, diagnostic]).count, 1)
        XCTAssertEqual(Diagnostic.Kind(rawValue: "viewCountMismatch"), .viewCountMismatch)
        XCTAssertEqual(Diagnostic.Kind.unobservedError.rawValue, "unobservedError")
    }
}
