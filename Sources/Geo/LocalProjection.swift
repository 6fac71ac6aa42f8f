import Foundation

/// An azimuthal equidistant projection on the ellipsoid: metres east and north of a centre.
///
/// A coordinate is projected by solving the geodesic inverse problem from the centre: with
/// distance s and initial azimuth α, it maps to `x = s sin α` (east), `y = s cos α` (north).
/// Unprojecting solves the direct problem with azimuth `atan2(x, y)` and distance
/// `hypot(x, y)`. Both directions use ``Geodesic`` (Karney 2013,
/// doi:10.1007/s00190-012-0578-z), so they are inverse to each other to round-off.
///
/// Distances and azimuths from the centre are exact: `hypot(x, y)` is the geodesic distance
/// and `atan2(x, y)` the azimuth. Other distances and angles are distorted, increasingly with
/// distance from the centre: the scale across the radial direction is s / m (m the reduced
/// length), which exceeds 1 by about (s / R)² / 6 — roughly 2 × 10⁻⁶ at 20 km and 4 × 10⁻⁵ at
/// 100 km — so planar geometry in the projected plane is fine within tens of kilometres. The
/// projection is valid over the hemisphere around the centre; it breaks down near the antipode,
/// which (together with, on an ellipsoid, a short stretch of the antipodal parallel around it)
/// is joined to the centre by more than one shortest path and so has no single image.
///
/// Because it is built on geodesics, the projection has no trouble with the antimeridian or the
/// poles. With a centre at a pole, the `y` axis points along the meridian 180° away from the
/// centre's longitude (the direction "north" from a point just off the pole on that meridian),
/// and `x` points 90° to its right.
public struct LocalProjection: Sendable {
  /// The point that projects to the origin.
  public let center: Coordinate
  /// The geodesic calculator of the ellipsoid used.
  let geodesic: Geodesic

  /// Creates the projection centred on `center`, on the ellipsoid of `geodesic` (WGS84 by
  /// default).
  public init(center: Coordinate, geodesic: Geodesic = .wgs84) {
    self.center = center
    self.geodesic = geodesic
  }

  /// The position of `coordinate`, in metres east (`x`) and north (`y`) of the centre.
  ///
  /// The distance `hypot(x, y)` equals the geodesic distance from the centre. The result has no
  /// `z`.
  public func project(_ coordinate: Coordinate) -> Position {
    let line = geodesic.solveInverse(
      latitude1: center.latitude, longitude1: center.longitude,
      latitude2: coordinate.latitude, longitude2: coordinate.longitude)
    return Position(x: line.distance * line.sinAzimuth1, y: line.distance * line.cosAzimuth1)
  }

  /// The coordinate at `position`, metres east (`x`) and north (`y`) of the centre.
  ///
  /// Any `z` is ignored.
  ///
  /// - Throws: ``GeoError`` with code ``GeoErrorCode/invalidArgument`` if `x` or `y` is NaN or
  ///   infinite.
  public func unproject(_ position: Position) throws -> Coordinate {
    guard position.x.isFinite, position.y.isFinite else {
      throw GeoError(
        .invalidArgument, "position \(position) does not have finite x and y in metres")
    }
    let distance = hypot(position.x, position.y)
    if distance == 0 { return center }
    let end = geodesic.solveDirect(
      latitude1: center.latitude, longitude1: center.longitude,
      sinAzimuth1: position.x / distance, cosAzimuth1: position.y / distance,
      distance: distance)
    return Coordinate(uncheckedLatitude: end.latitude, longitude: end.longitude)
  }
}
