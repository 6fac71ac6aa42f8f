import Cloud
import Foundation
import Geo
import JSON
import SimKernel
import Testing

/// Every query shape against every backend on the same seeded data: the answers must equal the
/// brute-force truth, object for object and in the same order.
@Suite struct DatastoreBackendParityTests {
  static func randomPoint(_ random: inout SplitMix64) -> GeoPoint {
    let latitude = asin(Double.random(in: -1...1, using: &random)) * 180 / .pi
    return
      (try? GeoPoint(latitude: latitude, longitude: Double.random(in: -180...180, using: &random)))!
  }

  static func fill(_ store: GeoDatastore, seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    var points = (0..<2_000).map { _ in randomPoint(&random) }
    // Poles, the antimeridian on both sides, and repeated points (ties are broken by age).
    for (latitude, longitude) in [
      (90.0, 0.0), (-90.0, 45.0), (10, 180), (10, -180), (0, 179.99), (0, -179.99),
    ] {
      points.append((try? GeoPoint(latitude: latitude, longitude: longitude))!)
    }
    points += points.prefix(50)
    for (i, point) in points.enumerated() {
      try store.create(className: "P", fields: ["geo": point.json, "i": .number(Double(i))])
    }
  }

  static func queries(seed: UInt64) -> [DatastoreQuery] {
    var random = SplitMix64(seed: seed)
    var queries: [DatastoreQuery] = []
    func make(_ body: (inout DatastoreQuery) -> Void) {
      var query = DatastoreQuery.getQuery(className: "P")
      query.limit = 1_000
      body(&query)
      queries.append(query)
    }
    for _ in 0..<20 {
      let center = randomPoint(&random)
      for km in [3.0, 500, 2_500, 10_000, 20_015.1, 25_000] {
        make { $0.where(field: "geo", nearGeoPoint: center, withinKilometers: km) }
      }
      make { $0.where(field: "geo", nearGeoPoint: center, withinMiles: 1_000) }
      make { $0.where(field: "geo", nearGeoPoint: center, withinRadians: 0.3) }
      make {
        $0.where(field: "geo", nearGeoPoint: center)
        $0.limit = 37
        $0.skip = 5
      }
      let other = randomPoint(&random)
      // Both corner orders: one of them is inverted in latitude or longitude or both.
      make { $0.where(field: "geo", withinGeoBoxFromSouthwest: center, toNortheast: other) }
      make { $0.where(field: "geo", withinGeoBoxFromSouthwest: other, toNortheast: center) }
    }
    let special: [(GeoPoint, GeoPoint)] = [
      (try! GeoPoint(latitude: -20, longitude: 170), try! GeoPoint(latitude: 20, longitude: -170)),
      (try! GeoPoint(latitude: 80, longitude: -180), try! GeoPoint(latitude: 90, longitude: 180)),
      (try! GeoPoint(latitude: -90, longitude: -10), try! GeoPoint(latitude: -60, longitude: 10)),
      (try! GeoPoint(latitude: 0, longitude: 179.99), try! GeoPoint(latitude: 20, longitude: 180)),
    ]
    for (sw, ne) in special {
      make { $0.where(field: "geo", withinGeoBoxFromSouthwest: sw, toNortheast: ne) }
    }
    for pole in [90.0, -90.0, 89.999] {
      let center = try! GeoPoint(latitude: pole, longitude: 30)
      make { $0.where(field: "geo", nearGeoPoint: center, withinKilometers: 1_500) }
      make { $0.where(field: "geo", nearGeoPoint: center, withinKilometers: 20_000) }
    }
    make {
      $0.where(
        field: "geo", nearGeoPoint: try! GeoPoint(latitude: 0, longitude: 180),
        withinKilometers: 800)
    }
    return queries
  }

  @Test(arguments: [SpatialBackendKind.strtree, .inMemory, .sqlite(directory: nil)])
  func everyQueryShapeMatchesBruteForce(_ kind: SpatialBackendKind) throws {
    let truth = GeoDatastore(seed: 11, backend: .bruteForce)
    let candidate = GeoDatastore(seed: 11, backend: kind)
    try Self.fill(truth, seed: 5)
    try Self.fill(candidate, seed: 5)
    var nonEmpty = 0
    for query in Self.queries(seed: 9) {
      let expected = try truth.find(query)
      let actual = try candidate.find(query)
      #expect(actual == expected, "\(kind): \(query.restJSON.jsonText)")
      if expected.count > 0 { nonEmpty += 1 }
    }
    #expect(nonEmpty > 100)
  }

