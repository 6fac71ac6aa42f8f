import Device
import Foundation
import Geo
import JSON
import Replay
import SimKernel
import Testing

/// Replaying a scenario: the timeline drives the phone and the app, expectations are judged
/// after the run, and the same seed gives the same events.
@Suite struct ReplayRunTests {
  func walk() throws -> Scenario {
    try Scenario(contentsOf: fixtures.appendingPathComponent("walk.scenario.json").path)
  }

  @Test func theWalkPassesEveryExpectation() throws {
    let run = try ScenarioRun(walk(), catalog: .testing, resources: resources)
    for e in run.result.expectations { #expect(e.passed, "\(e.name): \(e.message)") }
    #expect(run.result.verdict == .pass)
    guard case .number(let fixes)? = run.world.screenState.object?["fixes"] else {
      Issue.record("no fixes in \(run.world.screenState)")
      return
    }
    #expect(fixes > 500)
    let marker = run.world.phone.screen?.mapView?.annotations.compactMap { $0 as? PointAnnotation }
    let c = try #require(marker?.first?.coordinate)
    // A tap lands on a screen point; the map converts it back within a fraction of a point.
    #expect(
      Geodesic.wgs84.inverse(from: c, to: try Coordinate(latitude: 35.68, longitude: 139.766))
        .distance < 1)
    #expect(run.world.screenState.object?["label"] == .string("steps: \(Int(fixes))"))
  }

  @Test func theSameSeedGivesTheSameEventsAndAnotherSeedOthers() throws {
    let a = try ScenarioRun(walk(), catalog: .testing, resources: resources).eventLines
    let b = try ScenarioRun(walk(), catalog: .testing, resources: resources).eventLines
    let c = try ScenarioRun(walk(), catalog: .testing, resources: resources, seed: 8).eventLines
    #expect(a == b)
    #expect(a != c)
  }

  @Test func theEventSinkSeesEveryEntryIncludingTheSetup() throws {
    var s = try walk()
    s.device.locationSetting = .whileUsing
    var streamed: [LogEntry] = []
    let run = try ScenarioRun(s, catalog: .testing, resources: resources) { streamed.append($0) }
    #expect(streamed == run.log.entries)
    #expect(streamed.first?.source == "settings")
  }

