import Geo
import JSON
import SimKernel

/// What the location service does for the app's managers (source `"location"`).
public enum LocationEvent: LogEvent, Hashable {
  /// The app created a manager; managers are numbered from 1 in each process.
  case managerCreated(manager: Int)
  /// Updates started.
  case started(manager: Int)
  /// Updates could not start: the app is not authorized, or `reason` names a bad setting.
  case startRefused(manager: Int, reason: String?)
  /// Updates stopped.
  case stopped(manager: Int)
  /// A one-shot `requestLocation()` began.
  case requested(manager: Int)
  /// A one-shot request timed out without a fix.
  case requestFailed(manager: Int)
  /// Updates paused automatically.
  case paused(manager: Int)
  /// A fix reached the manager's delegate.
  case didUpdateLocations(manager: Int, location: Location)

  /// The component that records these events.
  public static let source = "location"
  /// Every event this type records.
  public static let declarations = [
    LogEventDeclaration(
      source, "managerCreated", fields: ["manager"], "The app created a manager."),
    LogEventDeclaration(source, "started", fields: ["manager"], "Location updates started."),
    LogEventDeclaration(
      source, "startRefused", fields: ["manager", "reason"],
      "Updates could not start: not authorized, or `reason` names the bad setting."),
    LogEventDeclaration(source, "stopped", fields: ["manager"], "Location updates stopped."),
    LogEventDeclaration(
      source, "requested", fields: ["manager"], "A one-shot requestLocation() began."),
    LogEventDeclaration(
      source, "requestFailed", fields: ["manager"], "A one-shot request timed out without a fix."),
    LogEventDeclaration(source, "paused", fields: ["manager"], "Updates paused automatically."),
    LogEventDeclaration(
      source, "didUpdateLocations",
      fields: ["manager", "latitude", "longitude", "horizontalAccuracy", "timestamp"],
      "A fix reached the delegate; `timestamp` in integer nanoseconds of virtual time."),
  ]
  /// The event's name in the log.
  public var name: String {
    switch self {
    case .managerCreated: "managerCreated"
    case .started: "started"
    case .startRefused: "startRefused"
    case .stopped: "stopped"
    case .requested: "requested"
    case .requestFailed: "requestFailed"
    case .paused: "paused"
    case .didUpdateLocations: "didUpdateLocations"
    }
  }
  /// The event's fields, in the log's order.
  public var fields: [LogField] {
    switch self {
    case .managerCreated(let m), .started(let m), .stopped(let m), .requested(let m),
      .requestFailed(let m), .paused(let m):
      return [LogField("manager", .int(Int64(m)))]
    case .startRefused(let m, let reason):
      return [
        LogField("manager", .int(Int64(m))),
        LogField("reason", reason.map(LogValue.string) ?? .null),
      ]
    case .didUpdateLocations(let m, let fix):
      return [
        LogField("manager", .int(Int64(m))),
        LogField("latitude", .double(fix.coordinate.latitude)),
        LogField("longitude", .double(fix.coordinate.longitude)),
        LogField("horizontalAccuracy", .double(fix.horizontalAccuracy)),
        LogField("timestamp", .int(fix.timestamp.nanoseconds)),
      ]
    }
  }

  /// Writes the source and the name; a fix's, the event of a fix a second, as one constant.
  public func writeSourceAndName(to out: inout JSONBuffer) {
    guard case .didUpdateLocations = self else {
      return EventLog.writeSourceAndName(Self.source, name, to: &out)
    }
    out.append(#""source":"location","event":"didUpdateLocations""#)
  }

  /// Writes ``fields``; a fix, the event of a fix a second, is written without building them.
  public func writeFields(to out: inout JSONBuffer) {
    guard case .didUpdateLocations(let manager, let fix) = self else {
      return EventLog.writeFields(fields, to: &out)
    }
    out.append("\"manager\":")
    out.writeInteger(Int64(manager))
    out.append(",\"latitude\":")
    EventLog.writeValue(.double(fix.coordinate.latitude), to: &out)
    out.append(",\"longitude\":")
    EventLog.writeValue(.double(fix.coordinate.longitude), to: &out)
    out.append(",\"horizontalAccuracy\":")
    EventLog.writeValue(.double(fix.horizontalAccuracy), to: &out)
    out.append(",\"timestamp\":")
    out.writeInteger(fix.timestamp.nanoseconds)
  }
}

/// A boundary transition the region monitor decided from the coarse position estimate, for a
/// region the app monitors or for a location-triggered notification request.
public struct RegionDecision: Hashable, Sendable {
  /// The region's identifier.
  public let identifier: String
  /// The state decided: `.inside` for an entry, `.outside` for an exit.
  public let state: RegionState
  /// The position estimate the decision was made from (what the phone believed).
  public let estimate: Coordinate
  /// The notification request whose trigger the region is, if it is one.
  public let request: String?

