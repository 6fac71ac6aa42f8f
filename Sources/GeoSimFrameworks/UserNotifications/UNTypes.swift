import Device

/// What the app asks the user to allow (`UNAuthorizationOptions`, Apple's bits).
///
/// The phone models alerts, sounds and badges: the user's answer allows those asked for, and
/// ``UNNotificationSettings`` reports them. The other options are accepted and change nothing:
/// no CarPlay is connected, critical alerts need an entitlement, and `provisional` is not
/// modelled — a request with it shows the ordinary prompt instead of authorizing quietly.
public struct UNAuthorizationOptions: OptionSet, Hashable, Sendable {
  /// The option bits.
  public let rawValue: UInt
  /// Options from bits.
  public init(rawValue: UInt) { self.rawValue = rawValue }

  /// Update the app's badge.
  public static let badge = UNAuthorizationOptions(rawValue: 1 << 0)
  /// Play sounds.
  public static let sound = UNAuthorizationOptions(rawValue: 1 << 1)
  /// Show alerts.
  public static let alert = UNAuthorizationOptions(rawValue: 1 << 2)
  /// Show notifications in CarPlay (not modelled).
  public static let carPlay = UNAuthorizationOptions(rawValue: 1 << 3)
  /// Play critical alerts (not modelled: needs an entitlement).
  public static let criticalAlert = UNAuthorizationOptions(rawValue: 1 << 4)
  /// The app has its own notification settings screen (not modelled).
  public static let providesAppNotificationSettings = UNAuthorizationOptions(rawValue: 1 << 5)
  /// Deliver quietly without asking (not modelled: the ordinary prompt is shown).
  public static let provisional = UNAuthorizationOptions(rawValue: 1 << 6)
  /// Siri reads notifications aloud (deprecated by Apple; not modelled).
  public static let announcement = UNAuthorizationOptions(rawValue: 1 << 7)
  /// Time-sensitive notifications (deprecated by Apple; not modelled).
  public static let timeSensitive = UNAuthorizationOptions(rawValue: 1 << 8)

  /// The options the phone models.
  var device: NotificationAuthorizationOptions {
    NotificationAuthorizationOptions(rawValue: Int(rawValue & 0b111))
  }
}

/// The app's notification permission (`UNAuthorizationStatus`, Apple's cases and raw values).
///
/// The phone reports `notDetermined`, `denied` and `authorized`; `provisional` and `ephemeral`
/// (App Clips) exist so that code switching over every case compiles, and never occur.
public enum UNAuthorizationStatus: Int, Hashable, Sendable {
  /// The user has not been asked.
  case notDetermined = 0
  /// The user refused.
  case denied = 1
  /// The user allowed notifications.
  case authorized = 2
  /// Quiet notifications without asking (not modelled).
  case provisional = 3
  /// An App Clip's temporary permission (not modelled).
  case ephemeral = 4

  init(_ status: NotificationAuthorizationStatus) {
    switch status {
    case .notDetermined: self = .notDetermined
    case .denied: self = .denied
    case .authorized: self = .authorized
    }
  }
}

/// Whether one kind of presentation is on (`UNNotificationSetting`).
public enum UNNotificationSetting: Int, Hashable, Sendable {
  /// The app cannot use it.
  case notSupported = 0
  /// Off.
  case disabled = 1
  /// On.
  case enabled = 2
}

/// How alerts appear (`UNAlertStyle`).
public enum UNAlertStyle: Int, Hashable, Sendable {
  /// No alerts.
  case none = 0
  /// Banners that go away by themselves.
  case banner = 1
  /// Alerts that stay until dismissed.
  case alert = 2
}

/// When alerts show their text (`UNShowPreviewsSetting`).
public enum UNShowPreviewsSetting: Int, Hashable, Sendable {
  /// Always.
  case always = 0
  /// Only while the phone is unlocked.
  case whenAuthenticated = 1
  /// Never.
  case never = 2
}

/// How a notification arriving in the foreground is presented
/// (`UNNotificationPresentationOptions`, Apple's bits).
public struct UNNotificationPresentationOptions: OptionSet, Hashable, Sendable {
  /// The option bits.
  public let rawValue: UInt
  /// Options from bits.
  public init(rawValue: UInt) { self.rawValue = rawValue }

  /// Update the badge.
  public static let badge = UNNotificationPresentationOptions(rawValue: 1 << 0)
  /// Play the sound.
  public static let sound = UNNotificationPresentationOptions(rawValue: 1 << 1)
  /// Show it as an alert: a banner and in the list (deprecated by Apple in iOS 14 for
  /// `banner` and `list`, which it stands for here).
  public static let alert = UNNotificationPresentationOptions(rawValue: 1 << 2)
  /// Show it in Notification Center.
  public static let list = UNNotificationPresentationOptions(rawValue: 1 << 3)
  /// Show a banner.
  public static let banner = UNNotificationPresentationOptions(rawValue: 1 << 4)

  /// The phone's options: `alert` is a banner in the list.
  var device: NotificationPresentationOptions {
    var options = NotificationPresentationOptions(rawValue: Int(rawValue & 0b11011))
    if contains(.alert) { options.formUnion([.banner, .list]) }
    return options
  }
}

