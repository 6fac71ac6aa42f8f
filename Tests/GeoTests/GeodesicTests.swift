import Foundation
import SimKernel
import Testing

@testable import Geo

/// The rows of a whitespace-separated fixture file, skipping `#` comment lines.
func fixtureRows(_ name: String, columns: Int) throws -> [[Double]] {
  let url = try #require(
    Bundle.module.url(forResource: name, withExtension: "txt", subdirectory: "Fixtures"))
  let text = try String(contentsOf: url, encoding: .utf8)
  var rows: [[Double]] = []
  for line in text.split(separator: "\n") where !line.hasPrefix("#") {
    let values = line.split(separator: " ").compactMap { Double(String($0)) }
    try #require(values.count == columns, "malformed fixture line: \(line)")
    rows.append(values)
  }
  return rows
}

/// |a − b| for angles in degrees, taking the shorter way round.
func angleDifference(_ a: Double, _ b: Double) -> Double {
  abs((a - b).remainder(dividingBy: 360))
}

/// The distance in metres between two nearby coordinates (a local flat approximation; enough to
/// measure errors far below a metre, and longitude differences shrink towards the poles).
func separation(_ p: Coordinate, _ q: Coordinate) -> Double {
  let metresPerDegree = 111_320.0
  let dLat = p.latitude - q.latitude
  let dLon = angleDifference(p.longitude, q.longitude) * cos(q.latitude * .pi / 180)
  return (dLat * dLat + dLon * dLon).squareRoot() * metresPerDegree
}

@Suite struct GeodesicTests {
  let geodesic = Geodesic.wgs84
  /// The WGS84 quarter meridian, equator to pole.
  let quarterMeridian = 10_001_965.729_312_724

  /// The azimuth tolerance for a line: 1e-9° where the azimuth is well determined, wider where
  /// it is not. An azimuth change δα moves the far end sideways by m₁₂ δα, so end points known
  /// to about 5 nm (a few units in the last place of a coordinate) fix the azimuth only to
  /// 5 nm / m₁₂: millimetre lines and nearly antipodal points have ill-determined azimuths.
  func azimuthTolerance(reducedLength: Double) -> Double {
    1e-9 + 5e-9 / abs(reducedLength) * 180 / .pi
  }

  /// The tolerance for an azimuth at a computed end point: as above, plus the change of the
  /// meridian's direction across the 20 nm position error allowed for that point, which grows
  /// without bound towards a pole.
  func endAzimuthTolerance(reducedLength: Double, latitude: Double) -> Double {
    azimuthTolerance(reducedLength: reducedLength)
      + 2e-8 / (6_378_137 * cos(latitude * .pi / 180)) * 180 / .pi
  }

  // MARK: Reference data

  @Test func inverseMatchesGeographicLibDistancesWithinTenNanometres() throws {
    // Largest difference seen: 7.5e-9 m (2 units in the last place of a 20 000 km distance).
    var largest = 0.0
    for row in try fixtureRows("geodesic-inverse", columns: 7) {
      let p1 = try Coordinate(latitude: row[0], longitude: row[1])
      let p2 = try Coordinate(latitude: row[2], longitude: row[3])
      let error = abs(geodesic.inverse(from: p1, to: p2).distance - row[6])
      largest = max(largest, error)
      #expect(error <= 1e-8, "\(row)")
    }
    #expect(largest > 0)
  }

  @Test func inverseMatchesGeographicLibAzimuthsWithinTheirConditioning() throws {
    for row in try fixtureRows("geodesic-inverse", columns: 7) {
      let p1 = try Coordinate(latitude: row[0], longitude: row[1])
      let p2 = try Coordinate(latitude: row[2], longitude: row[3])
      let line = geodesic.inverse(from: p1, to: p2)
      let raw = geodesic.solveInverse(
        latitude1: p1.latitude, longitude1: p1.longitude,
        latitude2: p2.latitude, longitude2: p2.longitude)
      if row[6] == 0 { continue }  // coincident points have no defined azimuth
      let tolerance = azimuthTolerance(reducedLength: raw.reducedLength)
      #expect(angleDifference(line.initialAzimuth, row[4]) <= tolerance, "\(row) \(line)")
      #expect(angleDifference(line.finalAzimuth, row[5]) <= tolerance, "\(row) \(line)")
    }
  }

