import Dispatch
import Foundation
import Ripple
import RippleTestSupport
import RippleTesting
import XCTest

/// `TestScheduler`: queues without running, steps deterministically, is thread-safe, and keeps
/// virtual time.
final class TestSchedulerTests: XCTestCase {
    func test_schedule_onlyQueues_andRunNextRunsInOrder() {
        let scheduler = TestScheduler()
        let log = EventRecorder<Int>()
        for value in 1...3 { scheduler.schedule { log.record(value) } }
        XCTAssertEqual(scheduler.pendingCount, 3)
        log.assertEvents([], "nothing runs until the test steps the scheduler")
        XCTAssertTrue(scheduler.runNext())
        log.assertEvents([1])
        XCTAssertEqual(scheduler.pendingCount, 2)
        XCTAssertTrue(scheduler.runNext())
        XCTAssertTrue(scheduler.runNext())
        XCTAssertFalse(scheduler.runNext(), "nothing left")
        log.assertEvents([1, 2, 3])
        XCTAssertEqual(scheduler.pendingCount, 0)
    }

    func test_runAll_includesWorkScheduledByWork_afterWhatWasAlreadyQueued() {
        let scheduler = TestScheduler()
        let log = EventRecorder<String>()
        scheduler.schedule {
            log.record("a")
            scheduler.schedule {
                log.record("a.1")
                scheduler.schedule { log.record("a.1.1") }
            }
        }
        scheduler.schedule { log.record("b") }
        XCTAssertEqual(scheduler.runAll(), 4)
        log.assertEvents(["a", "b", "a.1", "a.1.1"])
        XCTAssertEqual(scheduler.runAll(), 0)
    }

    func test_work_runsOutsideTheLock_andMayStepTheSchedulerItself() {
        let scheduler = TestScheduler()
        let log = EventRecorder<String>()
        scheduler.schedule {
            log.record("outer, \(scheduler.pendingCount) pending")
            scheduler.schedule { log.record("nested") }
            XCTAssertTrue(scheduler.runNext(), "stepping from inside work runs the next job")
            log.record("outer end")
        }
        scheduler.runAll()
        log.assertEvents(["outer, 0 pending", "nested", "outer end"])
    }

    func test_workIsReleasedOnceItHasRun() {
        let scheduler = TestScheduler()
        weak var weakCanary: CommandTestOwner?
        do {
            let canary = CommandTestOwner()
            weakCanary = canary
            scheduler.schedule { canary.log("ran") }
        }
        XCTAssertNotNil(weakCanary, "queued work holds what it captured")
        scheduler.runAll()
        XCTAssertNil(weakCanary, "and lets go once it has run")
    }

    func test_discardAll_dropsAndReleasesEveryJob() {
        let scheduler = TestScheduler()
        let ran = EventRecorder<Int>()
        weak var weakCanary: CommandTestOwner?
        do {
            let canary = CommandTestOwner()
            weakCanary = canary
            scheduler.schedule { canary.log("ran") }
            scheduler.schedule { ran.record(1) }
        }
        XCTAssertEqual(scheduler.discardAll(), 2)
        XCTAssertNil(weakCanary)
        XCTAssertEqual(scheduler.pendingCount, 0)
        XCTAssertEqual(scheduler.runAll(), 0)
        ran.assertEvents([])
    }

    func test_scheduleFromManyThreads_everyJobRunsExactlyOnce() {
        let scheduler = TestScheduler()
        let ran = CommandLock([Int](repeating: 0, count: 1000))
        DispatchQueue.concurrentPerform(iterations: 1000) { index in
            scheduler.schedule { ran.withLock { $0[index] += 1 } }
        }
        XCTAssertEqual(scheduler.pendingCount, 1000)
        XCTAssertEqual(scheduler.runAll(), 1000)
        XCTAssertEqual(ran.current, [Int](repeating: 1, count: 1000))
    }

