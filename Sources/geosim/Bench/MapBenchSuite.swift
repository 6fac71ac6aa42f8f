import Device
import Geo
import SimKernel

/// `geosim bench map`: the map view's conversions between screen points and coordinates
/// (target ≤ 100 ns each), on a rotated 390×844-point view over Tokyo.
///
/// Baselines are the raw conversions without a camera: ``WebMercator/coordinate(of:)-(MapPoint)``
/// from a map point, and `MapPoint(_:)` from a coordinate. The camera's cost is the ratio.
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

    bench.measure("mappoint->coordinate") { n in
      var sum = 0.0
      for i in 0..<n {
        sum += (try? WebMercator.coordinate(of: mapPoints[i & 4_095]))?.latitude ?? 0
      }
      blackHole(sum)
    }
    bench.measure("point->coordinate", baseline: "mappoint->coordinate") { n in
      var sum = 0.0
      for i in 0..<n { sum += (try? map.convert(points[i & 4_095]))?.latitude ?? 0 }
      blackHole(sum)
    }
    bench.measure("coordinate->mappoint") { n in
      var sum = 0.0
      for i in 0..<n { sum += MapPoint(coordinates[i & 4_095]).x }
      blackHole(sum)
    }
    bench.measure("coordinate->point", baseline: "coordinate->mappoint") { n in
      var sum = 0.0
      for i in 0..<n { sum += map.convert(coordinates[i & 4_095]).x }
      blackHole(sum)
    }
  }
}
