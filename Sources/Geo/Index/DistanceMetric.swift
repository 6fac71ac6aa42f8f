import Foundation

/// A distance between coordinates in metres, with a bound that lets an index prune by angle.
///
/// A metric pairs a `distance` function with a ``lowerBoundRadius`` that must satisfy, for every
/// pair of coordinates `a` and `b`,
///
///     distance(a, b) ≥ lowerBoundRadius × centralAngle(a, b)
///
/// where `centralAngle` is the great-circle angle in radians between `a` and `b` computed from
/// their latitudes and longitudes as if they lay on a unit sphere. ``PointIndex`` stores points
/// as unit vectors; since a chord never exceeds its arc, `lowerBoundRadius` times the Euclidean
/// distance from a query's unit vector to a node's bounding box bounds the metric from below
/// for every point in that node, and the index evaluates `distance` only where that bound could
/// beat the current answer. A larger `lowerBoundRadius` prunes more; `0` is always valid but
/// makes every query visit every point.
///
/// The index tolerates the rounding of a well-implemented metric (it relaxes the bound by a
/// relative 1e-9 and an absolute 1e-12 rad, about 6 µm on the Earth), but a metric that breaks
/// the contract by more than that can make queries miss points.
///
/// The WGS84 geodesic satisfies the contract with `lowerBoundRadius = a(1 − e²) ≈ 6,335,439 m`,
/// the smallest meridional radius of curvature. In geodetic latitude φ and longitude λ the
/// ellipsoid's metric is `ds² = M²dφ² + N²cos²φ dλ²`, with meridional radius `M ≥ a(1 − e²)`
/// and prime-vertical radius `N ≥ a ≥ a(1 − e²)`, so it dominates pointwise the metric of a
/// sphere of radius `a(1 − e²)` in the same coordinates; every curve, and so the geodesic, is
/// therefore at least `a(1 − e²)` times the central angle.
public struct DistanceMetric: Sendable {
  /// A radius in metres such that `distance(a, b) ≥ lowerBoundRadius × centralAngle(a, b)`.
  public let lowerBoundRadius: Double
  /// The distance in metres between two coordinates; non-negative, finite and symmetric.
  public let distance: @Sendable (Coordinate, Coordinate) -> Double

  /// Creates a custom metric from a distance function and a radius bounding it from below.
  ///
  /// The caller promises that `distance(a, b) ≥ lowerBoundRadius × centralAngle(a, b)` for
  /// every pair (see ``DistanceMetric``); pass `0` when no such radius is known. Throws
  /// ``GeoError`` with code ``GeoErrorCode/invalidArgument`` unless `lowerBoundRadius` is a
  /// finite number ≥ 0.
  public init(
    lowerBoundRadius: Double, distance: @escaping @Sendable (Coordinate, Coordinate) -> Double
  ) throws {
    guard lowerBoundRadius.isFinite, lowerBoundRadius >= 0 else {
      throw GeoError(
        .invalidArgument, "lowerBoundRadius \(lowerBoundRadius) is not a finite number ≥ 0")
    }
    self.init(uncheckedLowerBoundRadius: lowerBoundRadius, distance: distance)
  }

  init(
    uncheckedLowerBoundRadius lowerBoundRadius: Double,
    distance: @escaping @Sendable (Coordinate, Coordinate) -> Double
  ) {
    self.lowerBoundRadius = lowerBoundRadius
    self.distance = distance
  }

  /// The great-circle distance on a sphere of the given radius, computed with the haversine
  /// formula.
  ///
  /// The haversine formula stays accurate for nearby points, where the spherical law of
  /// cosines loses digits. Its ``lowerBoundRadius`` is `radius` itself, the tightest possible.
  ///
  /// - Precondition: `radius` is a finite number > 0.
  public static func sphere(radius: Double) -> DistanceMetric {
    precondition(
      radius.isFinite && radius > 0, "sphere radius \(radius) is not a finite number > 0")
    return DistanceMetric(uncheckedLowerBoundRadius: radius) { a, b in
      greatCircleDistance(from: a, to: b, radius: radius)
    }
  }

  /// The WGS84 geodesic distance (``Geodesic/inverse(from:to:)``), with
  /// ``lowerBoundRadius`` = a(1 − e²), the smallest meridional radius of curvature (see above).
  public static let geodesic = DistanceMetric(
    uncheckedLowerBoundRadius: Ellipsoid.wgs84.equatorialRadius
      * (1 - Ellipsoid.wgs84.flattening * (2 - Ellipsoid.wgs84.flattening))
  ) { a, b in
    Geodesic.wgs84.inverse(from: a, to: b).distance
  }
}
