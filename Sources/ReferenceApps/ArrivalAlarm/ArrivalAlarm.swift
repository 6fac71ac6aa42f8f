import Device
import Geo
import GeoSimFrameworks
import JSON
import SimKernel

/// Article 004 (arrival alarm): type a destination, press 📍, and a notification fires when the
/// phone enters a circle around it.
///
/// The model layer as the article writes it:
/// - `requestAuthorization()`: notification permission for `[.alert, .sound]`; only if
///   granted, `requestWhenInUseAuthorization()` (called at a launch by the user: the article
///   does not show the call site);
/// - `remove(_ id:)`: every identifier of `getAll()` with the prefix `id` is removed from the
///   pending and the delivered notifications, then `stopRegionMonitoring(id)`;
/// - `locateNotification(latitude:longitude:radius:identifier:sound:message:)`: a
///   `CLCircularRegion` with `notifyOnExit = false`, `notifyOnEntry = true`, a
///   `UNLocationNotificationTrigger(region:repeats: false)`, content titled with the app's
///   name, the message as body, the named sound, the app's name as category; `add(request,
///   withCompletionHandler: nil)`; then `startUpdatingLocation(region)`;
/// - `startUpdatingLocation(_:)`: `if status == .start { return }`; `status = .start`;
///   `allowsBackgroundLocationUpdates = true`, `kCLLocationAccuracyNearestTenMeters`,
///   `distanceFilter = 10`, `.automotiveNavigation`, `startUpdatingLocation()`, then
///   `startMonitoring(for: region)`;
/// - `stopUpdatingLocation()`: stops updates, `status = .stop`.
///
/// Not shown in the article, and assumed here: `getAll()` returns the identifiers the app has
/// added (kept in its UserDefaults, so they survive relaunches like the system's list);
/// `stopRegionMonitoring(id)` stops monitoring every region whose identifier has the prefix
/// `id`; the destination text is geocoded with `CLGeocoder.geocodeAddressString` (the article
/// refers to another article for it) and the first placemark is used; the request's identifier
/// is the prefix, `"."`, and the destination's name. The location manager's delegate only
/// records region events: the alarm itself is the notification.
///
/// As published (kept): the early `if status == .start { return }` in `startUpdatingLocation`
/// (article, "既に開始済みの場合、開始しない") also skips `startMonitoring(for: region)`, and
/// `remove` stops the old region's monitoring without resetting `status`, so from the second
/// alarm of a session on only the notification trigger watches the destination. Both the
/// trigger and the monitored region start by adopting the current state silently [A], so an
/// alarm set while already inside the circle never fires (there is no entry) until the phone
/// leaves and comes back. If the notification permission is refused, location permission is
/// never requested (`if granted`), and a location trigger needs it [A].
///
/// The article sets no notification-center delegate (it tests with the app in the
/// background), so as published an arrival while the app is on screen is delivered without a
/// banner or a sound, as iOS does without a delegate's answer [A]
/// (`userNotificationCenter(_:willPresent:withCompletionHandler:)`): a commuter who keeps the
/// app open hears no alarm.
///
/// Corrected (the smallest changes): the region is monitored even when updates already run
/// (the `status` check guards only the updates); after monitoring starts the app asks
/// `requestState(for:)` and, if the answer is inside, replaces the pending request with one
/// delivered at once (same identifier and content, no trigger); the app is the notification
/// center's delegate and presents an alarm that arrives in the foreground with a banner and
/// its sound.
///
/// Nothing in this port traps.
///
/// Screen: the text field `"destination"` (typing and submitting geocodes it) and the button
/// `"pin"` (📍: removes the old alarms and registers one at the destination).
/// ``observableState``:
/// - `"destination"`: `{"name", "latitude", "longitude"}` or `null`;
/// - `"alarmRegistered"`: whether this app instance registered an alarm;
/// - `"alarmIdentifier"`: the last registered identifier, or `null`;
/// - `"monitoredRegions"`: the identifiers of the regions the app monitors, sorted;
/// - `"updatingLocation"`: the article's `status == .start`.
///
/// Event log (source `"app"`): `"destination"` (`name`, `latitude`, `longitude`),
/// `"destination.failed"` (`error`), `"alarm.removed"` (`identifier`), `"alarm.registered"`
/// (`identifier`, `latitude`, `longitude`, `radius`), `"monitoring.started"` (`identifier`),
/// `"monitoring.skipped"` (`identifier`: the early return kept as published),
/// `"alarm.noDestination"`, `"region.state"` (`identifier`, `state`), `"region.entered"`
/// (`identifier`), `"alarm.alreadyInside"` (corrected: `identifier`).
public final class ArrivalAlarm: ReferenceApp<ArrivalAlarm.Configuration>, SimulatedApp, AppScreen,
  CLLocationManagerDelegate, UNUserNotificationCenterDelegate, @unchecked Sendable
{
  // Unchecked: the app lives on its phone's main thread (one world, one thread), where the
  // notification center's completion handlers run, as on iOS.

  /// The app's configuration.
  ///
  /// Keys (all optional):
  /// - `"destination"` `{"latitude", "longitude"}`: a destination set at launch (the name is
  ///   `"latitude,longitude"`); default none, the user types one;
  /// - `"radius"`: metres, default 200 [?] (the article passes its own value, not shown);
  /// - `"identifierPrefix"`: default `"arrival"`;
  /// - `"message"`: the notification's body, default `"目的地に到着しました"`;
  /// - `"sound"`: the sound file, default `"alarm.caf"`;
  /// - `"appName"`: title and category, default `"ArrivalAlarm"`.
  public struct Configuration: Sendable {
    var destination: Coordinate?
    var radius = 200.0
    var identifierPrefix = "arrival"
    var message = "目的地に到着しました"
    var sound = "alarm.caf"
    var appName = "ArrivalAlarm"

    /// The defaults.
    public init() {}

    /// Reads and validates a configuration object.
    public init(json: JSONValue) throws(ReferenceAppConfigurationError) {
      let reader = try ConfigurationReader(
        json,
        allowed: ["destination", "radius", "identifierPrefix", "message", "sound", "appName"])
      destination = try reader.coordinate("destination")
      radius = try reader.number("radius", in: 0...Double.greatestFiniteMagnitude) ?? radius
      identifierPrefix = try reader.string("identifierPrefix", nonEmpty: true) ?? identifierPrefix
      message = try reader.string("message") ?? message
      sound = try reader.string("sound", nonEmpty: true) ?? sound
      appName = try reader.string("appName", nonEmpty: true) ?? appName
    }
  }

  /// The article's `status`.
  enum Status {
    case start
    case stop
  }

  /// Where the alarm rings.
  struct Destination {
    var name: String
    var coordinate: CLLocationCoordinate2D
  }

  static let identifiersKey = "ArrivalAlarm.notificationIdentifiers"

  /// ロケーションマネージャー: the article's `let locationManager = CLLocationManager()`, made
  /// when the app launches.
  public private(set) var locationManager: CLLocationManager!
  private var geocoder: CLGeocoder!
  private var status = Status.stop
  private var destination: Destination?
  private var alarmIdentifier: String?
  /// Corrected: regions whose state was asked after registration, with their requests.
  private var awaitingState: [String: UNNotificationRequest] = [:]

  /// The article's `appName`.
  private var appName: String { configuration.appName }

  /// Creates the manager and, at a launch by the user, asks for permissions.
  public func didLaunch(on phone: Phone, reason: LaunchReason) {
    self.phone = phone
    locationManager = CLLocationManager()
    locationManager.delegate = self
    geocoder = CLGeocoder()
    // Corrected: an alarm that arrives while the app is on screen still rings.
    if variant == .corrected { UNUserNotificationCenter.current().delegate = self }
    if let c = configuration.destination {
      destination = Destination(
        name: "\(c.latitude),\(c.longitude)",
        coordinate: CLLocationCoordinate2D(latitude: c.latitude, longitude: c.longitude))
    }
    if reason == .user { requestAuthorization() }
  }

  /// 通知の許可: notifications, then (if granted) When In Use.
  func requestAuthorization() {
    // 通知の許可
    UNUserNotificationCenter.current().requestAuthorization(
      options: [.alert, .sound]
    ) {
      (granted, _) in
      if granted {
        // 使用中に位置情報の取得を許可
        self.locationManager.requestWhenInUseAuthorization()
      }
    }
  }

  // MARK: Destination and 📍

  /// Geocodes the typed destination.
  func search(_ text: String) {
    geocoder.geocodeAddressString(text) { [weak self] placemarks, error in
      guard let self else { return }
      guard let placemark = placemarks?.first, let location = placemark.location else {
        self.phone?.recordAppEvent(
          "destination.failed",
          [LogField("error", .string(error.map(Self.code) ?? "noResult"))])
        return
      }
      let destination = Destination(
        name: placemark.name ?? text, coordinate: location.coordinate)
      self.destination = destination
      self.phone?.recordAppEvent(
        "destination",
        [LogField("name", .string(destination.name))] + logFields(destination.coordinate))
    }
  }

  /// A geocoding error's Core Location code, as the log names it.
  static func code(_ error: any Error) -> String {
    (error as? CLError).map { "\($0.code)" } ?? "\(error)"
  }

  /// 📍: removes the old alarms and registers one at the destination.
  func pinPressed() {
    guard let destination else {
      phone?.recordAppEvent("alarm.noDestination")
      return
    }
    remove(configuration.identifierPrefix)
    locateNotification(
      latitude: destination.coordinate.latitude, longitude: destination.coordinate.longitude,
      radius: configuration.radius,
      identifier: "\(configuration.identifierPrefix).\(destination.name)",
      sound: configuration.sound, message: configuration.message)
  }

  /// The identifiers the app has added (`getAll()`, not shown in the article).
  private func getAll() -> [String] {
    let stored = UserDefaults.standard.array(forKey: Self.identifiersKey) ?? []
    return stored.compactMap { $0 as? String }
  }

  private func setAll(_ identifiers: [String]) {
    UserDefaults.standard.set(identifiers, forKey: Self.identifiersKey)
  }

  /// 通知の削除: `remove(_ id:)`.
  func remove(_ id: String) {
    var kept: [String] = []
    // 通知の取得
    for identifier in getAll() {
      // 文字列の部分一致
      if identifier.hasPrefix(id) {
        phone?.recordAppEvent("alarm.removed", [LogField("identifier", .string(identifier))])
        // ペンディング中の通知の削除
        UNUserNotificationCenter.current().removePendingNotificationRequests(
          withIdentifiers: [identifier])
        // 通知済の通知の削除
        UNUserNotificationCenter.current().removeDeliveredNotifications(
          withIdentifiers: [identifier])
      } else {
        kept.append(identifier)
      }
    }
    setAll(kept)
    // ロケーション監視の停止
    stopRegionMonitoring(id)
  }

  /// `stopRegionMonitoring(_:)` (not shown in the article): every region with the prefix.
  private func stopRegionMonitoring(_ id: String) {
    for region in locationManager.monitoredRegions.sorted(by: { $0.identifier < $1.identifier })
    where region.identifier.hasPrefix(id) {
      locationManager.stopMonitoring(for: region)
    }
  }

  /// 場所通知: `locateNotification(latitude:longitude:radius:identifier:sound:message:)`.
  func locateNotification(
    latitude: Double, longitude: Double, radius: Double, identifier: String, sound: String,
    message: String
  ) {
    // ロケーション作成
    let coordinate = CLLocationCoordinate2DMake(latitude, longitude)
    // 範囲を作成
    let region = CLCircularRegion.init(center: coordinate, radius: radius, identifier: identifier)
    // 範囲の中から外への移動は通知しないが、範囲の外から中へは通知する設定
    region.notifyOnExit = false
    region.notifyOnEntry = true
    // 作成した範囲に入った時に通知をするトリガーを作成
    let trigger = UNLocationNotificationTrigger(region: region, repeats: false)

    // 通知する内容を作成
    let content = UNMutableNotificationContent()
    let notificationSound = UNNotificationSoundName(rawValue: sound)

    content.title = self.appName
    content.body = message
    content.sound = UNNotificationSound(named: notificationSound)
    content.categoryIdentifier = appName

    // 通知要求
    let request = UNNotificationRequest(
      identifier: identifier, content: content, trigger: trigger)

    // 通知追加
    UNUserNotificationCenter.current().add(request, withCompletionHandler: nil)
    setAll(getAll().filter { $0 != identifier } + [identifier])
    alarmIdentifier = identifier
    phone?.recordAppEvent(
      "alarm.registered",
      [LogField("identifier", .string(identifier))] + logFields(coordinate)
        + [LogField("radius", .double(radius))])
    if variant == .corrected { awaitingState[identifier] = request }

    // モニタリング開始
    startUpdatingLocation(region)
  }

  /// ロケーション監視開始: `startUpdatingLocation(_:)`.
  func startUpdatingLocation(_ region: CLCircularRegion? = nil) {
    // 既に開始済みの場合、開始しない
    if status == .start {
      if variant == .asPublished {
        if let region {
          phone?.recordAppEvent(
            "monitoring.skipped", [LogField("identifier", .string(region.identifier))])
        }
        return
      }
      // Corrected: the check guards the updates only.
      if let region { startMonitoring(region) }
      return
    }
    // ステータス設定
    status = .start
    // Backgroundでの位置情報の更新を許可する
    locationManager.allowsBackgroundLocationUpdates = true
    // 精度-10m以内
    locationManager.desiredAccuracy = kCLLocationAccuracyNearestTenMeters
    // 更新頻度(m)
    locationManager.distanceFilter = 10
    // 移動タイプ
    locationManager.activityType = .automotiveNavigation
    // 位置情報の監視開始
    locationManager.startUpdatingLocation()

    if let region = region {
      startMonitoring(region)
    }
  }

  /// `locationManager.startMonitoring(for: region)`; corrected, then `requestState(for:)`.
  private func startMonitoring(_ region: CLCircularRegion) {
    locationManager.startMonitoring(for: region)
    phone?.recordAppEvent(
      "monitoring.started", [LogField("identifier", .string(region.identifier))])
    if variant == .corrected {
      locationManager.requestState(for: region)
    }
  }

  /// ロケーション監視停止: `stopUpdatingLocation()`.
  func stopUpdatingLocation() {
    // ロケーションの監視停止
    locationManager.stopUpdatingLocation()
    // ステータス変更
    status = .stop
  }

  // MARK: CLLocationManagerDelegate

  /// Records the state; corrected: an alarm set inside its circle rings at once.
  public func locationManager(
    _ manager: CLLocationManager, didDetermineState state: CLRegionState, for region: CLRegion
  ) {
    phone?.recordAppEvent(
      "region.state",
      [
        LogField("identifier", .string(region.identifier)),
        LogField("state", .string(state.description)),
      ])
    guard let request = awaitingState.removeValue(forKey: region.identifier), state == .inside
    else { return }
    phone?.recordAppEvent(
      "alarm.alreadyInside", [LogField("identifier", .string(region.identifier))])
    // Same identifier and content, no trigger: replaces the pending request, delivered now.
    let now = UNNotificationRequest(
      identifier: request.identifier, content: request.content, trigger: nil)
    UNUserNotificationCenter.current().add(now, withCompletionHandler: nil)
  }

  /// Records the entry.
  public func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion) {
    phone?.recordAppEvent("region.entered", [LogField("identifier", .string(region.identifier))])
  }

  // MARK: UNUserNotificationCenterDelegate

  /// Corrected: the alarm arrives while the app is on screen; show it and play its sound.
  public func userNotificationCenter(
    _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
    withCompletionHandler completionHandler:
      @escaping @Sendable (UNNotificationPresentationOptions) -> Void
  ) {
    completionHandler([.banner, .sound, .list])
  }

  // MARK: AppScreen

  /// Types the destination (`"destination"`) and submits it.
  public func enterText(_ text: String, in field: String) throws {
    try ArrivalAlarm.requireField(field)
    search(text)
  }

  /// The 📍 button (`"pin"`).
  public func tapButton(_ button: String) throws {
    try ArrivalAlarm.requireButton(button)
    pinPressed()
  }

  /// Throws unless `field` is the screen's one text field, `"destination"` (both variants).
  static func requireField(_ field: String) throws {
    guard field == "destination" else {
      throw DeviceError(.invalidArgument, "ArrivalAlarm has no text field '\(field)'")
    }
  }

  /// Throws unless `button` is the screen's one button, `"pin"` (both variants).
  static func requireButton(_ button: String) throws {
    guard button == "pin" else {
      throw DeviceError(.invalidArgument, "ArrivalAlarm has no button '\(button)'")
    }
  }

  /// `{"destination", "alarmRegistered", "alarmIdentifier", "monitoredRegions",
  /// "updatingLocation"}`.
  public var observableState: JSONValue {
    let regions = (locationManager?.monitoredRegions ?? []).map(\.identifier).sorted()
    return .object([
      "destination": destination.map {
        .object([
          "name": .string($0.name), "latitude": .number($0.coordinate.latitude),
          "longitude": .number($0.coordinate.longitude),
        ])
      } ?? .null,
      "alarmRegistered": .bool(alarmIdentifier != nil),
      "alarmIdentifier": alarmIdentifier.map(JSONValue.string) ?? .null,
      "monitoredRegions": .array(regions.map(JSONValue.string)),
      "updatingLocation": .bool(status == .start),
    ])
  }
}

/// `latitude` and `longitude` log fields.
func logFields(_ coordinate: CLLocationCoordinate2D) -> [LogField] {
  [
    LogField("latitude", .double(coordinate.latitude)),
    LogField("longitude", .double(coordinate.longitude)),
  ]
}
