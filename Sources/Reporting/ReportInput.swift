import Cloud
import Device
import Replay
import SimKernel

/// Everything a report is derived from: what the scenario asked for, what the world recorded,
/// and the truth it followed.
public struct ReportInput {
  /// The scenario as replayed (its seed is the one the world ran with).
  public let scenario: Scenario
  /// The expectations' verdicts.
  public let result: ReplayResult
  /// The event log, in order.
  public let events: [LogEntry]
  /// The true trajectory the phone followed.
  public let trueSamples: [TrajectorySample]
  /// The stations of the scenario's datasets, as loaded into the datastore.
  public let stations: [StationRecord]

  /// An input from its parts.
  public init(
    scenario: Scenario, result: ReplayResult, events: [LogEntry],
    trueSamples: [TrajectorySample], stations: [StationRecord]
  ) {
    self.scenario = scenario
    self.result = result
    self.events = events
    self.trueSamples = trueSamples
    self.stations = stations
  }

  /// The input of a finished run.
  public init(_ run: ScenarioRun) {
    self.init(
      scenario: run.scenario, result: run.result, events: run.log.entries,
      trueSamples: run.world.trueSamples, stations: run.world.stations)
  }
}
