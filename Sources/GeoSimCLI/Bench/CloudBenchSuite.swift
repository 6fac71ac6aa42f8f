import Cloud
import Foundation
import Geo
import SimKernel

/// `geosim bench cloud`: the simulated cloud services' hot paths.
///
/// NCMB datastore rows: the seed app's near query (3 km, limit 100) and a box query (about
/// 4 km × 4 km) through ``GeoDatastore/find(_:)``, over 10,000 and 1,000,000 synthetic
/// stations, on every spatial backend in the same run, each compared with brute force. Each
/// case cycles through 1,024 queries around random stations (256 at 1M, where the brute force
/// takes 56 ms a query), after a warm-up over all of them that builds the backend's index, and
/// each sample's count of objects found must equal the brute-force backend's.
/// Targets for the in-memory backends (STRtree and PointIndex): ≤ 10 µs at 10k and ≤ 50 µs at
/// 1M.
/// Three-word address rows come first (``ThreeWordBenchSuite``).
///
/// With a PostGIS server (`--database` or `GEOSIM_POSTGIS_URL`) the same queries also run on
/// `PostGISBackend`, in rows named `….postgis-loopback`: each query is a network round trip
/// to the server (on loopback in CI), so these rows time the server and the wire as well as
/// GeoSim. They are timed one query at a time, so that besides the median and p90 a
/// `….p99` row gives the 99th percentile. Simulated latencies stay in the simulation; these
/// are host timings, like every row of `bench`.
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
    // Fewer at 1M, where the brute force that checks them takes 56 ms a query.
    let inputs = count >= 1_000_000 ? 256 : 1_024
    for _ in 0..<inputs {
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
    var kinds: [SpatialBackendKind] = [
      .bruteForce, .strtree, .inMemory, .sqlite(directory: directory.path),
    ]
    if let database = bench.database { kinds.append(.postgis(PostGISTarget(url: database))) }
    let scanIterations = count >= 1_000_000 ? 8 : 1 << 30
    for (shape, queries) in [("near3km", nearQueries), ("box4km", boxQueries)] {
      let baseline = "ncmb.\(shape).\(label).bruteForce"
      // What every backend must find: the reference backend's answers, counted once.
      store.backendKind = .bruteForce
      let expected = try queries.reduce(0) { $0 + (try store.find($1).objects.count) }
      for kind in kinds {
        store.backendKind = kind
        var loadError: (any Error)?
        let load = Bench.time {
          do { try store.prepareIndex(className: "Station", field: "geo") } catch {
            loadError = error
          }
        }
        if let loadError { throw loadError }
        if case .postgis = kind, shape == "near3km" {
          // COPY into the temporary table, two GiST indexes and ANALYZE, in one transaction.
          bench.record("ncmb.load.\(label).postgis-loopback", unit: "ms", value: load / 1e6)
        }
        let name = "ncmb.\(shape).\(label).\(kind)"
        if case .postgis = kind {
          try measureRoundTrips(
            &bench, name: "\(name)-loopback", baseline: baseline, store, queries,
            expecting: expected)
          continue
        }
        let target =
          kind == .strtree || kind == .inMemory ? count >= 1_000_000 ? "≤ 50 µs" : "≤ 10 µs" : nil
        try bench.measure(
          name, baseline: kind == .bruteForce ? nil : baseline, target: target,
          inputs: queries.count, expecting: expected,
          maximumIterations: kind == .bruteForce ? scanIterations : 1 << 30
        ) { n in
          var found = 0
          for i in 0..<n {
            found &+= (try? store.find(queries[i % queries.count]).objects.count) ?? 0
          }
          return found
        }
      }
    }
  }

  /// Each query timed on its own, after a warm-up over all of them that checks their answers:
  /// the median and p90, and the p99 as a row of its own.
  private static func measureRoundTrips(
    _ bench: inout Bench, name: String, baseline: String, _ store: GeoDatastore,
    _ queries: [DatastoreQuery], expecting expected: Int
  ) throws {
    var found = 0
    for query in queries { found += (try store.find(query)).objects.count }
    guard found == expected else {
      throw BenchCheckFailure("\(name): found \(found) objects, the brute force \(expected)")
    }
    let count = bench.quick ? 64 : queries.count
    var samples: [Double] = []
    for query in queries.prefix(count) {
      samples.append(Bench.time { blackHole(try? store.find(query)) })
    }
    bench.record(samples: samples, as: name, baseline: baseline)
    let sorted = samples.sorted()
    bench.record(
      "\(name).p99", unit: "ns/op",
      value: sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))])
  }
}
