import Foundation
import Geo

/// A backend on a PostGIS server, through libpq: its GiST indexes choose candidates, and every
/// candidate is checked in Swift with the same arithmetic as ``BruteForceBackend``, so the
/// answers are identical to the other backends'.
///
/// PostGIS measures `geography` distances on the WGS84 spheroid, or with `use_spheroid :=
/// false` on a sphere of the spheroid's mean radius (6,371,008.8 m), while NCMB's sphere has a
/// radius of 6,371 km (``GeoDatastore/earthRadius``). The server is therefore only asked for a
/// superset:
///
/// - a radius search of `d` metres asks `ST_DWithin(geog, center, d′, false)` with
///   `d′ = d · R′/R · (1 + 10⁻⁶) + 1 m`, where `R′` is the server's own sphere radius,
///   measured at connection time. A point within `d` on NCMB's sphere is at most `θ = d/R`
///   radians away, so on the server's sphere at most `R′θ = d · R′/R`; the relative and absolute
///   margins cover both sides' rounding, which is below 10⁻¹² relative. A radius reaching the
///   whole sphere needs no index: every point is a candidate;
/// - k-nearest asks `ORDER BY geog <-> center LIMIT k` (the GiST KNN search), takes the largest
///   NCMB distance `D` among those k points, and runs the radius search for `D`: the k nearest
///   points are all within `D`, so the first k answers of that search are exact, ties by row
///   included;
/// - a box asks `geom && ST_MakeEnvelope(…)` for each longitude–latitude range of the box (two
///   across the antimeridian), as the ``SQLiteBackend`` does, then checks `CoordinateBounds`
///   exactly; on a `geography` column, which has no planar boxes, it asks the radius search of
///   a cap that encloses the box (see `enclosingCap`).
///
/// With GeoSim's own points (``PostGISTarget/table`` `nil`), ``PostGISBackend/load(_:)``
/// replaces a temporary table of the backend's connection in one transaction: `COPY`, then a
/// GiST index on a `geography` column for radius and nearest searches and one on a `geometry`
/// column for boxes. With a user's table the backend is read-only: ``PostGISBackend/load(_:)``
/// checks that the points given are the table's, row for row in id order (as
/// ``PostGISBackend/stations(in:)`` read them), and every query runs on the user's column and
/// indexes (a `geometry(Point,4326)` column answers radius searches with the cap's envelopes,
/// like boxes).
///
/// Every failure is a ``CloudError`` with code ``CloudErrorCode/database`` naming the database
/// (without the password) and what was expected. The backend owns one connection, closed when
/// it is released; like the datastore it is used from one thread.
public final class PostGISBackend: SpatialBackend {
  /// The server and table.
  public let target: PostGISTarget
  private let connection: PostgresConnection
  private let layout: Layout
  /// The server's sphere radius (`use_spheroid := false`), in metres.
  private let serverRadius: Double
  private var points: [Coordinate] = []
  /// A user's table: the row of each id (as text).
  private var rowOfID: [String: Int] = [:]
  /// Whether GeoSim's own table exists on the connection.
  private var loaded = false

  /// Connects to the target's server and checks that PostGIS is installed and, for a user's
  /// table, that the table, its point column and its id (and name) column exist and have the
  /// expected types.
  public init(target: PostGISTarget) throws(CloudError) {
    self.target = target
    connection = try PostgresConnection(
      url: target.url, statementTimeout: target.statementTimeoutMilliseconds)
    let name = connection.name
    let version = try connection.execute(
      "SELECT extversion FROM pg_extension WHERE extname = 'postgis'", what: "check PostGIS")
    guard version.count == 1 else {
      throw CloudError(
        .database,
        "\(name): the PostGIS extension is not installed in this database; expected "
          + "CREATE EXTENSION postgis to have run")
    }
    let quarter = try connection.execute(
      "SELECT ST_Distance('POINT(0 0)'::geography, 'POINT(0 90)'::geography, false)",
      what: "measure the server's sphere")
    let radius = (quarter.values.first?[0]).flatMap(Double.init).map { $0 / (.pi / 2) }
    guard let radius, abs(radius / GeoDatastore.earthRadius - 1) < 0.01 else {
      throw CloudError(
        .database,
        "\(name): the server's sphere radius is \(radius.map { "\($0)" } ?? "unknown"); "
          + "expected about 6,371 km")
    }
    serverRadius = radius
    if let table = target.table {
      layout = try Self.checkedLayout(table, connection)
    } else {
      layout = Layout.own
    }
  }