  @Test func directMatchesGeographicLibEndPointsWithinFiftyNanometres() throws {
    // Largest differences seen: 2.3e-8 m in position (for paths of 5 to 20 Earth
    // circumferences) and 8e-13° in azimuth.
    for row in try fixtureRows("geodesic-direct", columns: 7) {
      let start = try Coordinate(latitude: row[0], longitude: row[1])
      let end = try geodesic.direct(from: start, azimuth: row[2], distance: row[3])
      let expected = try Coordinate(latitude: row[4], longitude: row[5])
      #expect(separation(end.coordinate, expected) <= 5e-8, "\(row) \(end)")
      #expect(angleDifference(end.finalAzimuth, row[6]) <= 1e-9, "\(row) \(end)")
    }
  }

  // MARK: Round trips

  /// Pairs of points: uniform, nearly antipodal, near a pole, and short.
  func samplePairs(count: Int, seed: UInt64) -> [(Coordinate, Coordinate)] {
    var rng = SplitMix64(seed: seed)
    var pairs: [(Coordinate, Coordinate)] = []
    for i in 0..<count {
      let p = rng.coordinate()
      let q: Coordinate
      switch i % 4 {
      case 0:
        q = rng.coordinate()
      case 1:
        q = try! Coordinate(
          latitude: max(-90, min(90, -p.latitude + Double.random(in: -1...1, using: &rng))),
          longitude: p.longitude + 180 + Double.random(in: -1...1, using: &rng))
      case 2:
        q = try! Coordinate(
          latitude: (Bool.random(using: &rng) ? 1 : -1) * (90 - pow(10, -Double(i % 12))),
          longitude: Double.random(in: -180..<180, using: &rng))
      default:
        let offset = pow(10, Double.random(in: -7...0, using: &rng))
        q = try! Coordinate(
          latitude: max(-90, min(90, p.latitude + offset * Double.random(in: -1...1, using: &rng))),
          longitude: p.longitude + offset * Double.random(in: -1...1, using: &rng))
      }
      pairs.append((p, q))
    }
    return pairs
  }

