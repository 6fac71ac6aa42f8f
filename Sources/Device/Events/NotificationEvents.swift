import SimKernel

/// A notification request as the log records it: its identifier, its trigger and, while
/// pending, when a time trigger next fires.
public struct LoggedNotificationRequest: Hashable, Sendable {
  /// The request's identifier.
  public let identifier: String
  /// Its trigger; `nil` delivers at once.
  public let trigger: NotificationTrigger?
  /// When it next fires (time triggers and immediate requests), if logged.
  public let fireTime: SimTime?

  /// A logged request.
  public init(identifier: String, trigger: NotificationTrigger?, fireTime: SimTime?) {
    self.identifier = identifier
    self.trigger = trigger
    self.fireTime = fireTime
  }

  var fields: [LogField] {
    // What does not apply to the trigger (a region's details for a time trigger, whether an
    // immediate request repeats) is there as null.
    var region: [LogValue] = Array(repeating: .null, count: 6)
    if case .location(let r, _)? = trigger {
      region = [
        .string(r.identifier), .double(r.center.latitude), .double(r.center.longitude),
        .double(r.radius), .bool(r.notifyOnEntry), .bool(r.notifyOnExit),
      ]
    }
    let values: [LogValue] =
      [
        .string(identifier), .string(trigger?.kindName ?? "immediate"),
        trigger.map { .bool($0.repeats) } ?? .null,
      ] + region + [fireTime.map { .double($0.seconds) } ?? .null]
    return zip(Self.fieldNames, values).map { LogField($0, $1) }
  }

  static let fieldNames = [
    "identifier", "trigger", "repeats", "region", "latitude", "longitude", "radius",
    "notifyOnEntry", "notifyOnExit", "fireTime",
  ]
}

/// Why a notification was not shown.
public enum NotificationSuppression: String, Hashable, Sendable {
  /// A location trigger fired while the app lacks location permission (or precision): the
  /// request stays pending.
  case locationPermission
  /// The app may not show notifications: the request is consumed without being shown.
  case notificationPermission
}

/// Why a request was refused when it was added.
public enum NotificationRejection: String, Hashable, Sendable {
  /// Its location trigger would exceed the regions an app may monitor.
  case tooManyRegions
  /// The user has not allowed the app's notifications.
  case notificationsNotAllowed
  /// Its location trigger's region cannot be monitored.
  case regionNotMonitorable
  /// No date after now matches its calendar trigger.
  case noNextDate
  /// Its trigger is one iOS rejects when it is created (a time interval that is not positive,
  /// or shorter than 60 s while repeating): on a device the app stops with an exception.
  case invalidTrigger
  /// Its content holds something iOS cannot carry to the system (a `userInfo` value that is not
  /// a property-list value): on a device the app stops with an exception.
  case invalidContent
}

/// Why a pending request left the pending list without being delivered or removed.
public enum NotificationDrop: String, Hashable, Sendable {
  /// More requests were pending than the system keeps.
  case pendingLimit
}

/// UserNotifications (source `"notifications"`).
public enum NotificationEvent: LogEvent, Hashable {
  /// The user's answer set the app's notification authorization.
  case authorization(NotificationAuthorizationStatus)
  /// A request was scheduled.
  case added(LoggedNotificationRequest)
  /// A request replaced a pending one with the same identifier.
  case replaced(LoggedNotificationRequest)
  /// A pending request was dropped.
  case dropped(LoggedNotificationRequest, reason: NotificationDrop)
  /// A request was refused.
  case rejected(identifier: String, reason: NotificationRejection)
  /// A request fired and joined the delivered notifications; `stillPending` for a repeating
  /// one, with `nextFireTime` for a repeating time trigger.
  case delivered(
    LoggedNotificationRequest, stillPending: Bool, replacedDelivered: Bool,
    nextFireTime: SimTime?)
  /// A request fired but was not shown.
  case suppressed(identifier: String, cause: NotificationSuppression)
  /// A delivered notification was presented: a banner, or the app's delegate in the
  /// foreground.
  case presented(identifier: String, appState: AppState, banner: Bool)
  /// A pending request was removed by the app.
  case removedPending(identifier: String)
  /// A delivered notification was removed by the app.
  case removedDelivered(identifier: String)

  /// The component that records these events.
  public static let source = "notifications"
  /// Every event this type records.
  public static let declarations = [
    LogEventDeclaration(
      source, "authorization", fields: ["status"], "The app's notification authorization was set."),
    LogEventDeclaration(
      source, "added", fields: LoggedNotificationRequest.fieldNames, "A request was scheduled."),
    LogEventDeclaration(
      source, "replaced", fields: LoggedNotificationRequest.fieldNames,
      "A request replaced a pending one with the same identifier."),
    LogEventDeclaration(
      source, "dropped", fields: LoggedNotificationRequest.fieldNames + ["reason"],
      "A pending request was dropped (`pendingLimit`)."),
    LogEventDeclaration(
      source, "rejected", fields: ["identifier", "reason"],
      "A request was refused (`notificationsNotAllowed`, `tooManyRegions`, `regionNotMonitorable`, `noNextDate`, `invalidTrigger`, `invalidContent`)."
    ),
    LogEventDeclaration(
      source, "delivered",
      fields: Array(LoggedNotificationRequest.fieldNames.dropLast())
        + ["stillPending", "replacedDelivered", "nextFireTime"],
      "A request fired and joined the delivered notifications."),
    LogEventDeclaration(
      source, "suppressed", fields: ["identifier", "cause"],
      "A request fired but was not shown (`locationPermission`, `notificationPermission`)."),
    LogEventDeclaration(
      source, "presented", fields: ["identifier", "appState", "banner"],
      "A delivered notification was presented."),
    LogEventDeclaration(
      source, "removedPending", fields: ["identifier"], "The app removed a pending request."),
    LogEventDeclaration(
      source, "removedDelivered", fields: ["identifier"],
      "The app removed a delivered notification."),
  ]
  /// The event's name in the log.
  public var name: String {
    switch self {
    case .authorization: "authorization"
    case .added: "added"
    case .replaced: "replaced"
    case .dropped: "dropped"
    case .rejected: "rejected"
    case .delivered: "delivered"
    case .suppressed: "suppressed"
    case .presented: "presented"
    case .removedPending: "removedPending"
    case .removedDelivered: "removedDelivered"
    }
  }
  /// The event's fields, in the log's order.
  public var fields: [LogField] {
    switch self {
    case .authorization(let status):
      return [LogField("status", .string(status.description))]
    case .added(let request), .replaced(let request):
      return request.fields
    case .dropped(let request, let reason):
      return request.fields + [LogField("reason", .string(reason.rawValue))]
    case .rejected(let id, let reason):
      return [LogField("identifier", .string(id)), LogField("reason", .string(reason.rawValue))]
    case .delivered(let request, let stillPending, let replacedDelivered, let next):
      // A delivered request's next fire time is `nextFireTime`, not `fireTime`.
      return request.fields.dropLast() + [
        LogField("stillPending", .bool(stillPending)),
        LogField("replacedDelivered", .bool(replacedDelivered)),
        LogField("nextFireTime", next.map { .double($0.seconds) } ?? .null),
      ]
    case .suppressed(let id, let cause):
      return [LogField("identifier", .string(id)), LogField("cause", .string(cause.rawValue))]
    case .presented(let id, let appState, let banner):
      return [
        LogField("identifier", .string(id)), LogField("appState", .string(appState.rawValue)),
        LogField("banner", .bool(banner)),
      ]
    case .removedPending(let id), .removedDelivered(let id):
      return [LogField("identifier", .string(id))]
    }
  }
}
