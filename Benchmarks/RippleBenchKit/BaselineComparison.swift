import Foundation

/// One measured cell, as a JSON file records it: a suite's scenario on one element kind, by one
/// engine, with its median.
struct BenchmarkRecord: Equatable {
    var suite: String
    var scenario: String
    var element: String
    var engine: String
    var medianNanoseconds: Int64

    /// `suite/scenario/element/engine`, the name of the cell in messages.
    var cell: String { "\(suite)/\(scenario)/\(element)/\(engine)" }

    /// The records of `results`.
    static func records(_ results: [BenchmarkResult]) -> [BenchmarkRecord] {
        results.map {
            BenchmarkRecord(
                suite: $0.task.suite, scenario: $0.task.scenario, element: $0.task.element, engine: $0.task.engine,
                medianNanoseconds: $0.medianNanoseconds)
        }
    }

    /// The records of a JSON file written by `--json`: an object with `"results"` (and a
    /// `"header"`), or, from runners before the header, the array of records alone. Other keys of
    /// a record are ignored.
    static func parse(_ bytes: [UInt8], file: String) throws(BenchmarkFileError) -> (
        header: BaselineHeader?, records: [BenchmarkRecord]
    ) {
        let baseline = try JSONInput.decode(BaselineFile.self, from: Data(bytes), file: file)
        return (baseline.header, baseline.records)
    }
}

extension BenchmarkRecord: Decodable {
    private enum CodingKeys: String, CodingKey {
        case suite, scenario, element, engine
        case medianNanoseconds = "median_ns"
    }

    init(from decoder: any Decoder) throws {
        let result = (decoder.codingPath.last?.intValue ?? 0) + 1
        guard let fields = try? decoder.container(keyedBy: CodingKeys.self) else {
            throw JSONInputProblem(
                message: "result \(result): expected a record object, found \(try JSONValueKind(of: decoder).summary)")
        }
        func value<Value: Decodable>(_ key: CodingKeys, _ type: Value.Type, _ expected: String) throws -> Value {
            guard fields.contains(key) else {
                throw JSONInputProblem(message: "result \(result): missing field \"\(key.rawValue)\"")
            }
            if let value = try? fields.decode(Value.self, forKey: key) { return value }
            let found = try JSONValueKind(of: fields.superDecoder(forKey: key)).summary
            throw JSONInputProblem(
                message: "result \(result): expected \"\(key.rawValue)\" to be \(expected), found \(found)")
        }
        suite = try value(.suite, String.self, "a string")
        scenario = try value(.scenario, String.self, "a string")
        element = try value(.element, String.self, "a string")
        engine = try value(.engine, String.self, "a string")
        let median = try value(.medianNanoseconds, Int64.self, "a whole number of nanoseconds")
        guard median >= 0 else {
            throw JSONInputProblem(
                message: "result \(result): expected \"median_ns\" to be a whole number of nanoseconds, "
                    + "found the number \(median)")
        }
        medianNanoseconds = median
    }
}

/// Where and how a baseline was measured, as far as its `"header"` says (``BenchmarkHeader``
/// writes it). Every field is optional: a field missing or of another type is left out.
struct BaselineHeader: Decodable, Equatable {
    var processor: String?
    var cores: Int?
    var swift: String?
    var configuration: String?
    var mode: String?
    var runs: Int?
    var date: String?
    var loadAtStart: Double?
    var loadAtEnd: Double?

    private enum CodingKeys: String, CodingKey {
        case processor, cores, swift, configuration, mode, runs, date
        case loadAtStart = "load_start"
        case loadAtEnd = "load_end"
    }

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        func value<Value: Decodable>(_ key: CodingKeys) -> Value? {
            (try? fields.decodeIfPresent(Value.self, forKey: key)) ?? nil
        }
        processor = value(.processor)
        cores = value(.cores)
        swift = value(.swift)
        configuration = value(.configuration)
        mode = value(.mode)
        runs = value(.runs)
        date = value(.date)
        loadAtStart = value(.loadAtStart)
        loadAtEnd = value(.loadAtEnd)
    }
}

/// A file written by `--json`, as `JSONDecoder` reads it for `--compare`.
private struct BaselineFile: Decodable {
    var header: BaselineHeader?
    var records: [BenchmarkRecord]

    private enum CodingKeys: String, CodingKey {
        case header, results
    }

