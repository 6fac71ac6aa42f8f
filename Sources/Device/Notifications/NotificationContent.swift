/// What a notification shows and plays (`UNNotificationContent`).
///
/// The fields an app sets through `UNMutableNotificationContent`. Attachments, actions and
/// interruption levels are not modelled. `userInfo` holds property-list values, the only ones
/// iOS can carry to the system (a request holding anything else ends the app on a device when
/// it is added: the system's encoder accepts only secure-coding objects).
public struct NotificationContent: Hashable, Sendable {
  /// The title; empty when none (`title`).
  public var title: String
  /// The subtitle; empty when none (`subtitle`).
  public var subtitle: String
  /// The message; empty when none (`body`).
  public var body: String
  /// The sound to play; `nil`, the default, plays none (`sound`).
  public var sound: NotificationSound?
  /// The number to show on the app icon; `nil` leaves the badge unchanged (`badge`).
  public var badge: Int?
  /// The category that selects the actions shown with it (`categoryIdentifier`).
  public var categoryIdentifier: String
  /// Custom data for the app (`userInfo`).
  public var userInfo: [String: StoredValue]
  /// The group the system shows the notification in (`threadIdentifier`); empty for the app's
  /// own group.
  public var threadIdentifier: String

  /// Creates content; every field defaults to what a fresh `UNMutableNotificationContent` has.
  public init(
    title: String = "", subtitle: String = "", body: String = "",
    sound: NotificationSound? = nil, badge: Int? = nil, categoryIdentifier: String = "",
    userInfo: [String: StoredValue] = [:], threadIdentifier: String = ""
  ) {
    self.title = title
    self.subtitle = subtitle
    self.body = body
    self.sound = sound
    self.badge = badge
    self.categoryIdentifier = categoryIdentifier
    self.userInfo = userInfo
    self.threadIdentifier = threadIdentifier
  }
}

/// The sound a notification plays (`UNNotificationSound`).
public enum NotificationSound: Hashable, Sendable {
  /// The system's default sound (`UNNotificationSound.default`).
  case `default`
  /// A sound file in the app's bundle (`UNNotificationSound(named:)`).
  case named(String)
}
