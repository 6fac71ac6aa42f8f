import Foundation
import Geo
import Testing

@testable import Traces

@Suite struct SynthesisTests {
  static let tokyo = try! Coordinate(latitude: 35.6812, longitude: 139.7671)
  static let east = try! Geodesic.wgs84.direct(from: tokyo, azimuth: 90, distance: 1_000).coordinate

  @Test func carAcceleratesCruisesAndStopsAtTheEnd() throws {
    let trace = try TraceSynthesis.trace(
      through: [Waypoint(coordinate: Self.tokyo), Waypoint(coordinate: Self.east)], profile: .car,
      interval: 1, start: 100)
    let points = trace.tracks[0].points
    // 1 km at 13.9 m/s with 2.6 m/s² up and 4.5 m/s² down.
    let v = 13.9
    let expected = v / 2.6 + (1_000 - v * v / 5.2 - v * v / 9) / v + v / 4.5
    #expect(abs(points.last!.time! - 100 - expected) < 1e-9)
    #expect(points.first!.speed == 0)
    #expect(points.last!.speed == 0)
    #expect(points.last!.coordinate == Self.east)
    #expect(points.map(\.speed!).max()! == v)
    #expect(abs(points[1].speed! - 2.6) < 1e-12)
    for (a, b) in zip(points, points.dropFirst()) {
      let dt = b.time! - a.time!
      #expect(dt > 0 && dt <= 1 + 1e-9)
      #expect(b.speed! - a.speed! <= 2.6 * dt + 1e-9)
      #expect(a.speed! - b.speed! <= 4.5 * dt + 1e-9)
      let step = Geodesic.wgs84.inverse(from: a.coordinate, to: b.coordinate).distance
      // Speed is piecewise linear in time, so the step lies between the slower and the faster
      // endpoint's speed times the interval.
      #expect(step <= max(a.speed!, b.speed!) * dt + 1e-6)
      #expect(step >= min(a.speed!, b.speed!) * dt - 1e-6)
    }
  }

  @Test func shortStretchNeverReachesCruiseSpeed() throws {
    let near = try Geodesic.wgs84.direct(from: Self.tokyo, azimuth: 0, distance: 20).coordinate
    let points = try TraceSynthesis.trace(
      through: [Waypoint(coordinate: Self.tokyo), Waypoint(coordinate: near)], profile: .car,
      interval: 0.5
    ).tracks[0].points
    let peak = (2 * 20 * 2.6 * 4.5 / (2.6 + 4.5)).squareRoot()
    #expect(points.map(\.speed!).max()! <= peak + 1e-9)
  }

  @Test func dwellHoldsPositionAndTeleportJumpsInOneInterval() throws {
    let far = try Coordinate(latitude: 34.7025, longitude: 135.4959)
    let waypoints = try Waypoint.list(
      parsing:
        "35.6812,139.7671;\(Self.east.latitude),\(Self.east.longitude),30;34.7025,135.4959,0,teleport"
    )
    #expect(waypoints[1].dwell == 30)
    #expect(waypoints[2].teleport)
    let points = try TraceSynthesis.trace(through: waypoints, profile: .walk, interval: 2)
      .tracks[0].points
    let arrival = points.firstIndex { $0.coordinate == Self.east }!
    #expect(points[arrival + 1].coordinate == Self.east)
    #expect(points[arrival + 1].time! - points[arrival].time! == 30)
    #expect(points[arrival + 2].coordinate == far)
    #expect(points[arrival + 2].time! - points[arrival + 1].time! == 2)
    #expect(points.count == arrival + 3)
  }

  @Test func dwellAtTheFirstWaypointStandsThereBeforeStartingFromRest() throws {
    let waypoints = try Waypoint.list(
      parsing: "52.5219,13.4132,120;52.5300,13.4200")
    #expect(waypoints[0].dwell == 120)
    let points = try TraceSynthesis.trace(through: waypoints, profile: .walk, interval: 1, start: 0)
      .tracks[0].points
    let start = waypoints[0].coordinate
    // Standing for the dwell: at the first waypoint, at rest, from t = 0 to t = 120.
    #expect(points[0].time == 0)
    #expect(points[1].time == 120)
    for point in points.prefix(2) {
      #expect(point.coordinate == start)
      #expect(point.speed == 0)
    }
    #expect(points.filter { $0.time! <= 120 }.allSatisfy { $0.coordinate == start })
    // Then it sets off from rest, one interval later at the walk's acceleration.
    #expect(points[2].time == 121)
    #expect(abs(points[2].speed! - 1.4) < 1e-12)
    #expect(points.last!.coordinate == waypoints[1].coordinate)
    let walkOnly = try TraceSynthesis.trace(
      through: [Waypoint(coordinate: start), waypoints[1]], profile: .walk, interval: 1)
    #expect(points.last!.time! - walkOnly.tracks[0].points.last!.time! == 120)
  }

  @Test func passingThroughAWaypointWithoutDwellDoesNotStop() throws {
    let north = try Geodesic.wgs84.direct(from: Self.east, azimuth: 0, distance: 1_000).coordinate
    let points = try TraceSynthesis.trace(
      through: [Self.tokyo, Self.east, north].map { Waypoint(coordinate: $0) }, profile: .bike
    ).tracks[0].points
    #expect(points.dropFirst().dropLast().allSatisfy { $0.speed! > 0 })
    let turn = try #require(points.first { ($0.course ?? 360) < 45 })
    #expect(turn.speed == 5)
  }

  @Test(arguments: [
    ("walk", 1.4), ("run", 3), ("bike", 5), ("car", 13.9), ("train", 20), ("7.5", 7.5), ("2m/s", 2),
  ])
  func speedProfilesParseByNameOrMetresPerSecond(text: String, speed: Double) throws {
    #expect(try SpeedProfile(parsing: text).speed == speed)
  }

  @Test func badArgumentsNameWhatWasExpected() throws {
    #expect(throws: TraceError.self) { try SpeedProfile(parsing: "fast") }
    let error = try #require(throws: TraceError.self) { try Waypoint.list(parsing: "1,2;3") }
    #expect(
      error.message
        == "<input>: waypoint 2 '3': not a latitude and longitude; expected lat,lon[,dwell seconds][,teleport]"
    )
    #expect(throws: TraceError.self) {
      try TraceSynthesis.trace(through: [Waypoint(coordinate: Self.tokyo)], profile: .walk)
    }
  }

  @Test func untimedPointsGetTimesFromAConstantSpeed() throws {
    let trace = try readFixture("routes-only.gpx").timed(speed: 10, start: 50)
    let points = trace.tracks[0].points
    #expect(points[0].time == 50)
    let d = Geodesic.wgs84.inverse(from: points[0].coordinate, to: points[1].coordinate).distance
    #expect(points[1].time == 50 + d / 10)
    let timed = try readFixture("gpx10.gpx")
    #expect(try timed.timed(speed: 1) == timed)
  }
}
