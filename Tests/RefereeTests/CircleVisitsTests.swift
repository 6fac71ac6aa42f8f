import Device
import Foundation
import Geo
import Referee
import SimKernel
import Testing

/// The fence centre of the constructed cases: Tokyo Station.
private let centre = try! Coordinate(latitude: 35.681236, longitude: 139.767125)
private let projection = LocalProjection(center: centre)

/// A trace along the straight line y = `offset` in the projection around `centre`, from
/// x = `from` to x = `to` metres at `speed` m/s, one point every `step` seconds, starting at
/// `start` seconds.
private func line(
  offset: Double = 0, from: Double, to: Double, speed: Double = 10, step: Double = 1,
  start: Double = 0
) throws -> [TrueTrack.Point] {
  let duration = abs(to - from) / speed
  let count = Int((duration / step).rounded(.down))
  var times = (0...count).map { Double($0) * step }
  if times.last! < duration { times.append(duration) }
  return try times.map { t in
    let x = from + (to - from) * t / duration
    return TrueTrack.Point(
      time: .seconds(start + t), coordinate: try projection.unproject(Position(x: x, y: offset)))
  }
}

private func visits(_ points: [TrueTrack.Point], radius: Double = 100) throws
  -> [CircleVisits.Visit]
{
  try CircleVisits(center: centre, radius: radius, track: TrueTrack(points), geos: GEOSContext())
    .visits
}

/// Metres between two coordinates.
private func distance(_ a: Coordinate, _ b: Coordinate) -> Double {
  Geodesic.wgs84.inverse(from: a, to: b).distance
}

/// The true visits to a circle: crossings interpolated between points, placed by GEOS.
@Suite struct CircleVisitsTests {
  @Test func enteringAtAKnownSecond() throws {
    // From 1 km west through the centre at 10 m/s: the 100 m circle is entered at t = 90 s
    // (a sample) and left at t = 110 s.
    let found = try visits(line(from: -1_000, to: 1_000))
    #expect(found.count == 1)
    let visit = try #require(found.first)
    let entry = try #require(visit.entry)
    let exit = try #require(visit.exit)
    #expect(abs(entry.time.seconds - 90) < 1e-6)
    #expect(abs(exit.time.seconds - 110) < 1e-6)
    #expect(abs(distance(entry.coordinate, centre) - 100) < 1e-3)
    #expect(abs(entry.position.x + 100) < 1e-3)
  }

  @Test func aCrossingBetweenSamplesIsInterpolatedAlongTheSegment() throws {
    // Samples every 7 s; the line passes 60 m from the centre, so it enters where
    // x = −√(100² − 60²) = −80 m: 920 m from the start, at t = 92 s, between 91 s and 98 s.
    let found = try visits(line(offset: 60, from: -1_000, to: 1_000, step: 7))
    let visit = try #require(found.first)
    let entry = try #require(visit.entry)
    let exit = try #require(visit.exit)
    #expect(abs(entry.time.seconds - 92) < 1e-3)
    #expect(abs(exit.time.seconds - 108) < 1e-3)
    #expect(abs(entry.position.x + 80) < 0.01)
    #expect(abs(entry.position.y - 60) < 0.01)
    #expect(entry.segment == 13)
    #expect(abs(entry.fraction - 1.0 / 7) < 1e-6)
  }

  @Test func geosAgreesWithTheCrossingsToTheCentimetre() throws {
    // The referee: a GEOS polygon of the circle (4,096 vertices, at most 0.3 mm inside the
    // true circle) intersected with the projected track.
    let context = GEOSContext()
    let samples = try line(offset: 37, from: -1_000, to: 1_000, step: 3)
    let visit = try #require(try visits(samples).first)
    let polygon = try context.buffer(
      .point(Position(x: 0, y: 0)), distance: 100, quadrantSegments: 1_024)
    let track = try LineString(samples.map { projection.project($0.coordinate) })
    guard case .lineString(let inside) = try context.intersection(.lineString(track), polygon)
    else {
      Issue.record("the track should cross the circle once")
      return
    }
    let entry = try #require(visit.entry)
    let exit = try #require(visit.exit)
    let first = inside.positions.first!
    let last = inside.positions.last!
    #expect(hypot(first.x - entry.position.x, first.y - entry.position.y) < 0.01)
    #expect(hypot(last.x - exit.position.x, last.y - exit.position.y) < 0.01)
  }

  @Test func aLongGeodesicSegmentIsCrossedWhereTheTrajectoryReallyIs() throws {
    // One 8 km segment at 20 m/s passing about 350 m from the centre of a 500 m circle: the
    // crossings lie on the circle, and the trajectory is at them at their instants.
    let a = try Geodesic.wgs84.direct(from: centre, azimuth: 250, distance: 4_000).coordinate
    let b = try Geodesic.wgs84.direct(from: centre, azimuth: 80, distance: 4_000).coordinate
    let seconds = Geodesic.wgs84.inverse(from: a, to: b).distance / 20
    let points = [
      TrueTrack.Point(time: .zero, coordinate: a),
      TrueTrack.Point(time: .seconds(seconds), coordinate: b),
    ]
    // The phone follows Device's trajectory model; the referee must place it the same way.
    let trajectory = try Trajectory(
      points.map { TrajectorySample(time: $0.time, coordinate: $0.coordinate) })
    let visit = try #require(try visits(points, radius: 500).first)
    for crossing in [visit.entry, visit.exit] {
      let crossing = try #require(crossing)
      #expect(abs(distance(crossing.coordinate, centre) - 500) < 0.01)
      let there = try #require(trajectory.state(at: crossing.time)).coordinate
      #expect(distance(there, crossing.coordinate) < 0.02)
    }
  }

  @Test func grazingTheBoundaryIsNotACrossing() throws {
    // The line y = 100 touches the circle at x = 0, a sample; a zero-length touch is not a visit.
    #expect(try visits(line(offset: 100, from: -1_000, to: 1_000)).isEmpty)
    // Nor is a tangent between samples.
    #expect(try visits(line(offset: 100, from: -1_000, to: 1_000, step: 7)).isEmpty)
    // A centimetre deeper is a (short) visit.
    let short = try visits(line(offset: 99.99, from: -1_000, to: 1_000, step: 7))
    #expect(short.count == 1)
  }

  @Test func startingInsideHasNoEntry() throws {
    let found = try visits(line(from: 0, to: 1_000))
    let visit = try #require(found.first)
    #expect(visit.entry == nil)
    #expect(visit.start == .zero)
    #expect(abs(try #require(visit.exit).time.seconds - 10) < 1e-6)
  }

  @Test func leavingAndReEnteringAreTwoVisits() throws {
    let out = try line(from: -1_000, to: 1_000)
    let back = try line(from: 1_000, to: -1_000, start: 200)
    let found = try visits(out + back.dropFirst())
    #expect(found.count == 2)
    let times = found.flatMap { [$0.entry!.time.seconds, $0.exit!.time.seconds] }
    for (time, expected) in zip(times, [90.0, 110, 290, 310]) {
      #expect(abs(time - expected) < 1e-6)
    }
  }
}
