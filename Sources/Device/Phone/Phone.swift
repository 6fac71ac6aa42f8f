import Foundation
import Geo
import SimKernel

/// A simulated phone running one app: location services, permissions, region monitoring,
/// lifecycle and the user's answers to prompts, all on one ``Simulation``'s clock.
///
/// The scenario drives it — ``launchApp()``, ``sendAppToBackground()``, Settings changes,
/// ``answerPrompt(_:)`` — and the app reacts through ``LocationManager`` and its delegate. Every
/// observable effect is recorded in the simulation's event log. A phone belongs to one world and
/// one thread.
public final class Phone: SimulationEventHandler {
  /// The world's kernel.
  public let simulation: Simulation
  /// The world's GEOS context.
  public let geos: GEOSContext
  /// The behaviour numbers.
  public let parameters: PhoneParameters
  /// How the simulated user answers prompts.
  public var user: UserScript
  /// The app's state.
  public private(set) var appState = AppState.notRunning
  /// The most recent fix delivered on this phone (CoreLocation's cached location).
  public private(set) var lastKnownLocation: Location?

  let sensor: (any LocationSensor)?
  /// The app's notification center; pending and delivered notifications survive relaunches.
  public private(set) lazy var notificationCenter = UserNotificationCenter(phone: self)
  private var defaultsByDomain: [String: KeyValueStore] = [:]
  var authorizer = LocationAuthorizer()
  let regionMonitor: RegionMonitor
  private(set) var appGeneration = 0

  private var appFactory: (() -> any SimulatedApp)?
  private var app: (any SimulatedApp)?
  /// The running app instance, if any (a relaunch replaces it).
  public var runningApp: (any SimulatedApp)? { app }
  private var managers: [WeakManager] = []
  private var managerCount = 0
  private var handler: HandlerID!
  private var locationTick: EventHandle?
  private var regionTick: EventHandle?
  private var suspension: EventHandle?
  private var prompt: (kind: PromptKind, always: Bool)?
  /// Callbacks for a suspended app, delivered in order when it runs again.
  private var deferred: [() -> Void] = []
  private var missedFixWhileSuspended = false
  private var random: RandomStream

  private enum Code: Int32 {
    case locationTick = 1
    case regionTick = 2
    case suspend = 3
  }

  /// Creates a phone in `simulation`.
  ///
  /// - Parameters:
  ///   - sensor: the sensor model turning the true trajectory into fixes; without one the
  ///     phone never gets a fix (as before the scenario's trace starts).
  public init(
    simulation: Simulation, geos: GEOSContext, sensor: (any LocationSensor)?,
    parameters: PhoneParameters = PhoneParameters(), user: UserScript = UserScript()
  ) {
    self.simulation = simulation
    self.geos = geos
    self.sensor = sensor
    self.parameters = parameters
    self.user = user
    self.regionMonitor = RegionMonitor(parameters: parameters.regionMonitoring)
    self.random = simulation.random.stream("phone")
    self.handler = simulation.register(self)
  }

  deinit {
    simulation.unregister(handler)
  }

  /// Whether Location Services are on system-wide.
  public var locationServicesEnabled: Bool { authorizer.servicesEnabled }
  /// Whether Airplane mode is on.
  public var airplaneMode: Bool { authorizer.airplaneMode }

  /// The app's key-value store (`UserDefaults(suiteName:)`; `nil` is `.standard`). It
  /// survives relaunches within the replay.
  public func userDefaults(suiteName: String? = nil) -> KeyValueStore {
    let domain = suiteName ?? "standard"
    if let store = defaultsByDomain[domain] { return store }
    let store = KeyValueStore(domain: domain, simulation: simulation)
    defaultsByDomain[domain] = store
    return store
  }

  // MARK: Logging

  /// Records `event` in the world's log at the current instant.
  func record(_ event: some LogEvent) {
    simulation.log.record(event, at: simulation.now)
  }

  // MARK: Lifecycle

  /// Installs the app: `factory` creates a fresh instance at every launch.
  public func install(_ factory: @escaping () -> any SimulatedApp) {
    appFactory = factory
  }

