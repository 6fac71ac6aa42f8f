import Device
import Geo
import JSON

/// Reads one JSON object of a configuration strictly: every key must be known, every value of
/// the expected type; errors name the path from the configuration's root.
struct ConfigurationReader {
  private let members: [String: JSONValue]
  private let path: String

  /// Reads `value`, which must be an object (`null` reads as an empty object) whose keys are
  /// all in `allowed`.
  init(_ value: JSONValue, path: String = "", allowed: Set<String>)
    throws(ReferenceAppConfigurationError)
  {
    self.path = path
    switch value {
    case .null: members = [:]
    case .object(let object): members = object
    default:
      throw ReferenceAppConfigurationError(
        path: path, message: "expected a JSON object, got \(value.typeName)")
    }
    if let unknown = members.keys.filter({ !allowed.contains($0) }).sorted().first {
      throw ReferenceAppConfigurationError(
        path: join(unknown),
        message: "unknown key; expected one of \(allowed.sorted().joined(separator: ", "))")
    }
  }

  private func join(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

  private func error(_ key: String, _ message: String) -> ReferenceAppConfigurationError {
    ReferenceAppConfigurationError(path: join(key), message: message)
  }

  /// The value under `key`, `nil` when absent.
  func value(_ key: String) -> JSONValue? { members[key] }

  /// A finite number under `key` within `range`, or `nil` when absent.
  func number(_ key: String, in range: ClosedRange<Double> = -Double.infinity...Double.infinity)
    throws(ReferenceAppConfigurationError) -> Double?
  {
    guard let value = members[key] else { return nil }
    guard case .number(let n) = value, n.isFinite else {
      throw error(key, "expected a finite number, got \(value.typeName)")
    }
    guard range.contains(n) else {
      throw error(key, "expected a number in \(range.lowerBound)...\(range.upperBound), got \(n)")
    }
    return n
  }

  /// A positive finite number under `key`, or `nil` when absent.
  func positiveNumber(_ key: String) throws(ReferenceAppConfigurationError) -> Double? {
    guard let n = try number(key) else { return nil }
    guard n > 0 else { throw error(key, "expected a positive number, got \(n)") }
    return n
  }

  /// A string under `key`, or `nil` when absent; `nonEmpty` rejects `""`.
  func string(_ key: String, nonEmpty: Bool = false) throws(ReferenceAppConfigurationError)
    -> String?
  {
    guard let value = members[key] else { return nil }
    guard case .string(let s) = value else {
      throw error(key, "expected a string, got \(value.typeName)")
    }
    if nonEmpty && s.isEmpty { throw error(key, "expected a non-empty string") }
    return s
  }

  /// One of `choices` under `key`, or `nil` when absent.
  func choice(_ key: String, _ choices: [String]) throws(ReferenceAppConfigurationError)
    -> String?
  {
    guard let s = try string(key) else { return nil }
    guard choices.contains(s) else {
      throw error(
        key, "expected one of \(choices.map { "\"\($0)\"" }.joined(separator: ", ")), got \"\(s)\"")
    }
    return s
  }

  /// A boolean under `key`, or `nil` when absent.
  func bool(_ key: String) throws(ReferenceAppConfigurationError) -> Bool? {
    guard let value = members[key] else { return nil }
    guard case .bool(let b) = value else {
      throw error(key, "expected a boolean, got \(value.typeName)")
    }
    return b
  }

  /// The object under `key` read with `allowed` keys, or `nil` when absent.
  func object(_ key: String, allowed: Set<String>) throws(ReferenceAppConfigurationError)
    -> ConfigurationReader?
  {
    guard let value = members[key] else { return nil }
    guard case .object = value else {
      throw error(key, "expected a JSON object, got \(value.typeName)")
    }
    return try ConfigurationReader(value, path: join(key), allowed: allowed)
  }

  /// A required number under `key`.
  func requiredNumber(_ key: String, in range: ClosedRange<Double>)
    throws(ReferenceAppConfigurationError) -> Double
  {
    guard let n = try number(key, in: range) else { throw error(key, "missing; expected a number") }
    return n
  }

  /// `{"latitude": …, "longitude": …}` under `key`, or `nil` when absent.
  func coordinate(_ key: String) throws(ReferenceAppConfigurationError) -> Coordinate? {
    guard let object = try object(key, allowed: ["latitude", "longitude"]) else { return nil }
    let latitude = try object.requiredNumber("latitude", in: -90...90)
    let longitude = try object.requiredNumber("longitude", in: -180...180)
    // Both are in range, so the coordinate is valid.
    return try! Coordinate(latitude: latitude, longitude: longitude)
  }
}

/// Where a map app's map starts and how large it is on screen: the keys `"region"` and
/// `"mapSize"` shared by the map apps.
///
/// - `"region"`: `{"latitude", "longitude", "latitudeDelta", "longitudeDelta"}`, the region the
///   map shows at launch (all four required; deltas in degrees, positive, at most 180 and 360).
/// - `"mapSize"`: `{"width", "height"}` in points, both positive; default 390 × 844, an
///   iPhone's screen in points [?] (the articles' maps fill the screen).
struct MapConfiguration: Sendable {
  /// The region shown at launch, or `nil` for the app's own default.
  var region: CoordinateRegion?
  /// The map's size in points.
  var size = Size(width: 390, height: 844)

  static let keys: Set<String> = ["region", "mapSize"]

  /// The map view this configuration describes, on `phone` (showing `region` when given, else
  /// the configured region).
  func makeMapView(on phone: Phone, showing region: CoordinateRegion? = nil) -> MapView {
    do {
      return try MapView(phone: phone, size: size, region: region ?? self.region)
    } catch {
      preconditionFailure("the map size was validated: \(error)")
    }
  }

  init(region: CoordinateRegion? = nil) { self.region = region }

  /// Reads `"region"` and `"mapSize"` from `reader`, keeping `defaultRegion` when absent.
  init(_ reader: ConfigurationReader, defaultRegion: CoordinateRegion?)
    throws(ReferenceAppConfigurationError)
  {
    region = defaultRegion
    if let r = try reader.object(
      "region", allowed: ["latitude", "longitude", "latitudeDelta", "longitudeDelta"])
    {
      let latitude = try r.requiredNumber("latitude", in: -90...90)
      let longitude = try r.requiredNumber("longitude", in: -180...180)
      let latitudeDelta = try r.requiredNumber("latitudeDelta", in: 1e-9...180)
      let longitudeDelta = try r.requiredNumber("longitudeDelta", in: 1e-9...360)
      // Every value was range-checked above.
      region = try! CoordinateRegion(
        center: Coordinate(latitude: latitude, longitude: longitude),
        latitudeDelta: latitudeDelta, longitudeDelta: longitudeDelta)
    }
    if let s = try reader.object("mapSize", allowed: ["width", "height"]) {
      guard let width = try s.positiveNumber("width") else {
        throw ReferenceAppConfigurationError(
          path: "mapSize.width", message: "missing; expected a positive number")
      }
      guard let height = try s.positiveNumber("height") else {
        throw ReferenceAppConfigurationError(
          path: "mapSize.height", message: "missing; expected a positive number")
      }
      size = Size(width: width, height: height)
    }
  }
}
