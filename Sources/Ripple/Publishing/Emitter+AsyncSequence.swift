extension Emitter {
    /// The values sent from now on, as an asynchronous sequence.
    ///
    /// <!-- swift
    /// struct User: Sendable {
    ///     var name: String
    /// }
    /// func greet(_ user: User) {}
    /// -->
    /// ```swift
    /// func greetEach(_ loggedIn: Emitter<User>) async {
    ///     for await user in loggedIn.values { greet(user) }
    /// }
    /// ```
    ///
    /// Values are buffered without limit until the loop takes them. The subscription ends when the
    /// loop ends or its task is cancelled.
    public var values: AsyncStream<Value> {
        AsyncStream(Value.self, bufferingPolicy: .unbounded) { continuation in
            let token = self.subscribe(on: .synchronous) { value in
                continuation.yield(value)
            }
            continuation.onTermination = { _ in token.cancel() }
        }
    }
}
