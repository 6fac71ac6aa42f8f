import Cloud
import Foundation
import Geo
import JSON
import Referee
import SimKernel
import Testing

/// The datastore (the code under test) against the referee's NCMB semantics, written apart
/// from it: every box query, corners in either order and across the antimeridian, and every
/// near query return exactly the points the referee says they should.
@Suite struct DatastoreRefereeParityTests {
  private static func randomPoint(_ random: inout SplitMix64) -> GeoPoint {
    let latitude = asin(Double.random(in: -1...1, using: &random)) * 180 / .pi
    return
      (try? GeoPoint(latitude: latitude, longitude: Double.random(in: -180...180, using: &random)))!
  }

  private static func point(_ latitude: Double, _ longitude: Double) -> GeoPoint {
    (try? GeoPoint(latitude: latitude, longitude: longitude))!
  }

  /// Random corner pairs: anywhere (large boxes), small boxes in either corner order, and
  /// boxes with one corner on each side of the antimeridian; then the edge cases.
  private static func boxes(seed: UInt64) -> [(GeoPoint, GeoPoint)] {
    var random = SplitMix64(seed: seed)
    var boxes: [(GeoPoint, GeoPoint)] = []
    for _ in 0..<40 {
      let a = randomPoint(&random)
      let b = randomPoint(&random)
      boxes += [(a, b), (b, a)]
      let dLat = Double.random(in: 0...5, using: &random)
      let dLon = Double.random(in: 0...5, using: &random)
      let c = point(max(-90, a.latitude - dLat), a.longitude)
      let d = point(a.latitude, max(-180, a.longitude - dLon))
      boxes += [(c, a), (a, c), (d, a), (a, d)]
      let west = point(
        Double.random(in: -60...0, using: &random), Double.random(in: 170...180, using: &random))
      let east = point(
        Double.random(in: 0...60, using: &random), Double.random(in: -180 ... -170, using: &random))
      boxes += [(west, east), (east, west)]
    }
    boxes += [
      (point(35.6, 139.8), point(35.7, 139.7)), (point(35.7, 139.7), point(35.6, 139.8)),
      (point(80, -180), point(90, 180)), (point(80, 180), point(90, -180)),
      (point(0, 179.99), point(20, 180)), (point(0, 10), point(10, -170)),
      (point(-10, -170), point(10, 10)), (point(0, 0), point(0, 0)),
      (point(-90, -180), point(90, 180)),
    ]
    return boxes
  }

  private static func fill(_ store: GeoDatastore, seed: UInt64, boxes: [(GeoPoint, GeoPoint)])
    throws -> [GeoPoint]
  {
    var random = SplitMix64(seed: seed)
    var points = (0..<2_000).map { _ in randomPoint(&random) }
    // Every corner, and the antimeridian from both sides: the edges count as inside.
    points += boxes.flatMap { [$0.0, $0.1] }
    points += [point(10, 180), point(10, -180), point(90, 0), point(-90, 45), point(0, 179.99)]
    for (i, p) in points.enumerated() {
      try store.create(className: "P", fields: ["geo": p.json, "i": .number(Double(i))])
    }
    return points
  }

  /// The `i` of every object the query matches, page by page (NCMB's limit is at most 1000).
  private static func indices(_ store: GeoDatastore, _ query: DatastoreQuery) throws -> Set<Int> {
    var query = query
    query.limit = 1_000
    query.skip = 0
    var found = Set<Int>()
    while true {
      let page = try store.find(query)
      for object in page.objects {
        if case .number(let i)? = object.fields["i"] { found.insert(Int(i)) }
      }
      query.skip += query.limit
      if query.skip >= page.count { return found }
    }
  }

  @Test(arguments: [SpatialBackendKind.strtree, .bruteForce, .inMemory, .sqlite(directory: nil)])
  func boxQueriesReturnWhatTheRefereesBoxHolds(_ kind: SpatialBackendKind) throws {
    let boxes = Self.boxes(seed: 21)
    let store = GeoDatastore(seed: 3, backend: kind)
    let points = try Self.fill(store, seed: 8, boxes: boxes)
    var inverted = 0
    for (sw, ne) in boxes {
      var query = DatastoreQuery.getQuery(className: "P")
      query.where(field: "geo", withinGeoBoxFromSouthwest: sw, toNortheast: ne)
      let result = try store.find(query)
      let box = NCMBBox(
        southwestLatitude: sw.latitude, southwestLongitude: sw.longitude,
        northeastLatitude: ne.latitude, northeastLongitude: ne.longitude)
      let expected = Set(points.indices.filter { box.contains(points[$0].coordinate) })
      #expect(try Self.indices(store, query) == expected, "\(kind): \(sw) → \(ne)")
      #expect(
        result.boxNormalization
          == BoxNormalization(
            swappedLatitudes: box.swappedLatitudes, swappedLongitudes: box.swappedLongitudes),
        "\(sw) → \(ne)")
      if box.isInverted { inverted += 1 }
    }
    #expect(inverted > 100)
  }

  @Test func nearQueriesReturnWhatTheRefereesSphereHolds() throws {
    let store = GeoDatastore(seed: 3)
    let points = try Self.fill(store, seed: 8, boxes: [])
    var random = SplitMix64(seed: 17)
    for _ in 0..<30 {
      let centre = Self.randomPoint(&random)
      for km in [10.0, 800, 5_000, 20_000] {
        var query = DatastoreQuery.getQuery(className: "P")
        query.where(field: "geo", nearGeoPoint: centre, withinKilometers: km)
        let angle = NCMBSphere.radians(kilometers: km)
        let expected = Set(
          points.indices.filter {
            NCMBSphere.contains(points[$0].coordinate, within: angle, of: centre.coordinate)
          })
        #expect(try Self.indices(store, query) == expected, "\(centre) \(km) km")
      }
    }
  }
}
