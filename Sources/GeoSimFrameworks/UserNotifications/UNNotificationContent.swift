import Device

/// What a notification shows and plays (`UNNotificationContent`): immutable, as the system
/// hands it back; make one with ``UNMutableNotificationContent``.
///
/// The fields are those the phone models (`Device.NotificationContent`): title, subtitle,
/// body, sound, badge, category, thread and `userInfo`. Attachments, interruption levels,
/// relevance scores and summary arguments are not provided. `userInfo` must hold property-list
/// values under string keys: anything else makes `add` fail (on a device it stops the app when
/// the request is added, as the system's encoder refuses it).
open class UNNotificationContent: NSObject, NSCopying, NSMutableCopying, @unchecked Sendable {
  // Unchecked: the immutable class is immutable; the mutable one belongs to the app's main
  // thread, as on iOS.
  var fields: Fields

  /// The content's values, shared by the immutable and the mutable class.
  struct Fields {
    var title = ""
    var subtitle = ""
    var body = ""
    var sound: UNNotificationSound?
    var badge: NSNumber?
    var categoryIdentifier = ""
    var threadIdentifier = ""
    var userInfo: [AnyHashable: Any] = [:]
  }

  /// Empty content: no title, body or sound.
  public override init() {
    fields = Fields()
    super.init()
  }

  init(fields: Fields) {
    self.fields = fields
    super.init()
  }

  /// The title; empty when none.
  open var title: String { fields.title }
  /// The subtitle; empty when none.
  open var subtitle: String { fields.subtitle }
  /// The message; empty when none.
  open var body: String { fields.body }
  /// The sound; `nil` plays none.
  open var sound: UNNotificationSound? { fields.sound }
  /// The number for the app's badge; `nil` leaves the badge as it is.
  open var badge: NSNumber? { fields.badge }
  /// The category that selects the notification's actions.
  open var categoryIdentifier: String { fields.categoryIdentifier }
  /// The group the notification is shown in; empty for the app's own group.
  open var threadIdentifier: String { fields.threadIdentifier }
  /// The app's own data.
  open var userInfo: [AnyHashable: Any] { fields.userInfo }

  /// An immutable copy.
  open func copy(with zone: NSZone? = nil) -> Any {
    UNNotificationContent(fields: fields)
  }

  /// A mutable copy.
  open func mutableCopy(with zone: NSZone? = nil) -> Any {
    UNMutableNotificationContent(fields: fields)
  }

  /// Contents are equal when every field is (`userInfo` compared as property lists).
  open override func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? UNNotificationContent else { return false }
    let a = fields
    let b = other.fields
    return a.title == b.title && a.subtitle == b.subtitle && a.body == b.body
      && a.sound == b.sound && a.badge == b.badge && a.categoryIdentifier == b.categoryIdentifier
      && a.threadIdentifier == b.threadIdentifier
      && Self.plist(a.userInfo) == Self.plist(b.userInfo)
  }

  /// The hash of the title and body.
  open override var hash: Int {
    var hasher = Hasher()
    hasher.combine(fields.title)
    hasher.combine(fields.body)
    return hasher.finalize()
  }

  private static func plist(_ userInfo: [AnyHashable: Any]) -> [String: StoredValue]? {
    var entries: [String: StoredValue] = [:]
    for (key, value) in userInfo {
      guard let key = key.base as? String,
        let stored = PropertyList.storedValue(value, epoch: Date(timeIntervalSince1970: 0))
      else { return nil }
      entries[key] = stored
    }
    return entries
  }

  // MARK: The phone's content

  /// The phone's content, or why iOS would not take it.
  func deviceContent(epoch: Date) -> Result<NotificationContent, UNRefusal> {
    var userInfo: [String: StoredValue] = [:]
    for (key, value) in fields.userInfo {
      guard let name = key.base as? String else {
        return .failure(
          UNRefusal(
            .invalidContent, "a userInfo key of type \(type(of: key.base)) is not a string",
            code: .invalidArgument))
      }
      guard let stored = PropertyList.storedValue(value, epoch: epoch) else {
        return .failure(
          UNRefusal(
            .invalidContent,
            "userInfo[\"\(name)\"] of type \(PropertyList.typeName(value)) is not a property-list value",
            code: .invalidArgument))
      }
      userInfo[name] = stored
    }
    return .success(
      NotificationContent(
        title: fields.title, subtitle: fields.subtitle, body: fields.body,
        sound: fields.sound?.sound, badge: fields.badge?.intValue,
        categoryIdentifier: fields.categoryIdentifier, userInfo: userInfo,
        threadIdentifier: fields.threadIdentifier))
  }

  /// The app's content for the phone's.
  convenience init(_ content: NotificationContent, epoch: Date) {
    self.init(
      fields: Fields(
        title: content.title, subtitle: content.subtitle, body: content.body,
        sound: content.sound.map(UNNotificationSound.init),
        badge: content.badge.map { NSNumber(value: $0) },
        categoryIdentifier: content.categoryIdentifier, threadIdentifier: content.threadIdentifier,
        userInfo: content.userInfo.reduce(into: [:]) { info, entry in
          info[AnyHashable(entry.key)] = PropertyList.object(entry.value, epoch: epoch)
        }))
  }
}

