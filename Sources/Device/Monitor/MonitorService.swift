import Geo
import SimKernel

/// The phone's condition monitoring (`CLMonitor`): the conditions of every named monitor, kept
/// by the phone across relaunches and terminations [A], watched by the one region engine
/// (``RegionService``) with the monitor's name as their owner, so that they count against the
/// same limit as the app's regions and location triggers and are decided with the same
/// latency, misses and hysteresis.
///
/// An event for a monitor no process has open waits, one per condition, and the phone stops
/// watching that condition until a monitor of that name is created to receive it [A]; the event
/// relaunches a terminated app into the background as a region event does.
final class MonitorService {
  /// The phone owns this service, so it outlives it.
  private unowned(unsafe) let phone: Phone

  struct Condition {
    var condition: MonitorCondition
    /// The region the engine watches, if the condition is a valid circle.
    var region: CircularRegion?
    var lastEvent: ConditionEvent
    /// The event waiting for a monitor of this name, if any.
    var pending: ConditionEvent?
    /// The engine's registration while the condition is watched.
    var registration: Int?
    /// Flags of the condition itself (unsupported, over the limit).
    var own: MonitorDiagnostics

    var isOverLimit: Bool { own == .conditionLimitExceeded && region != nil }
  }

  private struct Store {
    var conditions: [String: Condition] = [:]
    var order: [String] = []
  }

  private struct OpenMonitor {
    weak var monitor: ConditionMonitor?
    let generation: Int
  }

  private var stores: [String: Store] = [:]
  private var open: [String: OpenMonitor] = [:]
  /// Set by the session model: whether monitoring needs a service session now (iOS 18).
  var serviceSessionRequired = false
  private var promotionScheduled = false

  init(phone: Phone) {
    self.phone = phone
  }

  // MARK: The app's monitors

  /// A monitor of `name` was created in the app's process: it receives the events that waited.
  func open(_ monitor: ConditionMonitor) {
    let name = monitor.name
    open[name] = OpenMonitor(monitor: monitor, generation: phone.process.generation)
    phone.record(MonitorEvent.opened(monitor: name))
    for id in stores[name]?.order ?? [] {
      guard let c = stores[name]?.conditions[id], let event = c.pending else { continue }
      stores[name]?.conditions[id]?.pending = nil
      deliver(event, to: monitor)
      // Watched again, from the state the app now knows.
      if let region = c.region, c.own.isEmpty {
        stores[name]?.conditions[id]?.registration = phone.regions.watchCondition(
          region, monitor: name, assuming: event.state.regionState)
      }
    }
    refreshDiagnostics(monitor: name)
  }

  /// The open monitor of `name` in the running process, if any.
  private func openMonitor(_ name: String) -> ConditionMonitor? {
    guard let entry = open[name], let monitor = entry.monitor,
      entry.generation == phone.process.generation, phone.appState != .notRunning
    else { return nil }
    return monitor
  }

  /// The names of the monitors whose events the running app is iterating.
  var iterated: [String] {
    open.keys.sorted().filter { openMonitor($0)?.isIterated == true }
  }

  func identifiers(monitor name: String) -> [String] {
    stores[name]?.order ?? []
  }

  func record(monitor name: String, identifier: String) -> ConditionRecord? {
    guard let c = stores[name]?.conditions[identifier] else { return nil }
    return ConditionRecord(condition: c.condition, lastEvent: c.lastEvent)
  }

  // MARK: Conditions

