import Device
import Foundation
import Geo
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
/// Corrected (the smallest changes): the region is monitored even when updates already run
/// (the `status` check guards only the updates); after monitoring starts the app asks
/// `requestState(for:)` and, if the answer is inside, replaces the pending request with one
/// delivered at once (same identifier and content, no trigger).
///
/// Neither variant sets a notification-center delegate (the article shows none and tests with
/// the app in the background), so an arrival while the app is in the foreground is delivered
/// without a banner, as iOS does.
///
/// Nothing in this port traps (the request's `try` cannot fail for a location trigger).
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
  LocationManagerDelegate
{
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
    var coordinate: Coordinate
  }

  static let identifiersKey = "ArrivalAlarm.notificationIdentifiers"

  /// The location manager (`let locationManager = CLLocationManager()`).
  public private(set) var locationManager: LocationManager?
  private var geocoder: Geocoder?
  private var status = Status.stop
  private var destination: Destination?
  private var alarmIdentifier: String?
  /// Corrected: regions whose state was asked after registration, with their requests.
  private var awaitingState: [String: NotificationRequest] = [:]

  /// Creates the manager and, at a launch by the user, asks for permissions.
  public func didLaunch(on phone: Phone, reason: LaunchReason) {
    self.phone = phone
    let manager = LocationManager(phone: phone)
    manager.delegate = self
    locationManager = manager
    geocoder = Geocoder(phone: phone, service: services.geocodingService)
    if let c = configuration.destination {
      destination = Destination(name: "\(c.latitude),\(c.longitude)", coordinate: c)
    }
    if reason == .user { requestAuthorization() }
  }

  /// `requestAuthorization()`: notifications, then (if granted) When In Use.
  func requestAuthorization() {
    phone?.notificationCenter.requestAuthorization(options: [.alert, .sound]) {
      [weak self] granted, _ in
      if granted {
        self?.locationManager?.requestWhenInUseAuthorization()
      }
    }
  }

  // MARK: Destination and 📍

  /// Geocodes the typed destination.
  func search(_ text: String) {
    geocoder?.geocodeAddressString(text) { [weak self] placemarks, error in
      guard let self else { return }
      guard let placemark = placemarks?.first else {
        self.phone?.recordAppEvent(
          "destination.failed",
          [LogField("error", .string(error.map { "\($0.code)" } ?? "noResult"))])
        return
      }
      let destination = Destination(
        name: placemark.name ?? text, coordinate: placemark.coordinate)
      self.destination = destination
      self.phone?.recordAppEvent(
        "destination",
        [LogField("name", .string(destination.name))] + destination.coordinate.logFields())
    }
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
    guard let phone else { return [] }
    let stored = phone.userDefaults().array(forKey: Self.identifiersKey) ?? []
    return stored.compactMap { if case .string(let s) = $0 { s } else { nil } }
  }

  private func setAll(_ identifiers: [String]) {
    phone?.userDefaults().set(
      .array(identifiers.map(StoredValue.string)), forKey: Self.identifiersKey)
  }

  /// `remove(_ id:)`.
  func remove(_ id: String) {
    guard let phone else { return }
    let center = phone.notificationCenter
    var kept: [String] = []
    for identifier in getAll() {
      if identifier.hasPrefix(id) {
        phone.recordAppEvent("alarm.removed", [LogField("identifier", .string(identifier))])
        center.removePendingNotificationRequests(withIdentifiers: [identifier])
        center.removeDeliveredNotifications(withIdentifiers: [identifier])
      } else {
        kept.append(identifier)
      }
    }
    setAll(kept)
    stopRegionMonitoring(id)
  }

  /// `stopRegionMonitoring(_:)` (not shown in the article): every region with the prefix.
  private func stopRegionMonitoring(_ id: String) {
    guard let locationManager else { return }
    for region in locationManager.monitoredRegions.sorted(by: { $0.identifier < $1.identifier })
    where region.identifier.hasPrefix(id) {
      locationManager.stopMonitoring(for: region)
    }
  }

  /// `locateNotification(latitude:longitude:radius:identifier:sound:message:)`.
  func locateNotification(
    latitude: Double, longitude: Double, radius: Double, identifier: String, sound: String,
    message: String
  ) {
    guard let phone, let coordinate = try? Coordinate(latitude: latitude, longitude: longitude)
    else { return }
    var region = CircularRegion(center: coordinate, radius: radius, identifier: identifier)
    region.notifyOnExit = false
    region.notifyOnEntry = true
    let trigger = NotificationTrigger.location(region, repeats: false)
    let content = NotificationContent(
      title: configuration.appName, body: message, sound: .named(sound),
      categoryIdentifier: configuration.appName)
    // A location trigger always validates.
    let request = try! NotificationRequest(
      identifier: identifier, content: content, trigger: trigger)
    phone.notificationCenter.add(request, withCompletionHandler: nil)
    setAll(getAll().filter { $0 != identifier } + [identifier])
    alarmIdentifier = identifier
    phone.recordAppEvent(
      "alarm.registered",
      [LogField("identifier", .string(identifier))] + coordinate.logFields()
        + [LogField("radius", .double(radius))])
    startUpdatingLocation(region, request: request)
  }

  /// `startUpdatingLocation(_:)`.
  private func startUpdatingLocation(_ region: CircularRegion?, request: NotificationRequest) {
    guard let locationManager, let phone else { return }
    if status == .start {
      if variant == .asPublished {
        if let region {
          phone.recordAppEvent(
            "monitoring.skipped", [LogField("identifier", .string(region.identifier))])
        }
        return
      }
      if let region { startMonitoring(region, request: request) }
      return
    }
    status = .start
    locationManager.allowsBackgroundLocationUpdates = true
    locationManager.desiredAccuracy = LocationAccuracy.nearestTenMeters
    locationManager.distanceFilter = 10
    locationManager.activityType = .automotiveNavigation
    locationManager.startUpdatingLocation()
    if let region { startMonitoring(region, request: request) }
  }

  private func startMonitoring(_ region: CircularRegion, request: NotificationRequest) {
    guard let locationManager else { return }
    locationManager.startMonitoring(for: region)
    phone?.recordAppEvent(
      "monitoring.started", [LogField("identifier", .string(region.identifier))])
    if variant == .corrected {
      awaitingState[region.identifier] = request
      locationManager.requestState(for: region)
    }
  }

  /// `stopUpdatingLocation()`.
  func stopUpdatingLocation() {
    locationManager?.stopUpdatingLocation()
    status = .stop
  }

  // MARK: CLLocationManagerDelegate

  /// Records the state; corrected: an alarm set inside its circle rings at once.
  public func locationManager(
    _ manager: LocationManager, didDetermineState state: RegionState, for region: CircularRegion
  ) {
    guard let phone else { return }
    phone.recordAppEvent(
      "region.state",
      [
        LogField("identifier", .string(region.identifier)),
        LogField("state", .string(state.description)),
      ])
    guard let request = awaitingState.removeValue(forKey: region.identifier), state == .inside
    else { return }
    phone.recordAppEvent(
      "alarm.alreadyInside", [LogField("identifier", .string(region.identifier))])
    // Same identifier and content, no trigger: replaces the pending request, delivered now.
    let now = try! NotificationRequest(
      identifier: request.identifier, content: request.content, trigger: nil)
    phone.notificationCenter.add(now, withCompletionHandler: nil)
  }

  /// Records the entry.
  public func locationManager(_ manager: LocationManager, didEnterRegion region: CircularRegion) {
    phone?.recordAppEvent("region.entered", [LogField("identifier", .string(region.identifier))])
  }

  // MARK: AppScreen

  /// Types the destination (`"destination"`) and submits it.
  public func enterText(_ text: String, in field: String) throws {
    guard field == "destination" else {
      throw DeviceError(.invalidArgument, "ArrivalAlarm has no text field '\(field)'")
    }
    search(text)
  }

  /// The 📍 button (`"pin"`).
  public func tapButton(_ button: String) throws {
    guard button == "pin" else {
      throw DeviceError(.invalidArgument, "ArrivalAlarm has no button '\(button)'")
    }
    pinPressed()
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
