import Foundation

/// The one owner of virtual time in a simulated world: a discrete-event kernel.
///
/// Events are scheduled for an instant and fire in (time, priority, scheduling order) order;
/// ``now`` jumps from one event's time to the next and never moves backwards. Scheduling in the
/// past, a negative delay and `run(until:)` before ``now`` throw ``SimKernelError``. An event's
/// handler may schedule and cancel further events, including more at the current instant.
///
/// A simulation owns its world's randomness (``random``, split into named streams) and event
/// log (``log``). It is deliberately single-threaded and not `Sendable`: no locks, no shared
/// state. Run several worlds side by side on different threads, never one world on several.
public final class Simulation {
  /// The wall-clock date of ``SimTime/zero``, for showing virtual times as dates.
  public let epoch: Date
  /// The current virtual time.
  ///
  /// Inlinable, so that a component reading it on every event loads a field instead of making
  /// a call (and retaining the simulation around it).
  @inlinable public var now: SimTime { clock }
  /// The world's seeded randomness; components draw from named streams of it.
  public let random: RandomSource
  /// Everything that happened, in order.
  public let log: EventLog
  /// How many events have fired since the simulation began.
  public var firedEventCount: Int { eventsFired }

  // Mutable state is private and exposed through getters: the optimizer can then prove that no
  // access overlaps and drop the dynamic exclusivity checks from the hot path.
  /// Read by inlined ``now`` in other modules, written only here; no access to it is held
  /// across a call.
  @usableFromInline @exclusivity(unchecked) private(set) var clock: SimTime = .zero
  private var eventsFired = 0
  private let queue: EventQueue
  /// Registered handlers, held without keeping them alive: components own (and are owned with)
  /// their world, and a strong reference back from the kernel would keep every world alive
  /// forever. A handler that goes away unregisters itself (``unregister(_:)``).
  private let handlers = HandlerTable()

  /// Creates a simulation at ``SimTime/zero``.
  ///
  /// - Parameters:
  ///   - epoch: the wall-clock date of virtual time zero.
  ///   - seed: the seed of every random stream in this world.
  public init(epoch: Date = Date(timeIntervalSince1970: 0), seed: UInt64) {
    self.epoch = epoch
    self.random = RandomSource(seed: seed)
    self.log = EventLog()
    self.queue = EventQueue()
  }

  /// A simulation whose queue renumbers its events after `sequenceLimit` of them, instead of
  /// after 2³², and sinks entries without branches only while it holds at most
  /// `branchlessLimit`: for tests of the renumbering and of both ways of sinking.
  package init(seed: UInt64, sequenceLimit: UInt64, branchlessLimit: Int? = nil) {
    self.epoch = Date(timeIntervalSince1970: 0)
    self.random = RandomSource(seed: seed)
    self.log = EventLog()
    self.queue = EventQueue(
      sequenceLimit: sequenceLimit,
      branchlessLimit: branchlessLimit ?? EventQueue.defaultBranchlessLimit)
  }

  /// The first invariant of the event queue that does not hold, or `nil`: for tests.
  package func queueInvariantViolation() -> String? {
    queue.invariantViolation()
  }

  /// The wall-clock date of a virtual instant.
  public func date(of time: SimTime) -> Date {
    epoch.addingTimeInterval(time.seconds)
  }

  /// The number of events scheduled and neither fired nor cancelled.
  public var pendingEventCount: Int { queue.pendingCount }

  // MARK: Scheduling

  /// Registers a handler so it can schedule allocation-free events.
  ///
  /// The simulation does not keep the handler alive. A handler must either outlive its pending
  /// events or call ``unregister(_:)`` when it goes away (typically in `deinit`); the events of
  /// an unregistered handler are dropped when they come due.
  public func register(_ handler: any SimulationEventHandler) -> HandlerID {
    handlers.append(handler)
    return HandlerID(index: Int32(handlers.count - 1))
  }

  /// Registers the handler `make` builds for the identifier it is given: for a handler that
  /// keeps its own identifier to schedule with. `make` must not register other handlers.
  public func register<Handler: SimulationEventHandler>(_ make: (HandlerID) -> Handler)
    -> Handler
  {
    let id = HandlerID(index: Int32(handlers.count))
    let handler = make(id)
    precondition(handlers.count == id.index, "a handler registered another while being made")
    handlers.append(handler)
    return handler
  }

