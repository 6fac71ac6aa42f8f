import ArgumentParser
import Foundation
import Geo
import JSON

/// `geosim bench <suite> [--json]`: host-time benchmarks, each row compared with a baseline
/// measured in the same run.
struct BenchCommand: ToolCommand {
  static let suites: [(name: String, run: @Sendable (inout Bench) throws -> Void)] = [
    ("geo", GeoBenchSuite.run),
    ("kernel", KernelBenchSuite.run),
    ("device", DeviceBenchSuite.run),
    ("trace", TraceBenchSuite.run),
    ("map", MapBenchSuite.run),
    ("cloud", CloudBenchSuite.run),
    ("replay", ReplayBenchSuite.run),
    ("report", ReportBenchSuite.run),
  ]

  static var suiteNames: [String] { suites.map(\.name) }

  static let configuration = CommandConfiguration(
    commandName: "bench",
    abstract: "Run a benchmark suite and print its table (or JSON).",
    discussion: """
      Host-time benchmarks of GeoSim itself, each row with its median, the spread of its \
      samples (10th and 90th percentiles), the ratio to a baseline measured in the same run, and \
      its target where it has one. Every case is warmed up over all of its inputs before it is \
      timed, and search cases check their result counts against a brute force. Build with -c \
      release.
      """)

  @Argument(
    help: ArgumentHelp("The suite: \(Self.suiteNames.joined(separator: ", ")).", valueName: "suite")
  )
  var suite: String

  @Flag(help: "Print the rows as JSON.")
  var json = false

  @Flag(help: "Three short samples a case (to check that the suites run, not to measure).")
  var quick = false

  @Option(
    help: ArgumentHelp(
      "cloud: also time a PostGIS server (default: $GEOSIM_POSTGIS_URL), a network round trip.",
      valueName: "url"))
  var database: String?

  func validate() throws {
    guard Self.suiteNames.contains(suite) else {
      throw ValidationError(
        "unknown suite '\(suite)'; expected one of: \(Self.suiteNames.joined(separator: ", "))")
    }
  }

  func run(in tool: ToolContext) throws -> Int32 {
    guard let entry = Self.suites.first(where: { $0.name == suite }) else { return 2 }
    var bench = Bench()
    bench.tool = tool
    bench.database =
      database
      ?? ProcessInfo.processInfo.environment["GEOSIM_POSTGIS_URL"].flatMap {
        $0.isEmpty ? nil : $0
      }
    if quick {
      bench.samples = 3
      bench.minimumSampleTime = .milliseconds(1)
      bench.quick = true
    }
    try entry.run(&bench)
    tool.terminal.write(json ? Self.jsonText(bench.results) : Self.table(bench.results))
    return 0
  }

  static func jsonText(_ results: [BenchResult]) -> String {
    let rows = results.map { r in
      JSONValue.object([
        "name": .string(r.name), "unit": .string(r.unit), "median": .number(rounded(r.median)),
        "p10": .number(rounded(r.p10)), "p90": .number(rounded(r.p90)),
        "baseline": r.baseline.map(JSONValue.string) ?? .null,
        "ratio": r.ratio.map { .number(rounded($0)) } ?? .null,
        "target": r.target.map(JSONValue.string) ?? .null,
      ])
    }
    return JSONValue.array(rows).jsonText + "\n"
  }

  /// Four significant digits: host timings carry no more.
  private static func rounded(_ x: Double) -> Double {
    Double(String(format: "%.4g", x)) ?? x
  }

  static func table(_ results: [BenchResult]) -> String {
    let width = max(results.map(\.name.count).max() ?? 0, 4)
    func pad(_ s: String, _ n: Int) -> String {
      s.padding(toLength: max(n, s.count), withPad: " ", startingAt: 0)
    }
    func number(_ x: Double) -> String {
      let s = String(format: x >= 100 ? "%.0f" : "%.1f", x)
      return String(repeating: " ", count: max(0, 12 - s.count)) + s
    }
    var out =
      pad("name", width) + "      median         p10         p90  unit         ratio  baseline\n"
    for r in results {
      out += pad(r.name, width) + number(r.median) + number(r.p10) + number(r.p90) + "  "
      out += pad(r.unit, 9)
      out += r.ratio.map { String(format: " %8.3g", $0) } ?? "        -"
      out += "  " + (r.baseline ?? "-") + "\n"
    }
    return out
  }
}
