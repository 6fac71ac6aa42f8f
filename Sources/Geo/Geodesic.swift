import Foundation

/// Shortest paths (geodesics) on an ellipsoid of revolution: the inverse and direct problems.
///
/// The solution follows C. F. F. Karney, "Algorithms for geodesics", J. Geodesy 87, 43–55
/// (2013), doi:10.1007/s00190-012-0578-z. A geodesic is mapped onto a great circle of an
/// auxiliary sphere, where latitude becomes the reduced latitude β (tan β = (1 − f) tan φ); the
/// distance and longitude along it are integrals that are evaluated with series truncated at
/// order 6 in the flattening. The inverse problem is solved by Newton's method on the azimuth at
/// the first point, started from a spherical estimate, or, for nearly antipodal points, from the
/// solution of an astroid equation.
///
/// On WGS84 the errors are at the level of double-precision round-off (Karney reports about
/// 15 nanometres for the algorithm) for every pair of points, nearly antipodal and polar ones
/// included. Azimuths are in degrees clockwise from north in (−180, 180]; at a pole, "north" is
/// taken as the limit of approaching the pole along the meridian of the given longitude, the
/// convention of GeographicLib's GeodSolve.
///
/// The calculations allocate nothing, and a `Geodesic` is an immutable value that can be shared
/// freely across tasks.
///
/// ```swift
/// let tokyo = try Coordinate(latitude: 35.681236, longitude: 139.767125)
/// let shinjuku = try Coordinate(latitude: 35.690921, longitude: 139.700258)
/// let line = Geodesic.wgs84.inverse(from: tokyo, to: shinjuku)
/// // line.distance ≈ 6 147.43 m, line.initialAzimuth ≈ −79.91°
/// ```
public struct Geodesic: Sendable {
  /// The ellipsoid the geodesics lie on.
  public let ellipsoid: Ellipsoid

  // Derived constants of the ellipsoid.
  /// Equatorial radius a.
  let a: Double
  /// Flattening f.
  let f: Double
  /// 1 − f, the ratio b / a.
  let oneMinusF: Double
  /// Polar radius b.
  let b: Double
  /// Second eccentricity squared, e′² = e² / (1 − e²).
  let secondEccentricitySquared: Double
  /// Third flattening n = f / (2 − f).
  let n: Double
  /// ε for a meridian (cos α₀ = 1), used by the meridional special case.
  let meridianEpsilon: Double
  /// Below this arc length (radians on the auxiliary sphere) the spherical short-line estimate is
  /// already exact to round-off, so the inverse problem needs no iteration.
  let shortLineArc: Double
  /// The n-dependent parts of A₃ and C₃.
  let longitudeSeries: LongitudeSeries

  /// Stand-in for cos β at a pole and for other exact zeros that would leave a direction
  /// undefined; its square is still a normal number.
  static let tiny = Double.leastNormalMagnitude.squareRoot()

  /// The geodesics of the WGS84 ellipsoid.
  public static let wgs84 = Geodesic(.wgs84)

  /// Prepares geodesic calculations on `ellipsoid`, evaluating its series constants once.
  ///
  /// Creating a `Geodesic` costs a few dozen arithmetic operations; reuse it for many
  /// calculations on the same ellipsoid.
  public init(_ ellipsoid: Ellipsoid) {
    self.ellipsoid = ellipsoid
    a = ellipsoid.equatorialRadius
    f = ellipsoid.flattening
    oneMinusF = 1 - f
    b = a * oneMinusF
    let e2 = f * (2 - f)
    secondEccentricitySquared = e2 / (oneMinusF * oneMinusF)
    n = f / (2 - f)
    meridianEpsilon = Geodesic.epsilon(kSquared: secondEccentricitySquared)
    // The short-line estimate errs by about f σ² / 2 relative; keep that under 1 % of an ulp.
    shortLineArc = (0.01 * Double.ulpOfOne / (max(0.001, f) / 2)).squareRoot()
    longitudeSeries = LongitudeSeries(thirdFlattening: n)
  }

