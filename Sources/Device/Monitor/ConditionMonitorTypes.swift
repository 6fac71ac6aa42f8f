import Geo
import SimKernel

/// A condition a monitor watches (`CLMonitor.CircularGeographicCondition`,
/// `CLMonitor.BeaconIdentityCondition`).
public enum MonitorCondition: Hashable, Sendable {
  /// A circle on the ground, as the app gave it: the phone checks the centre and the radius
  /// when the condition is added, and reports one it cannot watch as unsupported [?].
  case circle(latitude: Double, longitude: Double, radius: Double)
  /// A beacon identity constraint. The phone has no Bluetooth radio and a scenario places no
  /// beacons, so such a condition is never watched: its events carry `conditionUnsupported`.
  case beacon(uuid: String, major: Int?, minor: Int?)

  /// The name of the condition's kind in the log: `circle` or `beacon`.
  public var kind: String {
    switch self {
    case .circle: "circle"
    case .beacon: "beacon"
    }
  }
}

/// A condition's state (`CLMonitor.Event.State`, `CLMonitoringState`: Apple's raw values).
public enum ConditionState: Int, Hashable, Sendable, CustomStringConvertible {
  /// Not yet known.
  case unknown = 0
  /// The condition holds: the device is inside the circle.
  case satisfied = 1
  /// The condition does not hold: the device is outside the circle.
  case unsatisfied = 2
  /// The condition is not being monitored (iOS 17.2).
  case unmonitored = 3

  /// The Swift case name.
  public var description: String {
    switch self {
    case .unknown: "unknown"
    case .satisfied: "satisfied"
    case .unsatisfied: "unsatisfied"
    case .unmonitored: "unmonitored"
    }
  }

  init(_ state: RegionState) {
    switch state {
    case .unknown: self = .unknown
    case .inside: self = .satisfied
    case .outside: self = .unsatisfied
    }
  }

  var regionState: RegionState {
    switch self {
    case .satisfied: .inside
    case .unsatisfied: .outside
    case .unknown, .unmonitored: .unknown
    }
  }
}

/// Why an event says the monitor cannot do what the app asked (the iOS 18 properties of
/// `CLMonitor.Event`, one flag each).
public struct MonitorDiagnostics: OptionSet, Hashable, Sendable {
  /// The flags as bits.
  public let rawValue: Int
  /// A set of flags from their bits.
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// The user denied the app location (its own setting, or Airplane mode) [A].
  public static let authorizationDenied = MonitorDiagnostics(rawValue: 1 << 0)
  /// Location Services are off for the whole phone [A].
  public static let authorizationDeniedGlobally = MonitorDiagnostics(rawValue: 1 << 1)
  /// Location is restricted for the app (parental controls, a profile) [A].
  public static let authorizationRestricted = MonitorDiagnostics(rawValue: 1 << 2)
  /// The app has When In Use permission and is not in use [A].
  public static let insufficientlyInUse = MonitorDiagnostics(rawValue: 1 << 3)
  /// The app has approximate location, under which circles are not monitored [A].
  public static let accuracyLimited = MonitorDiagnostics(rawValue: 1 << 4)
  /// The condition is beyond the app's limit of monitored conditions [A].
  public static let conditionLimitExceeded = MonitorDiagnostics(rawValue: 1 << 5)
  /// The phone cannot monitor this kind of condition (beacons) [A].
  public static let conditionUnsupported = MonitorDiagnostics(rawValue: 1 << 6)
  /// The monitor's storage is unavailable; never on the simulated phone, whose storage
  /// always is.
  public static let persistenceUnavailable = MonitorDiagnostics(rawValue: 1 << 7)
  /// The app must hold a service session for the monitor to work (iOS 18); set by the
  /// session model through ``Phone/setMonitorServiceSessionRequired(_:)``.
  public static let serviceSessionRequired = MonitorDiagnostics(rawValue: 1 << 8)
  /// A location permission prompt is on screen [A].
  public static let authorizationRequestInProgress = MonitorDiagnostics(rawValue: 1 << 9)

  /// Each flag with Apple's property name, in the order of the documentation.
  public static let named: [(MonitorDiagnostics, String)] = [
    (.accuracyLimited, "accuracyLimited"), (.authorizationDenied, "authorizationDenied"),
    (.authorizationDeniedGlobally, "authorizationDeniedGlobally"),
    (.authorizationRequestInProgress, "authorizationRequestInProgress"),
    (.authorizationRestricted, "authorizationRestricted"),
    (.conditionLimitExceeded, "conditionLimitExceeded"),
    (.conditionUnsupported, "conditionUnsupported"),
    (.insufficientlyInUse, "insufficientlyInUse"),
    (.persistenceUnavailable, "persistenceUnavailable"),
    (.serviceSessionRequired, "serviceSessionRequired"),
  ]

  /// The names of the flags set, in the order of ``named``.
  public var names: [String] { Self.named.filter { contains($0.0) }.map(\.1) }

  /// The flags under which the phone does not deliver a condition's transitions.
  static let blocking: MonitorDiagnostics = [
    .authorizationDenied, .authorizationDeniedGlobally, .authorizationRestricted,
    .insufficientlyInUse, .accuracyLimited, .serviceSessionRequired,
  ]
}

/// One event of a monitor's stream (`CLMonitor.Event`).
public struct ConditionEvent: Hashable, Sendable {
  /// The condition's identifier.
  public var identifier: String
  /// The condition's state.
  public var state: ConditionState
  /// When the event happened, in virtual time.
  public var date: SimTime
  /// What keeps the monitor from doing what the app asked, if anything.
  public var diagnostics: MonitorDiagnostics

  /// An event.
  public init(
    identifier: String, state: ConditionState, date: SimTime,
    diagnostics: MonitorDiagnostics = []
  ) {
    self.identifier = identifier
    self.state = state
    self.date = date
    self.diagnostics = diagnostics
  }
}

/// A condition and the last event the app received for it (`CLMonitor.Record`).
public struct ConditionRecord: Hashable, Sendable {
  /// The condition.
  public var condition: MonitorCondition
  /// The most recent event the app received for it; until the first, the assumed state.
  public var lastEvent: ConditionEvent
}
