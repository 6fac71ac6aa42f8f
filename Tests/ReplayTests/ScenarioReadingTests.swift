import Cloud
import Device
import Foundation
import Geo
import JSON
import Replay
import Testing

/// A scenario document is read strictly: every mistake is reported with the file, the JSON
/// path, the line and column, and what was expected.
@Suite struct ScenarioReadingTests {
  let minimal = """
    {"format": "geosim-scenario/1", "name": "m", "start": "2026-04-01T08:00:00+09:00",
     "duration": 60, "app": {"name": "FixCounter", "variant": "careful"}}
    """

  /// The error a scenario text gives.
  func error(_ text: String) -> ScenarioError? {
    do {
      _ = try scenario(text)
      return nil
    } catch let error as ScenarioError {
      return error
    } catch {
      Issue.record("unexpected error \(error)")
      return nil
    }
  }

  /// The minimal scenario with `members` added at the top level.
  func with(_ members: String) -> String {
    String(minimal.dropLast()) + ", " + members + "}"
  }

  @Test func aFullScenarioFileReads() throws {
    let s = try Scenario(contentsOf: fixtures.appendingPathComponent("walk.scenario.json").path)
    #expect(s.name == "walk")
    #expect(s.seed == 7)
    #expect(s.start == Date(timeIntervalSince1970: 1_774_998_000))  // 2026-03-31T23:00:00Z
    #expect(s.timeZone.identifier == "Asia/Tokyo")
    #expect(s.timeline.count == 3)
    #expect(s.timeline[1].origin == "timeline[1]")
    // Unnamed expectations are named by their rule in words.
    #expect(
      s.expectations.map(\.name) == [
        "a marker", #"label is "fixes: 0" at 1 s"#, "exactly 1 location.started",
        "no request within 1000 m of (0, 0)", "the app does not crash",
      ])
    #expect(s.device.promptAnswers[.location] == [.allowWhileUsing])
  }

  @Test func twoUnnamedExpectationsThatReadTheSameAreNumbered() throws {
    let s = try scenario(
      with(#""expectations": [{"expect": "noCrash"}, {"expect": "noCrash"}]"#))
    #expect(s.expectations.map(\.name) == ["the app does not crash", "the app does not crash (2)"])
  }

  @Test func theMinimalScenarioHasDefaults() throws {
    let s = try scenario(minimal)
    #expect(s.expectedOutcome == .pass)
    #expect(s.seed == 1)
    #expect(s.timeline.isEmpty && s.trace == nil && s.datasets.isEmpty)
  }

  @Test func anUnknownKeyIsNamedWithItsLineAndColumn() throws {
    let e = try #require(error(with("\n  \"sead\": 3")))
    #expect(e.path == "sead")
    #expect(e.line == 3 && e.column == 3)
    #expect(e.message.contains("unknown key 'sead'"))
    #expect(
      e.description.hasPrefix(
        fixtures.appendingPathComponent("inline.scenario.json").path + ":3:3: sead: "))
  }

  @Test func aSchemaReferenceAtTheTopIsAcceptedAndIgnored() throws {
    let plain = try scenario(minimal)
    let annotated = try scenario(
      "{\"$schema\": \"../../docs/schemas/scenario.schema.json\", " + minimal.dropFirst())
    #expect(annotated.name == plain.name && annotated.start == plain.start)
    #expect(annotated.duration == plain.duration && annotated.app.name == plain.app.name)
    // Any string will do: the reader never follows it.
    _ = try scenario(with(#""$schema": "https://example.com/nowhere.json""#))
  }

  @Test func aSchemaReferenceThatIsNotAStringIsNamed() throws {
    let e = try #require(error(with(#""$schema": 1"#)))
    #expect(e.path == #"["$schema"]"#)
    #expect(e.message == "expected a string, found a number")
    #expect(e.line == 2 && e.column != nil)
  }

  @Test func aSchemaReferenceAnywhereButTheTopIsAnUnknownKey() throws {
    let device = try #require(error(with(#""device": {"$schema": "x"}"#)))
    #expect(device.path == #"device["$schema"]"#)
    #expect(device.message.hasPrefix("unknown key '$schema'"))
    let event = try #require(
      error(with(#""timeline": [{"at": 0, "do": "launch", "$schema": "x"}]"#)))
    #expect(event.path == #"timeline[0]["$schema"]"#)
  }

  @Test func aWrongTypeSaysWhatWasExpected() throws {
    let e = try #require(error(with("\"device\": {\"airplaneMode\": \"yes\"}")))
    #expect(e.path == "device.airplaneMode")
    #expect(e.message == "expected true or false, found a string")
  }

  @Test func everySensorParameterCanBeSetFromTheScenario() throws {
    let s = try scenario(
      with(
        #""device": {"sensor": {"threeKilometersAccuracy": 2500, "gnssCorrelationTime": 5, "#
          + #""velocityStandardDeviation": 0.5, "minimumSpeedForCourse": 1, "#
          + #""reducedAccuracyInterval": 600, "reducedAccuracyCellSize": 0.05, "#
          + #""reducedAccuracyHorizontalAccuracy": 3000, "coarseCorrelationTime": 0, "#
          + #""coarseJumpMeanDuration": 30, "coarseJumpDistance": {"min": 100, "max": 200}}}"#))
    let p = s.device.sensor
    #expect(p.threeKilometersAccuracy == 2_500 && p.gnssCorrelationTime == .seconds(5))
    #expect(p.velocityStandardDeviation == 0.5 && p.minimumSpeedForCourse == 1)
    #expect(p.reducedAccuracyInterval == .minutes(10) && p.reducedAccuracyCellSize == 0.05)
    #expect(p.reducedAccuracyHorizontalAccuracy == 3_000 && p.coarseCorrelationTime == .zero)
    #expect(p.coarseJumpMeanDuration == .seconds(30) && p.coarseJumpDistance == 100...200)
    // What the scenario leaves out keeps its documented default.
    #expect(p.wifiCorrelationTime == SensorParameters().wifiCorrelationTime)
  }

  @Test func knownCellSitesAreReadAsCoordinatesAndABadOneIsNamed() throws {
    let s = try scenario(
      with(
        #""device": {"sensor": {"cellSites": [{"latitude": 35.68, "longitude": 139.76}, "#
          + #"{"latitude": 35.69, "longitude": 139.70}]}}"#))
    #expect(
      s.device.sensor.cellSites == [
        try Coordinate(latitude: 35.68, longitude: 139.76),
        try Coordinate(latitude: 35.69, longitude: 139.70),
      ])
    let e = try #require(
      error(with(#""device": {"sensor": {"cellSites": [{"latitude": 95, "longitude": 0}]}}"#)))
    #expect(e.path == "device.sensor.cellSites[0].latitude")
    #expect(e.message.hasPrefix("expected a latitude"))
  }

  @Test func pausingCanBeSetPerActivityOrTurnedOff() throws {
    let s = try scenario(
      with(#""device": {"parameters": {"pauseAfter": {"fitness": 60, "airborne": null}}}"#))
    let pauseAfter = s.device.parameters.pauseAfter
    #expect(pauseAfter[.fitness] == .minutes(1) && pauseAfter[.airborne] == nil)
    #expect(pauseAfter[.other] == PhoneParameters().pauseAfter[.other])
  }

  @Test func aDeviceParameterOutOfRangeIsNamedWithItsPlace() throws {
    let speed = try #require(
      error(with(#""device": {"sensor": {"velocityStandardDeviation": -1}}"#)))
    #expect(speed.path == "device.sensor.velocityStandardDeviation")
    #expect(speed.line == 2 && speed.column != nil)
    #expect(speed.message == "expected a speed in m/s in [0, 100], found -1")
    let jump = try #require(
      error(with(#""device": {"sensor": {"coarseJumpDistance": {"min": 900, "max": 300}}}"#)))
    #expect(jump.path == "device.sensor.coarseJumpDistance.max")
    #expect(jump.message == "expected a distance at least min (900), found 300")
    let activity = try #require(
      error(with(#""device": {"parameters": {"pauseAfter": {"walking": 60}}}"#)))
    #expect(activity.path == "device.parameters.pauseAfter.walking")
    #expect(activity.message.contains("unknown key 'walking'"))
    let never = try #require(
      error(with(#""device": {"parameters": {"pauseAfter": {"fitness": 0}}}"#)))
    #expect(never.message == "expected a positive number of seconds")
  }

  @Test func aStartWithDozensOfFractionalDigitsIsRefusedInsteadOfCrashingTheDateParser() throws {
    let text = minimal.replacingOccurrences(
      of: "08:00:00+09:00", with: "08:00:00." + String(repeating: "9", count: 35) + "+09:00")
    let e = try #require(error(text))
    #expect(e.path == "start")
    #expect(e.line == 1 && e.column == 55)
    #expect(
      e.message.hasPrefix(
        "expected an ISO 8601 date and time with at most nine fractional digits and a UTC offset"))
  }

  @Test(arguments: [
    ("2026-04-01T08:00:00.5+09:00", 1_774_998_000.5), ("2026-04-01T08:00:00Z", 1_775_030_400),
    ("2024-02-29T00:00:00-01:30", 1_709_170_200),
  ])
  func aStartIsReadAsRFC3339(text: String, seconds: Double) throws {
    let s = try scenario(minimal.replacingOccurrences(of: "2026-04-01T08:00:00+09:00", with: text))
    #expect(s.start.timeIntervalSince1970 == seconds)
  }

  @Test(arguments: [
    "2026-02-30T08:00:00Z", "2026-04-01T08:00:00", "2026-04-01T08:00:00.1234567890Z",
    "2026-04-01 08:00:00Z", "2026-04-01T08:00:00.Z",
  ])
  func aStartThatIsNotRFC3339IsRefused(text: String) throws {
    let e = try #require(
      error(minimal.replacingOccurrences(of: "2026-04-01T08:00:00+09:00", with: text)))
    #expect(e.path == "start")
  }

  @Test(arguments: [
    #""device": {"sensor": {"updateInterval": 1e-6}}"#,
    #""device": {"sensor": {"reducedAccuracyInterval": 0.001}}"#,
    #""device": {"regionMonitoring": {"evaluationInterval": 1e-12}}"#,
    #""device": {"significantChanges": {"evaluationInterval": 0.001}}"#,
    #""device": {"visits": {"samplingInterval": 1e-9}}"#,
    #""trace": {"waypoints": [{"latitude": 35, "longitude": 139}, {"latitude": 35.1, "longitude": 139.1}], "speed": "walk", "interval": 1e-12}"#,
  ])
  func anIntervalBelowTheFloorIsRefusedInsteadOfRunningForever(member: String) throws {
    let e = try #require(error(with(member)))
    #expect(e.message.hasPrefix("expected an interval in seconds in [0.01, 1000000000], found "))
    #expect(e.line == 2)
  }

  @Test func timesOutOfOrderAreRefused() throws {
    let e = try #require(
      error(with(#""timeline": [{"at": 5, "do": "launch"}, {"at": 2, "do": "background"}]"#)))
    #expect(e.path == "timeline[1].at")
    #expect(e.message.contains("out of order"))
  }

  @Test func anEventAfterTheEndIsRefused() throws {
    let e = try #require(error(with(#""timeline": [{"at": 61, "do": "launch"}]"#)))
    #expect(e.path == "timeline[0].at")
  }

  @Test func anUnknownEventListsTheKnownOnes() throws {
    let e = try #require(error(with(#""timeline": [{"at": 1, "do": "shake"}]"#)))
    #expect(e.path == "timeline[0].do")
    #expect(e.message.contains("unknown event 'shake'") && e.message.contains("longPress"))
  }

  @Test func aPostGISBackendNamesItsDatabaseAndOptionallyTheUsersTable() throws {
    let plain = try scenario(minimal)
    #expect(plain.backend == .inMemory && plain.postGISTable == nil)
    #expect(try scenario(with(#""backend": "sqlite""#)).backend == .sqlite(directory: nil))
    let own = try scenario(
      with(#""backend": "postgis", "database": "postgresql://geosim@127.0.0.1:54329/geosim""#))
    #expect(
      own.backend == .postgis(PostGISTarget(url: "postgresql://geosim@127.0.0.1:54329/geosim")))
    #expect(own.postGISTable == nil)
    let patient = try scenario(
      with(#""backend": "postgis", "database": "postgresql://h/db", "statementTimeout": 2.5"#))
    #expect(
      patient.backend
        == .postgis(PostGISTarget(url: "postgresql://h/db", statementTimeoutMilliseconds: 2_500)))
    let user = try scenario(
      with(
        #""backend": "postgis", "database": "postgresql://h/db", "table": "#
          + #"{"schema": "rail", "name": "stations", "geometryColumn": "g", "nameColumn": "label", "#
          + #""class": "Eki", "geoField": "where"}"#))
    #expect(
      user.postGISTable?.table
        == PostGISTable(
          schema: "rail", name: "stations", geometryColumn: "g", idColumn: "id",
          nameColumn: "label"))
    #expect(user.tableStations == TableStations(className: "Eki", geoField: "where"))
  }

  @Test(arguments: [
    (
      #""backend": "btree""#, "backend",
      "expected one of 'strtree', 'brute', 'memory', 'sqlite', 'postgis', found 'btree'"
    ),
    (
      #""backend": "postgis""#, "backend",
      #""postgis" needs "database": a URL such as postgresql://user@host:5432/db"#
    ),
    (#""database": "postgresql://h/db""#, "database", #"expected only with "backend": "postgis""#),
    (
      #""backend": "postgis", "database": """#, "database",
      "expected a PostgreSQL URL, found an empty string"
    ),
    (
      #""backend": "postgis", "database": "postgresql://h/db", "table": {"schema": "s"}"#, "table",
      "missing required key 'name'"
    ),
    (
      #""datasets": [{"file": "walk.scenario.json"}], "backend": "postgis", "database": "postgresql://h/db", "table": {"name": "t"}"#,
      "table",
      #"expected either "datasets" or a PostGIS "table", not both: the table's rows are the stations"#
    ),
  ])
  func aBadBackendIsNamedWithItsPlace(member: String, path: String, message: String) throws {
    let e = try #require(error(with(member)))
    #expect(e.path == path)
    #expect(e.message.hasPrefix(message), "\(e.message)")
  }

  @Test func aMissingFileIsNamed() throws {
    let e = try #require(error(with(#""trace": {"file": "nowhere.gpx"}"#)))
    #expect(e.path == "trace.file")
    #expect(e.message.hasPrefix("no such file: ") && e.message.hasSuffix("nowhere.gpx"))
  }

  @Test func onlyAFileTraceMayAllowSkippedPointsAndOnlyWithABool() throws {
    let synthesized = try #require(
      error(
        with(
          #""trace": {"stationary": {"latitude": 35, "longitude": 139}, "allowSkippedPoints": true}"#
        )))
    #expect(synthesized.path == "trace.allowSkippedPoints")
    #expect(synthesized.message == "'allowSkippedPoints' does not apply to a 'stationary' trace")
    let notBool = try #require(
      error(with(#""trace": {"file": "walk.scenario.json", "allowSkippedPoints": "yes"}"#)))
    #expect(notBool.path == "trace.allowSkippedPoints" && notBool.line == 2)
  }

  @Test func aFileTraceSaysHowItsGPXWaypointsAreRead() throws {
    let chosen = try scenario(
      with(#""trace": {"file": "walk.scenario.json", "gpxWaypoints": "track"}"#))
    guard case .file(_, _, _, _, let policy)? = chosen.trace else {
      Issue.record("not a file trace")
      return
    }
    #expect(policy == .track)
    let unknown = try #require(
      error(with(#""trace": {"file": "walk.scenario.json", "gpxWaypoints": "all"}"#)))
    #expect(unknown.path == "trace.gpxWaypoints")
    #expect(unknown.message == "expected one of 'automatic', 'track', 'ignored'")
    let stationary = try #require(
      error(
        with(
          #""trace": {"stationary": {"latitude": 35, "longitude": 139}, "gpxWaypoints": "track"}"#
        )))
    #expect(stationary.message == "'gpxWaypoints' does not apply to a 'stationary' trace")
  }

  @Test func pathsMayNotLeaveTheScenarioFolder() throws {
    let e = try #require(error(with(#""trace": {"file": "../Fixtures/../../x.gpx"}"#)))
    #expect(e.path == "trace.file")
    #expect(e.message.contains("leads outside the scenario's folder"))
    #expect(e.message.hasSuffix("paths outside the scenario's folder are not allowed"))
    #expect(e.code == .pathOutsideFolder && !e.message.contains("--"))
    let absolute = try #require(error(with(#""gazetteer": "/etc/hostname""#)))
    #expect(absolute.message.contains("leads outside"))
  }

  @Test func pathsOutsideTheFolderCanBeAllowed() throws {
    let text = with(#""gazetteer": "/etc/hostname""#)
    let s = try Scenario(
      data: Data(text.utf8), file: "x.scenario.json", folder: fixtures,
      allowPathsOutsideFolder: true)
    #expect(s.gazetteer?.path == "/etc/hostname")
  }

  @Test func aJSONSyntaxErrorHasItsPosition() throws {
    let e = try #require(error("{\n  \"format\": \"geosim-scenario/1\",\n  \"name\": ,\n}"))
    #expect(e.line == 3 && e.column == 11)
    #expect(e.path == "")
  }

  @Test func aPromptAnswerMustFitItsPrompt() throws {
    let e = try #require(
      error(with(#""device": {"promptAnswers": {"notifications": ["allowOnce"]}}"#)))
    #expect(e.path == "device.promptAnswers.notifications[0]")
  }

  @Test func theTemporaryFullAccuracyPromptTakesAllowOrDontAllow() throws {
    let s = try scenario(
      with(#""device": {"promptAnswers": {"temporaryFullAccuracy": ["allow", "dontAllow"]}}"#))
    #expect(s.device.promptAnswers[.temporaryFullAccuracy] == [.allow, .dontAllow])
    let e = try #require(
      error(with(#""device": {"promptAnswers": {"temporaryFullAccuracy": ["allowOnce"]}}"#)))
    #expect(e.path == "device.promptAnswers.temporaryFullAccuracy[0]")
  }

  @Test func aNameMustBeAFolderNameThatStaysInThisFolder() throws {
    for bad in ["../../tmp/x", ".", "..", "a/b", "駅", ""] {
      let e = try #require(
        error(minimal.replacingOccurrences(of: #""name": "m""#, with: #""name": "\#(bad)""#)))
      #expect(e.path == "name", "\(bad)")
    }
    #expect(Scenario.isValidName("arrival-alarm_train.2"))
  }

  @Test func theFormatIsChecked() throws {
    let e = try #require(error(minimal.replacingOccurrences(of: "scenario/1", with: "scenario/9")))
    #expect(e.path == "format")
  }

  @Test func aCountNeedsBounds() throws {
    let e = try #require(
      error(with(#""expectations": [{"expect": "count", "source": "app", "event": "x"}]"#)))
    #expect(e.path == "expectations[0]")
    #expect(e.message == "expected 'min', 'max' or 'equals'")
  }

  @Test func aTouchNeedsAScreenPointOrACoordinate() throws {
    let e = try #require(error(with(#""timeline": [{"at": 1, "do": "tap", "x": 3}]"#)))
    #expect(e.path == "timeline[0]")
    #expect(e.message.contains("'x' and 'y'"))
  }

  @Test func offlineWindowsMustBeOrdered() throws {
    let e = try #require(
      error(with(#""environment": {"offline": [{"from": 10, "to": 5}]}"#)))
    #expect(e.path == "environment.offline[0].to")
  }

  @Test func aBadAreaGeometryIsNamedAtItsOwnPlaceInTheScenario() throws {
    let area =
      "\"environment\": {\"areas\": [{\"kind\": \"tunnel\", \"geometry\":\n"
      + "  {\"type\": \"Polygon\", \"coordinates\": [[[0, 0], [1, 0], [1, 1], [0, \"1\"]]]}}]}"
    let e = try #require(error(with(area)))
    #expect(e.path == "environment.areas[0].geometry.coordinates[0][3][1]")
    #expect(e.line == 3 && e.column == 68)
    #expect(
      e.message == "expected a GeoJSON Polygon or MultiPolygon: expected a number, got a string")
  }

  @Test func anOutOfRangeLatitudeIsRefused() throws {
    let e = try #require(
      error(with(#""trace": {"stationary": {"latitude": 91, "longitude": 0}}"#)))
    #expect(e.path == "trace.stationary.latitude")
    #expect(e.message == "expected a latitude in [-90, 90], found 91")
  }
}
