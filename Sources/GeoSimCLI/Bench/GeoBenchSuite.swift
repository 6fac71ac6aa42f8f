import Foundation
import Geo
import SimKernel

/// `geosim bench geo`: the geometry layer's hot paths, each against an in-run baseline.
///
/// - geodesic inverse and direct (target ≤ 1 µs) against the spherical haversine distance;
/// - prepared point-in-polygon (target ≤ 300 ns) against the unprepared predicate;
/// - envelope queries over 10,000 and 1,000,000 points (GEOS STRtree and ``PointIndex``)
///   against a linear scan;
/// - nearest station among 10,000 and 1,000,000 points by geodesic distance with ``PointIndex``
///   (targets ≤ 5 µs and ≤ 20 µs) against a linear scan, with GEOS's planar STRtree nearest
///   for reference.
enum GeoBenchSuite {
  static func run(_ bench: inout Bench) throws {
    var random = SplitMix64(seed: 2_024)
    let geodesic = Geodesic.wgs84
    let pairs = (0..<4_096).map { _ in (random.coordinate(), random.coordinate()) }
    bench.measure("sphere.haversine") { n in
      var sum = 0.0
      for i in 0..<n {
        let (a, b) = pairs[i & 4_095]
        sum += greatCircleDistance(from: a, to: b, radius: Ellipsoid.wgs84MeanRadius)
      }
      blackHole(sum)
    }
    bench.measure("geodesic.inverse", baseline: "sphere.haversine") { n in
      var sum = 0.0
      for i in 0..<n {
        let (a, b) = pairs[i & 4_095]
        sum += geodesic.inverse(from: a, to: b).distance
      }
      blackHole(sum)
    }
    bench.measure("geodesic.direct", baseline: "sphere.haversine") { n in
      var sum = 0.0
      for i in 0..<n {
        let (a, _) = pairs[i & 4_095]
        sum +=
          (try? geodesic.direct(from: a, azimuth: Double(i & 359), distance: 1e6))?
          .coordinate.latitude ?? 0
      }
      blackHole(sum)
    }
    try polygonCases(&bench, &random)
    for count in [10_000, 1_000_000] {
      try indexCases(&bench, &random, count: count)
    }
  }

  private static func polygonCases(_ bench: inout Bench, _ random: inout SplitMix64) throws {
    let geos = GEOSContext()
    // A 64-vertex ring of uneven radius around Tokyo Station, in degrees.
    var ring: [Position] = (0..<64).map { i in
      let angle = Double(i) / 64 * 2 * Double.pi
      let r = 0.01 * (1 + 0.3 * sin(5 * angle))
      return Position(x: 139.767 + r * cos(angle), y: 35.681 + r * sin(angle))
    }
    ring.append(ring[0])
    let polygon = Geometry.polygon(try Polygon(rings: [ring]))
    let prepared = try PreparedGeometry(polygon, context: geos)
    let points = (0..<4_096).map { _ in
      Position(
        x: 139.767 + random.double(in: -0.015...0.015),
        y: 35.681 + random.double(in: -0.015...0.015))
    }
    bench.measure("polygon64.contains.unprepared") { n in
      var inside = 0
      for i in 0..<n where (try? geos.contains(polygon, .point(points[i & 4_095]))) == true {
        inside += 1
      }
      blackHole(inside)
    }
    bench.measure("polygon64.contains.prepared", baseline: "polygon64.contains.unprepared") { n in
      var inside = 0
      for i in 0..<n where (try? prepared.contains(points[i & 4_095])) == true { inside += 1 }
      blackHole(inside)
    }
  }

  private static func indexCases(_ bench: inout Bench, _ random: inout SplitMix64, count: Int)
    throws
  {
    let geos = GEOSContext()
    let label = count >= 1_000_000 ? "\(count / 1_000_000)M" : "\(count / 1_000)k"
    let coordinates = (0..<count).map { _ in random.coordinate() }
    let index = PointIndex(coordinates.enumerated().map { ($1, $0) })
    let tree = try STRtree(
      coordinates.enumerated().map { i, c in
        (try Envelope(minX: c.longitude, minY: c.latitude, maxX: c.longitude, maxY: c.latitude), i)
      }, context: geos)
    let queries = (0..<1_024).map { _ in random.coordinate() }
    // Boxes of 2° × 2°: a few dozen points each at 1M, a handful at 10k.
    let boxes = try queries.map { q in
      let south = max(q.latitude - 1, -90)
      return try CoordinateBounds(
        south: south, west: max(q.longitude - 1, -180), north: min(south + 2, 90),
        east: min(q.longitude + 1, 179.999))
    }
    let envelopes = try boxes.map {
      try Envelope(minX: $0.west, minY: $0.south, maxX: $0.east, maxY: $0.north)
    }
    let scanIterations = count >= 1_000_000 ? 8 : 1 << 30
    bench.measure("box.\(label).scan", maximumIterations: scanIterations) { n in
      var hits = 0
      for i in 0..<n {
        let e = envelopes[i & 1_023]
        for c in coordinates where e.contains(Position(c)) { hits += 1 }
      }
      blackHole(hits)
    }
    bench.measure("box.\(label).strtree", baseline: "box.\(label).scan") { n in
      var hits = 0
      for i in 0..<n { hits += (try? tree.query(envelopes[i & 1_023]).count) ?? 0 }
      blackHole(hits)
    }
    bench.measure("box.\(label).pointindex", baseline: "box.\(label).scan") { n in
      var hits = 0
      for i in 0..<n { hits += index.elements(in: boxes[i & 1_023]).count }
      blackHole(hits)
    }
    let metric = DistanceMetric.geodesic
    bench.measure("nearest.\(label).scan", maximumIterations: scanIterations) { n in
      var sum = 0.0
      for i in 0..<n {
        let q = queries[i & 1_023]
        var best = Double.infinity
        for c in coordinates { best = min(best, metric.distance(q, c)) }
        sum += best
      }
      blackHole(sum)
    }
    bench.measure("nearest.\(label).strtree-planar", baseline: "nearest.\(label).scan") { n in
      var found = 0
      for i in 0..<n { found &+= (try? tree.nearest(to: Position(queries[i & 1_023]))) ?? 0 }
      blackHole(found)
    }
    for k in [1, 10] {
      let name = k == 1 ? "nearest.\(label).pointindex" : "nearest\(k).\(label).pointindex"
      bench.measure(name, baseline: "nearest.\(label).scan") { n in
        var sum = 0.0
        for i in 0..<n {
          sum +=
            (try? index.nearest(to: queries[i & 1_023], k: k, metric: metric))?.last?.distance
            ?? 0
        }
        blackHole(sum)
      }
    }
  }
}

extension SplitMix64 {
  mutating func double(in range: ClosedRange<Double>) -> Double {
    Double.random(in: range, using: &self)
  }

  /// A coordinate uniformly distributed over the sphere's surface.
  mutating func coordinate() -> Coordinate {
    let latitude = asin(double(in: -1...1)) * 180 / Double.pi
    return try! Coordinate(latitude: latitude, longitude: double(in: -180...180))
  }
}
