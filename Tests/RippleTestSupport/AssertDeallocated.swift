// Leak checks: build objects in a scope, keep only weak references, and assert that every one of
// them is gone once the scope has ended.

import Foundation
import XCTest

/// A weak reference to an object, watched by `assertDeallocated`.
public struct WeakReference {
    /// The object, or `nil` once it has been deallocated.
    public weak var object: AnyObject?

    /// A short description of what the object was, for failure messages.
    public let label: String

    /// Creates a weak reference.
    ///
    /// - Parameters:
    ///   - object: The object to watch.
    ///   - label: What to call it in a failure; its type name by default.
    public init(_ object: AnyObject, label: String? = nil) {
        self.object = object
        self.label = label ?? String(describing: type(of: object))
    }
}

/// Weak references to `objects`, each labelled with its type name.
///
/// ```swift
/// assertDeallocated {
///     let emitter = Emitter<Int>()
///     let token = emitter.subscribe(on: .synchronous) { _ in }
///     return weakReferences(emitter, token)
/// }
/// ```
///
/// - Parameter objects: The objects to watch.
/// - Returns: One weak reference per object, in order.
public func weakReferences(_ objects: AnyObject...) -> [WeakReference] {
    objects.map { WeakReference($0) }
}

/// Runs `scope`, which creates objects and returns weak references to them, and asserts that every
/// object has been deallocated once `scope` has returned.
///
/// Anything `scope` keeps in local variables is released when it returns; a reference that is still
/// alive afterwards is held by something else: a leak or a retain cycle.
///
/// - Parameters:
///   - message: Context to add to a failure.
///   - timeout: How long to keep checking, in seconds, for objects released asynchronously (for
///     example by a block on the main queue, which keeps turning while the check waits on the main
///     thread). `0` checks once. A safety net, not a timing assertion.
///   - file: The file to report a failure in.
///   - line: The line to report a failure at.
///   - scope: Creates the objects and returns weak references to them.
public func assertDeallocated(
    _ message: @autoclosure () -> String = "",
    timeout: TimeInterval = 0,
    file: StaticString = #filePath,
    line: UInt = #line,
    _ scope: () throws -> [WeakReference]
) rethrows {
    registerXCTestLeakRoots()
    let references = try scope()
    let deadline = Date(timeIntervalSinceNow: timeout)
    var alive = references.filter { $0.object != nil }
    while !alive.isEmpty && Date() < deadline {
        if Thread.isMainThread {
            _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 0.01))
        } else {
            Thread.sleep(forTimeInterval: 0.01)
        }
        alive = alive.filter { $0.object != nil }
    }
    if !alive.isEmpty {
        let context = message()
        let names = alive.map(\.label).joined(separator: ", ")
        XCTFail("\(context.isEmpty ? "" : "\(context): ")still alive after the scope: \(names)", file: file, line: line)
    }
}

/// Runs `scope`, which creates objects and returns a weak reference to one of them, and asserts
/// that the object has been deallocated once `scope` has returned.
///
/// - Parameters:
///   - message: Context to add to a failure.
///   - timeout: How long to keep checking, in seconds, for an object released asynchronously.
///   - file: The file to report a failure in.
///   - line: The line to report a failure at.
///   - scope: Creates the objects and returns a weak reference to the one to watch.
public func assertDeallocated(
    _ message: @autoclosure () -> String = "",
    timeout: TimeInterval = 0,
    file: StaticString = #filePath,
    line: UInt = #line,
    _ scope: () throws -> WeakReference
) rethrows {
    try assertDeallocated(message(), timeout: timeout, file: file, line: line) { [try scope()] }
}