  /// A decision.
  public init(identifier: String, state: RegionState, estimate: Coordinate, request: String?) {
    self.identifier = identifier
    self.state = state
    self.estimate = estimate
    self.request = request
  }
}

/// Why a decided region event did not reach the app.
public enum RegionSuppression: String, Hashable, Sendable {
  /// The app is not authorized, or has reduced accuracy.
  case permission
  /// The app has When In Use permission and is not in use.
  case appNotInUse
}

/// Region monitoring (source `"region"`).
public enum RegionEvent: LogEvent, Hashable {
  /// The app started monitoring a region (replacing one with the same identifier), with its
  /// `notifyOnEntry` and `notifyOnExit` flags.
  case startMonitoring(
    identifier: String, center: Coordinate, radius: Double, notifyOnEntry: Bool = true,
    notifyOnExit: Bool = true)
  /// The app stopped monitoring a region it monitored.
  case stopMonitoring(identifier: String)
  /// Monitoring could not start.
  case monitoringDidFail(identifier: String, reason: String)
  /// `requestState(for:)` was answered.
  case didDetermineState(identifier: String, state: RegionState)
  /// The monitor decided a transition; it is delivered after a latency unless missed.
  case decided(RegionDecision)
  /// A decided transition was lost (the phone's miss probability).
  case missed(RegionDecision)
  /// A decided transition did not reach the app.
  case suppressed(identifier: String, cause: RegionSuppression)
  /// An entry was delivered; `notified` is the region's `notifyOnEntry`.
  case didEnterRegion(identifier: String, notified: Bool)
  /// An exit was delivered; `notified` is the region's `notifyOnExit`.
  case didExitRegion(identifier: String, notified: Bool)

  /// The component that records these events.
  public static let source = "region"
  /// Every event this type records.
  public static let declarations = [
    LogEventDeclaration(
      source, "startMonitoring",
      fields: ["identifier", "latitude", "longitude", "radius", "notifyOnEntry", "notifyOnExit"],
      "The app started monitoring a circular region (replacing one with the same identifier)."),
    LogEventDeclaration(
      source, "stopMonitoring", fields: ["identifier"], "The app stopped monitoring a region."),
    LogEventDeclaration(
      source, "monitoringDidFail", fields: ["identifier", "reason"],
      "Monitoring could not start."),
    LogEventDeclaration(
      source, "didDetermineState", fields: ["identifier", "state"],
      "requestState(for:) was answered."),
    LogEventDeclaration(
      source, "decided",
      fields: ["identifier", "state", "estimateLatitude", "estimateLongitude", "request"],
      "The monitor decided a transition from the coarse estimate; `request` for a location trigger."
    ),
    LogEventDeclaration(
      source, "missed",
      fields: ["identifier", "state", "estimateLatitude", "estimateLongitude", "request"],
      "A decided transition was lost."),
    LogEventDeclaration(
      source, "suppressed", fields: ["identifier", "cause"],
      "A decided transition did not reach the app (`permission`, `appNotInUse`)."),
    LogEventDeclaration(
      source, "didEnterRegion", fields: ["identifier", "notified"],
      "An entry was delivered; `notified` is the region's notifyOnEntry."),
    LogEventDeclaration(
      source, "didExitRegion", fields: ["identifier", "notified"],
      "An exit was delivered; `notified` is the region's notifyOnExit."),
  ]
  /// The event's name in the log.
  public var name: String {
    switch self {
    case .startMonitoring: "startMonitoring"
    case .stopMonitoring: "stopMonitoring"
    case .monitoringDidFail: "monitoringDidFail"
    case .didDetermineState: "didDetermineState"
    case .decided: "decided"
    case .missed: "missed"
    case .suppressed: "suppressed"
    case .didEnterRegion: "didEnterRegion"
    case .didExitRegion: "didExitRegion"
    }
  }
  /// The event's fields, in the log's order.
  public var fields: [LogField] {
    switch self {
    case .startMonitoring(let id, let center, let radius, let onEntry, let onExit):
      return [
        LogField("identifier", .string(id)), LogField("latitude", .double(center.latitude)),
        LogField("longitude", .double(center.longitude)), LogField("radius", .double(radius)),
        LogField("notifyOnEntry", .bool(onEntry)), LogField("notifyOnExit", .bool(onExit)),
      ]
    case .stopMonitoring(let id):
      return [LogField("identifier", .string(id))]
    case .monitoringDidFail(let id, let reason):
      return [LogField("identifier", .string(id)), LogField("reason", .string(reason))]
    case .didDetermineState(let id, let state):
      return [LogField("identifier", .string(id)), LogField("state", .string(state.description))]
    case .decided(let d), .missed(let d):
      return [
        LogField("identifier", .string(d.identifier)),
        LogField("state", .string(d.state.description)),
        LogField("estimateLatitude", .double(d.estimate.latitude)),
        LogField("estimateLongitude", .double(d.estimate.longitude)),
        LogField("request", d.request.map(LogValue.string) ?? .null),
      ]
    case .suppressed(let id, let cause):
      return [LogField("identifier", .string(id)), LogField("cause", .string(cause.rawValue))]
    case .didEnterRegion(let id, let notified), .didExitRegion(let id, let notified):
      return [LogField("identifier", .string(id)), LogField("notified", .bool(notified))]
    }
  }
}
