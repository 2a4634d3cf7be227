import Foundation

/// Draws the results as an SVG chart, with no dependency: for each suite, one row of bars per
/// scenario and element kind, each bar an engine's median relative to the suite's baseline
/// (`floor`, `array` or `closure`) on a log scale, with the moves where the engine reports them.
///
/// Bars grow from the baseline's 1× line: to the left when faster, to the right when slower.
enum BenchmarkChart {
    /// The chart of `results`, titled with `title`.
    static func svg(_ results: [BenchmarkResult], title: String, subtitle: String) -> String {
        var suites: [String] = []
        for result in results where !suites.contains(result.task.suite) { suites.append(result.task.suite) }

        // One row per engine, grouped by suite, then by scenario and element.
        struct Row {
            var label: String
            var engine: String
            var ratio: Double
            var median: Int64
            var moves: Int?
        }
        struct Group {
            var suite: String
            var baseline: String
            var heading: String
            var rows: [Row]
        }
        var groups: [Group] = []
        for suite in suites {
            let inSuite = results.filter { $0.task.suite == suite }
            var keys: [String] = []
            for result in inSuite {
                let key = result.task.scenario + " · " + result.task.element
                if !keys.contains(key) { keys.append(key) }
            }
            for key in keys {
                let members = inSuite.filter { $0.task.scenario + " · " + $0.task.element == key }
                guard
                    let baseline = members.first(where: { BenchmarkReport.baselineEngines.contains($0.task.engine) }),
                    baseline.medianNanoseconds > 0
                else { continue }
                let rows = members.map { member in
                    Row(
                        label: member.task.engine, engine: member.task.engine,
                        ratio: Double(member.medianNanoseconds) / Double(baseline.medianNanoseconds),
                        median: member.medianNanoseconds, moves: member.moves)
                }
                groups.append(
                    Group(suite: suite, baseline: baseline.task.engine, heading: key, rows: rows))
            }
        }

        // The log scale: whole powers of ten around every ratio.
        let ratios = groups.flatMap { $0.rows.map(\.ratio) }.filter { $0 > 0 }
        let low = floor(log10(ratios.min() ?? 0.1)).clamped(to: -3...(-1))
        let high = ceil(log10(ratios.max() ?? 10)).clamped(to: 1...5)
        let width = 980.0
        let labelWidth = 200.0
        let plotLeft = labelWidth + 20
        let plotRight = width - 190
        func x(_ ratio: Double) -> Double {
            plotLeft + (log10(Swift.max(ratio, pow(10, low))) - low) / (high - low) * (plotRight - plotLeft)
        }
        let rowHeight = 15.0
        let headerHeight = 18.0
        let suiteGap = 34.0
        let top = 70.0

        var body: [String] = []
        var y = top
        var currentSuite = ""
        var plotTop = y
        func axis(from: Double, to: Double) {
            // Gridlines at every power of ten, the baseline's 1× line bolder.
            var exponent = low
            while exponent <= high {
                let gx = x(pow(10, exponent))
                let isOne = exponent == 0
                body.append(
                    "<line x1=\"\(f(gx))\" y1=\"\(f(from))\" x2=\"\(f(gx))\" y2=\"\(f(to))\" stroke=\"\(isOne ? "#444" : "#ddd")\" stroke-width=\"\(isOne ? 1.5 : 1)\"/>"
                )
                body.append(
                    "<text x=\"\(f(gx))\" y=\"\(f(to + 12))\" text-anchor=\"middle\" class=\"tick\">\(tickLabel(exponent))</text>"
                )
                exponent += 1
            }
        }
        for group in groups {
            if group.suite != currentSuite {
                if !currentSuite.isEmpty {
                    axis(from: plotTop, to: y)
                    y += suiteGap
                }
                currentSuite = group.suite
                body.append(
                    "<text x=\"10\" y=\"\(f(y + 4))\" class=\"suite\">\(escape(group.suite)) — time relative to \(escape(group.baseline)) (log scale; left of the line is faster)</text>"
                )
                y += 14
                plotTop = y
            }
            body.append("<text x=\"10\" y=\"\(f(y + 12))\" class=\"group\">\(escape(group.heading))</text>")
            y += headerHeight - 4
            for row in group.rows {
                let one = x(1)
                let end = x(row.ratio)
                let barX = Swift.min(one, end)
                let barWidth = Swift.max(abs(end - one), 1.5)
                body.append(
                    "<text x=\"\(f(labelWidth))\" y=\"\(f(y + rowHeight - 4))\" text-anchor=\"end\" class=\"engine\">\(escape(row.label))</text>"
                )
                body.append(
                    "<rect x=\"\(f(barX))\" y=\"\(f(y + 2))\" width=\"\(f(barWidth))\" height=\"\(f(rowHeight - 4))\" fill=\"\(color(row.engine))\"><title>\(escape(group.heading)) \(escape(row.engine)): \(BenchmarkReport.duration(row.median)), \(BenchmarkReport.format(row.ratio))×</title></rect>"
                )
                var note = BenchmarkReport.format(row.ratio) + "×"
                if let moves = row.moves { note += " · \(moves) moves" }
                let noteX = Swift.max(one, end) + 6
                body.append(
                    "<text x=\"\(f(noteX))\" y=\"\(f(y + rowHeight - 4))\" class=\"note\">\(escape(note))</text>")
                y += rowHeight
            }
            y += 6
        }
        if !currentSuite.isEmpty { axis(from: plotTop, to: y) }
        let height = y + 40

        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(f(width))" height="\(f(height))" viewBox="0 0 \(f(width)) \(f(height))" font-family="-apple-system, Helvetica, Arial, sans-serif">
            <style>
            .title { font-size: 16px; font-weight: 600; }
            .subtitle { font-size: 11px; fill: #555; }
            .suite { font-size: 13px; font-weight: 600; }
            .group { font-size: 11px; font-weight: 600; fill: #333; }
            .engine { font-size: 11px; fill: #333; }
            .note { font-size: 10px; fill: #333; }
            .tick { font-size: 10px; fill: #666; }
            </style>
            <rect width="100%" height="100%" fill="white"/>
            <text x="10" y="24" class="title">\(escape(title))</text>
            <text x="10" y="42" class="subtitle">\(escape(subtitle))</text>
            \(body.joined(separator: "\n"))
            </svg>

            """
    }

    /// The label of the gridline at `10^exponent`.
    private static func tickLabel(_ exponent: Double) -> String {
        switch exponent {
        case ..<0: return String(format: "%g×", pow(10, exponent))
        default: return String(format: "%.0f×", pow(10, exponent))
        }
    }

    /// A color per engine: Ripple's engines in blues, baselines in grey, the standard library in orange.
    private static func color(_ engine: String) -> String {
        switch engine {
        case "ripple": return "#1f6fd1"
        case "ripple-batch", "ripple-replace": return "#5a9be6"
        case "diff", "changeset": return "#8cb8ec"
        case "floor", "array", "closure": return "#888888"
        case "stdlib": return "#e07b28"
        default: return "#9a6fc4"
        }
    }

    private static func f(_ value: Double) -> String { String(format: "%.1f", value) }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}

extension Double {
    fileprivate func clamped(to range: ClosedRange<Double>) -> Double {
        Swift.min(Swift.max(self, range.lowerBound), range.upperBound)
    }
}
