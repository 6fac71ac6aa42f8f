import Foundation
import GeoSimTesting
import Testing

private let scenarios = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("Scenarios")

/// The functional profile's promise: nothing random decides a verdict, so a plain test gives
/// the same verdict, and its region events come at the same times, whatever the seed.
@Suite struct FunctionalProfileScenarioTests {
  static let regionEvents = ["didEnterRegion", "didExitRegion", "didDetermineState"]

  @Test(arguments: [
    "arrival-alarm/second-alarm-corrected", "arrival-alarm/foreground-arrival-corrected",
    "arrival-alarm/already-inside-corrected", "arrival-alarm/tunnel-approach-corrected",
  ])
  func theVerdictAndTheRegionDeliveriesAreTheSameForEverySeed(_ name: String) throws {
    // The tunnel run is decided underground from cell positions alone: the functional
    // profile's cells are a metre apart, so those too lie within a metre of the truth.
    try expectTheSameForEverySeed(name)
  }

  func expectTheSameForEverySeed(_ name: String) throws {
    let file = scenarios.appendingPathComponent("\(name).scenario.json").path
    var verdicts: [ReplayResult.Verdict] = []
    var deliveries: [[String]] = []
    for seed: UInt64 in [1, 2, 3, 4, 5] {
      let run = try GeoSimTest.replay(
        file, catalog: .referenceApps, seed: seed, profile: .functional)
      #expect(run.scenario.device.profileName == "functional")
      verdicts.append(run.result.verdict)
      deliveries.append(
        run.log.entries.filter { $0.source == "region" && Self.regionEvents.contains($0.event) }
          .map { "\($0.time) \($0.event) \($0["identifier"]?.json.jsonText ?? "")" })
    }
    #expect(Set(verdicts).count == 1, "\(verdicts)")
    #expect(!deliveries[0].isEmpty, "the scenario hears no region event")
    for (i, other) in deliveries.enumerated().dropFirst() {
      #expect(other == deliveries[0], "seed \(i + 1) differs from seed 1")
    }
  }
}
