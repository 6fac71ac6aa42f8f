import Foundation
import JSON

/// A GeoJSON feature: a geometry (or none) with free-form properties.
public struct GeoJSONFeature: Hashable, Sendable {
  /// The feature's `id` member, a string or a number, if present.
  public var id: JSONValue?
  /// The geometry, or `nil` for `"geometry": null`.
  public var geometry: Geometry?
  /// The `properties` member (`nil` for absent or `null`).
  public var properties: [String: JSONValue]?

  /// Creates a feature.
  public init(
    id: JSONValue? = nil, geometry: Geometry?, properties: [String: JSONValue]? = nil
  ) {
    self.id = id
    self.geometry = geometry
    self.properties = properties
  }
}

/// Reading and writing GeoJSON (RFC 7946).
///
/// Reading is strict. The text is read by `JSONDocument` (no trailing commas, duplicate keys,
/// leading zeros or comments), and every problem is named by the file, the line and column and
/// the path inside the document, such as
/// `areas.geojson:12:7: features[3].geometry.coordinates[0][4]: expected a number, got a string`:
/// positions need 2 or 3 numbers with longitude in [−180, 180] and latitude in [−90, 90], line
/// strings two or more positions, rings four or more with the last equal to the first. Members
/// GeoSim does not use (`bbox`, foreign members) are accepted and not kept. Writing follows
/// RFC 7946: exterior rings counter-clockwise, holes clockwise, numbers with the shortest digits
/// that read back exactly, object keys sorted.
public enum GeoJSON {
  /// Reads a GeoJSON geometry object, or the geometry of a Feature; `file` names the text in
  /// errors (`<GeoJSON>` when it is not given).
  ///
  /// - Throws: ``GeoError`` with code ``GeoErrorCode/invalidFormat`` naming the file, line,
  ///   column and path of the first problem.
  public static func geometry(from data: Data, file: String? = nil) throws -> Geometry {
    let document = try parse(data, file: file)
    return try reading(document, file: file) { try geometry(in: document.root, at: .root) }
  }

  /// Reads the features of a FeatureCollection; a single Feature or a bare geometry is read as
  /// a one-element list. `file` names the text in errors (`<GeoJSON>` when it is not given).
  ///
  /// - Throws: ``GeoError`` with code ``GeoErrorCode/invalidFormat`` naming the file, line,
  ///   column and path of the first problem.
  public static func features(from data: Data, file: String? = nil) throws -> [GeoJSONFeature] {
    let document = try parse(data, file: file)
    return try reading(document, file: file) { try features(in: document.root) }
  }

  /// A problem at a path inside a GeoJSON value, before it is placed in a file.
  package struct Problem: Error {
    /// Where the problem is, from the value that was being read.
    package let path: JSONPath
    /// What was expected.
    package let message: String
  }

  /// Reads a geometry object, or the geometry of a Feature, that sits at `path` inside a larger
  /// document (a scenario's area), so that the caller can place problems in its own file.
  ///
  /// - Throws: ``Problem`` with the full path of the offending value.
  package static func geometry(in value: JSONValue, at path: JSONPath) throws(Problem)
    -> Geometry
  {
    do {
      let at = Path(path)
      if case .object(let object) = value, case .string("Feature") = object["type"] {
        guard let geometry = try feature(value, at: at).geometry else {
          throw at.member("geometry").error("expected a geometry, got null")
        }
        return geometry
      }
      return try geometry(value, at: at)
    } catch let problem as Problem {
      throw problem
    } catch {
      throw Problem(path: path, message: "\(error)")
    }
  }

  // MARK: Reading

  private static func features(in root: JSONValue) throws -> [GeoJSONFeature] {
    let path = Path()
    let object = try path.object(root)
    switch try path.string(object["type"], member: "type") {
    case "FeatureCollection":
      let featuresPath = path.member("features")
      return try featuresPath.array(object["features"]).enumerated().map {
        try feature($1, at: featuresPath.index($0))
      }
    case "Feature":
      return [try feature(root, at: path)]
    default:
      return [GeoJSONFeature(geometry: try geometry(root, at: path))]
    }
  }

  private static func parse(_ data: Data, file: String?) throws -> JSONDocument {
    do {
      return try JSONDocument(parsing: data)
    } catch {
      throw GeoError(.invalidFormat, error.message(in: file ?? "<GeoJSON>"))
    }
  }

  /// Runs `read`, turning a ``Problem`` into a ``GeoError`` placed in `file`.
  private static func reading<T>(_ document: JSONDocument, file: String?, _ read: () throws -> T)
    throws -> T
  {
    do {
      return try read()
    } catch let problem as Problem {
      throw GeoError(
        .invalidFormat,
        "\(document.place(of: problem.path, in: file ?? "<GeoJSON>")): \(problem.message)")
    }
  }

