/// An oblate ellipsoid of revolution, described by its equatorial radius and flattening.
///
/// The flattening is `f = (a − b) / a`, where `a` is the equatorial and `b` the polar radius.
/// Geodesic calculations on the ellipsoid use series in the third flattening
/// `n = f / (2 − f)` truncated at order 6 (Karney, "Algorithms for geodesics", J. Geodesy 87,
/// 43–55, 2013, doi:10.1007/s00190-012-0578-z). Those series are accurate to double-precision
/// round-off only for small flattenings, so the initializer accepts `0 ≤ f ≤ 0.01`: a sphere
/// (`f = 0`) and every terrestrial reference ellipsoid (WGS84 has `f ≈ 0.00335`) qualify.
public struct Ellipsoid: Hashable, Sendable {
  /// The equatorial radius `a` in metres.
  public let equatorialRadius: Double
  /// The flattening `f = (a − b) / a`; zero for a sphere.
  public let flattening: Double

  /// The largest flattening the truncated geodesic series handle to round-off accuracy.
  static let maximumFlattening = 0.01

  /// Creates an ellipsoid from its equatorial radius in metres and its flattening.
  ///
  /// Throws ``GeoError`` with code ``GeoErrorCode/invalidArgument`` unless the radius is a
  /// finite positive number and the flattening a finite number in `0…0.01`.
  public init(equatorialRadius: Double, flattening: Double) throws {
    guard equatorialRadius.isFinite, equatorialRadius > 0 else {
      throw GeoError(
        .invalidArgument,
        "equatorial radius \(equatorialRadius) is not a finite positive number of metres")
    }
    guard flattening.isFinite, flattening >= 0, flattening <= Ellipsoid.maximumFlattening else {
      throw GeoError(
        .invalidArgument,
        "flattening \(flattening) is outside 0…\(Ellipsoid.maximumFlattening)")
    }
    self.init(uncheckedEquatorialRadius: equatorialRadius, flattening: flattening)
  }

  init(uncheckedEquatorialRadius equatorialRadius: Double, flattening: Double) {
    self.equatorialRadius = equatorialRadius
    self.flattening = flattening
  }

  /// The World Geodetic System 1984 ellipsoid.
  ///
  /// `a = 6 378 137 m` and `1/f = 298.257 223 563`, as defined in NIMA TR8350.2, "Department of
  /// Defense World Geodetic System 1984", 3rd edition (2000), table 3.1.
  public static let wgs84 = Ellipsoid(
    uncheckedEquatorialRadius: 6_378_137, flattening: 1 / 298.257_223_563)

  /// The mean radius of the WGS84 ellipsoid in metres, R₁ = (2a + b) / 3 = 6 371 008.8 m to the
  /// decimetre (Moritz, "Geodetic Reference System 1980", J. Geodesy 74, 128–133, 2000): the
  /// radius of the sphere that stands in for the Earth in ``greatCircleDistance(from:to:radius:)``
  /// and in unit-vector chord bounds.
  public static let wgs84MeanRadius = 6_371_008.8

  /// The polar radius `b = a (1 − f)` in metres.
  public var polarRadius: Double { equatorialRadius * (1 - flattening) }
}