  /// The user opens the app: launches it if needed and brings it to the foreground.
  public func launchApp() throws {
    guard appFactory != nil else {
      throw DeviceError(.invalidState, "no app is installed on the phone")
    }
    if appState == .notRunning {
      startProcess(reason: .user, state: .foreground)
    } else if appState != .foreground {
      enterForeground()
    }
  }

  /// The user switches away: the app goes to the background and, unless it keeps location
  /// updates running there, is suspended after ``PhoneParameters/backgroundGracePeriod``.
  public func sendAppToBackground() {
    guard appState == .foreground else { return }
    setState(.background)
    app?.didEnterBackground()
    scheduleSuspensionIfIdle(after: parameters.backgroundGracePeriod)
  }

  /// The user returns to the app.
  public func bringAppToForeground() {
    guard appState == .background || appState == .suspended else { return }
    enterForeground()
  }

  /// The app is terminated (swiped away, or killed by the system).
  public func terminateApp() {
    guard appState != .notRunning else { return }
    endSession()
    app = nil
    managers.removeAll()
    deferred.removeAll()
    appGeneration += 1
    setState(.notRunning)
    updateTickers()
  }

  /// The phone restarts: the app is terminated and monitored regions are forgotten [A].
  public func reboot() {
    terminateApp()
    regionMonitor.removeAll()
    record(PhoneEvent.reboot)
    updateTickers()
  }

  private func startProcess(reason: LaunchReason, state: AppState) {
    guard let appFactory else { return }
    appGeneration += 1
    let app = appFactory()
    self.app = app
    setState(state, reason: reason)
    app.didLaunch(on: self, reason: reason)
    if state == .background {
      scheduleSuspensionIfIdle(after: parameters.regionRelaunchWindow)
    }
    updateTickers()
  }

  private func enterForeground() {
    if let suspension { simulation.cancel(suspension) }
    suspension = nil
    setState(.foreground)
    app?.willEnterForeground()
    let callbacks = deferred
    deferred.removeAll()
    for callback in callbacks { callback() }
    if missedFixWhileSuspended, let sensor {
      missedFixWhileSuspended = false
      // A suspended app gets nothing; on resuming it hears the current position once.
      if case .fix(let fix) = sensor.reading(
        at: simulation.now, desiredAccuracy: strictestAccuracy(),
        reducedAccuracy: !authorizer.precise)
      {
        deliver(fix, stale: false)
      }
    }
    updateTickers()
  }

  private func setState(_ state: AppState, reason: LaunchReason? = nil) {
    appState = state
    record(AppLifecycleEvent.state(state, reason: reason))
  }

  private func scheduleSuspensionIfIdle(after delay: SimDuration) {
    if let suspension { simulation.cancel(suspension) }
    suspension = try? simulation.schedule(
      after: delay, priority: .system, handler: handler, code: Code.suspend.rawValue)
  }

  private func suspendIfIdle() {
    suspension = nil
    guard appState == .background, !runsInBackground else { return }
    setState(.suspended)
    endSession()
    updateTickers()
  }

  /// Allow Once lasts for the app's session: it ends when the app is suspended or terminated
  /// [3P].
  private func endSession() {
    if authorizer.choice == .allowOnce {
      changeAuthorization { $0.choice = .notDetermined }
    }
  }

  /// Whether the app keeps running in the background: a manager updating location with
  /// background updates allowed, and the permission for it.
  var runsInBackground: Bool {
    anyLiveManager { m in
      m.isUpdating && !m.isPaused && m.allowsBackgroundLocationUpdates
        && (authorizer.status == .authorizedAlways
          || (authorizer.status == .authorizedWhenInUse && m.updatesStartedInUse))
    }
  }

  /// Whether the app counts as "in use" for When In Use permission.
  var isInUse: Bool { appState == .foreground || (appState == .background && runsInBackground) }

  // MARK: Managers

  func nextManagerIdentifier() -> Int {
    managerCount += 1
    return managerCount
  }

  func adopt(_ manager: LocationManager) {
    managers.append(WeakManager(manager))
    record(LocationEvent.managerCreated(manager: manager.identifier))
    call(manager) { $0.delegate?.locationManagerDidChangeAuthorization($0) }
  }

