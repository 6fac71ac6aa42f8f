import Foundation
import SimKernel

/// The condition that delivers a notification request (`UNNotificationTrigger`'s subclasses).
///
/// A request without a trigger is delivered right away (Apple,
/// `UNNotificationRequest.init(identifier:content:trigger:)`: "Specify nil to deliver the
/// notification right away"). Push triggers belong to a server GeoSim does not run.
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
  /// Fires at the next date after the request is added whose fields equal the set fields of
  /// `components` and, when `repeats`, at each later such date
  /// (`UNCalendarNotificationTrigger(dateMatching:repeats:)`: "the system uses the provided
  /// information to determine the next date and time that matches").
  ///
  /// The phone has no time zone of its own, so GeoSim matches in the Gregorian calendar in UTC
  /// unless the components name their own `calendar` or `timeZone` [?]; a device uses the
  /// user's current calendar and time zone. Dates are those of the world's calendar: virtual
  /// time zero is the simulation's `epoch`.
  case calendar(DateComponents, repeats: Bool)

  /// The shortest interval a repeating time-interval trigger accepts, in seconds (Apple,
  /// `UNTimeIntervalNotificationTrigger.init(timeInterval:repeats:)`).
  public static let minimumRepeatingInterval = 60.0

  /// Whether the trigger re-arms after each delivery (`UNNotificationTrigger.repeats`).
  public var repeats: Bool {
    switch self {
    case .timeInterval(_, let repeats), .location(_, let repeats), .calendar(_, let repeats):
      repeats
    }
  }

  /// The first instant after `time` at which a calendar trigger's components match, in a world
  /// whose virtual time zero is `epoch` (`UNCalendarNotificationTrigger.nextTriggerDate()`).
  ///
  /// `nil` when no later date matches (a year already past, a month 13) or the trigger is not a
  /// calendar trigger. A match beyond what virtual time can hold (about 292 years from the
  /// epoch) gives the last representable instant, which never comes.
  public func nextCalendarMatch(after time: SimTime, epoch: Date) -> SimTime? {
    guard case .calendar(let components, _) = self else { return nil }
    var calendar = components.calendar ?? Calendar(identifier: .gregorian)
    calendar.timeZone = components.timeZone ?? TimeZone(identifier: "UTC")!
    var fields = components
    fields.calendar = nil
    fields.timeZone = nil
    let after = epoch.addingTimeInterval(time.seconds)
    guard
      let match = calendar.nextDate(after: after, matching: fields, matchingPolicy: .nextTime)
    else { return nil }
    let nanoseconds = (match.timeIntervalSince(epoch) * 1e9).rounded()
    guard nanoseconds < 0x1p63 else { return SimTime(nanoseconds: .max) }
    return SimTime(nanoseconds: Int64(max(nanoseconds, -0x1p63)))
  }

  /// Throws ``DeviceErrorCode/invalidTrigger`` unless UserNotifications would accept the
  /// trigger.
  ///
  /// A time interval must be greater than 0 and, when repeating, at least 60 seconds (Apple,
  /// `UNTimeIntervalNotificationTrigger.init(timeInterval:repeats:)`). GeoSim also rejects an
  /// infinite interval, which Apple does not mention and virtual time cannot hold. Location and
  /// calendar triggers always pass: a region iOS cannot monitor, or components no date
  /// matches, are refused when the request is added
  /// (``UserNotificationCenter/add(_:withCompletionHandler:)``).
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
    case .calendar: "calendar"
    }
  }
}
