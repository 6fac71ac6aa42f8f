import Foundation
import Testing

@testable import Traces

@Suite struct OtherFormatTests {
  @Test func geoJSONLineStringTakesCoordTimesAndPointsTakeTheirTime() throws {
    let trace = try readFixture("track.geojson")
    #expect(trace.format == .geojson)
    #expect(trace.tracks.map(\.name) == ["Run", "points", nil])
    let run = trace.tracks[0]
    #expect(run.points.map(\.elevation) == [12, 13, 14])
    #expect(run.points.map(\.time) == [0, 10, 20].map { epoch("2024-05-01T06:00:00Z") + $0 })
    #expect(trace.tracks[1].points.map(\.time) == [1_714_543_200, epoch("2024-05-01T06:00:30Z")])
    #expect(trace.tracks[2].points.allSatisfy { $0.time == nil })
    #expect(
      trace.skipped.map(\.message) == [
        "features[3]: skipped a Polygon: expected LineString or Point",
        "features[4]: ignored 'times': 2 times for 3 positions",
      ])
  }

  @Test func csvWithSemicolonsAndOtherColumnOrderReadsByName() throws {
    let trace = try readFixture("semicolon.csv")
    #expect(trace.format == .csv)
    let points = trace.tracks[0].points
    #expect(points.count == 3)
    #expect(points[0].coordinate.latitude == 52.52)
    #expect(points[0].coordinate.longitude == 13.405)
    #expect(points[0].speed == 3.5)
    #expect(points[2].time == 1_704_067_202)
    #expect(points[2].speed == nil)
    #expect(
      trace.skipped.map(\.description) == [
        "line 4: skipped a row: expected a latitude and longitude, found 'not-a-number', '13.4052'"
      ])
  }

  @Test func csvWithTabsReadsMillisecondsAccuracyAndElevation() throws {
    let points = try readFixture("tab-milliseconds.csv").tracks[0].points
    #expect(points.map(\.time) == [1_591_012_800, 1_591_012_830])
    #expect(points.map(\.horizontalAccuracy) == [5, 6])
    #expect(points.map(\.elevation) == [10, 11])
  }

  @Test func csvTrackColumnSplitsTracksAndHonoursQuotes() throws {
    let trace = try readFixture("tracks.csv")
    #expect(trace.tracks.map(\.name) == ["bus, line 1", "tram"])
    #expect(trace.tracks.map(\.points.count) == [2, 1])
  }

  @Test func csvWithoutCoordinateColumnsNamesWhatItFound() throws {
    let data = Data("a,b\n1,2\n".utf8)
    let error = try #require(throws: TraceError.self) {
      try Trace(data: data, file: "x.csv", format: .csv)
    }
    #expect(
      error.message
        == "x.csv:1: expected columns named lat/latitude and lon/lng/longitude, found: a, b")
  }

  @Test func nmeaMergesRMCAndGGAOfOneFixAndChecksChecksums() throws {
    let trace = try readFixture("log.nmea")
    #expect(trace.format == .nmea)
    let points = trace.tracks[0].points
    #expect(points.count == 3)
    let day = epoch("1998-09-13T08:18:36Z")
    #expect(points.map(\.time) == [day, day + 1, day + 3])
    #expect(abs(points[0].coordinate.latitude - -(37 + 51.65 / 60)) < 1e-12)
    #expect(abs(points[0].coordinate.longitude - (145 + 7.36 / 60)) < 1e-12)
    #expect(points[0].elevation == 12.5)
    #expect(points[1].elevation == 13)
    #expect(points[1].speed == 10.0 * 1_852 / 3_600)
    #expect(points[1].course == 90)
    #expect(points[2].elevation == nil)
    let messages = trace.skipped.map(\.description)
    #expect(messages.count == 4)
    #expect(
      messages[0].hasPrefix("line 6: skipped a sentence: checksum 00 does not match the computed "))
    #expect(messages[1] == "line 7: accepted a sentence without a checksum")
    #expect(messages[2] == "line 8: skipped an RMC sentence with status 'V' (no fix)")
    #expect(messages[3] == "line 9: skipped a line that is not an NMEA sentence")
  }

  /// An NMEA log from sentences without checksums (each accepted with a note).
  private func nmea(_ sentences: [String]) throws -> Trace {
    try Trace(data: Data(sentences.joined(separator: "\n").utf8), file: "t.nmea", format: .nmea)
  }

  @Test func nmeaFixesInTheSameSecondAtAnotherPlaceAreKeptAndNoted() throws {
    let trace = try nmea([
      "$GPRMC,081836,A,3540.0000,N,13946.0000,E,0,0,010426,,",
      "$GPGGA,081836,3540.0000,N,13946.0000,E,1,08,0.9,12.5,M,,M,,",
      "$GPRMC,081836,A,3540.0100,N,13946.0000,E,0,0,010426,,",
    ])
    let points = trace.tracks[0].points
    #expect(points.count == 2)
    #expect(points[0].elevation == 12.5)
    #expect(abs(points[1].coordinate.latitude - (35 + 40.01 / 60)) < 1e-12)
    #expect(
      trace.skipped.map(\.description).last
        == "line 3: kept a fix at another position than the one before, at the same time of day "
        + "(08:18:36): two points with one time")
  }

  @Test(arguments: [
    "$GPRMC,-10000,A,3540.0000,N,13946.0000,E,0,0,010426,,",
    "$GPRMC,08+836,A,3540.0000,N,13946.0000,E,0,0,010426,,",
    "$GPRMC,081836,A,-035.0000,N,13946.0000,E,0,0,010426,,",
    "$GPRMC,081836,A,3540.0000,N,+1394.6000,E,0,0,010426,,",
    "$GPGGA,081836,-035.0000,N,13946.0000,E,1,08,0.9,12.5,M,,M,,",
  ])
  func nmeaTimesAndAnglesAreDigitsNotSignedNumbers(sentence: String) throws {
    let good = "$GPRMC,081837,A,3540.0000,N,13946.0000,E,0,0,010426,,"
    let trace = try nmea([sentence, good])
    #expect(trace.pointCount == 1)
    #expect(trace.skipped.contains { $0.line == 1 && $0.message.hasPrefix("skipped") })
  }

  @Test func aSUMOVehicleOutsideAnyTimestepIsReportedNotLost() throws {
    let text = """
      <fcd-export>
      <vehicle id="a" x="139.1" y="35.1"/>
      <timestep time="0"><vehicle id="a" x="139.2" y="35.2"/></timestep>
      </fcd-export>
      """
    let trace = try Trace(data: Data(text.utf8), file: "f.xml", format: .sumo)
    #expect(trace.pointCount == 1)
    #expect(
      trace.skipped.map(\.description) == ["line 2: skipped a <vehicle> outside any <timestep>"])
  }

  @Test func aGeoJSONTimeThatIsNotATimeIsReportedNotLost() throws {
    let text =
      #"{"type": "Feature", "properties": {"time": "yesterday"}, "#
      + #""geometry": {"type": "Point", "coordinates": [139.7, 35.6]}}"#
    let trace = try Trace(data: Data(text.utf8), file: "p.geojson")
    #expect(trace.pointCount == 1 && trace.tracks[0].points[0].time == nil)
    #expect(
      trace.skipped.map(\.message) == [
        "(root): kept a point without its time: 'yesterday' is not an ISO 8601 time or a number"
      ],
      "\(trace.skipped)")
  }

  @Test func sumoVehiclesBecomeTracksInOrderOfAppearance() throws {
    let trace = try readFixture("fcd.xml")
    #expect(trace.format == .sumo)
    #expect(trace.tracks.map(\.name) == ["veh0", "bus_7"])
    #expect(trace.tracks[0].points.map(\.time) == [0, 1, 2])
    #expect(trace.tracks[0].points.map(\.speed) == [0, 2.6, 4.8])
    #expect(trace.tracks[1].points.map(\.course) == [270, 270])
    #expect(trace.tracks[1].points[0].coordinate.latitude == 52.518)
    #expect(trace.tracks[1].points[0].coordinate.longitude == 13.39)
  }

  @Test func sumoInCartesianMetresIsRefusedWithAdvice() throws {
    let error = try #require(throws: TraceError.self) { try readFixture("fcd-cartesian.xml") }
    #expect(error.line == 2)
    #expect(error.reason.contains("--fcd-output.geo"))
  }

  @Test func sumoWithAnotherRootElementIsRefusedWhereTheRootStarts() throws {
    let text = "<?xml version=\"1.0\"?>\n  <timestep time=\"0\"/>\n"
    let error = try #require(throws: TraceError.self) {
      try Trace(data: Data(text.utf8), file: "run.xml", format: .sumo)
    }
    #expect(error.code == .malformed)
    #expect(
      error.message == "run.xml:2:3: expected <fcd-export> as the root element, found <timestep>")
  }

  @Test(arguments: [
    ("bom-gpx11.gpx", TraceFormat.gpx), ("routes-only.gpx", .gpx), ("track.geojson", .geojson),
    ("semicolon.csv", .csv), ("tab-milliseconds.csv", .csv), ("log.nmea", .nmea),
    ("fcd.xml", .sumo),
  ])
  func formatIsDetectedFromContent(name: String, format: TraceFormat) throws {
    #expect(try readFixture(name).format == format)
  }

  @Test func explicitFormatOverridesDetection() throws {
    let error = try #require(throws: TraceError.self) {
      try readFixture("track.geojson", format: .csv)
    }
    // Read as CSV, the GeoJSON's first line has text after a closing quote.
    #expect(error.code == .malformed)
    #expect(error.line == 1)
    #expect(error.reason.hasPrefix("expected ',' or the end of the line after the closing quote"))
  }

  @Test(arguments: [
    (
      "{\"type\": \"LineString\",\n \"coordinates\": [[139.71, 35.61],],\n}",
      "2:34: expected a value after ',' (trailing commas are not allowed), found ']'"
    ),
    (
      "{\"type\": \"LineString\", \"coordinates\": [[139.71, 35.61]],\n \"type\": \"Point\"}",
      #"2:2: duplicate key "type" in an object (first at line 1, column 2)"#
    ),
    (
      "{\"type\": \"LineString\",\n \"coordinates\": [[139.71, 035.61]]}",
      "2:28: expected '.', 'e' or the end of the number after a leading 0, found '3' "
        + "(leading zeros are not allowed)"
    ),
  ])
  func malformedGeoJSONNamesTheFileLineAndColumn(text: String, expected: String) throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("geosim-traces-\(UUID().uuidString).geojson").path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let error = try #require(throws: TraceError.self) { try Trace.read(contentsOf: path) }
    #expect(error.code == .malformed)
    #expect(error.message == "\(path):\(expected)")
  }

  @Test func geoJSONIssuesNameTheirLine() throws {
    let trace = try readFixture("track.geojson")
    #expect(
      trace.skipped.map(\.description).allSatisfy { $0.hasPrefix("line ") },
      "\(trace.skipped)")
    let text = """
      {"type": "LineString", "coordinates": [
        [139.71, 35.61],
        [139.72, "north"]]}
      """
    let lines = try Trace(data: Data(text.utf8), file: "t.geojson").skipped
    #expect(
      lines.map(\.description) == [
        "line 3: coordinates[1]: skipped a position: expected [longitude, latitude]"
      ])
  }

  @Test func csvReadsQuotedLineBreaksAndDoubledQuotes() throws {
    let text =
      "track,lat,lon,time\r\n\"bus \"\"7\"\"\nnight\",1.0,2.0,100\r\n\"bus \"\"7\"\"\nnight\",1.001,2.001,110\r\n"
      + "tram,north,4.0,100\r\n"
    let trace = try Trace(data: Data(text.utf8), file: "t.csv")
    #expect(trace.format == .csv)
    #expect(trace.tracks.map(\.name) == ["bus \"7\"\nnight"])
    #expect(trace.tracks[0].points.map(\.time) == [100, 110])
    // The skipped row's line counts the line breaks inside the quoted names before it.
    #expect(
      trace.skipped.map(\.description) == [
        "line 6: skipped a row: expected a latitude and longitude, found 'north', '4.0'"
      ])
  }

  @Test func csvWithAnUnterminatedQuoteNamesTheFileAndLine() throws {
    let text = "track,lat,lon\nbus,1.0,2.0\n\"bus,1.001,2.001\ntram,3.0,4.0\n"
    let error = try #require(throws: TraceError.self) {
      try Trace(data: Data(text.utf8), file: "t.csv")
    }
    #expect(error.code == .malformed)
    #expect(error.message == "t.csv:3:1: expected '\"' to close the quoted field that starts here")
  }

  @Test func unknownContentAsksForAFormat() throws {
    let error = try #require(throws: TraceError.self) {
      try Trace(data: Data("hello\n".utf8), file: "f")
    }
    #expect(error.code == .unknownFormat)
    #expect(error.message.hasPrefix("f:1: expected GPX, GeoJSON"))
    // In the library's own terms: the tool adds its option when it prints the error.
    #expect(error.message.hasSuffix("; pass the format explicitly"))
    #expect(!error.message.contains("--"))
  }
}
