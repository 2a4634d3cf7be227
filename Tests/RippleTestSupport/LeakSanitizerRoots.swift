// Under `swift test --sanitize=address`, LeakSanitizer checks for leaks when the test process exits.
// XCTest on Linux keeps each test case in a retain cycle with its run (`XCTestCase.testRun` and
// `XCTestCaseRun.test`), and each suite with its suite run, so at exit every test instance, and
// everything a test stored in it, is unreachable: LeakSanitizer reports all of it. This marks each
// finished test and suite as a root ("ignored" object: it and what it reaches count as live), so that
// a report lists only what the tests and Ripple really leaked. Without LeakSanitizer it does nothing.

import Foundation
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// LeakSanitizer's `__lsan_ignore_object`, or `nil` when the process does not run under it.
private let ignoreObject: (@convention(c) (UnsafeRawPointer?) -> Void)? = {
    #if canImport(Glibc)
    guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "__lsan_ignore_object") else { return nil }
    return unsafeBitCast(symbol, to: (@convention(c) (UnsafeRawPointer?) -> Void).self)
    #else
    return nil
    #endif
}()

/// Marks each test and suite as a LeakSanitizer root when its suite finishes.
private final class LeakSanitizerRoots: NSObject, XCTestObservation {
    func testSuiteDidFinish(_ testSuite: XCTestSuite) {
        mark(testSuite)
    }

    private func mark(_ test: XCTest) {
        ignoreObject?(UnsafeRawPointer(Unmanaged.passUnretained(test).toOpaque()))
        if let suite = test as? XCTestSuite {
            for child in suite.tests { mark(child) }
        }
    }
}

/// Registers the observer once per process, when running under LeakSanitizer. Called by the shared
/// helpers most tests use (`EventRecorder`, `forEachSeed`, `runChildTests`, `assertDeallocated`):
/// registering at any point before the last suite ends is enough, since the last suite holds every
/// test.
private let registration: Void = {
    guard ignoreObject != nil else { return }
    XCTestObservationCenter.shared.addTestObserver(LeakSanitizerRoots())
}()

/// Makes sure XCTest's own objects are LeakSanitizer roots in this process (see above).
func registerXCTestLeakRoots() {
    registration
}
