import Device
import Foundation
import Geo
import GeoSimTesting
import JSON
import Testing

/// What a user's suite sees: failures that name the scenario, the expectation and the time, and
/// event-log questions answered against the truth.
@Suite struct GeoSimTestingTests {
  let file = fixtures.appendingPathComponent("walk.scenario.json").path

  @Test func aPassingScenarioRequiresNothingMore() throws {
    let run = try GeoSimTest.replay(file, catalog: .testing)
    try run.requireExpectations()
    run.expectExpectationsHold()
  }

  @Test("the app's screen is read with its phone current, during the run and after it")
  func theScreenIsReadInItsWorld() throws {
    var scenario = try Scenario(contentsOf: file)
    scenario.expectations = [
      Replay.Expectation(
        name: "during", .state(path: "readOnItsPhone", equals: .bool(true), at: 30)),
      Replay.Expectation(
        name: "at the end", .state(path: "readOnItsPhone", equals: .bool(true), at: nil)),
    ]
    let run = try GeoSimTest.replay(scenario, catalog: .testing)
    run.expectExpectationsHold()
    guard case .object(let state) = run.world.screenState else {
      Issue.record("no screen state")
      return
    }
    #expect(state["readOnItsPhone"] == .bool(true))
  }

  @Test func aFailureNamesTheScenarioTheExpectationAndTheTime() throws {
    var scenario = try Scenario(contentsOf: file)
    scenario.expectations = [
      Replay.Expectation(
        name: "three markers", .state(path: "markers.count", equals: .number(3), at: 90))
    ]
    let run = try GeoSimTest.replay(scenario, catalog: .testing)
    #expect {
      try run.requireExpectations()
    } throws: { error in
      "\(error)" == """
        \(file): 1 failure(s)
          - three markers (at 90 s): expected markers.count to be 3 at 90 s; it was 1
        """
    }
  }

  @Test func aTracePointTheScenarioDoesNotAllowToSkipFailsEvenAnExpectedFailure() throws {
    var scenario = try Scenario(contentsOf: file)
    scenario.trace = .file(
      fixtures.appendingPathComponent("bad-point.gpx"), track: 0, startAt: 0,
      allowSkippedPoints: false)
    scenario.expectedOutcome = .fail
    let run = try GeoSimTest.replay(scenario, catalog: .testing)
    #expect {
      try run.requireExpectations()
    } throws: { error in
      "\(error)" == """
        \(file): 1 failure(s)
          - trace: bad-point.gpx:3: skipped a point: expected numeric lat and lon attributes in \
        range (not allowed)
        """
    }
  }

  @Test func theDelayOfAnEventIsMeasuredFromTheTrueEntry() throws {
    let run = try GeoSimTest.replay(file, catalog: .testing)
    // The walk leaves Tokyo Station at 1.4 m/s; the circle's edge is about 100 m down the path.
    let region = Replay.Expectation.Circle(
      center: try Coordinate(latitude: 35.681236, longitude: 139.767125), radius: 50)
    let started = try run.delay(
      of: EventQuery(source: "timeline", event: "enterText"), afterTrueEntryInto: region)
    #expect(started == 90)  // the walk starts inside the circle, at 0 s
    #expect {
      try run.first(EventQuery(source: "notifications", event: "delivered"))
    } throws: { "\($0)".contains("expected an event notifications.delivered; there was none") }
  }
}
