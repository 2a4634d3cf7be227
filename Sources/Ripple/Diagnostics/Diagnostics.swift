#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A recoverable problem that Ripple handled but will not keep quiet about.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem.
    public enum Kind: String, Sendable, Hashable {
        /// Two elements of one list share an identifier. Ripple paired them in order.
        case duplicateIdentifiers
        /// A view's counts disagreed with a change-set; Ripple reloaded the view instead.
        case viewCountMismatch
        /// An error nobody observed.
        case unobservedError
        /// A view lifecycle event arrived out of UIKit's order; the presenter ignored it.
        case lifecycleOutOfOrder
        /// A batch of updates that its view would reject; Ripple reloaded the view instead.
        case invalidBatch
        /// A cell or header view that cannot show its row's item or its section's value (its
        /// `Item` type is another); the row shows nothing.
        case cellTypeMismatch
        /// A list source's pagination command refused to load a page because its owner is gone:
        /// no page loads any more.
        case paginationStopped
    }

    /// The kind of problem.
    public var kind: Kind

    /// Who reported it, e.g. `ObservableCollection.replace(with:)`.
    public var source: String

    /// What happened, in a sentence.
    public var message: String

    /// Creates a diagnostic.
    ///
    /// - Parameters:
    ///   - kind: The kind of problem.
    ///   - source: Who reports it.
    ///   - message: What happened.
    public init(kind: Kind, source: String, message: String) {
        self.kind = kind
        self.source = source
        self.message = message
    }

    /// `"Ripple: <source>: <message>"`.
    public var description: String { "Ripple: \(source): \(message)" }
}

/// Where Ripple reports recoverable problems: duplicate identifiers, views out of step, errors that
/// nobody observed.
///
/// By default each diagnostic is written to standard error. Install a handler to send them to your
/// logging or crash reporting, or to collect them in a test:
///
/// <!-- swift
/// struct Logger: Sendable {
///     func warning(_ message: String) {}
/// }
/// let logger = Logger()
/// -->
/// ```swift
/// Diagnostics.setHandler { diagnostic in logger.warning("\(diagnostic)") }
/// ```
public enum Diagnostics {
    private static let handler = LockedState<(@Sendable (Diagnostic) -> Void)?>(nil)

    /// Replaces the handler; `nil` restores the default, which writes to standard error.
    ///
    /// - Parameter newHandler: Called with each diagnostic, on the thread that reports it.
    public static func setHandler(_ newHandler: (@Sendable (Diagnostic) -> Void)?) {
        // The old handler is returned, to be released after unlocking: releasing it may run a
        // `deinit` that reports or sets the handler again.
        handler.withLock { current in
            var previous = newHandler
            swap(&previous, &current)
            return previous
        }
    }

    /// Reports a diagnostic to the current handler, outside any lock.
    ///
    /// - Parameter diagnostic: The problem.
    public static func report(_ diagnostic: Diagnostic) {
        if let current = handler.withLock({ $0 }) {
            current(diagnostic)
        } else {
            var line = "\(diagnostic)\n"
            line.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
        }
    }
}