  /// Forgets a handler: its pending events will be dropped instead of delivered.
  public func unregister(_ id: HandlerID) {
    handlers.unregister(Int(id.index))
  }

  /// Schedules an event for `handler` at `time`.
  ///
  /// - Complexity: O(log *n*) in the number of pending events; no allocation in steady state.
  @discardableResult
  public func schedule(
    at time: SimTime, priority: EventPriority = .normal, handler: HandlerID, code: Int32,
    argument: Int64 = 0
  ) throws -> EventHandle {
    try checkNotPast(time)
    return queue.push(
      time: time.nanoseconds, priority: priority.rawValue, handler: handler.index, code: code,
      argument: argument, action: nil)
  }

  /// Schedules an event for `handler` after `delay`.
  @discardableResult
  public func schedule(
    after delay: SimDuration, priority: EventPriority = .normal, handler: HandlerID,
    code: Int32, argument: Int64 = 0
  ) throws -> EventHandle {
    try checkDelay(delay)
    return try schedule(
      at: now + delay, priority: priority, handler: handler, code: code, argument: argument)
  }

  /// Schedules `action` at `time`.
  @discardableResult
  public func schedule(
    at time: SimTime, priority: EventPriority = .normal,
    _ action: consuming @escaping () throws -> Void
  ) throws -> EventHandle {
    try checkNotPast(time)
    return queue.push(
      time: time.nanoseconds, priority: priority.rawValue, handler: -1, code: 0, argument: 0,
      action: consume action)
  }

  /// Schedules `action` after `delay`.
  @discardableResult
  public func schedule(
    after delay: SimDuration, priority: EventPriority = .normal,
    _ action: consuming @escaping () throws -> Void
  ) throws -> EventHandle {
    try checkDelay(delay)
    return try schedule(at: now + delay, priority: priority, consume action)
  }

  /// Cancels a pending event; returns `false` if it had already fired or been cancelled.
  @discardableResult
  public func cancel(_ handle: EventHandle) -> Bool {
    queue.cancel(handle)
  }

  // The checks are inlined into every scheduling call; the errors are built out of line.
  @inline(__always)
  private func checkNotPast(_ time: SimTime) throws {
    guard time.nanoseconds >= clock.nanoseconds else { throw pastError(time) }
  }

  @inline(__always)
  private func checkDelay(_ delay: SimDuration) throws {
    guard delay.nanoseconds >= 0 else { throw Self.negativeDelayError(delay) }
  }

  @inline(never)
  private func pastError(_ time: SimTime) -> SimKernelError {
    SimKernelError(
      .schedulingInThePast, "cannot schedule an event at \(time), before now (\(now))")
  }

  @inline(never)
  private static func negativeDelayError(_ delay: SimDuration) -> SimKernelError {
    SimKernelError(
      .schedulingInThePast, "cannot schedule an event after a negative delay (\(delay))")
  }

  // MARK: Running

  /// Fires the earliest pending event, advancing ``now`` to its time; returns `false` when
  /// nothing is pending.
  ///
  /// An error thrown by the event's handler propagates: failures are never dropped.
  @discardableResult
  public func step() throws -> Bool {
    guard let (time, slot, action, handle) = queue.pop() else { return false }
    clock = SimTime(nanoseconds: time)
    eventsFired += 1
    // Consumed, so that the closure is called with the reference the queue handed over
    // (binding a copy of it cost a retain and a release per event).
    if let action = consume action {
      try action()
    } else {
      let target = handlers[Int(slot.handler)]
      if target.isRegistered {
        try target.caller._withUnsafeGuaranteedRef {
          try $0.fire(FiredEvent(code: slot.code, argument: slot.argument, handle: handle), self)
        }
      }
    }
    return true
  }

