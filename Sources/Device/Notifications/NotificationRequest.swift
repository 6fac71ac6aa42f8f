import SimKernel

/// A request to show a local notification when its trigger fires (`UNNotificationRequest`).
///
/// The identifier is the request's name within its app: adding another request with the same
/// identifier replaces it, and removal goes by identifier (FIDELITY.md, notifications [A]).
public struct NotificationRequest: Hashable, Sendable {
  /// The app's name for the request (`identifier`).
  public let identifier: String
  /// What the notification shows (`content`).
  public let content: NotificationContent
  /// When it is delivered; `nil` delivers it right away (`trigger`).
  public let trigger: NotificationTrigger?

  /// Creates a request, checking its trigger.
  ///
  /// - Throws: ``DeviceErrorCode/invalidTrigger`` when the trigger is one
  ///   UserNotifications rejects (see ``NotificationTrigger/validate()``); on a device the app
  ///   would stop with an exception when creating that trigger.
  public init(
    identifier: String, content: NotificationContent, trigger: NotificationTrigger?
  ) throws {
    try trigger?.validate()
    self.identifier = identifier
    self.content = content
    self.trigger = trigger
  }
}

/// A notification the system has delivered and still shows in Notification Center
/// (`UNNotification`).
public struct DeliveredNotification: Hashable, Sendable {
  /// The request that produced it (`request`).
  public let request: NotificationRequest
  /// When it was delivered (`date`).
  public let date: SimTime

  /// A delivered notification.
  public init(request: NotificationRequest, date: SimTime) {
    self.request = request
    self.date = date
  }
}
