// A suite that imports GeoSimTesting gets everything it needs to write an app model, its
// scenarios and their reports: the phone, geometry, JSON values, traces and waypoints, the
// replay layer and the report types.
@_exported import Device
import Foundation
@_exported import Geo
@_exported import JSON
@_exported import ReferenceAppCatalog
@_exported import Replay
@_exported import Reporting
import SimKernel
@_exported import Traces

#if canImport(Testing)
  import Testing
#endif

/// Replays scenarios inside a Swift Testing or XCTest suite.
///
/// ```swift
/// var catalog = AppCatalog()
/// catalog.register("MyAlarm") { context in { MyAlarmApp(network: context.network) } }
/// let run = try GeoSimTest.replay("Scenarios/alarm.scenario.json", catalog: catalog)
/// try run.requireExpectations()                       // XCTest or Swift Testing
/// let delay = try run.delay(of: .init(source: "notifications", event: "delivered"),
///                           afterTrueEntryInto: destination)
/// ```
public enum GeoSimTest {
  /// The data every world in this test process shares (loaded at first use).
  public static let resources = ReplayResources()

  /// Reads the scenario file at `path` and replays it in this process; with `reports`, writes
  /// its reports there as `geosim replay` would.
  ///
  /// With `profile`, the phone starts from that device profile instead of the one the
  /// scenario names (`.functional` for a logic test whose verdict no seed may change); the
  /// scenario's own `device` numbers still override it.
  ///
  /// - Throws: `ScenarioError` for a scenario that cannot be read or assembled.
  public static func replay(
    _ path: String, catalog: AppCatalog, seed: UInt64? = nil,
    allowPathsOutsideFolder: Bool = false, profile: DeviceProfile? = nil,
    reports: ReportFolder? = nil
  ) throws -> ScenarioRun {
    let scenario = try Scenario(
      contentsOf: path, allowPathsOutsideFolder: allowPathsOutsideFolder, profile: profile)
    return try replay(scenario, catalog: catalog, seed: seed, reports: reports)
  }

  /// Replays a scenario built in code; with `reports`, writes its reports there.
  public static func replay(
    _ scenario: Scenario, catalog: AppCatalog, seed: UInt64? = nil, reports: ReportFolder? = nil
  ) throws -> ScenarioRun {
    let run = try ScenarioRun(scenario, catalog: catalog, resources: resources, seed: seed)
    try reports?.add(run)
    return run
  }

  /// Reads the scenario file at `path` and replays it as many times as it asks (`"runs"`, or
  /// `runs`), in this process, each run with its own seed as `geosim replay` derives them
  /// (`Scenario.runSeed(_:run:)`), and returns the result over the runs: plain expectations
  /// must hold in every run, rate expectations in their share of runs
  /// (`ReplayResult.runs` holds the rates and the runs that did not pass). One run gives that
  /// run's result, as ``replay(_:catalog:seed:allowPathsOutsideFolder:profile:reports:)`` does.
  ///
  /// Unlike the tool, which runs each replay in a worker process, an app that traps here ends
  /// the test process.
  ///
  /// - Parameters:
  ///   - path: the scenario file.
  ///   - catalog: the apps the scenario may name.
  ///   - runs: replaces the scenario's number of runs (1 to `Scenario.maximumRuns`).
  ///   - seed: replaces the scenario's seed (run 0's).
  ///   - allowPathsOutsideFolder: whether the scenario's paths may lead outside its folder.
  ///   - profile: replaces the device profile the scenario names; its `device` numbers still
  ///     override it.
  /// - Throws: `ScenarioError` for a scenario that cannot be read or assembled, or a number of
  ///   runs out of range.
  public static func replayRuns(
    _ path: String, catalog: AppCatalog, runs: Int? = nil, seed: UInt64? = nil,
    allowPathsOutsideFolder: Bool = false, profile: DeviceProfile? = nil
  ) throws -> ReplayResult {
    var scenario = try Scenario(
      contentsOf: path, allowPathsOutsideFolder: allowPathsOutsideFolder, profile: profile)
    if let seed { scenario.seed = seed }
    if let runs {
      guard (1...Scenario.maximumRuns).contains(runs) else {
        throw ScenarioError(
          file: path, path: "runs",
          "expected a whole number of runs from 1 to \(Scenario.maximumRuns), found \(runs)")
      }
      scenario.runs = runs
    }
    let results = try (0..<scenario.runs).map { run in
      try ScenarioRun(
        scenario, catalog: catalog, resources: resources, seed: scenario.seed(ofRun: run)
      ).result
    }
    return scenario.runs == 1 ? results[0] : ReplayResult(aggregating: results, scenario: scenario)
  }