  /// The running app's managers (a fresh array; for the rare paths).
  var liveManagers: [LocationManager] {
    var result: [LocationManager] = []
    forEachLiveManager { result.append($0) }
    return result
  }

  /// Calls `body` with each of the running app's managers, allocating nothing (the hot path).
  @inline(__always)
  func forEachLiveManager(_ body: (LocationManager) -> Void) {
    let generation = appGeneration
    for entry in managers {
      if let m = entry.manager, m.generation == generation { body(m) }
    }
  }

  /// Whether any of the running app's managers satisfies `predicate`.
  func anyLiveManager(_ predicate: (LocationManager) -> Bool) -> Bool {
    let generation = appGeneration
    for entry in managers {
      if let m = entry.manager, m.generation == generation, predicate(m) { return true }
    }
    return false
  }

  /// Calls into the app asynchronously (a kernel event at the current instant), deferring the
  /// call while the app is suspended and dropping it if the app is gone.
  func call(_ manager: LocationManager, _ body: @escaping (LocationManager) -> Void) {
    let generation = appGeneration
    _ = try? simulation.schedule(after: .zero) { [weak self, weak manager] in
      guard let self, let manager, manager.generation == generation,
        generation == self.appGeneration
      else { return }
      if self.appState == .suspended {
        self.deferred.append { [weak manager] in
          if let manager { body(manager) }
        }
      } else {
        body(manager)
      }
    }
  }

  /// Runs `body` in the app now, or when it next runs if it is suspended; drops it if the app
  /// is not running (its completion handlers went with its process).
  func deliverToApp(_ body: @escaping () -> Void) {
    switch appState {
    case .foreground, .background: body()
    case .suspended: deferred.append(body)
    case .notRunning: break
    }
  }

  // MARK: Authorization

  func requestAuthorization(always: Bool, from manager: LocationManager) {
    guard appState == .foreground, prompt == nil else { return }
    guard let kind = always ? authorizer.promptForAlways() : authorizer.promptForWhenInUse()
    else { return }
    showPrompt(kind, always: always)
  }

  func showNotificationPrompt() {
    guard prompt == nil, appState == .foreground else {
      record(PromptEvent.notShown(.notifications))
      return
    }
    showPrompt(.notifications, always: false)
  }

  /// Provisional Always is resolved by a one-time second prompt that the system shows when the
  /// app first uses location while not in use [3P, WWDC19 705].
  private func resolveProvisionalAlwaysIfNeeded() {
    guard authorizer.choice == .provisionalAlways, !authorizer.upgradePromptShown,
      prompt == nil, appState != .foreground
    else { return }
    showPrompt(.alwaysUpgrade, always: true)
  }

  private func showPrompt(_ kind: PromptKind, always: Bool) {
    prompt = (kind, always)
    if kind == .alwaysUpgrade { authorizer.upgradePromptShown = true }
    record(PromptEvent.shown(kind))
    if let answer = user.nextAnswer(for: kind), answer != .unanswered {
      _ = try? simulation.schedule(after: user.answerDelay) { [weak self] in
        try self?.answerPrompt(answer)
      }
    }
  }

  /// The user answers the prompt on screen (a timeline event).
  ///
  /// Throws if no location prompt is showing or the answer is not one it offers.
  public func answerPrompt(_ answer: PromptAnswer) throws {
    guard let prompt else {
      throw DeviceError(.invalidState, "no prompt is on screen to answer \(answer)")
    }
    guard answer.isValid(for: prompt.kind) else {
      throw DeviceError(
        .invalidArgument, "'\(answer)' is not an answer the \(prompt.kind) prompt offers")
    }
    guard answer != .unanswered else { return }
    self.prompt = nil
    record(PromptEvent.answered(prompt.kind, answer))
    if prompt.kind == .notifications {
      notificationCenter.resolveAuthorization(answer)
    } else {
      changeAuthorization { $0.apply(answer, to: prompt.kind, always: prompt.always) }
    }
  }

