import Foundation
import Geo
import SimKernel

/// A simulated phone running one app: location services, permissions, region monitoring,
/// notifications, storage and lifecycle, all on one `Simulation`'s clock.
///
/// The scenario drives it — ``launchApp()``, ``sendAppToBackground()``, Settings changes,
/// ``answerPrompt(_:)`` — and the app reacts through ``LocationManager`` and its delegate. Every
/// observable effect is recorded in the simulation's event log. A phone belongs to one world and
/// one thread.
///
/// The phone is made of services, each the one owner of its state: the app's process
/// (`AppProcess`), the location permission (`AuthorizationService`), the managers and their
/// updates (`LocationService`), region monitoring (`RegionService`), significant location
/// changes (`SignificantChangeService`), visits (`VisitService`), notifications
/// (``UserNotificationCenter``) and storage. A service changes its own state only and asks the
/// others, through the phone, for theirs.
public final class Phone: LifetimeOwner {
  /// The world's kernel.
  public let simulation: Simulation
  /// The world's GEOS context.
  public let geos: GEOSContext
  /// The behaviour numbers.
  public let parameters: PhoneParameters
  /// How the simulated user answers prompts.
  public var user: UserScript

  private(set) lazy var process = AppProcess(phone: self)
  private(set) lazy var authorization = AuthorizationService(phone: self)
  private(set) lazy var location = LocationService(phone: self, sensor: sensor)
  private(set) lazy var regions = RegionService(phone: self)
  private(set) lazy var significantChanges = SignificantChangeService(phone: self, sensor: sensor)
  private(set) lazy var visits = VisitService(phone: self, sensor: sensor)
  /// The app's notification center; pending and delivered notifications survive relaunches.
  public private(set) lazy var notificationCenter = UserNotificationCenter(phone: self)
  private var defaultsBySuite: [String?: KeyValueStore] = [:]
  /// The app process's registered defaults, shared by its stores.
  let defaultsRegistration = DefaultsRegistration()
  private var createdRunLoop: AppRunLoop?
  private var createdSessions: LocationSessions?
  private var attachments: [ObjectIdentifier: AnyObject] = [:]
  private let sensor: (any LocationSensor)?
  /// The phone's own randomness (stale first fixes, region misses and latencies).
  var random: RandomStream
  /// Ends when the phone goes away: what its apps' frameworks hold it by (``Uncounted``).
  package let lifetime = Lifetime()

  /// Creates a phone in `simulation`.
  ///
  /// - Parameters:
  ///   - simulation: the world's kernel: its clock, its random streams and its event log.
  ///   - geos: the world's GEOS context (region and area geometry).
  ///   - sensor: the sensor model turning the true trajectory into fixes; without one the
  ///     phone never gets a fix (as before the scenario's trace starts).
  ///   - parameters: the phone's limits and timings (``PhoneParameters``).
  ///   - user: how the simulated user answers prompts, and how long that takes.
  public init(
    simulation: Simulation, geos: GEOSContext, sensor: (any LocationSensor)?,
    parameters: PhoneParameters = PhoneParameters(), user: UserScript = UserScript()
  ) {
    self.simulation = simulation
    self.geos = geos
    self.sensor = sensor
    self.parameters = parameters
    self.user = user
    self.random = simulation.random.stream("phone")
  }

  deinit { lifetime.end() }

  /// Records `event` in the world's log at the current instant.
  func record(_ event: some LogEvent) {
    simulation.log.record(event, at: simulation.now)
  }

  /// The world is over: the log is closed and the app's Swift tasks are released
  /// (``AppRunLoop/shutDown()``), so that the world's memory can be freed. Call it once the
  /// run's results are read, on the world's thread; the phone runs nothing afterwards.
  public func shutDown() {
    simulation.log.close()
    guard let runLoop = createdRunLoop else { return }
    makeCurrent { runLoop.shutDown() }
  }

  /// The app's main thread: the work its code queues, run in virtual time.
  public var runLoop: AppRunLoop {
    if let createdRunLoop { return createdRunLoop }
    let runLoop = AppRunLoop(phone: self)
    createdRunLoop = runLoop
    return runLoop
  }

  /// The run loop if the app's code has used one (so that asking does not make one).
  public var runLoopIfUsed: AppRunLoop? { createdRunLoop }

  /// The clients of the iOS 17 and 18 location APIs (live updates, service and background
  /// activity sessions), made when the app first uses one.
  var sessions: LocationSessions {
    if let createdSessions { return createdSessions }
    let sessions = LocationSessions(phone: self)
    createdSessions = sessions
    return sessions
  }