  /// Replays the scenario file at `path` at every point of a parameter grid, in this process,
  /// and aggregates the runs as `geosim sweep` does; with `reportsTo`, writes the sweep's
  /// `sweep.json`, `sweep.md`, `sensitivity.svg`, `latency.svg` and `index.html` into that
  /// folder (which `geosim merge` reads).
  ///
  /// Each `vary` is a `--vary` value of `geosim sweep`: `"seed=1..30"`,
  /// `"app.configuration.radius,expectations[0].region.radius=100,200"`. Unlike the tool, which
  /// runs points in worker processes, an app that traps here ends the test process.
  ///
  /// - Throws: `SweepError` for a grid that does not parse or is too large, `ScenarioError`
  ///   for a point whose scenario cannot be read or assembled.
  public static func sweep(
    _ path: String, catalog: AppCatalog, vary: [String], allowPathsOutsideFolder: Bool = false,
    reportsTo folder: String? = nil
  ) throws -> SweepReport {
    let grid = SweepGrid(parameters: try vary.map(SweepGrid.parameter))
    try grid.validate()
    let document = try Scenario.document(contentsOf: path)
    let base = URL(fileURLWithPath: path).deletingLastPathComponent()
    var runs: [SweepRun] = []
    for index in 0..<grid.count {
      let scenario = try grid.scenario(
        document.root, at: index, base: path, folder: base,
        allowPathsOutsideFolder: allowPathsOutsideFolder)
      let run = try ScenarioRun(scenario, catalog: catalog, resources: resources)
      runs.append(
        try SweepRun(index: index, values: grid.values(at: index), run: run, resources: resources))
    }
    let report = SweepReport(
      base: path, grid: grid, shard: nil, runs: runs, expected: Array(0..<grid.count))
    if let folder {
      try ReportFiles.writeSweep(report, to: URL(fileURLWithPath: folder, isDirectory: true))
    }
    return report
  }
}

/// Which log entries an assertion is about: a source, an event and field values.
public struct EventQuery: Sendable, CustomStringConvertible {
  /// The entry's source (`notifications`, `region`, `network`, `app`, …).
  public var source: String
  /// The entry's event (`delivered`, `didEnterRegion`, …), or any when `nil`.
  public var event: String?
  /// Field values the entry must have (strings compared as strings, numbers as numbers).
  public var fields: [String: JSONValue]

  /// A query.
  public init(source: String, event: String? = nil, fields: [String: JSONValue] = [:]) {
    self.source = source
    self.event = event
    self.fields = fields
  }

  func matches(_ entry: LogEntry) -> Bool {
    entry.source == source && (event.map { $0 == entry.event } ?? true)
      && fields.allSatisfy { name, value in entry[name]?.json == value }
  }

  /// `notifications.delivered {"identifier":"arrival"}`.
  public var description: String {
    "\(source).\(event ?? "*")" + (fields.isEmpty ? "" : " \(JSONValue.object(fields).jsonText)")
  }
}

/// An assertion about a replay that did not hold: the scenario, what was expected, and the
/// events or expectations it is about.
public struct ScenarioFailure: Error, Sendable, CustomStringConvertible {
  /// The scenario file (or name, for one built in code).
  public let scenario: String
  /// One line per failed expectation or assertion.
  public let failures: [String]

