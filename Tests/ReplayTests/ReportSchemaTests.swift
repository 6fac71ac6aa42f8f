import Foundation
import Geo
import GeoSimTesting
import JSON
import Testing

@testable import Replay

/// `docs/schemas/report.schema.json` and `events-line.schema.json` describe the files a replay
/// writes: every report and every event line of every shipped scenario follows them, and a key
/// the schema lists is always there (null when it does not apply).
@Suite struct ReportSchemaTests {
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  func validator(_ name: String) throws -> JSONSchemaValidator {
    let url = Self.repository.appendingPathComponent("docs/schemas/\(name)")
    return try JSONSchemaValidator(JSONValue(parsing: Data(contentsOf: url)))
  }

  static func shippedScenarios() -> [String] {
    let folder = repository.appendingPathComponent("Scenarios")
    return (FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? [])
      .filter { $0.hasSuffix(".scenario.json") }.sorted()
      .map { folder.appendingPathComponent($0).path }
  }

  @Test func everyShippedScenariosReportAndEventLinesFollowTheirSchemas() throws {
    let reports = try validator("report.schema.json")
    let lines = try validator("events-line.schema.json")
    let files = Self.shippedScenarios()
    #expect(files.count >= 30)
    var entries: [RunReport.Entry] = []
    for file in files {
      let run = try GeoSimTest.replay(file, catalog: .referenceApps)
      let report = try ScenarioReport(
        input: ReportInput(run), context: run.world.geos, resources: GeoSimTest.resources)
      let violations = reports.violations(of: report.json)
      #expect(violations.isEmpty, "\(file): \(violations.prefix(5))")
      entries.append(RunReport.Entry(report: report, figures: []))
      for line in run.eventLines.split(separator: "\n") {
        let found = lines.violations(of: try JSONValue(parsing: Data(line.utf8)))
        #expect(found.isEmpty, "\(file): \(line): \(found)")
        if !found.isEmpty { break }
      }
    }
    let run = RunReport(entries: entries)
    #expect(reports.violations(of: run.json).isEmpty)
  }

  @Test func aSweepOfAShippedScenarioFollowsTheSweepSchema() throws {
    let sweeps = try validator("sweep.schema.json")
    let file = try #require(
      Self.shippedScenarios().first { $0.hasSuffix("train-to-shinagawa-corrected.scenario.json") })
    let report = try GeoSimTest.sweep(
      file, catalog: .referenceApps,
      vary: ["app.configuration.radius=150,300", "seed=1..2"])
    #expect(sweeps.violations(of: report.json).isEmpty, "\(sweeps.violations(of: report.json))")
    // The alarm (the region and the notification at one place) has its own latency: the
    // earliest of its fences' answers.
    let group = try #require(report.groups.first)
    let alarm = try #require(group.alarms.first)
    #expect(alarm.latency.value != nil)
    let earliest = try #require(group.fences.compactMap(\.latency.value).min())
    #expect(try #require(alarm.latency.value) <= earliest)
    // A shard with a crashed run and a missing point follows it too.
    let crashed = SweepRun(index: 1, values: report.grid.values(at: 1), crash: "signal 4")
    let shard = SweepReport(
      base: file, grid: report.grid, shard: "1/2", runs: [report.runs[0], crashed],
      expected: [0, 1, 2])
    #expect(sweeps.violations(of: shard.json).isEmpty, "\(sweeps.violations(of: shard.json))")
  }

  @Test func aReportOverRunsACrashAndAnInvalidScenarioFollowTheSchema() throws {
    let reports = try validator("report.schema.json")
    let file = try #require(
      Self.shippedScenarios().first { $0.hasSuffix("tunnel-approach-corrected.scenario.json") })
    let scenario = try Scenario(contentsOf: file)
    let result = try GeoSimTest.replayRuns(file, catalog: .referenceApps, runs: 3)
    let runs = ScenarioRunsReport(
      result: result, scenario: scenario, firstReport: nil, firstMarkdown: nil)
    #expect(reports.violations(of: runs.json).isEmpty, "\(reports.violations(of: runs.json))")
    var crashed = result
    crashed.runs = nil
    crashed.crash = ReplayResult.Crash(reason: "signal 4", lastEvents: ["{}"])
    let stopped = ScenarioReport(stopped: crashed, scenario: scenario)
    #expect(reports.violations(of: stopped.json).isEmpty, "\(reports.violations(of: stopped.json))")
    let invalid = ScenarioReport(invalid: "x.scenario.json", name: "x", error: "x: bad")
    #expect(reports.violations(of: invalid.json).isEmpty, "\(reports.violations(of: invalid.json))")
    // A key the schema lists is never left out: one that does not apply is null.
    let single = try #require(
      ScenarioReport(
        input: ReportInput(try GeoSimTest.replay(file, catalog: .referenceApps)),
        context: GEOSContext(), resources: GeoSimTest.resources
      ).json.object)
    #expect(single["runs"] == .null)
  }
}