  /// Applies a change to the permission state and tells every manager if what they report
  /// changed [A].
  func changeAuthorization(_ change: (inout LocationAuthorizer) -> Void) {
    let before = (authorizer.status, authorizer.accuracy)
    change(&authorizer)
    let after = (authorizer.status, authorizer.accuracy)
    guard before != after else { return }
    record(AuthorizationEvent.changed(status: after.0, accuracy: after.1))
    for manager in liveManagers {
      call(manager) { $0.delegate?.locationManagerDidChangeAuthorization($0) }
      if !authorizer.isAuthorized && manager.isUpdating {
        call(manager) {
          $0.delegate?.locationManager(
            $0, didFailWithError: LocationError(.denied, "location permission was withdrawn"))
        }
      }
    }
    updateTickers()
  }

  // MARK: Settings

  /// Changes the app's location permission in Settings.
  public func setLocationSetting(_ setting: LocationSetting) {
    record(SettingsEvent.location(setting))
    changeAuthorization { a in
      switch setting {
      case .never: a.choice = .denied
      case .askNextTime: a.choice = .notDetermined
      case .whileUsing: a.choice = .whenInUse
      case .always: a.choice = .always
      }
    }
  }

  /// Turns Precise Location on or off for the app.
  public func setPreciseLocation(_ on: Bool) {
    record(SettingsEvent.preciseLocation(on))
    changeAuthorization { $0.precise = on }
  }

  /// Turns Location Services on or off for the whole phone.
  public func setLocationServices(_ on: Bool) {
    record(SettingsEvent.locationServices(on))
    changeAuthorization { $0.servicesEnabled = on }
  }

  /// Turns Airplane mode on or off.
  public func setAirplaneMode(_ on: Bool) {
    record(SettingsEvent.airplaneMode(on))
    changeAuthorization { $0.airplaneMode = on }
  }

  /// Restricts location for the app (parental controls, a profile), or lifts the restriction.
  public func setRestricted(_ on: Bool) {
    record(SettingsEvent.restricted(on))
    changeAuthorization { $0.restricted = on }
  }

  // MARK: Location updates

  /// Whether the app may not use location at all now (an undetermined app may: its requests
  /// wait for the user's answer).
  private var isRefused: Bool {
    authorizer.status == .denied || authorizer.status == .restricted
  }

  /// Why a manager's settings cannot work, if they cannot: CoreLocation takes any number, so a
  /// NaN accuracy or filter reaches the app as a failure instead of a silent default.
  private func invalidSettings(of manager: LocationManager) -> String? {
    if manager.desiredAccuracy.isNaN { return "desiredAccuracy is not a number" }
    if manager.distanceFilter.isNaN { return "distanceFilter is not a number" }
    return nil
  }

  func startUpdates(_ manager: LocationManager) {
    if let problem = invalidSettings(of: manager) {
      record(LocationEvent.startRefused(manager: manager.identifier, reason: problem))
      call(manager) {
        $0.delegate?.locationManager($0, didFailWithError: LocationError(.locationUnknown, problem))
      }
      return
    }
    guard !isRefused else {
      record(LocationEvent.startRefused(manager: manager.identifier, reason: nil))
      call(manager) {
        $0.delegate?.locationManager(
          $0, didFailWithError: LocationError(.denied, "the app is not authorized for location"))
      }
      return
    }
    let wasUpdating = manager.isUpdating && !manager.isPaused
    manager.isUpdating = true
    manager.isPaused = false
    manager.stationarySince = nil
    if isInUse { manager.updatesStartedInUse = true }
    record(LocationEvent.started(manager: manager.identifier))
    if !wasUpdating, let cached = lastKnownLocation,
      random.bernoulli(parameters.staleFirstFixProbability)
    {
      call(manager) { [weak self] in self?.deliver([cached], to: $0, stale: true) }
    }
    updateTickers()
  }

  func stopUpdates(_ manager: LocationManager) {
    guard manager.isUpdating else { return }
    manager.isUpdating = false
    manager.isPaused = false
    manager.lastDelivered = nil
    record(LocationEvent.stopped(manager: manager.identifier))
    updateTickers()
    if appState == .background { scheduleSuspensionIfIdle(after: .zero) }
  }

