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

/// A positioning source the phone's region monitoring can work from [A]: "region monitoring
/// uses Wi-Fi, cellular and GPS" when it is available, and "requires network connectivity" for
/// the first two (Apple, Location and Maps Programming Guide).
public enum PositioningSource: String, Hashable, Sendable, CaseIterable {
  /// Satellites: the app's own fixes while it runs location updates, and brief fixes region
  /// monitoring takes when a region is near and nothing else can decide it.
  case gnss
  /// Nearby Wi-Fi access points, located with the network's help.
  case wifi
  /// The serving cell tower, located with the network's help.
  case cell
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
  /// The coarse (Wi-Fi like) position estimate at `time` that significant changes and visits use.
  func coarseEstimate(at time: SimTime) -> Location?
  /// The position `source` gives region monitoring at `time`, or `nil` when that source has
  /// nothing there and then (no access points, no cell coverage, no network to locate them,
  /// before the trajectory starts). `connected` tells whether the phone has a network
  /// connection; `.gnss` is a brief fix of region monitoring's own (it needs no network).
  func regionPosition(at time: SimTime, from source: PositioningSource, connected: Bool)
    -> Location?
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

  /// For a sensor with no positioning sources of its own: the coarse estimate as a Wi-Fi
  /// position wherever the phone is connected, and no cell positions.
  public func regionPosition(at time: SimTime, from source: PositioningSource, connected: Bool)
    -> Location?
  {
    source == .wifi && connected ? coarseEstimate(at: time) : nil
  }

  /// Unknown by default: clients fall back to the fixes' speed.
  public func trueSpeed(at time: SimTime) -> Double? { nil }
}
