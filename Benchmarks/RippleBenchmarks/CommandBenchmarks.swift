import Ripple

/// The `command` suite: the overhead of a sync `execute` against a direct closure call.
enum CommandBenchmarks {
    static let suite = BenchmarkSuite(
        name: "command",
        summary: "sync `Command.execute()` (`ripple`) vs a direct closure call (`closure`)",
        makeGroups: groups(quick:))

    static func groups(quick: Bool) -> [BenchmarkGroup] {
        let sizes: [(String, Int)] = quick ? [("10k", 10_000)] : [("10k", 10_000), ("100k", 100_000)]
        return sizes.map { name, count in
            let owner = Owner()
            let command = Command(delegate: owner, handler: { $0.work() }, canExecute: { $0.enabled })
            let closure: (Owner) -> Void = { $0.work() }
            func task(_ engine: String, _ body: @escaping () -> Int?) -> BenchmarkTask {
                BenchmarkTask(suite: "command", scenario: name, element: "sync", engine: engine, n: count, body: body)
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
    }

    /// The work both engines run: one increment.
    final class Owner {
        var count = 0
        var enabled = true

        func work() { count &+= 1 }

        /// A call through a closure the optimizer cannot inline away.
        @inline(never)
        static func call(_ closure: (Owner) -> Void, _ owner: Owner) { closure(owner) }
    }
}
