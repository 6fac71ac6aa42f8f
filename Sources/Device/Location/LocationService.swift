import Geo
import SimKernel

/// The phone's location service: the app's managers and, for each, whether it updates, is
/// paused or waits for a one-shot fix. It alone owns that state and the sensor ticker, which it
/// arms whenever a manager wants fixes and the app may have them.
final class LocationService {
  /// What the service keeps for one manager, and the manager, not kept alive (the app owns it).
  ///
  /// Its state is read for every fix and only ever assigned, never held across a call: without
  /// the runtime's exclusivity check, as `entries` below.
  private final class Updates {
    private let reference: Uncounted<LocationManager>
    var manager: LocationManager? { reference.value }
    /// Calls `body` with the manager, not retained for the call, unless it has gone.
    @inline(__always)
    func withManager<R>(_ body: (LocationManager) -> R) -> R? { reference.withValue(body) }
    @exclusivity(unchecked) var isUpdating = false
    @exclusivity(unchecked) var isPaused = false
    /// Updates were started while the app was in use (When In Use keeps them in the background).
    @exclusivity(unchecked) var startedInUse = false
    @exclusivity(unchecked) var lastDelivered: Location?
    @exclusivity(unchecked) var stationarySince: SimTime?
    @exclusivity(unchecked) var oneShot: (deadline: SimTime, best: Location?)?

    var wantsFixes: Bool { (isUpdating && !isPaused) || oneShot != nil }

    init(_ manager: LocationManager) { reference = Uncounted(manager) }
  }

  /// The phone owns this service, so it outlives it: no reference counting on the hot path.
  private unowned(unsafe) let phone: Phone
  /// The phone's simulation, asked the time on every fix.
  private unowned(unsafe) let simulation: Simulation
  private let sensor: (any LocationSensor)?
  /// Whether the phone has a sensor (``sensor`` is not `nil`), read without copying it.
  let hasSensor: Bool
  /// A class per manager, so that walking them copies no weak reference. Walked for every
  /// fix; no access to it is held across a call.
  @exclusivity(unchecked) private var entries: [Updates] = []
  private var managerCount = 0
  @exclusivity(unchecked) private var missedFixWhileSuspended = false
  /// The most recent fix delivered on this phone (CoreLocation's cached location); assigned
  /// for every fix, never held across a call.
  @exclusivity(unchecked) private(set) var lastKnownLocation: Location?
  /// The sensor's timer, calling back without retaining the service (the phone owns both).
  private lazy var ticker = {
    let service = Unmanaged.passUnretained(self)
    return simulation.makeTimer { service._withUnsafeGuaranteedRef { $0.tick() } }
  }()

  // The services asked on every fix, held without reference counting (the phone owns them
  // all): a retain of an object that is also referenced weakly takes the slow path.
  private unowned(unsafe) let process: AppProcess
  private unowned(unsafe) let authorization: AuthorizationService

  init(phone: Phone, sensor: (any LocationSensor)?) {
    self.phone = phone
    self.simulation = phone.simulation
    self.sensor = sensor
    self.hasSensor = sensor != nil
    self.process = phone.process
    self.authorization = phone.authorization
  }

  // MARK: Managers

  func nextManagerIdentifier() -> Int {
    managerCount += 1
    return managerCount
  }

  func adopt(_ manager: LocationManager) {
    entries.append(Updates(manager))
    phone.record(LocationEvent.managerCreated(manager: manager.identifier))
    call(manager) { $0.delegate?.locationManagerDidChangeAuthorization($0) }
  }

  /// Calls `body` with each of the running app's managers and their state, allocating nothing
  /// (the hot path).
  @inline(__always)
  private func forEachLive(_ body: (LocationManager, Updates) -> Void) {
    let generation = process.generation
    for u in entries {
      u.withManager { m in if m.generation == generation { body(m, u) } }
    }
  }

  private func anyLive(_ predicate: (LocationManager, Updates) -> Bool) -> Bool {
    let generation = process.generation
    for u in entries {
      if u.withManager({ m in m.generation == generation && predicate(m, u) }) == true {
        return true
      }
    }
    return false
  }

  private func updates(of manager: LocationManager) -> Updates? {
    entries.first { $0.manager === manager }
  }

