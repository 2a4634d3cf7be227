import Foundation

// ripple-bench: measures Ripple's engines against their baselines, side by side in one run.
//
//   swift run -c release ripple-bench                 every suite, Markdown tables
//   swift run -c release ripple-bench --suite diff    one suite
//   swift run -c release ripple-bench --quick         small sizes, in seconds (CI)
//   swift run -c release ripple-bench --json out.json also write JSON records
//   swift run -c release ripple-bench --chart out.svg also draw an SVG chart
//   swift run -c release ripple-bench --threaded      with one idle thread beside, as in an app
//   swift run -c release ripple-bench --cold          every timed run starts with cold caches

let suites: [BenchmarkSuite] = [
    DiffBenchmarks.suite,
    SectionsBenchmarks.suite,
    SectionsLiveBenchmarks.suite,
    PublishBenchmarks.suite,
    CommandBenchmarks.suite,
]

struct Options {
    var suite: String?
    var quick = false
    var jsonPath: String?
    var chartPath: String?
    var runs = 7
    var threaded = false
    var cold = false
    var scenarios: Set<String>?
    var engines: Set<String>?
    var elements: Set<String>?
}

@MainActor func usage() -> String {
    """
    usage: ripple-bench [--suite NAME] [--scenario A,B] [--engines A,B] [--elements A,B] [--quick] [--json PATH] [--chart PATH] [--runs N] [--threaded] [--cold]
      --suite NAME  run one suite: \(suites.map(\.name).joined(separator: ", "))
      --scenario A,B run only these scenarios of each suite run, e.g. 1m (for profiling)
      --engines A,B run only these engines, e.g. ripple,floor (for profiling)
      --elements A,B run only these element kinds, e.g. int
      --quick       small sizes, for CI
      --json PATH   also write the results as JSON records
      --chart PATH  also draw the results as an SVG chart: each engine's time relative to the
                    suite's baseline, on a log scale, with the moves
      --runs N      measured runs per task after one warm-up (default 7, at least 5)
      --threaded    start one idle thread first, as every app has, so that locks take their
                    multi-threaded path (a single-threaded process lets glibc skip atomics)
      --cold        sweep 64 MiB of memory before every timed run, so that each engine starts
                    with caches that hold none of its data, whichever engine ran before it
    """
}

@MainActor func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("ripple-bench: \(message)\n\n\(usage())\n".utf8))
    exit(2)
}

var options = Options()
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--suite":
        guard let name = arguments.popFirst() else { fail("--suite needs a name") }
        guard suites.contains(where: { $0.name == name }) else { fail("no suite named '\(name)'") }
        options.suite = name
    case "--scenario":
        guard let names = arguments.popFirst() else { fail("--scenario needs a list of names") }
        options.scenarios = Set(names.split(separator: ",").map(String.init))
    case "--engines":
        guard let names = arguments.popFirst() else { fail("--engines needs a list of names") }
        options.engines = Set(names.split(separator: ",").map(String.init))
    case "--elements":
        guard let names = arguments.popFirst() else { fail("--elements needs a list of names") }
        options.elements = Set(names.split(separator: ",").map(String.init))
    case "--chart":
        guard let path = arguments.popFirst() else { fail("--chart needs a path") }
        options.chartPath = path
    case "--quick":
        options.quick = true
    case "--json":
        guard let path = arguments.popFirst() else { fail("--json needs a path") }
        options.jsonPath = path
    case "--runs":
        guard let text = arguments.popFirst(), let runs = Int(text), runs >= 5 else {
            fail("--runs needs a whole number of at least 5")
        }
        options.runs = runs
    case "--threaded":
        options.threaded = true
    case "--cold":
        options.cold = true
    case "--help", "-h":
        print(usage())
        exit(0)
    default:
        fail("unknown argument '\(argument)'")
    }
}

#if DEBUG
FileHandle.standardError.write(Data("ripple-bench: warning: a debug build; run with -c release for real numbers\n".utf8))
#endif
#if RIPPLE_INTERNAL_CHECKS
FileHandle.standardError.write(Data("ripple-bench: warning: RIPPLE_INTERNAL_CHECKS is on; these numbers include the checks\n".utf8))
#endif

if options.threaded {
    Thread.detachNewThread {
        while true { sleep(3_600) }
    }
}

let runner = BenchmarkRunner(runs: options.runs, sweep: options.cold ? CacheSweep() : nil) { line in
    FileHandle.standardError.write(Data("\u{1B}[2K\r\(line)".utf8))
}
var allResults: [BenchmarkResult] = []
print("# ripple-bench\(options.quick ? " --quick" : "")\n")
print("Median and minimum of \(options.runs) runs after a warm-up; engines of one scenario run round-robin.\n")
if options.threaded {
    print("With one idle thread beside the benchmark (`--threaded`).\n")
}
if options.cold {
    print("Each timed run after a sweep of 64 MiB of memory (`--cold`).\n")
}
for suite in suites where options.suite == nil || options.suite == suite.name {
    var results: [BenchmarkResult] = []
    var notes: [String] = []
    for var group in suite.makeGroups(options.quick, options.scenarios) {
        if let scenarios = options.scenarios {
            group.tasks.removeAll { !scenarios.contains($0.scenario) }
            if group.tasks.isEmpty { continue }
        }
        if let elements = options.elements {
            group.tasks.removeAll { !elements.contains($0.element) }
            if group.tasks.isEmpty { continue }
        }
        if let engines = options.engines {
            group.tasks.removeAll { !engines.contains($0.engine) }
            group.skipped.removeAll { !engines.contains($0.engine) }
            if group.tasks.isEmpty { continue }
        }
        results += runner.measure(group)
        notes += (group.skipped.map(\.reason) + group.notes).filter { !notes.contains($0) }
    }
    FileHandle.standardError.write(Data("\u{1B}[2K\r".utf8))
    print(BenchmarkReport.markdown(suite: suite, results: results, notes: notes + suite.summarize(results)))
    print()
    allResults += results
}
if let path = options.chartPath {
    let title = "ripple-bench\(options.quick ? " --quick" : ""): medians of \(options.runs) runs, side by side in one process"
    let subtitle =
        "\(ProcessInfo.processInfo.activeProcessorCount) cores, \(ProcessInfo.processInfo.operatingSystemVersionString)"
        + (options.threaded ? ", with one idle thread (--threaded)" : "")
    do {
        try BenchmarkChart.svg(allResults, title: title, subtitle: subtitle)
            .write(toFile: path, atomically: true, encoding: .utf8)
    } catch {
        fail("cannot write \(path): \(error)")
    }
}
if let path = options.jsonPath {
    do {
        try BenchmarkReport.json(allResults).write(toFile: path, atomically: true, encoding: .utf8)
    } catch {
        fail("cannot write \(path): \(error)")
    }
}
