import CheckInSimulation
import Foundation
import GeoSimTesting
import Testing

/// The check-in feature on a simulated phone: the scenarios replay the app's own code.
@Suite struct CheckInTests {
  static func scenario(_ name: String) throws -> String {
    try #require(
      Bundle.module.url(forResource: "Scenarios/\(name)", withExtension: "scenario.json")
    ).path
  }

  @Test("walking to the office and on to the gym checks in at each, once")
  func officeThenGym() throws {
    let run = try GeoSimTest.replay(Self.scenario("office-then-gym"), catalog: .checkIn)
    run.expectExpectationsHold()
    let office = try run.first(
      EventQuery(source: "notifications", event: "delivered"))
    #expect(office.time.seconds > 60)
    #expect(run.result.pendingWork.isEmpty)
  }

  @Test("the same seed gives the same event log")
  func deterministic() throws {
    let first = try GeoSimTest.replay(Self.scenario("office-then-gym"), catalog: .checkIn)
    let second = try GeoSimTest.replay(Self.scenario("office-then-gym"), catalog: .checkIn)
    #expect(first.world.simulation.log.entries == second.world.simulation.log.entries)
  }
}
