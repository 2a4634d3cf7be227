/// Keeps a subscription alive: cancel it, or let it go, to stop receiving values.
///
/// A token cancels its subscription when ``cancel()`` is called or when the token is deallocated.
/// **A token that is discarded cancels at once**, so keep it: in a property, in a ``TokenBag``, or
/// in a `Set` with ``store(in:)-(Set<SubscriptionToken>)``. The compiler warns about an unused result of
/// every `subscribe` for that reason.
///
/// <!-- swift
/// struct Book: Identifiable, Equatable, Sendable {
///     var id: Int
///     var title: String
/// }
/// -->
/// ```swift
/// @MainActor
/// final class BooksPresenter {
///     private let tokens = TokenBag()
///     init(books: ObservableCollection<Book>) {
///         books.subscribe { [weak self] change in self?.render(change) }.store(in: tokens)
///     }
///     private func render(_ change: CollectionChange<Book>) { /* … */ }
/// }
/// ```
///
/// # Thread Safety
/// `cancel()` may be called from any thread, any number of times; only the first call acts.
/// Cancelling from inside the handler, or on the queue the handler runs on, stops every later
/// delivery. Cancelling from another thread stops every later delivery except, at most, one that
/// was already under way.
public final class SubscriptionToken: Hashable, Sendable {
    private let action: LockedState<(@Sendable () -> Void)?>

    /// Creates a token that runs `cancel` once, when cancelled or deallocated.
    ///
    /// - Parameter cancel: The action that ends the subscription.
    public init(cancel: @escaping @Sendable () -> Void) {
        action = LockedState(cancel)
    }

    /// Ends the subscription. Calling it again does nothing.
    public func cancel() {
        let pending = action.withLock { action -> (@Sendable () -> Void)? in
            defer { action = nil }
            return action
        }
        pending?()
    }

    /// Whether ``cancel()`` has run.
    public var isCancelled: Bool { action.withLock { $0 == nil } }

    deinit {
        cancel()
    }

    /// Keeps the token in `set` until it is removed or the set is deallocated.
    ///
    /// - Parameter set: The set that owns the token.
    public func store(in set: inout Set<SubscriptionToken>) {
        set.insert(self)
    }

    /// Keeps the token in `bag` until the bag is emptied or deallocated.
    ///
    /// - Parameter bag: The bag that owns the token.
    public func store(in bag: TokenBag) {
        bag.insert(self)
    }

    /// Tokens are equal only to themselves.
    public static func == (lhs: SubscriptionToken, rhs: SubscriptionToken) -> Bool { lhs === rhs }

    /// Hashes the token's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// A thread-safe bag of subscription tokens that cancels them all when emptied or deallocated.
public final class TokenBag: Sendable {
    private let tokens = LockedState<[SubscriptionToken]>([])

    /// Creates an empty bag.
    public init() {}

    /// Adds a token to the bag.
    ///
    /// - Parameter token: The token to keep.
    public func insert(_ token: SubscriptionToken) {
        tokens.withLock { $0.append(token) }
    }

    /// The number of tokens in the bag.
    public var count: Int { tokens.withLock { $0.count } }

    /// Cancels every token and empties the bag.
    public func cancelAll() {
        let taken = tokens.withLock { tokens -> [SubscriptionToken] in
            defer { tokens = [] }
            return tokens
        }
        for token in taken { token.cancel() }
    }

    deinit {
        cancelAll()
    }
}
