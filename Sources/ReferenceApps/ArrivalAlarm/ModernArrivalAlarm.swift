import Device
import GeoSimFrameworks
import JSON
import SimKernel

/// Article 004's arrival alarm (variant `modern`) as an iOS 18 developer writes it today: the
/// same screen, configuration and notification as ``ArrivalAlarm``, on the iOS 17–18 APIs
/// instead of the delegate-era ones.
///
/// What it does:
/// - at every launch it opens the monitor `"ArrivalAlarm"` (`await CLMonitor(_:)`) and a task
///   iterates its `events` for as long as the process lives: that is how a CLMonitor app
///   receives an event that relaunched it [A] (docs/DEVICE.md, "CLMonitor"); conditions it
///   finds there are alarms set by an earlier process, whose destination is read back from
///   the condition's record;
/// - at a launch by the user: `try await UNUserNotificationCenter.current()
///   .requestAuthorization(options: [.alert, .sound])`; location is not asked yet;
/// - the destination text is geocoded with `try await CLGeocoder().geocodeAddressString(_:)`,
///   first placemark, as the delegate variants do;
/// - 📍: a `CLServiceSession(authorization: .whenInUse)` is created and held while an alarm is
///   set (this is when the location prompt appears: at the user's action, in the foreground);
///   the alarms of the identifier prefix are removed (`monitor.remove`, and their pending and
///   delivered notifications); the destination is added as a
///   `CLMonitor.CircularGeographicCondition` under the same identifier as the other variants'
///   request (prefix, `"."`, destination name), assuming `.unknown`, so that the first state is
///   an event; a `CLBackgroundActivitySession` is started and a task iterates
///   `CLLocationUpdate.liveUpdates(.automotiveNavigation)`, keeping the remaining distance;
/// - an event `.satisfied` (after another state, or first for an alarm set inside its circle)
///   rings: a `UNNotificationRequest` with the other variants' identifier and content and
///   `trigger: nil`, delivered at once; the alarm is then over: its condition is removed, the
///   live updates stop, and both sessions are invalidated;
/// - the app is the notification center's delegate (`UNUserNotificationCenterDelegate`, set at
///   every launch) and presents an alarm that arrives while it is on screen with a banner and
///   its sound, as the corrected variant does; without it iOS shows none [A].
///
/// Why `.whenInUse`: Apple asks apps to prefer When In Use whenever possible [A] (*Choosing
/// the location services authorization to request*), and an arrival alarm is used during a
/// journey the user starts in the app: the background activity session keeps a When In Use app
/// in use in the background, with the blue indicator [A], so its monitor's events reach it
/// there. The price is documented: a When In Use app receives events only while it is in use
/// [A], so once the app is terminated the alarm cannot ring (where the delegate variants'
/// `UNLocationNotificationTrigger` still fires, the system monitoring its region [A]);
/// with Always granted in Settings, the monitor's event relaunches the terminated app, which
/// rings.
///
/// The app's Info.plist sets `NSLocationRequireExplicitServiceSession` [A] (WWDC24 "What's new
/// in location authorization"): iterating the monitor at launch then holds no implicit session,
/// so no location prompt competes with the notification prompt; an app that requires explicit
/// sessions has its monitor's transitions held back while it holds none [A], so a process that
/// finds an alarm set (a relaunch) creates its session at launch.
///
/// Not in the delegate variants, and assumed here: the monitor's name; the alarm ends after it
/// rings (the others' trigger does not repeat); permission changes are shown, not acted on:
/// ``observableState``'s `"diagnostics"` are those of the alarm's last monitor event.
///
/// Nothing in this port traps.
///
/// Screen: the text field `"destination"` and the button `"pin"` (📍), as ``ArrivalAlarm``.
/// ``observableState``:
/// - `"destination"`: `{"name", "latitude", "longitude"}` or `null`;
/// - `"alarmRegistered"`: whether this app instance registered an alarm or found one set;
/// - `"alarmIdentifier"`: the alarm's identifier, or `null`;
/// - `"monitoredRegions"`: the identifiers of the monitor's conditions, sorted;
/// - `"updatingLocation"`: whether the live updates run;
/// - `"remainingDistance"`: metres from the last live update's location to the destination,
///   or `null` (the fixes themselves are the phone's `location` entries);
/// - `"diagnostics"`: the diagnostics of the alarm's last monitor event
///   (`"authorizationDenied"`, `"insufficientlyInUse"`, …), sorted.
///
/// Event log (source `"app"`): `"destination"` (`name`, `latitude`, `longitude`),
/// `"destination.failed"` (`error`), `"alarm.noDestination"`, `"alarm.removed"`
/// (`identifier`), `"alarm.registered"` (`identifier`, `latitude`, `longitude`, `radius`),
/// `"monitoring.started"` (`identifier`: the condition was added), `"monitor.event"`
/// (`identifier`, `state`, `diagnostics`), `"alarm.alreadyInside"` (`identifier`: the first
/// state of an alarm set here was `.satisfied`), `"region.entered"` (`identifier`: any other
/// `.satisfied`), `"updates.started"` and `"updates.stopped"` (`reason`: `arrived`).
public final class ModernArrivalAlarm: ReferenceApp<ArrivalAlarm.Configuration>, SimulatedApp,
  AppScreen, UNUserNotificationCenterDelegate, @unchecked Sendable
{
  // Unchecked: the app lives on its phone's main thread (one world, one thread), where its
  // tasks and the monitor's actor run.

  /// The monitor's name.
  static let monitorName = "ArrivalAlarm"

  /// The monitor opened at launch; every use awaits it.
  private var monitor: Task<CLMonitor, Never>!
  private var geocoder: CLGeocoder!
  private var destination: ArrivalAlarm.Destination?
  private var alarmIdentifier: String?
  /// The monitor's identifiers as the app last set or read them (the actor's are async).
  private var conditions: [String] = []
  /// Conditions added by this process, for telling "already inside" from an arrival.
  private var addedHere: Set<String> = []
  /// The state each condition's last event told.
  private var heard: [String: CLMonitor.Event.State] = [:]
  private var diagnostics: [String] = []
  private var session: CLServiceSession?
  private var backgroundActivity: CLBackgroundActivitySession?
  private var journey: Task<Void, Never>?
  private var remainingDistance: Double?

  private var prefix: String { configuration.identifierPrefix }

  /// Requires explicit service sessions (`NSLocationRequireExplicitServiceSession`).
  public var infoPlist: InfoPlist { InfoPlist(requiresExplicitServiceSession: true) }

  /// Opens the monitor and iterates its events; at a launch by the user, asks for
  /// notifications.
  public func didLaunch(on phone: Phone, reason: LaunchReason) {
    self.phone = phone
    geocoder = CLGeocoder()
    UNUserNotificationCenter.current().delegate = self
    if let c = configuration.destination {
      destination = ArrivalAlarm.Destination(
        name: "\(c.latitude),\(c.longitude)",
        coordinate: CLLocationCoordinate2D(latitude: c.latitude, longitude: c.longitude))
    }
    if reason == .user {
      Task {
        _ = try? await UNUserNotificationCenter.current().requestAuthorization(
          options: [.alert, .sound])
      }
    }
    let name = Self.monitorName
    monitor = Task { await CLMonitor(name) }
    Task { await self.watch(foreground: reason == .user) }
  }

  // MARK: The monitor

  /// Picks up an alarm an earlier process set, then handles every event.
  private func watch(foreground: Bool) async {
    let monitor = await monitor.value
    let found = await monitor.identifiers.filter { $0.hasPrefix(prefix) }
    if let identifier = found.last {
      conditions = found
      alarmIdentifier = identifier
      if let record = await monitor.record(for: identifier),
        let circle = record.condition as? CLMonitor.CircularGeographicCondition
      {
        destination = ArrivalAlarm.Destination(
          name: String(identifier.dropFirst(prefix.count + 1)), coordinate: circle.center)
      }
      // An alarm is set: hold the session at once, or its transitions are held back.
      holdSession()
      if foreground { startJourney() }
    }
    do {
      for try await event in await monitor.events {
        await handle(event)
      }
    } catch {
      // A monitor's events never fail.
    }
  }

  private func handle(_ event: CLMonitor.Event) async {
    let names = Self.diagnosticNames(event)
    phone?.recordAppEvent(
      "monitor.event",
      [
        LogField("identifier", .string(event.identifier)),
        LogField("state", .string(event.state.description)),
        LogField("diagnostics", .array(names.map(LogValue.string))),
      ])
    let identifier = event.identifier
    guard conditions.contains(identifier) else { return }
    let previous = heard[identifier]
    heard[identifier] = event.state
    if identifier == alarmIdentifier { diagnostics = names }
    guard event.state == .satisfied, previous != .satisfied else { return }
    let alreadyInside = addedHere.contains(identifier) && (previous ?? .unknown) == .unknown
    phone?.recordAppEvent(
      alreadyInside ? "alarm.alreadyInside" : "region.entered",
      [LogField("identifier", .string(identifier))])
    await ring(identifier)
  }

  /// Posts the alarm, then ends it.
  private func ring(_ identifier: String) async {
    let content = UNMutableNotificationContent()
    content.title = configuration.appName
    content.body = configuration.message
    content.sound = UNNotificationSound(
      named: UNNotificationSoundName(rawValue: configuration.sound))
    content.categoryIdentifier = configuration.appName
    let request = UNNotificationRequest(identifier: identifier, content: content, trigger: nil)
    // A refusal (notifications not allowed) is the center's to log.
    try? await UNUserNotificationCenter.current().add(request)
    await monitor.value.remove(identifier)
    conditions.removeAll { $0 == identifier }
    guard conditions.isEmpty else { return }
    endJourney("arrived")
    session?.invalidate()
    session = nil
  }

  /// The names of the event's diagnostics, sorted.
  private static func diagnosticNames(_ event: CLMonitor.Event) -> [String] {
    let flags: [(String, Bool)] = [
      ("accuracyLimited", event.accuracyLimited),
      ("authorizationDenied", event.authorizationDenied),
      ("authorizationDeniedGlobally", event.authorizationDeniedGlobally),
      ("authorizationRequestInProgress", event.authorizationRequestInProgress),
      ("authorizationRestricted", event.authorizationRestricted),
      ("conditionLimitExceeded", event.conditionLimitExceeded),
      ("conditionUnsupported", event.conditionUnsupported),
      ("insufficientlyInUse", event.insufficientlyInUse),
      ("persistenceUnavailable", event.persistenceUnavailable),
      ("serviceSessionRequired", event.serviceSessionRequired),
    ]
    return flags.filter(\.1).map(\.0)
  }

  // MARK: Destination and 📍

  /// Geocodes the typed destination.
  func search(_ text: String) {
    Task { await self.geocode(text) }
  }

  private func geocode(_ text: String) async {
    do {
      let placemarks = try await geocoder.geocodeAddressString(text)
      guard let placemark = placemarks.first, let location = placemark.location else {
        phone?.recordAppEvent("destination.failed", [LogField("error", .string("noResult"))])
        return
      }
      let destination = ArrivalAlarm.Destination(
        name: placemark.name ?? text, coordinate: location.coordinate)
      self.destination = destination
      phone?.recordAppEvent(
        "destination",
        [LogField("name", .string(destination.name))] + logFields(destination.coordinate))
    } catch {
      phone?.recordAppEvent(
        "destination.failed", [LogField("error", .string(ArrivalAlarm.code(error)))])
    }
  }

  /// 📍: holds the session and starts the journey now, in the foreground, then replaces the
  /// alarm.
  func pinPressed() {
    guard let destination else {
      phone?.recordAppEvent("alarm.noDestination")
      return
    }
    holdSession()
    startJourney()
    Task { await self.setAlarm(at: destination) }
  }

  /// Removes the old alarms and adds the destination to the monitor.
  private func setAlarm(at destination: ArrivalAlarm.Destination) async {
    let monitor = await monitor.value
    for identifier in await monitor.identifiers where identifier.hasPrefix(prefix) {
      await remove(identifier, from: monitor)
    }
    let identifier = "\(prefix).\(destination.name)"
    let radius = configuration.radius
    conditions.append(identifier)
    addedHere.insert(identifier)
    heard[identifier] = nil
    diagnostics = []
    alarmIdentifier = identifier
    self.destination = destination
    phone?.recordAppEvent(
      "alarm.registered",
      [LogField("identifier", .string(identifier))] + logFields(destination.coordinate)
        + [LogField("radius", .double(radius))])
    await monitor.add(
      CLMonitor.CircularGeographicCondition(center: destination.coordinate, radius: radius),
      identifier: identifier, assuming: .unknown)
    phone?.recordAppEvent("monitoring.started", [LogField("identifier", .string(identifier))])
  }

  /// Removes an alarm: its condition, and its pending and delivered notifications.
  private func remove(_ identifier: String, from monitor: CLMonitor) async {
    phone?.recordAppEvent("alarm.removed", [LogField("identifier", .string(identifier))])
    await monitor.remove(identifier)
    conditions.removeAll { $0 == identifier }
    heard[identifier] = nil
    let center = UNUserNotificationCenter.current()
    center.removePendingNotificationRequests(withIdentifiers: [identifier])
    center.removeDeliveredNotifications(withIdentifiers: [identifier])
  }

  // MARK: Sessions and live updates

  /// The When In Use session held while an alarm is set; creating it prompts in the
  /// foreground from notDetermined [A].
  private func holdSession() {
    if session == nil { session = CLServiceSession(authorization: .whenInUse) }
  }

  /// A background activity session and the live updates: the remaining distance, in the
  /// background too.
  private func startJourney() {
    guard journey == nil else { return }
    backgroundActivity = CLBackgroundActivitySession()
    phone?.recordAppEvent("updates.started")
    journey = Task { await self.travel() }
  }

  private func travel() async {
    do {
      for try await update in CLLocationUpdate.liveUpdates(.automotiveNavigation) {
        guard let location = update.location, let destination else { continue }
        let target = CLLocation(
          latitude: destination.coordinate.latitude,
          longitude: destination.coordinate.longitude)
        let distance = location.distance(from: target)
        if distance.isFinite { remainingDistance = distance }
      }
    } catch {
      // Live updates never fail; a cancelled loop ends without an error.
    }
  }

  private func endJourney(_ reason: String) {
    guard let journey else { return }
    journey.cancel()
    self.journey = nil
    backgroundActivity?.invalidate()
    backgroundActivity = nil
    phone?.recordAppEvent("updates.stopped", [LogField("reason", .string(reason))])
  }

  // MARK: UNUserNotificationCenterDelegate

  /// The alarm arrives while the app is on screen: show it and play its sound.
  public func userNotificationCenter(
    _ center: UNUserNotificationCenter, willPresent notification: UNNotification
  ) async -> UNNotificationPresentationOptions {
    [.banner, .sound, .list]
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

  /// `{"destination", "alarmRegistered", "alarmIdentifier", "monitoredRegions",
  /// "updatingLocation", "remainingDistance", "diagnostics"}`.
  public var observableState: JSONValue {
    .object([
      "destination": destination.map {
        .object([
          "name": .string($0.name), "latitude": .number($0.coordinate.latitude),
          "longitude": .number($0.coordinate.longitude),
        ])
      } ?? .null,
      "alarmRegistered": .bool(alarmIdentifier != nil),
      "alarmIdentifier": alarmIdentifier.map(JSONValue.string) ?? .null,
      "monitoredRegions": .array(conditions.sorted().map(JSONValue.string)),
      "updatingLocation": .bool(journey != nil),
      "remainingDistance": remainingDistance.map(JSONValue.number) ?? .null,
      "diagnostics": .array(diagnostics.map(JSONValue.string)),
    ])
  }
}
