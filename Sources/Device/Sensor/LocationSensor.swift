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
  /// The device's true speed at `time` in metres per second — what the phone's motion
  /// sensors tell it, apart from any fix — or `nil` when the sensor does not know it.
  func trueSpeed(at time: SimTime) -> Double?
}

extension LocationSensor {
  /// Unknown by default: clients fall back to the fixes' speed.
  public func trueSpeed(at time: SimTime) -> Double? { nil }
}
