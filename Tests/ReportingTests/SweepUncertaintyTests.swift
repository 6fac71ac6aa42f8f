import Foundation
import FoundationXML
import JSON
import Replay
import Reporting
import Testing

/// Sweep groups give every figure with its 95 % interval, say which expectations failed and in
/// which runs, and keep each fence's and alarm's figures apart.
@Suite struct SweepUncertaintyTests {
  /// A run of `grid` at `index` built from its JSON, with `members` replacing the defaults of a
  /// passing run with no crossings.
  func run(_ grid: SweepGrid, _ index: Int, _ members: [String: JSONValue] = [:]) throws
    -> SweepRun
  {
    guard
      case .object(var o) = SweepRun(index: index, values: grid.values(at: index), crash: "x").json
    else { throw SweepError("not an object") }
    o["verdict"] = .string("pass")
    o["crash"] = .null
    for (key, value) in members { o[key] = value }
    return try SweepRun.reading(.object(o))
  }

  func fence(_ name: String, crossings: Int, detected: Int, latencies: [Double] = []) -> JSONValue {
    .object([
      "name": .string(name), "trueCrossings": .number(Double(crossings)),
      "detected": .number(Double(detected)), "falseTriggers": .number(0),
      "latencies": .array(latencies.map { .number($0) }),
    ])
  }

  func group(_ report: SweepReport, _ i: Int) throws -> [String: JSONValue] {
    guard case .object(let sweep) = report.json, case .array(let groups)? = sweep["groups"],
      case .object(let group) = groups[i]
    else { throw SweepError("no group \(i)") }
    return group
  }

  /// 82 detections of 100 crossings have Wilson's interval [0.7333, 0.8830] (Newcombe 1998's
  /// method 3), and a group with no crossings has neither a sensitivity nor an interval.
  @Test func aGroupsSensitivityAndPrecisionComeWithWilsonIntervals() throws {
    let grid = SweepGrid(parameters: [try SweepGrid.parameter("radius=100,200")])
    let report = SweepReport(
      base: "a.scenario.json", grid: grid, shard: nil,
      runs: [
        try run(grid, 0, ["trueCrossings": .number(100), "detected": .number(82)]),
        try run(grid, 1),
      ], expected: [0, 1])
    let first = try group(report, 0)
    #expect(first["sensitivity"] == .number(0.82))
    #expect(first["sensitivityInterval"] == .array([.number(0.7333), .number(0.883)]))
    // 82 of 82 triggers were detections: the interval reaches 1 exactly.
    guard case .array(let precision)? = first["precisionInterval"] else {
      Issue.record("no precision interval")
      return
    }
    #expect(precision.last == .number(1))
    let second = try group(report, 1)
    #expect(second["sensitivity"] == .null)
    #expect(second["sensitivityInterval"] == .null)
    #expect(second["latencyMedianInterval"] == .null)
    #expect(report.markdown().contains("| 100 | 1 | 1 | 0 | 0 | 82 % (73.33–88.3 %) |"))
  }

  /// The latency median's bootstrap interval is drawn from the stream named after the group:
  /// the same latencies give the same interval every time, the interval holds the median, and
  /// it does not depend on which other groups the sweep holds.
  @Test func aLatencyMediansBootstrapIntervalIsDeterministic() throws {
    let latencies: [Double] = [12, 30, 7, 45, 22, 18, 60, 9, 27, 33]
    let a = SweepEstimate.median(latencies, stream: "sweep.latency.radius=100")
    let b = SweepEstimate.median(latencies, stream: "sweep.latency.radius=100")
    #expect(a == b)
    #expect(a.value == 24.5)
    let interval = try #require(a.interval)
    #expect(interval.contains(24.5))
    #expect(interval.lowerBound >= 7 && interval.upperBound <= 60)
    #expect(interval.lowerBound < interval.upperBound)

    let grid = SweepGrid(parameters: [
      try SweepGrid.parameter("radius=100,200"), try SweepGrid.parameter("seed=1..2"),
    ])
    let runs = [
      try run(grid, 0, ["latencies": .array(latencies.prefix(5).map { .number($0) })]),
      try run(grid, 1, ["latencies": .array(latencies.dropFirst(5).map { .number($0) })]),
      try run(grid, 2, ["latencies": .array([.number(1)])]),
    ]
    let whole = SweepReport(base: "a", grid: grid, shard: nil, runs: runs, expected: [0, 1, 2])
    let alone = SweepReport(
      base: "a", grid: grid, shard: nil, runs: Array(runs.prefix(2).reversed()), expected: [0, 1])
    #expect(whole.groups[0].latencyEstimate == alone.groups[0].latencyEstimate)
    #expect(whole.groups[0].latencyEstimate.interval == interval)
    #expect(whole.latencySVG().contains("<line"))
  }