  func requestOneShot(_ manager: LocationManager) {
    if let problem = invalidSettings(of: manager) {
      call(manager) {
        $0.delegate?.locationManager($0, didFailWithError: LocationError(.locationUnknown, problem))
      }
      return
    }
    guard !isRefused else {
      call(manager) {
        $0.delegate?.locationManager(
          $0, didFailWithError: LocationError(.denied, "the app is not authorized for location"))
      }
      return
    }
    guard manager.oneShot == nil else { return }
    manager.oneShot = (simulation.now + parameters.oneShotTimeout, nil)
    record(LocationEvent.requested(manager: manager.identifier))
    updateTickers()
  }

  /// The most demanding accuracy among the managers that want fixes.
  private func strictestAccuracy() -> Double {
    var accuracy = LocationAccuracy.threeKilometers
    forEachLiveManager { m in
      if wantsFixes(m) { accuracy = min(accuracy, m.desiredAccuracy) }
    }
    return accuracy
  }

  private func wantsFixes(_ m: LocationManager) -> Bool {
    (m.isUpdating && !m.isPaused) || m.oneShot != nil
  }

  /// Starts or stops the location and region tickers to match what is needed now.
  func updateTickers() {
    let needsLocation =
      sensor != nil && authorizer.isAuthorized && anyLiveManager(wantsFixes)
    if needsLocation && locationTick == nil {
      let interval = sensor!.updateInterval
      locationTick = try? simulation.schedule(
        after: interval, handler: handler, code: Code.locationTick.rawValue)
    } else if !needsLocation, let tick = locationTick {
      simulation.cancel(tick)
      locationTick = nil
    }
    let needsRegions = sensor != nil && regionMonitor.count > 0
    if needsRegions && regionTick == nil {
      regionTick = try? simulation.schedule(
        after: .zero, handler: handler, code: Code.regionTick.rawValue)
    } else if !needsRegions, let tick = regionTick {
      simulation.cancel(tick)
      regionTick = nil
    }
  }

  /// Handles the phone's own kernel events.
  public func handle(_ event: FiredEvent, in simulation: Simulation) throws {
    switch Code(rawValue: event.code) {
    case .locationTick:
      locationTick = nil
      locationStep()
      if sensor != nil && authorizer.isAuthorized && anyLiveManager(wantsFixes) {
        locationTick = try simulation.schedule(
          after: sensor!.updateInterval, handler: handler, code: Code.locationTick.rawValue)
      }
    case .regionTick:
      regionTick = nil
      regionStep()
      if sensor != nil && regionMonitor.count > 0 {
        regionTick = try simulation.schedule(
          after: parameters.regionMonitoring.evaluationInterval, handler: handler,
          code: Code.regionTick.rawValue)
      }
    case .suspend:
      suspendIfIdle()
    case nil:
      throw DeviceError(.invalidState, "phone received unknown event code \(event.code)")
    }
  }

  private func locationStep() {
    guard let sensor else { return }
    let now = simulation.now
    let reading = sensor.reading(
      at: now, desiredAccuracy: strictestAccuracy(), reducedAccuracy: !authorizer.precise)
    guard case .fix(let fix) = reading else {
      // Silence is no answer, but one-shot requests still time out.
      if appState != .suspended && appState != .notRunning {
        forEachLiveManager { m in
          if m.oneShot != nil { offerOneShot(nil, to: m, now: now, stale: false) }
        }
      }
      return
    }
    if appState == .suspended || appState == .notRunning {
      missedFixWhileSuspended = appState == .suspended
      return
    }
    deliver(fix, stale: false)
  }

  /// Offers a fresh fix to every manager that may receive it now.
  private func deliver(_ fix: Location, stale: Bool) {
    let now = simulation.now
    // What does not depend on the manager is read once per fix: this runs every second.
    let foreground = appState == .foreground
    let background = appState == .background
    let status = authorizer.status
    forEachLiveManager { m in
      if m.isUpdating && !m.isPaused
        && (foreground
          || (background && m.allowsBackgroundLocationUpdates
            && (status == .authorizedAlways
              || (status == .authorizedWhenInUse && m.updatesStartedInUse))))
      {
        let filter = m.distanceFilter
        let filtered =
          filter > 0
          && m.lastDelivered.map {
            $0.horizontalAccuracy >= 0 && fix.horizontalAccuracy >= 0
              && fix.distance(from: $0) < filter
          } == true
        if !autoPause(m, fix: fix, now: now) && !filtered {
          if !foreground { resolveProvisionalAlwaysIfNeeded() }
          deliver([fix], to: m, stale: stale)
        }
      }
      if m.oneShot != nil { offerOneShot(fix, to: m, now: now, stale: stale) }
    }
  }

