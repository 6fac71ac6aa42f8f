import Device
import Foundation

/// The domain of Core Location errors (`kCLErrorDomain`).
public let kCLErrorDomain = "kCLErrorDomain"

/// A Core Location error (`CLError`): match its ``code``, as in `(error as? CLError)?.code`,
/// `catch CLError.denied`, or through `NSError` (`(error as NSError).code`, domain
/// ``kCLErrorDomain``).
public struct CLError: Error, Hashable, Sendable, CustomStringConvertible, CustomNSError {
  /// The error codes (`CLError.Code`, Apple's cases and raw values [A]).
  public typealias Code = LocationErrorCode
  /// The domain name of Core Location errors (`kCLErrorDomain`).
  public static let errorDomain = kCLErrorDomain

  /// The code.
  public let code: Code
  /// Why, in words (GeoSim's explanation; iOS gives none).
  public let reason: String

  /// An error with `code`.
  public init(_ code: Code, reason: String = "") {
    self.code = code
    self.reason = reason
  }

  init(_ error: LocationError) {
    self.init(error.code, reason: error.reason)
  }

  init(_ error: GeocodeError) {
    let code: Code =
      switch error.code {
      case .network: .network
      case .geocodeFoundNoResult: .geocodeFoundNoResult
      case .geocodeCanceled: .geocodeCanceled
      }
    self.init(code, reason: error.reason)
  }

  /// The code's raw value, as `NSError.code` reports it.
  public var errorCode: Int { code.rawValue }

  /// The reason, as the error's localized description, when there is one.
  public var errorUserInfo: [String: Any] {
    reason.isEmpty ? [:] : [NSLocalizedDescriptionKey: reason]
  }

  /// The code and the reason.
  public var description: String {
    reason.isEmpty ? "CLError.\(code)" : "CLError.\(code): \(reason)"
  }

  /// No location right now (transient).
  public static var locationUnknown: Code { .locationUnknown }
  /// The app is not authorized.
  public static var denied: Code { .denied }
  /// The network was unavailable, or geocoding exceeded its rate limit.
  public static var network: Code { .network }
  /// The heading could not be determined.
  public static var headingFailure: Code { .headingFailure }
  /// Region monitoring is not authorized.
  public static var regionMonitoringDenied: Code { .regionMonitoringDenied }
  /// A region could not be monitored.
  public static var regionMonitoringFailure: Code { .regionMonitoringFailure }
  /// Region monitoring could not be set up at once.
  public static var regionMonitoringSetupDelayed: Code { .regionMonitoringSetupDelayed }
  /// Region events will arrive, but late.
  public static var regionMonitoringResponseDelayed: Code { .regionMonitoringResponseDelayed }
  /// Geocoding found nothing.
  public static var geocodeFoundNoResult: Code { .geocodeFoundNoResult }
  /// Geocoding found only part of an answer.
  public static var geocodeFoundPartialResult: Code { .geocodeFoundPartialResult }
  /// A geocoding request was cancelled.
  public static var geocodeCanceled: Code { .geocodeCanceled }
  /// Deferred updates failed.
  public static var deferredFailed: Code { .deferredFailed }
  /// Deferred updates need location updates running.
  public static var deferredNotUpdatingLocation: Code { .deferredNotUpdatingLocation }
  /// Deferred updates need a better desired accuracy.
  public static var deferredAccuracyTooLow: Code { .deferredAccuracyTooLow }
  /// Deferred updates do not work with a distance filter.
  public static var deferredDistanceFiltered: Code { .deferredDistanceFiltered }
  /// Deferred updates were cancelled.
  public static var deferredCanceled: Code { .deferredCanceled }
  /// Beacon ranging is unavailable.
  public static var rangingUnavailable: Code { .rangingUnavailable }
  /// Beacon ranging failed.
  public static var rangingFailure: Code { .rangingFailure }
  /// A temporary authorization was not granted, or its prompt could not be shown.
  public static var promptDeclined: Code { .promptDeclined }
  /// Historical locations could not be read.
  public static var historicalLocationError: Code { .historicalLocationError }
}

/// Whether `error` is a ``CLError`` with `code` (`catch CLError.denied`).
public func ~= (code: CLError.Code, error: any Error) -> Bool {
  (error as? CLError)?.code == code
}
