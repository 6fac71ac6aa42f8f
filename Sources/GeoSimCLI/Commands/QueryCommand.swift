import ArgumentParser
import Cloud
import Errors
import Foundation
import Geo
import JSON

/// `geosim query`: NCMB-style geo queries against a station dataset, through ``GeoDatastore``.
///
/// The dataset is imported into a fresh datastore (class `Station`, GeoPoint field `geo`, unless
/// `--class` and `--field` say otherwise) and one query runs against it. Exit codes: 0 for an
/// answer (even an empty one); 1 for an error the NCMB service itself would return, printed as
/// its code and message; 2 for a dataset that cannot be read or for arguments that do not parse.
struct QueryCommand: ToolCommand {
  static var configuration: CommandConfiguration {
    let name = ToolIdentity.current.name
    return CommandConfiguration(
      commandName: "query",
      abstract: "Run an NCMB geo query (near, box or REST) on a station dataset.",
      usage: """
        \(name) query <dataset> --near <lat,lon> [--within <distance>] [<options>]
        \(name) query <dataset> --box <swlat,swlon,nelat,nelon> [<options>]
        \(name) query <dataset> --rest <json> [<options>]
        \(name) query --backend postgis --database <url> --table <schema.table> --near ... [<options>]
        """,
      discussion: """
        Runs one NCMB geo query on the stations in the dataset (a JSON array of {name, latitude, \
        longitude, ...} or a CSV file with name, latitude and longitude columns). --near: nearest \
        first, optionally within a distance; --box: inside the box between the south-west and \
        north-east corners; --rest: a REST request ({"where":...,"limit":...}) or just its where \
        clause, as the datastore logs them. Prints "count: N, returned: M", then one \
        tab-separated line per object: objectId, name, latitude, longitude and, for near \
        queries, the distance in km; --json prints {"count":N,"results":[{"objectId","name",\
        "latitude","longitude","distanceKilometers"}]}. Exit 1 for an error the NCMB service itself \
        would return ("E400005: limit is not a valid value."); exit 2 for a dataset that cannot \
        be read (FILE:LINE:COLUMN: what was expected) or arguments that do not parse. \
        --backend postgis runs the query on a PostGIS server (--database): the dataset is \
        loaded into a temporary table in one transaction, or, with --table and no dataset, the \
        stations are the rows of the user's own table, queried read-only on its own column and \
        indexes. A server that cannot be reached, refuses the credentials or lacks the table or \
        column, or a statement past --statement-timeout, is exit 2, naming the database.
        """)
  }

  @Argument(
    help: ArgumentHelp(
      "The stations: a JSON or CSV file (by extension), or - for standard input (JSON when it "
        + "starts with '[', else CSV).",
      valueName: "dataset"))
  var dataset: String?

  // Unconditional, so that a southern or western coordinate (-33.87,151.21) is a value; a
  // value that is an option is refused in validate().
  @Option(
    parsing: .unconditional,
    help: ArgumentHelp("Nearest first, from this point.", valueName: "lat,lon"))
  var near: String?

