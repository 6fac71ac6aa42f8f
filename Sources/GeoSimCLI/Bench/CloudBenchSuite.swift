import Cloud
import Foundation
import Geo
import SimKernel

/// `geosim bench cloud`: the simulated cloud services' hot paths.
///
/// NCMB datastore rows: the seed app's near query (3 km, limit 100) and a box query (about
/// 4 km × 4 km) through ``GeoDatastore/find(_:)``, over 10,000 and 1,000,000 synthetic
/// stations, on every spatial backend in the same run, each compared with brute force.
/// Targets for the in-memory backends (the default STRtree and PointIndex): ≤ 10 µs at 10k and
/// ≤ 50 µs at 1M.
/// Three-word address rows come first (``ThreeWordBenchSuite``).
enum CloudBenchSuite {
  static func run(_ bench: inout Bench) throws {
    try ThreeWordBenchSuite.run(&bench)
    for count in [10_000, 1_000_000] {
      try datastoreCases(&bench, count: count)
    }
  }

  private static func datastoreCases(_ bench: inout Bench, count: Int) throws {
    let label = count >= 1_000_000 ? "\(count / 1_000_000)M" : "\(count / 1_000)k"
    let stations = SyntheticStations.generate(count: count, seed: 2_024)
    let store = GeoDatastore(seed: 1, backend: .bruteForce)
    try store.importStations(stations)
    var random = SplitMix64(seed: 17)
    var nearQueries: [DatastoreQuery] = []
    var boxQueries: [DatastoreQuery] = []
    for _ in 0..<1_024 {
      // Around a station, as a user tapping near one on the map.
      let p = stations[Int(random.next() % UInt64(count))].point
      let latitude = min(89, max(-89, p.latitude + Double.random(in: -0.01...0.01, using: &random)))
      let longitude = p.longitude + Double.random(in: -0.01...0.01, using: &random)
      var near = DatastoreQuery.getQuery(className: "Station")
      near.where(
        field: "geo", nearGeoPoint: try GeoPoint(latitude: latitude, longitude: longitude),
        withinKilometers: 3)
      nearQueries.append(near)
      var box = DatastoreQuery.getQuery(className: "Station")
      box.where(
        field: "geo",
        withinGeoBoxFromSouthwest: try GeoPoint(
          latitude: latitude - 0.018, longitude: longitude - 0.022),
        toNortheast: try GeoPoint(latitude: latitude + 0.018, longitude: longitude + 0.022))
      boxQueries.append(box)
    }
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("geosim-bench-ncmb-\(ProcessInfo.processInfo.processIdentifier)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let kinds: [SpatialBackendKind] = [
      .bruteForce, .strtree, .inMemory, .sqlite(directory: directory.path),
    ]
    let scanIterations = count >= 1_000_000 ? 8 : 1 << 30
    for (shape, queries) in [("near3km", nearQueries), ("box4km", boxQueries)] {
      let baseline = "ncmb.\(shape).\(label).bruteForce"
      for kind in kinds {
        store.backendKind = kind
        try store.prepareIndex(className: "Station", field: "geo")
        let name = "ncmb.\(shape).\(label).\(kind)"
        bench.measure(
          name, baseline: kind == .bruteForce ? nil : baseline,
          maximumIterations: kind == .bruteForce ? scanIterations : 1 << 30
        ) { n in
          var found = 0
          for i in 0..<n { found &+= (try? store.find(queries[i & 1_023]).objects.count) ?? 0 }
          blackHole(found)
        }
      }
    }
  }
}
