import Geo
import SimKernel

/// The phone's region monitoring: the one owner of the region engine (``RegionMonitor``) and of
/// its ticker. The app's regions and the regions of location-triggered notifications share it
/// and its limit [A], and so do the circular conditions of the app's monitors (`CLMonitor`)
/// unless a scenario gives them a limit of their own [?]; the notification center and the
/// monitor service ask it to watch and unwatch, never edit it.
final class RegionService: LifetimeOwner {
  /// The phone owns this service, so it outlives it: no reference counting on the hot path.
  private unowned(unsafe) let phone: Phone
  private let monitor: RegionMonitor
  private lazy var ticker = phone.simulation.makeTimer { [unowned(unsafe) self] in self.tick() }
  /// Whether a watched region was near the last position the phone found (so it looks again
  /// soon), and when each registration's last transition is to be delivered (so that a
  /// region's transitions arrive in the order they were decided).
  private var isNear = true
  private var lastDelivery: [Int: SimTime] = [:]
  /// The serving cell's position at the last tick, and when the phone last looked for a
  /// position of its own (a Wi-Fi scan).
  private var lastCell: Location?
  private var lastLook: SimTime?

  /// Ends when the service goes away, for the deliveries it has scheduled.
  let lifetime = Lifetime()

  init(phone: Phone) {
    self.phone = phone
    self.monitor = RegionMonitor(parameters: phone.parameters.regionMonitoring)
  }

  deinit { lifetime.end() }

  /// The app's monitored regions.
  var monitoredRegions: Set<CircularRegion> { Set(monitor.regions.values) }

  // MARK: The app's regions

