import Foundation
import JSON
import Replay
import Reporting
import Synchronization

/// A folder a test suite writes GeoSim's reports into — the same files, with the same
/// contents, as `geosim replay --out` writes.
///
/// Each run added gets its scenario's folder (`events.jsonl`, `report.json`, `report.md`,
/// `map.svg` and `latency.svg` where there is something to draw, `index.html` (the replay
/// viewer), `result.json`), and the
/// folder's run-level `report.json`, `report.md`, `junit.xml`, `index.html` and `results.json`
/// are rewritten over every run added so far, in scenario-name order (tests may run in any
/// order, in parallel). A later run of a scenario with the same name replaces the earlier one.
///
/// ```swift
/// let reports = ReportFolder("Reports/checkin")
/// let run = try GeoSimTest.replay(path, catalog: .checkIn, reports: reports)
/// ```
public final class ReportFolder: Sendable {
  /// The folder (created when the first run is added).
  public let url: URL

  private struct Added: Sendable {
    let entry: RunReport.Entry
    let result: JSONValue
  }
  private let added = Mutex<[String: Added]>([:])
  private let resources: ReplayResources

  /// The folder at `path` (relative to the current folder, as a test process runs in the
  /// package's root with `swift test`).
  public init(_ path: String, resources: ReplayResources = GeoSimTest.resources) {
    url = URL(fileURLWithPath: path, isDirectory: true)
    self.resources = resources
  }

  /// Writes `run`'s scenario folder and rewrites the run-level files.
  ///
  /// - Throws: a file that cannot be written, or a report that cannot be made.
  public func add(_ run: ScenarioRun) throws {
    let name = run.scenario.name
    if let problem = ReportFiles.problem(withScenarioName: name) {
      throw ScenarioError(file: run.scenarioLabel, path: "name", problem)
    }
    let folder = url.appendingPathComponent(name)
    ReportFiles.clearScenario(in: folder)
    let entry = try ReportFiles.writeScenario(
      run, resources: resources, to: folder, events: true)
    try added.withLock { added in
      added[name] = Added(entry: entry, result: run.result.json)
      let names = added.keys.sorted()
      try ReportFiles.writeRun(names.map { added[$0]!.entry }, to: url)
      try ReportWriter.write(
        JSONValue.array(names.map { added[$0]!.result }).jsonText + "\n",
        to: url.appendingPathComponent("results.json"))
    }
  }
}
