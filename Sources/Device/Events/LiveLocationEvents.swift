import SimKernel

/// What the phone does for the iOS 17 and 18 location APIs (source `"location"`): live-updates
/// streams, service sessions and background activity sessions. A stream's fixes are logged as
/// its manager's `didUpdateLocations` (``LocationEvent``).
public enum LiveLocationEvent: LogEvent, Hashable {
  /// A live-updates stream started, served by location manager `manager`.
  case liveUpdatesStarted(stream: Int, manager: Int, configuration: LiveConfiguration)
  /// A live-updates stream ended (the app stopped iterating).
  case liveUpdatesStopped(stream: Int)
  /// The device has been still long enough: the stream paused.
  case liveUpdatesStationary(stream: Int)
  /// The device moves again: the stream resumed.
  case liveUpdatesResumed(stream: Int)
  /// The stream handed the app an update without a location, carrying `diagnostics`.
  case liveUpdate(stream: Int, diagnostics: [String])
  /// A service session was created, by the app or implicitly.
  case serviceSessionCreated(
    session: Int, authorization: ServiceSessionAuthorization, purposeKey: String?, implicit: Bool)
  /// A service session was invalidated.
  case serviceSessionInvalidated(session: Int)
  /// A service session's diagnostic changed.
  case serviceSessionDiagnostic(session: Int, diagnostics: [String])
  /// A background activity session was created; `active` when it was in the foreground.
  case backgroundActivitySessionCreated(session: Int, active: Bool)
  /// A background activity session was invalidated.
  case backgroundActivitySessionInvalidated(session: Int)

  /// The component that records these events.
  public static let source = "location"
  /// Every event this type records.
  public static let declarations = [
    LogEventDeclaration(
      source, "liveUpdatesStarted", fields: ["stream", "manager", "configuration"],
      "A live-updates stream started; `manager` serves it (its fixes are that manager's)."),
    LogEventDeclaration(
      source, "liveUpdatesStopped", fields: ["stream"], "A live-updates stream ended."),
    LogEventDeclaration(
      source, "liveUpdatesStationary", fields: ["stream"],
      "The device was still long enough: the stream paused after an `isStationary` update."),
    LogEventDeclaration(
      source, "liveUpdatesResumed", fields: ["stream"],
      "The device moves again: the stream resumed."),
    LogEventDeclaration(
      source, "liveUpdate", fields: ["stream", "diagnostics"],
      "The stream handed the app an update without a location, with these diagnostics."),
    LogEventDeclaration(
      source, "serviceSessionCreated",
      fields: ["session", "authorization", "purposeKey", "implicit"],
      "A service session was created (by the app, or implicitly for live updates or a monitor)."),
    LogEventDeclaration(
      source, "serviceSessionInvalidated", fields: ["session"],
      "A service session was invalidated."),
    LogEventDeclaration(
      source, "serviceSessionDiagnostic", fields: ["session", "diagnostics"],
      "A service session's diagnostic changed; `diagnostics` lists the properties set."),
    LogEventDeclaration(
      source, "backgroundActivitySessionCreated", fields: ["session", "active"],
      "A background activity session was created; `active` when in the foreground."),
    LogEventDeclaration(
      source, "backgroundActivitySessionInvalidated", fields: ["session"],
      "A background activity session was invalidated."),
  ]
  /// The event's name in the log.
  public var name: String {
    switch self {
    case .liveUpdatesStarted: "liveUpdatesStarted"
    case .liveUpdatesStopped: "liveUpdatesStopped"
    case .liveUpdatesStationary: "liveUpdatesStationary"
    case .liveUpdatesResumed: "liveUpdatesResumed"
    case .liveUpdate: "liveUpdate"
    case .serviceSessionCreated: "serviceSessionCreated"
    case .serviceSessionInvalidated: "serviceSessionInvalidated"
    case .serviceSessionDiagnostic: "serviceSessionDiagnostic"
    case .backgroundActivitySessionCreated: "backgroundActivitySessionCreated"
    case .backgroundActivitySessionInvalidated: "backgroundActivitySessionInvalidated"
    }
  }
  /// The event's fields, in the log's order.
  public var fields: [LogField] {
    switch self {
    case .liveUpdatesStarted(let stream, let manager, let configuration):
      return [
        LogField("stream", .int(Int64(stream))), LogField("manager", .int(Int64(manager))),
        LogField("configuration", .string(configuration.rawValue)),
      ]
    case .liveUpdatesStopped(let stream), .liveUpdatesStationary(let stream),
      .liveUpdatesResumed(let stream):
      return [LogField("stream", .int(Int64(stream)))]
    case .liveUpdate(let stream, let diagnostics):
      return [
        LogField("stream", .int(Int64(stream))),
        LogField("diagnostics", .array(diagnostics.map { .string($0) })),
      ]
    case .serviceSessionCreated(let session, let authorization, let purposeKey, let implicit):
      return [
        LogField("session", .int(Int64(session))),
        LogField("authorization", .string(authorization.rawValue)),
        LogField("purposeKey", purposeKey.map(LogValue.string) ?? .null),
        LogField("implicit", .bool(implicit)),
      ]
    case .serviceSessionInvalidated(let session),
      .backgroundActivitySessionInvalidated(let session):
      return [LogField("session", .int(Int64(session)))]
    case .serviceSessionDiagnostic(let session, let diagnostics):
      return [
        LogField("session", .int(Int64(session))),
        LogField("diagnostics", .array(diagnostics.map { .string($0) })),
      ]
    case .backgroundActivitySessionCreated(let session, let active):
      return [LogField("session", .int(Int64(session))), LogField("active", .bool(active))]
    }
  }
}
