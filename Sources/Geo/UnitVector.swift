import Foundation

/// A point on the unit sphere: the direction from the Earth's centre, in an Earth-fixed frame
/// with `x` towards (0°, 0°), `y` towards (0°, 90° E) and `z` towards the north pole.
public struct UnitVector: Hashable, Sendable {
  /// The component towards latitude 0, longitude 0.
  public var x: Double
  /// The component towards latitude 0, longitude 90° E.
  public var y: Double
  /// The component towards the north pole.
  public var z: Double

  /// A vector from its components (not normalized).
  @inlinable
  public init(x: Double, y: Double, z: Double) {
    self.x = x
    self.y = y
    self.z = z
  }
}

/// The unit vector `(cos φ cos λ, cos φ sin λ, sin φ)` of a coordinate, its latitude φ and
/// longitude λ taken as spherical coordinates.
///
/// Chords between such vectors bound great-circle distances cheaply: two points whose vectors
/// are `c` apart are `2 R asin(c / 2)` apart on a sphere of radius `R`. The spatial index, the
/// region engine's pre-check and the true circle visits all build on this one function.
@inlinable @inline(__always)
public func unitVector(_ coordinate: Coordinate) -> UnitVector {
  let phi = coordinate.latitude * (Double.pi / 180)
  let lambda = coordinate.longitude * (Double.pi / 180)
  let cosPhi = cos(phi)
  return UnitVector(x: cosPhi * cos(lambda), y: cosPhi * sin(lambda), z: sin(phi))
}
