import Device
import SimKernel

/// What makes a request fire (`UNNotificationTrigger`): use one of its subclasses,
/// ``UNTimeIntervalNotificationTrigger``, ``UNCalendarNotificationTrigger`` or
/// ``UNLocationNotificationTrigger``. Push triggers belong to a server GeoSim does not run.
open class UNNotificationTrigger: NSObject, NSCopying, @unchecked Sendable {
  // Unchecked: immutable.
  /// Whether the request is rescheduled after each delivery.
  public let repeats: Bool

  init(repeats: Bool) {
    self.repeats = repeats
    super.init()
  }

  /// Itself: a trigger is immutable.
  open func copy(with zone: NSZone? = nil) -> Any { self }

  /// The phone's trigger, or why iOS would not take this one.
  func deviceTrigger() -> Result<NotificationTrigger, UNRefusal> {
    .failure(UNRefusal(.invalidTrigger, "\(type(of: self)) is not a trigger the phone models"))
  }

  /// The app's trigger for the phone's, as iOS returns pending requests: `nextFire` is when the
  /// pending request next fires, if it does by the clock.
  static func make(_ trigger: NotificationTrigger, nextFire: Date?) -> UNNotificationTrigger {
    switch trigger {
    case .timeInterval(let seconds, let repeats):
      UNTimeIntervalNotificationTrigger(timeInterval: seconds, repeats: repeats, nextFire: nextFire)
    case .calendar(let components, let repeats):
      UNCalendarNotificationTrigger(dateMatching: components, repeats: repeats)
    case .location(let region, let repeats):
      UNLocationNotificationTrigger(region: CLCircularRegion(region), repeats: repeats)
    }
  }
}

/// Fires a number of seconds after the request is added and, when it repeats, every as many
/// seconds after each delivery (`UNTimeIntervalNotificationTrigger`).
///
/// Apple: the interval must be greater than 0, and at least 60 seconds when the trigger
/// repeats; iOS raises an exception when such a trigger is created, ending the app. GeoSim
/// never stops the app for it: the trigger is created, and ``UNUserNotificationCenter/add(_:withCompletionHandler:)``
/// fails with the phone's `Device.DeviceError` (code `invalidTrigger`, saying which rule
/// the interval broke), logging `notifications.rejected` with reason `invalidTrigger`.
open class UNTimeIntervalNotificationTrigger: UNNotificationTrigger, @unchecked Sendable {
  /// Seconds from the request's addition (and between deliveries, when it repeats).
  public let timeInterval: TimeInterval
  /// When the pending request this trigger came from next fires.
  private let nextFire: Date?

  /// A trigger `timeInterval` seconds after the request is added.
  public convenience init(timeInterval: TimeInterval, repeats: Bool) {
    self.init(timeInterval: timeInterval, repeats: repeats, nextFire: nil)
  }

  init(timeInterval: TimeInterval, repeats: Bool, nextFire: Date?) {
    self.timeInterval = timeInterval
    self.nextFire = nextFire
    super.init(repeats: repeats)
  }

  /// When the trigger next fires: for a trigger from ``UNUserNotificationCenter``'s pending
  /// requests, when the system will deliver it; for one not yet added, `timeInterval` from the
  /// current instant of the world (the date it would fire if added now); `nil` for an interval
  /// iOS rejects [A].
  open func nextTriggerDate() -> Date? {
    if let nextFire { return nextFire }
    guard (try? deviceTrigger().get().validate()) != nil else { return nil }
    let phone = Phone.requireCurrent(doing: "UNTimeIntervalNotificationTrigger.nextTriggerDate()")
    return phone.simulation.date(of: phone.simulation.now).addingTimeInterval(timeInterval)
  }

  override func deviceTrigger() -> Result<NotificationTrigger, UNRefusal> {
    .success(.timeInterval(seconds: timeInterval, repeats: repeats))
  }
}

/// Fires at the next date matching the components and, when it repeats, at each later match
/// (`UNCalendarNotificationTrigger`).
///
/// The phone has no time zone of its own: components are matched in the Gregorian calendar in
/// UTC, in the world's calendar (virtual time zero is the scenario's start), unless they carry
/// their own `calendar` or `timeZone` [?]. A device matches in the user's current calendar and
/// time zone. Components no later date matches (a year already past, a month 13) make `add`
/// fail with ``UNError/Code-swift.enum/notificationInvalidNoDate``.
open class UNCalendarNotificationTrigger: UNNotificationTrigger, @unchecked Sendable {
  /// The components a date must match.
  public let dateComponents: DateComponents

  /// A trigger at the next date matching `dateComponents`.
  public init(dateMatching dateComponents: DateComponents, repeats: Bool) {
    self.dateComponents = dateComponents
    super.init(repeats: repeats)
  }

  /// The next date after the world's current instant that matches the components; `nil` if
  /// none does [A].
  open func nextTriggerDate() -> Date? {
    let phone = Phone.requireCurrent(doing: "UNCalendarNotificationTrigger.nextTriggerDate()")
    let simulation = phone.simulation
    return NotificationTrigger.calendar(dateComponents, repeats: repeats)
      .nextCalendarMatch(after: simulation.now, epoch: simulation.epoch)
      .map(simulation.date(of:))
  }

  override func deviceTrigger() -> Result<NotificationTrigger, UNRefusal> {
    .success(.calendar(dateComponents, repeats: repeats))
  }
}

/// Fires when the device enters or leaves a region, as the region's `notifyOnEntry` and
/// `notifyOnExit` say (`UNLocationNotificationTrigger`).
///
/// The phone's region engine decides the crossing, as for region monitoring, and the region
/// counts against the app's 20 (`docs/DEVICE.md`, region monitoring). The app needs location
/// permission (When In Use or Always, precise) for it to fire [A]: without it the request is
/// added, and its firing is suppressed (`notifications.suppressed`, cause
/// `locationPermission`) and it stays pending. A region that cannot be monitored (no valid
/// centre, a radius that is not a number between 0 and `maximumRegionMonitoringDistance`), or
/// one region too many, makes `add` fail with the phone's `Device.DeviceError`.
open class UNLocationNotificationTrigger: UNNotificationTrigger, @unchecked Sendable {
  /// The region, copied when the trigger was made (later changes to the app's region object,
  /// such as its notify flags, do not reach the trigger) [A].
  public let region: CLRegion

  /// A trigger for `region`.
  public init(region: CLRegion, repeats: Bool) {
    if let circle = region as? CLCircularRegion {
      let copy = CLCircularRegion(
        center: circle.center, radius: circle.radius, identifier: circle.identifier)
      copy.notifyOnEntry = circle.notifyOnEntry
      copy.notifyOnExit = circle.notifyOnExit
      self.region = copy
    } else {
      self.region = region
    }
    super.init(repeats: repeats)
  }

  override func deviceTrigger() -> Result<NotificationTrigger, UNRefusal> {
    guard let circle = (region as? CLCircularRegion)?.circularRegion else {
      return .failure(
        UNRefusal(
          .regionNotMonitorable,
          "region \(region.identifier) is not a CLCircularRegion with a valid centre",
          code: .regionNotMonitorable))
    }
    return .success(.location(circle, repeats: repeats))
  }
}

/// Why a request the app built cannot reach the phone: the reason the log records and the
/// error `add` reports.
struct UNRefusal: Error {
  let reason: NotificationRejection
  let error: DeviceError

  init(_ reason: NotificationRejection, _ message: String, code: DeviceErrorCode = .invalidTrigger)
  {
    self.reason = reason
    self.error = DeviceError(code, message)
  }
}
