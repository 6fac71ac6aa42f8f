import Foundation
import Geo
import JSON
import Testing

@testable import Traces

@Suite struct WritingTests {
  /// A trace with every field, some missing, an awkward name and two tracks.
  static func sample() throws -> Trace {
    Trace(
      name: "A & <B>", format: .gpx,
      tracks: [
        TraceTrack(
          name: "first, \"quoted\"",
          points: [
            TracePoint(
              time: 1_709_280_000.25,
              coordinate: try Coordinate(latitude: 35.6812, longitude: 139.7671),
              elevation: 40.5, speed: 4.5, course: 90, horizontalAccuracy: 5),
            TracePoint(
              time: nil, coordinate: try Coordinate(latitude: 35.6813, longitude: 139.768)),
            TracePoint(
              time: 1_709_280_010,
              coordinate: try Coordinate(latitude: -0.000001, longitude: -179.5),
              elevation: -3, speed: 0, course: 359.5, horizontalAccuracy: 65),
          ]),
        TraceTrack(
          name: nil,
          points: [TracePoint(time: 0, coordinate: try Coordinate(latitude: 1, longitude: 2))]),
      ])
  }

  @Test(arguments: [TraceFormat.gpx, .csv])
  func gpxAndCSVRoundTripEveryField(format: TraceFormat) throws {
    let trace = try Self.sample()
    let text = try trace.text(in: format)
    let back = try Trace(data: Data(text.utf8), format: format)
    #expect(back.skipped.isEmpty)
    #expect(back.tracks.map(\.points) == trace.tracks.map(\.points))
    #expect(back.tracks[0].name == trace.tracks[0].name)
    #expect(try back.text(in: format) == text)
  }

  @Test func aCSVTrackNameWithALineBreakReadsBackWhole() throws {
    var trace = try Self.sample()
    trace.tracks[0].name = "night \"owl\"\r\nbus"
    let back = try Trace(data: Data(trace.csvText.utf8), format: .csv)
    #expect(back.tracks.map(\.name) == ["night \"owl\"\r\nbus", "track 2"])
    #expect(back.tracks.map(\.points) == trace.tracks.map(\.points))
  }

  @Test func geoJSONRoundTripsEveryFieldIncludingPartialElevations() throws {
    let trace = try Self.sample()
    let text = trace.geoJSONText
    // The first track steps from 139.8° E to 179.5° W across the antimeridian: two lines, the
    // boundary points between them with no elevation of their own.
    #expect(text.contains(#""elevations":[[40.5,null,null],[null,-3]]"#))
    let back = try Trace(data: Data(text.utf8), format: .geojson)
    #expect(back.tracks.map(\.points) == trace.tracks.map(\.points))
    #expect(back.tracks[0].name == trace.tracks[0].name)
  }

  @Test func writersAreDeterministic() throws {
    let trace = try Self.sample()
    for format in [TraceFormat.gpx, .geojson, .csv] {
      #expect(try trace.text(in: format) == trace.text(in: format))
    }
    #expect(try Self.sample().csvText.hasSuffix("track 2,1970-01-01T00:00:00Z,1,2,,,,\n"))
  }

  @Test func gpxEscapesNamesAndUsesStandardExtensions() throws {
    let text = try Self.sample().gpxText
    #expect(text.contains("<metadata><name>A &amp; &lt;B&gt;</name></metadata>"))
    #expect(
      text.contains(
        #"<trkpt lat="35.6812" lon="139.7671"><ele>40.5</ele><time>2024-03-01T08:00:00.25Z</time><extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>4.5</gpxtpx:speed><gpxtpx:course>90</gpxtpx:course></gpxtpx:TrackPointExtension><geosim:accuracy>5</geosim:accuracy></extensions></trkpt>"#
      ))
  }

  @Test func nmeaAndSUMOAreNotWritten() throws {
    #expect(throws: TraceError.self) { try Self.sample().text(in: .nmea) }
  }

  @Test(arguments: ["bom-gpx11.gpx", "gpx10.gpx", "fcd.xml", "log.nmea", "semicolon.csv"])
  func everyFixtureSurvivesConversionToGPXAndBack(name: String) throws {
    let trace = try readFixture(name)
    let back = try Trace(data: Data(trace.gpxText.utf8))
    #expect(back.tracks.map(\.points) == trace.tracks.map(\.points))
  }
}

