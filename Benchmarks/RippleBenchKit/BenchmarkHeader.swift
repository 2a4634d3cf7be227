import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where and how a run was measured, at the top of every report and JSON file: two runs can be
/// compared responsibly only when these agree.
struct BenchmarkHeader: Equatable {
    /// The processor's model name, e.g. `AMD EPYC 9B45`, or `unknown`.
    var processor: String
    /// The processors available to the process.
    var cores: Int
    /// The operating system.
    var system: String
    /// The Swift compiler that built the runner, e.g. `6.3`.
    var swift: String
    /// `release` or `debug`.
    var configuration: String
    /// Whether `RIPPLE_INTERNAL_CHECKS` was compiled in.
    var internalChecks: Bool
    /// Whether `--force` made the runner measure a debug or checked build.
    var forced: Bool
    /// `quick`, `default`, `full` or `lists`.
    var mode: String
    /// Measured runs per task.
    var runs: Int
    /// Other options that change what is measured (`--threaded`, `--cold`).
    var options: [String]
    /// When the run started, ISO 8601 in UTC.
    var date: String
    /// The 1-minute load average at the start and at the end (`nil` where the platform does not tell).
    var loadAtStart: Double?
    var loadAtEnd: Double?

    /// The header of a run starting now.
    static func current(mode: String, runs: Int, options: [String], forced: Bool) -> BenchmarkHeader {
        BenchmarkHeader(
            processor: processorName(), cores: ProcessInfo.processInfo.activeProcessorCount,
            system: ProcessInfo.processInfo.operatingSystemVersionString, swift: compilerVersion,
            configuration: isDebugBuild ? "debug" : "release", internalChecks: hasInternalChecks, forced: forced,
            mode: mode, runs: runs, options: options,
            date: ISO8601DateFormatter().string(from: Date()), loadAtStart: loadAverage(), loadAtEnd: nil)
    }

    /// Whether the runner is a debug build.
    static var isDebugBuild: Bool {
        #if DEBUG
        return true
        #else
        return false
        #endif
    }

    /// Whether `RIPPLE_INTERNAL_CHECKS` is compiled in.
    static var hasInternalChecks: Bool {
        #if RIPPLE_INTERNAL_CHECKS
        return true
        #else
        return false
        #endif
    }

    /// The compiler's version, to the minor release (the compiler tells no more at build time).
    static var compilerVersion: String {
        #if compiler(>=6.5)
        return "6.5 or newer"
        #elseif compiler(>=6.4)
        return "6.4"
        #elseif compiler(>=6.3)
        return "6.3"
        #elseif compiler(>=6.2)
        return "6.2"
        #elseif compiler(>=6.1)
        return "6.1"
        #else
        return "6.0"
        #endif
    }

    /// The 1-minute load average, or `nil`.
    static func loadAverage() -> Double? {
        var loads = [Double](repeating: 0, count: 3)
        return getloadavg(&loads, 3) >= 1 ? loads[0] : nil
    }

    /// The processor's model name: `/proc/cpuinfo` on Linux, `sysctl` on Apple platforms.
    static func processorName() -> String {
        #if os(Linux)
        if let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) {
            for line in info.split(separator: "\n") where line.hasPrefix("model name") {
                if let colon = line.firstIndex(of: ":") {
                    return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
            }
        }
        return "unknown"
        #elseif canImport(Darwin)
        var size = 0
        guard sysctlbyname("machdep.cpu.brand_string", nil, &size, nil, 0) == 0, size > 0 else { return "unknown" }
        var buffer = [CChar](repeating: 0, count: size)
        guard sysctlbyname("machdep.cpu.brand_string", &buffer, &size, nil, 0) == 0 else { return "unknown" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #else
        return "unknown"
        #endif
    }

    /// The build, with its marks: `release`, or `debug, forced`, `release with RIPPLE_INTERNAL_CHECKS, forced`.
    var build: String {
        var text = configuration
        if internalChecks { text += " with RIPPLE_INTERNAL_CHECKS" }
        if forced { text += " (forced with --force: not comparable with a release run)" }
        return text
    }

    private static func load(_ value: Double?) -> String {
        value.map { String(format: "%.2f", $0) } ?? "unknown"
    }

    /// The Markdown lines at the top of a report.
    var markdown: String {
        var lines = [
            "- processor: \(processor), \(cores) core\(cores == 1 ? "" : "s") (\(system))",
            "- Swift \(swift), \(build) build",
            "- \(mode) run: median and minimum of \(runs) runs per task after a warm-up; engines of one scenario run round-robin"
                + (options.isEmpty ? "" : "; " + options.joined(separator: ", ")),
            "- load average (1 min): \(BenchmarkHeader.load(loadAtStart)) at the start, \(BenchmarkHeader.load(loadAtEnd)) at the end",
            "- started \(date)",
        ]
        if forced || internalChecks || configuration != "release" {
            lines.insert("- **not a measurement to compare: \(build)**", at: 0)
        }
        return lines.joined(separator: "\n")
    }

    /// The JSON object written as `"header"`.
    var json: String {
        func number(_ value: Double?) -> String { value.map { String(format: "%.2f", $0) } ?? "null" }
        let fields = [
            "\"processor\": \(JSONText.quoted(processor))",
            "\"cores\": \(cores)",
            "\"system\": \(JSONText.quoted(system))",
            "\"swift\": \(JSONText.quoted(swift))",
            "\"configuration\": \(JSONText.quoted(configuration))",
            "\"internal_checks\": \(internalChecks)",
            "\"forced\": \(forced)",
            "\"mode\": \(JSONText.quoted(mode))",
            "\"runs\": \(runs)",
            "\"options\": [\(options.map(JSONText.quoted).joined(separator: ", "))]",
            "\"date\": \(JSONText.quoted(date))",
            "\"load_start\": \(number(loadAtStart))",
            "\"load_end\": \(number(loadAtEnd))",
        ]
        return "{\n    " + fields.joined(separator: ",\n    ") + "\n  }"
    }
}
