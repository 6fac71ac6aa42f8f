import Device
import Foundation
import Geo
import SimKernel

/// `geosim bench map`: the map view's conversions between screen points and coordinates
/// (target ≤ 100 ns each), on a rotated 390×844-point view over Tokyo, and reverse geocoding
/// against a gazetteer of 10,000 polygons (target ≤ 5 µs per lookup).
///
/// Baselines are the raw conversions without a camera: ``WebMercator/coordinate(of:)-(MapPoint)``
/// from a map point, and `MapPoint(_:)` from a coordinate; the camera's cost is the ratio. The
/// geocoding baseline is the gazetteer's STRtree query alone, without the polygon tests.
enum MapBenchSuite {
  static func run(_ bench: inout Bench) throws {
    let phone = Phone(simulation: Simulation(seed: 1), geos: GEOSContext(), sensor: nil)
    let tokyo = try Coordinate(latitude: 35.681236, longitude: 139.767125)
    let map = try MapView(
      phone: phone, size: Size(width: 390, height: 844),
      region: try CoordinateRegion(center: tokyo, latitudeDelta: 0.065, longitudeDelta: 0.065))
    var camera = map.camera
    camera.heading = 30
    try map.setCamera(camera, animated: false)
    var random = SplitMix64(seed: 7)
    let points = (0..<4_096).map { _ in
      Point(x: random.double(in: 0...390), y: random.double(in: 0...844))
    }
    let coordinates = try points.map { try map.convert($0) }
    let mapPoints = coordinates.map(MapPoint.init)

    bench.measure("mappoint->coordinate", inputs: 4_096) { n in
      var sum = 0.0
      for i in 0..<n {
        sum += (try? WebMercator.coordinate(of: mapPoints[i & 4_095]))?.latitude ?? 0
      }
      blackHole(sum)
    }
    bench.measure(
      "point->coordinate", baseline: "mappoint->coordinate", target: "≤ 100 ns", inputs: 4_096
    ) { n in
      var sum = 0.0
      for i in 0..<n { sum += (try? map.convert(points[i & 4_095]))?.latitude ?? 0 }
      blackHole(sum)
    }
    bench.measure("coordinate->mappoint", inputs: 4_096) { n in
      var sum = 0.0
      for i in 0..<n { sum += MapPoint(coordinates[i & 4_095]).x }
      blackHole(sum)
    }
    bench.measure(
      "coordinate->point", baseline: "coordinate->mappoint", target: "≤ 100 ns", inputs: 4_096
    ) { n in
      var sum = 0.0
      for i in 0..<n { sum += map.convert(coordinates[i & 4_095]).x }
      blackHole(sum)
    }
    try geocoding(&bench, &random)
  }

  /// A 100 × 100 grid of 16-vertex polygons (jittered octagon-like cells) around Tokyo, each
  /// naming a locality, and lookups at random points over and just beyond the grid.
  private static func geocoding(_ bench: inout Bench, _ random: inout SplitMix64) throws {
    let context = GEOSContext()
    let cell = 0.002
    var features: [GeoJSONFeature] = []
    var rings: [[Position]] = []
    var envelopes: [(envelope: Envelope, element: Int)] = []
    for row in 0..<100 {
      for column in 0..<100 {
        let cx = 139.6 + (Double(column) + 0.5) * cell
        let cy = 35.6 + (Double(row) + 0.5) * cell
        var ring = (0..<16).map { k -> Position in
          let angle = Double(k) / 16 * 2 * Double.pi
          let r = cell * 0.5 * (k % 2 == 0 ? 1.0 : 0.95)
          return Position(x: cx + r * cos(angle), y: cy + r * sin(angle))
        }
        ring.append(ring[0])
        rings.append(ring)
        let polygon = Geometry.polygon(try Polygon(rings: [ring]))
        features.append(
          GeoJSONFeature(
            geometry: polygon,
            properties: [
              "locality": .string("区\(row)"), "thoroughfare": .string("\(row)-\(column)丁目"),
            ]))
        envelopes.append((polygon.envelope!, features.count - 1))
      }
    }
    let gazetteer = try Gazetteer(features: features, context: context)
    let tree = try STRtree(envelopes, context: context)
    let lookups = try (0..<4_096).map { _ in
      try Coordinate(
        latitude: 35.6 + random.double(in: -0.01...0.21),
        longitude: 139.6 + random.double(in: -0.01...0.21))
    }
    // The brute force: each lookup against every polygon's ring.
    let covered = lookups.filter { c in
      rings.contains { GeoBenchSuite.contains($0, Position(x: c.longitude, y: c.latitude)) }
    }.count
    bench.measure("gazetteer10k.strtree-query", inputs: 4_096) { n in
      var hits = 0
      for i in 0..<n {
        let c = lookups[i & 4_095]
        let box = try! Envelope(
          minX: c.longitude, minY: c.latitude, maxX: c.longitude, maxY: c.latitude)
        hits += (try? tree.query(box).count) ?? 0
      }
      blackHole(hits)
    }
    try bench.measure(
      "gazetteer10k.reverse", baseline: "gazetteer10k.strtree-query", target: "≤ 5 µs",
      inputs: 4_096, expecting: covered
    ) { n in
      var found = 0
      for i in 0..<n where (try? gazetteer.placemark(at: lookups[i & 4_095])) != nil {
        found += 1
      }
      return found
    }
  }
}