    init(from decoder: any Decoder) throws {
        if (try? decoder.unkeyedContainer()) != nil {
            // The array of records alone, from runners before the header.
            records = try [BenchmarkRecord](from: decoder)
            return
        }
        guard let object = try? decoder.container(keyedBy: CodingKeys.self) else {
            throw JSONInputProblem(
                message: "expected a ripple-bench JSON file, an object with \"header\" and \"results\", found "
                    + (try JSONValueKind(of: decoder)).summary,
                isTopLevel: true)
        }
        guard (try? object.nestedUnkeyedContainer(forKey: .results)) != nil else {
            throw JSONInputProblem(
                message: "expected an object with \"results\": [records …] (ripple-bench --json writes one), found "
                    + (object.contains(.results)
                        ? "\"results\": \(try JSONValueKind(of: object.superDecoder(forKey: .results)).summary)"
                        : "no \"results\""),
                isTopLevel: true)
        }
        records = try object.decode([BenchmarkRecord].self, forKey: .results)
        header = (try? object.decodeIfPresent(BaselineHeader.self, forKey: .header)) ?? nil
    }
}

/// A run compared with a baseline run (`--compare BASELINE.json`), cell by cell: the change of
/// each median, and the change of each ratio to its scenario's baseline engine (`floor`, `array`
/// or `closure`), which travels better between machines than the median does.
///
/// A cell regresses when its ratio grew by more than the tolerance. The baseline engines
/// themselves (ratio 1) and `stdlib` (the standard library's diff, a reference rather than
/// Ripple's work) are shown but never regress.
struct BaselineComparison {
    struct Row {
        var current: BenchmarkRecord
        /// The same cell in the baseline, or `nil` when it is new.
        var baseline: BenchmarkRecord?
        var currentRatio: Double?
        var baselineRatio: Double?
        var regressed: Bool

        /// The relative change of the median, e.g. 0.08 for 8% slower.
        var medianChange: Double? {
            guard let baseline, baseline.medianNanoseconds > 0 else { return nil }
            return Double(current.medianNanoseconds) / Double(baseline.medianNanoseconds) - 1
        }

        /// The relative change of the ratio to the baseline engine.
        var ratioChange: Double? {
            guard let currentRatio, let baselineRatio, baselineRatio > 0 else { return nil }
            return currentRatio / baselineRatio - 1
        }
    }

    /// Engines whose ratio never fails a comparison.
    static let referenceEngines: Set<String> = BenchmarkReport.baselineEngines.union(["stdlib"])

    var rows: [Row]
    /// The largest allowed growth of a ratio, e.g. 0.1 for 10%.
    var tolerance: Double
    /// Cells of the baseline that this run did not measure.
    var unmatched: Int

    init(baseline: [BenchmarkRecord], current: [BenchmarkRecord], tolerance: Double) {
        self.tolerance = tolerance
        let baselineRatios = BaselineComparison.ratios(baseline)
        let currentRatios = BaselineComparison.ratios(current)
        var byCell: [String: BenchmarkRecord] = [:]
        for record in baseline { byCell[record.cell] = record }
        rows = current.enumerated().map { index, record in
            let old = byCell[record.cell]
            let oldRatio = old.flatMap { baselineRatios[$0.cell] }
            let newRatio = currentRatios[record.cell]
            var regressed = false
            if !BaselineComparison.referenceEngines.contains(record.engine), let oldRatio, let newRatio, oldRatio > 0 {
                regressed = newRatio > oldRatio * (1 + tolerance)
            }
            return Row(
                current: record, baseline: old, currentRatio: newRatio, baselineRatio: oldRatio, regressed: regressed)
        }
        let measured = Set(current.map(\.cell))
        unmatched = Set(baseline.map(\.cell)).subtracting(measured).count
    }

    /// Each cell's median divided by the median of its scenario's baseline engine.
    static func ratios(_ records: [BenchmarkRecord]) -> [String: Double] {
        var baselines: [String: Int64] = [:]
        for record in records where BenchmarkReport.baselineEngines.contains(record.engine) {
            let key = "\(record.suite)/\(record.scenario)/\(record.element)"
            if baselines[key] == nil { baselines[key] = record.medianNanoseconds }
        }
        var ratios: [String: Double] = [:]
        for record in records {
            guard let base = baselines["\(record.suite)/\(record.scenario)/\(record.element)"], base > 0 else {
                continue
            }
            ratios[record.cell] = Double(record.medianNanoseconds) / Double(base)
        }
        return ratios
    }

    /// The cells whose ratio regressed beyond the tolerance.
    var regressions: [Row] { rows.filter(\.regressed) }