  // MARK: SpatialBackend

  /// GeoSim's own points: replaces the temporary table in one transaction (nothing is half
  /// imported). A user's table: checks that `points` are the table's, in id order.
  public func load(_ points: [Coordinate]) throws(CloudError) {
    if let table = target.table {
      let rows = try Self.readRows(table, layout, connection)
      guard rows.count == points.count,
        zip(rows, points).allSatisfy({ $0.coordinate == $1 })
      else {
        throw CloudError(
          .database,
          "\(connection.name): \(table.qualifiedName) is read-only and its \(rows.count) "
            + "points are not the class's \(points.count); expected the class to hold exactly "
            + "the table's stations, as read from it")
      }
      rowOfID = Dictionary(uniqueKeysWithValues: rows.enumerated().map { ($1.id, $0) })
      self.points = points
      return
    }
    try connection.execute("BEGIN", what: "load")
    do throws(CloudError) {
      if loaded {
        try connection.execute("DROP TABLE pg_temp.geosim_points", what: "load")
      }
      try connection.execute(
        """
        CREATE TEMP TABLE geosim_points (
          row int4 NOT NULL, lat float8 NOT NULL, lon float8 NOT NULL,
          geog geography(Point, 4326)
            GENERATED ALWAYS AS (ST_SetSRID(ST_MakePoint(lon, lat), 4326)::geography) STORED,
          geom geometry(Point, 4326)
            GENERATED ALWAYS AS (ST_SetSRID(ST_MakePoint(lon, lat), 4326)) STORED)
        """, what: "load")
      // Swift prints the shortest text that reads back as the same Double.
      let lines = points.enumerated().map { "\($0)\t\($1.latitude)\t\($1.longitude)\n" }
      try connection.copy(
        "COPY geosim_points (row, lat, lon) FROM STDIN", lines: lines, what: "load")
      try connection.execute(
        "CREATE INDEX geosim_points_geog ON geosim_points USING gist (geog)", what: "load")
      try connection.execute(
        "CREATE INDEX geosim_points_geom ON geosim_points USING gist (geom)", what: "load")
      try connection.execute("ANALYZE geosim_points", what: "load")
      try connection.execute("COMMIT", what: "load")
    } catch {
      _ = try? connection.execute("ROLLBACK", what: "load")
      throw error
    }
    self.points = points
    loaded = true
  }

  /// Every point within `distance` metres: candidates from the server, checked exactly.
  public func within(distance: Double, of center: Coordinate) throws(CloudError) -> [SpatialHit] {
    let rows: [Int]
    if let filter = serverDistance(for: distance) {
      rows = try candidates(within: filter, angle: distance / GeoDatastore.earthRadius, of: center)
    } else {
      rows = Array(points.indices)
    }
    var hits: [SpatialHit] = []
    for row in rows {
      let d = greatCircleDistance(from: center, to: points[row], radius: GeoDatastore.earthRadius)
      if d <= distance { hits.append(SpatialHit(row: row, distance: d)) }
    }
    return hits.sorted(by: SpatialHit.precedes)
  }

  /// The `k` nearest points: the server's KNN search bounds the distance, a radius search
  /// answers exactly.
  public func nearest(_ k: Int, to center: Coordinate) throws(CloudError) -> [SpatialHit] {
    guard k > 0, !points.isEmpty else { return [] }
    guard k < points.count else {
      return Array(try within(distance: .infinity, of: center).prefix(k))
    }
    let column = layout.nearColumn
    let sql =
      "SELECT \(layout.idSQL) FROM \(layout.relation) ORDER BY \(column.sql) <-> "
      + "\(column.point("$1", "$2")) LIMIT \(k)"
    let rows = try self.rows(
      connection.execute(sql, [text(center.longitude), text(center.latitude)], what: "nearest"))
    let bound = rows.map {
      greatCircleDistance(from: center, to: points[$0], radius: GeoDatastore.earthRadius)
    }.max()!
    return Array(try within(distance: bound, of: center).prefix(k))
  }

