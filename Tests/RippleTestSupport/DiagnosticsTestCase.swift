import Ripple
import XCTest

/// A test case that records every `Diagnostics` report of each test in ``diagnostics``.
///
/// The handler is global: `setUp` installs a fresh recorder for each test, and `tearDown` restores
/// the default. XCTest runs a class's tests one after another, so the reports are the test's own.
open class DiagnosticsTestCase: XCTestCase {
    /// The reports of the running test, oldest first.
    public private(set) var diagnostics = EventRecorder<Diagnostic>()

    open override func setUp() {
        super.setUp()
        diagnostics = EventRecorder<Diagnostic>()
        Diagnostics.setHandler(diagnostics.handler)
    }

    open override func tearDown() {
        Diagnostics.setHandler(nil)
        super.tearDown()
    }
}
