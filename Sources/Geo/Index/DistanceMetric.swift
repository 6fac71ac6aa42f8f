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
  /// ``GeoError`` with code ``GeoError/Code/invalidArgument`` unless `lowerBoundRadius` is a
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
      haversineDistance(a, b, radius: radius)
    }
  }

  // The WGS84 geodesic metric is added beside the geodesic solver.
}

/// The great-circle angle in radians between two coordinates on a unit sphere (haversine).
///
/// `h = sin²(Δφ/2) + cos φ₁ cos φ₂ sin²(Δλ/2)` and the angle is `2 asin(√h)`; `h` is clamped to
/// 1 so rounding near antipodes cannot leave the domain of `asin`.
func centralAngle(_ a: Coordinate, _ b: Coordinate) -> Double {
  let radiansPerDegree = Double.pi / 180
  let phi1 = a.latitude * radiansPerDegree
  let phi2 = b.latitude * radiansPerDegree
  let sinHalfDeltaPhi = sin((phi2 - phi1) / 2)
  let sinHalfDeltaLambda = sin((b.longitude - a.longitude) * radiansPerDegree / 2)
  let h =
    sinHalfDeltaPhi * sinHalfDeltaPhi + cos(phi1) * cos(phi2) * sinHalfDeltaLambda
    * sinHalfDeltaLambda
  return 2 * asin(min(1, h.squareRoot()))
}

/// The haversine distance in metres between two coordinates on a sphere of the given radius.
func haversineDistance(_ a: Coordinate, _ b: Coordinate, radius: Double) -> Double {
  radius * centralAngle(a, b)
}