  /// The scenario and each failure on its own line.
  public var description: String {
    "\(scenario): \(failures.count) failure(s)\n"
      + failures.map { "  - " + $0 }.joined(separator: "\n")
  }
}

extension ScenarioRun {
  /// The scenario's file, or its name when built in code.
  public var scenarioLabel: String { scenario.file ?? scenario.name }

  /// Throws ``ScenarioFailure`` listing every expectation that failed (with what was expected,
  /// what happened and when), every timeline event that could not happen, and a crash, or an
  /// unexpected pass of a scenario marked as expected to fail. A trace issue the scenario does
  /// not allow fails it whatever it was meant to show, and so does a replay stopped for its
  /// event budget.
  public func requireExpectations() throws {
    if let timeout = result.timeout {
      throw ScenarioFailure(scenario: scenarioLabel, failures: ["timeout: \(timeout.reason)"])
    }
    // A trace that lost points fails whatever the scenario was meant to show.
    let refused = result.refusedTraceIssues.map { "trace: \($0) (not allowed)" }
    if !refused.isEmpty { throw ScenarioFailure(scenario: scenarioLabel, failures: refused) }
    var failures = result.timelineErrors.map { "timeline: \($0)" }
    for e in result.expectations where !e.passed {
      failures.append(
        "\(e.name)" + (e.time.map { " (at \(JSONText.number($0)) s)" } ?? "") + ": \(e.message)")
    }
    switch result.expectedOutcome {
    case .pass:
      if !failures.isEmpty { throw ScenarioFailure(scenario: scenarioLabel, failures: failures) }
    case .fail:
      if failures.isEmpty {
        throw ScenarioFailure(
          scenario: scenarioLabel,
          failures: ["the scenario is marked \"expect\": \"fail\", but every expectation held"])
      }
    }
  }

  /// The log entries matching `query`, in order.
  public func events(_ query: EventQuery) -> [LogEntry] {
    log.entries.filter(query.matches)
  }

  /// The first entry matching `query`.
  ///
  /// - Throws: ``ScenarioFailure`` naming the query when there is none.
  public func first(_ query: EventQuery) throws -> LogEntry {
    guard let entry = log.entries.first(where: query.matches) else {
      throw ScenarioFailure(
        scenario: scenarioLabel, failures: ["expected an event \(query); there was none"])
    }
    return entry
  }

  /// Seconds from the true trace's first entry into `region` to the first entry matching
  /// `query` (negative when the event came first): "the arrival notification came 40 s after
  /// the true entry".
  ///
  /// - Throws: ``ScenarioFailure`` when the trace never enters the region or no event matches.
  public func delay(of query: EventQuery, afterTrueEntryInto region: Replay.Expectation.Circle)
    throws
    -> Double
  {
    guard let entry = try world.firstTrueEntry(into: region) else {
      throw ScenarioFailure(
        scenario: scenarioLabel,
        failures: [
          "the true trace never enters the region around (\(region.center.latitude), "
            + "\(region.center.longitude)) r = \(JSONText.number(region.radius)) m"
        ])
    }
    let event = try first(query)
    return (event.time - entry.time).seconds
  }

  #if canImport(Testing)
    /// Records a Swift Testing issue for each expectation that failed, at the caller's source
    /// location, with the scenario, what was expected, what happened and when.
    public func expectExpectationsHold(sourceLocation: SourceLocation = #_sourceLocation) {
      do {
        try requireExpectations()
      } catch let failure as ScenarioFailure {
        for line in failure.failures {
          Issue.record(
            Comment(rawValue: "\(failure.scenario): \(line)"), sourceLocation: sourceLocation)
        }
      } catch {
        Issue.record(error, sourceLocation: sourceLocation)
      }
    }
  #endif
}
