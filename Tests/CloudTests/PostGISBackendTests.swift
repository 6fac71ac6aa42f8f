import Foundation
import Geo
import JSON
import SimKernel
import Testing

@testable import Cloud

/// The PostGIS backend on a user's own table, and its errors: each names the database (never
/// its password) and what was expected.
@Suite struct PostGISBackendTests {
  private static func message(_ body: () throws -> Void) -> String {
    do {
      try body()
    } catch let error as CloudError {
      #expect(error.code == .database, "\(error)")
      return error.message
    } catch {
      Issue.record("expected a CloudError, got \(error)")
    }
    return ""
  }

  @Test func anUnreachableServerIsNamedWithoutItsPassword() {
    let target = PostGISTarget(url: "postgresql://geosim:secret@127.0.0.1:1/stations")
    let text = Self.message { _ = try PostGISBackend(target: target) }
    #expect(text.hasPrefix("postgresql://geosim@127.0.0.1:1/stations: cannot connect: "))
    #expect(!text.contains("secret"))
    #expect(target.displayName == "postgresql://geosim@127.0.0.1:1/stations")
  }

  @Test func theClientLibraryIsLoadedWhenFirstNeededOrNamedWhenItCannotBe() throws {
    // Loaded by name at the first connection (the tool does not link it).
    let libpq = try LibPQ.load(LibPQ.fileName)
    #expect(String(cString: libpq.errorMessage(nil)).contains("NULL"))
    let text = Self.message { _ = try LibPQ.load("libgeosim-no-such-pq.so.5") }
    #expect(
      text.hasPrefix(
        "the PostGIS backend needs PostgreSQL's client library (libgeosim-no-such-pq.so.5, "
          + "Debian's libpq5), which cannot be loaded: "),
      "\(text)")
  }

  @Test func passwordsAreLeftOutOfEveryFormOfConnectionString() {
    #expect(
      PostgresConnection.redacted("postgresql://u:p%40ss@h:5432/db?sslmode=require")
        == "postgresql://u@h:5432/db?sslmode=require")
    #expect(
      PostgresConnection.redacted("postgres://h/db?user=u&password=s3cret&sslmode=disable")
        == "postgres://h/db?user=u&password-redacted&sslmode=disable")
    #expect(
      PostgresConnection.redacted("host=h dbname=db password=s3cret user=u")
        == "host=h dbname=db password-redacted user=u")
    #expect(PostgresConnection.redacted("postgresql://u@h/db") == "postgresql://u@h/db")
  }

  /// The cap a geography column's box search asks for holds every point of the box.
  @Test func theEnclosingCapOfABoxHoldsTheWholeBox() throws {
    var random = SplitMix64(seed: 8)
    for _ in 0..<2_000 {
      let a = Double.random(in: -90...90, using: &random)
      let b = Double.random(in: -90...90, using: &random)
      let bounds = try CoordinateBounds(
        south: min(a, b), west: Double.random(in: -180...180, using: &random),
        north: max(a, b), east: Double.random(in: -180...180, using: &random))
      let (center, angle) = PostGISBackend.enclosingCap(bounds)
      for _ in 0..<20 {
        let latitude = Double.random(in: bounds.south...bounds.north, using: &random)
        let span =
          bounds.crossesAntimeridian ? bounds.east + 360 - bounds.west : bounds.east - bounds.west
        let point = try Coordinate(
          latitude: latitude, longitude: bounds.west + Double.random(in: 0...span, using: &random))
        #expect(bounds.contains(point))
        let distance = greatCircleDistance(from: center, to: point, radius: 1)
        #expect(distance <= angle + 1e-12, "\(bounds) \(point)")
      }
    }
  }

  @Test(.enabled(if: PostGISTestServer.target != nil, PostGISTestServer.skipped))
  func aRoleTheServerDoesNotKnowIsRefused() throws {
    let url = PostGISTestServer.target!.url.replacingOccurrences(of: "geosim@", with: "nobody@")
    let text = Self.message { _ = try PostGISBackend(target: PostGISTarget(url: url)) }
    #expect(text.contains("cannot connect"))
    #expect(text.contains("nobody"))
  }

  /// NCMB's sphere is 6,371 km; the server's is 6,371,008.8 m, so without the margin a point
  /// exactly at the limit would be just outside the server's radius.
  @Test(.enabled(if: PostGISTestServer.target != nil, PostGISTestServer.skipped))
  func aPointExactlyAtTheLimitIsInside() throws {
    let backend = try PostGISBackend(target: PostGISTestServer.target!)
    let center = try Coordinate(latitude: 35.68, longitude: 139.76)
    let points = try (1...40).map {
      try Coordinate(latitude: 35.68 + Double($0) * 0.37, longitude: 139.76 - Double($0) * 0.21)
    }
    try backend.load(points)
    for (row, point) in points.enumerated() {
      let limit = greatCircleDistance(from: center, to: point, radius: GeoDatastore.earthRadius)
      let hits = try backend.within(distance: limit, of: center)
      #expect(hits.map(\.row) == Array(0...row), "row \(row) at \(limit) m")
    }
  }

  /// A table of the parity suite's seeded points in `column`, with a GiST index; dropped by
  /// the caller.
  private static func makeTable(_ table: String, column: String, points: [GeoPoint]) throws {
    var statements = [
      "CREATE TABLE \(table) (id int4 PRIMARY KEY, name text NOT NULL, g \(column))",
      "CREATE INDEX ON \(table) USING gist (g)",
    ]
    // Descending ids: rows are read in id order, not insertion order.
    for start in stride(from: 0, to: points.count, by: 500) {
      let values = points[start..<min(points.count, start + 500)].enumerated().map {
        let id = points.count - start - $0.offset
        return "(\(id), 'S\(id)', ST_SetSRID(ST_MakePoint(\($0.element.longitude), "
          + "\($0.element.latitude)), 4326))"
      }
      statements.append("INSERT INTO \(table) VALUES \(values.joined(separator: ", "))")
    }
    statements.append("ANALYZE \(table)")
    try PostGISBackend.run(statements, on: PostGISTestServer.target!)
  }

  @Test(
    .enabled(if: PostGISTestServer.target != nil, PostGISTestServer.skipped),
    arguments: ["geometry(Point, 4326)", "geography(Point, 4326)"])
  func aUsersTableAnswersAsBruteForceDoes(_ column: String) throws {
    let server = PostGISTestServer.target!
    var random = SplitMix64(seed: 5)
    var points = (0..<2_000).map { _ in DatastoreBackendParityTests.randomPoint(&random) }
    for (latitude, longitude) in [(90.0, 0.0), (-90.0, 45.0), (10, 180), (10, -180), (0, 179.99)] {
      points.append(try GeoPoint(latitude: latitude, longitude: longitude))
    }
    let name = PostGISTestServer.uniqueName("stations")
    try Self.makeTable(name, column: column, points: points)
    defer { try? PostGISBackend.run(["DROP TABLE \(name)"], on: server) }

    let target = PostGISTarget(
      url: server.url,
      table: PostGISTable(name: name, geometryColumn: "g", idColumn: "id", nameColumn: "name"))
    let stations = try PostGISBackend.stations(in: target)
    #expect(stations.count == points.count)
    #expect(stations.first?.name == "S1")
    #expect(stations.first?.point == points.last)
    let truth = GeoDatastore(seed: 11, backend: .bruteForce)
    let candidate = GeoDatastore(seed: 11, backend: .postgis(target))
    try truth.importStations(stations, className: "P")
    try candidate.importStations(stations, className: "P")
    try candidate.prepareIndex(className: "P", field: "geo")
    var nonEmpty = 0
    for query in DatastoreBackendParityTests.queries(seed: 9) {
      let expected = try truth.find(query)
      #expect(try candidate.find(query) == expected, "\(column): \(query.restJSON.jsonText)")
      if expected.count > 0 { nonEmpty += 1 }
    }
    #expect(nonEmpty > 100)

    // Read-only: a class that no longer holds the table's points is refused.
    try candidate.create(
      className: "P", fields: ["geo": try GeoPoint(latitude: 1, longitude: 2).json])
    let text = Self.message { try candidate.prepareIndex(className: "P", field: "geo") }
    #expect(text.contains("is read-only and its \(points.count) points are not the class's"))
  }

  @Test(.enabled(if: PostGISTestServer.target != nil, PostGISTestServer.skipped))
  func aTableThatCannotBeQueriedIsExplained() throws {
    let server = PostGISTestServer.target!
    let name = PostGISTestServer.uniqueName("bad")
    try PostGISBackend.run(
      [
        """
        CREATE TABLE \(name) (id int4, label text, mercator geometry(Point, 3857), \
        anything geometry, g geometry(Point, 4326))
        """,
        "INSERT INTO \(name) VALUES (1, 'a', NULL, 'LINESTRING(0 0, 1 1)', 'SRID=4326;POINT(1 2)')",
        "INSERT INTO \(name) VALUES (1, 'b', NULL, 'SRID=4326;POINT(1 2)', 'SRID=4326;POINT(3 4)')",
        "CREATE VIEW \(name)_slow AS SELECT id, g FROM \(name), pg_sleep(0.5)",
      ], on: server)
    defer { try? PostGISBackend.run(["DROP TABLE \(name) CASCADE"], on: server) }
    func failure(_ table: PostGISTable, timeout: Int = 60_000) -> String {
      Self.message {
        _ = try PostGISBackend.stations(
          in: PostGISTarget(url: server.url, table: table, statementTimeoutMilliseconds: timeout))
      }
    }
    let db = server.displayName
    #expect(
      failure(PostGISTable(name: "\(name)_none"))
        == "\(db): no table or view public.\(name)_none; expected an existing table or view "
        + "(check the schema and the name)")
    #expect(
      failure(PostGISTable(name: name, geometryColumn: "geo"))
        == "\(db): public.\(name) has no column 'geo' for the point; expected one of: id, label, "
        + "mercator, anything, g")
    #expect(
      failure(PostGISTable(name: name, geometryColumn: "label"))
        == "\(db): public.\(name).label is text; expected geometry(Point,4326) or "
        + "geography(Point,4326)")
    #expect(
      failure(PostGISTable(name: name, geometryColumn: "mercator"))
        == "\(db): public.\(name).mercator is geometry(Point,3857); expected geometry(Point,4326) "
        + "or geography(Point,4326)")
    #expect(
      failure(PostGISTable(name: name, geometryColumn: "anything"))
        == "\(db): public.\(name) row id=1: expected a point in anything, found LINESTRING")
    #expect(
      failure(PostGISTable(name: name, geometryColumn: "g"))
        == "\(db): public.\(name) row id=1: expected unique ids in id, found this one twice")
    #expect(
      failure(PostGISTable(name: "\(name)_slow", geometryColumn: "g"), timeout: 100).contains(
        "the statement ran longer than the statement timeout of 100 ms"))
  }
}
