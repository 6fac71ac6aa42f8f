import Device
import Geo

/// A region the app can monitor (`CLRegion`): a class, so a region handed to the manager and
/// changed later is the app's object; the manager takes a copy when monitoring starts, as
/// iOS does.
open class CLRegion: NSObject, @unchecked Sendable {
  // Unchecked: the app's object on its main thread, as on iOS.
  /// The app's name for the region; monitoring a region with the same identifier replaces it.
  public let identifier: String
  /// Whether entering the region is reported; default `true` [A].
  open var notifyOnEntry = true
  /// Whether leaving the region is reported; default `true` [A].
  open var notifyOnExit = true

  init(identifier: String) {
    self.identifier = identifier
  }

  /// Regions are equal when their identifiers and shapes are.
  open override func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? CLRegion else { return false }
    return identifier == other.identifier && notifyOnEntry == other.notifyOnEntry
      && notifyOnExit == other.notifyOnExit
  }

  /// The identifier's hash.
  open override var hash: Int { identifier.hashValue }
}

/// A circle on the ground (`CLCircularRegion`).
open class CLCircularRegion: CLRegion, @unchecked Sendable {
  /// The centre.
  public let center: CLLocationCoordinate2D
  /// The radius in metres.
  public let radius: CLLocationDistance

  /// A circle of `radius` metres around `center`.
  public init(center: CLLocationCoordinate2D, radius: CLLocationDistance, identifier: String) {
    self.center = center
    self.radius = radius
    super.init(identifier: identifier)
  }

  /// Whether `coordinate` lies within the circle (geodesic distance ≤ radius).
  open func contains(_ coordinate: CLLocationCoordinate2D) -> Bool {
    guard let region = circularRegion, let point = coordinate.coordinate else { return false }
    return region.contains(point)
  }

  /// Circles are equal when their identifiers, centres, radii and flags are.
  open override func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? CLCircularRegion else { return false }
    return super.isEqual(other) && center.latitude == other.center.latitude
      && center.longitude == other.center.longitude && radius == other.radius
  }

  /// The hash of the identifier.
  open override var hash: Int { identifier.hashValue }

  /// "CLCircularRegion (identifier:'home', center:<+35.681236,+139.767124>, radius:150.00m)".
  open override var description: String {
    let latitude = String(format: "%+.6f", center.latitude)
    let longitude = String(format: "%+.6f", center.longitude)
    let radius = String(format: "%.2f", self.radius)
    return
      "CLCircularRegion (identifier:'\(identifier)', center:<\(latitude),\(longitude)>, radius:\(radius)m)"
  }

  /// The phone's region, if the centre is valid.
  var circularRegion: CircularRegion? {
    guard let center = center.coordinate else { return nil }
    var region = CircularRegion(center: center, radius: radius, identifier: identifier)
    region.notifyOnEntry = notifyOnEntry
    region.notifyOnExit = notifyOnExit
    return region
  }

  convenience init(_ region: CircularRegion) {
    self.init(
      center: CLLocationCoordinate2D(region.center), radius: region.radius,
      identifier: region.identifier)
    notifyOnEntry = region.notifyOnEntry
    notifyOnExit = region.notifyOnExit
  }
}
