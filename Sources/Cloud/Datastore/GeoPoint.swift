import Geo
import JSON

/// A datastore GeoPoint: a latitude and longitude in degrees, as NCMB's `NCMBGeoPoint`.
///
/// NCMB (like Parse) accepts latitudes in [−90, 90] and longitudes in [−180, 180]; anything
/// else, or a non-number, is E403006 "Invalid GeoPoint value." Its JSON form is
/// `{"__type":"GeoPoint","latitude":…,"longitude":…}`.
public struct GeoPoint: Hashable, Sendable, CustomStringConvertible {
  /// Latitude in degrees, in [−90, 90].
  public let latitude: Double
  /// Longitude in degrees, in [−180, 180].
  public let longitude: Double

  /// A validated point; throws ``NCMBError/invalidGeoPoint`` outside the ranges above.
  public init(latitude: Double, longitude: Double) throws(NCMBError) {
    guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180
    else { throw .invalidGeoPoint }
    self.latitude = latitude
    self.longitude = longitude
  }

  /// Reads `{"__type":"GeoPoint","latitude":…,"longitude":…}`; anything else is E403006.
  public init(json: JSONValue) throws(NCMBError) {
    guard case .object(let members) = json, members["__type"] == .string("GeoPoint"),
      case .number(let latitude)? = members["latitude"],
      case .number(let longitude)? = members["longitude"]
    else { throw .invalidGeoPoint }
    try self.init(latitude: latitude, longitude: longitude)
  }

  /// Whether a JSON value claims to be a GeoPoint (has `"__type":"GeoPoint"`).
  static func isTagged(_ json: JSONValue) -> Bool {
    if case .object(let members) = json { return members["__type"] == .string("GeoPoint") }
    return false
  }

  /// The JSON form.
  public var json: JSONValue {
    .object([
      "__type": .string("GeoPoint"), "latitude": .number(latitude),
      "longitude": .number(longitude),
    ])
  }

  /// The point as a normalized `Coordinate` (a longitude of 180 becomes −180).
  public var coordinate: Coordinate {
    // Both values were validated, so this cannot fail.
    (try? Coordinate(latitude: latitude, longitude: longitude))!
  }

  /// `(latitude, longitude)`.
  public var description: String { "(\(latitude), \(longitude))" }
}
