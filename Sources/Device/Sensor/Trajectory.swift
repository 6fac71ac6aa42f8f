import Geo
import SimKernel

/// Where the device truly is at one instant: the ground truth the sensor model degrades.
public struct TrueState: Hashable, Sendable {
  /// The true position.
  public let coordinate: Coordinate
  /// Metres above sea level.
  public let altitude: Double
  /// Metres per second over the ground.
  public let speed: Double
  /// Degrees clockwise from true north in [0, 360) (0 when not moving).
  public let course: Double

  /// Creates a state.
  public init(coordinate: Coordinate, altitude: Double = 0, speed: Double, course: Double) {
    self.coordinate = coordinate
    self.altitude = altitude
    self.speed = speed
    self.course = course
  }
}