  /// The expansion parameter ε = (√(1 + k²) − 1) / (√(1 + k²) + 1), written without cancellation.
  static func epsilon(kSquared k2: Double) -> Double {
    k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
  }

  /// Solves the inverse problem: the shortest path from `from` to `to`.
  ///
  /// Returns the length of the geodesic in metres and its azimuths at both ends, in degrees
  /// clockwise from north in (−180, 180]. The final azimuth is the direction of travel on arrival
  /// (not the bearing back). Where the shortest path is not unique, as between exactly antipodal
  /// points, one of the shortest paths is returned, chosen as GeographicLib chooses it; for
  /// coincident points the distance is 0 and both azimuths point along the meridian.
  ///
  /// - Parameters:
  ///   - from: The first point.
  ///   - to: The second point.
  /// - Returns: The distance and the azimuths at both ends.
  public func inverse(from: Coordinate, to: Coordinate) -> GeodesicInverse {
    let solution = solveInverse(
      latitude1: from.latitude, longitude1: from.longitude,
      latitude2: to.latitude, longitude2: to.longitude)
    return GeodesicInverse(
      distance: solution.distance,
      initialAzimuth: AngleMath.azimuth(solution.sinAzimuth1, solution.cosAzimuth1),
      finalAzimuth: AngleMath.azimuth(solution.sinAzimuth2, solution.cosAzimuth2))
  }

  /// Solves the direct problem: where a geodesic of given start, azimuth and length ends.
  ///
  /// A negative `distance` travels backwards, in the direction `azimuth + 180°` (the returned
  /// final azimuth is still the forward direction of the geodesic at its end). Distances longer
  /// than half a meridian wrap around the ellipsoid along the same geodesic.
  ///
  /// - Parameters:
  ///   - from: The starting point.
  ///   - azimuth: The starting direction, in degrees clockwise from north (any finite value).
  ///   - distance: The length of the path in metres (any finite value).
  /// - Returns: The end point and the azimuth of the geodesic there, in (−180, 180].
  /// - Throws: ``GeoError`` with code ``GeoErrorCode/invalidArgument`` if `azimuth` or
  ///   `distance` is NaN or infinite.
  public func direct(from: Coordinate, azimuth: Double, distance: Double) throws -> GeodesicDirect {
    guard azimuth.isFinite else {
      throw GeoError(.invalidArgument, "azimuth \(azimuth) is not a finite number of degrees")
    }
    guard distance.isFinite else {
      throw GeoError(.invalidArgument, "distance \(distance) is not a finite number of metres")
    }
    let direction = AngleMath.sinCos(degrees: AngleMath.rounded(azimuth))
    let solution = solveDirect(
      latitude1: from.latitude, longitude1: from.longitude,
      sinAzimuth1: direction.sin, cosAzimuth1: direction.cos, distance: distance)
    return GeodesicDirect(
      coordinate: Coordinate(
        uncheckedLatitude: solution.latitude, longitude: solution.longitude),
      finalAzimuth: AngleMath.azimuth(solution.sinAzimuth2, solution.cosAzimuth2))
  }
}

/// The solution of the inverse geodesic problem: distance and azimuths between two points.
public struct GeodesicInverse: Hashable, Sendable {
  /// The length of the shortest path in metres.
  public let distance: Double
  /// The azimuth at the first point, in degrees clockwise from north, in (−180, 180].
  public let initialAzimuth: Double
  /// The azimuth at the second point (direction of travel on arrival), in (−180, 180].
  public let finalAzimuth: Double
}

/// The solution of the direct geodesic problem: the end point and the azimuth there.
public struct GeodesicDirect: Hashable, Sendable {
  /// The end point of the geodesic.
  public let coordinate: Coordinate
  /// The azimuth at the end point (direction of travel), in degrees clockwise from north, in
  /// (−180, 180].
  public let finalAzimuth: Double
}