  func add(
    _ condition: MonitorCondition, identifier: String, assuming: ConditionState,
    monitor name: String
  ) {
    remove(identifier, monitor: name, logged: false)
    var own: MonitorDiagnostics = []
    var region: CircularRegion?
    switch condition {
    case .beacon:
      own.insert(.conditionUnsupported)
    case .circle(let latitude, let longitude, let radius):
      if let center = try? Coordinate(latitude: latitude, longitude: longitude),
        latitude.isFinite, longitude.isFinite, (-180...180).contains(longitude),
        radius.isFinite, radius >= 0,
        radius <= phone.parameters.maximumRegionMonitoringDistance
      {
        region = CircularRegion(center: center, radius: radius, identifier: identifier)
      } else {
        own.insert(.conditionUnsupported)
      }
    }
    if region != nil, !phone.regions.canWatch(identifier, owner: .monitor(name)) {
      own.insert(.conditionLimitExceeded)
    }
    phone.record(
      MonitorEvent.conditionAdded(
        monitor: name, identifier: identifier, condition: condition, assumed: assuming))
    var c = Condition(
      condition: condition, region: region,
      lastEvent: ConditionEvent(
        identifier: identifier, state: assuming, date: phone.simulation.now),
      own: own)
    if let region, own.isEmpty {
      c.registration = phone.regions.watchCondition(
        region, monitor: name, assuming: assuming.regionState)
    }
    stores[name, default: Store()].conditions[identifier] = c
    stores[name, default: Store()].order.append(identifier)
    if !own.isEmpty {
      // A condition the phone cannot watch is reported as unmonitored [?].
      emit(
        ConditionEvent(
          identifier: identifier, state: .unmonitored, date: phone.simulation.now,
          diagnostics: own.union(authorizationDiagnostics)), monitor: name, wakes: false)
    } else {
      refreshDiagnostics(monitor: name, only: identifier)
    }
  }

  func remove(_ identifier: String, monitor name: String, logged: Bool = true) {
    guard stores[name]?.conditions[identifier] != nil else { return }
    stores[name]?.conditions[identifier] = nil
    stores[name]?.order.removeAll { $0 == identifier }
    phone.regions.unwatchCondition(identifier, monitor: name)
    if logged {
      phone.record(MonitorEvent.conditionRemoved(monitor: name, identifier: identifier))
    }
  }

  /// A watched region was let go: conditions over the limit may be watched now. Done after
  /// the current call, so that a region replaced within one call keeps its slot.
  func slotMayHaveFreed() {
    guard !promotionScheduled,
      stores.values.contains(where: { $0.conditions.values.contains(where: \.isOverLimit) })
    else { return }
    promotionScheduled = true
    checkedScheduling {
      try phone.simulation.schedule(after: .zero) { [unowned(unsafe) self] in
        self.promotionScheduled = false
        self.promote()
      }
    }
  }

  /// Watches the conditions over the limit that now fit, in the order they were added; each
  /// hears its first state as a new condition does [?].
  private func promote() {
    for name in stores.keys.sorted() {
      for id in stores[name]?.order ?? [] {
        guard let c = stores[name]?.conditions[id], c.isOverLimit, let region = c.region,
          phone.regions.canWatch(id, owner: .monitor(name))
        else { continue }
        stores[name]?.conditions[id]?.own = []
        stores[name]?.conditions[id]?.registration = phone.regions.watchCondition(
          region, monitor: name, assuming: .unknown)
      }
    }
  }

  // MARK: The engine's decisions

  /// A transition the engine decided for a condition reached the phone's delivery.
  func transition(monitor name: String, identifier: String, state: RegionState) {
    guard let c = stores[name]?.conditions[identifier] else { return }
    let diagnostics = authorizationDiagnostics
    let blocking = diagnostics.intersection(MonitorDiagnostics.blocking)
    if !blocking.isEmpty {
      let cause: RegionSuppression =
        blocking == .insufficientlyInUse ? .appNotInUse : .permission
      phone.record(MonitorEvent.suppressed(monitor: name, identifier: identifier, cause: cause))
      if c.lastEvent.diagnostics != diagnostics.union(c.own) {
        var event = c.lastEvent
        event.date = phone.simulation.now
        event.diagnostics = diagnostics.union(c.own)
        emit(event, monitor: name, wakes: false)
      }
      return
    }
    phone.authorization.resolveProvisionalAlwaysIfNeeded()
    emit(
      ConditionEvent(
        identifier: identifier, state: ConditionState(state), date: phone.simulation.now,
        diagnostics: diagnostics), monitor: name, wakes: true)
  }

  /// Hands `event` to the open monitor of `name`, or keeps it for one: then the condition is
  /// no longer watched [A] and, for a transition, the app is woken or relaunched [A].
  private func emit(_ event: ConditionEvent, monitor name: String, wakes: Bool) {
    guard stores[name]?.conditions[event.identifier] != nil else { return }
    if let monitor = openMonitor(name) {
      stores[name]?.conditions[event.identifier]?.lastEvent = event
      if wakes { phone.process.wakeForLocationEvent() }
      deliver(event, to: monitor)
      return
    }
    guard wakes else { return }
    stores[name]?.conditions[event.identifier]?.pending = event
    stores[name]?.conditions[event.identifier]?.registration = nil
    phone.regions.unwatchCondition(event.identifier, monitor: name)
    phone.record(
      MonitorEvent.eventPending(monitor: name, identifier: event.identifier, state: event.state))
    phone.process.wakeForLocationEvent()
  }

