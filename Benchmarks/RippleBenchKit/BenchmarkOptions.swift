/// How much a run measures.
enum BenchmarkMode: String, Sendable {
    /// Small sizes, in seconds: CI's smoke run.
    case quick
    /// Every suite but `live` at the sizes of the targets, in under 3 minutes on 2 cores; `stdlib`
    /// only where it takes milliseconds.
    case standard = "default"
    /// Everything, `stdlib` up to 100,000 elements and the `live` suite included.
    case full
}

/// ripple-bench's command line, parsed.
struct BenchmarkOptions: Equatable {
    var mode = BenchmarkMode.standard
    var suite: String?
    var jsonPath: String?
    var chartPath: String?
    var runs = 7
    var threaded = false
    var cold = false
    var quiet = false
    var force = false
    var help = false
    var scenarios: Set<String>?
    var engines: Set<String>?
    var elements: Set<String>?
    /// `--lists`: a folder of pairs, or the old and the new file.
    var lists: [String]?
    /// `--compare`: the baseline JSON file.
    var comparePath: String?
    /// `--tolerance`, as a fraction (0.1 for 10%).
    var tolerance = 0.1

    /// A command line ripple-bench does not understand, with what it expected.
    struct UsageError: Error, Equatable, CustomStringConvertible {
        var description: String
    }

    /// Parses `arguments` (without the program's name), checking each against `suiteNames`.
    static func parse(_ arguments: [String], suiteNames: [String]) throws(UsageError) -> BenchmarkOptions {
        var options = BenchmarkOptions()
        var arguments = arguments[...]
        var modeFlag: String?
        func value(_ flag: String, _ what: String) throws(UsageError) -> String {
            guard let next = arguments.popFirst(), !next.hasPrefix("--") else {
                throw UsageError(description: "\(flag) needs \(what)")
            }
            return next
        }
        func names(_ flag: String) throws(UsageError) -> Set<String> {
            Set(try value(flag, "a list of names, e.g. A,B").split(separator: ",").map(String.init))
        }
        func setMode(_ mode: BenchmarkMode, _ flag: String) throws(UsageError) {
            if let modeFlag, modeFlag != flag {
                throw UsageError(description: "\(modeFlag) and \(flag) cannot be combined")
            }
            modeFlag = flag
            options.mode = mode
        }
        while let argument = arguments.popFirst() {
            switch argument {
            case "--suite":
                let name = try value("--suite", "a name")
                guard suiteNames.contains(name) else {
                    throw UsageError(
                        description: "no suite named '\(name)'; the suites are \(suiteNames.joined(separator: ", "))")
                }
                options.suite = name
            case "--scenario": options.scenarios = try names("--scenario")
            case "--engines": options.engines = try names("--engines")
            case "--elements": options.elements = try names("--elements")
            case "--chart": options.chartPath = try value("--chart", "a path")
            case "--json": options.jsonPath = try value("--json", "a path")
            case "--quick": try setMode(.quick, argument)
            case "--full": try setMode(.full, argument)
            case "--runs":
                guard let runs = Int(try value("--runs", "a whole number of at least 5")), runs >= 5 else {
                    throw UsageError(description: "--runs needs a whole number of at least 5")
                }
                options.runs = runs
            case "--threaded": options.threaded = true
            case "--cold": options.cold = true
            case "--quiet", "-q": options.quiet = true
            case "--force": options.force = true
            case "--lists":
                var paths = [
                    try value("--lists", "OLD NEW (two JSON files) or a folder of NAME-old.json and NAME-new.json")
                ]
                if let next = arguments.first, !next.hasPrefix("--") {
                    paths.append(next)
                    arguments.removeFirst()
                }
                options.lists = paths
            case "--compare": options.comparePath = try value("--compare", "the path of a JSON file written by --json")
            case "--tolerance":
                let text = try value("--tolerance", "a percentage, e.g. 10%")
                guard let tolerance = BaselineComparison.tolerance(text) else {
                    throw UsageError(
                        description: "--tolerance needs a percentage of at least 0, e.g. 10%, not '\(text)'")
                }
                options.tolerance = tolerance
            case "--help", "-h": options.help = true
            default: throw UsageError(description: "unknown argument '\(argument)'")
            }
        }
        if options.lists != nil, options.suite != nil {
            throw UsageError(description: "--lists measures your lists alone; it cannot be combined with --suite")
        }
        if options.lists != nil, let modeFlag {
            throw UsageError(
                description: "--lists measures your lists as they are; it cannot be combined with \(modeFlag)")
        }
        return options
    }

    static func usage(suiteNames: [String]) -> String {
        """
        usage: ripple-bench [--quick | --full] [--suite NAME] [--json PATH] [--chart PATH] [--compare BASELINE.json [--tolerance 10%]] [--quiet] …
               ripple-bench --lists OLD.json NEW.json | --lists FOLDER  [--json PATH] [--compare …] …
          (none)        the default run: every suite but `live` at the targets' sizes, about 2½ minutes
                        on 2 cores; `stdlib` only up to 10,000 elements
          --quick       small sizes, in seconds: a smoke test (CI); every suite but `live`
          --full        everything, `stdlib` up to 100,000 elements and the `live` suite: about
                        11 minutes on 2 cores
          --suite NAME  run one suite, in any mode: \(suiteNames.joined(separator: ", "))
          --lists OLD NEW
                        diff your own lists instead: two JSON files, each an array of rows
                        [identifier, content] or {"id": identifier, "content": content}; identifiers are
                        strings or whole numbers. --lists FOLDER takes every NAME-old.json with its
                        NAME-new.json in the folder (see docs/performance.md)
          --json PATH   also write the results as JSON: {"header": …, "results": [records]}
          --chart PATH  also draw the results as an SVG chart: each engine's time relative to the
                        suite's baseline, on a log scale, with the moves
          --compare BASELINE.json
                        print each cell's change against a run saved with --json, in its median and
                        in its ratio to the baseline engine (floor, array, closure); exit with status 1
                        when a ratio grew by more than the tolerance, naming the cells
          --tolerance P how much a ratio may grow before --compare fails (default 10%)
          --runs N      measured runs per task after the warm-up (default 7, at least 5)
          --quiet       no progress on standard error (by default a live line on a terminal,
                        otherwise one plain line per scenario)
          --force       measure a debug build or one with RIPPLE_INTERNAL_CHECKS anyway (the report
                        says so); refused otherwise
          --scenario A,B run only these scenarios of each suite run, e.g. 1m (for profiling)
          --engines A,B run only these engines, e.g. ripple,floor (for profiling)
          --elements A,B run only these element kinds, e.g. int
          --threaded    start one idle thread first, as every app has, so that locks take their
                        multi-threaded path (a single-threaded process lets glibc skip atomics)
          --cold        sweep 64 MiB of memory before every timed run, so that each engine starts
                        with caches that hold none of its data, whichever engine ran before it
        """
    }
}