  /// The rows inside the box: envelope searches (or an enclosing cap), checked exactly.
  public func rows(in bounds: CoordinateBounds) throws(CloudError) -> [Int] {
    var rows: [Int] = []
    if layout.boxColumn.isGeography {
      let (center, angle) = Self.enclosingCap(bounds)
      let distance = angle * GeoDatastore.earthRadius
      if let filter = serverDistance(for: distance) {
        rows = try candidates(within: filter, angle: angle, of: center)
      } else {
        rows = Array(points.indices)
      }
    } else {
      rows = try envelopeCandidates(LonLatCover.ranges(in: bounds), what: "box query")
    }
    return rows.filter { bounds.contains(points[$0]) }.sorted()
  }

  // MARK: Candidates

  /// The distance to ask the server for so that it returns every point within `distance` on
  /// NCMB's sphere; `nil` when that reaches (nearly) the whole sphere.
  private func serverDistance(for distance: Double) -> Double? {
    let angle = distance / GeoDatastore.earthRadius
    guard angle.isFinite, angle < .pi * 0.999 else { return nil }
    return distance * (serverRadius / GeoDatastore.earthRadius) * (1 + 1e-6) + 1
  }

  /// The rows the server finds within `filter` of its sphere (a geography column) or in the
  /// envelopes of the cap of `angle` radians (a geometry column).
  private func candidates(within filter: Double, angle: Double, of center: Coordinate)
    throws(CloudError) -> [Int]
  {
    let column = layout.nearColumn
    guard column.isGeography else {
      // Widened like the server distance, so rounding cannot drop a point at the limit.
      return try envelopeCandidates(
        LonLatCover.ranges(inCapOf: angle * (1 + 1e-9), around: center), what: "near query")
    }
    let sql =
      "SELECT \(layout.idSQL) FROM \(layout.relation) WHERE ST_DWithin(\(column.sql), "
      + "\(column.point("$1", "$2")), $3::float8, false)"
    return try rows(
      connection.execute(
        sql, [text(center.longitude), text(center.latitude), text(filter)], what: "near query"))
  }

  private func envelopeCandidates(_ ranges: [LonLatRange], what: String) throws(CloudError)
    -> [Int]
  {
    var rows: [Int] = []
    let column = layout.boxColumn.sql
    let sql =
      "SELECT \(layout.idSQL) FROM \(layout.relation) WHERE \(column) && "
      + "ST_MakeEnvelope($1::float8, $2::float8, $3::float8, $4::float8, 4326)"
    // A user's table may hold longitude 180, which coordinates read as −180: a range from −180
    // also looks at 180.
    let slivers = ranges.filter { $0.west == -180 }.map {
      LonLatRange(south: $0.south, north: $0.north, west: 180, east: 180)
    }
    for range in ranges + slivers {
      let parameters = [range.west, range.south, range.east, range.north].map(text)
      rows += try self.rows(connection.execute(sql, parameters, what: what))
    }
    // Ranges may overlap or share an edge.
    return LonLatCover.sortedUnique(rows)
  }

  /// The rows of a result's first column of ids.
  private func rows(_ result: PostgresConnection.Rows) throws(CloudError) -> [Int] {
    var rows: [Int] = []
    rows.reserveCapacity(result.count)
    for values in result.values {
      let id = values[0] ?? ""
      let row = target.table == nil ? Int(id) : rowOfID[id]
      guard let row, points.indices.contains(row) else {
        throw CloudError(
          .database,
          "\(connection.name): \(target.table?.qualifiedName ?? "geosim_points") returned id "
            + "'\(id)', which was not there when it was loaded; expected the table not to "
            + "change while GeoSim reads it")
      }
      rows.append(row)
    }
    return rows
  }

  private func text(_ value: Double) -> String { "\(value)" }