/// The app's notification settings at the moment it asked (`UNNotificationSettings`).
///
/// The phone knows the permission and which of alerts, sounds and badges the user allowed (the
/// options the answered requests asked for); the user never changes them in Settings. So:
/// before the user answers every setting is `notSupported`; when denied, alert, sound, badge,
/// lock screen and Notification Center are `disabled`; when allowed, alert, sound and badge are
/// `enabled` if asked for and `disabled` if not, the lock screen and Notification Center follow
/// the alert setting [?], alerts are banners (iOS's default) [A], and previews show always [?].
/// CarPlay, critical alerts, announcements, time-sensitive and scheduled delivery and direct
/// messages are always `notSupported`.
public final class UNNotificationSettings: NSObject, @unchecked Sendable {
  // Unchecked: immutable.
  /// The app's permission.
  public let authorizationStatus: UNAuthorizationStatus
  /// Sounds.
  public let soundSetting: UNNotificationSetting
  /// Badges.
  public let badgeSetting: UNNotificationSetting
  /// Alerts.
  public let alertSetting: UNNotificationSetting
  /// Notification Center.
  public let notificationCenterSetting: UNNotificationSetting
  /// The lock screen.
  public let lockScreenSetting: UNNotificationSetting
  /// CarPlay (no CarPlay is connected).
  public let carPlaySetting = UNNotificationSetting.notSupported
  /// Critical alerts (need an entitlement).
  public let criticalAlertSetting = UNNotificationSetting.notSupported
  /// Siri announcements.
  public let announcementSetting = UNNotificationSetting.notSupported
  /// Time-sensitive notifications.
  public let timeSensitiveSetting = UNNotificationSetting.notSupported
  /// The scheduled summary.
  public let scheduledDeliverySetting = UNNotificationSetting.notSupported
  /// Direct messages.
  public let directMessagesSetting = UNNotificationSetting.notSupported
  /// How alerts appear.
  public let alertStyle: UNAlertStyle
  /// When alerts show their text.
  public let showPreviewsSetting: UNShowPreviewsSetting
  /// Whether the app has its own notification settings screen (not modelled: `false`).
  public let providesAppNotificationSettings = false

  init(status: NotificationAuthorizationStatus, allowed: NotificationAuthorizationOptions) {
    authorizationStatus = UNAuthorizationStatus(status)
    func setting(_ option: NotificationAuthorizationOptions) -> UNNotificationSetting {
      switch status {
      case .notDetermined: .notSupported
      case .denied: .disabled
      case .authorized: allowed.contains(option) ? .enabled : .disabled
      }
    }
    soundSetting = setting(.sound)
    badgeSetting = setting(.badge)
    alertSetting = setting(.alert)
    notificationCenterSetting = alertSetting
    lockScreenSetting = alertSetting
    alertStyle = alertSetting == .enabled ? .banner : .none
    showPreviewsSetting = .always
  }
}

/// A UserNotifications error (`UNError`): match its ``code``, as in `(error as? UNError)?.code`
/// or `catch UNError.notificationsNotAllowed`.
///
/// `add` fails with one where iOS documents it: ``Code-swift.enum/notificationsNotAllowed``
/// when the user denied notifications, ``Code-swift.enum/notificationInvalidNoDate`` for a
/// calendar trigger no date matches. Where iOS has no error to give — a trigger it rejects with
/// an exception when it is created, content it cannot carry, a region it cannot monitor or one
/// too many — the completion handler gets the phone's `Device.DeviceError` saying why.
public struct UNError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The error codes (`UNError.Code`, Apple's cases and raw values).
  public enum Code: Int, Hashable, Sendable {
    /// The app may not schedule notifications.
    case notificationsNotAllowed = 1
    /// An attachment's URL is not valid (attachments are not modelled).
    case attachmentInvalidURL = 100
    /// An attachment's file type is not supported.
    case attachmentUnrecognizedType = 101
    /// An attachment is too large.
    case attachmentInvalidFileSize = 102
    /// An attachment is not in the system's data store.
    case attachmentNotInDataStore = 103
    /// An attachment could not be moved into the system's data store.
    case attachmentMoveIntoDataStoreFailed = 104
    /// An attachment is corrupt.
    case attachmentCorrupt = 105
    /// The notification has no date, but should.
    case notificationInvalidNoDate = 1400
    /// The notification has no user-facing content, but should.
    case notificationInvalidNoContent = 1401
    /// A content-providing object is not allowed.
    case contentProvidingObjectNotAllowed = 1500
    /// A content-providing object is not valid.
    case contentProvidingInvalid = 1501
    /// A badge count is not valid.
    case badgeInputInvalid = 1600
  }

  /// The domain name of UserNotifications errors (`UNErrorDomain`).
  public static let errorDomain = "UNErrorDomain"

  /// The code.
  public let code: Code
  /// Why, in words (GeoSim's explanation).
  public let reason: String

  /// An error with `code`.
  public init(_ code: Code, reason: String = "") {
    self.code = code
    self.reason = reason
  }

  /// The code and the reason.
  public var description: String {
    reason.isEmpty ? "UNError.\(code)" : "UNError.\(code): \(reason)"
  }

  /// The app may not schedule notifications.
  public static var notificationsNotAllowed: Code { .notificationsNotAllowed }
  /// The notification has no date, but should.
  public static var notificationInvalidNoDate: Code { .notificationInvalidNoDate }
  /// The notification has no user-facing content, but should.
  public static var notificationInvalidNoContent: Code { .notificationInvalidNoContent }

  /// The error the app hears for the phone's `error`: a ``UNError`` where iOS has a code for it,
  /// the phone's own error otherwise.
  static func forApp(_ error: (any Error)?) -> (any Error)? {
    guard let error = error as? DeviceError else { return error }
    switch error.code {
    case .notificationsNotAllowed: return UNError(.notificationsNotAllowed, reason: error.message)
    case .noNextDate: return UNError(.notificationInvalidNoDate, reason: error.message)
    default: return error
    }
  }
}

/// Whether `error` is a ``UNError`` with `code` (`catch UNError.notificationsNotAllowed`).
public func ~= (code: UNError.Code, error: any Error) -> Bool {
  (error as? UNError)?.code == code
}