  @Test func directFromAnInverseSolutionReturnsToTheSecondPoint() throws {
    for (p, q) in samplePairs(count: 4000, seed: 1) {
      let line = geodesic.inverse(from: p, to: q)
      let end = try geodesic.direct(from: p, azimuth: line.initialAzimuth, distance: line.distance)
      #expect(separation(end.coordinate, q) <= 2e-8, "\(p) → \(q): \(line), reached \(end)")
      let raw = geodesic.solveInverse(
        latitude1: p.latitude, longitude1: p.longitude,
        latitude2: q.latitude, longitude2: q.longitude)
      #expect(
        angleDifference(end.finalAzimuth, line.finalAzimuth)
          <= endAzimuthTolerance(reducedLength: raw.reducedLength, latitude: q.latitude),
        "\(p) → \(q): \(line), reached \(end)")
    }
  }

  @Test func inverseOfADirectSolutionRecoversDistanceAndAzimuth() throws {
    var rng = SplitMix64(seed: 2)
    for _ in 0..<3000 {
      let p = rng.coordinate()
      let azimuth = Double.random(in: -180..<180, using: &rng)
      // Well short of the antipodal region, every geodesic is a shortest path.
      let distance = Double.random(in: 0...1.5e7, using: &rng)
      let end = try geodesic.direct(from: p, azimuth: azimuth, distance: distance)
      let line = geodesic.inverse(from: p, to: end.coordinate)
      #expect(abs(line.distance - distance) <= 2e-8, "\(p) \(azimuth) \(distance)")
      #expect(angleDifference(line.initialAzimuth, azimuth) <= 1e-9, "\(p) \(azimuth) \(distance)")
      #expect(
        angleDifference(line.finalAzimuth, end.finalAzimuth) <= 1e-9,
        "\(p) \(azimuth) \(distance)")
    }
  }

  @Test func swappingTheEndsReversesTheGeodesic() {
    for (p, q) in samplePairs(count: 2000, seed: 3) {
      let forward = geodesic.inverse(from: p, to: q)
      let backward = geodesic.inverse(from: q, to: p)
      #expect(abs(forward.distance - backward.distance) <= 1e-8 + 1e-15 * forward.distance)
      if forward.distance > 0.1 && abs(forward.distance - 2 * quarterMeridian) > 1e5 {
        #expect(angleDifference(forward.initialAzimuth, backward.finalAzimuth + 180) <= 1e-7)
        #expect(angleDifference(forward.finalAzimuth, backward.initialAzimuth + 180) <= 1e-7)
      }
    }
  }

  // MARK: Special configurations

  @Test func exactlyAntipodalPointsAreHalfAMeridianApart() throws {
    for latitude in [0.0, 1e-10, 0.5, 30, -45, 60, 89.999_999, 90] {
      for longitude in [0.0, 100, -180, 179.5] {
        let p = try Coordinate(latitude: latitude, longitude: longitude)
        let q = try Coordinate(latitude: -latitude, longitude: longitude + 180)
        let line = geodesic.inverse(from: p, to: q)
        #expect(abs(line.distance - 2 * quarterMeridian) <= 1e-8, "\(p) → \(q)")
        // The shortest path runs along a meridian, over a pole.
        #expect(line.initialAzimuth == 0 || line.initialAzimuth == 180, "\(p) → \(q)")
        #expect(line.finalAzimuth == 0 || line.finalAzimuth == 180, "\(p) → \(q)")
      }
    }
  }

  @Test func antipodalEquatorialPointsAreJoinedOverTheNorthPole() throws {
    let line = geodesic.inverse(
      from: try Coordinate(latitude: 0, longitude: 0),
      to: try Coordinate(latitude: 0, longitude: 180))
    #expect(abs(line.distance - 20_003_931.458_625_447) <= 1e-8)
    #expect(line.initialAzimuth == 0)
    #expect(line.finalAzimuth == 180)
  }

  @Test func nearlyAntipodalEquatorialPointsLeaveTheEquatorOnlyBeyondTheCriticalLongitude()
    throws
  {
    // Along the equator up to (1 − f) · 180°, then over a higher path.
    let critical = (1 - Ellipsoid.wgs84.flattening) * 180
    let origin = try Coordinate(latitude: 0, longitude: 0)
    let along = geodesic.inverse(
      from: origin, to: try Coordinate(latitude: 0, longitude: critical - 1e-6))
    #expect(along.initialAzimuth == 90 && along.finalAzimuth == 90)
    let beyond = geodesic.inverse(from: origin, to: try Coordinate(latitude: 0, longitude: 179.5))
    #expect(abs(beyond.distance - 19_980_861.908_890_963) <= 1e-8)
    #expect(abs(beyond.initialAzimuth - 55.966_495_140_158_635) <= 1e-9)
  }

  @Test func nearlyAntipodalLinesConvergeToTheReference() throws {
    // From Karney's examples of the astroid region: points 0.1° and 0.2° off the antipode.
    let line = geodesic.inverse(
      from: try Coordinate(latitude: -30, longitude: 0),
      to: try Coordinate(latitude: 29.9, longitude: 179.8))
    #expect(abs(line.distance - 19_989_832.827_609_53) <= 1e-8)
    #expect(abs(line.initialAzimuth - 161.890_524_736_326_97) <= 1e-9)
    #expect(abs(line.finalAzimuth - 18.090_737_245_739_5) <= 1e-9)
  }

  @Test func fromAPoleTheAzimuthIsMeasuredFromTheGivenMeridian() throws {
    let target = try Coordinate(latitude: 10, longitude: 30)
    let fromNorth = geodesic.inverse(
      from: try Coordinate(latitude: 90, longitude: 0), to: target)
    #expect(abs(fromNorth.initialAzimuth - 150) <= 1e-12)
    #expect(fromNorth.finalAzimuth == 180)
    #expect(abs(fromNorth.distance - 8_896_110.896_078_352) <= 1e-8)
    let fromSouth = geodesic.inverse(
      from: try Coordinate(latitude: -90, longitude: 0), to: target)
    #expect(abs(fromSouth.initialAzimuth - 30) <= 1e-12)
    #expect(fromSouth.finalAzimuth == 0)
    #expect(abs(fromSouth.distance - 11_107_820.562_547_095) <= 1e-8)
  }

  @Test func poleToPoleIsTwoQuarterMeridians() throws {
    let line = geodesic.inverse(
      from: try Coordinate(latitude: 90, longitude: 0),
      to: try Coordinate(latitude: -90, longitude: 0))
    #expect(abs(line.distance - 2 * quarterMeridian) <= 1e-8)
    #expect(line.initialAzimuth == 180 && line.finalAzimuth == 180)
  }

  @Test func pointsANanodegreeFromAPoleBehaveLikeThePole() throws {
    let target = try Coordinate(latitude: -20, longitude: 45)
    let pole = geodesic.inverse(from: try Coordinate(latitude: 90, longitude: 10), to: target)
    let near = geodesic.inverse(
      from: try Coordinate(latitude: 90 - 1e-9, longitude: 10), to: target)
    // 1e-9° of latitude is 0.1117 mm there, and the target lies 35° from that meridian.
    #expect(abs(pole.distance - near.distance - 1.117e-4 * cos(35 * Double.pi / 180)) <= 1e-7)
    #expect(angleDifference(pole.initialAzimuth, near.initialAzimuth) <= 1e-8)
  }

  @Test func coincidentPointsAreZeroApart() throws {
    var rng = SplitMix64(seed: 4)
    var points = (0..<50).map { _ in rng.coordinate() }
    points += try [(90.0, 0.0), (-90, 45), (0, 0), (0, -180)].map {
      try Coordinate(latitude: $0.0, longitude: $0.1)
    }
    for p in points {
      let line = geodesic.inverse(from: p, to: p)
      #expect(line.distance == 0)
      #expect(line.initialAzimuth == line.finalAzimuth)
    }
  }

  @Test func azimuthsLieInTheHalfOpenRangeAbove180Below() throws {
    // GeographicLib reports −180 for some of these; the convention here is (−180, 180].
    let origin = try Coordinate(latitude: 0, longitude: 0)
    let line = geodesic.inverse(from: origin, to: try Coordinate(latitude: 0, longitude: -180))
    #expect(line.initialAzimuth == 0 && line.finalAzimuth == 180)
    for (p, q) in samplePairs(count: 1000, seed: 5) {
      let line = geodesic.inverse(from: p, to: q)
      #expect(line.initialAzimuth > -180 && line.initialAzimuth <= 180)
      #expect(line.finalAzimuth > -180 && line.finalAzimuth <= 180)
      let end = try geodesic.direct(from: p, azimuth: -180, distance: line.distance)
      #expect(end.finalAzimuth > -180 && end.finalAzimuth <= 180)
    }
  }

  // MARK: Known distances

  @Test func quarterMeridianIs10001965_729Metres() throws {
    let line = geodesic.inverse(
      from: try Coordinate(latitude: 0, longitude: 0),
      to: try Coordinate(latitude: 90, longitude: 0))
    #expect(abs(line.distance - 10_001_965.729) <= 5e-4)
    #expect(line.initialAzimuth == 0 && line.finalAzimuth == 0)
  }

  @Test func oneDegreeOfEquatorIsAPiOver180() throws {
    let line = geodesic.inverse(
      from: try Coordinate(latitude: 0, longitude: 0),
      to: try Coordinate(latitude: 0, longitude: 1))
    #expect(abs(line.distance - 6_378_137 * Double.pi / 180) <= 1e-9)
    #expect(line.initialAzimuth == 90 && line.finalAzimuth == 90)
  }

  @Test func tokyoStationToShinjukuStation() throws {
    // Reference value from GeographicLib 2.1 (GeodSolve -i).
    let tokyo = try Coordinate(latitude: 35.681236, longitude: 139.767125)
    let shinjuku = try Coordinate(latitude: 35.690921, longitude: 139.700258)
    let line = geodesic.inverse(from: tokyo, to: shinjuku)
    #expect(abs(line.distance - 6_147.426_547_774_798) <= 1e-9)
    #expect(abs(line.initialAzimuth - -79.913_369_665_803_13) <= 1e-9)
    #expect(abs(line.finalAzimuth - -79.952_376_123_921_04) <= 1e-9)
  }

  // MARK: Direct problem

  @Test func negativeDistanceTravelsBackwards() throws {
    var rng = SplitMix64(seed: 6)
    for _ in 0..<200 {
      let p = rng.coordinate()
      let azimuth = Double.random(in: -180..<180, using: &rng)
      let distance = Double.random(in: 0...2e7, using: &rng)
      let backwards = try geodesic.direct(from: p, azimuth: azimuth, distance: -distance)
      let reversed = try geodesic.direct(from: p, azimuth: azimuth + 180, distance: distance)
      #expect(separation(backwards.coordinate, reversed.coordinate) <= 1e-8)
      #expect(angleDifference(backwards.finalAzimuth, reversed.finalAzimuth + 180) <= 1e-9)
    }
  }

  @Test func zeroDistanceStaysPut() throws {
    let p = try Coordinate(latitude: 12.5, longitude: -179.25)
    let end = try geodesic.direct(from: p, azimuth: 33, distance: 0)
    #expect(separation(end.coordinate, p) <= 1e-9)
    #expect(abs(end.finalAzimuth - 33) <= 1e-12)
  }

  @Test func travellingAlongTheEquatorCoversApiOver180PerDegree() throws {
    let end = try geodesic.direct(
      from: try Coordinate(latitude: 0, longitude: 179), azimuth: 90,
      distance: 2 * 6_378_137 * Double.pi / 180)
    #expect(end.coordinate.latitude == 0)
    #expect(abs(end.coordinate.longitude - -179) <= 1e-12)
    #expect(end.finalAzimuth == 90)
  }

  @Test(arguments: [Double.nan, .infinity, -.infinity])
  func directRejectsNonFiniteAzimuthOrDistance(value: Double) throws {
    let p = try Coordinate(latitude: 0, longitude: 0)
    #expect(throws: GeoError.self) { try geodesic.direct(from: p, azimuth: value, distance: 1) }
    #expect(throws: GeoError.self) { try geodesic.direct(from: p, azimuth: 0, distance: value) }
  }

  // MARK: Other ellipsoids

  @Test(arguments: [
    (6_378_137.0, -0.001), (6_378_137, 0.02), (0, 0), (-1, 0), (.nan, 0), (6e6, .nan),
    (.infinity, 0),
  ])
  func ellipsoidRejectsInvalidShapes(radius: Double, flattening: Double) {
    #expect(throws: GeoError.self) {
      try Ellipsoid(equatorialRadius: radius, flattening: flattening)
    }
  }

  @Test func wgs84HasTheDefiningConstants() {
    #expect(Ellipsoid.wgs84.equatorialRadius == 6_378_137)
    #expect(Ellipsoid.wgs84.flattening == 1 / 298.257_223_563)
    #expect(abs(Ellipsoid.wgs84.polarRadius - 6_356_752.314_245) <= 1e-6)
  }

  @Test func onASphereGeodesicsAreGreatCircles() throws {
    let sphere = Geodesic(try Ellipsoid(equatorialRadius: 6_371_000, flattening: 0))
    for (p, q) in samplePairs(count: 1000, seed: 7) {
      let line = sphere.inverse(from: p, to: q)
      let expected = greatCircleDistance(from: p, to: q, radius: 6_371_000)
      #expect(abs(line.distance - expected) <= 1e-8, "\(p) → \(q)")
    }
  }

  // MARK: Great-circle distance

  @Test func greatCircleDistanceMatchesKnownValuesOnTheMeanEarthSphere() throws {
    let r = 6_371_000.0
    func distance(_ a: (Double, Double), _ b: (Double, Double)) throws -> Double {
      greatCircleDistance(
        from: try Coordinate(latitude: a.0, longitude: a.1),
        to: try Coordinate(latitude: b.0, longitude: b.1), radius: r)
    }
    // Reference values: exact formulas, or the central angle atan2(|u × v|, u · v) of the unit
    // vectors evaluated with 40-digit arithmetic.
    let cases: [((Double, Double), (Double, Double), Double)] = [
      ((0, 0), (90, 0), 10_007_543.398_010_286),  // π R / 2
      ((0, 0), (0, 180), 20_015_086.796_020_572),  // π R
      ((45, 10), (-45, -170), 20_015_086.796_020_572),  // antipodal
      ((0, 0), (0, 1), 111_194.926_644_558_73),  // π R / 180
      ((36.12, -86.67), (33.94, -118.40), 2_886_444.442_837_983_7),  // Nashville – Los Angeles
      ((51.5007, -0.1246), (40.6892, -74.0445), 5_574_840.456_848_553_8),  // London – New York
      ((0, 0), (0, 179.999_999_9), 20_015_086.784_901_080_7),  // nearly antipodal
      ((45, 10), (-44.999_999, -170), 20_015_086.684_825_646),  // nearly antipodal
      ((0, 0), (1e-9, 0), 1.111_949_266_445_587_4e-4),  // 0.1 mm
    ]
    for (a, b, expected) in cases {
      let value = try distance(a, b)
      #expect(abs(value - expected) <= 1e-12 * expected + 1e-9, "\(a) → \(b): \(value)")
    }
  }

  @Test func greatCircleDistanceIsSymmetricAndWithinSixTenthsOfAPercentOfTheEllipsoid() {
    for (p, q) in samplePairs(count: 500, seed: 8) {
      let d = greatCircleDistance(from: p, to: q, radius: 6_371_000)
      #expect(d == greatCircleDistance(from: q, to: p, radius: 6_371_000))
      let s = geodesic.inverse(from: p, to: q).distance
      // The ellipsoid's radii of curvature run from 6 335 km to 6 400 km.
      #expect(abs(d - s) <= 0.006 * s + 1e-9, "\(p) → \(q)")
    }
  }

  // MARK: Internals

  @Test func astroidRootSolvesTheAstroidEquation() {
    var rng = SplitMix64(seed: 9)
    for _ in 0..<2000 {
      let x = Double.random(in: -3...0.5, using: &rng)
      let y =
        (Bool.random(using: &rng) ? 1 : -1) * pow(10, Double.random(in: -14...0.5, using: &rng))
      let mu = Geodesic.astroidRoot(x: x, y: y)
      #expect(mu > 0)
      let residual = x * x / ((1 + mu) * (1 + mu)) + y * y / (mu * mu) - 1
      #expect(abs(residual) <= 1e-12, "x \(x) y \(y) μ \(mu)")
    }
    #expect(Geodesic.astroidRoot(x: -2.5, y: 0) == 1.5)
  }
}
