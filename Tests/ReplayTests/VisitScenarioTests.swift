import Device
import Foundation
import GeoSimTesting
import SimKernel
import Testing

@testable import Replay

/// A day replayed with significant location changes and visit monitoring: the fixture's
/// expectations hold, and the log shows the relaunch and what the relaunched app heard.
@Suite struct VisitScenarioTests {
  let file = fixtures.appendingPathComponent("day-of-visits.scenario.json").path

  @Test func aDayWithTwoStaysAndARelaunchMeetsItsExpectations() throws {
    let run = try GeoSimTest.replay(file, catalog: .testing)
    try run.requireExpectations()
    run.expectExpectationsHold()
  }

  @Test func theDeviceKeysSetTheServicesParameters() throws {
    let s = try scenario(
      """
      {"format": "geosim-scenario/1", "name": "m", "start": "2026-04-01T08:00:00+09:00",
       "duration": 60, "app": {"name": "PlaceDiary"},
       "device": {"significantChanges": {"distance": 800, "minimumInterval": 120,
                                         "evaluationInterval": 30},
                  "visits": {"samplingInterval": 20, "radius": 80, "minimumDwell": 300,
                             "arrivalDelay": 0, "departureDelay": 900}}}
      """)
    let changes = s.device.parameters.significantChanges
    #expect(changes.distance == 800)
    #expect(changes.minimumInterval == .seconds(120))
    #expect(changes.evaluationInterval == .seconds(30))
    let visits = s.device.parameters.visits
    #expect(visits.samplingInterval == .seconds(20))
    #expect(visits.radius == 80)
    #expect(visits.minimumDwell == .seconds(300))
    #expect(visits.arrivalDelay == .zero)
    #expect(visits.departureDelay == .seconds(900))
    // Left out, a parameter keeps its default.
    let defaults = try scenario(
      """
      {"format": "geosim-scenario/1", "name": "m", "start": "2026-04-01T08:00:00+09:00",
       "duration": 60, "app": {"name": "PlaceDiary"}, "device": {"visits": {"radius": 80}}}
      """)
    #expect(defaults.device.parameters.visits.minimumDwell == VisitParameters().minimumDwell)
    #expect(defaults.device.parameters.significantChanges == SignificantChangeParameters())
  }

  @Test func theRelaunchedAppHearsTheEventThatRelaunchedIt() throws {
    let run = try GeoSimTest.replay(file, catalog: .testing)
    let log = run.log
    let relaunch = try #require(
      log.entries(source: "app", event: "state").first {
        $0.fields.contains { $0.name == "reason" && $0.value == .string("location") }
      })
    #expect(relaunch.time > .seconds(7_200))
    // The first thing the relaunched app records is what woke it: a change or a visit.
    let heard = try #require(
      log.entries.first {
        $0.time >= relaunch.time && $0.source == "app"
          && ["moved", "arrived", "departed"].contains($0.event)
      })
    #expect(heard.time == relaunch.time)
    // Arrival dates lie before their deliveries; every visit's departure follows its arrival.
    for entry in log.entries(source: "visit", event: "didVisit") {
      let value = { (name: String) in entry.fields.first { $0.name == name }?.value }
      if case .int(let arrival) = value("arrival") {
        #expect(SimTime(nanoseconds: arrival) < entry.time)
        if case .int(let departure) = value("departure") { #expect(departure > arrival) }
      }
    }
  }
}
