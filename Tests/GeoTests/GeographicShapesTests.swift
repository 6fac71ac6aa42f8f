import Foundation
import SimKernel
import Testing

@testable import Geo

@Suite struct GeographicShapesTests {
  let geos = GEOSContext()

  /// Checks, for seeded points around `center`, that the shape covers exactly the points closer
  /// than `radius` by geodesic distance, except within the chord sagitta of a `segments`-gon
  /// (plus 0.5 m) of the boundary.
  func expectCircleSemantics(
    _ shape: Geometry, center: Coordinate, radius: Double, segments: Int, seed: UInt64
  ) throws {
    let band = radius * (1 - cos(Double.pi / Double(segments))) + 0.5
    let prepared = try PreparedGeometry(shape, context: geos)
    var random = SplitMix64(seed: seed)
    var checked = 0
    for _ in 0..<3_000 {
      let azimuth = random.double(in: -180...180)
      let distance = random.double(in: 0...(radius * 1.5))
      let p = try Geodesic.wgs84.direct(from: center, azimuth: azimuth, distance: distance)
        .coordinate
      let d = Geodesic.wgs84.inverse(from: center, to: p).distance
      guard abs(d - radius) > band else { continue }
      checked += 1
      #expect(
        try prepared.covers(Position(p)) == (d < radius),
        "point \(p) at \(d) m from \(center), radius \(radius)")
    }
    #expect(checked > 2_000)
  }

  @Test func circleAroundTokyoStationHoldsExactlyThePointsWithinItsRadius() throws {
    let center = try Coordinate(latitude: 35.681236, longitude: 139.767125)
    let circle = try GeographicShapes.circle(
      center: center, radiusMeters: 3_000, segments: 64, context: geos)
    guard case .polygon(let polygon) = circle else {
      Issue.record("expected a single polygon, got \(circle.typeName)")
      return
    }
    for vertex in polygon.exterior.positions {
      let d = Geodesic.wgs84.inverse(
        from: center, to: try Coordinate(latitude: vertex.y, longitude: vertex.x))
      #expect(abs(d.distance - 3_000) < 1e-6)
    }
    try expectCircleSemantics(circle, center: center, radius: 3_000, segments: 64, seed: 1)
  }

  @Test func circleAcrossTheAntimeridianIsSplitIntoTwoParts() throws {
    let center = try Coordinate(latitude: -16.5, longitude: 179.99)
    let circle = try GeographicShapes.circle(
      center: center, radiusMeters: 20_000, segments: 128, context: geos)
    guard case .multiPolygon(let parts) = circle else {
      Issue.record("expected a multipolygon, got \(circle.typeName)")
      return
    }
    #expect(parts.count == 2)
    let envelope = try #require(circle.envelope)
    #expect(envelope.minX == -180 && envelope.maxX == 180)
    try expectCircleSemantics(circle, center: center, radius: 20_000, segments: 128, seed: 2)
  }

  @Test(arguments: [89.99, -89.99, 90])
  func circleContainingAPoleIsClosedOverThePole(latitude: Double) throws {
    let center = try Coordinate(latitude: latitude, longitude: 30)
    let circle = try GeographicShapes.circle(
      center: center, radiusMeters: 5_000, segments: 64, context: geos)
    let envelope = try #require(circle.envelope)
    #expect(envelope.minX == -180 && envelope.maxX == 180)
    #expect(try geos.covers(circle, .point(Position(x: 0, y: latitude > 0 ? 90 : -90))))
    try expectCircleSemantics(circle, center: center, radius: 5_000, segments: 64, seed: 3)
  }

  @Test func circleNearButNotAroundAPoleKeepsItsShape() throws {
    let center = try Coordinate(latitude: 89.9, longitude: -120)
    let circle = try GeographicShapes.circle(
      center: center, radiusMeters: 8_000, segments: 64, context: geos)
    #expect(try !geos.covers(circle, .point(Position(x: 0, y: 90))))
    try expectCircleSemantics(circle, center: center, radius: 8_000, segments: 64, seed: 4)
  }

  @Test func bufferOfALineInMetresMatchesGeodesicDistanceToIt() throws {
    // Along the Yamanote line's eastern side, Tokyo → Ueno.
    let line = Geometry.lineString(
      try LineString([
        Position(x: 139.767125, y: 35.681236), Position(x: 139.7710, y: 35.6984),
        Position(x: 139.7774, y: 35.7138),
      ]))
    let buffered = try GeographicShapes.buffer(
      line, meters: 200, quadrantSegments: 16, context: geos)
    let projection = LocalProjection(
      center: try GeographicShapes.centre(of: line))
    let projectedLine = try line.mapPositions {
      projection.project(try Coordinate(latitude: $0.y, longitude: $0.x))
    }
    let prepared = try PreparedGeometry(buffered, context: geos)
    var random = SplitMix64(seed: 5)
    for _ in 0..<2_000 {
      let c = try Coordinate(
        latitude: random.double(in: 35.675...35.72), longitude: random.double(in: 139.76...139.785))
      let d = try geos.distance(projectedLine, .point(projection.project(c)))
      guard abs(d - 200) > 1 else { continue }
      #expect(try prepared.covers(Position(c)) == (d < 200))
    }
  }

  @Test func bufferAcrossTheAntimeridianIsSplit() throws {
    let line = Geometry.lineString(
      try LineString([Position(x: 179.9, y: 10), Position(x: -179.9, y: 10.1)]))
    let buffered = try GeographicShapes.buffer(line, meters: 1_000, context: geos)
    guard case .multiPolygon(let parts) = buffered else {
      Issue.record("expected a multipolygon, got \(buffered.typeName)")
      return
    }
    #expect(parts.count == 2)
    #expect(try geos.covers(buffered, .point(Position(x: 180 - 1e-9, y: 10.05))))
    #expect(try geos.covers(buffered, .point(Position(x: -180, y: 10.05))))
    #expect(try !geos.covers(buffered, .point(Position(x: 0, y: 10.05))))
  }

  @Test func invalidArgumentsThrow() throws {
    let c = try Coordinate(latitude: 0, longitude: 0)
    #expect(throws: GeoError.self) {
      try GeographicShapes.circle(center: c, radiusMeters: -1, context: geos)
    }
    #expect(throws: GeoError.self) {
      try GeographicShapes.circle(center: c, radiusMeters: 10, segments: 2, context: geos)
    }
    #expect(throws: GeoError.self) {
      try GeographicShapes.buffer(.point(Position(x: 0, y: 95)), meters: 10, context: geos)
    }
    #expect(throws: GeoError.self) {
      try GeographicShapes.buffer(.multiPoint([]), meters: 10, context: geos)
    }
  }
}