/// Content the app fills in before making a request (`UNMutableNotificationContent`).
open class UNMutableNotificationContent: UNNotificationContent, @unchecked Sendable {
  /// The title; empty when none.
  open override var title: String {
    get { fields.title }
    set { fields.title = newValue }
  }
  /// The subtitle; empty when none.
  open override var subtitle: String {
    get { fields.subtitle }
    set { fields.subtitle = newValue }
  }
  /// The message; empty when none.
  open override var body: String {
    get { fields.body }
    set { fields.body = newValue }
  }
  /// The sound; `nil`, the default, plays none.
  open override var sound: UNNotificationSound? {
    get { fields.sound }
    set { fields.sound = newValue }
  }
  /// The number for the app's badge; `nil`, the default, leaves the badge as it is.
  open override var badge: NSNumber? {
    get { fields.badge }
    set { fields.badge = newValue }
  }
  /// The category that selects the notification's actions.
  open override var categoryIdentifier: String {
    get { fields.categoryIdentifier }
    set { fields.categoryIdentifier = newValue }
  }
  /// The group the notification is shown in; empty for the app's own group.
  open override var threadIdentifier: String {
    get { fields.threadIdentifier }
    set { fields.threadIdentifier = newValue }
  }
  /// The app's own data: property-list values under string keys.
  open override var userInfo: [AnyHashable: Any] {
    get { fields.userInfo }
    set { fields.userInfo = newValue }
  }
}

/// The name of a sound file in the app's bundle (`UNNotificationSoundName`).
public struct UNNotificationSoundName: RawRepresentable, Hashable, Sendable {
  /// The file name.
  public let rawValue: String
  /// A sound name.
  public init(rawValue: String) { self.rawValue = rawValue }
  /// A sound name.
  public init(_ rawValue: String) { self.rawValue = rawValue }
}

/// The sound a notification plays (`UNNotificationSound`): the system's default or a file in
/// the app's bundle. Critical and ringtone sounds are not provided.
open class UNNotificationSound: NSObject, NSCopying, @unchecked Sendable {
  // Unchecked: immutable.
  let sound: NotificationSound

  init(_ sound: NotificationSound) {
    self.sound = sound
    super.init()
  }

  /// The system's default sound.
  open class var `default`: UNNotificationSound { UNNotificationSound(.default) }

  /// The sound file `name` in the app's bundle (not checked: the phone has no bundle).
  public convenience init(named name: UNNotificationSoundName) {
    self.init(.named(name.rawValue))
  }

  /// Itself: a sound is immutable.
  open func copy(with zone: NSZone? = nil) -> Any { self }

  /// Sounds are equal when they play the same.
  open override func isEqual(_ object: Any?) -> Bool {
    (object as? UNNotificationSound)?.sound == sound
  }

  /// The sound's hash.
  open override var hash: Int { sound.hashValue }
}
