import Foundation
import SimKernel
import Testing

@testable import Geo

@Suite struct LocalProjectionTests {
  /// Centres worldwide, including both poles, points next to them, and the antimeridian.
  static let centres: [Coordinate] = [
    (35.681236, 139.767125), (0, 0), (0, -180), (0, 179.999_9), (-33.9, 18.4), (51.5, -0.12),
    (89.999, 45), (90, 0), (90, -135), (-90, 0), (-89.5, 170), (65.5, -179.95), (-12, 179.98),
  ].map { try! Coordinate(latitude: $0.0, longitude: $0.1) }

  /// Points within `radius` metres of `centre`, at random azimuths and distances.
  func nearbyPoints(
    of centre: Coordinate, radius: Double, count: Int, using rng: inout SplitMix64
  ) -> [Coordinate] {
    (0..<count).map { _ in
      let azimuth = Double.random(in: -180..<180, using: &rng)
      let distance = radius * Double.random(in: 0...1, using: &rng).squareRoot()
      return try! Geodesic.wgs84.direct(from: centre, azimuth: azimuth, distance: distance)
        .coordinate
    }
  }

  @Test(arguments: centres)
  func centreProjectsToTheOrigin(centre: Coordinate) throws {
    let projection = LocalProjection(center: centre)
    let origin = projection.project(centre)
    #expect(origin.x == 0 && origin.y == 0)
    #expect(try projection.unproject(Position(x: 0, y: 0)) == centre)
  }

