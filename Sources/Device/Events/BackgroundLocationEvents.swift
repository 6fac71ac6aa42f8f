import Geo
import SimKernel

/// The significant-change location service (source `"location"`, beside ``LocationEvent``):
/// what the phone decided from its coarse estimate; each delivery to a manager is then logged
/// as `location.didUpdateLocations`.
public enum SignificantChangeEvent: LogEvent, Hashable {
  /// A manager started the service.
  case started(manager: Int)
  /// The service could not start: the app is not authorized.
  case refused(manager: Int)
  /// A manager stopped the service.
  case stopped(manager: Int)
  /// The phone decided a significant change at `location` (its coarse estimate).
  case decided(location: Location)
  /// A decided change did not reach the app.
  case suppressed(cause: RegionSuppression)

  /// The component that records these events.
  public static let source = "location"
  /// Every event this type records.
  public static let declarations = [
    LogEventDeclaration(
      source, "significantChangesStarted", fields: ["manager"],
      "A manager started the significant-change location service."),
    LogEventDeclaration(
      source, "significantChangesRefused", fields: ["manager"],
      "The significant-change service could not start: the app is not authorized."),
    LogEventDeclaration(
      source, "significantChangesStopped", fields: ["manager"],
      "A manager stopped the significant-change location service."),
    LogEventDeclaration(
      source, "significantChange",
      fields: ["latitude", "longitude", "horizontalAccuracy", "timestamp"],
      "The phone decided a significant change from its coarse estimate (the location delivered)."
    ),
    LogEventDeclaration(
      source, "significantChangeSuppressed", fields: ["cause"],
      "A significant change did not reach the app (`permission`, `appNotInUse`)."),
  ]
  /// The event's name in the log.
  public var name: String {
    switch self {
    case .started: "significantChangesStarted"
    case .refused: "significantChangesRefused"
    case .stopped: "significantChangesStopped"
    case .decided: "significantChange"
    case .suppressed: "significantChangeSuppressed"
    }
  }
  /// The event's fields, in the log's order.
  public var fields: [LogField] {
    switch self {
    case .started(let m), .refused(let m), .stopped(let m):
      return [LogField("manager", .int(Int64(m)))]
    case .decided(let fix):
      return [
        LogField("latitude", .double(fix.coordinate.latitude)),
        LogField("longitude", .double(fix.coordinate.longitude)),
        LogField("horizontalAccuracy", .double(fix.horizontalAccuracy)),
        LogField("timestamp", .int(fix.timestamp.nanoseconds)),
      ]
    case .suppressed(let cause):
      return [LogField("cause", .string(cause.rawValue))]
    }
  }
}

/// Visit monitoring (source `"visit"`): what the phone's visit detector decided and what
/// reached the app.
public enum VisitEvent: LogEvent, Hashable {
  /// A manager started visit monitoring (for the whole app).
  case started(manager: Int)
  /// The service could not start: the app is not authorized.
  case refused(manager: Int)
  /// A manager stopped visit monitoring (for the whole app).
  case stopped(manager: Int)
  /// A stay became a visit; its arrival is delivered after the arrival delay.
  case arrived(Visit)
  /// The device left a visit; its departure is delivered after the departure delay.
  case departed(Visit)
  /// A visit reached a manager's delegate.
  case didVisit(manager: Int, visit: Visit)
  /// A visit did not reach the app.
  case suppressed(cause: RegionSuppression)

  /// The component that records these events.
  public static let source = "visit"
  static let visitFields = ["latitude", "longitude", "horizontalAccuracy", "arrival", "departure"]
  /// Every event this type records.
  public static let declarations = [
    LogEventDeclaration(source, "started", fields: ["manager"], "Visit monitoring started."),
    LogEventDeclaration(
      source, "refused", fields: ["manager"],
      "Visit monitoring could not start: the app is not authorized."),
    LogEventDeclaration(source, "stopped", fields: ["manager"], "Visit monitoring stopped."),
    LogEventDeclaration(
      source, "arrived", fields: visitFields,
      "A stay became a visit (from the true trace); `arrival` in integer nanoseconds of virtual time."
    ),
    LogEventDeclaration(
      source, "departed", fields: visitFields,
      "The device left a visit; `arrival` is absent when it was unknown."),
    LogEventDeclaration(
      source, "didVisit", fields: ["manager"] + visitFields,
      "A visit reached the delegate; a missing `arrival` or `departure` is unknown."),
    LogEventDeclaration(
      source, "suppressed", fields: ["cause"],
      "A visit did not reach the app (`permission`, `appNotInUse`)."),
  ]
  /// The event's name in the log.
  public var name: String {
    switch self {
    case .started: "started"
    case .refused: "refused"
    case .stopped: "stopped"
    case .arrived: "arrived"
    case .departed: "departed"
    case .didVisit: "didVisit"
    case .suppressed: "suppressed"
    }
  }
  /// The event's fields, in the log's order.
  public var fields: [LogField] {
    switch self {
    case .started(let m), .refused(let m), .stopped(let m):
      return [LogField("manager", .int(Int64(m)))]
    case .arrived(let visit), .departed(let visit):
      return Self.fields(of: visit)
    case .didVisit(let m, let visit):
      return [LogField("manager", .int(Int64(m)))] + Self.fields(of: visit)
    case .suppressed(let cause):
      return [LogField("cause", .string(cause.rawValue))]
    }
  }

  private static func fields(of visit: Visit) -> [LogField] {
    [
      LogField("latitude", .double(visit.coordinate.latitude)),
      LogField("longitude", .double(visit.coordinate.longitude)),
      LogField("horizontalAccuracy", .double(visit.horizontalAccuracy)),
      LogField("arrival", visit.arrival.map { .int($0.nanoseconds) } ?? .null),
      LogField("departure", visit.departure.map { .int($0.nanoseconds) } ?? .null),
    ]
  }
}
