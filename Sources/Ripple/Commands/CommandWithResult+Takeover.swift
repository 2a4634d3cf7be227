// The takeover under `.enqueue`: when the last run ends, the oldest queued parameter takes over
// as a new run, already registered by `CommandMachine.end`, with no `false`/`true` flicker of the
// executing state. A sync body's queued runs run one after another on the thread that ended it.

extension CommandWithResult {
    /// A queued entry, as the box this command made.
    static func queuedRun(_ entry: QueuedEntry) -> QueuedRun<Parameter, Output> {
        // Safe: the machine queues only the boxes this command's `start` made.
        unsafeDowncast(entry.run, to: QueuedRun<Parameter, Output>.self)
    }

    /// Runs the queued parameter `first`, already registered as a sync run, then each one that
    /// takes over after it, on this thread (they nest nothing). A `nil` owner (it has gone) ends
    /// each as cancelled without running the body.
    func runQueued(_ first: QueuedEntry, owner: AnyOwner?) {
        var taken: QueuedEntry? = first
        while let entry = taken {
            let run = Self.queuedRun(entry)
            guard let owner else {
                taken = endSync(failing: OwnerReleased(), run.waiter, thread: nil)
                continue
            }
            do {
                taken = endSync(succeeding: try callSync(owner, run.parameter), run.waiter, thread: nil)
            } catch {
                taken = endSync(failing: error, run.waiter, thread: nil)
            }
        }
    }
}