  @Test(arguments: centres)
  func unprojectInvertsProjectWithinANanodegree(centre: Coordinate) throws {
    var rng = SplitMix64(seed: 0x5EED ^ UInt64(bitPattern: Int64(centre.longitude * 1e6)))
    let projection = LocalProjection(center: centre)
    for point in nearbyPoints(of: centre, radius: 100_000, count: 300, using: &rng) {
      let back = try projection.unproject(projection.project(point))
      #expect(abs(back.latitude - point.latitude) <= 1e-9, "\(centre) \(point) \(back)")
      // Longitude differences shrink with the cosine of the latitude (to nothing at a pole).
      #expect(
        angleDifference(back.longitude, point.longitude) * cos(point.latitude * .pi / 180)
          <= 1e-9, "\(centre) \(point) \(back)")
    }
  }

  @Test(arguments: centres)
  func projectInvertsUnprojectWithinAMicrometre(centre: Coordinate) throws {
    var rng = SplitMix64(seed: 0xC0FFEE ^ UInt64(bitPattern: Int64(centre.latitude * 1e6)))
    let projection = LocalProjection(center: centre)
    for _ in 0..<300 {
      let position = Position(
        x: Double.random(in: -70_000...70_000, using: &rng),
        y: Double.random(in: -70_000...70_000, using: &rng))
      let again = projection.project(try projection.unproject(position))
      #expect(hypot(again.x - position.x, again.y - position.y) <= 1e-6, "\(centre) \(position)")
    }
  }

  @Test(arguments: centres)
  func distanceAndAzimuthFromTheCentreAreExact(centre: Coordinate) {
    var rng = SplitMix64(seed: 0xD15 ^ UInt64(bitPattern: Int64(centre.latitude * 1e3)))
    let projection = LocalProjection(center: centre)
    for point in nearbyPoints(of: centre, radius: 100_000, count: 200, using: &rng) {
      let position = projection.project(point)
      let line = Geodesic.wgs84.inverse(from: centre, to: point)
      #expect(abs(hypot(position.x, position.y) - line.distance) <= 1e-9)
      if line.distance > 1 {
        let azimuth = atan2(position.x, position.y) * 180 / .pi
        #expect(angleDifference(azimuth, line.initialAzimuth) <= 1e-9)
      }
    }
  }

  @Test func distortionIsBelowTenPartsPerMillionWithinTwentyKilometres() {
    var rng = SplitMix64(seed: 99)
    for centre in Self.centres {
      let projection = LocalProjection(center: centre)
      let points = nearbyPoints(of: centre, radius: 20_000, count: 100, using: &rng)
      for (p, q) in zip(points, points.dropFirst()) {
        let a = projection.project(p)
        let b = projection.project(q)
        let planar = hypot(a.x - b.x, a.y - b.y)
        let geodesic = Geodesic.wgs84.inverse(from: p, to: q).distance
        #expect(abs(planar - geodesic) <= 1e-5 * geodesic + 1e-9, "\(centre) \(p) \(q)")
      }
    }
  }

  @Test func axesPointEastAndNorth() throws {
    let projection = LocalProjection(center: try Coordinate(latitude: 45, longitude: 7))
    let east = projection.project(try Coordinate(latitude: 45, longitude: 7.01))
    #expect(east.x > 780 && abs(east.y) < 1)
    let north = projection.project(try Coordinate(latitude: 45.01, longitude: 7))
    #expect(north.y > 1_110 && abs(north.x) < 1e-9)
  }

  @Test func worksAcrossTheAntimeridian() throws {
    let centre = try Coordinate(latitude: -16.5, longitude: 179.99)
    let projection = LocalProjection(center: centre)
    // 0.02° further east, on the other side of ±180°.
    let across = try Coordinate(latitude: -16.5, longitude: -179.99)
    let position = projection.project(across)
    // The geodesic leaves at azimuth 90.0028°, 2 135.283 m long (GeographicLib 2.1).
    let azimuth = 90.002_840_153_473_71 * Double.pi / 180
    let distance = 2_135.283_096_651_997_3
    #expect(abs(position.x - distance * sin(azimuth)) < 1e-8, "\(position)")
    #expect(abs(position.y - distance * cos(azimuth)) < 1e-8, "\(position)")
    let back = try projection.unproject(position)
    #expect(abs(back.latitude - across.latitude) <= 1e-12)
    #expect(angleDifference(back.longitude, across.longitude) <= 1e-12)
    let west = try projection.unproject(Position(x: -position.x, y: position.y))
    #expect(abs(west.longitude - 179.97) <= 1e-9)
  }

  @Test func atTheNorthPoleYPointsAlongTheOppositeMeridian() throws {
    // Centre longitude 0: "north" continues over the pole onto meridian 180°, and x points 90°
    // to its right, down meridian 90°E.
    let projection = LocalProjection(center: try Coordinate(latitude: 90, longitude: 0))
    let s = Geodesic.wgs84.inverse(
      from: try Coordinate(latitude: 90, longitude: 0),
      to: try Coordinate(latitude: 89, longitude: 0)
    ).distance
    let onOpposite = projection.project(try Coordinate(latitude: 89, longitude: -180))
    #expect(abs(onOpposite.x) < 1e-9 && abs(onOpposite.y - s) < 1e-8)
    let onCentral = projection.project(try Coordinate(latitude: 89, longitude: 0))
    #expect(abs(onCentral.x) < 1e-9 && abs(onCentral.y + s) < 1e-8)
    let onEast = projection.project(try Coordinate(latitude: 89, longitude: 90))
    #expect(abs(onEast.x - s) < 1e-8 && abs(onEast.y) < 1e-9)
    let back = try projection.unproject(onEast)
    #expect(abs(back.latitude - 89) <= 1e-12 && abs(back.longitude - 90) <= 1e-12)
  }

  @Test func atTheSouthPoleYPointsAlongTheCentralMeridian() throws {
    let projection = LocalProjection(center: try Coordinate(latitude: -90, longitude: 0))
    let north = projection.project(try Coordinate(latitude: -89, longitude: 0))
    #expect(abs(north.x) < 1e-9 && north.y > 111_000)
    let east = projection.project(try Coordinate(latitude: -89, longitude: 90))
    #expect(east.x > 111_000 && abs(east.y) < 1e-9)
  }

  @Test(arguments: [
    Position(x: .nan, y: 0), Position(x: 0, y: .infinity), Position(x: -.infinity, y: 1),
  ])
  func unprojectRejectsNonFinitePositions(position: Position) {
    let projection = LocalProjection(center: try! Coordinate(latitude: 0, longitude: 0))
    #expect(throws: GeoError.self) { try projection.unproject(position) }
  }
}