  /// Fires every event up to and including `time`, then sets ``now`` to `time`.
  ///
  /// - Parameters:
  ///   - time: the instant to run to.
  ///   - eventLimit: the most events to fire; a world with more due by `time` stops at the
  ///     instant of the last one fired and throws ``SimKernelErrorCode/eventLimitReached``
  ///     (an app that keeps queuing work at one instant never gets there).
  public func run(until time: SimTime, eventLimit: Int = .max) throws {
    guard time >= now else {
      throw SimKernelError(
        .runningBackwards, "cannot run until \(time): it is before now (\(now))")
    }
    guard eventLimit > 0 else {
      throw SimKernelError(
        .invalidArgument, "the event limit must be positive, got \(eventLimit)")
    }
    var fired = 0
    while let next = queue.peekTime(), next <= time.nanoseconds {
      guard fired < eventLimit else {
        throw SimKernelError(
          .eventLimitReached,
          "\(eventLimit) events fired by \(now), and more are due before \(time)")
      }
      try step()
      fired += 1
    }
    clock = time
  }

  /// Fires events until none is pending; returns how many fired.
  ///
  /// - Parameter limit: the most events to fire; a world still busy after that many throws
  ///   ``SimKernelErrorCode/eventLimitReached`` (a runaway timer is a bug, not a long run).
  @discardableResult
  public func run(limit: Int = 100_000_000) throws -> Int {
    guard limit > 0 else {
      throw SimKernelError(.invalidArgument, "the event limit must be positive, got \(limit)")
    }
    var fired = 0
    while queue.pendingCount > 0 {
      guard fired < limit else {
        throw SimKernelError(
          .eventLimitReached,
          "\(limit) events fired and \(queue.pendingCount) are still pending at \(now)")
      }
      try step()
      fired += 1
    }
    return fired
  }
}

/// The registered handlers, in a manually managed buffer of plain values: reading one when an
/// event fires costs no exclusivity check and no reference count of a Swift array.
private final class HandlerTable {
  private var slots: UnsafeMutablePointer<HandlerSlot>
  private var capacity = 16
  private(set) var count = 0
  /// Owns the callers the slots point to.
  private var callers: [HandlerCaller] = []

  init() { slots = .allocate(capacity: capacity) }

  deinit {
    slots.deinitialize(count: count)
    slots.deallocate()
  }

  @inline(__always)
  subscript(index: Int) -> HandlerSlot { slots[index] }

  func append(_ handler: some SimulationEventHandler) {
    if count == capacity {
      capacity *= 2
      let bigger = UnsafeMutablePointer<HandlerSlot>.allocate(capacity: capacity)
      bigger.moveInitialize(from: slots, count: count)
      slots.deallocate()
      slots = bigger
    }
    let caller = TypedHandlerCaller(handler)
    callers.append(caller)
    (slots + count).initialize(to: HandlerSlot(caller: .passUnretained(caller)))
    count += 1
  }

  func unregister(_ index: Int) {
    guard index >= 0, index < count else { return }
    slots[index].isRegistered = false
  }
}

/// A registered handler, as plain data: a caller the table owns, and whether the handler is
/// still registered.
///
/// Calling through an unretained caller costs no reference count per event (retaining the
/// handler around its call cost two atomic operations, the largest item of the handler path).
/// Safety comes from the contract in ``Simulation/register(_:)``: a handler unregisters itself
/// before it goes away, and an unregistered slot is never called.
private struct HandlerSlot {
  let caller: Unmanaged<HandlerCaller>
  var isRegistered = true
}

/// Calls one registered handler; the subclass knows its type.
private class HandlerCaller {
  func fire(_ event: FiredEvent, _ simulation: Simulation) throws {
    preconditionFailure("HandlerCaller is abstract")
  }
}

/// Holds a handler unretained (a weak reference cost about 40 ns, a third of the hold model's
/// budget) and calls it without retaining it.
private final class TypedHandlerCaller<Handler: SimulationEventHandler>: HandlerCaller {
  let handler: Unmanaged<Handler>

  init(_ handler: Handler) { self.handler = .passUnretained(handler) }

  override func fire(_ event: FiredEvent, _ simulation: Simulation) throws {
    try handler._withUnsafeGuaranteedRef { try $0.handle(event, in: simulation) }
  }
}