  /// The sessions registry if the app has used one (so that asking does not make one).
  var sessionsIfUsed: LocationSessions? { createdSessions }

  /// The phone's one instance of `type`, made by `make` on first use: state a layer above the
  /// phone keeps per phone (the Apple-named objects bound to it), gone with the phone.
  public func attachment<T: AnyObject>(_ type: T.Type, _ make: () -> T) -> T {
    let key = ObjectIdentifier(type)
    if let existing = attachments[key] { return unsafeDowncast(existing, to: T.self) }
    let made = make()
    attachments[key] = made
    return made
  }

  // MARK: State

  /// The app's state.
  public var appState: AppState { process.state }
  /// The running app instance, if any (a relaunch replaces it).
  public var runningApp: (any SimulatedApp)? { process.app }
  /// The most recent fix delivered on this phone (CoreLocation's cached location).
  public var lastKnownLocation: Location? { location.lastKnownLocation }
  /// The app's location authorization.
  public var authorizationStatus: AuthorizationStatus { authorization.status }
  /// Whether Location Services are on system-wide.
  public var locationServicesEnabled: Bool { authorization.state.servicesEnabled }
  /// Whether Airplane mode is on.
  public var airplaneMode: Bool { authorization.state.airplaneMode }

  /// The app's key-value store (`UserDefaults(suiteName:)`; `nil` is `.standard`, logged as
  /// domain `standard`, and a different store from a suite of that name). It survives
  /// relaunches within the replay; values registered with `register(defaults:)` last as long
  /// as the app's process. A new phone's stores are empty, as after a fresh install.
  public func userDefaults(suiteName: String? = nil) -> KeyValueStore {
    if let store = defaultsBySuite[suiteName] { return store }
    let store = KeyValueStore(
      domain: suiteName ?? "standard", simulation: simulation, registration: defaultsRegistration)
    defaultsBySuite[suiteName] = store
    return store
  }

  // MARK: Lifecycle

  /// Installs the app: `factory` creates a fresh instance at every launch.
  public func install(_ factory: @escaping () -> any SimulatedApp) {
    process.install(factory)
  }

  /// The user opens the app: launches it if needed and brings it to the foreground.
  ///
  /// - Throws: ``DeviceError`` when no app is installed.
  public func launchApp() throws {
    try process.launch()
  }

  /// The user switches away: the app goes to the background and, unless it keeps location
  /// updates running there, is suspended after ``PhoneParameters/backgroundGracePeriod``.
  public func sendAppToBackground() {
    process.sendToBackground()
  }

  /// The user returns to the app.
  public func bringAppToForeground() {
    process.bringToForeground()
  }

  /// The app is terminated (swiped away, or killed by the system).
  public func terminateApp() {
    process.terminate()
  }

  /// The phone restarts: the app is terminated and monitored regions are forgotten [A].
  public func reboot() {
    process.terminate()
    regions.reboot()
    record(PhoneEvent.reboot)
  }

  /// Runs `body` in the app now, or when it next runs if it is suspended; drops it if the app
  /// is not running (its completion handlers went with its process).
  func deliverToApp(_ body: @escaping () -> Void) {
    process.deliverToApp(body)
  }

  // MARK: The user's answers and Settings

  /// The user answers the prompt on screen (a timeline event).
  ///
  /// - Throws: ``DeviceError`` if no prompt is showing or the answer is not one it offers.
  public func answerPrompt(_ answer: PromptAnswer) throws {
    try authorization.answer(answer)
  }

  /// Changes the app's location permission in Settings.
  public func setLocationSetting(_ setting: LocationSetting) {
    authorization.setLocationSetting(setting)
  }

  /// Turns Precise Location on or off for the app.
  public func setPreciseLocation(_ on: Bool) {
    authorization.setPreciseLocation(on)
  }

  /// Turns Location Services on or off for the whole phone.
  public func setLocationServices(_ on: Bool) {
    authorization.setLocationServices(on)
  }

  /// Turns Airplane mode on or off. Airplane mode also takes the phone off the network
  /// (``isConnected``).
  public func setAirplaneMode(_ on: Bool) {
    authorization.setAirplaneMode(on)
  }

  /// Whether the phone has a network connection apart from Airplane mode (`false` during an
  /// outage): Wi-Fi and cell positions need the network to be located [A], so region
  /// monitoring is blind without one unless the app's own GNSS fixes help. `true` until the
  /// world says otherwise.
  public var isConnected: Bool {
    get { connected && !airplaneMode }
    set { connected = newValue }
  }
  private var connected = true

  /// Restricts location for the app (parental controls, a profile), or lifts the restriction.
  public func setRestricted(_ on: Bool) {
    authorization.setRestricted(on)
  }
}