  @Option(
    help: ArgumentHelp("With --near: only within 3km, 2mi or 0.01rad.", valueName: "distance"))
  var within: String?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp("Inside this box, newest first.", valueName: "swlat,swlon,nelat,nelon"))
  var box: String?

  @Option(help: ArgumentHelp("A REST request or its where clause.", valueName: "json"))
  var rest: String?

  @Option(
    parsing: .unconditional,
    help: "At most this many objects (default 100, NCMB allows 1...1000).")
  var limit: Int?

  @Option(parsing: .unconditional, help: "Skip this many objects first.")
  var skip: Int?

  @Option(help: "The GeoPoint field.")
  var field = "geo"

  @Option(name: .customLong("class"), help: "The class the stations are stored in.")
  var className = "Station"

  @Option(help: "The spatial backend: strtree, brute, sqlite, memory or postgis.")
  var backend = "memory"

  @Option(
    help: ArgumentHelp(
      "With --backend postgis: the server, as postgresql://user@host:port/database.",
      valueName: "url"))
  var database: String?

  @Option(
    help: ArgumentHelp(
      "With --backend postgis: query the user's table (or view) instead of a dataset.",
      valueName: "schema.table"))
  var table: String?

  @Option(help: "With --table: its point column, geometry(Point,4326) or geography.")
  var geometryColumn = "geom"

  @Option(help: "With --table: its unique id column; rows are read in its order.")
  var idColumn = "id"

  @Option(help: "With --table: the column of station names (default: the id).")
  var nameColumn: String?

  @Option(help: "With --backend postgis: the server's limit per statement in ms (0: none).")
  var statementTimeout = 60_000

  @Flag(help: "Print the answer as JSON.")
  var json = false

  func validate() throws {
    let shapes = [near, box, rest].compactMap { $0 }
    guard shapes.count == 1 else {
      throw ValidationError(
        "expected exactly one of --near, --box and --rest, found \(shapes.count)")
    }
    if within != nil && near == nil { throw ValidationError("--within needs --near") }
    for (option, value) in [("--near", near), ("--box", box)] {
      if let value, value.hasPrefix("-"), !(value.dropFirst().first?.isNumber ?? false) {
        throw ValidationError("\(option) needs a value, not the option '\(value)'")
      }
    }
    let kind = try backendKind()
    if case .postgis(let target) = kind {
      guard (dataset == nil) != (target.table == nil) else {
        throw ValidationError(
          "--backend postgis: expected either a dataset or --table, found "
            + (dataset == nil ? "neither" : "both"))
      }
      guard statementTimeout >= 0 else {
        throw ValidationError("--statement-timeout \(statementTimeout): expected 0 or more ms")
      }
    } else {
      guard dataset != nil else {
        throw ValidationError("expected a dataset (or --backend postgis with --table)")
      }
      for (option, value) in [("--database", database), ("--table", table)] where value != nil {
        throw ValidationError("\(option) needs --backend postgis")
      }
    }
  }

  func run(in tool: ToolContext) throws -> Int32 {
    do {
      var query: DatastoreQuery
      if let near {
        query = DatastoreQuery.getQuery(className: className)
        let point = try Self.geoPoint(near, option: "--near", count: 2)[0]
        switch try Self.distance(within) {
        case nil: query.where(field: field, nearGeoPoint: point)
        case .kilometers(let km)?:
          query.where(field: field, nearGeoPoint: point, withinKilometers: km)
        case .miles(let mi)?: query.where(field: field, nearGeoPoint: point, withinMiles: mi)
        case .radians(let r)?: query.where(field: field, nearGeoPoint: point, withinRadians: r)
        }
      } else if let box {
        query = DatastoreQuery.getQuery(className: className)
        let corners = try Self.geoPoint(box, option: "--box", count: 4)
        query.where(field: field, withinGeoBoxFromSouthwest: corners[0], toNortheast: corners[1])
      } else {
        query = try DatastoreQuery(className: className, restJSON: try Self.request(rest ?? ""))
      }
      if let limit { query.limit = limit }
      if let skip { query.skip = skip }

      let kind = try backendKind()
      let datastore = GeoDatastore(seed: 0, backend: kind)
      do {
        if let dataset {
          try Self.load(dataset, into: datastore, className: className, field: field, tool)
        } else if case .postgis(let target) = kind {
          try datastore.importStations(
            try PostGISBackend.stations(in: target), className: className, geoField: field)
        }
        // A server's errors are reported here, before the query, naming the database.
        if case .postgis = kind { try datastore.prepareIndex(className: className, field: field) }
      } catch let error as CloudError {
        throw DatasetError(message: error.message)
      }
      let result = try datastore.find(query)
      tool.terminal.write(
        json
          ? Self.jsonReport(result, query, field: field)
          : Self.plainReport(result, query, field: field))
      return 0
    } catch let error as DatasetError {
      tool.terminal.writeError("\(tool.name) query: \(error.message)\n")
      return 2
    } catch let error as NCMBError {
      tool.terminal.writeError("\(tool.name) query: \(error.code): \(error.message)\n")
      return 1
    }
  }

  /// A dataset that cannot be read: printed as one line, exit code 2.
  struct DatasetError: Error {
    let message: String
  }

  // MARK: Arguments

  private func backendKind() throws -> SpatialBackendKind {
    switch backend {
    case "strtree": return .strtree
    case "brute", "bruteForce": return .bruteForce
    case "sqlite": return .sqlite(directory: nil)
    case "memory", "inMemory": return .inMemory
    case "postgis":
      guard let database else { throw ValidationError("--backend postgis needs --database") }
      var userTable: PostGISTable?
      if let table {
        let parts = table.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty }) else {
          throw ValidationError("--table '\(table)': expected TABLE or SCHEMA.TABLE")
        }
        userTable = PostGISTable(
          schema: parts.count == 2 ? String(parts[0]) : "public", name: String(parts.last!),
          geometryColumn: geometryColumn, idColumn: idColumn, nameColumn: nameColumn)
      }
      return .postgis(
        PostGISTarget(
          url: database, table: userTable, statementTimeoutMilliseconds: statementTimeout))
    default:
      throw ValidationError(
        "--backend '\(backend)': expected strtree, brute, sqlite, memory or postgis")
    }
  }

  /// `count / 2` GeoPoints from comma-separated latitude, longitude pairs; a pair out of range
  /// is NCMB's E403006.
  private static func geoPoint(_ text: String, option: String, count: Int) throws -> [GeoPoint] {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false)
    let numbers = parts.compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
    guard parts.count == count, numbers.count == count, numbers.allSatisfy(\.isFinite) else {
      let shape = count == 2 ? "LAT,LON" : "SWLAT,SWLON,NELAT,NELON"
      throw UsageError("\(option) '\(text)': expected \(shape) in decimal degrees")
    }
    var points: [GeoPoint] = []
    for i in stride(from: 0, to: count, by: 2) {
      points.append(try GeoPoint(latitude: numbers[i], longitude: numbers[i + 1]))
    }
    return points
  }

  /// `3km`, `2mi` or `0.01rad`.
  private static func distance(_ text: String?) throws -> DatastoreQuery.Distance? {
    guard let text else { return nil }
    let units: [(String, (Double) -> DatastoreQuery.Distance)] = [
      ("km", DatastoreQuery.Distance.kilometers), ("mi", DatastoreQuery.Distance.miles),
      ("rad", DatastoreQuery.Distance.radians),
    ]
    for (suffix, make) in units where text.hasSuffix(suffix) {
      if let value = Double(text.dropLast(suffix.count)), value.isFinite, value >= 0 {
        return make(value)
      }
    }
    throw UsageError("--within '\(text)': expected a distance like 3km, 2mi or 0.01rad")
  }

  /// The REST request in `text`: `{"where":…,…}` as it is, or a bare where clause wrapped in
  /// one.
  private static func request(_ text: String) throws -> JSONValue {
    let document: JSONDocument
    do {
      document = try JSONDocument(parsing: text)
    } catch {
      throw UsageError("--rest: \(error)")
    }
    if case .object(let members) = document.root, members["where"] != nil {
      return document.root
    }
    return .object(["where": document.root])
  }

  // MARK: Dataset

  private static func load(
    _ file: String, into datastore: GeoDatastore, className: String, field: String,
    _ tool: ToolContext
  ) throws {
    let path = file == "-" ? "<stdin>" : file
    let data: Data
    do {
      data = file == "-" ? tool.terminal.readAll() : Data(try readFileContents(atPath: path))
    } catch {
      throw DatasetError(message: "\(error)")
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw DatasetError(message: "\(path): expected UTF-8 text")
    }
    let stations: [StationRecord]
    // A file by its extension; standard input by its first character (JSON starts with `[`).
    let csv =
      file == "-"
      ? text.first(where: { !$0.isWhitespace && $0 != "\u{FEFF}" }) != "["
      : path.lowercased().hasSuffix(".csv")
    do {
      stations =
        csv
        ? try GeoDatastore.stations(csv: text, file: path)
        : try GeoDatastore.stations(json: text, file: path)
    } catch {
      throw DatasetError(message: error.message)
    }
    do {
      try datastore.importStations(stations, className: className, geoField: field)
    } catch {
      throw DatasetError(message: "\(path): \(error.code): \(error.message)")
    }
  }

  // MARK: Output

  private struct Row {
    let objectId: String
    let name: String?
    let point: GeoPoint?
    let kilometers: Double?
  }

  /// The rows of a result; without a geo condition the points come from `field`.
  private static func rows(_ result: DatastoreResult, _ query: DatastoreQuery, field: String)
    -> [Row]
  {
    result.objects.map { object in
      var name: String?
      if case .string(let s)? = object.fields["name"] { name = s }
      var point: GeoPoint?
      var kilometers: Double?
      switch query.geoConstraint {
      case .near(let field, let center, _)?:
        point = object.geoPoint(field)
        kilometers = point.map {
          greatCircleDistance(
            from: $0.coordinate, to: center.coordinate, radius: GeoDatastore.earthRadius) / 1000
        }
      case .box(let field, _, _)?: point = object.geoPoint(field)
      case nil: point = object.geoPoint(field)
      }
      return Row(objectId: object.objectId, name: name, point: point, kilometers: kilometers)
    }
  }

  private static func plainReport(
    _ result: DatastoreResult, _ query: DatastoreQuery, field: String
  ) -> String {
    var out = "count: \(result.count), returned: \(result.objects.count)\n"
    for row in rows(result, query, field: field) {
      var cells = [row.objectId, row.name ?? ""]
      cells.append(row.point.map { JSONText.number($0.latitude) } ?? "")
      cells.append(row.point.map { JSONText.number($0.longitude) } ?? "")
      if let km = row.kilometers { cells.append(String(format: "%.3f km", km)) }
      out += cells.joined(separator: "\t") + "\n"
    }
    return out
  }

  private static func jsonReport(
    _ result: DatastoreResult, _ query: DatastoreQuery, field: String
  ) -> String {
    let results: [JSONValue] = rows(result, query, field: field).map { row in
      var members: [String: JSONValue] = [
        "objectId": .string(row.objectId), "name": row.name.map(JSONValue.string) ?? .null,
        "latitude": row.point.map { .number($0.latitude) } ?? .null,
        "longitude": row.point.map { .number($0.longitude) } ?? .null,
      ]
      if let km = row.kilometers {
        // Rounded to millimetres, so the text does not depend on the last bit of the math library.
        members["distanceKilometers"] = .number((km * 1e6).rounded() / 1e6)
      }
      return .object(members)
    }
    let body = JSONValue.object([
      "count": .number(Double(result.count)), "results": .array(results),
    ])
    return body.jsonText + "\n"
  }
}