  /// Calls into the app with `manager`, asynchronously (see ``AppProcess/call(_:)``).
  func call(_ manager: LocationManager, _ body: @escaping (LocationManager) -> Void) {
    guard manager.generation == process.generation else { return }
    let reference = Uncounted(manager)
    process.call {
      if let manager = reference.value { body(manager) }
    }
  }

  /// Calls `body` with each of the running app's managers, asynchronously.
  func callEachManager(_ body: @escaping (LocationManager) -> Void) {
    var managers: [LocationManager] = []
    forEachLive { m, _ in managers.append(m) }
    for manager in managers { call(manager, body) }
  }

  // MARK: What the other services ask

  /// Whether the app keeps running in the background: a manager updating location with
  /// background updates allowed, and the permission for it; or a background activity session
  /// and any permission.
  var runsInBackground: Bool {
    let status = authorization.status
    if phone.sessionsIfUsed?.hasActiveBackgroundSession == true && authorization.isAuthorized {
      return true
    }
    return anyLive { m, u in
      u.isUpdating && !u.isPaused && m.allowsBackgroundLocationUpdates
        && (status == .authorizedAlways || (status == .authorizedWhenInUse && u.startedInUse))
    }
  }

  /// Whether the app counts as "in use" for When In Use permission.
  var isInUse: Bool {
    let state = process.state
    return state == .foreground || (state == .background && runsInBackground)
  }

  /// The phone's coarse position estimate now, for region decisions.
  func coarseEstimate() -> Location? {
    sensor?.coarseEstimate(at: simulation.now)
  }

  /// The position `source` gives region monitoring now, if any.
  func regionPosition(from source: PositioningSource, connected: Bool) -> Location? {
    sensor?.regionPosition(at: simulation.now, from: source, connected: connected)
  }

  /// How often the sensor yields fixes, if the phone has one.
  var updateInterval: SimDuration? { sensor?.updateInterval }

  /// The device's true speed now, from its motion (what the motion coprocessor senses), if
  /// the sensor knows it.
  func trueSpeed() -> Double? {
    sensor?.trueSpeed(at: simulation.now)
  }

  /// Where the device truly is now, if the sensor knows it.
  func truePosition() -> Coordinate? {
    sensor?.truePosition(at: simulation.now)
  }

  // MARK: What the other services tell

  func authorizationDidChange() {
    let authorized = authorization.isAuthorized
    forEachLive { m, u in
      call(m) { $0.delegate?.locationManagerDidChangeAuthorization($0) }
      if !authorized && u.isUpdating {
        call(m) {
          $0.delegate?.locationManager(
            $0, didFailWithError: LocationError(.denied, "location permission was withdrawn"))
        }
      }
    }
    rearm()
    phone.significantChanges.authorizationDidChange()
  }

  func processStarted() { rearm() }

  func processEnded() {
    entries.removeAll()
    rearm()
  }

  /// The app runs again after being suspended: it hears the current position once.
  func processResumed() {
    if missedFixWhileSuspended, let sensor {
      missedFixWhileSuspended = false
      if case .fix(let fix) = sensor.reading(
        at: simulation.now, desiredAccuracy: strictestAccuracy(),
        reducedAccuracy: !authorization.isPrecise)
      {
        offer(fix, stale: false)
      }
    }
    rearm()
  }

  // MARK: The managers' requests

  /// Why a manager's settings cannot work, if they cannot: CoreLocation takes any number, so a
  /// NaN accuracy or filter reaches the app as a failure instead of a silent default.
  private func invalidSettings(of manager: LocationManager) -> String? {
    if manager.desiredAccuracy.isNaN { return "desiredAccuracy is not a number" }
    if manager.distanceFilter.isNaN { return "distanceFilter is not a number" }
    return nil
  }

  private func fail(_ manager: LocationManager, _ code: LocationErrorCode, _ reason: String) {
    call(manager) {
      $0.delegate?.locationManager($0, didFailWithError: LocationError(code, reason))
    }
  }

