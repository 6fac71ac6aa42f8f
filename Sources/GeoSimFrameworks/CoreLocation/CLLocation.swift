import Device
import Geo
import SimKernel

/// A fix: where the device was, how sure it was, and when (`CLLocation`).
///
/// The ``timestamp`` is a `Date` in the world's virtual calendar (the scenario's start plus
/// the virtual time), so code that compares fixes' timestamps sees real intervals; the host's
/// clock (`Date()`) is not the world's.
open class CLLocation: NSObject, @unchecked Sendable {
  // Unchecked: immutable after init, as Apple's.
  /// Where.
  public let coordinate: CLLocationCoordinate2D
  /// Metres above sea level.
  public let altitude: CLLocationDistance
  /// The radius of uncertainty in metres; negative means the coordinate is invalid.
  public let horizontalAccuracy: CLLocationAccuracy
  /// The altitude's uncertainty in metres; negative means the altitude is invalid.
  public let verticalAccuracy: CLLocationAccuracy
  /// Metres per second; negative if unknown.
  public let speed: CLLocationSpeed
  /// The speed's accuracy; negative if unknown.
  public let speedAccuracy: CLLocationSpeedAccuracy
  /// Degrees from true north; negative if unknown.
  public let course: CLLocationDirection
  /// The course's accuracy; negative if unknown.
  public let courseAccuracy: CLLocationDirectionAccuracy
  /// When the fix was taken.
  public let timestamp: Date

  /// A location with no accuracy information, timestamped at the reference date of the
  /// calling world (or the Unix epoch outside one).
  public convenience init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
    self.init(
      coordinate: CLLocationCoordinate2D(latitude: latitude, longitude: longitude), altitude: 0,
      horizontalAccuracy: 0, verticalAccuracy: -1, course: -1, courseAccuracy: -1, speed: -1,
      speedAccuracy: -1, timestamp: Self.now)
  }

  /// A location with accuracy and a timestamp.
  public convenience init(
    coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance,
    horizontalAccuracy: CLLocationAccuracy, verticalAccuracy: CLLocationAccuracy,
    timestamp: Date
  ) {
    self.init(
      coordinate: coordinate, altitude: altitude, horizontalAccuracy: horizontalAccuracy,
      verticalAccuracy: verticalAccuracy, course: -1, courseAccuracy: -1, speed: -1,
      speedAccuracy: -1, timestamp: timestamp)
  }

  /// A location with every property.
  public init(
    coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance,
    horizontalAccuracy: CLLocationAccuracy, verticalAccuracy: CLLocationAccuracy,
    course: CLLocationDirection, courseAccuracy: CLLocationDirectionAccuracy,
    speed: CLLocationSpeed, speedAccuracy: CLLocationSpeedAccuracy, timestamp: Date
  ) {
    self.coordinate = coordinate
    self.altitude = altitude
    self.horizontalAccuracy = horizontalAccuracy
    self.verticalAccuracy = verticalAccuracy
    self.course = course
    self.courseAccuracy = courseAccuracy
    self.speed = speed
    self.speedAccuracy = speedAccuracy
    self.timestamp = timestamp
  }

  /// The phone's fix, timestamped in its world's calendar.
  convenience init(_ location: Location, in simulation: Simulation) {
    self.init(
      coordinate: CLLocationCoordinate2D(location.coordinate), altitude: location.altitude,
      horizontalAccuracy: location.horizontalAccuracy,
      verticalAccuracy: location.verticalAccuracy, course: location.course,
      courseAccuracy: location.course < 0 ? -1 : 10, speed: location.speed,
      speedAccuracy: location.speed < 0 ? -1 : 1,
      timestamp: simulation.date(of: location.timestamp))
  }

  /// The geodesic distance in metres on the WGS 84 ellipsoid ("a line between them that
  /// follows the curvature of the Earth" [A]); NaN if either coordinate is invalid.
  public func distance(from location: CLLocation) -> CLLocationDistance {
    guard let a = coordinate.coordinate, let b = location.coordinate.coordinate else {
      return .nan
    }
    return Geodesic.wgs84.inverse(from: a, to: b).distance
  }

  /// "<+35.68123600,+139.76712400> +/- 5.00m (speed 1.40 mps / course 90.00) @ …", as Apple's.
  open override var description: String {
    let latitude = String(format: "%+.8f", coordinate.latitude)
    let longitude = String(format: "%+.8f", coordinate.longitude)
    let accuracy = String(format: "%.2f", horizontalAccuracy)
    let speed = String(format: "%.2f", self.speed)
    let course = String(format: "%.2f", self.course)
    return
      "<\(latitude),\(longitude)> +/- \(accuracy)m (speed \(speed) mps / course \(course)) @ \(timestamp)"
  }

  private static var now: Date {
    Phone.current.map { $0.simulation.date(of: $0.simulation.now) }
      ?? Date(timeIntervalSince1970: 0)
  }
}
