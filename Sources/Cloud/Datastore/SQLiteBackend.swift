import CSQLite
import Foundation
import Geo

/// A persistent backend: SQLite's R*Tree module in a database file.
///
/// Each point is a degenerate rectangle in an `rtree(id, minLat, maxLat, minLon, maxLon,
/// +lat, +lon)` table. R*Tree stores its boxes as 32-bit floats rounded outward
/// (sqlite.org/rtree.html §4.1), so a box search returns a superset; the exact coordinates
/// are kept as auxiliary columns (SQLite ≥ 3.24) and every candidate is checked exactly with
/// the same arithmetic as ``BruteForceBackend``, which makes the answers identical.
///
/// Radius searches look up the latitude–longitude box enclosing the spherical cap (all
/// longitudes when the cap reaches a pole or is wider than a hemisphere, two ranges across the
/// antimeridian); k-nearest searches widen a cap until it holds k points.
///
/// C stays behind this class: it owns the connection and its statements, and closes them in
/// `deinit`. Like the datastore it is used from one thread.
public final class SQLiteBackend: SpatialBackend {
  private var db: OpaquePointer?
  private var select: OpaquePointer?
  private var pointCount = 0
  /// The file, or `":memory:"`.
  public let path: String

  /// Opens (creating if needed) the database at `path` and its `points` table.
  ///
  /// Throws ``CloudError`` with code ``CloudErrorCode/invalidData`` when SQLite cannot open
  /// the file or lacks the R*Tree module.
  public init(path: String) throws {
    self.path = path
    // sqlite3_open_v2 returns SQLITE_OK (0) on success and may allocate a handle even on error.
    guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK
    else {
      let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      sqlite3_close(db)
      db = nil
      throw CloudError(.invalidData, "\(path): cannot open SQLite database: \(message)")
    }
    try execute(
      "CREATE VIRTUAL TABLE IF NOT EXISTS points USING rtree(id, minLat, maxLat, minLon, maxLon, +lat, +lon)"
    )
    select = try prepare(
      "SELECT id, lat, lon FROM points WHERE maxLat >= ?1 AND minLat <= ?2 AND maxLon >= ?3 AND minLon <= ?4"
    )
    pointCount = try countRows()
  }

  deinit {
    sqlite3_finalize(select)
    sqlite3_close(db)
  }

  /// Replaces the table's contents in one transaction.
  public func load(_ points: [Coordinate]) throws {
    try execute("BEGIN")
    do {
      try execute("DELETE FROM points")
      let insert = try prepare("INSERT INTO points VALUES (?1, ?2, ?2, ?3, ?3, ?2, ?3)")
      defer { sqlite3_finalize(insert) }
      for (row, point) in points.enumerated() {
        sqlite3_bind_int64(insert, 1, Int64(row))
        sqlite3_bind_double(insert, 2, point.latitude)
        sqlite3_bind_double(insert, 3, point.longitude)
        // sqlite3_step returns SQLITE_DONE when an INSERT completes.
        guard sqlite3_step(insert) == SQLITE_DONE else { throw failure("insert") }
        sqlite3_reset(insert)
      }
      try execute("COMMIT")
    } catch {
      try? execute("ROLLBACK")
      throw error
    }
    pointCount = points.count
  }

  /// Every point within `distance` metres: candidates from the cap's box, checked exactly.
  public func within(distance: Double, of center: Coordinate) throws -> [SpatialHit] {
    let angle = distance / GeoDatastore.earthRadius
    var hits: [SpatialHit] = []
    try forEachCandidate(inCapOf: angle, around: center) { row, point in
      let d = greatCircleDistance(from: center, to: point, radius: GeoDatastore.earthRadius)
      if d <= distance { hits.append(SpatialHit(row: row, distance: d)) }
    }
    return hits.sorted(by: SpatialHit.precedes)
  }

  /// The `k` nearest points: radius searches from 1 km, widened fourfold until k are found.
  public func nearest(_ k: Int, to center: Coordinate) throws -> [SpatialHit] {
    try LonLatCover.nearest(min(k, pointCount), initialDistance: 1_000) {
      try within(distance: $0, of: center)
    }
  }

  /// The rows inside the box: one or two R*Tree range searches, checked exactly.
  public func rows(in bounds: CoordinateBounds) throws -> [Int] {
    var rows: [Int] = []
    for range in LonLatCover.ranges(in: bounds) {
      try search(range) { row, point in
        if bounds.contains(point) { rows.append(row) }
      }
    }
    // Two ranges may both hold a point on their shared edge.
    return LonLatCover.sortedUnique(rows)
  }

  // MARK: Candidates

  /// Calls `body` with every point in the latitude–longitude ranges enclosing a spherical cap,
  /// each once.
  private func forEachCandidate(
    inCapOf angle: Double, around center: Coordinate, _ body: (Int, Coordinate) -> Void
  ) throws {
    var seen = Set<Int>()
    for range in LonLatCover.ranges(inCapOf: angle, around: center) {
      try search(range) { row, point in
        if seen.insert(row).inserted { body(row, point) }
      }
    }
  }

  private func search(_ range: LonLatRange, _ body: (Int, Coordinate) -> Void) throws {
    sqlite3_bind_double(select, 1, range.south)
    sqlite3_bind_double(select, 2, range.north)
    sqlite3_bind_double(select, 3, range.west)
    sqlite3_bind_double(select, 4, range.east)
    defer { sqlite3_reset(select) }
    while true {
      // sqlite3_step returns SQLITE_ROW per row, then SQLITE_DONE; anything else is an error.
      let status = sqlite3_step(select)
      if status == SQLITE_DONE { return }
      guard status == SQLITE_ROW else { throw failure("select") }
      let row = Int(sqlite3_column_int64(select, 0))
      let latitude = sqlite3_column_double(select, 1)
      let longitude = sqlite3_column_double(select, 2)
      // The stored values came from valid Coordinates, so they are valid and normalized.
      body(row, (try? Coordinate(latitude: latitude, longitude: longitude))!)
    }
  }

  // MARK: C calls

  private func execute(_ sql: String) throws {
    // sqlite3_exec returns SQLITE_OK (0) on success.
    guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw failure(sql) }
  }

  private func prepare(_ sql: String) throws -> OpaquePointer? {
    var statement: OpaquePointer?
    // sqlite3_prepare_v2 returns SQLITE_OK and a statement, or an error code and nil.
    guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else {
      throw failure(sql)
    }
    return statement
  }

  private func countRows() throws -> Int {
    let statement = try prepare("SELECT count(*) FROM points")
    defer { sqlite3_finalize(statement) }
    guard sqlite3_step(statement) == SQLITE_ROW else { throw failure("count") }
    return Int(sqlite3_column_int64(statement, 0))
  }

  private func failure(_ what: String) -> CloudError {
    CloudError(
      .invalidData, "\(path): SQLite failed (\(what)): \(String(cString: sqlite3_errmsg(db)))")
  }
}