  func startUpdates(_ manager: LocationManager) {
    guard let u = updates(of: manager) else { return }
    if let problem = invalidSettings(of: manager) {
      phone.record(LocationEvent.startRefused(manager: manager.identifier, reason: problem))
      return fail(manager, .locationUnknown, problem)
    }
    guard !authorization.isRefused else {
      phone.record(LocationEvent.startRefused(manager: manager.identifier, reason: nil))
      return fail(manager, .denied, "the app is not authorized for location")
    }
    let wasUpdating = u.isUpdating && !u.isPaused
    u.isUpdating = true
    u.isPaused = false
    u.stationarySince = nil
    if isInUse { u.startedInUse = true }
    phone.record(LocationEvent.started(manager: manager.identifier))
    if !wasUpdating, let cached = lastKnownLocation,
      phone.random.bernoulli(phone.parameters.staleFirstFixProbability)
    {
      // The process runs the call only while it (and so this service, which the same phone
      // owns) is alive; a weak reference would put every retain of this service on the
      // runtime's slow path.
      call(manager) { [unowned(unsafe) self] in self.deliver([cached], to: $0, u, stale: true) }
    }
    rearm()
  }

  func stopUpdates(_ manager: LocationManager) {
    guard let u = updates(of: manager), u.isUpdating else { return }
    u.isUpdating = false
    u.isPaused = false
    u.lastDelivered = nil
    phone.record(LocationEvent.stopped(manager: manager.identifier))
    rearm()
    if process.state == .background { process.suspendIfIdle(after: .zero) }
  }

  func requestOneShot(_ manager: LocationManager) {
    guard let u = updates(of: manager) else { return }
    if let problem = invalidSettings(of: manager) {
      return fail(manager, .locationUnknown, problem)
    }
    guard !authorization.isRefused else {
      return fail(manager, .denied, "the app is not authorized for location")
    }
    guard u.oneShot == nil else { return }
    u.oneShot = (simulation.now + phone.parameters.oneShotTimeout, nil)
    phone.record(LocationEvent.requested(manager: manager.identifier))
    rearm()
  }

  // MARK: The sensor ticker

  /// Whether a fix is wanted: a sensor, the permission, and a manager that wants one.
  private var needsFixes: Bool {
    hasSensor && authorization.isAuthorized && anyLive { $1.wantsFixes }
  }

  /// Arms or cancels the ticker to match ``needsFixes``.
  private func rearm() {
    let wanted = needsFixes
    if wanted, !ticker.isArmed, let sensor {
      checkedScheduling { try ticker.arm(after: sensor.updateInterval) }
    } else if !wanted {
      ticker.cancel()
    }
  }

  private func tick() {
    step()
    rearm()
  }

  /// The most demanding accuracy among the managers that want fixes.
  private func strictestAccuracy() -> Double {
    var accuracy = LocationAccuracy.threeKilometers
    forEachLive { m, u in
      if u.wantsFixes { accuracy = min(accuracy, m.desiredAccuracy) }
    }
    return accuracy
  }

  private func step() {
    guard let sensor else { return }
    let now = simulation.now
    let state = process.state
    let reading = sensor.reading(
      at: now, desiredAccuracy: strictestAccuracy(),
      reducedAccuracy: !authorization.isPrecise)
    guard case .fix(let fix) = reading else {
      // Silence is no answer, but one-shot requests still time out.
      if state != .suspended && state != .notRunning {
        forEachLive { m, u in
          if u.oneShot != nil { offerOneShot(nil, to: m, u, now: now, stale: false) }
        }
      }
      return
    }
    if state == .suspended || state == .notRunning {
      missedFixWhileSuspended = state == .suspended
      return
    }
    // GNSS is on for the app: region monitoring uses its fixes too [A] ("uses Wi-Fi, cellular
    // and GPS"); Wi-Fi and cell fixes it finds by itself.
    if fix.horizontalAccuracy >= 0, fix.horizontalAccuracy <= RegionService.gnssAccuracyLimit {
      phone.regions.observe(fix: fix)
    }
    offer(fix, stale: false)
  }