  func startMonitoring(_ region: CircularRegion, from manager: LocationManager) {
    let parameters = phone.parameters
    let fail: (String) -> Void = { reason in
      self.phone.record(
        RegionEvent.monitoringDidFail(identifier: region.identifier, reason: reason))
      self.phone.location.call(manager) {
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
    guard phone.authorization.isPrecise else {
      return fail("region monitoring is unavailable with reduced accuracy")
    }
    guard canWatch(region.identifier, owner: .app) else {
      return fail("the app already monitors \(parameters.maximumMonitoredRegions) regions")
    }
    monitor.watch(region, owner: .app)
    phone.record(
      RegionEvent.startMonitoring(
        identifier: region.identifier, center: region.center, radius: region.radius,
        notifyOnEntry: region.notifyOnEntry, notifyOnExit: region.notifyOnExit))
    if phone.authorization.isRefused {
      phone.location.call(manager) {
        $0.delegate?.locationManager(
          $0, monitoringDidFailFor: region,
          withError: LocationError(.regionMonitoringDenied, "the app is not authorized"))
      }
    }
    rearm()
  }

  /// Stops watching the app's region with `region`'s identifier; logged as `stopMonitoring`
  /// when one was watched.
  func stopMonitoring(identifier: String) {
    guard monitor.isWatched(identifier: identifier, owner: .app) else { return }
    monitor.stopMonitoring(identifier: identifier)
    phone.record(RegionEvent.stopMonitoring(identifier: identifier))
    rearm()
    phone.monitors.slotMayHaveFreed()
  }

  func requestState(for region: CircularRegion, from manager: LocationManager) {
    guard
      let watch = monitor.watches.first(where: {
        $0.owner == .app && $0.region.identifier == region.identifier
      })
    else {
      phone.location.call(manager) {
        $0.delegate?.locationManager(
          $0, monitoringDidFailFor: region,
          withError: LocationError(.regionMonitoringFailure, "the region is not monitored"))
      }
      return
    }
    var state = watch.believed
    if state == .unknown, let position = position() {
      state =
        monitor.observedState(
          of: region, estimate: position.coordinate, accuracy: position.horizontalAccuracy)
        ?? .unknown
    }
    phone.record(RegionEvent.didDetermineState(identifier: region.identifier, state: state))
    phone.location.call(manager) {
      $0.delegate?.locationManager($0, didDetermineState: state, for: region)
    }
  }

  // MARK: Location triggers

  /// Whether a region with `identifier` can be watched for `owner`: it replaces one, or the
  /// app is under its limit.
  func canWatch(_ identifier: String, owner: RegionMonitor.Owner) -> Bool {
    let parameters = phone.parameters
    if monitor.isWatched(identifier: identifier, owner: owner) { return true }
    if parameters.monitorConditionsShareRegionLimit {
      return monitor.count < parameters.maximumMonitoredRegions
    }
    let counts = monitor.counts
    if case .monitor = owner { return counts.monitors < parameters.maximumMonitorConditions }
    return counts.others < parameters.maximumMonitoredRegions
  }

  // MARK: Monitors' conditions

  /// Watches a condition of monitor `name` from the state the app assumes; returns the
  /// registration.
  func watchCondition(_ region: CircularRegion, monitor name: String, assuming: RegionState)
    -> Int
  {
    let registration = monitor.watch(region, owner: .monitor(name), believed: assuming)
    rearm()
    return registration
  }

  /// The state the engine believes for a registration (`.unknown` once it is gone).
  func conditionState(_ registration: Int) -> RegionState {
    monitor.state(of: registration)
  }

  /// Stops watching condition `identifier` of monitor `name`, if it is watched.
  func unwatchCondition(_ identifier: String, monitor name: String) {
    monitor.unwatch(identifier, owner: .monitor(name))
    rearm()
    phone.monitors.slotMayHaveFreed()
  }

  /// Watches the region of the location trigger of request `identifier`.
  func watchTrigger(_ region: CircularRegion, request identifier: String) {
    monitor.watch(region, owner: .notification(identifier))
    rearm()
  }

  /// Stops watching the region of request `identifier`'s location trigger, if any.
  func unwatchTrigger(request identifier: String) {
    monitor.unwatch(owner: .notification(identifier))
    rearm()
    phone.monitors.slotMayHaveFreed()
  }

  /// The phone restarted: every watched region is forgotten [A].
  func reboot() {
    monitor.removeAll()
    rearm()
    phone.monitors.engineWasReset()
  }

  // MARK: The region ticker

  private var needsTicks: Bool { phone.location.hasSensor && monitor.count > 0 }

  /// Starts evaluating at once when there is something to watch; stops when there is not.
  private func rearm() {
    if needsTicks, !ticker.isArmed {
      isNear = true
      lastLook = nil
      checkedScheduling { try ticker.arm(after: .zero) }
    } else if !needsTicks {
      ticker.cancel()
    }
  }

  /// Every `evaluationInterval`: the serving cell comes for free, and a change of cell tells
  /// the phone it moved, so it checks whether a region is near [?]; it looks for a position of
  /// its own (a Wi-Fi scan, else the cell's) when a region is near, and every `idleInterval`
  /// otherwise.
  private func tick() {
    let p = phone.parameters.regionMonitoring
    let now = phone.simulation.now
    let cell = phone.location.regionPosition(from: .cell, connected: phone.isConnected)
    if let cell, cell.coordinate != lastCell?.coordinate {
      isNear = isNear || near(cell)
    }
    lastCell = cell
    if isNear || lastLook.map({ now - $0 >= p.idleInterval }) ?? true {
      lastLook = now
      var position = position(cell: cell)
      // Near a region with nothing finer than a cell that puts the phone inside one: a brief
      // GNSS fix, where one can be had.
      if isNear, p.gnssWhenNear, phone.isConnected,
        position.map({
          $0.horizontalAccuracy > p.hysteresis
            && !monitor.observesInside(estimate: $0.coordinate, accuracy: $0.horizontalAccuracy)
        }) ?? true,
        let fix = phone.location.regionPosition(from: .gnss, connected: true)
      {
        position = fix
      }
      if let position { evaluate(position) }
    }
    if needsTicks {
      checkedScheduling { try ticker.arm(after: p.evaluationInterval) }
    }
  }

  /// The low-power position the phone can find now: Wi-Fi where access points locate it,
  /// else its serving cell's (`cell`, already read); none without a network connection or in
  /// an outage [A].
  private func position(cell: Location?) -> Location? {
    phone.location.regionPosition(from: .wifi, connected: phone.isConnected) ?? cell
  }

  /// The position the phone can find now, for `requestState(for:)`.
  private func position() -> Location? {
    position(cell: phone.location.regionPosition(from: .cell, connected: phone.isConnected))
  }

  /// Whether a watched region's effective boundary lies within `nearDistance` of `position`,
  /// beyond its accuracy.
  private func near(_ position: Location) -> Bool {
    let p = phone.parameters.regionMonitoring
    return monitor.hasRegionBoundary(
      within: p.nearDistance + max(0, position.horizontalAccuracy), of: position.coordinate)
  }

  /// The worst accuracy of a fix that comes from GNSS (urban-canyon GNSS is 30 m; Wi-Fi 65 m).
  static let gnssAccuracyLimit = 50.0

  /// A GNSS fix the app's location updates produced: region monitoring uses it as it comes.
  func observe(fix: Location) {
    guard monitor.count > 0, fix.horizontalAccuracy >= 0 else { return }
    evaluate(fix)
  }

  private func evaluate(_ position: Location) {
    let coordinate = position.coordinate
    let accuracy = position.horizontalAccuracy
    monitor.evaluate(estimate: coordinate, accuracy: accuracy, now: phone.simulation.now) {
      watch, state, previous in
      decided(watch, state: state, previous: previous, estimate: position)
    }
    isNear = near(position)
  }

  /// A transition was decided: log it, then deliver it after the latency unless it is missed.
  private func decided(
    _ watch: RegionMonitor.Watch, state: RegionState, previous: RegionState, estimate: Location
  ) {
    let p = phone.parameters.regionMonitoring
    if case .monitor(let name) = watch.owner {
      let id = watch.region.identifier
      let condition = ConditionState(state)
      phone.record(
        MonitorEvent.decided(
          monitor: name, identifier: id, state: condition, estimate: estimate.coordinate))
      if previous == .unknown {
        // The first state of a condition added as unknown: an event at once [?].
        return phone.monitors.transition(monitor: name, identifier: id, state: state)
      }
      if phone.random.bernoulli(p.missProbability) {
        phone.record(
          MonitorEvent.missed(
            monitor: name, identifier: id, state: condition, estimate: estimate.coordinate))
        return
      }
    } else {
      var request: String?
      if case .notification(let id) = watch.owner { request = id }
      let decision = RegionDecision(
        identifier: watch.region.identifier, state: state, estimate: estimate.coordinate,
        request: request)
      phone.record(RegionEvent.decided(decision))
      if phone.random.bernoulli(p.missProbability) {
        phone.record(RegionEvent.missed(decision))
        return
      }
    }
    let median = state == .inside ? p.entryLatencyMedian : p.exitLatencyMedian
    let latency = SimDuration.seconds(
      phone.random.logNormal(median: median.seconds, sigma: p.latencySigma))
    let registration = watch.registration
    // A region's transitions arrive in the order they were decided: one decided while the
    // previous is still on its way waits for it [?] (iOS queues a region's events).
    let now = phone.simulation.now
    let at = max(now + latency, lastDelivery[registration] ?? now)
    lastDelivery[registration] = at
    let service = Uncounted(self)
    checkedScheduling {
      try phone.simulation.schedule(at: at) {
        guard let self = service.value else { return }
        if self.lastDelivery[registration] == at { self.lastDelivery[registration] = nil }
        guard self.monitor.isCurrent(registration) else { return }
        self.deliver(watch, state: state)
      }
    }
  }

  private func deliver(_ watch: RegionMonitor.Watch, state: RegionState) {
    let region = watch.region
    if case .notification(let id) = watch.owner {
      phone.notificationCenter.regionEvent(request: id, state: state)
      return
    }
    if case .monitor(let name) = watch.owner {
      phone.monitors.transition(monitor: name, identifier: region.identifier, state: state)
      return
    }
    let authorization = phone.authorization
    var cause: RegionSuppression?
    if !authorization.isAuthorized || !authorization.isPrecise {
      cause = .permission
    } else if authorization.status == .authorizedWhenInUse && !phone.location.isInUse {
      cause = .appNotInUse
    }
    if let cause {
      phone.record(RegionEvent.suppressed(identifier: region.identifier, cause: cause))
      return
    }
    let notify = state == .inside ? region.notifyOnEntry : region.notifyOnExit
    if notify {
      authorization.resolveProvisionalAlwaysIfNeeded()
      phone.process.wakeForLocationEvent()
    }
    phone.record(
      state == .inside
        ? RegionEvent.didEnterRegion(identifier: region.identifier, notified: notify)
        : RegionEvent.didExitRegion(identifier: region.identifier, notified: notify))
    // Without the notify flag the transition generates no notification [A]: the app is not
    // woken or launched for it; a running app still hears the new state [?].
    guard notify || phone.process.state == .foreground || phone.process.state == .background
    else { return }
    phone.location.callEachManager { m in
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
