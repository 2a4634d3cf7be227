/// Counts the live instances of `Tracked`, so that a test can check that every element a
/// container held was released exactly once: none kept (a leak), none freed early (a
/// use-after-free, which AddressSanitizer reports and a wrong count betrays).
///
/// Single-threaded: give each thread its own census.
public final class Census {
    /// The `Tracked` instances of this census that are alive.
    public private(set) var alive = 0

    public init() {}

    fileprivate func born() { alive += 1 }
    fileprivate func died() { alive -= 1 }
}

/// A reference-counted element with a value, counted by its `Census` while it lives.
public final class Tracked {
    /// The element's value.
    public let value: Int
    private let census: Census

    public init(_ value: Int, _ census: Census) {
        self.value = value
        self.census = census
        census.born()
    }

    deinit { census.died() }
}