  /// A spherical cap that holds the whole box: centred on the box's middle latitude and
  /// longitude, with a radius of half the latitude span plus half the longitude span times the
  /// largest cosine of a latitude in the box.
  ///
  /// Safe by the triangle inequality: a point of the box is at most half the latitude span
  /// from the middle meridian's point at its own latitude (along the meridian), and from there
  /// at most the parallel's arc, which is never shorter than the great circle.
  static func enclosingCap(_ bounds: CoordinateBounds) -> (Coordinate, Double) {
    let span =
      bounds.crossesAntimeridian ? bounds.east + 360 - bounds.west : bounds.east - bounds.west
    let middleLatitude = (bounds.south + bounds.north) / 2
    let middleLongitude = bounds.west + span / 2
    let largestCosine =
      bounds.south <= 0 && bounds.north >= 0
      ? 1 : cos(min(abs(bounds.south), abs(bounds.north)) * .pi / 180)
    let angle = ((bounds.north - bounds.south) / 2 + span / 2 * largestCosine) * .pi / 180
    // Both values are finite and the latitude is within ±90.
    let center = (try? Coordinate(latitude: middleLatitude, longitude: middleLongitude))!
    return (center, angle)
  }
}

// MARK: Tables

extension PostGISBackend {
  /// Where the points are and which columns answer which search.
  struct Layout {
    struct Column {
      /// The column's quoted name.
      let sql: String
      let isGeography: Bool

      /// The point at the longitude and latitude parameters, in the column's type.
      func point(_ longitude: String, _ latitude: String) -> String {
        let point = "ST_SetSRID(ST_MakePoint(\(longitude)::float8, \(latitude)::float8), 4326)"
        return isGeography ? "\(point)::geography" : point
      }
    }
    let relation: String
    let idSQL: String
    let nameSQL: String
    let nearColumn: Column
    let boxColumn: Column

    static let own = Layout(
      relation: "pg_temp.geosim_points", idSQL: "row::text", nameSQL: "row::text",
      nearColumn: Column(sql: "geog", isGeography: true),
      boxColumn: Column(sql: "geom", isGeography: false))
  }

  /// One row of a user's table.
  struct TableRow {
    let id: String
    let name: String
    let coordinate: Coordinate
  }

  /// The stations in a user's table, in id order: the name column (or the id) as the name,
  /// the point as the GeoPoint. Throws ``CloudError`` with code ``CloudErrorCode/database``
  /// naming the database, the table and the row for a missing table or column, a column that
  /// is not a point in SRID 4326, a NULL, a duplicate id or a coordinate out of range.
  public static func stations(in target: PostGISTarget) throws(CloudError) -> [StationRecord] {
    guard let table = target.table else {
      throw CloudError(
        .invalidArgument, "\(target.displayName): no table named to read the stations from")
    }
    let connection = try PostgresConnection(
      url: target.url, statementTimeout: target.statementTimeoutMilliseconds)
    let layout = try checkedLayout(table, connection)
    return try readRows(table, layout, connection).map {
      // A Coordinate in range is a valid GeoPoint.
      StationRecord(
        name: $0.name,
        point: (try? GeoPoint(latitude: $0.coordinate.latitude, longitude: $0.coordinate.longitude))!
      )
    }
  }