  /// A parameter that sets several places is named by all of them, in the table, the charts
  /// and the group names.
  @Test func aGroupedParameterIsLabelledByAllItsPaths() throws {
    let parameter = try SweepGrid.parameter(
      "app.configuration.radius,expectations[0].region.radius=150,300")
    #expect(parameter.name == "app.configuration.radius,expectations[0].region.radius")
    let grid = SweepGrid(parameters: [parameter])
    let report = SweepReport(
      base: "a", grid: grid, shard: nil, runs: [try run(grid, 0), try run(grid, 1)],
      expected: [0, 1])
    #expect(report.groups[0].name == "app.configuration.radius,expectations[0].region.radius=150")
    #expect(
      report.markdown().contains(
        "| app.configuration.radius,expectations[0].region.radius | runs |"))
    #expect(
      report.sensitivitySVG().contains(">app.configuration.radius,expectations[0].region.radius<"))
    #expect(grid.pointName(1).contains("expectations[0].region.radius=300"))
  }

  /// Two fences with different detection rates in one sweep keep their own figures: the
  /// group's pooled sensitivity is one half, the fences' are one and nought.
  @Test func fencesAndAlarmsAreNeverPooledAcrossFences() throws {
    let grid = SweepGrid(parameters: [try SweepGrid.parameter("seed=1..2")])
    func members(_ latency: Double) -> [String: JSONValue] {
      [
        "trueCrossings": .number(2), "detected": .number(1),
        "latencies": .array([.number(latency)]),
        "fences": .array([
          fence("region home #1", crossings: 1, detected: 1, latencies: [latency]),
          fence("region work #1", crossings: 1, detected: 0),
        ]),
        "alarms": .array([
          fence("region home #1", crossings: 1, detected: 1),
          fence("region work #1", crossings: 1, detected: 0),
        ]),
      ]
    }
    let report = SweepReport(
      base: "a", grid: grid, shard: nil,
      runs: [try run(grid, 0, members(10)), try run(grid, 1, members(20))], expected: [0, 1])
    let g = report.groups[0]
    #expect(g.sensitivity == 0.5)
    #expect(g.fences.map(\.name) == ["region home #1", "region work #1"])
    #expect(g.fences.map(\.sensitivity.value) == [1, 0])
    #expect(g.fences.map(\.trueCrossings) == [2, 2])
    #expect(g.fences[0].latency.value == 15)
    #expect(g.fences[1].latency.value == nil)
    #expect(g.alarms.map(\.sensitivity.value) == [1, 0])
    // 2 of 2 and 0 of 2: Wilson's interval at each end.
    #expect(g.fences[0].sensitivity.interval?.upperBound == 1)
    #expect(g.fences[1].sensitivity.interval?.lowerBound == 0)
    guard case .array(let fences)? = try group(report, 0)["fences"],
      case .object(let work) = fences[1]
    else {
      Issue.record("no fences in the group")
      return
    }
    #expect(work["sensitivity"] == .number(0))
    #expect(work["latencyMedian"] == .null)
    #expect(report.markdown().contains("| region work #1 | 2 | 2 | 0 | 0 | 0 % (0–65.76 %) |"))
  }

  /// Each expectation that failed is counted over the group's runs, with its interval, and
  /// the runs to open link to their report folders.
  @Test func aGroupSaysWhichExpectationsFailedAndWhichRunsToOpen() throws {
    let grid = SweepGrid(parameters: [try SweepGrid.parameter("seed=1..4")])
    var failing = try run(
      grid, 2, ["verdict": .string("fail"), "failedExpectations": .array([.string("arrives")])])
    failing.folder = SweepRun.folder(of: 2)
    let runs = [try run(grid, 0), try run(grid, 1), failing, try run(grid, 3)]
    let report = SweepReport(base: "a", grid: grid, shard: nil, runs: runs, expected: [0, 1, 2, 3])
    let failures = report.groups[0].failures
    #expect(failures.map(\.expectation) == ["arrives"])
    #expect(failures[0].runs == [2])
    #expect(failures[0].share == .proportion(1, of: 4))
    #expect(report.groups[0].runsToOpen.map(\.index) == [2])
    let markdown = report.markdown()
    #expect(markdown.contains("- `arrives`: 1 of 4, 25 %"))
    #expect(markdown.contains("[2](runs/2/report.md) ([page](runs/2/index.html)) FAIL"))
    guard case .array(let open)? = try group(report, 0)["runsToOpen"] else {
      Issue.record("no runs to open")
      return
    }
    #expect(
      open == [
        .object(["index": .number(2), "verdict": .string("fail"), "folder": .string("runs/2")])
      ])
    // A run's folder is its own: another index's is refused when read back.
    guard case .object(var o) = failing.json else { return }
    o["folder"] = .string("runs/3")
    #expect(throws: SweepRun.Problem.self) { try SweepRun.reading(.object(o)) }
  }
}