/// GPX numbers are `xs:decimal`: never an exponent, and still exact.
@Suite struct DecimalWritingTests {
  @Test(arguments: [
    (-5e-05, "-0.00005"), (1.5e-7, "0.00000015"), (1e21, "1000000000000000000000"),
    (123.5, "123.5"), (0, "0"), (35.681236, "35.681236"), (-1.25e-10, "-0.000000000125"),
    (6.02e23, "602000000000000000000000"),
  ])
  func numbersAreWrittenWithoutAnExponent(value: Double, text: String) {
    #expect(Trace.decimal(value) == text)
    #expect(Double(text) == value)
  }

  @Test func aTraceNearTheEquatorAndThePrimeMeridianWritesDecimalsAndReadsBackExactly() throws {
    let points = [(0.00005, -0.00005), (-1e-7, 2.5e-6), (0.1, 0.2)].map { lat, lon in
      TracePoint(time: 946_684_800, coordinate: try! Coordinate(latitude: lat, longitude: lon))
    }
    let trace = Trace(format: .gpx, tracks: [TraceTrack(points: points)])
    let gpx = try trace.text(in: .gpx)
    #expect(!gpx.contains("e-"))
    let back = try Trace(data: Data(gpx.utf8), file: "t.gpx")
    #expect(back.tracks[0].points.map(\.coordinate) == points.map(\.coordinate))
  }

  @Test func xcodesWaypointDialectHoldsOneTrackAndReadsBackAsIt() throws {
    let points = [(35.0, 139.0, 946_684_800.0), (35.001, 139.001, 946_684_805.0)].map {
      TracePoint(time: $0.2, coordinate: try! Coordinate(latitude: $0.0, longitude: $0.1))
    }
    let trace = Trace(format: .gpx, tracks: [TraceTrack(points: points)])
    let xcode = try trace.xcodeGPXText()
    #expect(xcode.contains(#"<wpt lat="35" lon="139"><time>2000-01-01T00:00:00Z</time></wpt>"#))
    let back = try Trace(data: Data(xcode.utf8), file: "route.gpx")
    #expect(back.tracks.count == 1)
    #expect(back.tracks[0].points.map(\.time) == points.map(\.time))
    #expect(back.tracks[0].points.map(\.coordinate) == points.map(\.coordinate))
    let two = Trace(format: .gpx, tracks: [TraceTrack(points: points), TraceTrack(points: points)])
    #expect(throws: TraceError.self) { try two.xcodeGPXText() }
  }
}

/// GeoJSON lines: segments are kept, and no line crosses the antimeridian (RFC 7946 §3.1.9).
@Suite struct GeoJSONLineTests {
  static func point(_ lat: Double, _ lon: Double, _ time: Double? = nil) -> TracePoint {
    TracePoint(time: time, coordinate: try! Coordinate(latitude: lat, longitude: lon))
  }

  /// The written file's one feature: its geometry's lines and its properties.
  static func feature(_ text: String) throws -> ([[[Double]]], [String: JSONValue]) {
    guard case .object(let root) = try JSONValue(parsing: Data(text.utf8)),
      case .array(let features)? = root["features"], case .object(let feature) = features[0],
      case .object(let geometry)? = feature["geometry"],
      case .object(let properties)? = feature["properties"]
    else { throw TraceError(.malformed, file: nil, "not a feature collection") }
    func numbers(_ v: JSONValue) -> [Double] {
      if case .array(let a) = v {
        a.map { if case .number(let n) = $0 { n } else { .nan } }
      } else {
        []
      }
    }
    let lines: [[[Double]]]
    switch (geometry["type"], geometry["coordinates"]) {
    case (.string("LineString")?, .array(let positions)?): lines = [positions.map(numbers)]
    case (.string("MultiLineString")?, .array(let list)?):
      lines = list.map { if case .array(let p) = $0 { p.map(numbers) } else { [] } }
    default: lines = []
    }
    return (lines, properties)
  }

