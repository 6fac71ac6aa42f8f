import Foundation
import Testing

@testable import Traces

@Suite struct GPXImportTests {
  @Test func gpx11WithByteOrderMarkAndNamespacedExtensionsReadsEveryField() throws {
    let trace = try readFixture("bom-gpx11.gpx")
    #expect(trace.format == .gpx)
    #expect(trace.name == "Morning & ride")
    #expect(trace.tracks.count == 1)
    let track = trace.tracks[0]
    #expect(track.name == "Loop")
    #expect(track.points.count == 4)
    let first = track.points[0]
    #expect(first.coordinate.latitude == 35.6812)
    #expect(first.coordinate.longitude == 139.7671)
    #expect(first.elevation == 40.5)
    #expect(first.time == epoch("2024-03-01T08:00:00Z"))
    #expect(first.speed == 4.5)
    #expect(first.course == 90)
    #expect(track.points[1].time == epoch("2024-03-01T08:00:05Z") + 0.5)
    #expect(track.points[1].speed == 5)
  }

  @Test func emptySegmentsAreIgnoredAndSegmentBoundariesAreKept() throws {
    let track = try readFixture("bom-gpx11.gpx").tracks[0]
    #expect(track.points.map(\.coordinate.longitude) == [139.7671, 139.7680, 139.7690, 139.7710])
    #expect(track.segmentStarts == [2])
  }

  @Test func segmentsSurviveAWriteAndReadBack() throws {
    let trace = try readFixture("bom-gpx11.gpx")
    let again = try Trace(data: Data(trace.gpxText.utf8), file: "again.gpx", format: .gpx)
    #expect(again.tracks[0].segmentStarts == [2])
    #expect(again.tracks[0].points.count == 4)
  }

  @Test func timeZoneOffsetsAreConvertedToUTC() throws {
    let track = try readFixture("bom-gpx11.gpx").tracks[0]
    #expect(track.points[2].time == epoch("2024-03-01T08:00:10Z"))
  }

