/// The PostGIS server (and, optionally, the user's own table) that a ``PostGISBackend`` queries.
public struct PostGISTarget: Hashable, Sendable {
  /// A libpq connection string: `postgresql://user:password@host:port/database` or
  /// `host=… dbname=…`. Messages print it without the password.
  public var url: String
  /// The user's table or view to query read-only; `nil` loads the datastore's points into a
  /// temporary table of the backend's own connection.
  public var table: PostGISTable?
  /// The server's limit per statement in milliseconds (PostgreSQL's `statement_timeout`);
  /// 0 for none.
  public var statementTimeoutMilliseconds: Int

  /// A target; by default GeoSim's own temporary table and a 60 s statement timeout.
  public init(url: String, table: PostGISTable? = nil, statementTimeoutMilliseconds: Int = 60_000) {
    self.url = url
    self.table = table
    self.statementTimeoutMilliseconds = statementTimeoutMilliseconds
  }

  /// The URL without its password, as messages print it.
  public var displayName: String { PostgresConnection.redacted(url) }
}

/// A user's table (or view) of points: each row one station, with a unique id and a point in
/// a `geometry(Point,4326)` or `geography(Point,4326)` column.
public struct PostGISTable: Hashable, Sendable {
  /// The schema; `public` by default.
  public var schema: String
  /// The table's or view's name.
  public var name: String
  /// The point column, `geometry` in SRID 4326 or `geography`.
  public var geometryColumn: String
  /// A column whose values are unique and not null; rows are read in its order.
  public var idColumn: String
  /// The column holding each station's name; `nil` names stations by their id.
  public var nameColumn: String?

  /// A table.
  public init(
    schema: String = "public", name: String, geometryColumn: String = "geom",
    idColumn: String = "id", nameColumn: String? = nil
  ) {
    self.schema = schema
    self.name = name
    self.geometryColumn = geometryColumn
    self.idColumn = idColumn
    self.nameColumn = nameColumn
  }

  /// `schema.name`, as messages print it.
  public var qualifiedName: String { "\(schema).\(name)" }
}