  /// Feeds a fix to a pending ``LocationManager/requestLocation()``: delivers it once good
  /// enough, or the best one at the deadline.
  private func offerOneShot(_ fix: Location?, to m: LocationManager, now: SimTime, stale: Bool) {
    guard var request = m.oneShot else { return }
    if let fix, fix.horizontalAccuracy >= 0,
      request.best == nil || fix.horizontalAccuracy < request.best!.horizontalAccuracy
    {
      request.best = fix
    }
    let wanted = m.desiredAccuracy > 0 ? m.desiredAccuracy : LocationAccuracy.nearestTenMeters
    if let best = request.best, best.horizontalAccuracy <= wanted || now >= request.deadline {
      m.oneShot = nil
      deliver([best], to: m, stale: stale)
    } else if now >= request.deadline {
      m.oneShot = nil
      record(LocationEvent.requestFailed(manager: m.identifier))
      call(m) {
        $0.delegate?.locationManager(
          $0, didFailWithError: LocationError(.locationUnknown, "no fix within the timeout"))
      }
    } else {
      m.oneShot = request
    }
  }

  /// Pauses `m` if the device has been stationary long enough for its activity type; returns
  /// whether it paused.
  private func autoPause(_ m: LocationManager, fix: Location, now: SimTime) -> Bool {
    guard m.pausesLocationUpdatesAutomatically, let after = parameters.pauseAfter[m.activityType]
    else { return false }
    if fix.speed >= 0 && fix.speed < parameters.stationarySpeed {
      let since = m.stationarySince ?? now
      m.stationarySince = since
      guard now - since >= after else { return false }
      m.isPaused = true
      record(LocationEvent.paused(manager: m.identifier))
      call(m) { $0.delegate?.locationManagerDidPauseLocationUpdates($0) }
      return true
    }
    m.stationarySince = nil
    return false
  }

  private func deliver(_ fixes: [Location], to m: LocationManager, stale: Bool) {
    guard let fix = fixes.last else { return }
    m.lastDelivered = fix
    if !stale { lastKnownLocation = fix }
    record(LocationEvent.didUpdateLocations(manager: m.identifier, location: fix))
    if let delegate = m.delegate {
      delegate.locationManager(m, didUpdateLocations: fixes)
    }
  }

  // MARK: Regions

  func startMonitoring(_ region: CircularRegion, from manager: LocationManager) {
    let fail: (String) -> Void = { reason in
      self.record(RegionEvent.monitoringDidFail(identifier: region.identifier, reason: reason))
      self.call(manager) {
        $0.delegate?.locationManager(
          $0, monitoringDidFailFor: region,
          withError: LocationError(.regionMonitoringFailure, reason))
      }
    }
    guard region.radius.isFinite, region.radius >= 0 else {
      return fail("radius \(region.radius) is not a non-negative number")
    }
    guard region.radius <= parameters.maximumRegionMonitoringDistance else {
      return fail(
        "radius \(region.radius) m exceeds maximumRegionMonitoringDistance \(parameters.maximumRegionMonitoringDistance) m"
      )
    }
    guard authorizer.precise else {
      return fail("region monitoring is unavailable with reduced accuracy")
    }
    let replacing = regionMonitor.isWatched(identifier: region.identifier, owner: .app)
    guard replacing || regionMonitor.count < parameters.maximumMonitoredRegions else {
      return fail("the app already monitors \(parameters.maximumMonitoredRegions) regions")
    }
    regionMonitor.watch(region, owner: .app)
    record(
      RegionEvent.startMonitoring(
        identifier: region.identifier, center: region.center, radius: region.radius))
    if isRefused {
      call(manager) {
        $0.delegate?.locationManager(
          $0, monitoringDidFailFor: region,
          withError: LocationError(.regionMonitoringDenied, "the app is not authorized"))
      }
    }
    updateTickers()
  }