  static func feature(_ value: JSONValue, at path: Path) throws -> GeoJSONFeature {
    let object = try path.object(value)
    let type = try path.string(object["type"], member: "type")
    guard type == "Feature" else {
      throw path.member("type").error("expected \"Feature\", got \"\(type)\"")
    }
    var geometry: Geometry?
    switch object["geometry"] {
    case nil: throw path.error("a Feature needs a \"geometry\" member (it may be null)")
    case .null?: geometry = nil
    case let g?: geometry = try Self.geometry(g, at: path.member("geometry"))
    }
    var properties: [String: JSONValue]?
    switch object["properties"] {
    case nil, .null?: properties = nil
    case .object(let members)?: properties = members
    case let other?:
      throw path.member("properties").error("expected an object or null, got \(other.typeName)")
    }
    let id = object["id"]
    switch id {
    case nil, .string?, .number?: break
    case let other?:
      throw path.member("id").error("expected a string or number, got \(other.typeName)")
    }
    return GeoJSONFeature(id: id, geometry: geometry, properties: properties)
  }

  static func geometry(_ value: JSONValue, at path: Path) throws -> Geometry {
    let object = try path.object(value)
    let type = try path.string(object["type"], member: "type")
    if type == "GeometryCollection" {
      let members = path.member("geometries")
      return .geometryCollection(
        try members.array(object["geometries"]).enumerated().map {
          try geometry($1, at: members.index($0))
        })
    }
    let at = path.member("coordinates")
    guard let coordinates = object["coordinates"] else {
      throw path.error("a \(type) needs a \"coordinates\" member")
    }
    switch type {
    case "Point": return .point(try position(coordinates, at: at))
    case "MultiPoint":
      return .multiPoint(
        try at.array(coordinates).enumerated().map { try position($1, at: at.index($0)) })
    case "LineString": return .lineString(try lineString(coordinates, at: at))
    case "MultiLineString":
      return .multiLineString(
        try at.array(coordinates).enumerated().map { try lineString($1, at: at.index($0)) })
    case "Polygon": return .polygon(try polygon(coordinates, at: at))
    case "MultiPolygon":
      return .multiPolygon(
        try at.array(coordinates).enumerated().map { try polygon($1, at: at.index($0)) })
    default:
      throw path.member("type").error(
        "expected a geometry type (Point, MultiPoint, LineString, MultiLineString, Polygon, MultiPolygon, GeometryCollection), got \"\(type)\""
      )
    }
  }

  static func position(_ value: JSONValue, at path: Path) throws -> Position {
    let numbers = try path.array(value)
    guard numbers.count == 2 || numbers.count == 3 else {
      throw path.error(
        "a position needs 2 or 3 numbers [longitude, latitude, elevation?], got \(numbers.count)")
    }
    var values: [Double] = []
    for (i, n) in numbers.enumerated() {
      guard case .number(let d) = n else {
        throw path.index(i).error("expected a number, got \(n.typeName)")
      }
      values.append(d)
    }
    guard (-180...180).contains(values[0]) else {
      throw path.index(0).error("longitude \(values[0]) is outside [-180, 180]")
    }
    guard (-90...90).contains(values[1]) else {
      throw path.index(1).error("latitude \(values[1]) is outside [-90, 90]")
    }
    return Position(x: values[0], y: values[1], z: values.count == 3 ? values[2] : nil)
  }

  private static func positions(_ value: JSONValue, at path: Path) throws -> [Position] {
    try path.array(value).enumerated().map { try position($1, at: path.index($0)) }
  }

  private static func lineString(_ value: JSONValue, at path: Path) throws -> LineString {
    do {
      return try LineString(positions(value, at: path))
    } catch let error as GeoError where error.code == .invalidGeometry {
      throw path.error(error.message)
    }
  }

  private static func polygon(_ value: JSONValue, at path: Path) throws -> Polygon {
    let rings = try path.array(value).enumerated().map { i, ring in
      let ringPath = path.index(i)
      do {
        return try LinearRing(positions(ring, at: ringPath))
      } catch let error as GeoError where error.code == .invalidGeometry {
        throw ringPath.error(error.message)
      }
    }
    guard let exterior = rings.first else { return try Polygon(rings: []) }
    do {
      return try Polygon(exterior: exterior, holes: Array(rings.dropFirst()))
    } catch let error as GeoError {
      throw path.error(error.message)
    }
  }

  /// A place inside a GeoJSON document, for error messages.
  struct Path {
    var path: JSONPath

    init(_ path: JSONPath = .root) { self.path = path }

    func member(_ name: String) -> Path { Path(path.appending(key: name)) }
    func index(_ i: Int) -> Path { Path(path.appending(index: i)) }

    func error(_ message: String) -> Problem {
      Problem(path: path, message: message)
    }

    func object(_ value: JSONValue) throws -> [String: JSONValue] {
      guard case .object(let members) = value else {
        throw error("expected an object, got \(value.typeName)")
      }
      return members
    }

    func array(_ value: JSONValue?) throws -> [JSONValue] {
      guard let value else { throw error("missing; expected an array") }
      guard case .array(let values) = value else {
        throw error("expected an array, got \(value.typeName)")
      }
      return values
    }

    func string(_ value: JSONValue?, member: String) throws -> String {
      guard let value else { throw error("missing \"\(member)\" member") }
      guard case .string(let s) = value else {
        throw self.member(member).error("expected a string, got \(value.typeName)")
      }
      return s
    }
  }
}
