import Foundation
import FoundationXML
import JSON
import Replay
import Reporting
import Testing

/// A sweep's groups pool their runs: sensitivity is detections over true crossings, latencies
/// are pooled, and missing points are said.
@Test func aSweepReportGroupsRunsByEveryParameterButTheSeed() throws {
  let grid = SweepGrid(parameters: [
    try SweepGrid.parameter("radius=100,200"), try SweepGrid.parameter("seed=1..2"),
  ])
  func run(_ index: Int, detected: Int, latencies: [Double]) throws -> SweepRun {
    var json = SweepRun(index: index, values: grid.values(at: index), crash: "x").json
    guard case .object(var o) = json else { throw SweepError("not an object") }
    o["verdict"] = .string("pass")
    o["crash"] = .null
    o["trueCrossings"] = .number(2)
    o["detected"] = .number(Double(detected))
    o["latencies"] = .array(latencies.map { .number($0) })
    json = .object(o)
    return try #require(SweepRun(json: json))
  }
  let report = SweepReport(
    base: "a.scenario.json", grid: grid, shard: nil,
    runs: [
      try run(0, detected: 2, latencies: [10, 30]), try run(1, detected: 1, latencies: [20]),
      try run(2, detected: 0, latencies: []),
    ], expected: Array(0..<4))
  let groups = report.groups
  #expect(groups.count == 2)
  #expect(groups[0].values == [.number(100)])
  #expect(groups[0].sensitivity == 0.75)
  #expect(groups[0].latencies == [10, 20, 30])
  #expect(groups[1].sensitivity == 0)
  #expect(report.missing == [3])
  #expect(!report.isComplete)
  #expect(report.markdown().contains("**incomplete**: 1 point(s) missing"))
  // p90 of 10, 20, 30 lies 0.8 of the way from 20 to 30 (Referee.quantile).
  // 3 of 4 and 3 of 3 with their Wilson intervals; the median's bootstrap interval between.
  #expect(
    report.markdown().contains(
      "| 100 | 2 | 2 | 0 | 0 | 75 % (30.06–95.44 %) | 100 % (43.85–100 %) | 0 | 20 s ("))
  #expect(report.markdown().contains(" s) | 28 s |"))
  for page in [report.html(), report.sensitivitySVG(), report.latencySVG()] {
    #expect(XMLParser(data: Data(page.utf8)).parse(), "not well-formed: \(page.prefix(200))")
  }
  #expect(report.sensitivitySVG().contains(">sensitivity (%)<"))
  #expect(report.sensitivitySVG().contains(">radius<"))
}

/// A sweep run's verdict is one of the replay verdicts, read back under its JSON name; a name
/// that is none of them is no run.
@Test func aSweepRunsVerdictRoundTripsAndAnUnknownOneIsRefused() throws {
  let grid = SweepGrid(parameters: [try SweepGrid.parameter("radius=100")])
  for verdict in ReplayResult.Verdict.allCases {
    guard case .object(var o) = SweepRun(index: 0, values: grid.values(at: 0), crash: "x").json
    else { throw SweepError("not an object") }
    o["verdict"] = .string(verdict.rawValue)
    // A crash's reason comes with a crash verdict and with no other; so does a timeout's.
    o["crash"] = verdict == .crash ? .string("x") : .null
    o["timeout"] = verdict == .timeout ? .string("x") : .null
    #expect(SweepRun(json: .object(o))?.verdict == verdict)
    o["verdict"] = .string(verdict.label)
    #expect(SweepRun(json: .object(o)) == nil)
  }
}
