import Foundation

/// The great-circle distance between two points on a sphere of the given radius.
///
/// The points' latitudes and longitudes are taken as spherical coordinates. The central angle θ
/// comes from the haversine formula, hav θ = hav Δφ + cos φ₁ cos φ₂ hav Δλ, evaluated as
/// θ = 2 atan2(√h, √h′) with h′ = 1 − h formed directly (as the haversine of the angle to the
/// antipode of the second point) rather than by subtraction. That keeps the result accurate to
/// round-off both for tiny separations, where the arccosine form fails, and for nearly antipodal
/// points, where the arcsine form does.
///
/// A sphere with the mean Earth radius (``Ellipsoid/wgs84MeanRadius``, 6 371 km) approximates
/// WGS84 distances to within 0.6 % (the ellipsoid's radius of curvature ranges from 6 335 km to
/// 6 400 km); use ``Geodesic/inverse(from:to:)`` when that matters.
///
/// - Parameters:
///   - from: The first point.
///   - to: The second point.
///   - radius: The radius of the sphere; the result is in the same unit.
/// - Returns: `radius` times the central angle in radians, in `[0, π · radius]`.
public func greatCircleDistance(from: Coordinate, to: Coordinate, radius: Double) -> Double {
  let phi1 = from.latitude * AngleMath.radiansPerDegree
  let phi2 = to.latitude * AngleMath.radiansPerDegree
  let (lon12, _) = AngleMath.longitudeDifference(from.longitude, to.longitude)
  let halfLam12 = lon12 * AngleMath.radiansPerDegree / 2
  let cosProduct = cos(phi1) * cos(phi2)
  let sinHalfDifference = sin((phi2 - phi1) / 2)
  let sinHalfSum = sin((phi2 + phi1) / 2)
  let sinHalfLam = sin(halfLam12)
  let cosHalfLam = cos(halfLam12)
  // h = hav θ; hComplement = hav(π − θ), the same formula towards (−φ₂, λ₂ + 180°).
  let h = sinHalfDifference * sinHalfDifference + cosProduct * sinHalfLam * sinHalfLam
  let hComplement = sinHalfSum * sinHalfSum + cosProduct * cosHalfLam * cosHalfLam
  return radius * 2 * atan2(h.squareRoot(), hComplement.squareRoot())
}
