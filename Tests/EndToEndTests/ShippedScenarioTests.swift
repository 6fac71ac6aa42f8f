import Foundation
import GeoSimTesting
import Testing

/// The repository's `Scenarios/` folder.
private let scenariosFolder = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("Scenarios")

/// Every shipped scenario, by path relative to `Scenarios/`.
private let shippedScenarios: [String] =
  (FileManager.default.enumerator(atPath: scenariosFolder.path)?.compactMap { $0 as? String }
    .filter { $0.hasSuffix(".scenario.json") }.sorted()) ?? []

/// Each shipped scenario replays with the verdict it is marked with: the corrected apps pass,
/// and every as-published bug a scenario shows still shows.
@Suite struct ShippedScenarioTests {
  @Test func thereAreShippedScenarios() {
    #expect(!shippedScenarios.isEmpty)
  }

  @Test(arguments: shippedScenarios)
  func replaysAsMarked(_ path: String) throws {
    let file = scenariosFolder.appendingPathComponent(path).path
    // A scenario that asks for runs is judged over all of them, as `geosim replay` judges it.
    if try Scenario(contentsOf: file).runs > 1 {
      let result = try GeoSimTest.replayRuns(file, catalog: .referenceApps)
      let failed = result.expectations.filter { !$0.passed }.map(\.message)
      #expect(result.verdict.isHealthy, "\(path): \(result.verdict) \(failed)")
      return
    }
    let run = try GeoSimTest.replay(file, catalog: .referenceApps)
    run.expectExpectationsHold()
    #expect(run.result.verdict.isHealthy, "\(path): \(run.result.verdict)")
  }

  @Test(arguments: shippedScenarios)
  func replaysIdenticallyWithTheSameSeed(_ path: String) throws {
    let file = scenariosFolder.appendingPathComponent(path).path
    let a = try GeoSimTest.replay(file, catalog: .referenceApps)
    let b = try GeoSimTest.replay(file, catalog: .referenceApps)
    #expect(a.eventLines == b.eventLines)
    #expect(a.result == b.result)
  }
}

/// The arrival alarm on the train to Shinagawa, asked the way a user's suite would ask.
@Test func theTrainAlarmRingsWithinAMinuteOfTheTrueArrival() throws {
  let run = try GeoSimTest.replay(
    scenariosFolder.appendingPathComponent(
      "arrival-alarm/train-to-shinagawa-corrected.scenario.json"
    )
    .path, catalog: .referenceApps)
  let shinagawa = Replay.Expectation.Circle(
    center: try Coordinate(latitude: 35.6285, longitude: 139.7388), radius: 300)
  let delay = try run.delay(
    of: EventQuery(source: "notifications", event: "delivered"), afterTrueEntryInto: shinagawa)
  #expect(delay > 0 && delay < 60)
}
