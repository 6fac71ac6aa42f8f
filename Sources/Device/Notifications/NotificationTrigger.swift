/// The condition that delivers a notification request (`UNNotificationTrigger`'s subclasses).
///
/// A request without a trigger is delivered right away (Apple,
/// `UNNotificationRequest.init(identifier:content:trigger:)`: "Specify nil to deliver the
/// notification right away"). Calendar triggers (`UNCalendarNotificationTrigger`) are not
/// modelled: none of the reference apps uses one, and they need a calendar and time zone the
/// simulation does not have. Push triggers belong to a server GeoSim does not run.
///
/// Construct triggers freely; ``NotificationRequest/init(identifier:content:trigger:)`` checks
/// them with ``validate()``, as UserNotifications checks a trigger when it is created.
public enum NotificationTrigger: Hashable, Sendable {
  /// Fires `seconds` after the request is added and, when `repeats`, every `seconds` after
  /// each delivery (`UNTimeIntervalNotificationTrigger(timeInterval:repeats:)`).
  ///
  /// Apple: the interval "must be greater than zero", and "must be 60 seconds or greater" when
  /// the trigger repeats.
  case timeInterval(seconds: Double, repeats: Bool)
  /// Fires when the device enters or leaves `region`, as its `notifyOnEntry` and
  /// `notifyOnExit` say (`UNLocationNotificationTrigger(region:repeats:)`).
  ///
  /// Apple: with `repeats` the request is rescheduled after each delivery and stays until it is
  /// removed. Deciding when a crossing happens is the region engine's business; the region
  /// counts against the app's 20 monitored regions (FIDELITY.md, region monitoring [A]).
  case location(CircularRegion, repeats: Bool)

  /// The shortest interval a repeating time-interval trigger accepts, in seconds (Apple,
  /// `UNTimeIntervalNotificationTrigger.init(timeInterval:repeats:)`).
  public static let minimumRepeatingInterval = 60.0

  /// Whether the trigger re-arms after each delivery (`UNNotificationTrigger.repeats`).
  public var repeats: Bool {
    switch self {
    case .timeInterval(_, let repeats), .location(_, let repeats): repeats
    }
  }

  /// Throws ``DeviceErrorCode/invalidTrigger`` unless UserNotifications would accept the
  /// trigger.
  ///
  /// A time interval must be greater than 0 and, when repeating, at least 60 seconds (Apple,
  /// `UNTimeIntervalNotificationTrigger.init(timeInterval:repeats:)`). GeoSim also rejects an
  /// infinite interval, which Apple does not mention and virtual time cannot hold. Location
  /// triggers always pass: a region iOS cannot monitor fails later, in the region engine.
  public func validate() throws {
    guard case .timeInterval(let seconds, let repeats) = self else { return }
    guard seconds > 0 else {
      throw DeviceError(
        .invalidTrigger, "time interval must be greater than 0, got \(seconds) s")
    }
    guard seconds.isFinite else {
      throw DeviceError(.invalidTrigger, "time interval must be finite, got \(seconds) s")
    }
    if repeats && seconds < Self.minimumRepeatingInterval {
      throw DeviceError(
        .invalidTrigger,
        "time interval must be at least 60 s if repeating, got \(seconds) s")
    }
  }

  /// The name written to the event log's `trigger` field.
  var kindName: String {
    switch self {
    case .timeInterval: "timeInterval"
    case .location: "location"
    }
  }
}
