import Ripple

/// The `command` suite: the overhead of a sync `execute` against a direct closure call.
///
/// Two element kinds, each against the same direct call:
/// - `sync`: the shape, `Command(delegate:handler:canExecute:)`, with the owner held weakly
///   and a predicate. Each `execute` must retain the owner through its weak reference and release
///   it, which on a weakly referenced object goes through the runtime's side table.
/// - `sync-ownerless`: `Command(handler:canExecute:)`, the same body and predicate capturing the
///   owner themselves: the command's own machinery, without the weak owner.
///
/// The `sync` kind has a third engine, `weak-closure`: the same direct call, made the way any
/// command that holds its owner weakly must make it, loading the owner strongly through a weak
/// reference, checking the predicate, and releasing the owner. It is the floor of `sync`, not a
/// baseline; ratios stay against `closure`.
enum CommandBenchmarks {
    static let suite = BenchmarkSuite(
        name: "command",
        summary: "sync `Command.execute()` (`ripple`) vs a direct closure call (`closure`)",
        makeGroups: groups(quick:))

    static func groups(quick: Bool) -> [BenchmarkGroup] {
        let sizes: [(String, Int)] = quick ? [("10k", 10_000)] : [("10k", 10_000), ("100k", 100_000)]
        return sizes.flatMap { name, count in
            [
                group(name, count, element: "sync", weakFloor: true) { owner in
                    Command(delegate: owner, handler: { $0.work() }, canExecute: { $0.enabled })
                },
                group(name, count, element: "sync-ownerless") { owner in
                    Command(handler: { owner.work() }, canExecute: { owner.enabled })
                },
            ]
        }
    }

    /// The `closure` and `ripple` tasks of one element kind, on a fresh owner.
    private static func group(
        _ scenario: String, _ count: Int, element: String, weakFloor: Bool = false,
        makeCommand: (Owner) -> Command
    ) -> BenchmarkGroup {
        let owner = Owner()
        let command = makeCommand(owner)
        let closure: (Owner) -> Void = { $0.work() }
        func task(_ engine: String, _ body: @escaping () -> Int?) -> BenchmarkTask {
            BenchmarkTask(suite: "command", scenario: scenario, element: element, engine: engine, n: count, body: body)
        }
        let reference = WeakReference(owner)
        let floor = weakFloor ? [
            task("weak-closure") {
                for _ in 0..<count { Owner.callWeakly(closure, reference) }
                blackHole(owner.count)
                return nil
            }
        ] : []
        return BenchmarkGroup(tasks: [
            task("closure") {
                for _ in 0..<count { Owner.call(closure, owner) }
                blackHole(owner.count)
                return nil
            },
            task("ripple") {
                for _ in 0..<count { command.execute() }
                blackHole(owner.count)
                return nil
            },
        ] + floor)
    }

    /// The work both engines run: one increment.
    final class Owner: @unchecked Sendable {
        // @unchecked: the benchmark touches it from one thread only.
        var count = 0
        var enabled = true

        func work() { count &+= 1 }

        /// A call through a closure the optimizer cannot inline away.
        @inline(never)
        static func call(_ closure: (Owner) -> Void, _ owner: Owner) { closure(owner) }

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
