/// A timer a component owns in one simulation: at most one pending event at a time, which
/// calls the component back when it fires, allocation-free.
///
/// A component keeps a timer for each thing it re-arms (a sensor tick, a suspension deadline)
/// and arms or cancels it from the state the timer serves. The timer is registered with the
/// kernel when it is made and unregistered when it goes away, so it never outlives its owner's
/// world; the callback should hold its owner weakly or unowned.
public final class SimulationTimer: SimulationEventHandler {
  private let simulation: Simulation
  private let id: HandlerID
  private let priority: EventPriority
  private let fire: () throws -> Void
  /// Read by inlined ``isArmed`` in other modules, written only here.
  @usableFromInline private(set) var pending: EventHandle?

  fileprivate init(
    simulation: Simulation, id: HandlerID, priority: EventPriority,
    fire: @escaping () throws -> Void
  ) {
    self.simulation = simulation
    self.id = id
    self.priority = priority
    self.fire = fire
  }

  deinit {
    simulation.unregister(id)
  }

  /// Whether an event is pending. (Inlinable: a component asks it on every event.)
  @inlinable public var isArmed: Bool { pending != nil }

  /// Arms the timer to fire `delay` from now, replacing a pending event.
  ///
  /// - Throws: ``SimKernelError`` for a negative delay.
  public func arm(after delay: SimDuration) throws {
    let handle = try simulation.schedule(after: delay, priority: priority, handler: id, code: 0)
    cancel()
    pending = handle
  }

  /// Arms the timer to fire at `time`, replacing a pending event.
  ///
  /// - Throws: ``SimKernelError`` for an instant before ``Simulation/now``.
  public func arm(at time: SimTime) throws {
    let handle = try simulation.schedule(at: time, priority: priority, handler: id, code: 0)
    cancel()
    pending = handle
  }

  /// Cancels the pending event, if any.
  public func cancel() {
    if let pending { simulation.cancel(pending) }
    pending = nil
  }

  /// Fires the callback (the kernel calls this).
  public func handle(_ event: FiredEvent, in simulation: Simulation) throws {
    guard event.handle == pending else { return }
    pending = nil
    try fire()
  }
}

extension Simulation {
  /// A new timer in this simulation that calls `fire` each time it comes due.
  ///
  /// - Parameters:
  ///   - priority: the priority of its events among those at the same instant.
  ///   - fire: called each time the timer comes due; an error it throws is thrown by
  ///     the call that is running the simulation.
  public func makeTimer(
    priority: EventPriority = .normal, _ fire: @escaping () throws -> Void
  ) -> SimulationTimer {
    register { id in SimulationTimer(simulation: self, id: id, priority: priority, fire: fire) }
  }
}
