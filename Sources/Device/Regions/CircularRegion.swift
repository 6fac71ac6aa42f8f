import Geo

/// A circular geographic region to monitor (`CLCircularRegion`).
///
/// Monitoring the same ``identifier`` again replaces the earlier region.
/// ``notifyOnEntry`` and ``notifyOnExit`` default to `true`, as on iOS.
public struct CircularRegion: Hashable, Sendable {
  /// The app's name for the region.
  public let identifier: String
  /// The centre.
  public let center: Coordinate
  /// The radius in metres.
  public let radius: Double
  /// Whether entering is reported.
  public var notifyOnEntry = true
  /// Whether leaving is reported.
  public var notifyOnExit = true

  /// Creates a region. The radius is not checked here (iOS accepts any value and reports a bad
  /// one through `monitoringDidFailFor`), only that it is a number.
  public init(center: Coordinate, radius: Double, identifier: String) {
    self.center = center
    self.radius = radius
    self.identifier = identifier
  }

  /// Whether `coordinate` lies within the radius (geodesic distance).
  public func contains(_ coordinate: Coordinate) -> Bool {
    Geodesic.wgs84.inverse(from: center, to: coordinate).distance <= radius
  }
}

/// A region's state relative to the device (`CLRegionState`, same raw values).
public enum RegionState: Int, Hashable, Sendable, CustomStringConvertible {
  /// Not yet known.
  case unknown = 0
  /// The device is inside.
  case inside = 1
  /// The device is outside.
  case outside = 2

  /// The Swift case name.
  public var description: String {
    switch self {
    case .unknown: "unknown"
    case .inside: "inside"
    case .outside: "outside"
    }
  }
}
