/// A latitude–longitude box in degrees, which may cross the antimeridian.
///
/// The box holds every coordinate with `south ≤ latitude ≤ north` whose longitude runs east
/// from `west` to `east`. When `west > east` the box crosses the antimeridian, as map regions
/// spanning ±180° do: it holds longitudes `≥ west` together with longitudes `≤ east`. Edges are
/// inclusive, and an `east` of 180 includes the antimeridian itself, whose coordinates carry
/// the normalized longitude −180. `west = −180, east = 180` spans every longitude.
public struct CoordinateBounds: Hashable, Sendable, CustomStringConvertible {
  /// The southern edge: the smallest latitude in degrees.
  public let south: Double
  /// The western edge in degrees, in [−180, 180].
  public let west: Double
  /// The northern edge: the largest latitude in degrees.
  public let north: Double
  /// The eastern edge in degrees, in [−180, 180]; less than ``west`` across the antimeridian.
  public let east: Double

  /// Creates a box from its edges in degrees.
  ///
  /// Throws ``GeoError`` with code ``GeoErrorCode/invalidArgument`` unless every edge is
  /// finite, both latitudes lie in [−90, 90] with `south ≤ north`, and both longitudes lie in
  /// [−180, 180]. `west > east` is valid and means the box crosses the antimeridian.
  public init(south: Double, west: Double, north: Double, east: Double) throws {
    guard south.isFinite, west.isFinite, north.isFinite, east.isFinite else {
      throw GeoError(.invalidArgument, "bounds edges must be finite numbers")
    }
    guard abs(south) <= 90, abs(north) <= 90, south <= north else {
      throw GeoError(
        .invalidArgument,
        "bounds need -90 ≤ south ≤ north ≤ 90, got south \(south), north \(north)")
    }
    guard abs(west) <= 180, abs(east) <= 180 else {
      throw GeoError(
        .invalidArgument,
        "bounds longitudes must lie in [-180, 180], got west \(west), east \(east)")
    }
    self.south = south
    self.west = west
    self.north = north
    self.east = east
  }

  /// Whether the box crosses the antimeridian, that is whether `west > east`.
  public var crossesAntimeridian: Bool { west > east }

  /// Whether the box holds the coordinate; edges count as inside.
  public func contains(_ coordinate: Coordinate) -> Bool {
    let latitude = coordinate.latitude
    guard latitude >= south, latitude <= north else { return false }
    return containsLongitude(coordinate.longitude)
  }

  /// Whether a normalized longitude in [−180, 180) lies within the box's longitude span.
  func containsLongitude(_ longitude: Double) -> Bool {
    if west <= east {
      return (longitude >= west && longitude <= east) || (east == 180 && longitude == -180)
    }
    return longitude >= west || longitude <= east
  }

  /// The width of the longitude span in degrees, in [0, 360].
  var longitudeSpan: Double { west <= east ? east - west : east - west + 360 }

  /// The box's four edges in degrees.
  public var description: String {
    "CoordinateBounds(south: \(south), west: \(west), north: \(north), east: \(east))"
  }
}
