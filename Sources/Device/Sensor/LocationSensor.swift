import Geo
import SimKernel

/// What the positioning hardware yields at one instant.
public enum SensorReading: Hashable, Sendable {
  /// A fix, possibly invalid (negative `horizontalAccuracy`).
  case fix(Location)
  /// Nothing: the trajectory has not started, the device is in an outage area (CoreLocation goes
  /// silent in tunnels and underground, with no update and no error [3P]), or, with reduced
  /// accuracy, no new approximate location is due yet.
  case silent
}

/// The source of the phone's positions: precise fixes for location updates and a coarse
/// estimate for region monitoring. ``SensorModel`` is the realistic one; tests may supply their
/// own.
public protocol LocationSensor: AnyObject {
  /// How often fixes are produced while updates run.
  var updateInterval: SimDuration { get }
  /// The fix at `time` for the given desired accuracy (and approximate location when
  /// `reducedAccuracy`).
  func reading(at time: SimTime, desiredAccuracy: Double, reducedAccuracy: Bool) -> SensorReading
  /// The coarse (cell / Wi-Fi like) position estimate at `time` that region monitoring uses.
  func coarseEstimate(at time: SimTime) -> Location?
  /// Where the phone truly is at `time`, for what iOS detects from all its sensors together
  /// over minutes (visits), or `nil` when it has no position.
  func truePosition(at time: SimTime) -> Coordinate?
  /// What an app with approximate location (iOS 14 reduced accuracy) is told of `location`.
  func approximate(_ location: Location) -> Location
  /// The device's true speed at `time` in metres per second — what the phone's motion
  /// sensors tell it, apart from any fix — or `nil` when the sensor does not know it.
  func trueSpeed(at time: SimTime) -> Double?
}

extension LocationSensor {
  /// The coarse estimate's coordinate, for a sensor that knows no other truth.
  public func truePosition(at time: SimTime) -> Coordinate? {
    coarseEstimate(at: time)?.coordinate
  }

  /// `location` with the accuracy of an approximate location (`kCLLocationAccuracyReduced`),
  /// for a sensor that has no grid of its own.
  public func approximate(_ location: Location) -> Location {
    Location(
      coordinate: location.coordinate, altitude: location.altitude,
      horizontalAccuracy: max(location.horizontalAccuracy, LocationAccuracy.reduced),
      timestamp: location.timestamp)
  }

  /// Unknown by default: clients fall back to the fixes' speed.
  public func trueSpeed(at time: SimTime) -> Double? { nil }
}
