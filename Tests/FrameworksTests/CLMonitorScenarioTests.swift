import Foundation
import GeoSimFrameworks
import Replay
import Testing

/// The scenario fixtures of the monitor (kept with the replay fixtures).
private let monitorFixtures = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("ReplayTests/Fixtures/monitor")

private let resources = ReplayResources()

extension AppCatalog {
  /// The iOS 17 arrival alarm, its variant the state it assumes for its destination.
  static var monitorApps: AppCatalog {
    var catalog = AppCatalog()
    catalog.register("ArrivalMonitor", variants: ["unknown", "unsatisfied", "satisfied"]) {
      context in
      let assumed: CLMonitor.Event.State =
        switch context.variant {
        case "unsatisfied": .unsatisfied
        case "satisfied": .satisfied
        default: .unknown
        }
      let destination = CLLocationCoordinate2D(latitude: 35.681236, longitude: 139.767125)
      return { HostApp { ArrivalMonitor(destination: destination, assuming: assumed) } }
    }
    return catalog
  }
}

@Suite("CLMonitor scenarios")
struct CLMonitorScenarioTests {
  func run(_ name: String) throws -> ScenarioRun {
    let scenario = try Scenario(
      contentsOf: monitorFixtures.appendingPathComponent("\(name).scenario.json").path)
    return try ScenarioRun(scenario, catalog: .monitorApps, resources: resources)
  }

  @Test("walking into the fence: the first state, the arrival and one alarm")
  func arrival() throws {
    let run = try run("arrival")
    for e in run.result.expectations { #expect(e.passed, "\(e.name): \(e.message)") }
    let states = run.log.entries(source: "monitor", event: "eventDelivered").map { $0["state"] }
    #expect(states == [.string("unsatisfied"), .string("satisfied")])
    // The app's loop still waits for events when the run ends: listed as pending work.
    #expect(run.result.pendingWork.map(\.label) == ["CLMonitor(\"arrivals\").events"])
  }

  @Test("added while inside, assumed unsatisfied: corrected by a .satisfied event")
  func alreadyInside() throws {
    let run = try run("already-inside")
    for e in run.result.expectations { #expect(e.passed, "\(e.name): \(e.message)") }
    let states = run.log.entries(source: "monitor", event: "eventDelivered").map { $0["state"] }
    #expect(states == [.string("satisfied")])
  }
}
