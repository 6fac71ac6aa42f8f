import Geo
import SimKernel

/// A true trajectory prepared for many circle tests: each point as a unit vector, and an upper
/// bound on each segment's length, so that a circle can skip the segments far from it without
/// solving a geodesic.
///
/// Build it once per trajectory and hand it to ``CircleVisits/init(center:radius:track:geos:)``
/// for every circle. The referee keeps its own point type, so that it depends on no simulated
/// device: a caller holding the phone's trajectory samples maps their time and coordinate.
///
/// - Complexity: O(*n*) to build, for *n* points.
public struct TrueTrack: Sendable {
  /// Where the device truly is at one instant.
  public struct Point: Hashable, Sendable {
    /// The instant.
    public let time: SimTime
    /// Where the device is then.
    public let coordinate: Coordinate

    /// A point from its parts.
    public init(time: SimTime, coordinate: Coordinate) {
      self.time = time
      self.coordinate = coordinate
    }
  }

  /// The points, in time order.
  public let points: [Point]
  /// Unit vectors of the points on a sphere (geodetic latitude used as is).
  let x: [Double]
  let y: [Double]
  let z: [Double]
  /// For each segment `i` (points `i` and `i + 1`), an upper bound on half its geodesic length.
  let halfLengthBound: [Double]

  /// Prepares `points`, which must be in time order.
  public init(_ points: [Point]) {
    self.points = points
    var x = [Double](repeating: 0, count: points.count)
    var y = x
    var z = x
    for (i, point) in points.enumerated() {
      let v = unitVector(point.coordinate)
      (x[i], y[i], z[i]) = (v.x, v.y, v.z)
    }
    var half = [Double](repeating: 0, count: max(points.count - 1, 0))
    for i in half.indices {
      let dx = x[i + 1] - x[i]
      let dy = y[i + 1] - y[i]
      let dz = z[i + 1] - z[i]
      half[i] = Self.upperBound(chord: (dx * dx + dy * dy + dz * dz).squareRoot()) / 2
    }
    (self.x, self.y, self.z, halfLengthBound) = (x, y, z, half)
  }

  /// A geodesic distance certainly not exceeded by two points whose unit vectors are `chord`
  /// apart: the arc on the sphere of WGS84's mean radius (at most π/2 times the chord, and
  /// within 0.1 % of it below 1,000 km) widened by more than the ellipsoid can differ from the
  /// sphere (under 0.6 %).
  static func upperBound(chord: Double) -> Double {
    let metres = chord * Ellipsoid.wgs84MeanRadius
    return metres < 1_000_000 ? metres * 1.011 + 1 : metres * 1.6 + 1
  }

  /// A geodesic distance certainly not reached by two points whose unit vectors are `chord`
  /// apart: the arc is at least the chord, and the ellipsoid within 0.6 % of the sphere.
  static func lowerBound(chord: Double) -> Double {
    chord * Ellipsoid.wgs84MeanRadius * 0.99 - 1
  }
}
