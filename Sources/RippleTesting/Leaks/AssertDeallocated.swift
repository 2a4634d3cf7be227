// Leak checks for XCTest and Swift Testing suites: build objects, keep only weak references to
// them, and fail the test if any of them outlives the closure that made it.

/// Asserts that every object `makeObjects` returns is deallocated once `makeObjects` has returned.
///
/// Build the objects inside the closure, exercise them, and return the ones to watch. The helper
/// keeps only weak references: anything still alive afterwards is held by something else, which
/// in a presenter test usually means a retain cycle (a closure capturing `self`, an owner held
/// strongly) or a subscription that was never cancelled.
///
/// <!-- swift
/// final class NotesPresenter: Sendable {
///     let notes = ObservableCollection<String>()
/// }
/// -->
/// ```swift
/// func testNotesPresenterDoesNotLeak() {
///     assertDeallocated {
///         let presenter = NotesPresenter()
///         let token = presenter.notes.subscribe(on: .synchronous) { _ in }
///         presenter.notes.append("milk")
///         return [presenter, presenter.notes, token]
///     }
/// }
/// ```
///
/// A failure names each survivor by its position in the returned array and its type, for example
/// `still alive: #1 ObservableCollection<String>`. It is recorded in the framework that runs the
/// test: called from a Swift Testing test, it records an issue (`Issue.record`) at the call;
/// otherwise an XCTest failure (`XCTFail`). The same call works in a Swift Testing `@Test`:
///
/// <!-- swift
/// import Testing
/// -->
/// ```swift
/// @Test func notesPresenterIsReleased() {
///     assertDeallocated {
///         let presenter = NotesPresenter()
///         return [presenter, presenter.notes]
///     }
/// }
/// ```
///
/// - Note: Work that is still queued (a block on the main queue, a subscriber's delivery, a command
///   run on a `TestScheduler` that was never stepped) holds what it captured. Pass a `timeout` to
///   give asynchronous releases time to happen: on the main thread the check keeps the main run
///   loop turning while it waits. In `async` tests write `await assertDeallocated …`, which
///   suspends instead of blocking. To look at the survivors yourself, call
///   ``survivingObjects(timeout:_:)``, which reports nothing.
///
/// - Parameters:
///   - message: Context to add to a failure.
///   - timeout: How long to wait, in seconds, for objects released asynchronously. `0`, the default,
///     checks once, right after `makeObjects` returns. A safety net, not a timing assertion.
///   - fileID: The file to report a failure in, for Swift Testing.
///   - file: The file to report a failure in (its path).
///   - line: The line to report a failure at.
///   - column: The column to report a failure at, for Swift Testing.
///   - makeObjects: Creates the objects and returns those to watch.
public func assertDeallocated(
    _ message: @autoclosure () -> String = "",
    timeout: Double = 0,
    fileID: String = #fileID,
    file: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    _ makeObjects: () throws -> [AnyObject]
) rethrows {
    let survivors = try survivingObjects(timeout: timeout, makeObjects)
    reportSurvivors(survivors, message(), fileID: fileID, file: file, line: line, column: column)
}

/// Asserts that every object `makeObjects` returns is deallocated once `makeObjects` has returned,
/// waiting for asynchronous releases without blocking the caller's actor.
///
/// Use it in `async` tests, including `@MainActor` ones: while it waits it suspends, so the main
/// queue (and the main actor) can run the work that releases the objects.
///
/// ```swift
/// @MainActor
/// final class NotesScreenLeakTests: XCTestCase {
///     func testScreenDoesNotLeak() async {
///         await assertDeallocated(timeout: 5) {
///             let presenter = NotesPresenter()
///             let screen = HeadlessTableScreen(collection: presenter.notes)
///             await screen.settle()
///             return [presenter, screen, screen.source]
///         }
///     }
/// }
/// ```
///
/// - Parameters:
///   - message: Context to add to a failure.
///   - timeout: How long to wait, in seconds, for objects released asynchronously. `0` checks once.
///   - isolation: The caller's actor; `makeObjects` runs there. Leave the default.
///   - fileID: The file to report a failure in, for Swift Testing.
///   - file: The file to report a failure in (its path).
///   - line: The line to report a failure at.
///   - column: The column to report a failure at, for Swift Testing.
///   - makeObjects: Creates the objects and returns those to watch.
public func assertDeallocated(
    _ message: @autoclosure () -> String = "",
    timeout: Double = 0,
    isolation: isolated (any Actor)? = #isolation,
    fileID: String = #fileID,
    file: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    _ makeObjects: () async throws -> [AnyObject]
) async rethrows {
    let survivors = try await survivingObjects(timeout: timeout, makeObjects)
    reportSurvivors(survivors, message(), fileID: fileID, file: file, line: line, column: column)
}

/// Asserts that every object `makeObjects` returns is deallocated once `makeObjects` has returned,
/// waiting for asynchronous releases without blocking the caller's actor.
///
/// The same as the overload whose `makeObjects` is `async`. Swift picks this one in `async` code
/// when the closure does not `await`; without it, such a call would pick the blocking overload,
/// which on the main actor would keep the main queue from releasing anything.
///
/// - Parameters:
///   - message: Context to add to a failure.
///   - timeout: How long to wait, in seconds, for objects released asynchronously. `0` checks once.
///   - isolation: The caller's actor; `makeObjects` runs there. Leave the default.
///   - fileID: The file to report a failure in, for Swift Testing.
///   - file: The file to report a failure in (its path).
///   - line: The line to report a failure at.
///   - column: The column to report a failure at, for Swift Testing.
///   - makeObjects: Creates the objects and returns those to watch.
public func assertDeallocated(
    _ message: @autoclosure () -> String = "",
    timeout: Double = 0,
    isolation: isolated (any Actor)? = #isolation,
    fileID: String = #fileID,
    file: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    _ makeObjects: () throws -> [AnyObject]
) async rethrows {
    let watchlist = Watchlist(try makeObjects())
    await watchlist.waitForRelease(timeout: timeout)
    reportSurvivors(watchlist.survivors, message(), fileID: fileID, file: file, line: line, column: column)
}

/// Fails the test, naming every survivor, if there is any.
private func reportSurvivors(
    _ survivors: [String], _ message: String, fileID: String, file: StaticString, line: UInt, column: UInt
) {
    guard !survivors.isEmpty else { return }
    let context = message.isEmpty ? "" : "\(message): "
    TestFailure(
        "\(context)still alive: \(survivors.joined(separator: ", "))", fileID: fileID, filePath: file, line: line,
        column: column
    ).record()
}
