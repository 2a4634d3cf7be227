import Ripple

/// The `command` suite: the overhead of a sync `execute` against a direct closure call that does
/// the same work with the same hold on its owner.
///
/// Two element kinds:
/// - `sync-nonisolated`: `Command(nonisolatedPerform:canExecute:)`, whose `@Sendable` closures
///   capture the owner and run on the calling thread without the main-thread check. Its `closure`
///   engine calls a closure doing the same work on the same owner: the command's own machinery,
///   and nothing else, is the difference.
/// - `sync-weak-owner`: STT's shape, `Command(delegate:perform:canExecute:)`, main-actor, executed
///   on the main thread, which holds the owner
///   weakly so that the owner can hold the command without a cycle. Its `closure` engine is the
///   call you would write by hand for the same hold, `{ [weak owner] in … }`: load the owner
///   strongly through a weak reference, check the predicate, call, release. A third engine,
///   `strong-closure`, makes the direct call on a strongly held owner, so the table also shows
///   what the weak reference alone costs.
enum CommandBenchmarks {
    static let suite = BenchmarkSuite(
        name: "command",
        summary:
            "sync `Command.execute()` (`ripple`) vs a direct closure call with the same hold on the owner (`closure`)",
        makeGroups: { mode, _ in groups(quick: mode == .quick) })

    static func groups(quick: Bool) -> [BenchmarkGroup] {
        let sizes: [(String, Int)] = quick ? [("10k", 10_000)] : [("10k", 10_000), ("100k", 100_000)]
        return sizes.flatMap { name, count in
            [
                group(name, count, element: "sync-nonisolated", weakOwner: false) { owner in
                    Command(nonisolatedPerform: { owner.work() }, canExecute: { owner.enabled })
                },
                group(name, count, element: "sync-weak-owner", weakOwner: true) { owner in
                    Command(delegate: owner, perform: { $0.work() }, canExecute: { $0.enabled })
                },
            ]
        }
    }

    /// The tasks of one element kind, on a fresh owner.
    private static func group(
        _ scenario: String, _ count: Int, element: String, weakOwner: Bool,
        makeCommand: (Owner) -> Command
    ) -> BenchmarkGroup {
        let owner = Owner()
        let command = makeCommand(owner)
        let closure: (Owner) -> Void = { $0.work() }
        func task(_ engine: String, _ body: @escaping () -> Int?) -> BenchmarkTask {
            BenchmarkTask(suite: "command", scenario: scenario, element: element, engine: engine, n: count, body: body)
        }
        let strongCall = { () -> Int? in
            for _ in 0..<count { Owner.call(closure, owner) }
            blackHole(owner.count)
            return nil
        }
        let reference = WeakReference(owner)
        let weakCall = { () -> Int? in
            for _ in 0..<count { Owner.callWeakly(closure, reference) }
            blackHole(owner.count)
            return nil
        }
        let execute = { () -> Int? in
            for _ in 0..<count { command.execute() }
            blackHole(owner.count)
            return nil
        }
        if weakOwner {
            return BenchmarkGroup(tasks: [
                task("closure", weakCall), task("ripple", execute), task("strong-closure", strongCall),
            ])
        }
        return BenchmarkGroup(tasks: [task("closure", strongCall), task("ripple", execute)])
    }

    /// The work both engines run: one increment.
    final class Owner: @unchecked Sendable {
        // @unchecked: the benchmark touches it from one thread only.
        var count = 0
        var enabled = true

        func work() { count &+= 1 }

        /// A call through a closure the optimizer cannot inline away, behind the same predicate
        /// as the command's.
        @inline(never)
        static func call(_ closure: (Owner) -> Void, _ owner: Owner) {
            guard owner.enabled else { return }
            closure(owner)
        }

        /// The same call through a weak reference: load the owner strongly, check the predicate,
        /// call, release.
        @inline(never)
        static func callWeakly(_ closure: (Owner) -> Void, _ reference: WeakReference) {
            guard let owner = reference.value, owner.enabled else { return }
            closure(owner)
        }
    }

    /// A weak reference to the owner, as a command holds it.
    final class WeakReference: @unchecked Sendable {
        // @unchecked: the benchmark touches it from one thread only.
        weak var value: Owner?
        init(_ value: Owner) { self.value = value }
    }
}
