import Foundation

/// ripple-bench: measures Ripple's engines against their baselines, side by side in one run.
///
///     swift run -c release ripple-bench                 the default run, about 2½ minutes on 2 cores
///     swift run -c release ripple-bench --quick         small sizes, in seconds (CI)
///     swift run -c release ripple-bench --full          everything, `stdlib` at 100,000, `live` and `storage` included
///     swift run -c release ripple-bench --suite live    one suite (`live` runs only so or in --full)
///     swift run -c release ripple-bench --lists OLD NEW your own lists
///     swift run -c release ripple-bench --json out.json also write JSON
///     swift run -c release ripple-bench --compare base.json --tolerance 10%
///
/// The executable `ripple-bench` only calls ``main(_:)``; everything else lives here, where the
/// tests of `RippleBenchKitTests` reach it.
package enum RippleBench {
    static let suites: [BenchmarkSuite] =
        [
            DiffBenchmarks.suite,
            SectionsBenchmarks.suite,
            SectionsLiveBenchmarks.suite,
            PublishBenchmarks.suite,
            ObserveBenchmarks.suite,
            CommandBenchmarks.suite,
            LiveBenchmarks.suite,
            StorageBenchmarks.suite,
            DerivedBenchmarks.suite,
        ] + screenSuites

    /// The `screen` suite where RippleTesting links (Linux), none elsewhere.
    static var screenSuites: [BenchmarkSuite] {
        #if canImport(RippleTesting)
        [ScreenBenchmarks.suite]
        #else
        []
        #endif
    }

    /// Roughly how many seconds each suite takes on the project's 2-core machine, per mode, for
    /// the estimate printed at the start.
    static let estimatedSeconds: [BenchmarkMode: [String: Int]] = [
        .quick: [
            "diff": 8, "sections": 1, "sections-live": 2, "publish": 2, "observe": 1, "command": 2, "live": 2,
            "storage": 1, "derived": 0, "screen": 10,
        ],
        .standard: [
            "diff": 62, "sections": 6, "sections-live": 8, "publish": 4, "observe": 2, "command": 6, "live": 12,
            "storage": 1, "derived": 12, "screen": 40,
        ],
        .full: [
            "diff": 275, "sections": 6, "sections-live": 8, "publish": 4, "observe": 2, "command": 6, "live": 12,
            "storage": 1, "derived": 45, "screen": 300,
        ],
    ]

    /// Runs ripple-bench with `arguments` (without the program's name) and returns the exit
    /// status: 0, 1 when `--compare` found a regression, 2 for a usage or input error or a refused
    /// build.
    @MainActor
    package static func main(_ arguments: [String]) -> Int32 {
        let suiteNames = suites.map(\.name)
        let options: BenchmarkOptions
        do {
            options = try BenchmarkOptions.parse(arguments, suiteNames: suiteNames)
        } catch {
            printError("\(error)\n\n\(BenchmarkOptions.usage(suiteNames: suiteNames))")
            return 2
        }
        if options.help {
            print(BenchmarkOptions.usage(suiteNames: suiteNames))
            return 0
        }
        if BenchmarkHeader.isDebugBuild || BenchmarkHeader.hasInternalChecks {
            let what = BenchmarkHeader.isDebugBuild ? "a debug build" : "a build with RIPPLE_INTERNAL_CHECKS"
            guard options.force else {
                printError(
                    "refusing to measure \(what): its numbers say nothing about Ripple's speed. "
                        + "Build with `swift run -c release ripple-bench` and without -DRIPPLE_INTERNAL_CHECKS, "
                        + "or pass --force to measure it anyway (the report will say so).")
                return 2
            }
            printError("warning: measuring \(what) (--force); the report is marked as such")
        }

        // Inputs are read before anything is measured, so that a bad file fails at once.
        var runSuites = selectedSuites(options)
        var listRows = 0
        if let paths = options.lists {
            do {
                let pairs = try readLists(paths)
                listRows = pairs.reduce(0) { $0 + $1.old.count + $1.new.count }
                runSuites = [ListsBenchmarks.suite(pairs)]
            } catch {
                printError("\(error)")
                return 2
            }
        }
        var baseline: (records: [BenchmarkRecord], header: BaselineHeader?)?
        if let path = options.comparePath {
            do {
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw BenchmarkFileError(file: path, position: nil, message: "cannot read the file")
                }
                let parsed = try BenchmarkRecord.parse(Array(data), file: path)
                baseline = (parsed.records, parsed.header)
            } catch {
                printError("\(error)")
                return 2
            }
        }

        let log = ProgressLog(style: ProgressLog.standardStyle(quiet: options.quiet)) {
            FileHandle.standardError.write(Data($0.utf8))
        }
        let mode = options.lists == nil ? options.mode.rawValue : "lists"
        var flags: [String] = []
        if options.threaded { flags.append("one idle thread beside (--threaded)") }
        if options.cold { flags.append("each timed run after a 64 MiB memory sweep (--cold)") }
        var header = BenchmarkHeader.current(mode: mode, runs: options.runs, options: flags, forced: options.force)
        log.line(estimate(options: options, suites: runSuites, listRows: listRows))

        if options.threaded {
            Thread.detachNewThread {
                while true { sleep(3_600) }
            }
        }
        let runner = BenchmarkRunner(runs: options.runs, sweep: options.cold ? CacheSweep() : nil, log: log)
        let started = ContinuousClock.now
        var allResults: [BenchmarkResult] = []
        var sections: [String] = []
        for suite in runSuites {
            var results: [BenchmarkResult] = []
            var notes: [String] = []
            for var group in suite.makeGroups(options.mode, options.scenarios) {
                if let scenarios = options.scenarios {
                    group.tasks.removeAll { !scenarios.contains($0.scenario) }
                }
                if let elements = options.elements {
                    group.tasks.removeAll { !elements.contains($0.element) }
                }
                if let engines = options.engines {
                    group.tasks.removeAll { !engines.contains($0.engine) }
                    group.skipped.removeAll { !engines.contains($0.engine) }
                }
                if group.tasks.isEmpty { continue }
                results += runner.measure(group)
                notes += (group.skipped.map(\.reason) + group.notes).filter { !notes.contains($0) }
            }
            log.suiteEnded()
            sections.append(
                BenchmarkReport.markdown(suite: suite, results: results, notes: notes + suite.summarize(results)))
            allResults += results
        }
        header.loadAtEnd = BenchmarkHeader.loadAverage()
        let elapsed = ContinuousClock.now - started
        log.line("ripple-bench: measured in \(minutesAndSeconds(Int(elapsed.components.seconds)))")

        print("# ripple-bench\(mode == "default" ? "" : " (\(mode))")\n")
        print(header.markdown + "\n")
        for section in sections { print(section + "\n") }

        var status: Int32 = 0
        if let path = options.chartPath {
            let title = "ripple-bench \(mode): medians of \(options.runs) runs, side by side in one process"
            let subtitle =
                "\(header.processor), \(header.cores) cores, Swift \(header.swift), \(header.build); load \(String(format: "%.2f", header.loadAtStart ?? 0))"
                + (options.threaded ? ", with one idle thread (--threaded)" : "")
            do {
                try BenchmarkChart.svg(allResults, title: title, subtitle: subtitle)
                    .write(toFile: path, atomically: true, encoding: .utf8)
            } catch {
                printError("cannot write \(path): \(error)")
                status = 2
            }
        }
        if let path = options.jsonPath {
            do {
                try BenchmarkReport.json(allResults, header: header).write(
                    toFile: path, atomically: true, encoding: .utf8)
            } catch {
                printError("cannot write \(path): \(error)")
                status = 2
            }
        }
        if let baseline, let path = options.comparePath {
            let comparison = BaselineComparison(
                baseline: baseline.records, current: BenchmarkRecord.records(allResults), tolerance: options.tolerance)
            print(
                comparison.markdown(
                    baselinePath: path, baselineHeader: BaselineComparison.describe(header: baseline.header)) + "\n")
            if comparison.exitStatus != 0 {
                printError(
                    "\(comparison.regressions.count) cell\(comparison.regressions.count == 1 ? "" : "s") regressed beyond "
                        + "\(comparison.toleranceText) against \(path):\n  "
                        + comparison.regressionLines.joined(separator: "\n  "))
                if status == 0 { status = comparison.exitStatus }
            }
        }
        return status
    }

    /// The suites a run measures: the one `--suite` names, in any mode, or else every suite whose
    /// ``BenchmarkSuite/defaultModes`` include the mode (`live` runs only in `--full` or by name).
    static func selectedSuites(_ options: BenchmarkOptions) -> [BenchmarkSuite] {
        suites.filter { suite in options.suite.map { $0 == suite.name } ?? suite.defaultModes.contains(options.mode) }
    }

    /// Reads `--lists`: a folder of pairs, or one pair.
    static func readLists(_ paths: [String]) throws(BenchmarkFileError) -> [BenchmarkListPair] {
        if paths.count == 2 { return [try BenchmarkListReader.readPair(old: paths[0], new: paths[1])] }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: paths[0], isDirectory: &isFolder) else {
            throw BenchmarkFileError(file: paths[0], position: nil, message: "no such file or folder")
        }
        guard isFolder.boolValue else {
            throw BenchmarkFileError(
                file: paths[0], position: nil,
                message: "--lists needs two files, OLD NEW, or a folder of NAME-old.json and NAME-new.json pairs")
        }
        return try BenchmarkListReader.readFolder(paths[0])
    }

    /// The line printed before measuring: roughly how long the run will take.
    static func estimate(options: BenchmarkOptions, suites: [BenchmarkSuite], listRows: Int) -> String {
        if options.lists != nil {
            // About 20 ns per row per engine run, `stdlib` aside, and a second to read the files.
            let seconds = 1 + listRows * (options.runs + 3) * 60 / 1_000_000_000
            return
                "ripple-bench: diffing your lists (\(listRows) rows in all) takes about \(roughly(seconds)) on a 2-core machine, "
                + "more where `stdlib` runs"
        }
        let table = estimatedSeconds[options.mode] ?? [:]
        var seconds = suites.reduce(0) { $0 + (table[$1.name] ?? 10) }
        seconds = seconds * options.runs / 7
        let filtered = options.scenarios != nil || options.engines != nil || options.elements != nil
        let other =
            options.mode == .standard
            ? " (--quick: seconds; --full: about 11 minutes)"
            : options.mode == .quick ? "" : " (the default run: about 2½ minutes)"
        return
            "ripple-bench: the \(options.mode.rawValue) run takes \(filtered ? "at most " : "")about \(roughly(seconds)) "
            + "on a 2-core machine\(other); progress below, the report on standard output at the end"
    }

    /// An estimate, rounded: `15 s`, `1½ minutes`, `5 minutes`.
    static func roughly(_ seconds: Int) -> String {
        if seconds < 60 { return "\(max(5, (seconds + 2) / 5 * 5)) s" }
        let halves = (seconds + 15) / 30
        return "\(halves / 2)\(halves % 2 == 1 ? "½" : "") minutes"
    }

    static func minutesAndSeconds(_ seconds: Int) -> String {
        seconds < 60 ? "\(seconds) s" : "\(seconds / 60) min \(seconds % 60) s"
    }

    static func printError(_ message: String) {
        FileHandle.standardError.write(Data("ripple-bench: \(message)\n".utf8))
    }
}
