import Cloud
import Foundation
import Geo
import JSON

/// `geosim query`: NCMB-style geo queries against a station dataset, through ``GeoDatastore``.
///
/// The dataset is imported into a fresh datastore (class `Station`, GeoPoint field `geo`, unless
/// `--class` and `--field` say otherwise) and one query runs against it. Exit codes: 0 for an
/// answer (even an empty one); 1 for an error the NCMB service itself would return, printed as
/// its code and message; 2 for a dataset that cannot be read or for arguments that do not parse.
enum QueryCommand {
  static let usage = """
    geosim query DATASET --near LAT,LON [--within D] [options]
    geosim query DATASET --box SWLAT,SWLON,NELAT,NELON [options]
    geosim query DATASET --rest JSON [options]
      runs one NCMB geo query on the stations in DATASET (a JSON array of {name, latitude,
      longitude, ...} or a CSV file with name, latitude and longitude columns, by extension).
      --near: nearest first, optionally within D (3km, 2mi or 0.01rad); --box: inside the box
      between the south-west and north-east corners, newest first; --rest: a REST request
      ({"where":...,"limit":...}) or just its where clause, as the datastore logs them.
      options: --limit N (default 100, NCMB allows 1...1000), --skip N, --field F (GeoPoint
      field, default geo), --class C (default Station), --backend strtree|brute|sqlite|memory,
      --json. Prints "count: N, returned: M", then one tab-separated line per object: objectId,
      name, latitude, longitude and, for near queries, the distance in km. --json prints
      {"count":N,"results":[{"objectId","name","latitude","longitude","distanceKilometers"}]}
      (distanceKilometers only for near queries).
      Exit 1 for an NCMB error ("geosim query: E400005: limit is not a valid value."); exit 2
      for a dataset that cannot be read ("geosim query: FILE:LINE:COLUMN: what was expected")
      or arguments that do not parse.

    """

  /// A dataset that cannot be read: printed as one line, exit code 2.
  struct DatasetError: Error {
    let message: String
  }

  static func run(_ args: inout Arguments, _ terminal: Terminal) throws -> Int32 {
    let json = args.flag("--json")
    let near = try args.option("--near")
    let within = try args.option("--within")
    let box = try args.option("--box")
    let rest = try args.option("--rest")
    let limit = try integer(try args.option("--limit"), option: "--limit")
    let skip = try integer(try args.option("--skip"), option: "--skip")
    let field = try args.option("--field") ?? "geo"
    let className = try args.option("--class") ?? "Station"
    let backend = try backendKind(try args.option("--backend") ?? "strtree")
    guard let path = args.positional() else {
      throw UsageError("geosim query: missing DATASET (see geosim --help)")
    }
    try args.finish()
    let shapes = [near, box, rest].compactMap { $0 }
    guard shapes.count == 1 else {
      throw UsageError(
        "geosim query: expected exactly one of --near, --box and --rest, found \(shapes.count)")
    }
    if within != nil && near == nil {
      throw UsageError("geosim query: --within needs --near")
    }
    do {
      var query: DatastoreQuery
      if let near {
        query = DatastoreQuery.getQuery(className: className)
        let point = try geoPoint(near, option: "--near", count: 2)[0]
        switch try distance(within) {
        case nil: query.where(field: field, nearGeoPoint: point)
        case .kilometers(let km)?:
          query.where(field: field, nearGeoPoint: point, withinKilometers: km)
        case .miles(let mi)?: query.where(field: field, nearGeoPoint: point, withinMiles: mi)
        case .radians(let r)?: query.where(field: field, nearGeoPoint: point, withinRadians: r)
        }
      } else if let box {
        query = DatastoreQuery.getQuery(className: className)
        let corners = try geoPoint(box, option: "--box", count: 4)
        query.where(field: field, withinGeoBoxFromSouthwest: corners[0], toNortheast: corners[1])
      } else {
        query = try DatastoreQuery(className: className, restJSON: try request(rest!))
      }
      if let limit { query.limit = limit }
      if let skip { query.skip = skip }

      let datastore = GeoDatastore(seed: 0, backend: backend)
      try load(path, into: datastore, className: className, field: field)
      let result = try datastore.find(query)
      terminal.write(
        json ? jsonReport(result, query, field: field) : plainReport(result, query, field: field))
      return 0
    } catch let error as DatasetError {
      terminal.writeError("geosim query: \(error.message)\n")
      return 2
    } catch let error as NCMBError {
      terminal.writeError("geosim query: \(error.code): \(error.message)\n")
      return 1
    }
  }

  // MARK: Arguments

  private static func integer(_ text: String?, option: String) throws -> Int? {
    guard let text else { return nil }
    guard let value = Int(text) else {
      throw UsageError("geosim query: \(option) '\(text)': expected an integer")
    }
    return value
  }

  private static func backendKind(_ name: String) throws -> SpatialBackendKind {
    switch name {
    case "strtree": return .strtree
    case "brute", "bruteForce": return .bruteForce
    case "sqlite": return .sqlite(directory: nil)
    case "memory", "inMemory": return .inMemory
    default:
      throw UsageError(
        "geosim query: --backend '\(name)': expected strtree, brute, sqlite or memory")
    }
  }

  /// `count / 2` GeoPoints from comma-separated latitude, longitude pairs; a pair out of range
  /// is NCMB's E403006.
  private static func geoPoint(_ text: String, option: String, count: Int) throws -> [GeoPoint] {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false)
    let numbers = parts.compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
    guard parts.count == count, numbers.count == count, numbers.allSatisfy(\.isFinite) else {
      let shape = count == 2 ? "LAT,LON" : "SWLAT,SWLON,NELAT,NELON"
      throw UsageError(
        "geosim query: \(option) '\(text)': expected \(shape) in decimal degrees")
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
    throw UsageError(
      "geosim query: --within '\(text)': expected a distance like 3km, 2mi or 0.01rad")
  }

  /// The REST request in `text`: `{"where":…,…}` as it is, or a bare where clause wrapped in
  /// one.
  private static func request(_ text: String) throws -> JSONValue {
    let document: JSONDocument
    do {
      document = try JSONDocument(parsing: text)
    } catch {
      throw UsageError("geosim query: --rest: \(error)")
    }
    if case .object(let members) = document.root, members["where"] != nil {
      return document.root
    }
    return .object(["where": document.root])
  }

  // MARK: Dataset

  private static func load(
    _ path: String, into datastore: GeoDatastore, className: String, field: String
  ) throws {
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw DatasetError(message: "\(path): cannot be read: \(error.localizedDescription)")
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw DatasetError(message: "\(path): expected UTF-8 text")
    }
    let stations: [StationRecord]
    do {
      stations =
        path.lowercased().hasSuffix(".csv")
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
