// An identifier that counts the work a diff does with it, so that a change from linear to
// quadratic behaviour fails a test instead of only slowing a benchmark.

import Foundation

/// Counts `hash(into:)` and `==` calls made on ``CountingID`` values.
///
/// # Thread Safety
/// The counts are guarded by `lock`, so identifiers may be hashed on any thread.
public final class CallCounter: @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = NSLock()
    private var hashCalls = 0
    private var equalityCalls = 0

    /// Creates a counter at zero.
    public init() {}

    /// The number of `hash(into:)` calls since creation or the last ``reset()``.
    public var hashes: Int { locked { hashCalls } }

    /// The number of `==` calls since creation or the last ``reset()``.
    public var equalities: Int { locked { equalityCalls } }

    /// Sets both counts to zero.
    public func reset() {
        locked {
            hashCalls = 0
            equalityCalls = 0
        }
    }

    fileprivate func recordHash() { locked { hashCalls += 1 } }
    fileprivate func recordEquality() { locked { equalityCalls += 1 } }

    // `NSLock.withLock` needs macOS 14 on Apple platforms; lock and unlock by hand instead.
    private func locked<Result>(_ body: () -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}

/// An identifier that reports every `hash(into:)` and `==` call to a ``CallCounter``.
///
/// ```swift
/// let counter = CallCounter()
/// _ = Changeset(from: old, to: new, identity: .key({ CountingID($0.id, counter) }, contentEquals: ==))
/// XCTAssertLessThanOrEqual(counter.hashes, old.count + new.count)
/// ```
public struct CountingID: Hashable, Sendable, CustomStringConvertible {
    /// The identity itself.
    public let value: Int

    /// Where calls are counted.
    public let counter: CallCounter

    /// Creates an identifier.
    ///
    /// - Parameters:
    ///   - value: The identity itself.
    ///   - counter: Where calls are counted.
    public init(_ value: Int, _ counter: CallCounter) {
        self.value = value
        self.counter = counter
    }

    /// Compares the values and counts one equality.
    public static func == (lhs: CountingID, rhs: CountingID) -> Bool {
        lhs.counter.recordEquality()
        return lhs.value == rhs.value
    }

    /// Hashes the value and counts one hash.
    ///
    /// - Parameter hasher: The hasher to feed.
    public func hash(into hasher: inout Hasher) {
        counter.recordHash()
        hasher.combine(value)
    }

    /// The value.
    public var description: String { "\(value)" }
}