  /// Stops watching the app's region with `region`'s identifier; logged as `"stopMonitoring"`
  /// when one was watched.
  func stopMonitoring(_ region: CircularRegion) {
    guard regionMonitor.isWatched(identifier: region.identifier, owner: .app) else { return }
    regionMonitor.stopMonitoring(identifier: region.identifier)
    record(RegionEvent.stopMonitoring(identifier: region.identifier))
  }

  func requestState(for region: CircularRegion, from manager: LocationManager) {
    guard
      let watch = regionMonitor.watches.first(where: {
        $0.owner == .app && $0.region.identifier == region.identifier
      })
    else {
      call(manager) {
        $0.delegate?.locationManager(
          $0, monitoringDidFailFor: region,
          withError: LocationError(.regionMonitoringFailure, "the region is not monitored"))
      }
      return
    }
    var state = watch.believed
    if state == .unknown, let estimate = sensor?.coarseEstimate(at: simulation.now) {
      state = regionMonitor.observedState(of: region, estimate: estimate.coordinate) ?? .unknown
    }
    record(RegionEvent.didDetermineState(identifier: region.identifier, state: state))
    call(manager) { $0.delegate?.locationManager($0, didDetermineState: state, for: region) }
  }

  private func regionStep() {
    guard let sensor, let estimate = sensor.coarseEstimate(at: simulation.now) else { return }
    let now = simulation.now
    regionMonitor.evaluate(estimate: estimate.coordinate, now: now) { watch, state, _ in
      decided(watch, state: state, estimate: estimate)
    }
  }

  /// A transition was decided: log it, then deliver it after the latency unless it is missed.
  private func decided(_ watch: RegionMonitor.Watch, state: RegionState, estimate: Location) {
    let p = parameters.regionMonitoring
    var request: String?
    if case .notification(let id) = watch.owner { request = id }
    let decision = RegionDecision(
      identifier: watch.region.identifier, state: state, estimate: estimate.coordinate,
      request: request)
    record(RegionEvent.decided(decision))
    if random.bernoulli(p.missProbability) {
      record(RegionEvent.missed(decision))
      return
    }
    let median = state == .inside ? p.entryLatencyMedian : p.exitLatencyMedian
    let latency = SimDuration.seconds(
      random.logNormal(median: median.seconds, sigma: p.latencySigma))
    let registration = watch.registration
    _ = try? simulation.schedule(after: latency) { [weak self] in
      guard let self, self.regionMonitor.isCurrent(registration) else { return }
      self.deliverRegionEvent(watch, state: state)
    }
  }

  private func deliverRegionEvent(_ watch: RegionMonitor.Watch, state: RegionState) {
    let region = watch.region
    if case .notification(let id) = watch.owner {
      notificationCenter.regionEvent(request: id, state: state)
      return
    }
    var cause: RegionSuppression?
    if !authorizer.isAuthorized || !authorizer.precise {
      cause = .permission
    } else if authorizer.status == .authorizedWhenInUse && !isInUse {
      cause = .appNotInUse
    }
    if let cause {
      record(RegionEvent.suppressed(identifier: region.identifier, cause: cause))
      return
    }
    resolveProvisionalAlwaysIfNeeded()
    if appState == .notRunning {
      startProcess(reason: .location, state: .background)
    } else if appState == .suspended {
      setState(.background)
      scheduleSuspensionIfIdle(after: parameters.regionRelaunchWindow)
      let callbacks = deferred
      deferred.removeAll()
      for callback in callbacks { callback() }
    }
    let notify = state == .inside ? region.notifyOnEntry : region.notifyOnExit
    record(
      state == .inside
        ? RegionEvent.didEnterRegion(identifier: region.identifier, notified: notify)
        : RegionEvent.didExitRegion(identifier: region.identifier, notified: notify))
    for manager in liveManagers {
      call(manager) { m in
        m.delegate?.locationManager(m, didDetermineState: state, for: region)
        guard notify else { return }
        if state == .inside {
          m.delegate?.locationManager(m, didEnterRegion: region)
        } else {
          m.delegate?.locationManager(m, didExitRegion: region)
        }
      }
    }
  }
}

/// A manager held without keeping it alive: the app owns its managers.
private struct WeakManager {
  weak var manager: LocationManager?
  init(_ manager: LocationManager) { self.manager = manager }
}