  private func deliver(_ event: ConditionEvent, to monitor: ConditionMonitor) {
    stores[monitor.name]?.conditions[event.identifier]?.lastEvent = event
    phone.record(
      MonitorEvent.eventDelivered(
        monitor: monitor.name, identifier: event.identifier, state: event.state,
        diagnostics: event.diagnostics))
    phone.process.call { [weak monitor] in monitor?.receive(event) }
  }

  // MARK: Authorization

  /// What the phone's permission keeps monitors from doing now [A].
  var authorizationDiagnostics: MonitorDiagnostics {
    let a = phone.authorization
    var d: MonitorDiagnostics = []
    if a.state.restricted { d.insert(.authorizationRestricted) }
    if !a.state.servicesEnabled { d.insert(.authorizationDeniedGlobally) }
    if a.state.choice == .denied || a.state.airplaneMode { d.insert(.authorizationDenied) }
    if a.isAuthorized, !a.isPrecise { d.insert(.accuracyLimited) }
    if a.status == .authorizedWhenInUse, !phone.location.isInUse {
      d.insert(.insufficientlyInUse)
    }
    if a.isLocationPromptShown { d.insert(.authorizationRequestInProgress) }
    if serviceSessionRequired { d.insert(.serviceSessionRequired) }
    return d
  }

  /// The permission changed: each open monitor's conditions whose blocking diagnostics changed
  /// get an event with them, and the state the app last heard [?].
  func authorizationDidChange() {
    for name in open.keys.sorted() { refreshDiagnostics(monitor: name) }
  }

  private func refreshDiagnostics(monitor name: String, only identifier: String? = nil) {
    guard openMonitor(name) != nil, let store = stores[name] else { return }
    let diagnostics = authorizationDiagnostics
    for id in store.order where identifier == nil || id == identifier {
      guard let c = store.conditions[id], c.pending == nil else { continue }
      let flags = diagnostics.union(c.own)
      var event = c.lastEvent
      // Unblocked again: the app hears the state the engine came to meanwhile [?].
      if flags.isDisjoint(with: MonitorDiagnostics.blocking), let registration = c.registration {
        let believed = ConditionState(phone.regions.conditionState(registration))
        if believed != .unknown { event.state = believed }
      }
      // Flags that only describe the moment (a prompt on screen) ride along with other
      // events; a change of what blocks the condition is an event of its own.
      let telling = MonitorDiagnostics.blocking.union(c.own)
      guard
        flags.intersection(telling) != c.lastEvent.diagnostics.intersection(telling)
          || event.state != c.lastEvent.state
      else { continue }
      event.date = phone.simulation.now
      event.diagnostics = flags
      emit(event, monitor: name, wakes: false)
    }
  }

  /// The region engine forgot everything (a reboot): the monitors' conditions, kept by the
  /// phone [A], are watched again from the state the app last heard [?].
  func engineWasReset() {
    for name in stores.keys.sorted() {
      guard let store = stores[name] else { continue }
      for id in store.order {
        guard let c = store.conditions[id], c.registration != nil, let region = c.region
        else { continue }
        stores[name]?.conditions[id]?.registration = phone.regions.watchCondition(
          region, monitor: name, assuming: c.lastEvent.state.regionState)
      }
    }
  }
}

extension Phone {
  /// The phone's condition monitoring, made on first use.
  var monitors: MonitorService { attachment(MonitorService.self) { MonitorService(phone: self) } }

  /// The names of the monitors (`CLMonitor`) whose events the running app is iterating, for
  /// the session model: iterating a monitor's events holds an implicit service session [A].
  public var iteratedConditionMonitors: [String] { monitors.iterated }

  /// Whether monitoring needs a service session the app does not hold (iOS 18, an app that
  /// opted out of implicit sessions); set by the session model. While it does, transitions are
  /// not delivered and events carry `serviceSessionRequired`.
  public func setMonitorServiceSessionRequired(_ required: Bool) {
    guard monitors.serviceSessionRequired != required else { return }
    monitors.serviceSessionRequired = required
    monitors.authorizationDidChange()
  }
}
