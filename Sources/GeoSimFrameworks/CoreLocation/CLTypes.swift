import Device
import Geo

/// Degrees of latitude or longitude (`CLLocationDegrees`).
public typealias CLLocationDegrees = Double
/// Metres (`CLLocationDistance`).
public typealias CLLocationDistance = Double
/// Metres of accuracy; negative values are the `kCLLocationAccuracy…` requests
/// (`CLLocationAccuracy`).
public typealias CLLocationAccuracy = Double
/// Metres per second (`CLLocationSpeed`).
public typealias CLLocationSpeed = Double
/// Degrees clockwise from true north (`CLLocationDirection`).
public typealias CLLocationDirection = Double
/// The accuracy of a speed, in metres per second (`CLLocationSpeedAccuracy`).
public typealias CLLocationSpeedAccuracy = Double
/// The accuracy of a course, in degrees (`CLLocationDirectionAccuracy`).
public typealias CLLocationDirectionAccuracy = Double

/// The best accuracy, with extra sensors, for navigation [A].
public let kCLLocationAccuracyBestForNavigation: CLLocationAccuracy = LocationAccuracy
  .bestForNavigation
/// The best accuracy the device has [A].
public let kCLLocationAccuracyBest: CLLocationAccuracy = LocationAccuracy.best
/// Within ten metres [A].
public let kCLLocationAccuracyNearestTenMeters: CLLocationAccuracy = LocationAccuracy
  .nearestTenMeters
/// Within a hundred metres [A].
public let kCLLocationAccuracyHundredMeters: CLLocationAccuracy = LocationAccuracy.hundredMeters
/// Within a kilometre [A].
public let kCLLocationAccuracyKilometer: CLLocationAccuracy = LocationAccuracy.kilometer
/// Within three kilometres [A].
public let kCLLocationAccuracyThreeKilometers: CLLocationAccuracy = LocationAccuracy
  .threeKilometers
/// The accuracy of an app with approximate location [A].
public let kCLLocationAccuracyReduced: CLLocationAccuracy = LocationAccuracy.reduced
/// Every fix is delivered, however little the device moved [A].
public let kCLDistanceFilterNone: CLLocationDistance = distanceFilterNone
// swift-format-ignore: AlwaysUseLowerCamelCase
/// The largest distance (`CLLocationDistanceMax`).
public let CLLocationDistanceMax: CLLocationDistance = .greatestFiniteMagnitude
/// An invalid coordinate (`kCLLocationCoordinate2DInvalid`: −180, −180) [A].
public let kCLLocationCoordinate2DInvalid = CLLocationCoordinate2D(
  latitude: -180, longitude: -180)

/// A latitude and longitude in degrees, WGS 84 (`CLLocationCoordinate2D`): a plain pair, not
/// checked, as on iOS — ``CLLocationCoordinate2DIsValid(_:)`` says whether it is valid. Not
/// `Equatable`, as Apple's is not, so an app's own conformance compiles.
public struct CLLocationCoordinate2D: Sendable {
  /// Degrees north of the equator.
  public var latitude: CLLocationDegrees
  /// Degrees east of Greenwich.
  public var longitude: CLLocationDegrees

  /// (0, 0).
  public init() {
    self.init(latitude: 0, longitude: 0)
  }

  /// The pair as given.
  public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
    self.latitude = latitude
    self.longitude = longitude
  }
}

// swift-format-ignore: AlwaysUseLowerCamelCase
/// A coordinate (`CLLocationCoordinate2DMake`).
public func CLLocationCoordinate2DMake(
  _ latitude: CLLocationDegrees, _ longitude: CLLocationDegrees
) -> CLLocationCoordinate2D {
  CLLocationCoordinate2D(latitude: latitude, longitude: longitude)
}

// swift-format-ignore: AlwaysUseLowerCamelCase
/// Whether `coordinate` is valid: latitude in [−90, 90] and longitude in [−180, 180] [A].
public func CLLocationCoordinate2DIsValid(_ coordinate: CLLocationCoordinate2D) -> Bool {
  abs(coordinate.latitude) <= 90 && abs(coordinate.longitude) <= 180
}

extension CLLocationCoordinate2D {
  /// The simulated phone's coordinate, if this one is valid.
  var coordinate: Coordinate? {
    guard CLLocationCoordinate2DIsValid(self) else { return nil }
    return try? Coordinate(latitude: latitude, longitude: longitude)
  }

  init(_ coordinate: Coordinate) {
    self.init(latitude: coordinate.latitude, longitude: coordinate.longitude)
  }
}

/// The app's location authorization (`CLAuthorizationStatus`, same cases and raw values).
public typealias CLAuthorizationStatus = AuthorizationStatus
/// Precise or approximate location (`CLAccuracyAuthorization`).
public typealias CLAccuracyAuthorization = AccuracyAuthorization
/// What the app is doing, which decides when updates pause (`CLActivityType`).
public typealias CLActivityType = ActivityType
/// A region's state relative to the device (`CLRegionState`).
public typealias CLRegionState = RegionState