  /// Whether some step of a line changes longitude by more than 180°.
  static func crossesTheAntimeridian(_ line: [[Double]]) -> Bool {
    zip(line, line.dropFirst()).contains { abs($1[0] - $0[0]) > 180 }
  }

  @Test(arguments: [(179.0, 179.5, -179.5, -179.0), (-179.0, -179.5, 179.5, 179.0)])
  func aTrackAcrossTheAntimeridianIsCutThereAndReadsBackWhole(
    a: Double, b: Double, c: Double, d: Double
  ) throws {
    let points = [
      Self.point(10, a, 1000), Self.point(10.5, b, 1010), Self.point(11.5, c, 1020),
      Self.point(12, d, 1030),
    ]
    let trace = Trace(format: .gpx, tracks: [TraceTrack(name: "ferry", points: points)])
    let text = trace.geoJSONText
    let (lines, properties) = try Self.feature(text)
    #expect(lines.count == 2)
    #expect(!lines.contains(where: Self.crossesTheAntimeridian))
    // The boundary points: on the meridian, half-way between 10.5° and 11.5° and in time.
    let east = a > 0
    #expect(lines[0].last == [east ? 180 : -180, 11])
    #expect(lines[1].first == [east ? -180 : 180, 11])
    #expect(properties["antimeridianCuts"] == .array([.number(1)]))
    #expect(
      properties["addedPositions"]
        == .array([.array([.number(0), .number(2)]), .array([.number(1), .number(0)])]))
    #expect(text.contains(#""1970-01-01T00:16:55Z"]"#))
    let back = try Trace(data: Data(text.utf8), format: .geojson)
    #expect(back.skipped.isEmpty)
    #expect(back.tracks == trace.tracks)
  }

  @Test func aStepOntoTheMeridianFromTheEastIsCutAtItsEnd() throws {
    let points = [Self.point(0, 179.9), Self.point(0, -180), Self.point(0, -179.9)]
    let trace = Trace(format: .gpx, tracks: [TraceTrack(points: points)])
    let (lines, _) = try Self.feature(trace.geoJSONText)
    #expect(lines == [[[179.9, 0], [180, 0]], [[-180, 0], [-180, 0], [-179.9, 0]]])
    let back = try Trace(data: Data(trace.geoJSONText.utf8), format: .geojson)
    #expect(back.tracks == trace.tracks)
  }

  @Test func segmentsAreWrittenAsLinesAndReadBackAsSegments() throws {
    let points = (0..<6).map { Self.point(35, 139 + Double($0) / 100, 1000 + Double($0)) }
    // Three segments, the middle one a single point (written twice: a line needs two).
    let track = TraceTrack(name: "walk", points: points, segmentStarts: [2, 3])
    let trace = Trace(format: .gpx, tracks: [track])
    let (lines, properties) = try Self.feature(trace.geoJSONText)
    #expect(lines.map(\.count) == [2, 2, 3])
    #expect(lines[1][0] == lines[1][1])
    #expect(properties["antimeridianCuts"] == nil)
    #expect(properties["addedPositions"] == .array([.array([.number(1), .number(1)])]))
    let back = try Trace(data: Data(trace.geoJSONText.utf8), format: .geojson)
    #expect(back.tracks == [track])
    // And through GPX: the same segments.
    let gpx = try Trace(data: Data(back.gpxText.utf8), format: .gpx)
    #expect(gpx.tracks[0].segmentStarts == [2, 3])
  }

  @Test func aSegmentThatCrossesTheAntimeridianKeepsItsOwnStart() throws {
    let points = [
      Self.point(0, 170), Self.point(0, 175), Self.point(0, 179), Self.point(0, -179),
    ]
    let track = TraceTrack(points: points, segmentStarts: [2])
    let (lines, properties) = try Self.feature(Trace(format: .gpx, tracks: [track]).geoJSONText)
    #expect(lines.count == 3)
    #expect(properties["antimeridianCuts"] == .array([.number(2)]))
    let back = try Trace(
      data: Data(Trace(format: .gpx, tracks: [track]).geoJSONText.utf8), format: .geojson)
    #expect(back.tracks == [track])
  }

  @Test func aMultiLineStringFromAnotherToolIsOneTrackWithASegmentPerLine() throws {
    // togeojson's shape for a GPX track of two segments: one array of times per line.
    let text = #"""
      {"type":"Feature","properties":{"name":"run","coordTimes":[
        ["2024-03-01T08:00:00Z","2024-03-01T08:00:05Z"],["2024-03-01T08:01:00Z","2024-03-01T08:01:05Z"]]},
       "geometry":{"type":"MultiLineString","coordinates":[[[139,35],[139.001,35]],[[139.01,35],[139.011,35]]]}}
      """#
    let trace = try Trace(data: Data(text.utf8), file: "run.geojson")
    #expect(trace.tracks.count == 1)
    #expect(trace.tracks[0].name == "run")
    #expect(trace.tracks[0].points.count == 4)
    #expect(trace.tracks[0].segmentStarts == [2])
    #expect(
      trace.tracks[0].points.map(\.time) == [
        1_709_280_000, 1_709_280_005, 1_709_280_060, 1_709_280_065,
      ])
  }

  @Test func oneArrayOfTimesForAllOfAMultiLineStringsPositionsIsReadToo() throws {
    let text = #"""
      {"type":"Feature","properties":{"times":[0,5,60]},
       "geometry":{"type":"MultiLineString","coordinates":[[[139,35],[139.001,35]],[[139.01,35],[139.01,35.001]]]}}
      """#
    let trace = try Trace(data: Data(text.utf8), file: "run.geojson")
    #expect(
      trace.skipped.map(\.message) == [
        "(root): ignored 'times': expected one array per line (2 lines of 2, 2 positions) or one "
          + "array of 4 times"
      ])
    #expect(trace.tracks[0].points.map(\.time) == [nil, nil, nil, nil])
    let fits = text.replacingOccurrences(of: "[0,5,60]", with: "[0,5,60,65]")
    let again = try Trace(data: Data(fits.utf8), file: "run.geojson")
    #expect(again.skipped.isEmpty)
    #expect(again.tracks[0].points.map(\.time) == [0, 5, 60, 65])
  }

  @Test(arguments: [
    (
      #""antimeridianCuts":[0]"#,
      "ignored 'antimeridianCuts': expected indices of lines after the first"
    ),
    (
      #""antimeridianCuts":"1""#,
      "ignored 'antimeridianCuts': expected indices of lines after the first"
    ),
    (
      #""addedPositions":[[0,9]]"#,
      "ignored 'addedPositions': expected [line, position] pairs of its positions"
    ),
    (
      #""addedPositions":[[0.5,1]]"#,
      "ignored 'addedPositions': expected [line, position] pairs of its positions"
    ),
  ])
  func aLayoutPropertyThatDoesNotFitIsReportedAndIgnored(property: String, message: String) throws {
    let text = """
      {"type":"Feature","properties":{\(property)},
       "geometry":{"type":"MultiLineString","coordinates":[[[139,35],[139.001,35]],[[139.01,35],[139.011,35]]]}}
      """
    let trace = try Trace(data: Data(text.utf8), file: "x.geojson")
    #expect(trace.skipped.map(\.message) == ["(root): " + message])
    #expect(trace.tracks[0].points.count == 4)
    #expect(trace.tracks[0].segmentStarts == [2])
  }
}
