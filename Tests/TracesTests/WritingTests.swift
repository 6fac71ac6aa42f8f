import Foundation
import Geo
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
    #expect(text.contains(#""elevations":[40.5,null,-3]"#))
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
