/// A geographic position on the WGS84 ellipsoid, in degrees.
///
/// Latitude is in [−90, 90]; longitude is normalized into [−180, 180), so `180` becomes `−180`
/// and `190` becomes `−170`. Creating a coordinate from NaN, an infinity or a latitude beyond
/// ±90° throws ``GeoError`` with code ``GeoErrorCode/invalidCoordinate``.
public struct Coordinate: Hashable, Sendable, CustomStringConvertible {
  /// Geodetic latitude in degrees, positive north.
  public let latitude: Double
  /// Longitude in degrees, positive east, in [−180, 180).
  public let longitude: Double

  /// Creates a validated coordinate, normalizing the longitude into [−180, 180).
  public init(latitude: Double, longitude: Double) throws {
    guard latitude.isFinite, abs(latitude) <= 90 else {
      throw GeoError(.invalidCoordinate, "latitude \(latitude) is not a finite number in [-90, 90]")
    }
    guard longitude.isFinite else {
      throw GeoError(.invalidCoordinate, "longitude \(longitude) is not a finite number")
    }
    self.latitude = latitude
    self.longitude = Coordinate.normalizedLongitude(longitude)
  }

  /// Creates a coordinate from values already known to be valid and normalized.
  package init(uncheckedLatitude latitude: Double, longitude: Double) {
    self.latitude = latitude
    self.longitude = longitude
  }

  /// Maps any finite longitude into [−180, 180).
  static func normalizedLongitude(_ longitude: Double) -> Double {
    if longitude >= -180 && longitude < 180 { return longitude }
    // IEEE remainder is exact for every finite input and lands in [−180, 180]; shifting by
    // 180 first would round away whole degrees once the input is above about 1e15.
    let x = longitude.remainder(dividingBy: 360)
    return x >= 180 ? -180 : x
  }

  /// A readable rendering for messages and logs.
  public var description: String { "(\(latitude), \(longitude))" }
}

extension Coordinate: Codable {
  private enum CodingKeys: String, CodingKey {
    case latitude
    case longitude
  }

  /// Decodes `{"latitude": …, "longitude": …}`, validating both values.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let latitude = try container.decode(Double.self, forKey: .latitude)
    let longitude = try container.decode(Double.self, forKey: .longitude)
    do {
      try self.init(latitude: latitude, longitude: longitude)
    } catch let error as GeoError {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(codingPath: container.codingPath, debugDescription: error.message))
    }
  }

  /// Encodes as `{"latitude": …, "longitude": …}`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(latitude, forKey: .latitude)
    try container.encode(longitude, forKey: .longitude)
  }
}