  /// k-nearest straight on the backends, on clustered points (so an estimate from the mean
  /// density starts far too small or too large) and with k beyond the point count.
  @Test(arguments: [SpatialBackendKind.strtree, .inMemory, .sqlite(directory: nil)])
  func nearestMatchesBruteForceOnClusteredPoints(_ kind: SpatialBackendKind) throws {
    var random = SplitMix64(seed: 3)
    var points: [Coordinate] = []
    for _ in 0..<500 {
      points.append(
        try Coordinate(
          latitude: 35.68 + Double.random(in: -0.01...0.01, using: &random),
          longitude: 139.76 + Double.random(in: -0.01...0.01, using: &random)))
    }
    points += [
      try Coordinate(latitude: -89.9, longitude: -179.9),
      try Coordinate(latitude: 0, longitude: 180),
    ]
    let truth = BruteForceBackend()
    truth.load(points)
    let backend = try kind.makeForTesting()
    try backend.load([])
    #expect(try backend.nearest(3, to: points[0]).isEmpty)
    #expect(try backend.within(distance: .infinity, of: points[0]).isEmpty)
    try backend.load(points)
    let centers = [points[0], points[500], try Coordinate(latitude: -35.68, longitude: -40.24)]
    for center in centers {
      for k in [1, 2, 10, 499, 501, 502, 600] {
        #expect(
          try backend.nearest(k, to: center) == truth.nearest(k, to: center), "\(kind) k=\(k)")
      }
    }
  }

  @Test(.enabled(if: PostGISTestServer.target != nil, PostGISTestServer.skipped))
  func everyQueryShapeMatchesBruteForceOnPostGIS() throws {
    try everyQueryShapeMatchesBruteForce(.postgis(PostGISTestServer.target!))
  }

  @Test(.enabled(if: PostGISTestServer.target != nil, PostGISTestServer.skipped))
  func nearestMatchesBruteForceOnClusteredPointsOnPostGIS() throws {
    try nearestMatchesBruteForceOnClusteredPoints(.postgis(PostGISTestServer.target!))
  }

  @Test func backendsFollowChangesToTheClass() throws {
    var kinds = [SpatialBackendKind.bruteForce, .strtree, .inMemory, .sqlite(directory: nil)]
    if let target = PostGISTestServer.target { kinds.append(.postgis(target)) }
    for kind in kinds {
      let store = GeoDatastore(backend: kind)
      let tokyo = try GeoPoint(latitude: 35.681236, longitude: 139.767125)
      let object = try store.create(className: "Station", fields: ["geo": tokyo.json])
      var query = DatastoreQuery.getQuery(className: "Station")
      query.where(field: "geo", nearGeoPoint: tokyo, withinKilometers: 1)
      #expect(try store.count(query) == 1)
      try store.update(
        className: "Station", objectId: object.objectId,
        fields: ["geo": try GeoPoint(latitude: 0, longitude: 0).json])
      #expect(try store.count(query) == 0)
      try store.delete(className: "Station", objectId: object.objectId)
      #expect(try store.count(query) == 0)
    }
  }

  @Test func theSQLiteBackendPersistsInItsFile() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("geosim-ncmb-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("points.sqlite").path
    let points = try [
      Coordinate(latitude: 35.68, longitude: 139.76), Coordinate(latitude: 0, longitude: 0),
    ]
    do {
      let backend = try SQLiteBackend(path: path)
      try backend.load(points)
    }
    let reopened = try SQLiteBackend(path: path)
    #expect(try reopened.nearest(1, to: points[1]).map(\.row) == [1])
    #expect(throws: CloudError.self) {
      try SQLiteBackend(path: directory.appendingPathComponent("no/such/dir.sqlite").path)
    }
  }
}

extension SpatialBackendKind {
  fileprivate func makeForTesting() throws -> any SpatialBackend {
    switch self {
    case .bruteForce: BruteForceBackend()
    case .strtree: STRtreeBackend()
    case .inMemory: InMemoryIndexBackend()
    case .sqlite: try SQLiteBackend(path: ":memory:")
    case .postgis(let target): try PostGISBackend(target: target)
    }
  }
}
