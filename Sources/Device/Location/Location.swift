import Geo
import SimKernel

/// A location fix as CoreLocation's `CLLocation` delivers it.
///
/// A negative ``horizontalAccuracy`` means the coordinate is invalid; a negative ``speed`` or
/// ``course`` means that value is unknown (Apple's `CLLocation` documentation).
public struct Location: Hashable, Sendable {
  /// The reported position.
  public let coordinate: Coordinate
  /// Metres above sea level.
  public let altitude: Double
  /// The radius of uncertainty in metres; negative when the coordinate is invalid.
  public let horizontalAccuracy: Double
  /// The altitude's uncertainty in metres; negative when the altitude is invalid.
  public let verticalAccuracy: Double
  /// Metres per second; negative when unknown.
  public let speed: Double
  /// Degrees clockwise from true north in [0, 360); negative when unknown.
  public let course: Double
  /// When the fix was determined (which can be well before it is delivered).
  public let timestamp: SimTime

  /// Creates a fix.
  public init(
    coordinate: Coordinate, altitude: Double = 0, horizontalAccuracy: Double,
    verticalAccuracy: Double = -1, speed: Double = -1, course: Double = -1, timestamp: SimTime
  ) {
    self.coordinate = coordinate
    self.altitude = altitude
    self.horizontalAccuracy = horizontalAccuracy
    self.verticalAccuracy = verticalAccuracy
    self.speed = speed
    self.course = course
    self.timestamp = timestamp
  }

  /// The geodesic distance in metres to `other` (`CLLocation.distance(from:)`).
  public func distance(from other: Location) -> Double {
    Geodesic.wgs84.inverse(from: coordinate, to: other.coordinate).distance
  }
}

/// Values for ``LocationManager/desiredAccuracy``, in metres (`kCLLocationAccuracy…`).
public enum LocationAccuracy {
  /// `kCLLocationAccuracyBestForNavigation` (−2).
  public static let bestForNavigation = -2.0
  /// `kCLLocationAccuracyBest` (−1), the default.
  public static let best = -1.0
  /// `kCLLocationAccuracyNearestTenMeters`.
  public static let nearestTenMeters = 10.0
  /// `kCLLocationAccuracyHundredMeters`.
  public static let hundredMeters = 100.0
  /// `kCLLocationAccuracyKilometer`.
  public static let kilometer = 1_000.0
  /// `kCLLocationAccuracyThreeKilometers`.
  public static let threeKilometers = 3_000.0
  /// `kCLLocationAccuracyReduced`, what an app with reduced accuracy effectively gets.
  public static let reduced = 3_000.0
}

/// `CLDistanceFilterNone`: deliver every fix.
public let distanceFilterNone = -1.0

/// What the app says it is doing, which decides when updates pause (`CLActivityType`).
public enum ActivityType: Int, Hashable, Sendable, CaseIterable {
  /// Unknown activity (the default).
  case other = 1
  /// Driving with turn-by-turn navigation.
  case automotiveNavigation = 2
  /// Walking, running, cycling.
  case fitness = 3
  /// Other navigation: boats, trains.
  case otherNavigation = 4
  /// Flying.
  case airborne = 5
}
