import Foundation

/// The spherical Web Mercator projection (EPSG:3857) and MapKit-style map points.
///
/// Web Mercator treats WGS84 latitude and longitude as if they lay on a sphere of radius
/// ``earthRadius`` (the WGS84 semi-major axis) and projects that sphere conformally onto a
/// square: `x = R λ`, `y = R ln tan(π/4 + φ/2)`. The poles lie at infinity, so the forward
/// direction clamps latitude to ±``maximumLatitude``, where the square ends; beyond it, every
/// latitude maps onto the square's top or bottom edge.
public enum WebMercator {
  /// The sphere's radius in metres: the WGS84 semi-major axis.
  public static let earthRadius = 6_378_137.0

  /// The latitude in degrees where the projected square ends, `atan(sinh π)` ≈ 85.05112878°.
  ///
  /// At this latitude `y = ±π R`, so the projected world is as tall as it is wide.
  public static let maximumLatitude = 85.051_128_779_806_6

  /// The Web Mercator position of a coordinate in metres: `x` east and `y` north of (0°, 0°).
  ///
  /// Latitudes beyond ±``maximumLatitude`` are clamped to it, so `x` and `y` both lie in
  /// `[−π R, π R]`.
  public static func position(of coordinate: Coordinate) -> Position {
    let radiansPerDegree = Double.pi / 180
    return Position(
      x: earthRadius * coordinate.longitude * radiansPerDegree,
      y: earthRadius * mercatorY(latitude: coordinate.latitude))
  }

  /// The coordinate of a Web Mercator position in metres.
  ///
  /// `x` wraps around the world, so `x` and `x + 2π R` give the same longitude; any finite `y`
  /// has a latitude, approaching ±90° far beyond the square. Throws ``GeoError`` with code
  /// ``GeoErrorCode/invalidArgument`` unless both are finite.
  public static func coordinate(of position: Position) throws -> Coordinate {
    guard position.x.isFinite, position.y.isFinite else {
      throw GeoError(.invalidArgument, "Web Mercator position \(position) is not finite")
    }
    let degreesPerRadian = 180 / Double.pi
    return try Coordinate(
      latitude: latitude(mercatorY: position.y / earthRadius),
      longitude: position.x / earthRadius * degreesPerRadian)
  }

  /// The coordinate of a MapKit map point.
  ///
  /// `x` wraps around the world, so `x` and `x + MapPoint.worldSize` give the same longitude.
  /// Throws ``GeoError`` with code ``GeoErrorCode/invalidArgument`` unless `x` is finite and
  /// `y` lies in `[0, MapPoint.worldSize]`.
  public static func coordinate(of point: MapPoint) throws -> Coordinate {
    let w = MapPoint.worldSize
    guard point.x.isFinite, point.y.isFinite, point.y >= 0, point.y <= w else {
      throw GeoError(
        .invalidArgument,
        "map point (\(point.x), \(point.y)) needs a finite x and y in [0, \(w)]")
    }
    return try Coordinate(
      latitude: latitude(mercatorY: (0.5 - point.y / w) * 2 * Double.pi),
      longitude: point.x / w * 360 - 180)
  }

  /// The metres on the ground covered by one map point along a parallel at a latitude,
  /// like MapKit's `MKMetersPerMapPointAtLatitude`.
  ///
  /// Equal to `2π R cos φ / MapPoint.worldSize`, about 0.1493 m at the equator. The latitude
  /// is clamped to ±``maximumLatitude`` like the projection.
  public static func metersPerMapPoint(atLatitude latitude: Double) -> Double {
    let phi = min(max(latitude, -maximumLatitude), maximumLatitude) * (Double.pi / 180)
    return 2 * Double.pi * earthRadius * cos(phi) / MapPoint.worldSize
  }

  /// The map points covering one metre on the ground along a parallel at a latitude, like
  /// MapKit's `MKMapPointsPerMeterAtLatitude`.
  ///
  /// The reciprocal of ``metersPerMapPoint(atLatitude:)``.
  public static func mapPointsPerMeter(atLatitude latitude: Double) -> Double {
    1 / metersPerMapPoint(atLatitude: latitude)
  }

  /// `ln tan(π/4 + φ/2)` for a latitude in degrees clamped to ±``maximumLatitude``, where it
  /// is exactly ±π.
  ///
  /// Computed as the equal `asinh(tan φ)`, which keeps full precision near the equator.
  static func mercatorY(latitude: Double) -> Double {
    if latitude >= maximumLatitude { return Double.pi }
    if latitude <= -maximumLatitude { return -Double.pi }
    return asinh(tan(latitude * (Double.pi / 180)))
  }

  /// The latitude in degrees whose `ln tan(π/4 + φ/2)` is `y`: `atan(sinh y)`.
  static func latitude(mercatorY y: Double) -> Double {
    atan(sinh(y)) * (180 / Double.pi)
  }
}

/// A point on MapKit's flat map: Web Mercator scaled to a square ``worldSize`` points wide.
///
/// As in Apple's `MKMapPoint` documentation, `x` grows east from the antimeridian and `y` grows
/// south from the top of the map:
///
///     x = (λ + 180) / 360 · W
///     y = (½ − ln tan(π/4 + φ/2) / 2π) · W,     W = 2²⁸
///
/// so (0°, 0°) is the centre `(W/2, W/2)`. Convert back with
/// `WebMercator.coordinate(of:)`.
///
/// See https://developer.apple.com/documentation/mapkit/mkmappoint and, for the projection,
/// EPSG:3857 in the EPSG Geodetic Parameter Dataset (https://epsg.io/3857).
public struct MapPoint: Hashable, Sendable, CustomStringConvertible {
  /// The width and height of the world in map points, 2²⁸.
  public static let worldSize = 268_435_456.0

  /// Map points east of the antimeridian, in `[0, worldSize)` for a projected coordinate.
  public var x: Double
  /// Map points south of the top of the map, in `[0, worldSize]` for a projected coordinate.
  public var y: Double

  /// Creates a map point from its components.
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  /// The map point of a coordinate.
  ///
  /// Latitudes beyond ±``WebMercator/maximumLatitude`` (≈ 85.05112878°) are clamped to it, so
  /// the poles land on the top and bottom edges, `y = 0` and `y = worldSize`.
  public init(_ coordinate: Coordinate) {
    let w = MapPoint.worldSize
    x = (coordinate.longitude + 180) / 360 * w
    y = (0.5 - WebMercator.mercatorY(latitude: coordinate.latitude) / (2 * Double.pi)) * w
  }

  /// The map point as `MapPoint(x: …, y: …)`.
  public var description: String { "MapPoint(x: \(x), y: \(y))" }
}