    /// The process's exit status: 0 when no cell regressed, 1 otherwise.
    var exitStatus: Int32 { regressions.isEmpty ? 0 : 1 }

    /// `tolerance` as a percentage, e.g. `10%`.
    var toleranceText: String { BaselineComparison.percent(tolerance, signed: false) }

    static func percent(_ value: Double, signed: Bool = true) -> String {
        let text = String(format: abs(value) < 0.1 ? "%.1f%%" : "%.0f%%", value * 100)
        return signed && value >= 0 ? "+" + text : text
    }

    /// One line per regressed cell: its name, its ratio then and now, and the change.
    var regressionLines: [String] {
        regressions.map { row in
            "\(row.current.cell): \(BenchmarkReport.format(row.baselineRatio ?? 0))× → \(BenchmarkReport.format(row.currentRatio ?? 0))× "
                + "the baseline engine (\(row.ratioChange.map { BaselineComparison.percent($0) } ?? "–"))"
        }
    }

    /// The comparison as Markdown: a table of every cell, then the verdict.
    func markdown(baselinePath: String, baselineHeader: String?) -> String {
        var lines = ["### Compared with `\(baselinePath)`", ""]
        if let baselineHeader { lines += [baselineHeader, ""] }
        lines.append(
            "Each cell's median and its ratio to the scenario's baseline engine (`vs baseline`), then and now. "
                + "A cell regresses when its ratio grew by more than \(toleranceText); `stdlib` and the baseline engines never do."
        )
        lines.append("")
        lines.append(
            "| suite | scenario | element | engine | median then | median now | change | vs baseline then | now | change | |"
        )
        lines.append("|---|---|---|---|---:|---:|---:|---:|---:|---:|---|")
        for row in rows {
            let record = row.current
            let verdict = row.regressed ? "**regressed**" : row.baseline == nil ? "new" : ""
            lines.append(
                "| \(record.suite) | \(record.scenario) | \(record.element) | \(record.engine) | "
                    + "\(row.baseline.map { BenchmarkReport.duration($0.medianNanoseconds) } ?? "–") | "
                    + "\(BenchmarkReport.duration(record.medianNanoseconds)) | "
                    + "\(row.medianChange.map { BaselineComparison.percent($0) } ?? "–") | "
                    + "\(row.baselineRatio.map { BenchmarkReport.format($0) + "×" } ?? "–") | "
                    + "\(row.currentRatio.map { BenchmarkReport.format($0) + "×" } ?? "–") | "
                    + "\(BaselineComparison.referenceEngines.contains(record.engine) ? "–" : row.ratioChange.map { BaselineComparison.percent($0) } ?? "–") | "
                    + "\(verdict) |")
        }
        lines.append("")
        if unmatched > 0 {
            lines.append("\(unmatched) cell\(unmatched == 1 ? "" : "s") of the baseline not measured in this run.")
            lines.append("")
        }
        if regressions.isEmpty {
            lines.append("No cell's ratio to its baseline engine regressed beyond \(toleranceText).")
        } else {
            lines.append(
                "**\(regressions.count) cell\(regressions.count == 1 ? "" : "s") regressed beyond \(toleranceText):**")
            lines += regressionLines.map { "- \($0)" }
        }
        return lines.joined(separator: "\n")
    }

    /// Parses a tolerance: a percentage, with or without `%` (`10%`, `10`, `12.5%`), at least 0.
    static func tolerance(_ text: String) -> Double? {
        let number = text.hasSuffix("%") ? String(text.dropLast()) : text
        guard let value = Double(number), value >= 0, value.isFinite else { return nil }
        return value / 100
    }

    /// A one-line summary of a baseline's header: where and how it was measured.
    static func describe(header: BaselineHeader?) -> String? {
        guard let header else { return nil }
        var parts: [String] = []
        if let processor = header.processor { parts.append(processor + (header.cores.map { ", \($0) cores" } ?? "")) }
        if let swift = header.swift { parts.append("Swift \(swift)") }
        if let configuration = header.configuration { parts.append(configuration) }
        if let mode = header.mode { parts.append("\(mode) run" + (header.runs.map { ", \($0) runs" } ?? "")) }
        if let date = header.date { parts.append(date) }
        if let start = header.loadAtStart, let end = header.loadAtEnd {
            parts.append(String(format: "load %.2f → %.2f", start, end))
        }
        return parts.isEmpty ? nil : "Baseline: " + parts.joined(separator: "; ") + "."
    }
}
