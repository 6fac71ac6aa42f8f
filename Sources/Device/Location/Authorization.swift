/// An app's location authorization (`CLAuthorizationStatus`, same raw values).
public enum AuthorizationStatus: Int32, Hashable, Sendable, CaseIterable, CustomStringConvertible {
  /// The user has not been asked yet.
  case notDetermined = 0
  /// Parental controls or a profile forbid location.
  case restricted = 1
  /// The user refused, or Location Services are off system-wide, or Airplane mode is on.
  case denied = 2
  /// Always, including in the background (possibly provisional).
  case authorizedAlways = 3
  /// While the app is in use.
  case authorizedWhenInUse = 4

  /// The Swift case name.
  public var description: String {
    switch self {
    case .notDetermined: "notDetermined"
    case .restricted: "restricted"
    case .denied: "denied"
    case .authorizedAlways: "authorizedAlways"
    case .authorizedWhenInUse: "authorizedWhenInUse"
    }
  }
}

/// Whether the app gets precise or approximate locations (`CLAccuracyAuthorization`, iOS 14).
public enum AccuracyAuthorization: Int32, Hashable, Sendable, CustomStringConvertible {
  /// Precise location.
  case fullAccuracy = 0
  /// Approximate location: fixes 1–20 km off, a few per hour, no region monitoring.
  case reducedAccuracy = 1

  /// The Swift case name.
  public var description: String {
    self == .fullAccuracy ? "fullAccuracy" : "reducedAccuracy"
  }
}

/// A Core Location error code (`CLError.Code`, same raw values).
public enum LocationErrorCode: Int, Hashable, Sendable, CustomStringConvertible {
  /// No location right now; keep waiting (transient).
  case locationUnknown = 0
  /// The app is not authorized.
  case denied = 1
  /// The network was unavailable.
  case network = 2
  /// Region monitoring is not authorized.
  case regionMonitoringDenied = 4
  /// A region could not be monitored (limit reached, radius too large, unavailable).
  case regionMonitoringFailure = 5

  /// The Swift case name.
  public var description: String {
    switch self {
    case .locationUnknown: "locationUnknown"
    case .denied: "denied"
    case .network: "network"
    case .regionMonitoringDenied: "regionMonitoringDenied"
    case .regionMonitoringFailure: "regionMonitoringFailure"
    }
  }
}

/// An error delivered to ``LocationManagerDelegate/locationManager(_:didFailWithError:)``.
public struct LocationError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The Core Location code.
  public let code: LocationErrorCode
  /// Why, in words.
  public let reason: String

  /// An error with a code and an explanation.
  public init(_ code: LocationErrorCode, _ reason: String) {
    self.code = code
    self.reason = reason
  }

  /// The code and the reason.
  public var description: String { "\(code): \(reason)" }
}
