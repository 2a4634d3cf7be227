import Ripple

/// The `command` suite: the overhead of a sync `execute` against a direct closure call.
///
/// Two element kinds, each against the same direct call:
/// - `sync`: the shape, `Command(delegate:handler:canExecute:)`, with the owner held weakly
///   and a predicate. Each `execute` must retain the owner through its weak reference and release
///   it, which on a weakly referenced object goes through the runtime's side table.
/// - `sync-ownerless`: `Command(handler:canExecute:)`, the same body and predicate capturing the
///   owner themselves: the command's own machinery, without the weak owner.
enum CommandBenchmarks {
    static let suite = BenchmarkSuite(
        name: "command",
        summary: "sync `Command.execute()` (`ripple`) vs a direct closure call (`closure`)",
        makeGroups: groups(quick:))

    static func groups(quick: Bool) -> [BenchmarkGroup] {
        let sizes: [(String, Int)] = quick ? [("10k", 10_000)] : [("10k", 10_000), ("100k", 100_000)]
        return sizes.flatMap { name, count in
            [
                group(name, count, element: "sync") { owner in
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
        _ scenario: String, _ count: Int, element: String, makeCommand: (Owner) -> Command
    ) -> BenchmarkGroup {
        let owner = Owner()
        let command = makeCommand(owner)
        let closure: (Owner) -> Void = { $0.work() }
        func task(_ engine: String, _ body: @escaping () -> Int?) -> BenchmarkTask {
            BenchmarkTask(suite: "command", scenario: scenario, element: element, engine: engine, n: count, body: body)
        }
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
        ])
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
    }
}
