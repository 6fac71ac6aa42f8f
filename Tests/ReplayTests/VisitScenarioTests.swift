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