  @Test func aFailedExpectationSaysWhatWasExpectedWhatHappenedAndWhen() throws {
    var s = try walk()
    s.expectations = [
      Expectation(name: "two markers", .state(path: "markers.count", equals: .number(2), at: 120)),
      Expectation(
        name: "no fixes",
        .count(
          source: "location", event: "started", fields: [:], min: nil, max: 0, from: nil, to: nil)),
    ]
    let result = try ScenarioRun(s, catalog: .testing, resources: resources).result
    #expect(result.verdict == .fail)
    #expect(result.expectations[0].message == "expected markers.count to be 2 at 120 s; it was 1")
    #expect(result.expectations[0].time == 120)
    #expect(
      result.expectations[1].message.hasPrefix(
        "expected at most 0 location.started; there were 1, the first at "))
  }

  @Test func aTimelineEventThatCannotHappenFailsTheReplay() throws {
    var s = try walk()
    s.timeline.append(TimelineEvent(at: 200, .answerPrompt(.allow), origin: "timeline[3]"))
    s.timeline.append(TimelineEvent(at: 210, .tapButton("missing"), origin: "timeline[4]"))
    let result = try ScenarioRun(s, catalog: .testing, resources: resources).result
    #expect(result.verdict == .fail)
    #expect(result.timelineErrors.count == 2)
    #expect(result.timelineErrors[0].hasPrefix("at 200 s, timeline[3]: "))
    #expect(
      result.timelineErrors[1] == "at 210 s, timeline[4]: the app has no button called 'missing'")
  }

  @Test func aCrashIsACrashEvenInAScenarioMarkedToFail() throws {
    var result = try ScenarioRun(walk(), catalog: .testing, resources: resources).result
    result.expectedOutcome = .fail
    result.crash = ReplayResult.Crash(reason: "signal 9 (SIGKILL)", lastEvents: [])
    #expect(result.verdict == .crash)
    #expect(!result.verdict.isHealthy)
  }

  @Test func anExpectedFailureIsHealthy() throws {
    var s = try walk()
    s.expectedOutcome = .fail
    #expect(
      try ScenarioRun(s, catalog: .testing, resources: resources).result.verdict == .unexpectedPass)
    s.expectations.append(Expectation(name: "x", .state(path: "nothing", equals: .null, at: nil)))
    let verdict = try ScenarioRun(s, catalog: .testing, resources: resources).result.verdict
    #expect(verdict == .expectedFailure && verdict.isHealthy)
  }

  @Test func aTraceStartedOnTheTimelineReplacesTheRest() throws {
    var s = try walk()
    let ginza = try Coordinate(latitude: 35.6717, longitude: 139.7650)
    s.timeline.append(TimelineEvent(at: 300, .trace(.stationary(ginza, startAt: 300))))
    let run = try ScenarioRun(s, catalog: .testing, resources: resources)
    let samples = run.world.trueSamples
    #expect(samples.last?.coordinate == ginza)
    #expect(samples.first { $0.time >= .seconds(300) }?.time == .seconds(300))
    #expect(samples.contains { $0.time < .seconds(300) && $0.time > .seconds(200) })
  }

  @Test func anUnknownAppOrVariantIsAScenarioError() throws {
    var s = try walk()
    s.app.variant = "sloppy"
    #expect {
      try ScenarioRun(s, catalog: .testing, resources: resources)
    } throws: { error in
      (error as? ScenarioError)?.path == "app.variant"
        && (error as? ScenarioError)?.message
          == "expected one of 'careful', 'trapping', got 'sloppy'"
    }
    s.app = AppSelection(name: "Nope")
    #expect {
      try ScenarioRun(s, catalog: .testing, resources: resources)
    } throws: { ($0 as? ScenarioError)?.message.hasPrefix("no app called 'Nope'") == true }
    s.app = AppSelection(
      name: "FixCounter", variant: "careful", configuration: .object(["a": .null]))
    #expect {
      try ScenarioRun(s, catalog: .testing, resources: resources)
    } throws: { ($0 as? ScenarioError)?.path == "app.configuration" }
  }

  @Test func offlineWindowsAndAirplaneModeTakeTheNetworkDown() throws {
    var s = try walk()
    s.environment.offline = [100...200]
    s.timeline.append(TimelineEvent(at: 300, .airplaneMode(true)))
    s.timeline.append(TimelineEvent(at: 400, .airplaneMode(false)))
    let log = try ScenarioRun(s, catalog: .testing, resources: resources).log
    let changes = log.entries(source: "network").map { "\($0.event)@\(Int($0.time.seconds))" }
    #expect(changes == ["offline@100", "online@200", "offline@300", "online@400"])
  }

  @Test func theScenariosDeviceParametersReachThePhone() throws {
    var s = try walk()
    s.device.parameters.pauseAfter[.fitness] = .seconds(90)
    let world = try World(scenario: s, catalog: .testing, resources: resources)
    #expect(world.phone.parameters.pauseAfter[.fitness] == .seconds(90))
    #expect(world.phone.parameters == s.device.parameters)
  }

  @Test func pointsDroppedForTimeNotMovingForwardAreTraceIssues() throws {
    var s = try walk()
    s.trace = .file(
      fixtures.appendingPathComponent("repeated-time.gpx"), track: 0, startAt: 0,
      allowSkippedPoints: false)
    let result = try ScenarioRun(s, catalog: .testing, resources: resources).result
    #expect(
      result.traceIssues.map(\.description) == [
        "repeated-time.gpx: dropped 1 point(s) of track 0 whose time does not come after the "
          + "point before: the track's point(s) 3"
      ])
    #expect(result.verdict == .fail)
  }

  @Test func aTraceSpanningCenturiesIsAnErrorNamingTheFileInsteadOfTrapping() throws {
    var s = try walk()
    s.trace = .file(
      fixtures.appendingPathComponent("centuries.gpx"), track: 0, startAt: 0,
      allowSkippedPoints: false)
    let error = try #require(throws: ScenarioError.self) {
      try World(scenario: s, catalog: .testing, resources: resources)
    }
    #expect(
      error.description.hasSuffix(
        "trace: centuries.gpx: track 0: point 2 of the track, at 2300-01-01T00:00:00Z, would be "
          + "10413792000 s from the scenario's start: expected at most 9000000000 s (about 285 "
          + "years) either way"))
  }

  @Test func theResultRoundTripsThroughJSON() throws {
    var result = try ScenarioRun(walk(), catalog: .testing, resources: resources).result
    result.crash = ReplayResult.Crash(reason: "signal 4", lastEvents: ["{}"])
    let back = ReplayResult(json: try JSONValue(parsing: Data(result.json.jsonText.utf8)))
    #expect(back == result)
  }

  @Test func eachExpectationKindIsWrittenAndReadBackUnderItsScenarioName() throws {
    let names = [
      "notificationAfterEntry", "noRequestNear", "state", "markersMatch", "noCrash", "count",
    ]
    #expect(Expectation.Kind.allCases.map(\.rawValue) == names)
    for kind in Expectation.Kind.allCases {
      var result = ReplayResult(scenario: try walk())
      result.expectations = [
        ExpectationResult(name: "x", kind: kind, passed: true, message: "held")
      ]
      #expect(result.json.object?["expectations"] == .array([result.expectations[0].json]))
      #expect(result.expectations[0].json.object?["kind"] == .string(kind.rawValue))
      #expect(ReplayResult(json: result.json)?.expectations.map(\.kind) == [kind])
    }
  }

  @Test func eachVerdictHasOneJSONNameAndOneLabelInSummaryOrder() {
    let verdicts = ReplayResult.Verdict.allCases
    #expect(verdicts.map(\.rawValue) == ["pass", "xfail", "fail", "crash", "timeout", "xpass"])
    #expect(verdicts.map(\.label) == ["PASS", "XFAIL", "FAIL", "CRASH", "TIMEOUT", "XPASS"])
    #expect(verdicts.filter(\.isHealthy) == [.pass, .expectedFailure])
    for verdict in verdicts { #expect(ReplayResult.Verdict(rawValue: verdict.rawValue) == verdict) }
  }

  @Test func theWalksExpectationsAreJudgedUnderTheKindsTheirRulesHave() throws {
    let result = try ScenarioRun(walk(), catalog: .testing, resources: resources).result
    #expect(result.expectations.map(\.kind) == [.state, .state, .count, .noRequestNear, .noCrash])
  }
}

extension JSONValue {
  var object: [String: JSONValue]? {
    if case .object(let o) = self { o } else { nil }
  }
}
