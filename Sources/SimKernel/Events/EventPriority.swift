/// The tie-breaker between events scheduled for the same instant: lower values run first;
/// events of equal time and priority run in the order they were scheduled.
public struct EventPriority: Hashable, Comparable, Sendable {
  /// The raw rank; lower runs first.
  public var rawValue: Int32

  /// A priority of the given rank.
  public init(_ rawValue: Int32) { self.rawValue = rawValue }

  /// Changes of the world itself (Settings, lifecycle), before anything reacts to them.
  public static let system = EventPriority(-100)
  /// Ordinary events: sensor fixes, timers, network replies.
  public static let normal = EventPriority(0)
  /// Bookkeeping that should see everything else of its instant first.
  public static let late = EventPriority(100)

  /// Whether `a` comes before `b`.
  public static func < (a: EventPriority, b: EventPriority) -> Bool { a.rawValue < b.rawValue }
}

/// Identifies one scheduled event so it can be cancelled.
///
/// A handle stays valid for exactly one event: once the event has fired or been cancelled,
/// cancelling again does nothing, even after its storage is reused.
public struct EventHandle: Hashable, Sendable {
  let slot: Int32
  let generation: UInt32
}

/// What a handler receives when one of its events fires.
public struct FiredEvent: Hashable, Sendable {
  /// The handler's own code saying what kind of event this is.
  public let code: Int32
  /// The handler's own argument (an index, an identifier).
  public let argument: Int64
  /// The handle the event was scheduled with.
  public let handle: EventHandle
}

/// A component that receives events it scheduled with ``Simulation/schedule(at:priority:handler:code:argument:)``.
///
/// Scheduling through a registered handler with an integer code and argument stores no closure,
/// so the kernel allocates nothing per event; the closure form is there for convenience.
public protocol SimulationEventHandler: AnyObject {
  /// Handles one of this component's events at `simulation.now`.
  func handle(_ event: FiredEvent, in simulation: Simulation) throws
}

/// The registration number of a handler in one simulation.
public struct HandlerID: Hashable, Sendable {
  let index: Int32
}
