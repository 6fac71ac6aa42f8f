import Geo
import SimKernel

/// The phone's region monitoring: the one owner of the region engine (``RegionMonitor``) and of
/// its ticker. The app's regions and the regions of location-triggered notifications share it
/// and its limit [A], and so do the circular conditions of the app's monitors (`CLMonitor`)
/// unless a scenario gives them a limit of their own [?]; the notification center and the
/// monitor service ask it to watch and unwatch, never edit it.
final class RegionService {
  /// The phone owns this service, so it outlives it: no reference counting on the hot path.
  private unowned(unsafe) let phone: Phone
  private let monitor: RegionMonitor
  private lazy var ticker = phone.simulation.makeTimer { [unowned(unsafe) self] in self.tick() }

  init(phone: Phone) {
    self.phone = phone
    self.monitor = RegionMonitor(parameters: phone.parameters.regionMonitoring)
  }

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
        identifier: region.identifier, center: region.center, radius: region.radius))
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
    if state == .unknown, let estimate = phone.location.coarseEstimate() {
      state = monitor.observedState(of: region, estimate: estimate.coordinate) ?? .unknown
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
      checkedScheduling { try ticker.arm(after: .zero) }
    } else if !needsTicks {
      ticker.cancel()
    }
  }

  private func tick() {
    step()
    if needsTicks {
      checkedScheduling {
        try ticker.arm(after: phone.parameters.regionMonitoring.evaluationInterval)
      }
    }
  }

  private func step() {
    guard let estimate = phone.location.coarseEstimate() else { return }
    monitor.evaluate(estimate: estimate.coordinate, now: phone.simulation.now) {
      watch, state, previous in
      decided(watch, state: state, previous: previous, estimate: estimate)
    }
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
    checkedScheduling {
      try phone.simulation.schedule(after: latency) { [weak self] in
        guard let self, self.monitor.isCurrent(registration) else { return }
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
    authorization.resolveProvisionalAlwaysIfNeeded()
    phone.process.wakeForLocationEvent()
    let notify = state == .inside ? region.notifyOnEntry : region.notifyOnExit
    phone.record(
      state == .inside
        ? RegionEvent.didEnterRegion(identifier: region.identifier, notified: notify)
        : RegionEvent.didExitRegion(identifier: region.identifier, notified: notify))
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
