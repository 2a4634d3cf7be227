import Foundation

/// Formats results as Markdown tables and JSON records.
enum BenchmarkReport {
    /// A Markdown table of one suite's results, with each engine's ratio to the `floor` engine of
    /// the same scenario and element (or to `array`/`closure` for suites that have those baselines)
    /// and its throughput: elements per second of the median (for a diff, the source's elements
    /// plus the target's).
    static func markdown(suite: BenchmarkSuite, results: [BenchmarkResult], notes: [String]) -> String {
        var lines = ["### `\(suite.name)`: \(suite.summary)", ""]
        lines.append("| scenario | element | engine | n | median | min | vs baseline | throughput | moves |")
        lines.append("|---|---|---|---:|---:|---:|---:|---:|---:|")
        for result in results {
            let task = result.task
            let baseline = results.first {
                $0.task.scenario == task.scenario && $0.task.element == task.element
                    && baselineEngines.contains($0.task.engine)
            }
            let ratio =
                baseline.map {
                    $0.medianNanoseconds == 0
                        ? "–" : format(Double(result.medianNanoseconds) / Double($0.medianNanoseconds)) + "×"
                } ?? "–"
            lines.append(
                "| \(task.scenario) | \(task.element) | \(task.engine) | \(task.n) | "
                    + "\(duration(result.medianNanoseconds)) | \(duration(result.minNanoseconds)) | "
                    + "\(ratio) | \(result.throughput.map(throughput) ?? "–") | \(result.moves.map(String.init) ?? "–") |"
            )
        }
        if !notes.isEmpty {
            lines.append("")
            lines.append(contentsOf: notes.map { "- \($0)" })
        }
        return lines.joined(separator: "\n")
    }

    /// The engines other engines are compared with.
    static let baselineEngines: Set<String> = ["floor", "array", "closure"]

    /// A JSON object: `"header"`, where and how the run was measured (``BenchmarkHeader``), then
    /// `"results"`, an array of records with the keys `suite`, `scenario`, `element`, `engine`,
    /// `n`, `elements` (processed per run), `median_ns`, `min_ns`, `runs`, `elements_per_s`, and
    /// `moves` where it applies.
    static func json(_ results: [BenchmarkResult], header: BenchmarkHeader) -> String {
        let records = results.map { result -> String in
            let task = result.task
            var fields = [
                "\"suite\": \(quoted(task.suite))",
                "\"scenario\": \(quoted(task.scenario))",
                "\"element\": \(quoted(task.element))",
                "\"engine\": \(quoted(task.engine))",
                "\"n\": \(task.n)",
                "\"elements\": \(task.elements ?? task.n)",
                "\"median_ns\": \(result.medianNanoseconds)",
                "\"min_ns\": \(result.minNanoseconds)",
                "\"runs\": \(result.runs)",
                "\"elements_per_s\": \(result.throughput.map { String(Int64($0.rounded())) } ?? "null")",
            ]
            if let moves = result.moves { fields.append("\"moves\": \(moves)") }
            return "    {" + fields.joined(separator: ", ") + "}"
        }
        return "{\n  \"header\": \(header.json),\n  \"results\": [\n" + records.joined(separator: ",\n") + "\n  ]\n}\n"
    }

    private static func quoted(_ text: String) -> String { JSONText.quoted(text) }

    /// Elements per second with three significant figures: `850 k/s`, `12.3 M/s`, `1.20 G/s`.
    static func throughput(_ perSecond: Double) -> String {
        switch perSecond {
        case ..<1_000: return String(format: "%.3g /s", perSecond)
        case ..<1_000_000: return String(format: "%.3g k/s", perSecond / 1_000)
        case ..<1_000_000_000: return String(format: "%.3g M/s", perSecond / 1_000_000)
        default: return String(format: "%.3g G/s", perSecond / 1_000_000_000)
        }
    }

    /// A byte count in KiB or MiB.
    static func bytes(_ count: Int) -> String {
        count < 1 << 20
            ? String(format: "%.0f KiB", Double(count) / 1024) : String(format: "%.1f MiB", Double(count) / 1_048_576)
    }

    static func format(_ value: Double) -> String {
        String(format: value < 10 ? "%.2f" : "%.0f", value)
    }

    /// A human-readable duration: ns, µs, ms or s with three significant figures.
    static func duration(_ nanoseconds: Int64) -> String {
        let value = Double(nanoseconds)
        switch value {
        case ..<1_000: return "\(nanoseconds) ns"
        case ..<1_000_000: return String(format: "%.3g µs", value / 1_000)
        case ..<1_000_000_000: return String(format: "%.3g ms", value / 1_000_000)
        default: return String(format: "%.3g s", value / 1_000_000_000)
        }
    }
}
