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
    bench.measure("sphere.haversine", inputs: 4_096) { n in
      var sum = 0.0
      for i in 0..<n {
        let (a, b) = pairs[i & 4_095]
        sum += greatCircleDistance(from: a, to: b, radius: Ellipsoid.wgs84MeanRadius)
      }
      blackHole(sum)
    }
    bench.measure(
      "geodesic.inverse", baseline: "sphere.haversine", target: "≤ 1 µs", inputs: 4_096
    ) { n in
      var sum = 0.0
      for i in 0..<n {
        let (a, b) = pairs[i & 4_095]
        sum += geodesic.inverse(from: a, to: b).distance
      }
      blackHole(sum)
    }
    bench.measure("geodesic.direct", baseline: "sphere.haversine", inputs: 4_096) { n in
      var sum = 0.0
      for i in 0..<n {
        let (a, _) = pairs[i & 4_095]
        sum +=
          (try? geodesic.direct(from: a, azimuth: Double(i & 4_095) / 4_096 * 360, distance: 1e6))?
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
    let inside = points.filter { Self.contains(ring, $0) }.count
    try bench.measure("polygon64.contains.unprepared", inputs: 4_096, expecting: inside) { n in
      var inside = 0
      for i in 0..<n where (try? geos.contains(polygon, .point(points[i & 4_095]))) == true {
        inside += 1
      }
      return inside
    }
    try bench.measure(
      "polygon64.contains.prepared", baseline: "polygon64.contains.unprepared",
      target: "≤ 300 ns", inputs: 4_096, expecting: inside
    ) { n in
      var inside = 0
      for i in 0..<n where (try? prepared.contains(points[i & 4_095])) == true { inside += 1 }
      return inside
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
    // The brute force every index is checked against: each point tested against each box.
    var inBoxes = 0
    for c in coordinates {
      let p = Position(c)
      for e in envelopes where e.contains(p) { inBoxes += 1 }
    }
    bench.measure("box.\(label).scan", inputs: 1_024, maximumIterations: scanIterations) { n in
      var hits = 0
      for i in 0..<n {
        let e = envelopes[i & 1_023]
        for c in coordinates where e.contains(Position(c)) { hits += 1 }
      }
      blackHole(hits)
    }
    try bench.measure(
      "box.\(label).strtree", baseline: "box.\(label).scan", inputs: 1_024, expecting: inBoxes
    ) { n in
      var hits = 0
      for i in 0..<n { hits += (try? tree.query(envelopes[i & 1_023]).count) ?? 0 }
      return hits
    }
    try bench.measure(
      "box.\(label).pointindex", baseline: "box.\(label).scan", inputs: 1_024,
      expecting: inBoxes
    ) { n in
      var hits = 0
      for i in 0..<n { hits += index.elements(in: boxes[i & 1_023]).count }
      return hits
    }
    let metric = DistanceMetric.geodesic
    bench.measure("nearest.\(label).scan", inputs: 1_024, maximumIterations: scanIterations) {
      n in
      var sum = 0.0
      for i in 0..<n {
        let q = queries[i & 1_023]
        var best = Double.infinity
        for c in coordinates { best = min(best, metric.distance(q, c)) }
        sum += best
      }
      blackHole(sum)
    }
    bench.measure(
      "nearest.\(label).strtree-planar", baseline: "nearest.\(label).scan", inputs: 1_024
    ) { n in
      var found = 0
      for i in 0..<n { found &+= (try? tree.nearest(to: Position(queries[i & 1_023]))) ?? 0 }
      blackHole(found)
    }
    // The brute force for the first queries: the index must find the same nearest distances.
    for q in queries.prefix(4) {
      let brute = coordinates.map { metric.distance(q, $0) }.min()
      let found = try index.nearest(to: q, k: 1, metric: metric).first?.distance
      guard found == brute else {
        throw BenchCheckFailure(
          "nearest.\(label).pointindex: \(String(describing: found)) m from \(q), "
            + "the brute force \(String(describing: brute)) m")
      }
    }
    for k in [1, 10] {
      let name = k == 1 ? "nearest.\(label).pointindex" : "nearest\(k).\(label).pointindex"
      let target = k == 1 ? (count >= 1_000_000 ? "≤ 20 µs" : "≤ 5 µs") : nil
      // Every query finds its k points.
      try bench.measure(
        name, baseline: "nearest.\(label).scan", target: target, inputs: 1_024,
        expecting: 1_024 * k
      ) { n in
        var found = 0
        for i in 0..<n {
          found += (try? index.nearest(to: queries[i & 1_023], k: k, metric: metric))?.count ?? 0
        }
        return found
      }
    }
  }

  /// Whether the point is inside the closed ring (even-odd ray casting): the brute force the
  /// polygon cases are checked against.
  static func contains(_ ring: [Position], _ p: Position) -> Bool {
    var inside = false
    for (a, b) in zip(ring, ring.dropFirst())
    where (a.y > p.y) != (b.y > p.y) && p.x < a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x) {
      inside.toggle()
    }
    return inside
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