    func test_schedulingWhileAnotherThreadSteps_losesNothing() {
        let scheduler = TestScheduler()
        let ran = CommandLock(0)
        let producersDone = CommandLock(0)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            if thread == 0 {
                // The stepping thread: runs whatever is due until every producer has finished.
                while producersDone.current < 3 || scheduler.pendingCount > 0 {
                    if !scheduler.runNext() { usleep(10) }
                }
            } else {
                for _ in 0..<2000 {
                    scheduler.schedule { ran.withLock { $0 += 1 } }
                }
                producersDone.withLock { $0 += 1 }
            }
        }
        XCTAssertEqual(ran.current, 6000)
        XCTAssertEqual(scheduler.pendingCount, 0)
    }

    func test_asADelivery_eventsArriveOnlyWhenTheTestSteps() {
        let scheduler = TestScheduler()
        let emitter = Emitter<Int>()
        let recorder = EventRecorder<Int>()
        let token = emitter.subscribe(on: .scheduler(scheduler), recorder.handler)
        emitter.send(1)
        emitter.send(2)
        recorder.assertEvents([])
        XCTAssertEqual(scheduler.pendingCount, 2)
        scheduler.runNext()
        recorder.assertEvents([1])
        scheduler.runAll()
        recorder.assertEvents([1, 2])
        token.cancel()
    }

    // MARK: - Virtual time

    func test_scheduleAfter_runsOnlyWhenVirtualTimeGetsThere() {
        let scheduler = TestScheduler()
        let log = EventRecorder<String>()
        XCTAssertEqual(scheduler.now, .zero)
        scheduler.schedule(after: .seconds(1)) { log.record("1 s at \(scheduler.now)") }
        scheduler.schedule { log.record("now") }
        XCTAssertEqual(scheduler.pendingCount, 2)
        XCTAssertEqual(scheduler.runAll(), 1, "runAll runs only what is due")
        XCTAssertEqual(scheduler.advance(by: .milliseconds(999)), 0)
        XCTAssertEqual(scheduler.now, .milliseconds(999))
        XCTAssertEqual(scheduler.advance(by: .milliseconds(1)), 1)
        XCTAssertEqual(scheduler.now, .seconds(1))
        log.assertEvents(["now", "1 s at 1.0 seconds"])
    }

    func test_advance_runsDueJobsInTimeOrder_andFIFOAmongEqualTimes() {
        let scheduler = TestScheduler()
        let log = EventRecorder<String>()
        scheduler.schedule(after: .seconds(3)) { log.record("c") }
        scheduler.schedule(after: .seconds(1)) { log.record("a1") }
        scheduler.schedule(after: .seconds(2)) { log.record("b") }
        scheduler.schedule(after: .seconds(1)) { log.record("a2") }
        XCTAssertEqual(scheduler.advance(by: .seconds(10)), 4)
        log.assertEvents(["a1", "a2", "b", "c"])
        XCTAssertEqual(scheduler.now, .seconds(10), "advance moves time by the whole duration")
    }

    func test_advance_nowReadsTheJobsTime_andDelaysChainFromIt() {
        let scheduler = TestScheduler()
        let log = EventRecorder<String>()
        // A debounce-like chain: each job schedules the next one 300 ms after its own time.
        scheduler.schedule(after: .milliseconds(300)) {
            log.record("first at \(scheduler.now)")
            scheduler.schedule(after: .milliseconds(300)) { log.record("second at \(scheduler.now)") }
        }
        XCTAssertEqual(scheduler.advance(by: .milliseconds(500)), 1)
        log.assertEvents(["first at 0.3 seconds"])
        XCTAssertEqual(scheduler.advance(by: .milliseconds(100)), 1)
        log.assertEvents(["first at 0.3 seconds", "second at 0.6 seconds"])
    }

    func test_advance_byZero_orANegativeDelay_behaveLikeNow() {
        let scheduler = TestScheduler()
        let log = EventRecorder<Int>()
        scheduler.schedule(after: .seconds(-5)) { log.record(1) }
        scheduler.schedule { log.record(2) }
        XCTAssertEqual(scheduler.advance(by: .zero), 2)
        XCTAssertEqual(scheduler.advance(by: .seconds(-1)), 0)
        XCTAssertEqual(scheduler.now, .zero, "time never goes back")
        log.assertEvents([1, 2])
    }

    func test_hugeDurations_saturateInsteadOfOverflowing() {
        // Virtual time is kept in nanoseconds: it ends at Int64.max ns, about 292 years.
        let scheduler = TestScheduler()
        let log = EventRecorder<Int>()
        let century = Duration.seconds(100 * 365 * 24 * 3600)
        scheduler.schedule(after: .seconds(Int64.max)) { log.record(1) }
        scheduler.advance(by: century)
        log.assertEvents([], "due at the end of virtual time")
        scheduler.advance(by: .seconds(Int64.max))
        scheduler.advance(by: .seconds(Int64.max))
        log.assertEvents([1])
        XCTAssertEqual(scheduler.now, .nanoseconds(Int64.max))
        XCTAssertEqual(scheduler.pendingCount, 0)
    }
}
