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

/// A Core Location error code (`CLError.Code`): Apple's whole list, with its raw values [A].
///
/// The phone produces only some of them (``locationUnknown``, ``denied``,
/// ``regionMonitoringDenied``, ``regionMonitoringFailure``, ``promptDeclined``, and the
/// geocoder's); the rest are here so that code matching them compiles and reads them right.
public enum LocationErrorCode: Int, Hashable, Sendable, CaseIterable, CustomStringConvertible {
  /// No location right now; keep waiting (transient).
  case locationUnknown = 0
  /// The app is not authorized.
  case denied = 1
  /// The network was unavailable.
  case network = 2
  /// The heading could not be determined.
  case headingFailure = 3
  /// Region monitoring is not authorized.
  case regionMonitoringDenied = 4
  /// A region could not be monitored (limit reached, radius too large, unavailable).
  case regionMonitoringFailure = 5
  /// Region monitoring could not be set up at once.
  case regionMonitoringSetupDelayed = 6
  /// Region events will arrive, but late.
  case regionMonitoringResponseDelayed = 7
  /// Geocoding found nothing.
  case geocodeFoundNoResult = 8
  /// Geocoding found only part of an answer.
  case geocodeFoundPartialResult = 9
  /// A geocoding request was cancelled.
  case geocodeCanceled = 10
  /// Deferred updates failed.
  case deferredFailed = 11
  /// Deferred updates need location updates running.
  case deferredNotUpdatingLocation = 12
  /// Deferred updates need a better desired accuracy.
  case deferredAccuracyTooLow = 13
  /// Deferred updates do not work with a distance filter.
  case deferredDistanceFiltered = 14
  /// Deferred updates were cancelled.
  case deferredCanceled = 15
  /// Beacon ranging is unavailable.
  case rangingUnavailable = 16
  /// Beacon ranging failed.
  case rangingFailure = 17
  /// A temporary authorization was not granted, or its prompt could not be shown.
  case promptDeclined = 18
  /// Historical locations could not be read.
  case historicalLocationError = 19

  /// The Swift case name.
  public var description: String {
    switch self {
    case .locationUnknown: "locationUnknown"
    case .denied: "denied"
    case .network: "network"
    case .headingFailure: "headingFailure"
    case .regionMonitoringDenied: "regionMonitoringDenied"
    case .regionMonitoringFailure: "regionMonitoringFailure"
    case .regionMonitoringSetupDelayed: "regionMonitoringSetupDelayed"
    case .regionMonitoringResponseDelayed: "regionMonitoringResponseDelayed"
    case .geocodeFoundNoResult: "geocodeFoundNoResult"
    case .geocodeFoundPartialResult: "geocodeFoundPartialResult"
    case .geocodeCanceled: "geocodeCanceled"
    case .deferredFailed: "deferredFailed"
    case .deferredNotUpdatingLocation: "deferredNotUpdatingLocation"
    case .deferredAccuracyTooLow: "deferredAccuracyTooLow"
    case .deferredDistanceFiltered: "deferredDistanceFiltered"
    case .deferredCanceled: "deferredCanceled"
    case .rangingUnavailable: "rangingUnavailable"
    case .rangingFailure: "rangingFailure"
    case .promptDeclined: "promptDeclined"
    case .historicalLocationError: "historicalLocationError"
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
