import Foundation
import GeoSimTesting
import Testing

/// The arrival alarm's shipped scenarios.
private let arrivalAlarm = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("Scenarios/arrival-alarm")

private func replay(_ name: String) throws -> ScenarioRun {
  try GeoSimTest.replay(
    arrivalAlarm.appendingPathComponent("\(name).scenario.json").path, catalog: .referenceApps)
}

/// The modern ArrivalAlarm replays the corrected one's scenarios, and differs where Apple
/// documents a difference.
@Suite struct ModernArrivalAlarmScenarioTests {
  @Test(arguments: [
    "train-to-shinagawa", "tunnel-approach", "already-inside", "second-alarm", "foreground-arrival",
  ])
  func theCorrectedScenariosPassWithTheModernApp(_ story: String) throws {
    let file = arrivalAlarm.appendingPathComponent("\(story)-modern.scenario.json").path
    let scenario = try Scenario(contentsOf: file)
    #expect(scenario.app.variant == "modern")
    if scenario.runs > 1 {
      // Judged over its runs (the underground ride rings on some of them).
      let result = try GeoSimTest.replayRuns(file, catalog: .referenceApps)
      #expect(result.verdict == .pass, "\(result.expectations.map(\.message))")
      return
    }
    let run = try replay("\(story)-modern")
    run.expectExpectationsHold()
  }

  /// Marked to fail, and failing only at the trigger the modern app does not schedule.
  @Test func revokedLocationFailsOnlyForTheTriggerItDoesNotHave() throws {
    let run = try replay("location-revoked-midway-modern")
    let failed = run.result.expectations.filter { !$0.passed }.map(\.name)
    #expect(failed == ["the trigger is silenced by the missing permission"])
    #expect(run.result.verdict == .expectedFailure)
  }

  /// With When In Use only, a terminated app: the delegate-era trigger rings, the monitor
  /// does not.
  @Test func terminatedWithWhenInUseOnlyTheTriggerRings() throws {
    let delivered = EventQuery(source: "notifications", event: "delivered")
    let corrected = try replay("terminated-when-in-use-corrected")
    let modern = try replay("terminated-when-in-use-modern")
    corrected.expectExpectationsHold()
    modern.expectExpectationsHold()
    #expect(corrected.events(delivered).count == 1)
    #expect(modern.events(delivered).isEmpty)
  }

  @Test func anotherAppNamedWithTheModernVariantIsAScenarioErrorListingItsVariants() throws {
    var scenario = try Scenario(
      contentsOf: arrivalAlarm.deletingLastPathComponent()
        .appendingPathComponent("pin-drop/long-press-address-corrected.scenario.json").path)
    scenario.app.variant = "modern"
    #expect {
      try GeoSimTest.replay(scenario, catalog: .referenceApps)
    } throws: { error in
      let error = error as? ScenarioError
      return error?.path == "app.variant"
        && error?.message == "expected one of 'as-published', 'corrected', got 'modern'"
    }
    #expect(AppCatalog.referenceApps.variants(of: "PinDrop") == ["as-published", "corrected"])
    #expect(
      AppCatalog.referenceApps.variants(of: "ArrivalAlarm")
        == ["as-published", "corrected", "modern"])
  }
}
