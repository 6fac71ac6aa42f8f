import Geo
import SimKernel

/// Condition monitoring through `CLMonitor` (source `"monitor"`): the conditions each named
/// monitor holds, the region engine's decisions about them, and the events delivered.
public enum MonitorEvent: LogEvent, Hashable {
  /// The app created a monitor with this name in its process.
  case opened(monitor: String)
  /// The app added a condition (replacing one with the same identifier).
  case conditionAdded(
    monitor: String, identifier: String, condition: MonitorCondition, assumed: ConditionState)
  /// The app removed a condition.
  case conditionRemoved(monitor: String, identifier: String)
  /// The region engine decided a transition of a condition; delivered after a latency unless
  /// missed (the first determination after the condition is added is delivered at once).
  case decided(monitor: String, identifier: String, state: ConditionState, estimate: Coordinate)
  /// A decided transition was lost (the phone's miss probability).
  case missed(monitor: String, identifier: String, state: ConditionState, estimate: Coordinate)
  /// A decided transition did not reach the app.
  case suppressed(monitor: String, identifier: String, cause: RegionSuppression)
  /// No monitor of this name was open to receive the event: it waits for one, and the phone
  /// stops watching the condition until then [A].
  case eventPending(monitor: String, identifier: String, state: ConditionState)
  /// An event reached the monitor's stream.
  case eventDelivered(
    monitor: String, identifier: String, state: ConditionState, diagnostics: MonitorDiagnostics)

  /// The component that records these events.
  public static let source = "monitor"
  /// Every event this type records.
  public static let declarations = [
    LogEventDeclaration(
      source, "opened", fields: ["monitor"], "The app created a CLMonitor with this name."),
    LogEventDeclaration(
      source, "conditionAdded",
      fields: ["monitor", "identifier", "kind", "latitude", "longitude", "radius", "assumed"],
      "The app added a condition (`kind` circle or beacon; the circle's centre and radius)."),
    LogEventDeclaration(
      source, "conditionRemoved", fields: ["monitor", "identifier"],
      "The app removed a condition."),
    LogEventDeclaration(
      source, "decided",
      fields: ["monitor", "identifier", "state", "estimateLatitude", "estimateLongitude"],
      "The region engine decided a condition's state from the coarse estimate."),
    LogEventDeclaration(
      source, "missed",
      fields: ["monitor", "identifier", "state", "estimateLatitude", "estimateLongitude"],
      "A decided transition was lost."),
    LogEventDeclaration(
      source, "suppressed", fields: ["monitor", "identifier", "cause"],
      "A decided transition did not reach the app (`permission`, `appNotInUse`)."),
    LogEventDeclaration(
      source, "eventPending", fields: ["monitor", "identifier", "state"],
      "No monitor of this name was open: the event waits for one; the condition is not watched meanwhile."
    ),
    LogEventDeclaration(
      source, "eventDelivered", fields: ["monitor", "identifier", "state", "diagnostics"],
      "An event reached the monitor's stream; `diagnostics` lists the iOS 18 flags set."),
  ]
  /// The event's name in the log.
  public var name: String {
    switch self {
    case .opened: "opened"
    case .conditionAdded: "conditionAdded"
    case .conditionRemoved: "conditionRemoved"
    case .decided: "decided"
    case .missed: "missed"
    case .suppressed: "suppressed"
    case .eventPending: "eventPending"
    case .eventDelivered: "eventDelivered"
    }
  }
  /// The event's fields, in the log's order.
  public var fields: [LogField] {
    switch self {
    case .opened(let monitor):
      return [LogField("monitor", .string(monitor))]
    case .conditionAdded(let monitor, let id, let condition, let assumed):
      var circle: (LogValue, LogValue, LogValue) = (.null, .null, .null)
      if case .circle(let latitude, let longitude, let radius) = condition {
        circle = (.double(latitude), .double(longitude), .double(radius))
      }
      return [
        LogField("monitor", .string(monitor)), LogField("identifier", .string(id)),
        LogField("kind", .string(condition.kind)), LogField("latitude", circle.0),
        LogField("longitude", circle.1), LogField("radius", circle.2),
        LogField("assumed", .string(assumed.description)),
      ]
    case .conditionRemoved(let monitor, let id):
      return [LogField("monitor", .string(monitor)), LogField("identifier", .string(id))]
    case .decided(let monitor, let id, let state, let estimate),
      .missed(let monitor, let id, let state, let estimate):
      return [
        LogField("monitor", .string(monitor)), LogField("identifier", .string(id)),
        LogField("state", .string(state.description)),
        LogField("estimateLatitude", .double(estimate.latitude)),
        LogField("estimateLongitude", .double(estimate.longitude)),
      ]
    case .suppressed(let monitor, let id, let cause):
      return [
        LogField("monitor", .string(monitor)), LogField("identifier", .string(id)),
        LogField("cause", .string(cause.rawValue)),
      ]
    case .eventPending(let monitor, let id, let state):
      return [
        LogField("monitor", .string(monitor)), LogField("identifier", .string(id)),
        LogField("state", .string(state.description)),
      ]
    case .eventDelivered(let monitor, let id, let state, let diagnostics):
      return [
        LogField("monitor", .string(monitor)), LogField("identifier", .string(id)),
        LogField("state", .string(state.description)),
        LogField("diagnostics", .array(diagnostics.names.map { .string($0) })),
      ]
    }
  }
}