  @Test func badPointsAreSkippedAndBadTimesKeptWithTheirLineReported() throws {
    let trace = try readFixture("bom-gpx11.gpx")
    #expect(trace.tracks[0].points[3].time == nil)
    #expect(
      trace.skipped.map(\.description) == [
        "line 21: skipped a point: expected numeric lat and lon attributes in range",
        "line 22: kept a point without its time: 'yesterday' is not ISO 8601",
      ])
  }

  @Test func gpx10ReadsSpeedAndCourseElements() throws {
    let trace = try readFixture("gpx10.gpx")
    #expect(trace.name == "Old logger")
    #expect(trace.tracks[0].name == "Walk")
    #expect(trace.tracks[0].points.map(\.speed) == [1.4, 1.5])
    #expect(trace.tracks[0].points.map(\.course) == [45.5, 46])
    #expect(trace.tracks[0].points[0].elevation == 10)
    #expect(trace.tracks[0].points[1].elevation == nil)
  }

  @Test func xcodeTimedWaypointsBecomeOneTrack() throws {
    let trace = try readFixture("xcode-waypoints.gpx")
    #expect(trace.tracks.count == 1)
    #expect(trace.tracks[0].name == "waypoints")
    #expect(trace.tracks[0].points.count == 3)
    #expect(
      trace.tracks[0].points.map(\.time) == [0, 3, 6].map { epoch("2014-09-24T14:55:37Z") + $0 })
  }

  @Test func prefixedRoutesOnlyFileReadsWithoutTimes() throws {
    let trace = try readFixture("routes-only.gpx")
    #expect(trace.tracks.count == 1)
    #expect(trace.tracks[0].name == "Planned")
    #expect(trace.tracks[0].points.count == 3)
    #expect(trace.tracks[0].points.allSatisfy { $0.time == nil })
    #expect(trace.name == "routes-only")
  }

  @Test func mismatchedTagIsReportedWithLineColumnAndExpectation() throws {
    let error = try #require(throws: TraceError.self) { try readFixture("malformed.gpx") }
    #expect(error.code == .malformed)
    #expect(error.line == 4)
    #expect(error.column == 28)
    #expect(
      error.message.hasSuffix(
        "malformed.gpx:4:28: expected </trkpt> to close the element opened on line 4, found </trkseg>"
      ))
  }

  @Test func aGPXFileWithoutPointsIsAnError() throws {
    let data = Data(#"<gpx version="1.1"><trk><trkseg/></trk></gpx>"#.utf8)
    let error = try #require(throws: TraceError.self) { try Trace(data: data, file: "e.gpx") }
    #expect(error.code == .noPoints)
  }

  private func gpx(_ body: String) throws -> Trace {
    try Trace(data: Data(#"<gpx version="1.1">\#(body)</gpx>"#.utf8), file: "t.gpx")
  }

  @Test func waypointsBesideATrackAreLeftOutAsPointsOfInterest() throws {
    let trace = try gpx(
      #"<wpt lat="35.0" lon="139.0"><name>cafe</name></wpt>"#
        + #"<trk><trkseg><trkpt lat="35.1" lon="139.1"/><trkpt lat="35.2" lon="139.2"/>"#
        + "</trkseg></trk>")
    #expect(trace.tracks.count == 1)
    #expect(trace.tracks[0].points.map(\.coordinate.latitude) == [35.1, 35.2])
    #expect(
      trace.skipped.map(\.message) == [
        "left out 1 waypoint(s): beside the file's tracks or routes they are points of "
          + "interest, not movement"
      ])
  }

  @Test func theUserCanReadWaypointsBesideATrackAsATrackOrNotAtAll() throws {
    let body =
      #"<wpt lat="35.0" lon="139.0"/><wpt lat="35.05" lon="139.05"/>"#
      + #"<trk><trkseg><trkpt lat="35.1" lon="139.1"/><trkpt lat="35.2" lon="139.2"/>"#
      + "</trkseg></trk>"
    let data = Data(#"<gpx version="1.1">\#(body)</gpx>"#.utf8)
    let asTrack = try Trace(data: data, file: "t.gpx", gpxWaypoints: .track)
    // Where the first waypoint is among the tracks: before the track here.
    #expect(asTrack.tracks.map(\.name) == ["waypoints", nil])
    #expect(asTrack.tracks[0].points.map(\.coordinate.latitude) == [35.0, 35.05])
    #expect(asTrack.skipped.isEmpty)
    let ignored = try Trace(data: data, file: "t.gpx", gpxWaypoints: .ignored)
    #expect(ignored.tracks.count == 1 && ignored.skipped.isEmpty)
    #expect(ignored.tracks[0].points.map(\.coordinate.latitude) == [35.1, 35.2])
  }

  @Test func ignoringTheWaypointsOfAWaypointOnlyFileLeavesNoPointsAndSaysWhy() throws {
    let data = Data(#"<gpx version="1.1"><wpt lat="35.0" lon="139.0"/></gpx>"#.utf8)
    #expect(try Trace(data: data, file: "x.gpx").tracks.map(\.name) == ["waypoints"])
    let error = try #require(throws: TraceError.self) {
      try Trace(data: data, file: "x.gpx", gpxWaypoints: .ignored)
    }
    #expect(error.code == .noPoints)
    #expect(error.message.contains("(waypoints are ignored), found only 1 <wpt>"))
  }

  @Test func aTrackPointOutsideAnyTrackIsReportedNotLost() throws {
    let trace = try gpx(
      "\n" + #"<trkpt lat="35.0" lon="139.0"/>"#
        + #"<trk><trkseg><trkpt lat="35.1" lon="139.1"/></trkseg></trk>"#)
    #expect(trace.pointCount == 1)
    #expect(trace.skipped.map(\.description) == ["line 2: skipped a <trkpt> outside any <trk>"])
  }

  @Test func anAttributeGivenTwiceIsMalformed() throws {
    let error = try #require(throws: TraceError.self) {
      try gpx(#"<trk><trkseg><trkpt lat="35.1" lon="139.1" lat="0"/></trkseg></trk>"#)
    }
    #expect(error.code == .malformed)
    #expect(error.message.hasSuffix("the attribute 'lat' appears twice in one tag"))
  }
}
