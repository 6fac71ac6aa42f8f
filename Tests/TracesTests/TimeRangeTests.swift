import Foundation
import Geo
import Testing

@testable import Traces

/// Times no trace can hold (milliseconds beyond `Int64`, years past 9999) once trapped when a
/// trace was summarized or written; they are now kept out of every trace with a remark.
@Suite struct TimeRangeTests {
  static let tokyo = try! Coordinate(latitude: 35.68, longitude: 139.76)
  static let shinjuku = try! Coordinate(latitude: 35.69, longitude: 139.70)

  static func trace(_ text: String, _ format: TraceFormat) throws -> Trace {
    try Trace(data: Data(text.utf8), file: "in.\(format.rawValue)", format: format)
  }

  @Test func csvTimeBeyondInt64MillisecondsKeepsTheRowWithoutItsTimeInsteadOfTrapping() throws {
    let trace = try Self.trace("lat,lon,time\n35.1,139.1,1e300\n", .csv)
    #expect(trace.tracks[0].points.map(\.time) == [nil])
    #expect(
      trace.skipped.map(\.description) == [
        "line 2: kept a row without its time: '1e300' is outside the years 0000 to 9999 that a "
          + "trace time may lie in"
      ])
    #expect(try trace.text(in: .gpx).contains("<trkpt"))
  }

  @Test func sumoTimestepBeyondTheYear9999SkipsItsVehiclesInsteadOfTrapping() throws {
    let text = """
      <fcd-export>
      <timestep time="1e19"><vehicle id="a" x="139.1" y="35.1"/></timestep>
      <timestep time="1"><vehicle id="a" x="139.2" y="35.2"/></timestep>
      </fcd-export>
      """
    let trace = try Self.trace(text, .sumo)
    #expect(trace.tracks[0].points.map(\.time) == [1])
    #expect(
      trace.skipped.map(\.description) == [
        "line 2: timestep time '1e19' is outside the years 0000 to 9999 that a trace time may lie "
          + "in: its vehicles are skipped"
      ])
  }

  @Test func geoJSONTimeBeyondTheYear9999KeepsThePointWithoutItsTimeInsteadOfTrapping() throws {
    let text = """
      {"type":"Feature","geometry":{"type":"Point","coordinates":[139.1,35.1]},
       "properties":{"time":1e19}}
      """
    let trace = try Self.trace(text, .geojson)
    #expect(trace.tracks[0].points.map(\.time) == [nil])
    #expect(
      trace.skipped.map(\.description) == [
        "line 1: (root): kept a point without its time: '1e+19' is outside the years 0000 to "
          + "9999 that a trace time may lie in"
      ])
  }

  @Test func gpxTimeBeforeTheYear0000KeepsThePointWithoutItsTime() throws {
    let text = """
      <gpx version="1.1"><trk><trkseg>
      <trkpt lat="35" lon="139"><time>0000-01-01T00:30:00+01:00</time></trkpt>
      </trkseg></trk></gpx>
      """
    let trace = try Self.trace(text, .gpx)
    #expect(trace.tracks[0].points.map(\.time) == [nil])
    #expect(
      trace.skipped.map(\.description) == [
        "line 2: kept a point without its time: '0000-01-01T00:30:00+01:00' is outside the years "
          + "0000 to 9999 that a trace time may lie in"
      ])
  }

  @Test func timingAtATinySpeedIsRefusedInsteadOfTrappingWhenWritten() throws {
    let trace = Trace(
      format: .csv,
      tracks: [
        TraceTrack(points: [
          TracePoint(coordinate: Self.tokyo), TracePoint(coordinate: Self.shinjuku),
        ])
      ])
    let error = try #require(throws: TraceError.self) { try trace.timed(speed: 1e-300) }
    #expect(error.code == .invalidArgument)
    #expect(error.reason.contains("would time point 2 of track 1"))
  }

  @Test func writingATimeOutsideTheRangeIsRefusedAndTheTextWritersDoNotTrap() throws {
    let trace = Trace(
      format: .csv, tracks: [TraceTrack(points: [TracePoint(time: 1e19, coordinate: Self.tokyo)])])
    let error = try #require(throws: TraceError.self) { try trace.text(in: .csv) }
    #expect(error.reason.hasPrefix("point 1 of track 1 has the time 1e+19 s after 1970"))
    #expect(trace.gpxText.contains("<time>9999-12-31T23:59:59.999Z</time>"))
    #expect(ByteScan.isoText(-1e300) == "0000-01-01T00:00:00Z")
    #expect(ByteScan.isoText(.nan) == "1970-01-01T00:00:00Z")
  }

  @Test func synthesisAtATinySpeedIsRefusedInsteadOfTrapping() throws {
    let waypoints = [Waypoint(coordinate: Self.tokyo), Waypoint(coordinate: Self.shinjuku)]
    let profile = try SpeedProfile(speed: 1e-300, acceleration: 1e-300, deceleration: 1e-300)
    let error = try #require(throws: TraceError.self) {
      try TraceSynthesis.trace(through: waypoints, profile: profile)
    }
    #expect(error.reason.contains("outside the years 0000 to 9999"))
  }

  @Test func synthesisEveryMicrosecondIsRefusedInsteadOfGrowingWithoutBound() throws {
    let waypoints = [Waypoint(coordinate: Self.tokyo), Waypoint(coordinate: Self.shinjuku)]
    let error = try #require(throws: TraceError.self) {
      try TraceSynthesis.trace(through: waypoints, profile: .walk, interval: 1e-6)
    }
    #expect(error.reason == "interval 1e-06: expected a number of seconds of at least 0.01")
  }

  @Test func synthesisOfMoreThanTenMillionPointsSaysHowManyItWouldMake() throws {
    let waypoints = [
      Waypoint(coordinate: Self.tokyo),
      Waypoint(coordinate: try Coordinate(latitude: -35, longitude: -40)),
    ]
    let error = try #require(throws: TraceError.self) {
      try TraceSynthesis.trace(through: waypoints, profile: .walk, interval: 0.01)
    }
    #expect(error.reason.hasPrefix("sampling "))
    #expect(error.reason.contains("more than the 10000000 a trace may have"))
  }
}