  /// Offers a fresh fix to every manager that may receive it now.
  private func offer(_ fix: Location, stale: Bool) {
    let now = simulation.now
    // What does not depend on the manager is read once per fix: this runs every second.
    let foreground = process.state == .foreground
    let background = process.state == .background
    let status = authorization.status
    forEachLive { m, u in
      if u.isUpdating && !u.isPaused
        && (foreground
          || (background && m.allowsBackgroundLocationUpdates
            && (status == .authorizedAlways
              || (status == .authorizedWhenInUse && u.startedInUse))))
      {
        let filter = m.distanceFilter
        let filtered =
          filter > 0
          && u.lastDelivered.map {
            $0.horizontalAccuracy >= 0 && fix.horizontalAccuracy >= 0
              && fix.distance(from: $0) < filter
          } == true
        if !autoPause(m, u, fix: fix, now: now) && !filtered {
          if !foreground { authorization.resolveProvisionalAlwaysIfNeeded() }
          deliver([fix], to: m, u, stale: stale)
        }
      }
      if u.oneShot != nil { offerOneShot(fix, to: m, u, now: now, stale: stale) }
    }
  }

  /// Feeds a fix to a pending ``LocationManager/requestLocation()``: delivers it once good
  /// enough, or the best one at the deadline.
  private func offerOneShot(
    _ fix: Location?, to m: LocationManager, _ u: Updates, now: SimTime, stale: Bool
  ) {
    guard var request = u.oneShot else { return }
    if let fix, fix.horizontalAccuracy >= 0,
      request.best.map({ fix.horizontalAccuracy < $0.horizontalAccuracy }) ?? true
    {
      request.best = fix
    }
    let wanted = m.desiredAccuracy > 0 ? m.desiredAccuracy : LocationAccuracy.nearestTenMeters
    if let best = request.best, best.horizontalAccuracy <= wanted || now >= request.deadline {
      u.oneShot = nil
      deliver([best], to: m, u, stale: stale)
    } else if now >= request.deadline {
      u.oneShot = nil
      phone.record(LocationEvent.requestFailed(manager: m.identifier))
      fail(m, .locationUnknown, "no fix within the timeout")
    } else {
      u.oneShot = request
    }
  }

  /// Pauses `m` if the device has been stationary long enough for its activity type; returns
  /// whether it paused.
  private func autoPause(_ m: LocationManager, _ u: Updates, fix: Location, now: SimTime) -> Bool {
    guard m.pausesLocationUpdatesAutomatically,
      let after = phone.parameters.pauseAfter[m.activityType]
    else { return false }
    if fix.speed >= 0 && fix.speed < phone.parameters.stationarySpeed {
      let since = u.stationarySince ?? now
      u.stationarySince = since
      guard now - since >= after else { return false }
      u.isPaused = true
      phone.record(LocationEvent.paused(manager: m.identifier))
      call(m) { $0.delegate?.locationManagerDidPauseLocationUpdates($0) }
      return true
    }
    u.stationarySince = nil
    return false
  }

  // MARK: Fixes from the phone's other location services

  /// Delivers `fix` to `manager` for another of the phone's location services (significant
  /// changes), asynchronously: logged and cached as any delivered fix.
  func deliverFromService(_ fix: Location, to manager: LocationManager) {
    call(manager) { [unowned(unsafe) self] m in
      lastKnownLocation = fix
      phone.record(LocationEvent.didUpdateLocations(manager: m.identifier, location: fix))
      m.delegate?.locationManager(m, didUpdateLocations: [fix])
    }
  }

  /// Makes `fix` the phone's cached location without delivering it (a location a service
  /// determined while the app was not running).
  func cache(_ fix: Location) {
    lastKnownLocation = fix
  }

  private func deliver(_ fixes: [Location], to m: LocationManager, _ u: Updates, stale: Bool) {
    guard let fix = fixes.last else { return }
    u.lastDelivered = fix
    if !stale { lastKnownLocation = fix }
    phone.record(LocationEvent.didUpdateLocations(manager: m.identifier, location: fix))
    // What the app now holds rests on unconfirmed defaults: the report lists them.
    if stale {
      let age = (simulation.now - fix.timestamp).seconds
      phone.record(AssumptionEvent.staleFirstFix(manager: m.identifier, age: age))
    }
    if fix.horizontalAccuracy < 0 {
      phone.record(AssumptionEvent.invalidFix(manager: m.identifier))
    }
    m.delegate?.locationManager(m, didUpdateLocations: fixes)
  }
}