  /// Checks the table and its columns and returns where to query them.
  static func checkedLayout(_ table: PostGISTable, _ connection: PostgresConnection)
    throws(CloudError) -> Layout
  {
    let name = connection.name
    let relation =
      PostgresConnection.identifier(table.schema) + "." + PostgresConnection.identifier(table.name)
    let exists = try connection.execute(
      "SELECT to_regclass($1) IS NOT NULL", [relation], what: "look up \(table.qualifiedName)")
    guard exists.values.first?[0] == "t" else {
      throw CloudError(
        .database,
        "\(name): no table or view \(table.qualifiedName); expected an existing table or view "
          + "(check the schema and the name)")
    }
    let columns = try connection.execute(
      """
      SELECT a.attname, t.typname, format_type(a.atttypid, a.atttypmod)
      FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
      WHERE a.attrelid = to_regclass($1) AND a.attnum > 0 AND NOT a.attisdropped
      ORDER BY a.attnum
      """, [relation], what: "read the columns of \(table.qualifiedName)")
    var types: [String: (name: String, full: String)] = [:]
    for row in columns.values { types[row[0] ?? ""] = (row[1] ?? "", row[2] ?? "") }
    let known = columns.values.map { $0[0] ?? "" }.joined(separator: ", ")
    for (role, column) in [
      ("point", table.geometryColumn), ("id", table.idColumn), ("name", table.nameColumn),
    ] {
      guard let column else { continue }
      guard types[column] != nil else {
        throw CloudError(
          .database,
          "\(name): \(table.qualifiedName) has no column '\(column)' for the \(role); expected "
            + "one of: \(known)")
      }
    }
    let type = types[table.geometryColumn]!
    guard type.name == "geometry" || type.name == "geography" else {
      throw CloudError(
        .database,
        "\(name): \(table.qualifiedName).\(table.geometryColumn) is \(type.full); expected "
          + "geometry(Point,4326) or geography(Point,4326)")
    }
    // geometry(Point,4326), geography(Point,4326) or an unconstrained column, whose rows are
    // checked one by one as they are read.
    if let open = type.full.firstIndex(of: "(") {
      let modifiers = type.full[type.full.index(after: open)...].dropLast().split(separator: ",")
      let shape = modifiers.first.map { $0.lowercased() } ?? ""
      let srid =
        modifiers.count > 1 ? String(modifiers[1]) : (type.name == "geography" ? "4326" : "0")
      guard shape == "point", srid == "4326" else {
        throw CloudError(
          .database,
          "\(name): \(table.qualifiedName).\(table.geometryColumn) is \(type.full); expected "
            + "geometry(Point,4326) or geography(Point,4326)")
      }
    }
    let column = PostgresConnection.identifier(table.geometryColumn)
    let id = PostgresConnection.identifier(table.idColumn)
    let point = Layout.Column(sql: column, isGeography: type.name == "geography")
    return Layout(
      relation: relation, idSQL: "\(id)::text",
      nameSQL: table.nameColumn.map { "\(PostgresConnection.identifier($0))::text" }
        ?? "\(id)::text",
      nearColumn: point, boxColumn: point)
  }

  /// Every row of a user's table in id order, checked.
  static func readRows(_ table: PostGISTable, _ layout: Layout, _ connection: PostgresConnection)
    throws(CloudError) -> [TableRow]
  {
    let g = "\(layout.nearColumn.sql)::geometry"
    // Qualified: a bare name would sort by the output column, the id as text.
    let id = PostgresConnection.identifier(table.idColumn)
    let result = try connection.execute(
      """
      SELECT \(layout.idSQL), \(layout.nameSQL), GeometryType(\(g)), ST_SRID(\(g)),
        CASE WHEN GeometryType(\(g)) = 'POINT' THEN ST_Y(\(g)) END,
        CASE WHEN GeometryType(\(g)) = 'POINT' THEN ST_X(\(g)) END
      FROM \(layout.relation) ORDER BY \(layout.relation).\(id)
      """, what: "read \(table.qualifiedName)")
    var rows: [TableRow] = []
    rows.reserveCapacity(result.count)
    var seen = Set<String>()
    for values in result.values {
      func problem(_ what: String) -> CloudError {
        CloudError(
          .database,
          "\(connection.name): \(table.qualifiedName) row \(table.idColumn)=\(values[0] ?? "NULL"): "
            + what)
      }
      guard let id = values[0] else { throw problem("expected an id, found NULL") }
      guard seen.insert(id).inserted else {
        throw problem("expected unique ids in \(table.idColumn), found this one twice")
      }
      guard let name = values[1] else {
        throw problem("expected a name in \(table.nameColumn ?? table.idColumn), found NULL")
      }
      guard let shape = values[2] else {
        throw problem("expected a point in \(table.geometryColumn), found NULL")
      }
      guard shape == "POINT", let y = values[4].flatMap(Double.init),
        let x = values[5].flatMap(Double.init)
      else {
        throw problem("expected a point in \(table.geometryColumn), found \(shape)")
      }
      guard values[3] == "4326" else {
        throw problem("expected SRID 4326 in \(table.geometryColumn), found \(values[3] ?? "none")")
      }
      guard abs(y) <= 90, abs(x) <= 180, let coordinate = try? Coordinate(latitude: y, longitude: x)
      else {
        throw problem(
          "expected a latitude in -90...90 and a longitude in -180...180, found (\(y), \(x))")
      }
      rows.append(TableRow(id: id, name: name, coordinate: coordinate))
    }
    return rows
  }
}
